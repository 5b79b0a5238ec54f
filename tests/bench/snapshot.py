"""Snapshot of every output: build every built-in deck and book from nothing, run a few exports, hash every file.

Two snapshots of two versions of the code are compared to show that a change leaves every output byte for byte
as it was (or to list what it changed):

    python tests/bench/snapshot.py write before.json [--code DIR]   # DIR: another checkout's top folder
    python tests/bench/snapshot.py write after.json
    python tests/bench/snapshot.py compare before.json after.json

With ``--keep DIR`` the files are kept in DIR; ``pictures OLD NEW`` then draws each file that differs between two
kept folders (PDF pages at 40 dpi, PNGs as they are) and prints the share of its pixels that differ visibly, so a
change meant to move bytes alone is seen to change nothing on the page.

Everything runs as fresh ``aetherpress`` processes in a temporary folder, with a cache of its own that starts
empty: the built-in data alone (every deck, variant, edition and rulebook; a proof and a box; the exports of
every kind; a calibration page; a printed rulebook; exact odds as JSON), then a designer's project made by
``aetherpress new`` and built.  The sealed manifests Aetherpress keeps in its folders are left out (their seal
is the user's secret, which differs from one machine to the next).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEFT_OUT = {".aetherpress-manifest.json"}

# (folder the command runs in, arguments, file the standard output goes to or None)
BUILTIN = [
    ("build", ["build", "--out", "{out}/build"], None),
    ("build", ["build", "imperial", "pernese:red-star", "--proof", "--box", "--out", "{out}/proof-box"], None),
    (
        "build",
        ["build", "aetherial", "--layout", "gutterfold", "--paper", "letter", "--greyscale", "--out", "{out}/gutter"],
        None,
    ),
    ("build", ["build", "imperial", "decktet", "--combine", "--shared-bleed", "--out", "{out}/combined"], None),
    ("build", ["export", "pod", "aetherial", "--out", "{out}/pod"], None),
    ("build", ["export", "png", "dragons-gambit", "--dpi", "150", "--out", "{out}/png"], None),
    ("build", ["export", "svg", "imperial:labelled", "--out", "{out}/svg"], None),
    ("build", ["export", "tts", "standard", "--url-base", "https://example.org/tts", "--out", "{out}/tts"], None),
    ("build", ["box", "decktet", "--paper", "letter", "--out", "{out}/box"], None),
    ("build", ["calibrate", "--out", "{out}/calibrate"], None),
    ("build", ["rulebook", "lith", "--booklet", "--out", "{out}/booklet"], None),
    ("build", ["odds", "founders-flip", "--json"], "{out}/odds/founders-flip.json"),
]


def _hash_tree(folder: Path) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name not in LEFT_OUT
    }


def _run(args: list[str], cwd: Path, env: dict[str, str], out: Path, stdout: str | None) -> float:
    command = [sys.executable, "-m", "generator", *(a.format(out=out) for a in args)]
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    if stdout is not None:
        target = Path(stdout.format(out=out))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(result.stdout, encoding="utf-8")
    print(f"  {elapsed:6.1f} s  aetherpress {' '.join(args).replace('{out}/', '')}", flush=True)
    return elapsed


def write(target: Path, code: Path | None, keep: Path | None = None) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE",)}
    env["PYTHONHASHSEED"] = "0"
    if code is not None:
        env["PYTHONPATH"] = str(code.resolve())
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        out = tmp / "out"
        env["AETHERPRESS_CACHE_DIR"] = str(tmp / "cache")
        (tmp / "build").mkdir()
        total = 0.0
        for folder, args, stdout in BUILTIN:
            total += _run(args, tmp / folder, env, out, stdout)
        # a designer's project, with a cache of its own inside its output folder
        del env["AETHERPRESS_CACHE_DIR"]
        total += _run(["new", "demo"], tmp, env, out, None)
        total += _run(["build"], tmp / "demo", env, out, None)
        total += _run(["export", "png", "--dpi", "100", "--out", "{out}/demo-png"], tmp / "demo", env, out, None)
        files = _hash_tree(out) | {f"demo/{name}": h for name, h in _hash_tree(tmp / "demo" / "output").items()}
        files = {name: h for name, h in files.items() if not name.startswith("demo/.cache/")}
        if keep is not None:
            shutil.copytree(out, keep / "out", dirs_exist_ok=True)
            shutil.copytree(tmp / "demo" / "output", keep / "demo", dirs_exist_ok=True, ignore=shutil.ignore_patterns(".cache"))
    target.write_text(json.dumps(files, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(files)} files hashed into {target} ({total:.0f} s of commands)")


def compare(before: Path, after: Path) -> int:
    a = json.loads(before.read_text(encoding="utf-8"))
    b = json.loads(after.read_text(encoding="utf-8"))
    same = sorted(name for name in a if b.get(name) == a[name])
    changed = sorted(name for name in a if name in b and b[name] != a[name])
    gone, new = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    print(
        f"{len(a)} files before, {len(b)} after: {len(same)} identical, {len(changed)} changed, {len(gone)} gone, {len(new)} new"
    )
    for label, names in (("changed", changed), ("gone", gone), ("new", new)):
        for name in names:
            print(f"  {label}: {name}")
    return 0 if not (changed or gone or new) else 1


VISIBLE = 24  # levels of 255 a pixel must differ by to count


def _pictures(path: Path) -> list:
    """The pages of a PDF at 40 dpi, or a PNG, as arrays."""
    import numpy as np
    import pypdfium2 as pdfium
    from PIL import Image

    if path.suffix == ".png":
        with Image.open(path) as image:
            return [np.asarray(image.convert("RGB"), dtype=np.int16)]
    document = pdfium.PdfDocument(path.read_bytes())
    try:
        return [np.asarray(page.render(scale=40 / 72).to_pil().convert("RGB"), dtype=np.int16) for page in document]
    finally:
        document.close()


def pictures(old: Path, new: Path) -> int:
    """Each PDF or PNG that differs between two kept folders, drawn: the share of its pixels that differ visibly."""
    names = sorted(p.relative_to(old) for p in old.rglob("*") if p.suffix in (".pdf", ".png") and p.is_file())
    found = []
    for name in names:
        a, b = old / name, new / name
        if not b.is_file() or a.read_bytes() == b.read_bytes():
            continue
        pages_a, pages_b = _pictures(a), _pictures(b)
        if len(pages_a) != len(pages_b) or any(x.shape != y.shape for x, y in zip(pages_a, pages_b)):
            found.append((1.0, str(name)))
            continue
        worst = max(float((abs(x - y).max(axis=2) > VISIBLE).mean()) for x, y in zip(pages_a, pages_b))
        found.append((worst, str(name)))
    found.sort(reverse=True)
    print(f"{len(found)} files differ in bytes; the most pixels differing visibly on one page:")
    for share, name in found[:20]:
        print(f"  {share * 100:7.3f} %  {name}")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    w = commands.add_parser("write")
    w.add_argument("target", type=Path)
    w.add_argument("--code", type=Path, help="the top folder of another checkout whose code to run")
    w.add_argument("--keep", type=Path, help="a folder to keep the files in")
    p = commands.add_parser("pictures")
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    c = commands.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "write":
        write(args.target, args.code, args.keep)
    elif args.command == "pictures":
        sys.exit(pictures(args.old, args.new))
    else:
        sys.exit(compare(args.before, args.after))


if __name__ == "__main__":
    main()
