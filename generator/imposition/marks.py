"""Marks outside the cards: crop marks in line with every cut, cut outlines, registration targets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..geometry import Box
from .shapes import Line, Outline, Placement, Target, bounds


def _unique(values: Iterable[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 1e-6:
            out.append(v)
    return out


def crop_marks(placements: Sequence[Placement], limit: Box, length: float, distance: float) -> list[Line]:
    """Short lines outside the block of cards, in line with every cut, inside ``limit``.

    Marks start ``distance`` away from the outermost drawn card box and stop at
    ``limit`` (the page, or half a page for gutterfold); marks shorter than
    half a millimetre are left out.
    """
    if not placements:
        return []
    box = bounds(p.box for p in placements)
    xs = _unique(v for p in placements for v in (p.trim.x, p.trim.right))
    ys = _unique(v for p in placements for v in (p.trim.y, p.trim.bottom))
    lines = []

    def add(x1, y1, x2, y2):
        line = Line(x1, y1, x2, y2, "crop")
        if line.length >= 0.5 - 1e-9:
            lines.append(line)

    for x in xs:
        if limit.x - 1e-9 <= x <= limit.right + 1e-9:
            start = box.y - distance
            add(x, start, x, max(limit.y, start - length)) if start > limit.y else None
            start = box.bottom + distance
            add(x, start, x, min(limit.bottom, start + length)) if start < limit.bottom else None
    for y in ys:
        if limit.y - 1e-9 <= y <= limit.bottom + 1e-9:
            start = box.x - distance
            add(start, y, max(limit.x, start - length), y) if start > limit.x else None
            start = box.right + distance
            add(start, y, min(limit.right, start + length), y) if start < limit.right else None
    return lines


def cut_outlines(placements: Sequence[Placement]) -> list[Outline]:
    """The trim outline of every card, corners rounded as the card's (for cutting machines)."""
    return [Outline(p.trim, p.radius) for p in placements]


def registration_targets(placements: Sequence[Placement], limit: Box, radius: float, distance: float) -> list[Target]:
    """Targets diagonally outside the block's four corners, where they fit inside ``limit``."""
    if not placements:
        return []
    box = bounds(p.box for p in placements)
    d = distance + radius
    out = []
    for x, y in (
        (box.x - d, box.y - d),
        (box.right + d, box.y - d),
        (box.x - d, box.bottom + d),
        (box.right + d, box.bottom + d),
    ):
        target = Target(x, y, radius)
        if target.box.within(limit):
            out.append(target)
    return out
