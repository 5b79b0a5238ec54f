"""Card sides in a reportlab PDF: each distinct side drawn once (see :mod:`.placed`) and stored as one form."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from reportlab.pdfgen.canvas import Canvas

from ..definitions.model import Card, Deck
from ..faces.render import FaceRenderer
from ..resources.fonts import font_book
from .placed import fill_sides, use_side
from .presspiece import Press, press_piece
from .vector import SHEET_DPI, font_files, side_pdf


class Forms:
    """Card sides by (deck, side, name), each drawn once into the file with every colour through ``converter``."""

    def __init__(
        self,
        canvas: Canvas,
        decks: Sequence[Deck],
        renderers: Sequence[FaceRenderer],
        converter=None,
        press: Press | None = None,
        dpi: float = SHEET_DPI,
    ):
        """Sides drawn with every colour through ``converter`` (greys, or None: as designed) and filters at ``dpi``;
        with ``press``, as a print shop's file takes them instead (see :mod:`.presspiece`)."""
        self.canvas = canvas
        self.press = press
        self.dpi = dpi
        self.decks = decks
        self.renderers = renderers
        self.converter = converter
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
        deck, faces = self.decks[d], self.renderers[d]
        if self._fonts is None:
            self._fonts = font_files(font_book(faces.project))
        if side == "face":
            svg, template, place = faces.face(card), deck.template_for(card), f"card '{card.id}' of deck '{deck.id}'"
        else:
            svg, template, place = faces.back(card), deck.back_for(card), f"back of card '{card.id}' of deck '{deck.id}'"
        if self.press is not None:
            return press_piece(svg, faces.template_file(template), place, self._fonts, self.press)
        return side_pdf(svg, faces.template_file(template), place, self._fonts, self.converter, self.dpi)

    def draw(self, key: tuple, card: Card) -> None:
        """Draw the card side with its bleed corner at the current origin."""
        name = self.names.setdefault(key, f"card{len(self.names)}")
        g = self.renderers[key[0]].geometry
        use_side(self.canvas, name, (g.width, g.height), partial(self._piece, key, card))

    def filled(self, pdf: bytes) -> bytes:
        """The saved file with every side drawn in its form."""
        return fill_sides(self.canvas, pdf)
