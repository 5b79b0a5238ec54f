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
DARK_GAPS = (3.0, 2.0, 1.0)  # mm: by default, the widest of these between dark cards that costs no card a page


@dataclass(frozen=True)
class Layout:
    """How to lay cards out.  Lengths in mm."""

    paper: Paper
    mode: str = "duplex"  # grid (fronts only), duplex, gutterfold
    flip: str = "long"  # duplex: the sheet turns over its long or its short edge
    margin: float = 6.0  # nothing, not even a crop mark, is printed closer to the paper's edge than this
    gap: float | None = 0.0  # between neighbouring cards (bleed boxes when bleed is kept); None: by the cards' edges
    bleed: float | None = 0.0  # kept round each card, at most its own (0: trimmed; inf: all); None: by the cards' edges
    shared: bool = False  # neighbours share one cut; only the block's outer edges keep bleed (as much as fits)
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
        if self.shared and (self.gap or self.bleed):
            raise LayoutError("shared bleed keeps the cards' bleed on the block's outside and no gap: leave out bleed and gap")
        for name in ("margin", "gap", "bleed", "crop_length", "crop_distance", "gutter"):
            value = getattr(self, name)
            if value is None and name in ("gap", "bleed"):
                continue
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


Kind = tuple[float, float, float, float | None]  # a group's card width, height, kept bleed and gap (None: DARK_GAPS)


def _kept(item: Item, opts: Layout) -> tuple[float, float | None]:
    """The bleed kept round ``item`` and the gap beside it (None: the widest of DARK_GAPS that costs no card)."""
    if opts.shared:
        return item.bleed, 0.0
    bleed = opts.bleed if opts.bleed is not None else (math.inf if item.dark else 0.0)
    gap = opts.gap if opts.gap is not None else (None if item.dark else 0.0)
    return min(bleed, item.bleed), gap


def _groups(items: Sequence[Item], opts: Layout) -> list[tuple[Kind, list[int]]]:
    """Item indices grouped by card size (and kept bleed and gap), in order of first appearance; with the gap chosen
    by the cards, by edge colour too, so that no two neighbours' edges differ."""
    groups: dict[tuple, tuple[Kind, list[int]]] = {}
    for i, item in enumerate(items):
        kept, gap = _kept(item, opts)
        edge = item.edge if opts.gap is None and not opts.shared else 0
        key = (round(item.width, 6), round(item.height, 6), round(kept, 6), gap, edge)
        groups.setdefault(key, ((item.width, item.height, kept, gap), []))[1].append(i)
    return list(groups.values())


def _grid(region: Box, w: float, h: float, bleed: float, gap: float | None, opts: Layout) -> Grid | None:
    """The grid of a group of cards in ``region``: shared cuts, a gap chosen by the cards, or the gap asked for."""
    if opts.shared:
        return grid_in(region, w, h, 0.0, 0.0, opts.rotate)
    if gap is not None:
        return grid_in(region, w, h, bleed, gap, opts.rotate)
    tight = grid_in(region, w, h, bleed, 0.0, opts.rotate)
    for wide in DARK_GAPS:
        grid = grid_in(region, w, h, bleed, wide, opts.rotate)
        if grid is not None and tight is not None and grid.capacity == tight.capacity:
            return grid
    return tight


def _placements(items: Sequence[Item], chunk: Sequence[int], grid: Grid, bleed: float, region: Box, opts: Layout):
    """The fronts of one page.  With shared cuts a card keeps bleed only where no card is beside it: all of its own
    bleed towards an empty cell, as much as ``region`` leaves (up to its own) on the block's outside.  The card
    above an empty cell that has a card on its left keeps none there: that card's bleed takes the corner."""
    turn = 90 if grid.rotated else 0
    if not opts.shared:
        return tuple(Placement(i, "front", grid.trim(n), turn, bleed, items[i].radius) for n, i in enumerate(chunk))
    side_x, side_y = min(bleed, grid.left - region.x), min(bleed, grid.top - region.y)
    taken = {(n % grid.cols, n // grid.cols) for n in range(len(chunk))}

    def edge(col: int, row: int, outside: bool, outer: float) -> float:
        return 0.0 if (col, row) in taken else max(0.0, outer) if outside else bleed

    out = []
    for n, i in enumerate(chunk):
        c, r = n % grid.cols, n // grid.cols
        edges = (
            edge(c - 1, r, c == 0, side_x),
            edge(c, r - 1, r == 0, side_y),
            edge(c + 1, r, c == grid.cols - 1, side_x),
            0.0 if (c - 1, r + 1) in taken else edge(c, r + 1, r == grid.rows - 1, side_y),
        )
        out.append(Placement(i, "front", grid.trim(n), turn, bleed, items[i].radius, edges))
    return tuple(out)


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
    for (w, h, bleed, gap), indices in _groups(items, opts):
        grid = _grid(opts.card_area, w, h, bleed, gap, opts)
        if grid is None:
            raise _too_big(w, h, 0.0 if opts.shared else bleed, opts, "on a page")
        for start in range(0, len(indices), grid.capacity):
            chunk = indices[start : start + grid.capacity]
            fronts = _placements(items, chunk, grid, bleed, opts.card_area, opts)
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


def _gutter_grid(w: float, h: float, bleed: float, gap: float | None, opts: Layout) -> tuple[bool, Grid, Box, Box]:
    """Gutterfold: (fold line vertical?, the fronts' grid, the fronts' half page, the region the grid is in)."""
    W, H = opts.paper.width, opts.paper.height
    p, g = opts.card_area, opts.gutter
    choices: list[tuple[int, int, bool, Grid, Box, Box]] = []
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
        grid = _grid(half, w, h, bleed, gap, opts)
        if grid is not None:
            choices.append((grid.capacity, -len(choices), fold_x, grid, limit, half))
    if not choices:
        raise _too_big(w, h, 0.0 if opts.shared else bleed, opts, "in half a page (gutterfold)")
    _, _, fold_x, grid, limit, half = max(choices, key=lambda c: c[:2])
    return fold_x, grid, limit, half


def _gutterfold(items: Sequence[Item], opts: Layout) -> tuple[Page, ...]:
    """Fronts in one half, backs mirrored about the fold line in the other half."""
    W, H = opts.paper.width, opts.paper.height
    pages: list[Page] = []
    for (w, h, bleed, gap), indices in _groups(items, opts):
        fold_x, grid, limit, half = _gutter_grid(w, h, bleed, gap, opts)
        fold = Line(W / 2, 0.0, W / 2, H, "fold") if fold_x else Line(0.0, H / 2, W, H / 2, "fold")
        for start in range(0, len(indices), grid.capacity):
            chunk = indices[start : start + grid.capacity]
            fronts = _placements(items, chunk, grid, bleed, half, opts)
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


def cards_per_page(w: float, h: float, opts: Layout, bleed: float = 0.0, dark: bool = False) -> int:
    """How many w x h cards (with up to ``bleed`` kept; ``dark`` at their edges) one page's fronts hold."""
    kept, gap = _kept(Item(0, w, h, bleed, dark=dark), opts)
    if opts.mode == "gutterfold":
        return _gutter_grid(w, h, kept, gap, opts)[1].capacity
    grid = _grid(opts.card_area, w, h, kept, gap, opts)
    if grid is None:
        raise _too_big(w, h, 0.0 if opts.shared else kept, opts, "on a page")
    return grid.capacity
