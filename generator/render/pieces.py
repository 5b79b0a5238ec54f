"""Card pieces: a drawn side as a one-page PDF, the unit the sheets are assembled from.

A piece is drawn from the side's SVG text and size, the project's fonts and
the colour mode, so a side that two decks (say two variants) draw alike is
one piece.  The sheets take their pieces from a :class:`PieceSource`, which
says what each side's piece is and hands over its bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..definitions.model import Card, Deck
from ..faces.drawn import DrawnSides
from .assemble import Known
from .colour import colour_converter
from .vector import side_pdf

Spec = tuple[int, str | None, str]  # a side of a job: (deck index, card id or None, "front" or "back")


def spec(d: int, card: Card | None, side: str) -> Spec:
    return (d, card.id if card is not None else None, side)


def piece_inputs(fonts: str, svg: str, size_mm: tuple[float, float], greyscale: bool) -> list[Any]:
    """What a piece is drawn from: the project's fonts (``fonts``: see
    :func:`~generator.faces.keys.font_inputs`), the side's SVG and size and the colour mode."""
    return ["piece", fonts, svg, size_mm, greyscale]


class PieceSource(Protocol):
    """The pieces of a job printing ``decks``: which piece each side is, what assembling needs to know of it
    and its PDF bytes."""

    @property
    def decks(self) -> Sequence[Deck]: ...

    @property
    def faces(self) -> Sequence[DrawnSides]: ...

    def key(self, d: int, card: Card | None, side: str) -> str: ...

    def known(self, d: int, card: Card | None, side: str) -> Known: ...

    def pdf(self, d: int, card: Card | None, side: str) -> bytes: ...

    def edge(self, d: int, card: Card) -> tuple[int, int, int]:
        """The colour (RGB 0-255) at the edge of the card's front as drawn (see :mod:`.edgecolour`)."""
        ...


def _side_template(deck: Deck, card: Card | None, side: str) -> str:
    """The template a side is drawn with."""
    if side == "front" and card is not None:
        return deck.template_for(card)
    return deck.back_for(card) if card else deck.back_template


def draw_piece(sides: DrawnSides, card: Card | None, side: str, svg: str, fonts: tuple[str, ...], greyscale: bool) -> bytes:
    """The piece of a side of ``sides``' deck, drawn from its SVG text ``svg`` with the font files ``fonts``."""
    renderer = sides.renderer
    return side_pdf(
        svg,
        renderer.template_file(_side_template(sides.deck, card, side)),
        renderer.place(card if side == "front" else None, side),
        fonts,
        colour_converter(greyscale),
    )
