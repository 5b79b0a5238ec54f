"""Tuck boxes: ``<slug>-box.pdf``, one sheet with a box for the deck, sized from its cards."""

from __future__ import annotations

from pathlib import Path

from ..definitions.languages import BOX_CAPTION, say
from ..definitions.model import Deck
from ..definitions.presets import Paper
from ..errors import AetherpressError, Problem
from ..faces.drawn import SideSource
from ..faces.render import geometry
from ..imposition.boxnet import CARD_THICKNESS, BoxSheet, TuckBox, place_box, tuck_box
from ..imposition.grids import LayoutError
from ..project.files import write_bytes
from ..render.boxpdf import draw_box_page

_BOX_MARGIN = 5.0  # mm


def plan_box(deck: Deck, paper: Paper, thickness: float = CARD_THICKNESS) -> tuple[TuckBox, BoxSheet]:
    """The box for every printed card of ``deck`` and where it goes on ``paper``; a one-line error if it does not fit."""
    g = geometry(deck)
    try:
        box = tuck_box(g.trim_w, g.trim_h, deck.card_count, thickness)
        return box, place_box(box, paper, _BOX_MARGIN)
    except LayoutError as exc:
        raise AetherpressError(Problem(deck.source, str(exc), key="deck.size")) from None


def deck_name(deck: Deck) -> str:
    """The deck as a person names it: its title, and the titles of the variants applied (never ids)."""
    shown = [v.title for v in deck.variants if v.id in deck.applied and v.title and v.title != deck.title]
    return deck.title + (f" ({', '.join(shown)})" if shown else "")


def write_box(
    source: SideSource, deck: Deck, target: Path, paper: Paper, thickness: float = CARD_THICKNESS, greyscale: bool = False
) -> Path:
    box, sheet = plan_box(deck, paper, thickness)
    caption = say(
        deck,
        BOX_CAPTION,
        name=deck_name(deck),
        count=deck.card_count,
        thickness=thickness,
        width=box.width,
        height=box.height,
        depth=box.depth,
    )
    return write_bytes(target, draw_box_page(source, deck, box, sheet, caption, greyscale))
