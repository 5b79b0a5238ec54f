"""Benchmark: what converting a card side to PDF costs, and what batching or fewer fonts would save, in one run.

The sides are the fronts of a designer's deck from ``aetherpress new`` grown to ``--cards`` rows (plain cards:
a title, a rank, a suit mark and a line of rules text), drawn once; each way of converting them then runs in
turns, ``--repeat`` times, in this process.  Per side, each way gives its wall time, its user and system CPU
time (the system time is the kernel's work for the renderer: mapping font files, touching their pages) and
its minor page faults, with its ratio to the named baseline, one ``svg2pdf_py.svg_to_pdf`` call per side as
Aetherpress makes each side's piece:

- ``nine to a page``: nine sides placed on one SVG page, converted in one call (a sheet-page conversion);
- ``list of pages``: ``svg2pdf_py.svg_pages_to_pdfs`` over all the sides (a batched conversion);
- ``named fonts only``: each side with a font database of only the families it names;
- ``without text``: the sides with their text removed: what is left when no glyph is looked up.

With ``strace`` on the machine it also counts how often each font file is opened per side (the renderer's
font database holds files by path and maps the file again each time a glyph is looked up; a font whose names
Aetherpress makes agree for the renderer is opened as a copy named by its digest).

    python tests/bench/bench_conversion.py [--cards N] [--repeat N]
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

import svg2pdf_py  # noqa: E402
from bench_speed import big_project  # noqa: E402

from generator.cli.common import resolve_decks  # noqa: E402
from generator.pipeline.context import ProjectContext  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.project.files import writing_into  # noqa: E402
from generator.render.vector import _database, _in_points, as_chromium_places, font_files, parse_svg  # noqa: E402

OPTIONS = svg2pdf_py.ConversionOptions(compress=True, raster_scale=1.0)


def fronts(cards: int, folder: Path) -> list[str]:
    """The SVG of every front of a grown ``aetherpress new`` deck, as the renderer is given it."""
    root = big_project(folder, cards)
    project = Project(root)
    with writing_into(folder):
        context = ProjectContext(project)
        (deck,) = resolve_decks(project, [])
        sides = context.sides(deck, keep=False)
        svgs = [sides.side(card, "front").svg for card in deck.cards]
    loaded = _database(font_files())
    given = []
    for svg in svgs:
        root_element = parse_svg(svg, "bench", None)
        as_chromium_places(root_element, loaded.half_heights)
        given.append(_in_points(root_element))
    return given


def nine_up(sides: list[str]) -> list[str]:
    """The sides nine to an SVG page, each placed as a nested ``<svg>`` of its own size."""
    pages = []
    for first in range(0, len(sides), 9):
        placed = []
        for n, side in enumerate(sides[first : first + 9]):
            w, h = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', side).groups())  # type: ignore[union-attr]
            inner = re.sub(r"^<svg[^>]*>|</svg>\s*$", "", side.strip())
            box = re.search(r'viewBox="([^"]+)"', side).group(1)  # type: ignore[union-attr]
            placed.append(f'<svg x="{(n % 3) * w}" y="{(n // 3) * h}" width="{w}" height="{h}" viewBox="{box}">{inner}</svg>')
        pages.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{3 * w}" height="{3 * h}">{"".join(placed)}</svg>')
    return pages


def named_databases(sides: list[str]) -> list[svg2pdf_py.FontDatabase]:
    """For each side, a database of the font files of the families it names (loaded before timing)."""
    files = font_files()
    made: dict[frozenset[str], svg2pdf_py.FontDatabase] = {}
    found = []
    for side in sides:
        families = frozenset(f.strip("'\" ").replace(" ", "") for f in re.findall(r'font-family="([^"]+)"', side))
        if families not in made:
            database = svg2pdf_py.FontDatabase()
            for path in files:
                if any(Path(path).name.startswith(family) for family in families):
                    database.load_font_file(path)
            made[families] = database
        found.append(made[families])
    return found


def measured(work: Callable[[], object], count: int) -> tuple[float, float, float, float]:
    """(wall, user, system) milliseconds and minor page faults per side of ``work`` over ``count`` sides."""
    before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    work()
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF)
    return (
        wall * 1000 / count,
        (after.ru_utime - before.ru_utime) * 1000 / count,
        (after.ru_stime - before.ru_stime) * 1000 / count,
        (after.ru_minflt - before.ru_minflt) / count,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=270)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sides = fronts(args.cards, Path(tmp))
    database = _database(font_files()).database
    pages = nine_up(sides)
    databases = named_databases(sides)
    bare = [re.sub(r"<text\b.*?</text>", "", side, flags=re.S) for side in sides]
    ways: dict[str, Callable[[], object]] = {
        "one call a side (baseline)": lambda: [svg2pdf_py.svg_to_pdf(s, database, OPTIONS) for s in sides],
        "nine to a page": lambda: [svg2pdf_py.svg_to_pdf(p, database, OPTIONS) for p in pages],
        "list of pages": lambda: svg2pdf_py.svg_pages_to_pdfs(sides, database, OPTIONS),
        "named fonts only": lambda: [svg2pdf_py.svg_to_pdf(s, d, OPTIONS) for s, d in zip(sides, databases)],
        "without text": lambda: [svg2pdf_py.svg_to_pdf(s, database, OPTIONS) for s in bare],
    }
    figures: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in ways}
    for _ in range(args.repeat):
        for name, work in ways.items():
            figures[name].append(measured(work, len(sides)))
    base = [f[0] for f in figures["one call a side (baseline)"]]
    print(
        f"{len(sides)} sides, {args.repeat} rounds in turns; per side, medians; ratio: wall time against the baseline's in the same round"
    )
    print(f"{'way':28s} {'wall ms':>8s} {'user ms':>8s} {'sys ms':>8s} {'faults':>7s} {'ratio':>6s}")
    for name, rounds in figures.items():
        wall, user, system, faults = (statistics.median(r[i] for r in rounds) for i in range(4))
        ratio = statistics.median(r[0] / b for r, b in zip(rounds, base))
        print(f"{name:28s} {wall:8.2f} {user:8.2f} {system:8.2f} {faults:7.0f} {ratio:6.2f}x")
    if shutil.which("strace"):
        print(f"font files opened per side (strace, {OPENED} sides): {opened_per_side(sides[:OPENED], tmp_name())}")


OPENED = 20


def tmp_name() -> Path:
    return Path(tempfile.mkdtemp(prefix="bench-conversion-"))


def opened_per_side(sides: list[str], folder: Path) -> str:
    """How many times each font file is opened while ``sides`` are converted, per side, by font."""
    given = folder / "sides.txt"
    given.write_text("\0".join(sides), encoding="utf-8")
    script = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); import svg2pdf_py\n"
        "from generator.render.vector import _database, font_files\n"
        "d = _database(font_files()).database; o = svg2pdf_py.ConversionOptions(compress=True, raster_scale=1.0)\n"
        f"sides = open({str(given)!r}, encoding='utf-8').read().split('\\0'); print('go', flush=True)\n"
        "[svg2pdf_py.svg_to_pdf(s, d, o) for s in sides]\n"
    )
    log = folder / "trace.txt"
    subprocess.run(
        ["strace", "-f", "-e", "trace=openat,write", "-o", str(log), sys.executable, "-c", script], capture_output=True
    )
    lines = log.read_text(errors="replace").splitlines()
    after = next((n for n, line in enumerate(lines) if "go\\n" in line), 0)  # the database's own loading left out
    counts: dict[str, int] = {}
    for line in lines[after:]:
        found = re.search(r'openat\(.*?"([^"]+\.(?:ttf|otf))"', line)
        if found:
            name = Path(found.group(1)).name
            counts[name] = counts.get(name, 0) + 1
    shutil.rmtree(folder, ignore_errors=True)
    often = sorted(((name, n / len(sides)) for name, n in counts.items() if n >= len(sides)), key=lambda kv: -kv[1])
    return ", ".join(f"{name} {n:.0f}" for name, n in often) or "none"


if __name__ == "__main__":
    main()
