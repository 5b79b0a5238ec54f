"""A compact printed notation of a hand, set beside its small card pictures.

Each card is written as its rank's label followed by its suits' symbols in
their colours (``WW●``), the way a corner index shows it; a card without a
rank label or with more than three suits (an Egg, the Excuse, a Founding
card) is written by its name.  Where a game's hands also turn on other
things a card has (the Decktet's interpretive types in Lith), each card's are
written after it in short (``p`` for Personality), and :func:`legend` says what every
letter stands for.  Text and symbols are drawn at a size a reader
can read in print (``size`` points), whatever the size of the pictures.
"""

from __future__ import annotations

import re
from functools import lru_cache, partial

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from ..art.symbols import symbol_svg
from ..definitions.model import Card, Deck
from ..render.placed import use_side
from ..render.vector import side_pdf

_MAX_SUITS = 3  # more suits than this, and a card is written by name
MARK_SHARE = 0.85  # the size of a card's marks (its types), as a share of the notation's
MARK_COLOUR = "#6b645a"


def _card_tokens(deck: Deck, card: Card) -> tuple[str, tuple[tuple[str, str], ...]]:
    """(text, ((symbol, colour), ...)) for one card."""
    rank = deck.rank(card.rank) if card.rank else None
    suits = [deck.suit(s) for s in card.suits]
    if rank is None or not rank.label or len(suits) > _MAX_SUITS or not suits:
        name = card.name[4:] if card.name.startswith("The ") else card.name
        return name, ()
    return rank.label, tuple((s.symbol, s.colour or "#000000") for s in suits if s.symbol)


def _values(card: Card, key: str) -> tuple[str, ...]:
    value = card.attributes.get(key)
    if value is None or value == "":
        return ()
    return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else (str(value),)


def abbreviations(deck: Deck, marks: tuple[str, ...]) -> dict[str, str]:
    """Each value of the cards' ``marks`` attributes -> its short form: its first letter in lower case (so
    it is never taken for a rank's capital), or more letters where two values would share it."""
    values = sorted({v for card in deck.cards for key in marks for v in _values(card, key)})
    short: dict[str, str] = {}
    for value in values:
        length = 1
        while any(other != value and other[:length].lower() == value[:length].lower() for other in values) and length < len(
            value
        ):
            length += 1
        short[value] = value[:length].lower()
    return short


def card_marks(card: Card, marks: tuple[str, ...], short: dict[str, str]) -> str:
    """A card's ``marks`` written in short: 'le' for a Location and Event."""
    return "".join(short[v] for key in marks for v in _values(card, key))


def legend(deck: Deck, marks: tuple[str, ...], names: dict[str, str]) -> str:
    """What the letters of the written-out hands stand for: rank labels that are letters, and the short
    forms of the ``marks`` (``names`` are the attributes' names for a reader: types -> interpretive types)."""
    parts = [
        f"{rank.label} {rank.name}" for rank in deck.ranks if rank.label and rank.label.isalpha() and rank.label != rank.name
    ]
    groups = []
    if parts:
        groups.append(", ".join(parts))
    for key in marks:
        short = abbreviations(deck, (key,))
        if short:
            groups.append(", ".join(f"{s} {v}" for v, s in short.items()) + f" ({names.get(key, key)})")
    return "; ".join(groups)


def _notation_text(deck: Deck, cards: list[Card]) -> str:
    """The notation as plain text, suits by name (for tests and searching)."""
    parts = []
    for card in cards:
        text, _ = _card_tokens(deck, card)
        suits = "/".join(deck.suit(s).name for s in card.suits) if _card_tokens(deck, card)[1] else ""
        parts.append(f"{text} {suits}".strip())
    return ", ".join(parts)


_SYMBOL_MM = 2.0  # a symbol's drawing, scaled to the text it stands in


@lru_cache(maxsize=64)
def _symbol_pdf(name: str, colour: str) -> bytes:
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_SYMBOL_MM:g}mm" height="{_SYMBOL_MM:g}mm" viewBox="0 0 2 2">'
        f"{symbol_svg(name, 1, 1, 2, fill=colour)}</svg>"
    )
    return side_pdf(svg, f"symbol {name}")


class HandNotation(Flowable):
    """A hand written out in one or more lines: ``WW● WL● A★ 7● 2●``."""

    def __init__(self, deck: Deck, cards: list[Card], font: str, size: float, colour=None, marks: tuple[str, ...] = ()):
        super().__init__()
        self.tokens = [_card_tokens(deck, c) for c in cards]
        if marks:  # each card's deciding attributes after its symbols
            short = abbreviations(deck, marks)
            self.marks = [card_marks(c, marks, short) for c in cards]
        else:
            self.marks = [""] * len(cards)
        self.font = font
        self.size = size
        self.colour = colour
        self.lines: list[list[int]] = []
        self.text = _notation_text(deck, cards)

    def _token_width(self, i: int) -> float:
        text, symbols = self.tokens[i]
        mark = stringWidth(self.marks[i], self.font, self.size * MARK_SHARE) + 0.1 * self.size if self.marks[i] else 0
        return (
            stringWidth(text, self.font, self.size) + len(symbols) * self.size * 0.82 + (0.1 * self.size if symbols else 0) + mark
        )

    def wrap(self, avail_w, avail_h):
        gap = self.size * 0.45
        self.lines = [[]]
        used = 0.0
        for i in range(len(self.tokens)):
            w = self._token_width(i)
            if self.lines[-1] and used + gap + w > avail_w:
                self.lines.append([])
                used = 0.0
            used += (gap if self.lines[-1] else 0) + w
            self.lines[-1].append(i)
        self.width = (
            max(sum(self._token_width(i) for i in line) + gap * (len(line) - 1) for line in self.lines if line)
            if self.tokens
            else 0
        )
        self.height = len(self.lines) * self.size * 1.2
        return self.width, self.height

    def draw(self):
        canv = self.canv
        gap = self.size * 0.45
        sym = self.size * 0.78
        y = self.height - self.size * 0.95
        for line in self.lines:
            x = 0.0
            for i in line:
                text, symbols = self.tokens[i]
                canv.saveState()
                canv.setFont(self.font, self.size)
                if self.colour is not None:
                    canv.setFillColor(self.colour)
                canv.drawString(x, y, text)
                canv.restoreState()
                x += stringWidth(text, self.font, self.size) + (0.1 * self.size if symbols else 0)
                for name, colour in symbols:
                    canv.saveState()
                    canv.translate(x, y - sym * 0.08)
                    canv.scale(sym / (_SYMBOL_MM * mm), sym / (_SYMBOL_MM * mm))
                    form = "symbol-" + re.sub(r"[^A-Za-z0-9]+", "-", f"{name}-{colour}")
                    use_side(canv, form, (_SYMBOL_MM, _SYMBOL_MM), partial(_symbol_pdf, name, colour))
                    canv.restoreState()
                    x += self.size * 0.82
                if self.marks[i]:
                    x += 0.1 * self.size
                    canv.saveState()
                    canv.setFont(self.font, self.size * MARK_SHARE)
                    canv.setFillColor(self.colour if self.colour is not None else MARK_COLOUR)
                    canv.drawString(x, y, self.marks[i])
                    canv.restoreState()
                    x += stringWidth(self.marks[i], self.font, self.size * MARK_SHARE)
                x += gap
            y -= self.size * 1.2
