"""Duplex and gutterfold: where the back of a card lands once the sheet is turned or folded."""

from __future__ import annotations

from ..geometry import Box
from .shapes import Line, Placement, Target


def mirror_rect(rect: Box, page_w: float, page_h: float, mirror_x: bool) -> Box:
    if mirror_x:
        return Box(page_w - rect.right, rect.y, rect.w, rect.h)
    return Box(rect.x, page_h - rect.bottom, rect.w, rect.h)


def _mirror_rotation(rotation: int, mirror_x: bool) -> int:
    """The rotation of a card's back so it is upright when the card is turned like a book page.

    Turning the sheet left-right (x mirrored) gives the back the opposite rotation
    of its front; turning it top-bottom adds half a turn.
    """
    return (-rotation) % 360 if mirror_x else (180 - rotation) % 360


def mirror_placement(
    p: Placement, page_w: float, page_h: float, mirror_x: bool, offset: tuple[float, float] = (0.0, 0.0)
) -> Placement:
    trim = mirror_rect(p.trim, page_w, page_h, mirror_x).shift(*offset)
    edges = p.edges
    if edges is not None:
        left, top, right, bottom = edges
        edges = (right, top, left, bottom) if mirror_x else (left, bottom, right, top)
    return Placement(p.item, "back", trim, _mirror_rotation(p.rotation, mirror_x), p.bleed, p.radius, edges)


def mirror_line(line: Line, page_w: float, page_h: float, mirror_x: bool, offset: tuple[float, float] = (0.0, 0.0)) -> Line:
    dx, dy = offset
    if mirror_x:
        return Line(page_w - line.x1 + dx, line.y1 + dy, page_w - line.x2 + dx, line.y2 + dy, line.kind)
    return Line(line.x1 + dx, page_h - line.y1 + dy, line.x2 + dx, page_h - line.y2 + dy, line.kind)


def mirror_target(t: Target, page_w: float, page_h: float, mirror_x: bool, offset: tuple[float, float] = (0.0, 0.0)) -> Target:
    x, y = (page_w - t.x, t.y) if mirror_x else (t.x, page_h - t.y)
    return Target(x + offset[0], y + offset[1], t.r)
