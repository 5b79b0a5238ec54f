"""The catalogue of broken and hostile inputs (tests/fixtures/broken-inputs.toml).

Every case must fail with exit status 2, exactly the catalogued lines on
stderr, no traceback, no file written under the output folder, and nothing
outside the project read or written: a canary file beside the project must
stay byte for byte the same and its text must not show up anywhere.
"""

from __future__ import annotations

import base64
import os
import shlex
import shutil
import struct
import tomllib
import zlib
from pathlib import Path

import pytest

from generator.cli import main

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
CASES = tomllib.loads((FIXTURES / "broken-inputs.toml").read_text(encoding="utf-8"))["case"]
CANARY = b"CANARY 7f3a: nothing outside the project may be read or written\n"


def make_project(tmp_path: Path, templates: tuple[str, ...] = ()) -> Path:
    """The catalogue's good project in ``tmp_path/project``, with copies of the named built-in card
    templates, and a canary file in ``tmp_path/outside``."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "catalogue-base" / "decks", root / "decks")
    for name in templates:
        (root / "templates").mkdir(exist_ok=True)
        shutil.copy(ROOT / "templates" / "cards" / f"{name}.svg.j2", root / "templates" / f"{name}.svg.j2")
    (tmp_path / "outside").mkdir(exist_ok=True)
    (tmp_path / "outside" / "secret.txt").write_bytes(CANARY)
    return root


def blank_png(width: int, height: int) -> bytes:
    """A valid black PNG of one bit a pixel, however large (made row by row: it is never held decoded)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = bytes(1 + (width + 7) // 8)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    head = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def apply_case(root: Path, case: dict) -> None:
    for name in case.get("templates", []):
        (root / "templates").mkdir(exist_ok=True)
        shutil.copy(ROOT / "templates" / "cards" / f"{name}.svg.j2", root / "templates" / f"{name}.svg.j2")
    for edit in case.get("edit", []):
        path = root / edit["file"]
        text = path.read_text(encoding="utf-8")
        assert edit["old"] in text, f"catalogue edit does not apply: {edit['old']!r}"
        path.write_text(text.replace(edit["old"], edit["new"], 1), encoding="utf-8")
    for write in case.get("write", []):
        path = root / write["file"]
        path.parent.mkdir(parents=True, exist_ok=True)
        if "hex" in write:
            path.write_bytes(bytes.fromhex(write["hex"]))
        elif "base64" in write:
            path.write_bytes(base64.b64decode(write["base64"]))
        else:
            text = write["text"] + write.get("repeat_text", "") * write.get("repeat", 0) + write.get("tail", "")
            path.write_bytes(text.encode("utf-8"))
    for name in case.get("folder", []) + case.get("fifo", []):
        path = root / name
        path.unlink(missing_ok=True)
        path.mkdir() if name in case.get("folder", []) else os.mkfifo(path)
    for name, (width, height) in case.get("png", {}).items():
        (root / name).write_bytes(blank_png(width, height))
    for link in case.get("link", []):
        path = root / link["file"]
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() or path.is_symlink():
            path.unlink() if not path.is_dir() or path.is_symlink() else shutil.rmtree(path)
        path.symlink_to(link["to"])


def test_catalogue_is_large_enough():
    assert len(CASES) >= 150
    assert len({c["name"] for c in CASES}) == len(CASES)


def test_the_base_project_is_good(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["validate"]) == 0
    assert main(["build", "cat", "--out", str(root / "output")]) == 0
    assert (root / "output" / "cat" / "cat-sheets.pdf").is_file()
    assert main(["rulebook", "cat", "--out", str(root / "output")]) == 0
    assert (root / "output" / "cat.pdf").is_file()
    assert main(["odds", "snap"]) == 0


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_broken_input(case, tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    apply_case(root, case)
    monkeypatch.chdir(root)
    for key, value in case.get("env", {}).items():
        monkeypatch.setenv(key, value)
    args = shlex.split(case.get("command", "validate"))
    if args[0] in ("build", "export", "rulebook", "calibrate") and "--out" not in args:
        args += ["--out", "output"]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == case.get("status", 2), (out, err)  # a print difference is warned of, the side still drawn
    assert "Traceback" not in err + out
    assert err.rstrip("\n") == case["expected"]
    output = root / "output"
    assert not output.exists() or not any(p.is_file() for p in output.rglob("*")), "a failed run left files behind"
    assert (tmp_path / "outside" / "secret.txt").read_bytes() == CANARY
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["secret.txt"]
    assert b"CANARY" not in (out + err).encode()
