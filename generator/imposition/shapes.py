"""What a layout is made of: placed cards, lines, outlines, targets and pages.

Coordinates are millimetres from the top-left corner of the page, y down.
Rotations are clockwise, in degrees, as seen on the page.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..geometry import Box


def bounds(rects: Iterable[Box]) -> Box:
    rects = list(rects)
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    x1, y1 = max(r.right for r in rects), max(r.bottom for r in rects)
    return Box(x0, y0, x1 - x0, y1 - y0)


@dataclass(frozen=True)
class Item:
    """One printed card (each copy is its own item) as the layout sees it."""

    key: int  # the caller's index of the card
    width: float  # trim width, mm, unrotated
    height: float
    bleed: float = 0.0  # bleed the drawing has around its trim
    radius: float = 0.0  # corner radius of the trim (for cut outlines)
    dark: bool = False  # dark at its edges: by default the sheet keeps its bleed, with gaps
    edge: int = 0  # which edge colour it has: by default, cards of different edge colours are never neighbours


@dataclass(frozen=True)
class Placement:
    item: int  # index into the items given to layout()
    side: str  # "front" or "back"
    trim: Box  # on the page, after rotation
    rotation: int  # 0, 90, 180 or 270, clockwise
    bleed: float = 0.0  # bleed drawn around the trim (the rest is clipped)
    radius: float = 0.0  # the trim's corner radius
    edges: tuple[float, float, float, float] | None = None  # bleed kept left, above, right, below, when not ``bleed`` all round

    @property
    def box(self) -> Box:
        """What is drawn: the trim plus the kept bleed."""
        if self.edges is None:
            return self.trim.grow(self.bleed)
        left, top, right, bottom = self.edges
        t = self.trim
        return Box(t.x - left, t.y - top, t.w + left + right, t.h + top + bottom)


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    kind: str  # "crop" or "fold"

    @property
    def length(self) -> float:
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)

    def touches(self, rect: Box, tol: float = 1e-6) -> bool:
        """Does this (horizontal or vertical) segment reach into ``rect``, edges included?"""
        x0, x1 = sorted((self.x1, self.x2))
        y0, y1 = sorted((self.y1, self.y2))
        return x0 <= rect.right + tol and rect.x - tol <= x1 and y0 <= rect.bottom + tol and rect.y - tol <= y1


@dataclass(frozen=True)
class Outline:
    """A card's trim outline with rounded corners, for cutting machines."""

    rect: Box
    radius: float = 0.0


@dataclass(frozen=True)
class Target:
    """A registration target: a circle with a cross, centred at (x, y)."""

    x: float
    y: float
    r: float

    @property
    def box(self) -> Box:
        return Box(self.x - self.r, self.y - self.r, 2 * self.r, 2 * self.r)


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    side: str  # "front", "back" or "both" (gutterfold)
    placements: tuple[Placement, ...]
    lines: tuple[Line, ...] = ()
    targets: tuple[Target, ...] = ()
    front_page: int | None = None
    outlines: tuple[Outline, ...] = ()  # cut outlines  # for a back page: the index of its fronts page

    @property
    def rect(self) -> Box:
        return Box(0.0, 0.0, self.width, self.height)
