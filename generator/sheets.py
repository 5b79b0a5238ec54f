"""Sheet layout: which card goes where on which page.  Pure math, millimetres.

Nothing here draws or touches files.  :func:`layout` turns a list of
:class:`Item` (one per printed copy of a card) and a :class:`Layout` (paper,
margins, gap, bleed, duplex or gutterfold...) into :class:`Page` values
holding :class:`Placement` (a card's trim box on the page and its rotation)
and :class:`Line` (crop marks, cut lines, fold line) and registration targets.

Coordinates are millimetres from the top-left corner of the page, y down.
Rotations are clockwise, in degrees, as seen on the page.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .geometry import Box

EPS = 1e-7  # mm; an exact fit is a fit

LAYOUTS = ("grid", "duplex", "gutterfold")
FLIPS = ("long", "short")


class LayoutError(ValueError):
    """The cards cannot be laid out as asked (a one-line explanation)."""


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    def oriented(self, landscape: bool) -> "Paper":
        short, long_ = sorted((self.width, self.height))
        base = self.name.removesuffix(" landscape")
        if landscape:
            return Paper(f"{base} landscape", long_, short)
        return Paper(base, short, long_)


UNITS = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$", re.I)


def parse_paper(spec: str, presets: dict[str, Paper]) -> Paper:
    """``A4``, ``letter:landscape``, ``210x297`` (mm), ``8.5x11in`` or ``100x150mm:landscape``."""
    text = spec.strip()
    landscape = None
    if ":" in text:
        text, _, orientation = text.rpartition(":")
        orientation = orientation.strip().lower()
        if orientation not in ("portrait", "landscape"):
            raise LayoutError(f"paper orientation '{orientation}' is not 'portrait' or 'landscape'")
        landscape = orientation == "landscape"
    key = text.strip().lower()
    if key in presets:
        paper = presets[key]
    else:
        match = _SIZE_RE.match(text)
        if not match:
            raise LayoutError(f"unknown paper '{spec}'; use one of {', '.join(p.name for p in presets.values())} "
                              "or a size such as 210x297mm or 8.5x11in")
        unit = UNITS[(match.group(3) or "mm").lower()]
        w, h = float(match.group(1)) * unit, float(match.group(2)) * unit
        if w <= 0 or h <= 0:
            raise LayoutError(f"paper '{spec}' has no area")
        paper = Paper(f"{_num(w)}x{_num(h)}mm", round(w, 4), round(h, 4))
        if landscape is None:
            return paper
    return paper.oriented(landscape) if landscape is not None else paper


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


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


@dataclass(frozen=True)
class Placement:
    item: int  # index into the items given to layout()
    side: str  # "front" or "back"
    trim: Box  # on the page, after rotation
    rotation: int  # 0, 90, 180 or 270, clockwise
    bleed: float = 0.0  # bleed drawn around the trim (the rest is clipped)
    radius: float = 0.0  # the trim's corner radius

    @property
    def box(self) -> Box:
        """What is drawn: the trim plus the kept bleed."""
        return self.trim.grow(self.bleed)


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


@dataclass(frozen=True)
class Layout:
    """How to lay cards out.  Lengths in mm."""
    paper: Paper
    mode: str = "duplex"  # grid (fronts only), duplex, gutterfold
    flip: str = "long"  # duplex: the sheet turns over its long or its short edge
    margin: float = 5.0  # nothing is printed closer to the paper's edge than this
    gap: float = 0.0  # between neighbouring cards (bleed boxes when bleed is kept)
    bleed: float = 0.0  # bleed kept around each card on the sheet (0: trimmed)
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
            if not (value >= 0 and math.isfinite(value)):
                raise LayoutError(f"{name.replace('_', ' ')} must be a length of 0 mm or more, not {value}")
        if 2 * self.margin >= min(self.paper.width, self.paper.height):
            raise LayoutError(f"margins of {_num(self.margin)} mm leave nothing of {self.paper.name} paper")

    @property
    def printable(self) -> Box:
        m = self.margin
        return Box(m, m, self.paper.width - 2 * m, self.paper.height - 2 * m)

    def mirrors_x(self) -> bool:
        """Duplex: is the back page a left-right mirror (else top-bottom)?"""
        portrait = self.paper.width <= self.paper.height
        return (self.flip == "long") == portrait


# --- grids -------------------------------------------------------------------

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
    return max(0, int(math.floor((length + gap + EPS) / (cell + gap))))


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
    return Grid(cols, rows, rotated, cw, ch, bleed, gap,
                region.x + (region.w - used_w) / 2, region.y + (region.h - used_h) / 2)


# --- mirroring ---------------------------------------------------------------

def mirror_rect(rect: Box, page_w: float, page_h: float, mirror_x: bool) -> Box:
    if mirror_x:
        return Box(page_w - rect.right, rect.y, rect.w, rect.h)
    return Box(rect.x, page_h - rect.bottom, rect.w, rect.h)


def mirror_rotation(rotation: int, mirror_x: bool) -> int:
    """The rotation of a card's back so it is upright when the card is turned like a book page.

    Turning the sheet left-right (x mirrored) gives the back the opposite rotation
    of its front; turning it top-bottom adds half a turn.
    """
    return (-rotation) % 360 if mirror_x else (180 - rotation) % 360


def mirror_placement(p: Placement, page_w: float, page_h: float, mirror_x: bool,
                     offset: tuple[float, float] = (0.0, 0.0)) -> Placement:
    trim = mirror_rect(p.trim, page_w, page_h, mirror_x).shift(*offset)
    return Placement(p.item, "back", trim, mirror_rotation(p.rotation, mirror_x), p.bleed, p.radius)


def mirror_line(line: Line, page_w: float, page_h: float, mirror_x: bool,
                offset: tuple[float, float] = (0.0, 0.0)) -> Line:
    dx, dy = offset
    if mirror_x:
        return Line(page_w - line.x1 + dx, line.y1 + dy, page_w - line.x2 + dx, line.y2 + dy, line.kind)
    return Line(line.x1 + dx, page_h - line.y1 + dy, line.x2 + dx, page_h - line.y2 + dy, line.kind)


def mirror_target(t: Target, page_w: float, page_h: float, mirror_x: bool,
                  offset: tuple[float, float] = (0.0, 0.0)) -> Target:
    x, y = (page_w - t.x, t.y) if mirror_x else (t.x, page_h - t.y)
    return Target(x + offset[0], y + offset[1], t.r)


# --- marks -------------------------------------------------------------------

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
    for x, y in ((box.x - d, box.y - d), (box.right + d, box.y - d),
                 (box.x - d, box.bottom + d), (box.right + d, box.bottom + d)):
        target = Target(x, y, radius)
        if target.box.within(limit):
            out.append(target)
    return out


# --- pages -------------------------------------------------------------------

def _groups(items: Sequence[Item], bleed: float) -> list[tuple[tuple[float, float, float], list[int]]]:
    """Item indices grouped by card size (and kept bleed), in order of first appearance."""
    groups: dict[tuple[float, float, float], tuple[tuple[float, float, float], list[int]]] = {}
    for i, item in enumerate(items):
        kept = min(bleed, item.bleed)
        key = (round(item.width, 6), round(item.height, 6), round(kept, 6))
        groups.setdefault(key, ((item.width, item.height, kept), []))[1].append(i)
    return list(groups.values())


def _too_big(w: float, h: float, bleed: float, layout: Layout, where: str) -> LayoutError:
    extra = f" with {_num(bleed)} mm bleed" if bleed else ""
    return LayoutError(f"a {_num(w)} x {_num(h)} mm card{extra} does not fit {where} of "
                       f"{layout.paper.name} paper ({_num(layout.paper.width)} x {_num(layout.paper.height)} mm) "
                       f"with {_num(layout.margin)} mm margins")


def _marks(layout: Layout, placements: Sequence[Placement], limit: Box) -> tuple[list[Line], list[Target]]:
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
        grid = grid_in(opts.printable, w, h, bleed, opts.gap, opts.rotate)
        if grid is None:
            raise _too_big(w, h, bleed, opts, "on a page")
        for start in range(0, len(indices), grid.capacity):
            chunk = indices[start:start + grid.capacity]
            fronts = tuple(Placement(i, "front", grid.trim(n), 90 if grid.rotated else 0, bleed, items[i].radius)
                           for n, i in enumerate(chunk))
            lines, targets = _marks(opts, fronts, page_rect)
            cuts = lambda ps: tuple(cut_outlines(ps)) if opts.cut_lines else ()
            pages.append(Page(W, H, "front", fronts, tuple(lines), tuple(targets), outlines=cuts(fronts)))
            if opts.mode == "duplex":
                mx = opts.mirrors_x()
                backs = tuple(mirror_placement(p, W, H, mx, opts.offset) for p in fronts)
                pages.append(Page(W, H, "back", backs,
                                  tuple(mirror_line(l, W, H, mx, opts.offset) for l in lines),
                                  tuple(mirror_target(t, W, H, mx, opts.offset) for t in targets),
                                  front_page=len(pages) - 1, outlines=cuts(backs)))
    return tuple(pages)


def _gutter_grid(w: float, h: float, bleed: float, opts: Layout) -> tuple[bool, Grid, Box]:
    """Gutterfold: (fold line vertical?, the fronts' grid, the fronts' half page)."""
    W, H = opts.paper.width, opts.paper.height
    p, g = opts.printable, opts.gutter
    choices = []
    # fold across the long side first (the usual), then the other way
    for fold_x in ((True, False) if W >= H else (False, True)):
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
            chunk = indices[start:start + grid.capacity]
            fronts = tuple(Placement(i, "front", grid.trim(n), 90 if grid.rotated else 0, bleed, items[i].radius)
                           for n, i in enumerate(chunk))
            lines, targets = _marks(opts, fronts, limit)
            backs = tuple(mirror_placement(f, W, H, fold_x) for f in fronts)
            back_lines = [mirror_line(l, W, H, fold_x) for l in lines]
            back_targets = [mirror_target(t, W, H, fold_x) for t in targets]
            pages.append(Page(W, H, "both", fronts + backs, tuple(lines + back_lines + [fold]),
                              tuple(targets + back_targets),
                              outlines=tuple(cut_outlines(fronts + backs)) if opts.cut_lines else ()))
    return tuple(pages)


def cards_per_page(w: float, h: float, opts: Layout, bleed: float = 0.0) -> int:
    """How many w x h cards (with up to ``bleed`` kept) one page's fronts hold."""
    kept = min(bleed, opts.bleed)
    if opts.mode == "gutterfold":
        return _gutter_grid(w, h, kept, opts)[1].capacity
    grid = grid_in(opts.printable, w, h, kept, opts.gap, opts.rotate)
    if grid is None:
        raise _too_big(w, h, kept, opts, "on a page")
    return grid.capacity
