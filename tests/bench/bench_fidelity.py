"""Benchmark: how closely each print path follows the preview, side by side, in one run.

Every face and back of every built-in deck (each variant) and of a designer's
deck (tests/designer.py: transparent, palette, grey, 16-bit, camera and CMYK
pictures, opacity, a fading mask, a blend, a project font) is drawn by headless
Chromium with the preview's fonts, then by each print path, and compared pixel
by pixel at 100 dpi after a small blur (tests/fidelity.py says how).  Per path
and group it prints the worst and the median share of differing pixels and
the worst side.  CMYK paths are compared with the browser's picture separated
through the same printer profile (a soft proof of what the browser drew).

Baseline, in the same run: the browser against itself (two draws of the same
sides), which must be 0.

    python tests/bench/bench_fidelity.py [--keep FOLDER]   (FOLDER: side-by-side pictures to look at)

Target: at most 1 % on every side of every path.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.definitions import load_all  # noqa: E402
from generator.faces.render import FaceRenderer  # noqa: E402
from generator.preview.sidepng import side_png  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.render.vector import font_files  # noqa: E402
from tests.designer import designer_project  # noqa: E402
from tests.fidelity import DPI, Browser, compare, compare_cmyk, differing, font_css, sides_of, size_px  # noqa: E402

CMYK_DECKS = (("imperial", ("standard",), "coated"), ("aetherial", (), "uncoated"), ("pernese", ("coloured",), "coated"))


def raster(browser, project: Project, deck) -> dict[str, float]:
    """The preview's own raster view (the print path's PNG of a side) against the browser's drawing."""
    import numpy as np
    from PIL import Image

    faces = FaceRenderer(project, deck)
    sides = sides_of(deck)
    svgs = [faces.face(card) if side == "front" else faces.back(card) for card, side in sides]
    size = size_px((faces.geometry.width, faces.geometry.height))
    seen = browser.draw(svgs, size, font_css(project))
    fonts = font_files(faces.fonts)
    found = {}
    for (card, side), svg, picture in zip(sides, svgs, seen, strict=True):
        png = side_png(svg, faces.geometry, "bench", fonts, dpi=DPI)
        found[f"{deck.key} {card.id} {side}"] = differing(
            picture, np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
        )
    return found


def itself(browser, project: Project, deck) -> dict[str, float]:
    faces = FaceRenderer(project, deck)
    svgs = [faces.face(card) for card in deck.cards]
    size = size_px((faces.geometry.width, faces.geometry.height))
    first, again = browser.draw(svgs, size, font_css(project)), browser.draw(svgs, size, font_css(project))
    return {f"{deck.key} {card.id}": differing(a, b) for card, a, b in zip(deck.cards, first, again, strict=True)}


def line(path: str, group: str, found: dict[str, float], seconds: float) -> str:
    worst = max(found, key=lambda k: found[k])
    return (
        f"{path:34s} {group:9s} {len(found):4d} sides  worst {found[worst] * 100:6.3f} %  "
        f"median {statistics.median(found.values()) * 100:6.3f} %  ({seconds:5.1f} s)  worst: {worst}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", type=Path, help="write each side's pictures side by side into this folder")
    args = parser.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    built_in = Project(ROOT)
    definitions = load_all(built_in)
    decks = [d.build(v) for d in definitions.values() for v in ([(x,) for x in d.variant_specs] or [()])]
    tmp = tempfile.TemporaryDirectory()
    with contextlib.redirect_stdout(io.StringIO()):
        atelier = Project(designer_project(Path(tmp.name)))
    designer = load_all(atelier)["atelier"].build(())
    browser = Browser()
    rows = []
    try:

        def run(path: str, group: str, measure) -> None:
            start = time.perf_counter()
            found: dict[str, float] = {}
            for item in measure:
                found.update(item())
            rows.append(line(path, group, found, time.perf_counter() - start))
            print(rows[-1], flush=True)

        run("baseline: the browser against itself", "built-in", [lambda d=d: itself(browser, built_in, d) for d in decks[:2]])
        run("card files (sheets, PNG, TTS forms)", "built-in", [lambda d=d: compare(browser, built_in, d) for d in decks])
        run("card files (sheets, PNG, TTS forms)", "designer", [lambda: compare(browser, atelier, designer, args.keep)])
        run("preview raster (300 dpi view)", "built-in", [lambda d=d: raster(browser, built_in, d) for d in decks[:4]])
        run("preview raster (300 dpi view)", "designer", [lambda: raster(browser, atelier, designer)])
        for level in ("4", "1a"):
            cmyk = [
                lambda deck=definitions[d].build(v), stock=s, level=level: compare_cmyk(
                    browser, built_in, deck, stock, pdfx=level
                )
                for d, v, s in CMYK_DECKS
            ]
            run(f"PDF/X-{level} CMYK (soft proof)", "built-in", cmyk)
            keep = args.keep if level == "4" else None
            run(
                f"PDF/X-{level} CMYK (soft proof)",
                "designer",
                [lambda level=level, keep=keep: compare_cmyk(browser, atelier, designer, "coated", keep, level)],
            )
    finally:
        browser.close()
        tmp.cleanup()
    print("target: at most 1 % on every side of every path")


if __name__ == "__main__":
    main()
