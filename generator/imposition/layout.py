"""Sheet layout: which card goes where on which page.  Pure math, millimetres.

Nothing here draws or touches files.  :func:`layout` turns a list of
:class:`Item` (one per printed copy of a card) and a :class:`Layout` (paper,
margins, gap, bleed, duplex or gutterfold...) into :class:`Page` values
holding :class:`Placement` (a card's trim box on the page and its rotation)
and :class:`Line` (crop marks, cut lines, fold line) and registration targets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..definitions.presets import Paper
from ..geometry import Box
from ..units import format_mm
from .grids import Grid, LayoutError, grid_in
from .marks import crop_marks, cut_outlines, registration_targets
from .mirror import mirror_line, mirror_placement, mirror_target
from .shapes import Item, Line, Page, Placement, Target

LAYOUTS = ("grid", "duplex", "gutterfold")
_MIN_CROP = 2.0  # mm: the shortest crop mark worth printing; the grid keeps room for it
FLIPS = ("long", "short")


@dataclass(frozen=True)
class Layout:
    """How to lay cards out.  Lengths in mm."""

    paper: Paper
    mode: str = "duplex"  # grid (fronts only), duplex, gutterfold
    flip: str = "long"  # duplex: the sheet turns over its long or its short edge
    margin: float = 6.0  # nothing, not even a crop mark, is printed closer to the paper's edge than this
    gap: float = 0.0  # between neighbouring cards (bleed boxes when bleed is kept)
    bleed: float = 0.0  # bleed kept around each card on the sheet, at most the card's own (0: trimmed; inf: all)
    offset: tuple[float, float] = (0.0, 0.0)  # printer offset, added to back pages
    rotate: str = "auto"  # cards turned 90 degrees: auto (when more fit), never, always
    crop_marks: bool = True
    crop_length: float = 4.0
    crop_distance: float = 1.0  # from the outermost card to the start of a mark
    cut_lines: bool = False  # a trim outline per card, for cutting machines
    registration: bool = False  # targets outside the grid corners, mirrored on backs
    target_radius: float = 2.0
    gutter: float = 6.0  # gutterfold: at least this much between the fold and a card

    def __post_init__(self) -> None:
        if self.mode not in LAYOUTS:
            raise LayoutError(f"unknown layout '{self.mode}'; use one of {', '.join(LAYOUTS)}")
        if self.flip not in FLIPS:
            raise LayoutError(f"unknown flip '{self.flip}'; use long or short")
        if self.rotate not in ("auto", "never", "always"):
            raise LayoutError(f"unknown rotate '{self.rotate}'")
        for name in ("margin", "gap", "bleed", "crop_length", "crop_distance", "gutter"):
            value = getattr(self, name)
            if not (value >= 0 and (math.isfinite(value) or (name == "bleed" and value == math.inf))):
                raise LayoutError(f"{name.replace('_', ' ')} must be a length of 0 mm or more, not {value}")
        if 2 * self.margin >= min(self.paper.width, self.paper.height):
            raise LayoutError(f"margins of {format_mm(self.margin)} mm leave nothing of {self.paper.name} paper")

    @property
    def printable(self) -> Box:
        m = self.margin
        return Box(m, m, self.paper.width - 2 * m, self.paper.height - 2 * m)

    @property
    def card_area(self) -> Box:
        """Where cards may go: the printable area, less room for crop marks of at least _MIN_CROP mm outside them."""
        if not self.crop_marks:
            return self.printable
        return self.printable.inset(self.crop_distance + min(_MIN_CROP, self.crop_length))

    def mirrors_x(self) -> bool:
        """Duplex: is the back page a left-right mirror (else top-bottom)?"""
        portrait = self.paper.width <= self.paper.height
        return (self.flip == "long") == portrait


def _groups(items: Sequence[Item], bleed: float) -> list[tuple[tuple[float, float, float], list[int]]]:
    """Item indices grouped by card size (and kept bleed), in order of first appearance."""
    groups: dict[tuple[float, float, float], tuple[tuple[float, float, float], list[int]]] = {}
    for i, item in enumerate(items):
        kept = min(bleed, item.bleed)
        key = (round(item.width, 6), round(item.height, 6), round(kept, 6))
        groups.setdefault(key, ((item.width, item.height, kept), []))[1].append(i)
    return list(groups.values())


def _too_big(w: float, h: float, bleed: float, layout: Layout, where: str) -> LayoutError:
    extra = f" with {format_mm(bleed)} mm bleed" if bleed else ""
    return LayoutError(
        f"a {format_mm(w)} x {format_mm(h)} mm card{extra} does not fit {where} of "
        f"{layout.paper.name} paper ({format_mm(layout.paper.width)} x {format_mm(layout.paper.height)} mm) "
        f"with {format_mm(layout.margin)} mm margins" + (" and room for crop marks" if layout.crop_marks else "")
    )


def _marks(layout: Layout, placements: Sequence[Placement], limit: Box) -> tuple[list[Line], list[Target]]:
    """Crop marks and targets, kept inside ``limit`` and the printable area (never in the margin)."""
    p = layout.printable
    x0, y0 = max(limit.x, p.x), max(limit.y, p.y)
    limit = Box(x0, y0, min(limit.right, p.right) - x0, min(limit.bottom, p.bottom) - y0)
    lines: list[Line] = []
    if layout.crop_marks:
        lines += crop_marks(placements, limit, layout.crop_length, layout.crop_distance)
    # targets sit diagonally beyond the corner crop marks, clear of them
    away = layout.crop_distance + (layout.crop_length / 2 if layout.crop_marks else 0.0)
    targets = registration_targets(placements, limit, layout.target_radius, away) if layout.registration else []
    return lines, targets


def layout(items: Sequence[Item], opts: Layout) -> tuple[Page, ...]:
    """Lay ``items`` out on pages: fronts (then mirrored backs, for duplex)."""
    if opts.mode == "gutterfold":
        return _gutterfold(items, opts)
    W, H = opts.paper.width, opts.paper.height
    page_rect = Box(0.0, 0.0, W, H)
    pages: list[Page] = []
    for (w, h, bleed), indices in _groups(items, opts.bleed):
        grid = grid_in(opts.card_area, w, h, bleed, opts.gap, opts.rotate)
        if grid is None:
            raise _too_big(w, h, bleed, opts, "on a page")
        for start in range(0, len(indices), grid.capacity):
            chunk = indices[start : start + grid.capacity]
            fronts = tuple(
                Placement(i, "front", grid.trim(n), 90 if grid.rotated else 0, bleed, items[i].radius)
                for n, i in enumerate(chunk)
            )
            lines, targets = _marks(opts, fronts, page_rect)
            cuts = lambda ps: tuple(cut_outlines(ps)) if opts.cut_lines else ()
            pages.append(Page(W, H, "front", fronts, tuple(lines), tuple(targets), outlines=cuts(fronts)))
            if opts.mode == "duplex":
                mx = opts.mirrors_x()
                backs = tuple(mirror_placement(p, W, H, mx, opts.offset) for p in fronts)
                pages.append(
                    Page(
                        W,
                        H,
                        "back",
                        backs,
                        tuple(mirror_line(line, W, H, mx, opts.offset) for line in lines),
                        tuple(mirror_target(t, W, H, mx, opts.offset) for t in targets),
                        front_page=len(pages) - 1,
                        outlines=cuts(backs),
                    )
                )
    return tuple(pages)


def _gutter_grid(w: float, h: float, bleed: float, opts: Layout) -> tuple[bool, Grid, Box]:
    """Gutterfold: (fold line vertical?, the fronts' grid, the fronts' half page)."""
    W, H = opts.paper.width, opts.paper.height
    p, g = opts.card_area, opts.gutter
    choices: list[tuple[int, int, bool, Grid, Box]] = []
    # fold across the long side first (the usual), then the other way
    for fold_x in (True, False) if W >= H else (False, True):
        if fold_x:  # vertical fold line at W/2: fronts left, backs right
            half = Box(p.x, p.y, W / 2 - g - p.x, p.h)
            limit = Box(0.0, 0.0, W / 2, H)
        else:  # horizontal fold line at H/2: fronts on top, backs below
            half = Box(p.x, p.y, p.w, H / 2 - g - p.y)
            limit = Box(0.0, 0.0, W, H / 2)
        if half.w <= 0 or half.h <= 0:
            continue
        grid = grid_in(half, w, h, bleed, opts.gap, opts.rotate)
        if grid is not None:
            choices.append((grid.capacity, -len(choices), fold_x, grid, limit))
    if not choices:
        raise _too_big(w, h, bleed, opts, "in half a page (gutterfold)")
    _, _, fold_x, grid, limit = max(choices)
    return fold_x, grid, limit


def _gutterfold(items: Sequence[Item], opts: Layout) -> tuple[Page, ...]:
    """Fronts in one half, backs mirrored about the fold line in the other half."""
    W, H = opts.paper.width, opts.paper.height
    pages: list[Page] = []
    for (w, h, bleed), indices in _groups(items, opts.bleed):
        fold_x, grid, limit = _gutter_grid(w, h, bleed, opts)
        fold = Line(W / 2, 0.0, W / 2, H, "fold") if fold_x else Line(0.0, H / 2, W, H / 2, "fold")
        for start in range(0, len(indices), grid.capacity):
            chunk = indices[start : start + grid.capacity]
            fronts = tuple(
                Placement(i, "front", grid.trim(n), 90 if grid.rotated else 0, bleed, items[i].radius)
                for n, i in enumerate(chunk)
            )
            lines, targets = _marks(opts, fronts, limit)
            backs = tuple(mirror_placement(f, W, H, fold_x) for f in fronts)
            back_lines = [mirror_line(line, W, H, fold_x) for line in lines]
            back_targets = [mirror_target(t, W, H, fold_x) for t in targets]
            pages.append(
                Page(
                    W,
                    H,
                    "both",
                    fronts + backs,
                    tuple(lines + back_lines + [fold]),
                    tuple(targets + back_targets),
                    outlines=tuple(cut_outlines(fronts + backs)) if opts.cut_lines else (),
                )
            )
    return tuple(pages)


def cards_per_page(w: float, h: float, opts: Layout, bleed: float = 0.0) -> int:
    """How many w x h cards (with up to ``bleed`` kept) one page's fronts hold."""
    kept = min(bleed, opts.bleed)
    if opts.mode == "gutterfold":
        return _gutter_grid(w, h, kept, opts)[1].capacity
    grid = grid_in(opts.card_area, w, h, kept, opts.gap, opts.rotate)
    if grid is None:
        raise _too_big(w, h, kept, opts, "on a page")
    return grid.capacity
