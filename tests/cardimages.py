"""Card faces and backs as pixels, for tests that measure what a player sees."""

from __future__ import annotations

import numpy as np

from generator.definitions.model import Deck
from generator.pipeline.context import ProjectContext
from generator.project import Project
from generator.render.cardpdf import card_pdf_bytes
from generator.render.pagepng import render_pages
from generator.units import pixels, pt


def render_sides(project: Project, deck: Deck, sides, dpi: float, bleed: float = 0.0) -> list[np.ndarray]:
    """Each (card, "front"|"back") cut to its trim, as an RGB array at ``dpi`` (drawn with ``bleed``)."""
    pdf = card_pdf_bytes(ProjectContext(project), deck, bleed, list(sides))
    size = (pixels(deck.size.width, dpi), pixels(deck.size.height, dpi))
    return [np.asarray(image, dtype=np.int16) for image in render_pages(pdf, size, pt(bleed))]


def faces(project: Project, deck: Deck, dpi: float) -> dict[str, np.ndarray]:
    """Every face of ``deck``, by card id."""
    return dict(
        zip((c.id for c in deck.cards), render_sides(project, deck, [(c, "front") for c in deck.cards], dpi), strict=True)
    )


def backs(project: Project, deck: Deck, dpi: float, bleed: float = 0.0) -> dict[str, np.ndarray]:
    """Each different back of ``deck``, by template name (drawn with ``bleed``, cut to its trim)."""
    firsts: dict[str, object] = {}
    for card in deck.cards:
        firsts.setdefault(deck.back_for(card), card)
    sides = [(c, "back") for c in firsts.values()]
    return dict(zip(firsts, render_sides(project, deck, sides, dpi, bleed), strict=True))


def grey(image: np.ndarray) -> np.ndarray:
    """Luminance (ITU-R BT.601), as a greyscale printer or a glance in poor light sees it."""
    return image[..., 0] * 0.299 + image[..., 1] * 0.587 + image[..., 2] * 0.114


def crop_mm(image: np.ndarray, dpi: float, x: float, y: float, w: float, h: float) -> np.ndarray:
    """The part of a card image from (x, y) mm (from its top-left trim corner), w x h mm."""
    px = dpi / 25.4
    return image[round(y * px) : round((y + h) * px), round(x * px) : round((x + w) * px)]
