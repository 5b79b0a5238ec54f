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
from PIL import Image

from generator.definitions import load_all
from generator.faces.render import FaceRenderer
from generator.project import Project
from generator.render.cardpdf import card_pdf_bytes, shop_pdf_bytes
from generator.render.colour import ProcessColour
from generator.render.icc import STOCKS, shipped_profile
from tests.designer import designer_project
from tests.fidelity import (
    Browser,
    browser_available,
    differing,
    font_css,
    pdf_pictures,
    separations,
    side_by_side,
    size_px,
    soft_proof,
)

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


def _sides(deck) -> list[tuple]:
    """Every face, and each distinct back once, as (card, "front"|"back")."""
    sides = [(card, "front") for card in deck.cards]
    backs: dict[str, object] = {}
    for card in deck.cards:
        backs.setdefault(deck.back_for(card), card)
    return sides + [(card, "back") for card in backs.values()]


def _compare(browser, project: Project, deck, keep: Path | None = None) -> dict[str, float]:
    """The share of differing pixels of each side of ``deck``: the browser against the card files."""
    faces = FaceRenderer(project, deck)
    sides = _sides(deck)
    svgs = [faces.face(card) if side == "front" else faces.back(card) for card, side in sides]
    size = size_px((faces.geometry.width, faces.geometry.height))
    seen = browser.draw(svgs, size, font_css(project))
    printed = pdf_pictures(card_pdf_bytes(project, deck, faces.geometry.bleed, sides), size)
    found = {}
    for (card, side), a, b in zip(sides, seen, printed, strict=True):
        label = f"{deck.key} {card.id} {side}"
        found[label] = differing(a, b)
        if keep is not None:
            side_by_side([a, b], keep / f"{deck.key}-{card.id}-{side}.png".replace(":", "_"))
    return found


def _worst(found: dict[str, float]) -> str:
    worst = sorted(found.items(), key=lambda kv: -kv[1])[:5]
    return ", ".join(f"{label}: {share * 100:.2f} %" for label, share in worst)


def test_every_built_in_side_prints_as_the_browser_draws_it(browser, project, definitions):
    found: dict[str, float] = {}
    for _, definition in sorted(definitions.items()):
        for variants in [(v,) for v in definition.variant_specs] or [()]:
            found.update(_compare(browser, project, definition.build(variants)))
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
    found = _compare(browser, atelier, deck, keep)
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


def _compare_cmyk(browser, project: Project, deck, stock: str, keep: Path | None = None) -> dict[str, float]:
    """Each face of ``deck`` in a print shop's CMYK file against the browser's picture separated the same way."""
    faces = FaceRenderer(project, deck)
    size = size_px((faces.geometry.width, faces.geometry.height))
    profile = shipped_profile(stock)
    process = ProcessColour(profile, STOCKS[stock].ink_limit)
    seen = browser.draw([faces.face(card) for card in deck.cards], size, font_css(project))
    pdf = shop_pdf_bytes(project, deck, faces.geometry.bleed, process)
    inks = separations(pdf, size, 2 * len(deck.cards))[1::2]  # pages go back, front, back, front ...
    found = {}
    for card, browser_picture, printed in zip(deck.cards, seen, inks, strict=True):
        proof = soft_proof(profile, profile.separate(Image.fromarray(browser_picture.astype("uint8")), process.ink_limit))
        label = f"{deck.key} {card.id} CMYK {stock}"
        found[label] = differing(proof, soft_proof(profile, printed))
        if keep is not None:
            side_by_side([proof, soft_proof(profile, printed)], keep / f"{deck.key}-{card.id}-cmyk.png")
    return found


def test_print_shop_cmyk_files_print_as_the_browser_draws_soft_proofed(browser, project, definitions, atelier):
    keep = Path(os.environ["AETHERPRESS_FIDELITY_PICTURES"]) if os.environ.get("AETHERPRESS_FIDELITY_PICTURES") else None
    found = _compare_cmyk(browser, project, definitions["imperial"].build(("standard",)), "coated")
    found.update(_compare_cmyk(browser, project, definitions["aetherial"].build(()), "uncoated"))
    found.update(_compare_cmyk(browser, atelier, load_all(atelier)["atelier"].build(()), "coated", keep))
    assert max(found.values()) <= LIMIT, _worst(found)
