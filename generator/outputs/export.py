"""``aetherpress export pod|tts|png|svg DECK...``: card files for print shops and virtual tables.

- ``pod``: ``<slug>-drivethrucards.pdf`` (one card side per page with 1/8"
  bleed, back 1, front 1, back 2, front 2..., every colour process CMYK within
  240 % total ink) and ``thegamecrafter/`` PNGs
  (RGB, 300 dpi, 1/8" bleed: a poker card is 825 x 1125 px).
- ``png``: one PNG per face and per back at ``--dpi`` with ``--bleed``.
- ``svg``: one SVG per face and per back with ``--bleed``.
- ``tts``: Tabletop Simulator deck sheets, back image and deck JSON.

Everything goes to ``<output>/<slug>/<kind>/``.
"""

from __future__ import annotations

from pathlib import Path

from ..definitions.model import Card, Deck
from ..faces.render import FaceRenderer
from ..project import Project
from ..project.files import write_bytes, write_text
from ..render.cardpdf import card_pdf_bytes, write_card_pdf
from ..render.raster import pixels, png_bytes, render_pages

POD_BLEED = 3.175  # 1/8 inch


def card_sides(deck: Deck) -> list[tuple[Card, str, str]]:
    """(card, side, file stem) for every face, then every distinct back."""
    out: list[tuple[Card, str, str]] = [(card, "front", card.id) for card in deck.cards]
    seen = set()
    for card in deck.cards:
        back = deck.back_for(card)
        if back not in seen:
            seen.add(back)
            out.append((card, "back", f"back-{back}"))
    return out


def export_png(
    project: Project, deck: Deck, folder: Path, dpi: float = 300, bleed: float = POD_BLEED, greyscale: bool = False, progress=None
) -> list[Path]:
    """One RGB PNG per face (``<card id>.png``) and per back (``back-<name>.png``), with bleed."""
    sides = card_sides(deck)
    pdf = card_pdf_bytes(project, deck, bleed, [(card, side) for card, side, _ in sides], greyscale)
    size = (pixels(deck.size.width + 2 * bleed, dpi), pixels(deck.size.height + 2 * bleed, dpi))
    images = {}
    for n, ((_card, _side, stem), image) in enumerate(zip(sides, render_pages(pdf, size))):
        images[folder / f"{stem}.png"] = png_bytes(image, dpi)
        if progress:
            progress(n + 1, len(sides))
    return [write_bytes(path, data) for path, data in images.items()]


def export_svg(project: Project, deck: Deck, folder: Path, bleed: float = POD_BLEED) -> list[Path]:
    faces = FaceRenderer(project, deck, bleed=bleed)
    rendered = {}
    for card, side, stem in card_sides(deck):
        rendered[folder / f"{stem}.svg"] = faces.face(card) if side == "front" else faces.back(card)
    return [write_text(path, text) for path, text in rendered.items()]


def export_pod(project: Project, deck: Deck, folder: Path, greyscale: bool = False, copies: int = 1, progress=None) -> list[Path]:
    written = [
        write_card_pdf(project, deck, folder / f"{deck.slug}-drivethrucards.pdf", POD_BLEED, greyscale, copies, process=True)
    ]
    written += export_png(project, deck, folder / "thegamecrafter", 300, POD_BLEED, greyscale, progress)
    return written
