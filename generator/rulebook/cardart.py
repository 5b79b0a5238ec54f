"""Small vector pictures of real card faces, for rules text and charts.

A face comes as SVG (drawn with bleed) from the deck's sides as the caller
hands them over (the project context's, kept in the store), is drawn as the print
files draw it (see :mod:`generator.render.vector`) and stored in the PDF once as
a form XObject; every picture of that card reuses the form and clips it to the trim.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from ..definitions.deck import DeckDefinition
from ..definitions.model import Card, Deck
from ..definitions.schema import suggest
from ..errors import AetherpressError, Problem
from ..faces.drawn import DrawnSides
from ..project import Project
from ..render.flatten import CARD_FORM
from ..render.placed import use_side
from ..render.vector import font_files, side_pdf
from ..resources.fonts import font_book
from .oddsline import with_odds_lines
from .words import language

_BORDER = (0.55, 0.55, 0.55)
SidesOf = Callable[[Deck, bool], DrawnSides]  # a deck's sides (drafts or not): the project context's


@dataclass(frozen=True)
class _CardArt:
    """One card face ready to draw: the drawing and the card's geometry (mm)."""

    form: str
    piece: Callable[[], bytes]  # the side as a one-page PDF, trim plus bleed
    trim_w: float
    trim_h: float
    bleed: float
    radius: float

    def height_for(self, width_mm: float) -> float:
        return width_mm * self.trim_h / self.trim_w


class CardLibrary:
    """Decks and card drawings of one project, each made once."""

    def __init__(
        self,
        project: Project,
        definitions: dict[str, DeckDefinition],
        sides_of: SidesOf,
        draft: bool = False,
        hands: Any = None,
    ):
        """``sides_of`` gives a deck's sides, as the project context keeps them; ``draft``: a card text that does
        not fit is drawn in red (as ``build --draft`` draws the decks); ``hands``: the games, whose spell cards are
        given their odds lines (see :func:`.oddsline.with_odds_lines`)."""
        self.project = project
        self.hands = hands
        self.draft = draft
        self.definitions = definitions
        self.sides_of = sides_of
        self._decks: dict[str, Deck] = {}
        self._faces: dict[str, DrawnSides] = {}
        self._art: dict[tuple[str, str, bool], _CardArt] = {}

    @cached_property
    def fonts(self) -> tuple[str, ...]:
        return font_files(font_book(self.project))

    def deck(self, spec: str, where: str = "rulebook") -> Deck:
        """A deck by its command-line spec, ``imperial`` or ``imperial:academy+labelled``, in the language of the
        book being made when the deck has an edition in it."""
        deck_id, _, variants = spec.partition(":")
        if deck_id not in self.definitions:
            raise AetherpressError(Problem(where, f"unknown deck '{deck_id}'{suggest(deck_id, self.definitions)}"))
        definition = self.definitions[deck_id]
        edition = language() if language() in definition.editions else ""  # a book's edition shows the deck's
        key = f"{spec}@{edition}"
        if key not in self._decks:
            deck = definition.build(tuple(v for v in variants.split("+") if v), edition)
            self._decks[key] = with_odds_lines(deck, self.hands) if self.hands is not None else deck
        return self._decks[key]

    def card(self, deck: Deck, card_id: str, where: str = "rulebook") -> Card:
        try:
            return deck.card(card_id)
        except KeyError:
            ids = (c.id for c in deck.cards)
            raise AetherpressError(Problem(where, f"deck '{deck.key}' has no card '{card_id}'{suggest(card_id, ids)}")) from None

    def art(self, deck: Deck, card: Card | None, back: bool = False) -> _CardArt:
        key = (deck.key, card.id if card else "", back)
        if key not in self._art:
            faces = self._faces.get(deck.key)
            if faces is None:
                faces = self._faces[deck.key] = self.sides_of(deck, self.draft)
            svg = faces.side(card, "back" if back else "front").svg
            name = f"{deck.slug}/{'back-' if back else ''}{card.id if card else 'back'}"
            g = faces.renderer.geometry
            form = CARD_FORM + re.sub(r"[^A-Za-z0-9]+", "-", name)
            piece = partial(side_pdf, svg, name, None, self.fonts)
            self._art[key] = _CardArt(form, piece, g.trim_w, g.trim_h, g.bleed, g.radius)
        return self._art[key]


