"""Card sides in a reportlab PDF: each distinct side drawn once (see :mod:`.placed`) and stored as one form."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from ..definitions.model import Card, Deck
from ..faces.drawn import DrawnSides
from ..faces.keys import font_inputs
from ..resources.fonts import font_book
from .placed import fill_sides, use_side
from .presspiece import Press, press_piece
from .vector import SHEET_DPI, Kept, font_files, side_pdf

KeptPiece = Callable[[DrawnSides, Card | None, str], bytes]  # a side's piece as a build keeps it (SideSource.piece)


PRESS_PIECES = "press-pieces"  # the store's kind of a side drawn for the press


def press_inputs(fonts: str, svg: str, press: Press) -> list[Any]:
    """What a press piece is drawn from: the project's fonts (see :func:`~generator.faces.keys.font_inputs`), the
    side's SVG and how the press takes it (profile, ink limit, greys, resolutions)."""
    process = press.process
    return ["press", fonts, svg, process.profile.digest, process.ink_limit, process.greyscale, press.dpi, press.filter_dpi]


class Forms:
    """Card sides by (deck, side, name), each drawn once into the file with every colour through ``converter``."""

    def __init__(
        self,
        canvas: Canvas,
        sides: Sequence[DrawnSides],
        converter=None,
        press: Press | None = None,
        dpi: float = SHEET_DPI,
        kept: Kept | None = None,
        piece: KeptPiece | None = None,
    ):
        """The sides of each deck of ``sides`` drawn with every colour through ``converter`` (greys, or None: as
        designed) and filters at ``dpi``; with ``press``, as a print shop's file takes them instead (see
        :mod:`.presspiece`), each distinct side's piece taken from ``kept`` (the store) or drawn once and kept there.
        ``piece`` gives a side's piece as a build draws and keeps it: a side drawn as designed at the sheets'
        resolution is that piece, and the press starts from it too."""
        self.canvas = canvas
        self.press = press
        self.dpi = dpi
        self.sides = sides
        self.decks = [s.deck for s in sides]
        self.kept = kept
        self.converter = converter
        self.piece = piece
        self.names: dict[tuple, str] = {}
        self._fonts: tuple[str, ...] | None = None

    @staticmethod
    def face_key(d: int, deck: Deck, card: Card) -> tuple:
        return (d, "face", card.id)

    @staticmethod
    def back_key(d: int, deck: Deck, card: Card) -> tuple:
        return (d, "back", deck.back_for(card))

    def side(self, d: int, card: Card, side: str) -> tuple:
        deck = self.decks[d]
        return self.face_key(d, deck, card) if side == "front" else self.back_key(d, deck, card)

    def _piece(self, key: tuple, card: Card) -> bytes:
        d, side, _name = key
        deck, faces = self.decks[d], self.sides[d].renderer
        if self._fonts is None:
            self._fonts = font_files(font_book(faces.project), self.kept)
        svg = self.sides[d].side(card, "front" if side == "face" else "back").svg
        if side == "face":
            template, place = deck.template_for(card), f"card '{card.id}' of deck '{deck.id}'"
        else:
            template, place = deck.back_for(card), f"back of card '{card.id}' of deck '{deck.id}'"
        source = faces.template_file(template)
        press = self.press
        designed = None
        if self.piece is not None and self.dpi == SHEET_DPI and (press is not None or self.converter is None):
            designed = partial(self.piece, self.sides[d], card, "front" if side == "face" else "back")
        if press is None:
            return designed() if designed is not None else side_pdf(svg, source, place, self._fonts, self.converter, self.dpi)
        fonts = self._fonts
        start = designed if press.filter_dpi == SHEET_DPI else None
        if self.kept is None:
            return press_piece(svg, source, place, fonts, press, start)
        inputs = press_inputs(font_inputs(faces.project), svg, press)
        return self.kept(PRESS_PIECES, inputs, lambda: press_piece(svg, source, place, fonts, press, start))

    def draw(self, key: tuple, card: Card) -> None:
        """Draw the card side with its bleed corner at the current origin."""
        name = self.names.setdefault(key, f"card{len(self.names)}")
        g = self.sides[key[0]].renderer.geometry
        use_side(self.canvas, name, (g.width, g.height), partial(self._piece, key, card))

    def filled(self, pdf: bytes) -> bytes:
        """The saved file with every side drawn in its form."""
        return fill_sides(self.canvas, pdf)
