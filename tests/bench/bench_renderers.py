"""Benchmark: SVG renderers for print, measured on the same sides against the browser the preview uses.

Each candidate draws every side of the built-in decks (one variant of each) and
of a designer's deck (transparent and camera pictures, opacity, a fading mask,
a blend) into a one-page PDF, which pdfium rasterises at 100 dpi (resvg draws
pixels directly).  Figures per candidate, in one run:

- fidelity: the share of a side's pixels that differ from headless Chromium's
  drawing of the same SVG with the preview's fonts (see tests/fidelity.py),
  worst and median over the built-in sides and over the designer's sides;
  a side the candidate refuses or fails on counts as 100 %;
- CPU per side (time.process_time of this process, conversion only);
- PDF bytes per side; whether its text is embedded as font subsets;
- the licence, from the installed package's own metadata.

Baseline, in the same run: svglib + reportlab, the renderer Aetherpress used before.
Candidates that are not installed are listed as such; to measure them all:

    pip install svglib cairosvg skia-python resvg-py
    python tests/bench/bench_renderers.py
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

from generator.definitions import load_all  # noqa: E402
from generator.faces.render import FaceRenderer  # noqa: E402
from generator.locations import FONTS_DIR  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.render.vector import font_files, side_pdf  # noqa: E402
from generator.resources.fonts import font_book  # noqa: E402
from tests.designer import designer_project  # noqa: E402
from tests.fidelity import DPI, Browser, differing, font_css, pdf_pictures, size_px  # noqa: E402

DECKS = (("imperial", ()), ("aetherial", ()), ("decktet", ("extended",)), ("dragons-gambit", ()), ("pernese", ("coloured",)))


def _svglib(svg: str, fonts: tuple[str, ...], size_mm) -> bytes:
    from reportlab.graphics import renderPDF
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from svglib import fonts as svg_fonts
    from svglib.svglib import SvgRenderer

    from generator.faces.svg import parse_svg

    for path in fonts:
        name = Path(path).stem
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, path))
            family, _, face = name.partition("-")
            family = {"EBGaramond": "EB Garamond", "SourceSans3": "Source Sans 3", "AtelierSans": "Atelier Sans"}.get(
                family, family
            )
            weight = "bold" if "Bold" in face else "normal"
            style = "italic" if "Italic" in face else "normal"
            svg_fonts.register_font(family, path, weight, style, name)
    drawing = SvgRenderer("bench").render(parse_svg(svg, "bench"))
    return renderPDF.drawToString(drawing)


def _svg2pdf(svg: str, fonts: tuple[str, ...], size_mm) -> bytes:
    return side_pdf(svg, "bench", None, fonts)


def _cairosvg(svg: str, fonts: tuple[str, ...], size_mm) -> bytes:
    import cairosvg  # draws text with the machine's fonts: it cannot be given ours

    return cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))


def _skia(svg: str, fonts: tuple[str, ...], size_mm) -> bytes:
    import skia  # its SVG module draws text with the machine's fonts: skia-python cannot give it ours

    with tempfile.NamedTemporaryFile("w", suffix=".svg", encoding="utf-8") as f:
        f.write(svg)
        f.flush()
        dom = skia.SVGDOM.MakeFromStream(skia.Stream.MakeFromFile(f.name))
    w, h = (v / 25.4 * 72 for v in size_mm)
    stream = skia.DynamicMemoryWStream()
    document = skia.PDF.MakeDocument(stream)
    canvas = document.beginPage(w, h)
    canvas.scale(72 / 96, 72 / 96)
    dom.setContainerSize(skia.Size(w * 96 / 72, h * 96 / 72))
    dom.render(canvas)
    document.endPage()
    document.close()
    return stream.detachAsData().bytes()


def _resvg(svg: str, fonts: tuple[str, ...], size_mm) -> bytes:
    import resvg_py  # pixels only: no PDF

    return bytes(
        resvg_py.svg_to_bytes(svg_string=svg, dpi=DPI, font_files=list(fonts), skip_system_fonts=True, background="white")
    )


CANDIDATES: list[tuple[str, str, str, Callable]] = [
    ("svglib + reportlab (baseline)", "svglib", "pdf", _svglib),
    ("svg2pdf-py (Typst svg2pdf, usvg)", "svg2pdf-py", "pdf", _svg2pdf),
    ("CairoSVG (cairo)", "cairosvg", "pdf", _cairosvg),
    ("skia-python (Skia SVG + PDF)", "skia-python", "pdf", _skia),
    ("resvg-py (raster only)", "resvg-py", "png", _resvg),
]


def _licence(package: str) -> str:
    try:
        meta = importlib.metadata.metadata(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"
    found = meta.get("License-Expression") or meta.get("License") or ""
    if not found or len(found) > 40:
        found = next((c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License")), found[:40])
    return f"{found} ({meta['Version']})"


def _sides(project: Project, decks) -> list[tuple[str, str, tuple[float, float]]]:
    found = []
    for deck in decks:
        faces = FaceRenderer(project, deck)
        size = (faces.geometry.width, faces.geometry.height)
        found += [(f"{deck.key} {c.id}", faces.face(c), size) for c in deck.cards]
        found.append((f"{deck.key} back", faces.back(deck.cards[0]), size))
    return found


def _embedded(pdf: bytes) -> str:
    if not pdf.startswith(b"%PDF"):
        return "-"
    return "subsets" if b"/FontFile2" in pdf or b"/FontFile3" in pdf else ("fonts, not embedded" if b"/Font" in pdf else "none")


def main() -> None:
    built_in = Project(ROOT)
    definitions = load_all(built_in)
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        atelier = Project(designer_project(Path(tmp)))
        designer = load_all(atelier)["atelier"].build(())
        groups = {
            "built-in": (built_in, _sides(built_in, [definitions[d].build(v) for d, v in DECKS])),
            "designer": (atelier, _sides(atelier, [designer])),
        }
        browser = Browser()
        seen = {}
        try:
            for name, (project, sides) in groups.items():
                by_size: dict[tuple, list[int]] = {}
                for n, (_, _, size) in enumerate(sides):
                    by_size.setdefault(size_px(size), []).append(n)
                pictures: dict[int, np.ndarray] = {}
                for px, numbers in by_size.items():
                    for n, picture in zip(numbers, browser.draw([sides[i][1] for i in numbers], px, font_css(project))):
                        pictures[n] = picture
                seen[name] = [pictures[n] for n in range(len(sides))]
        finally:
            browser.close()
        rows = []
        for label, package, kind, draw in CANDIDATES:
            if _licence(package) == "not installed":
                rows.append((label, None))
                continue
            figures = {}
            for name, (project, sides) in groups.items():
                fonts = (
                    font_files(font_book(project))
                    if project is atelier
                    else tuple(str(p) for p in sorted(FONTS_DIR.glob("*.ttf")))
                )
                shares, cpu, sizes, text = [], 0.0, [], set()
                for (_, svg, size), browser_picture in zip(sides, seen[name]):
                    px = size_px(size)
                    start = time.process_time()
                    try:
                        out = draw(svg, fonts, size)
                    except Exception:  # a refusal or a failure: nothing printed
                        cpu += time.process_time() - start
                        shares.append(1.0)
                        continue
                    cpu += time.process_time() - start
                    if kind == "pdf":
                        picture = pdf_pictures(out, px)[0]
                        sizes.append(len(out))
                        text.add(_embedded(out))
                    else:
                        picture = np.asarray(Image.open(io.BytesIO(out)).convert("RGB").resize(px), dtype=np.int16)
                    shares.append(differing(browser_picture, picture))
                figures[name] = (max(shares), statistics.median(shares), cpu / len(sides), sizes, text)
            rows.append((label, figures))
    print(
        f"{len(groups['built-in'][1])} built-in sides, {len(groups['designer'][1])} designer sides; {DPI} dpi; Chromium as reference"
    )
    print(
        f"{'renderer':34s} {'built-in worst/median':>22s} {'designer worst/median':>22s} {'ms/side':>8s} "
        f"{'x base':>7s} {'KB/side':>8s}  {'text':10s} licence"
    )
    base = None
    for label, figures in rows:
        package = next(c[1] for c in CANDIDATES if c[0] == label)
        if figures is None:
            print(f"{label:34s} not installed")
            continue
        b, d = figures["built-in"], figures["designer"]
        ms = (
            (b[2] * len(groups["built-in"][1]) + d[2] * len(groups["designer"][1]))
            / sum(len(g[1]) for g in groups.values())
            * 1000
        )
        base = base or ms
        kb = statistics.mean(b[3] + d[3]) / 1024 if b[3] + d[3] else float("nan")
        print(
            f"{label:34s} {b[0] * 100:9.2f} / {b[1] * 100:6.2f} % {d[0] * 100:9.2f} / {d[1] * 100:6.2f} % {ms:8.2f} {ms / base:7.2f} "
            f"{kb:8.1f}  {'/'.join(sorted(b[4] | d[4])) or '-':10s} {_licence(package)}"
        )
    print("x base: CPU per side against the first row measured (the baseline, when installed)")


if __name__ == "__main__":
    main()
