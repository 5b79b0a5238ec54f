"""Card sides drawn once: SVG text kept in the cache under the side's content key.

An entry records the pictures its template loaded, with their digests; it is
used only while every one of them is unchanged, so replacing a card's art
redraws that card even though the deck file did not change.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..definitions.model import Card, Deck
from ..project import Project
from ..project.cache import read_cached, write_cached
from ..project.digests import file_digest
from .keys import SideKeys
from .render import FaceRenderer

KIND = "sides"


def _current(data: Any) -> bool:
    return isinstance(data["svg"], str) and all(file_digest(Path(p)) == d for p, d in data["reads"].items())


class CachedFaces:
    """A deck's faces and backs as SVG text, each side drawn only when its key is new."""

    def __init__(self, project: Project, deck: Deck, renderer: FaceRenderer | None = None, use_cache: bool = True):
        self.project = project
        self.deck = deck
        self.renderer = renderer or FaceRenderer(project, deck)
        self.keys = SideKeys(project, deck, self.renderer.options)
        self.use_cache = use_cache
        self.drawn = 0  # sides drawn (not found in the cache) so far

    def key(self, card: Card | None, side: str) -> str:
        if side == "front" and card is not None:
            return self.keys.face(self.deck, card)
        return self.keys.back(self.deck, card)

    def svg(self, card: Card | None, side: str) -> tuple[str, str]:
        """The side's (key, SVG text): from the cache when it is there and current, else drawn and kept."""
        key = self.key(card, side)
        data = read_cached(self.project, KIND, key, _current) if self.use_cache else None
        if data is not None:
            return key, data["svg"]
        if side == "front" and card is not None:
            text = self.renderer.face(card)
        else:
            text = self.renderer.back(card)
        self.drawn += 1
        if self.use_cache:
            reads = {str(p): file_digest(p) for p in self.renderer.reads}
            write_cached(self.project, KIND, key, {"svg": text, "reads": reads})
        return key, text
