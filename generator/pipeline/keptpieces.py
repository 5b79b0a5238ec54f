"""The card pieces of one print job, as the pipeline gets them: kept in the store, or drawn and kept.

A piece's key is the store's key of what it is drawn from (see
:func:`generator.render.pieces.piece_inputs`).  A parallel build draws the
missing pieces in other processes first (see :mod:`.tasks`); whatever is
still missing then is drawn here, so a sheets file is the same however its
pieces were made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import replace

from ..definitions.model import Card
from ..faces.drawn import DrawnSide, DrawnSides
from ..faces.keys import font_inputs
from ..render.assemble import Known, describe
from ..render.edgecolour import Colour, edge_colour
from ..render.pieces import Spec, draw_piece, piece_inputs, spec
from ..render.vector import font_files
from ..resources.fonts import font_book
from .store import Store

KIND = "pieces"


def piece_key(fonts: str, svg: str, size_mm: tuple[float, float], greyscale: bool) -> str:
    return Store.key(KIND, piece_inputs(fonts, svg, size_mm, greyscale))


class Pieces:
    """The pieces of a job printing the decks of ``faces`` (greys with ``greyscale``): a :class:`~generator.render.pieces.PieceSource`."""

    def __init__(
        self,
        store: Store,
        faces: Sequence[DrawnSides],
        greyscale: bool = False,
        keys: Mapping[Spec, str] | None = None,
        edges: Mapping[Spec, Colour] | None = None,
    ):
        """``faces`` are the decks' sides (from the project context); ``keys`` the pieces' keys and ``edges`` the
        fronts' colours at their edges, when the caller has them."""
        self.store = store
        self.project = store.project
        self.faces = list(faces)
        self.decks = [f.deck for f in self.faces]
        self.greyscale = greyscale
        self._sides: dict[tuple[int, str, str], DrawnSide] = {}
        self._keys: dict[Spec, str] = dict(keys or {})
        self._fonts: str | None = None
        self._last: tuple[str, bytes] | None = None  # the piece drawn last, by key
        self._known: dict[str, Known] = {}  # what this job has read of its pieces, by key
        self._edges: dict[Spec, Colour] = dict(edges or {})
        self.drawn = 0  # pieces drawn here (not found in the store)

    def sides(self) -> list[tuple[int, Card | None, str]]:
        """Every distinct side of the job as (deck index, card, "front"|"back"); a back once per back template."""
        found: dict[tuple[int, str], tuple[int, Card | None, str]] = {}
        for d, (deck, faces) in enumerate(zip(self.decks, self.faces)):
            for card in deck.cards:
                found.setdefault((d, faces.key(card, "front")), (d, card, "front"))
                found.setdefault((d, faces.key(card, "back")), (d, card, "back"))
            if not deck.cards:
                found.setdefault((d, faces.key(None, "back")), (d, None, "back"))
        return list(found.values())

    def side(self, d: int, card: Card | None, side: str) -> DrawnSide:
        key = (d, self.faces[d].key(card, side), side)
        drawn = self._sides.get(key)
        if drawn is None:
            drawn = self._sides[key] = self.faces[d].side(card, side)
        return drawn

    @property
    def fonts(self) -> str:
        if self._fonts is None:
            self._fonts = font_inputs(self.project)
        return self._fonts

    def key(self, d: int, card: Card | None, side: str) -> str:
        found = self._keys.get(spec(d, card, side))
        if found is None:
            g = self.faces[d].renderer.geometry
            svg = self.side(d, card, side).svg
            found = self._keys[spec(d, card, side)] = piece_key(self.fonts, svg, (g.width, g.height), self.greyscale)
        return found

    def keep(self, d: int, card: Card | None, side: str, drawn: DrawnSide, key: str) -> None:
        """Keep the piece of ``drawn`` (the side, as its task has it), whose key is ``key``, unless the store has it."""
        self._sides[(d, drawn.key, side)] = drawn
        self._keys[spec(d, card, side)] = key
        if not self.kept(key):
            self._known[key] = self._drawn(d, card, side)[1]
        self._sides.clear()  # the task goes on to the next side: this one is done with

    def kept(self, key: str) -> bool:
        return self.store.has(KIND, key, binary=True)

    def known(self, d: int, card: Card | None, side: str) -> Known:
        """What assembling needs to know of the piece: read from the head of its entry, or drawn now."""
        key = self.key(d, card, side)
        if key in self._known:
            return self._known[key]
        head = self.store.get_head(KIND, key)
        found = None
        if head is not None:
            with suppress(ValueError, KeyError, TypeError):  # an entry of another shape: draw it again
                found = Known.read(head)
        if found is None or (side == "front" and found.edge is None):
            found = self._drawn(d, card, side)[1]
        self._known[key] = found
        return found

    def edge(self, d: int, card: Card) -> Colour:
        """The colour at the edge of the card's front as drawn, worked out when its piece was drawn."""
        told = self._edges.get(spec(d, card, "front"))
        if told is not None:
            return told
        edge = self.known(d, card, "front").edge
        assert edge is not None  # a front's piece is described with its edge
        return edge

    def pdf(self, d: int, card: Card | None, side: str) -> bytes:
        """The piece's PDF: from the store (checked whole), or drawn now and kept."""
        key = self.key(d, card, side)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        found = self.store.get_parts(KIND, key)
        if found is not None:
            try:
                head, pdf = found
                Known.read(head)
                return pdf
            except (ValueError, KeyError, TypeError):
                pass
        return self._drawn(d, card, side)[0]

    def _drawn(self, d: int, card: Card | None, side: str) -> tuple[bytes, Known]:
        key = self.key(d, card, side)
        fonts = font_files(font_book(self.project), self.store.memo_bytes)
        pdf = draw_piece(self.faces[d], card, side, self.side(d, card, side).svg, fonts, self.greyscale)
        known = describe(pdf)
        if side == "front":  # the sheets lay fronts out by their edges: read where the piece is drawn, once
            g = self.faces[d].renderer.geometry
            known = replace(known, edge=edge_colour(pdf, (g.width, g.height)))
        self.store.put_parts(KIND, key, known.head(), pdf)
        self._last = (key, pdf)  # a piece drawn to be known is about to be asked for
        self.drawn += 1
        return pdf, known
