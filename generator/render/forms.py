"""Card drawings in a PDF: each side drawn once, stored as a form XObject when it appears more than once."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.graphics import renderPDF
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..definitions.model import Card, Deck
from ..faces.render import FaceRenderer
from .drawing import svg_to_drawing
from .pdfforms import end_form


def card_drawing(svg_text: str, source: str, place: str | None = None, converter=None):
    """The SVG as a reportlab drawing, every colour passed through ``converter`` when given."""
    return svg_to_drawing(svg_text, source, place, color_converter=converter)


class Forms:
    """Card drawings by (deck, side, name): drawn once and stored as a form XObject
    when they appear more than once in the file, else drawn in place."""

    def __init__(
        self,
        canvas: Canvas,
        decks: Sequence[Deck],
        renderers: Sequence[FaceRenderer],
        converter=None,
        uses: dict[tuple, int] | None = None,
    ):
        self.canvas = canvas
        self.decks = decks
        self.renderers = renderers
        self.converter = converter
        self.uses = uses or {}
        self.names: dict[tuple, str] = {}

    @staticmethod
    def face_key(d: int, deck: Deck, card: Card) -> tuple:
        return (d, "face", card.id)

    @staticmethod
    def back_key(d: int, deck: Deck, card: Card) -> tuple:
        return (d, "back", deck.back_for(card))

    def _drawing(self, key: tuple, card: Card):
        d, side, _name = key
        deck, faces = self.decks[d], self.renderers[d]
        if side == "face":
            return card_drawing(
                faces.face(card),
                faces.template_file(deck.template_for(card)),
                f"card '{card.id}' of deck '{deck.id}'",
                self.converter,
            )
        return card_drawing(
            faces.back(card),
            faces.template_file(deck.back_for(card)),
            f"back of card '{card.id}' of deck '{deck.id}'",
            self.converter,
        )

    def draw(self, key: tuple, card: Card) -> None:
        """Draw the card side with its bleed corner at the current origin."""
        if self.uses.get(key, 2) < 2:
            renderPDF.draw(self._drawing(key, card), self.canvas, 0, 0)
            return
        name = self.names.get(key)
        if name is None:
            name = f"card{len(self.names)}"
            drawing = self._drawing(key, card)
            g = self.renderers[key[0]].geometry
            self.canvas.beginForm(name, lowerx=0, lowery=0, upperx=g.width * mm, uppery=g.height * mm)
            renderPDF.draw(drawing, self.canvas, 0, 0)
            end_form(self.canvas)
            self.names[key] = name
        self.canvas.doForm(name)

    def side(self, d: int, card: Card, side: str) -> tuple:
        deck = self.decks[d]
        return self.face_key(d, deck, card) if side == "front" else self.back_key(d, deck, card)
