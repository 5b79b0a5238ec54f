"""What the designer sees is what prints: every side as the preview's browser draws it and as the print files do.

Every face and back of every built-in deck (each variant as a build writes it)
and of a designer's deck (transparent and camera pictures, opacity, a fading
mask, a blend) is drawn by headless Chromium with the preview's fonts and by
each print path; at most :data:`LIMIT` of a side's pixels may differ.  CMYK
files are compared with the browser's picture passed through the same
printer profile (a soft proof), so the printer's gamut is not counted as a fault.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

from generator.definitions import load_all
from generator.faces.render import FaceRenderer
from generator.pipeline.context import ProjectContext
from generator.project import Project
from generator.render.cardpdf import card_pdf_bytes
from tests.designer import designer_project
from tests.fidelity import Browser, browser_available, compare, compare_cmyk, differing, font_css, pdf_pictures, size_px

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

if not browser_available():
    pytest.skip(
        "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)", allow_module_level=True
    )

LIMIT = 0.01  # share of a side's pixels


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


def _worst(found: dict[str, float]) -> str:
    worst = sorted(found.items(), key=lambda kv: -kv[1])[:5]
    return ", ".join(f"{label}: {share * 100:.2f} %" for label, share in worst)


def test_every_built_in_side_prints_as_the_browser_draws_it(browser, project, definitions):
    found: dict[str, float] = {}
    for _, definition in sorted(definitions.items()):
        for variants in [(v,) for v in definition.variant_specs] or [()]:
            found.update(compare(browser, project, definition.build(variants)))
    assert len(found) > 300
    assert max(found.values()) <= LIMIT, _worst(found)


@pytest.fixture(scope="module")
def atelier(tmp_path_factory) -> Project:
    import contextlib

    with contextlib.redirect_stdout(io.StringIO()):
        root = designer_project(tmp_path_factory.mktemp("designer"))
    return Project(root)


def test_a_designers_pictures_and_effects_print_as_the_browser_draws_them(browser, atelier, tmp_path):
    deck = load_all(atelier)["atelier"].build(())
    keep = Path(os.environ["AETHERPRESS_FIDELITY_PICTURES"]) if os.environ.get("AETHERPRESS_FIDELITY_PICTURES") else None
    found = compare(browser, atelier, deck, keep)
    assert len(found) == 13
    assert max(found.values()) <= LIMIT, _worst(found)


def test_the_comparison_sees_a_picture_printed_on_black(browser, atelier):
    """The measure itself: the transparent picture printed as a black box (as svglib printed it) is far over the limit."""
    deck = load_all(atelier)["atelier"].build(())
    faces = FaceRenderer(atelier, deck)
    card = deck.cards[0]  # its picture: the transparent glow
    svg = faces.face(card)
    size = size_px((faces.geometry.width, faces.geometry.height))
    boxed = re.sub(r'<image ([^>]*?)href="[^"]*"([^>]*)/>', r'<rect \1 \2 fill="#000000"/>', svg)
    assert boxed != svg
    seen, black = browser.draw([svg, boxed], size, font_css(atelier))
    printed = pdf_pictures(card_pdf_bytes(ProjectContext(atelier), deck, faces.geometry.bleed, [(card, "front")]), size)[0]
    assert differing(seen, printed) <= LIMIT
    assert differing(black, printed) > 5 * LIMIT


def test_print_shop_cmyk_files_print_as_the_browser_draws_soft_proofed(browser, project, definitions, atelier):
    keep = Path(os.environ["AETHERPRESS_FIDELITY_PICTURES"]) if os.environ.get("AETHERPRESS_FIDELITY_PICTURES") else None
    found = compare_cmyk(browser, project, definitions["imperial"].build(("standard",)), "coated", pdfx="4")
    found.update(compare_cmyk(browser, project, definitions["aetherial"].build(()), "uncoated", pdfx="4"))
    found.update(compare_cmyk(browser, atelier, load_all(atelier)["atelier"].build(()), "coated", keep, pdfx="4"))
    assert max(found.values()) <= LIMIT, _worst(found)


REPEAT_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">'
# (name, body, whether its print is compared): a repeat that starts over with a hard edge is left out of the print
# comparison, as pdfium (Chromium's PDF viewer) draws a shading from a table of 256 steps, so the edges of many
# repeats move by up to a step; the browser's own drawing of it is compared with the original like the rest
REPEATS = [
    (
        "linear repeat",
        '<defs><linearGradient id="g" x1="0.2" y1="0" x2="0.35" y2="0.1" spreadMethod="repeat"><stop offset="0.1" '
        'stop-color="#c33"/><stop offset="0.8" stop-color="#33c"/></linearGradient></defs>'
        '<rect x="3" y="3" width="57" height="82" fill="url(#g)"/>',
        False,
    ),
    (
        "linear reflect in user space",
        '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse" x1="10" y1="10" x2="20" y2="15" spreadMethod="reflect" '
        'gradientTransform="rotate(20)"><stop offset="0" stop-color="#fc3" stop-opacity="0.3"/><stop offset="1" '
        'stop-color="#063"/></linearGradient></defs><circle cx="31" cy="44" r="28" fill="url(#g)" stroke="#000"/>',
        True,
    ),
    (
        "radial reflect inherited, off-centre focus",
        '<defs><radialGradient id="g" r="0.15"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#258"/>'
        '</radialGradient><radialGradient id="h" href="#g" fx="0.4" fy="0.45" spreadMethod="reflect"/></defs>'
        '<rect x="0" y="0" width="63" height="44" fill="url(#g)"/><rect x="0" y="44" width="63" height="44" fill="url(#h)"/>',
        True,
    ),
    (
        "pattern in user space, stroked, fill-opacity",
        '<defs><pattern id="p" width="6" height="6" patternUnits="userSpaceOnUse"><circle cx="3" cy="3" r="2" fill="#c33"/>'
        '<rect x="0" y="0" width="2" height="2"/></pattern></defs><rect x="5" y="5" width="53" height="78" rx="6" '
        'fill="url(#p)" stroke="#225" stroke-width="1.5" fill-opacity="0.7"/>',
        True,
    ),
    (
        # its squares kept off the tile's edges: Chromium draws a faint seam where a pattern's tiles meet, the print none
        "pattern in box units, inheriting a group's fill",
        '<defs><pattern id="p" width="0.2" height="0.125" patternContentUnits="objectBoundingBox"><rect x="0.01" y="0.01" '
        'width="0.08" height="0.045" fill="#285"/><rect x="0.11" y="0.07" width="0.08" height="0.045"/></pattern></defs>'
        '<g fill="#00f"><ellipse cx="31" cy="44" rx="28" ry="40" fill="url(#p)"/></g>',
        True,
    ),
    (
        "pattern turned, with a viewBox, on a path with opacity",
        '<defs><pattern id="p" x="2" y="1" width="8" height="5" patternUnits="userSpaceOnUse" viewBox="0 0 10 10" '
        'patternTransform="rotate(30) scale(1.2)"><path d="M0 0 L10 10 M10 0 L0 10" stroke="#333" stroke-width="1.2"/>'
        '<circle cx="5" cy="5" r="2.5" fill="#e90"/></pattern></defs><path d="M5 10 L58 5 L50 80 L10 70 Z" '
        'style="fill:url(#p);stroke:#900;stroke-width:0.8" opacity="0.8"/>',
        True,
    ),
]


def test_repeats_written_out_look_as_the_originals_and_print_so(browser):
    """Patterns and repeating gradients are written out by the faces stage: the browser draws the written-out
    SVG as it draws the original, and the print draws it as the browser does."""
    from lxml import etree

    from generator.faces.repeats import write_out
    from generator.faces.svg import parse_svg
    from generator.render.vector import side_pdf

    size = size_px((63, 88))
    on_screen: dict[str, float] = {}
    in_print: dict[str, float] = {}
    for name, body, printed in REPEATS:
        original = REPEAT_HEAD + body + "</svg>"
        root = parse_svg(original, name)
        assert write_out(root), name
        written = etree.tostring(root, encoding="unicode")
        assert "spreadMethod" not in written and "<pattern" not in written
        seen, rewritten = browser.draw([original, written], size, "")
        assert float(seen.std()) > 10, name  # something was drawn
        on_screen[name] = differing(seen, rewritten)
        if printed:
            in_print[name] = differing(seen, pdf_pictures(side_pdf(written, name), size)[0])
    assert max(on_screen.values()) <= 0.001, _worst(on_screen)
    assert max(in_print.values()) <= LIMIT, _worst(in_print)
