"""Rectangles in millimetres, shared by text fitting, card faces and sheet layout."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle: top-left corner (x, y), width w, height h (y grows downwards)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, d: float, dy: float | None = None) -> Box:
        dy = d if dy is None else dy
        return Box(self.x + d, self.y + dy, self.w - 2 * d, self.h - 2 * dy)

    def grow(self, d: float) -> Box:
        return self.inset(-d)

    def shift(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def sub(self, x: float = 0.0, y: float = 0.0, w: float | None = None, h: float | None = None) -> Box:
        """A box at offset (x, y) inside this one; ``w``/``h`` default to the rest."""
        return Box(self.x + x, self.y + y, self.w - x if w is None else w, self.h - y if h is None else h)

    def contains(self, other: Box, tolerance: float = 1e-6) -> bool:
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.bottom <= self.bottom + tolerance
        )

    def within(self, other: Box, tol: float = 1e-6) -> bool:
        return other.contains(self, tol)

    def overlaps(self, other: Box, tol: float = 1e-6) -> bool:
        """True when the interiors intersect (touching edges do not count)."""
        return (
            self.x < other.right - tol
            and other.x < self.right - tol
            and self.y < other.bottom - tol
            and other.y < self.bottom - tol
        )
