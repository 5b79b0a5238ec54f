"""A deck's sides as the pipeline gets them: from the store when kept, otherwise drawn and kept.

A side's key is a digest of everything it is drawn from (see
:mod:`generator.faces.keys`).  A kept side records the pictures its template
loaded, with their digests; it is used only while every one of them is
unchanged, so replacing a card's art redraws that card even though the deck
file did not change.
"""

from __future__ import annotations

from ..definitions.model import Card, Deck
from ..faces.drawn import DrawnSide, draw_side, side_data, side_from_data
from ..faces.keys import SideKeys
from ..faces.render import FaceRenderer
from ..project import Project
from .store import Codec, Store

KIND = "sides"


class Sides:
    """A deck's faces and backs as SVG text, each side drawn only when its key is new."""

    def __init__(self, store: Store, deck: Deck, renderer: FaceRenderer, use_store: bool = True):
        """Sides as ``renderer`` draws them (made by the project context: see
        :meth:`~generator.pipeline.context.ProjectContext.sides`); ``use_store``: take sides from the store and
        keep those drawn here (as ``store`` keeps anything)."""
        project = store.project
        self.store = store
        self.deck = deck
        self.renderer = renderer
        self.keys = SideKeys(project, deck, self.renderer.options, self.renderer.reads_deck)
        self.use_store = use_store
        self.drawn = 0  # sides drawn (not found in the store) so far
        self._keys: dict[tuple[str | None, str], str] = {}  # by card id: the deck is this object's own
        self._folders = project.picture_folders()

    @property
    def project(self) -> Project:
        return self.store.project

    def key(self, card: Card | None, side: str) -> str:
        known = (card.id if card is not None else None, side)
        if known not in self._keys:
            inputs = self.keys.face(self.deck, card) if side == "front" and card is not None else self.keys.back(self.deck, card)
            self._keys[known] = self.store.key(KIND, inputs)
        return self._keys[known]

    def kept(self, card: Card | None, side: str) -> bool:
        """Is the side in the store?  (Not yet checked: reading it does that.)"""
        return self.store.has(KIND, self.key(card, side))

    def side(self, card: Card | None, side: str) -> DrawnSide:
        """The side ("front" or "back") from the store when it is there and current, else drawn and kept."""
        key = self.key(card, side)
        codec = Codec(side_data, lambda data: side_from_data(key, data, self._folders))
        if not self.use_store:
            return self._draw(key, card, side)
        return self.store.memo_key(KIND, key, lambda: self._draw(key, card, side), codec)

    def _draw(self, key: str, card: Card | None, side: str) -> DrawnSide:
        self.drawn += 1
        return draw_side(self.renderer, key, card, side)

    def svg(self, card: Card | None, side: str) -> tuple[str, str]:
        """The side's (key, SVG text)."""
        drawn = self.side(card, side)
        return drawn.key, drawn.svg