def draw_card(canv, art: _CardArt, x: float, y: float, width: float) -> None:
    """Draw ``art`` with its trim's bottom-left at (x, y), ``width`` points wide."""
    scale = width / (art.trim_w * mm)
    height = art.trim_h * mm * scale
    radius = min(art.radius * mm * scale, width / 6) if art.radius else 0.9 * mm
    canv.saveState()
    path = canv.beginPath()
    path.roundRect(x, y, width, height, radius)
    canv.clipPath(path, stroke=0, fill=0)
    canv.translate(x - art.bleed * mm * scale, y - art.bleed * mm * scale)
    canv.scale(scale, scale)
    use_side(canv, art.form, (art.trim_w + 2 * art.bleed, art.trim_h + 2 * art.bleed), art.piece)
    canv.restoreState()
    canv.saveState()
    canv.setStrokeColorRGB(*_BORDER)
    canv.setLineWidth(0.35)
    canv.roundRect(x, y, width, height, radius, stroke=1, fill=0)
    canv.restoreState()


class CardPicture(Flowable):
    """One card, ``width_mm`` wide, with an optional caption below."""

    def __init__(self, art: _CardArt, width_mm: float):
        super().__init__()
        self.art = art
        self.card_w = width_mm * mm
        self.card_h = art.height_for(width_mm) * mm

    def wrap(self, avail_w, avail_h):
        return self.card_w, self.card_h

    def draw(self):
        draw_card(self.canv, self.art, 0, 0, self.card_w)


FAN_DEGREES = 7.0  # how far each card of a fanned hand turns from the one before
_FAN_RADIUS = 1.6  # the turning point of a fan lies this many card heights below the cards' feet


class HandPicture(Flowable):
    """Several cards side by side, each overlapping the one before, or (``fan``) fanned as a player holds them.

    In a row the step leaves the top-left corner (where faces print rank and suit) of every card visible.
    A fan turns the cards about a point below the hand, by :data:`FAN_DEGREES` each, so the top-left
    corners stay as visible and the hand looks held.
    """

    def __init__(self, arts: list[_CardArt], width_mm: float, step: float = 0.62, fan: bool = False):
        super().__init__()
        self.arts = arts
        self.card_w = width_mm * mm
        self.step = self.card_w * step
        self.card_h = max(a.height_for(width_mm) for a in arts) * mm if arts else 0
        self.fan = fan and len(arts) > 1
        self.radius = self.card_h * _FAN_RADIUS  # from the turning point to the foot of each card
        self.angles = [(i - (len(arts) - 1) / 2) * FAN_DEGREES for i in range(len(arts))]
        self.box = self._fan_box() if self.fan else (0.0, 0.0, 0.0, 0.0)

    def _fan_box(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the fanned cards, about the turning point."""
        xs, ys = [], []
        half = self.card_w / 2
        for angle in self.angles:
            turn = math.radians(-angle)
            for x, y in (
                (-half, self.radius),
                (half, self.radius),
                (-half, self.radius + self.card_h),
                (half, self.radius + self.card_h),
            ):
                xs.append(x * math.cos(turn) - y * math.sin(turn))
                ys.append(x * math.sin(turn) + y * math.cos(turn))
        return min(xs), min(ys), max(xs), max(ys)

    def wrap(self, avail_w, avail_h):
        n = len(self.arts)
        if self.fan:
            left, bottom, right, top = self.box
            return right - left, top - bottom
        return (self.card_w + self.step * (n - 1) if n else 0), self.card_h

    def draw(self):
        if not self.fan:
            for i, art in enumerate(self.arts):
                draw_card(self.canv, art, i * self.step, 0, self.card_w)
            return
        left, bottom, _, _ = self.box
        for angle, art in zip(self.angles, self.arts):
            self.canv.saveState()
            self.canv.translate(-left, -bottom)
            self.canv.rotate(-angle)
            draw_card(self.canv, art, -self.card_w / 2, self.radius, self.card_w)
            self.canv.restoreState()
