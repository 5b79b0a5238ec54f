"""A card side as drawn: a function of its deck, card and side, and the data that a drawn side is kept as.

:func:`draw_side` draws a side with a renderer and returns what came of it;
:data:`SIDE` turns a drawn side into JSON-ready data and back, checking on
the way back that the data is a side (its SVG within the allow-list, its
boxes well formed) and that every picture it was drawn with is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..definitions.model import Card, Deck
from ..errors import AetherpressError, Problem
from ..geometry import Box
from ..project import Project
from ..project.digests import digests_hold, file_digest
from .lint import Finding, check_svg
from .render import FaceRenderer
from .svg import parse_svg


@dataclass(frozen=True)
class DrawnSide:
    """A card side as drawn: its content key, its SVG text and what was found while drawing it."""

    key: str
    svg: str
    reads: dict[str, str]  # the pictures its template loaded, by path, with their digests
    overflows: tuple[Problem, ...] = ()  # texts that do not fit, drawn in red (drafts only)
    boxes: tuple[tuple[str, Box], ...] = ()  # the boxes its texts were fitted to (for validate's checks)
    differs: tuple[Finding, ...] = ()  # what it draws that prints otherwise than a browser shows it


class DrawnSides(Protocol):
    """A deck's sides as drawn (or kept from an earlier drawing): what the stages that use sides are handed."""

    deck: Deck
    renderer: FaceRenderer

    def key(self, card: Card | None, side: str) -> str: ...

    def side(self, card: Card | None, side: str) -> DrawnSide: ...


class SideSource(Protocol):
    """Where every stage that writes or shows cards gets a deck's sides: the project context
    (:class:`generator.pipeline.context.ProjectContext`), which keeps them, and what is drawn from them, in the
    store."""

    @property
    def project(self) -> Project: ...

    def sides(self, deck: Deck, draft: bool = False, bleed: float | None = None, keep: bool = True) -> DrawnSides: ...

    @property
    def games(self) -> Mapping[str, Any]: ...

    def deck(self, key: str) -> Deck: ...

    def kept_bytes(self, kind: str, inputs: Any, make: Callable[[], bytes]) -> bytes: ...

    def piece(self, sides: DrawnSides, card: Card | None, side: str) -> bytes:
        """The one-page PDF a side prints as (its piece), kept in the store as a build keeps it."""
        ...


def draw_side(renderer: FaceRenderer, key: str, card: Card | None, side: str) -> DrawnSide:
    """Draw ``side`` ("front" or "back"; a deck without cards has only a back) of ``card``."""
    text = renderer.face(card) if side == "front" and card is not None else renderer.back(card)
    reads = {str(p): file_digest(p) for p in renderer.reads}
    boxes = tuple(renderer.text_boxes)
    differs = [Finding(None, message) for message in renderer.unknown_fonts]
    differs += check_svg(text, renderer.drawn_from, renderer.place(card, side))
    return DrawnSide(key, text, reads, tuple(renderer.overflow_problems()), boxes, tuple(differs))


def side_data(drawn: DrawnSide) -> dict[str, Any]:
    """The drawn side as JSON-ready data (its key aside: the data is kept under it)."""
    return {
        "svg": drawn.svg,
        "reads": drawn.reads,
        "overflows": [[p.file, p.message, p.line] for p in drawn.overflows],
        "boxes": [[field, box.x, box.y, box.w, box.h] for field, box in drawn.boxes],
        "differs": [[f.line, f.message] for f in drawn.differs],
    }


def side_from_data(key: str, data: Any, folders: Sequence[Path]) -> DrawnSide:
    """The side that :func:`side_data` made ``data`` of; ValueError (or KeyError, TypeError) when the data is
    not well formed, its SVG is not within the allow-list, or a picture it loaded (from ``folders``) has changed."""
    svg = data["svg"]
    if not isinstance(svg, str) or not digests_hold(data["reads"], folders):
        raise ValueError("not a current side")
    try:
        parse_svg(svg, "the cache")
    except AetherpressError:
        raise ValueError("a side beyond the allow-list") from None
    overflows = tuple(Problem(file, message, line) for file, message, line in data.get("overflows", []))
    differs = tuple(Finding(line, message) for line, message in data.get("differs", []))
    return DrawnSide(key, svg, dict(data["reads"]), overflows, _boxes(data), differs)


def _boxes(data: dict) -> tuple[tuple[str, Box], ...]:
    """The fitted text boxes kept with a side, as (field, box); ValueError when they are not well formed."""
    found = data.get("boxes")
    if not isinstance(found, list):
        raise ValueError("no boxes")
    boxes = []
    for item in found:
        if not (isinstance(item, list) and len(item) == 5 and isinstance(item[0], str)):
            raise ValueError("a box of another shape")
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in item[1:]):
            raise ValueError("a box of another shape")
        boxes.append((item[0], Box(*(float(v) for v in item[1:]))))
    return tuple(boxes)
