"""Card sides drawn once: SVG text kept in the cache under the side's content key.

An entry records the pictures its template loaded, with their digests; it is
used only while every one of them is unchanged, so replacing a card's art
redraws that card even though the deck file did not change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..definitions.model import Card, Deck
from ..errors import AetherpressError, Problem
from ..geometry import Box
from ..project import Project
from ..project.cache import read_cached, write_cached
from ..project.digests import digests_hold, file_digest
from .keys import SideKeys
from .lint import Finding, check_svg
from .render import FaceRenderer
from .svg import parse_svg

KIND = "sides"


def _current(folders: list) -> Callable[[Any], bool]:
    """Is an entry of the project's cache well formed, every picture it loaded unchanged (and inside the
    picture ``folders``), and its SVG within the allow-list?  (An entry is drawn again otherwise.)"""
    return lambda data: (
        isinstance(data["svg"], str)
        and _boxes(data) is not None
        and digests_hold(data["reads"], folders)
        and _allowed(data["svg"])
    )


def _allowed(svg: str) -> bool:
    try:
        parse_svg(svg, "the cache")
    except AetherpressError:
        return False
    return True


def _boxes(data: dict) -> tuple[tuple[str, Box], ...] | None:
    """The fitted text boxes an entry records, as (field, box); None when they are not well formed."""
    found = data.get("boxes")
    if not isinstance(found, list):
        return None
    boxes = []
    for item in found:
        if not (isinstance(item, list) and len(item) == 5 and isinstance(item[0], str)):
            return None
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in item[1:]):
            return None
        boxes.append((item[0], Box(*(float(v) for v in item[1:]))))
    return tuple(boxes)


@dataclass(frozen=True)
class DrawnSide:
    """A card side as drawn: its content key, its SVG text and what was found while drawing it."""

    key: str
    svg: str
    reads: dict[str, str]  # the pictures its template loaded, by path, with their digests
    overflows: tuple[Problem, ...] = ()  # texts that do not fit, drawn in red (drafts only)
    boxes: tuple[tuple[str, Box], ...] = ()  # the boxes its texts were fitted to (for validate's checks)
    differs: tuple[Finding, ...] = ()  # what it draws that prints otherwise than a browser shows it


class CachedFaces:
    """A deck's faces and backs as SVG text, each side drawn only when its key is new."""

    def __init__(
        self, project: Project, deck: Deck, renderer: FaceRenderer | None = None, use_cache: bool = True, keep: bool = True
    ):
        """``use_cache``: take sides from the cache; ``keep``: put the sides drawn here into it."""
        self.project = project
        self.deck = deck
        self.renderer = renderer or FaceRenderer(project, deck)
        self.keys = SideKeys(project, deck, self.renderer.options, self.renderer.reads_deck)
        self.use_cache = use_cache
        self.keep = keep and use_cache
        self.drawn = 0  # sides drawn (not found in the cache) so far
        self._keys: dict[tuple[str | None, str], str] = {}  # by card id: the deck is this object's own
        self._current = _current(project.picture_folders())

    def key(self, card: Card | None, side: str) -> str:
        known = (card.id if card is not None else None, side)
        if known not in self._keys:
            if side == "front" and card is not None:
                self._keys[known] = self.keys.face(self.deck, card)
            else:
                self._keys[known] = self.keys.back(self.deck, card)
        return self._keys[known]

    def side(self, card: Card | None, side: str) -> DrawnSide:
        """The side ("front" or "back") from the cache when it is there and current, else drawn and kept."""
        key = self.key(card, side)
        data = read_cached(self.project, KIND, key, self._current) if self.use_cache else None
        if data is not None:
            overflows = tuple(Problem(file, message, line) for file, message, line in data.get("overflows", []))
            differs = tuple(Finding(line, message) for line, message in data.get("differs", []))
            return DrawnSide(key, data["svg"], dict(data["reads"]), overflows, _boxes(data) or (), differs)
        if side == "front" and card is not None:
            text = self.renderer.face(card)
        else:
            text = self.renderer.back(card)
        self.drawn += 1
        reads = {str(p): file_digest(p) for p in self.renderer.reads}
        boxes = tuple(self.renderer.text_boxes)
        differs = tuple(check_svg(text))
        drawn = DrawnSide(key, text, reads, tuple(self.renderer.overflow_problems()), boxes, differs)
        if self.keep:
            told = [[p.file, p.message, p.line] for p in drawn.overflows]
            fitted = [[field, box.x, box.y, box.w, box.h] for field, box in boxes]
            entry = {"svg": text, "reads": reads, "overflows": told, "boxes": fitted}
            entry["differs"] = [[f.line, f.message] for f in differs]
            write_cached(self.project, KIND, key, entry)
        return drawn

    def svg(self, card: Card | None, side: str) -> tuple[str, str]:
        """The side's (key, SVG text)."""
        drawn = self.side(card, side)
        return drawn.key, drawn.svg
