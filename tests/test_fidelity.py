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
from generator.project import Project
from generator.render.cardpdf import card_pdf_bytes
from tests.designer import designer_project
from tests.fidelity import Browser, browser_available, compare, compare_cmyk, differing, font_css, pdf_pictures, size_px

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
    printed = pdf_pictures(card_pdf_bytes(atelier, deck, faces.geometry.bleed, [(card, "front")]), size)[0]
    assert differing(seen, printed) <= LIMIT
    assert differing(black, printed) > 5 * LIMIT


def test_print_shop_cmyk_files_print_as_the_browser_draws_soft_proofed(browser, project, definitions, atelier):
    keep = Path(os.environ["AETHERPRESS_FIDELITY_PICTURES"]) if os.environ.get("AETHERPRESS_FIDELITY_PICTURES") else None
    found = compare_cmyk(browser, project, definitions["imperial"].build(("standard",)), "coated", pdfx="4")
    found.update(compare_cmyk(browser, project, definitions["aetherial"].build(()), "uncoated", pdfx="4"))
    found.update(compare_cmyk(browser, atelier, load_all(atelier)["atelier"].build(()), "coated", keep, pdfx="4"))
    assert max(found.values()) <= LIMIT, _worst(found)
