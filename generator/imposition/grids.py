"""Grids of equal cells: how many cards fit in a region, and where each goes."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..geometry import Box

EPS = 1e-7  # mm; an exact fit is a fit


class LayoutError(ValueError):
    """The cards cannot be laid out as asked (a one-line explanation)."""


@dataclass(frozen=True)
class Grid:
    """A block of equal cells centred in a region."""

    cols: int
    rows: int
    rotated: bool
    cell_w: float  # trim + 2 * kept bleed, after rotation
    cell_h: float
    bleed: float
    gap: float
    left: float
    top: float

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    def trim(self, index: int) -> Box:
        col, row = index % self.cols, index // self.cols
        x = self.left + col * (self.cell_w + self.gap) + self.bleed
        y = self.top + row * (self.cell_h + self.gap) + self.bleed
        return Box(x, y, self.cell_w - 2 * self.bleed, self.cell_h - 2 * self.bleed)


def fit(length: float, cell: float, gap: float) -> int:
    """How many cells of ``cell`` with ``gap`` between them fit in ``length``."""
    if cell <= 0:
        raise LayoutError("a card has no size")
    return max(0, math.floor((length + gap + EPS) / (cell + gap)))


def grid_in(region: Box, w: float, h: float, bleed: float, gap: float, rotate: str = "auto") -> Grid | None:
    """The grid of the most w x h cards (plus bleed) that fits in ``region``, or None."""
    options = []
    for rotated in (False, True):
        if (rotate == "never" and rotated) or (rotate == "always" and not rotated):
            continue
        cw, ch = (h, w) if rotated else (w, h)
        cw, ch = cw + 2 * bleed, ch + 2 * bleed
        cols, rows = fit(region.w, cw, gap), fit(region.h, ch, gap)
        if cols and rows:
            options.append((cols * rows, not rotated, cols, rows, rotated, cw, ch))
    if not options:
        return None
    _, _, cols, rows, rotated, cw, ch = max(options)
    used_w = cols * cw + (cols - 1) * gap
    used_h = rows * ch + (rows - 1) * gap
    return Grid(cols, rows, rotated, cw, ch, bleed, gap, region.x + (region.w - used_w) / 2, region.y + (region.h - used_h) / 2)
