"""``<pattern>`` fills written out as tiles: each tile a ``<use>`` of the pattern's content, clipped to the tile.

A shape filled with a pattern becomes a group: its tiles (enough to cover
the shape's box, in the pattern's own space), clipped to the shape, with the
shape's stroke drawn over them.  What the group's content inherits is set
from the pattern's side of the tree, as a browser draws a pattern's content.

Every fill is planned first (:func:`plan_fills`: its tiles, columns and rows
counted, each bounded on its own before any is made, and what it will draw
once every ``<use>`` is followed) and written (:func:`write_fills`) only once
the side's whole write-out keeps within the allow-list's budget.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

from ..resources.limits import check_deadline
from .numbers import within
from .outline import IDENTITY, Matrix, multiply, parse_transform
from .sanitise import SVG_NS
from .svgrefs import (
    SHAPES,
    Area,
    apply,
    corners,
    fill_ref,
    fmt,
    href_chain,
    inherited,
    invert,
    local,
    matrix,
    number,
    numbers,
    prop_value,
    referenced_ids,
    shape_box,
    style_props,
)

MAX_TILES = 2_500  # tiles of one written-out pattern fill (columns and rows each at most this, and their product)
# what moves from a pattern-filled shape to the group drawn in its place (applied to fill and stroke together)
_GROUP_ATTRS = ("transform", "opacity", "clip-path", "mask", "style", "class", "id")
_NOT_FILLED = ("clipPath", "mask", "pattern", "defs", "symbol", "marker")  # a shape inside these is not drawn as it stands
_SVG = f"{{{SVG_NS}}}"


@dataclass(frozen=True)
class TileFill:
    """One pattern fill, planned: the tile's place and size in the pattern's space, the columns and rows of
    tiles that cover the shape, and what the written-out fill draws once every ``<use>`` is followed."""

    shape: etree._Element
    chain: list[etree._Element]  # the pattern and those it inherits from (nearest first)
    content: etree._Element  # the pattern whose children are drawn in each tile
    tile: Area  # x, y, width, height
    columns: tuple[int, int]
    rows: tuple[int, int]
    transform: Matrix  # the pattern's own (patternTransform)
    inside: Matrix  # from the content's coordinates to a tile's
    drawn: int

    @property
    def line(self) -> int | None:
        return self.shape.sourceline


def plan_fills(root: etree._Element, by_id: dict, drawn: Callable[[etree._Element], int]) -> tuple[list[TileFill], dict]:
    """Every pattern fill of a card SVG that can be written out, planned (``drawn(el)``: what an element draws
    once its ``<use>`` elements are followed); and the patterns, by id."""
    patterns = {el.get("id"): el for el in root.iter() if local(el) == "pattern" and el.get("id")}
    fills: list[TileFill] = []
    if not patterns:
        return fills, patterns
    sizes: dict[etree._Element, int] = {}  # what one tile's content draws, worked out once per pattern
    for shape in root.iter(*(f"{_SVG}{name}" for name in SHAPES)):
        ref = fill_ref(shape, "fill")
        if ref not in patterns or fill_ref(shape, "stroke") in patterns:
            continue
        if any(local(a) in _NOT_FILLED for a in shape.iterancestors()):
            continue
        check_deadline()
        planned = _plan_fill(shape, href_chain(patterns[ref], by_id), drawn, sizes)
        if planned is not None:
            fills.append(planned)
    return fills, patterns


def write_fills(root: etree._Element, fills: list[TileFill], patterns: dict, prefix: str) -> bool:
    """Write out the planned ``fills`` (ids made from ``prefix``), then drop the patterns nothing refers to any
    more; whether anything changed."""
    for count, fill in enumerate(fills, 1):
        check_deadline()
        _write_fill(fill, f"{prefix}{count}")
    used = referenced_ids(root) if patterns else set()
    changed = bool(fills)
    for pattern_id, pattern in patterns.items():
        if pattern_id not in used and pattern.getparent() is not None:
            pattern.getparent().remove(pattern)
            changed = True
    return changed


def _tile(chain: list[etree._Element], area: Area) -> Area | None:
    """The tile's x, y, width and height in the pattern's own space, or None when it has no area."""
    bx, by, bw, bh = area
    if (inherited(chain, "patternUnits") or "objectBoundingBox").strip() == "userSpaceOnUse":
        place = tuple(number(inherited(chain, name), 0.0) for name in ("x", "y", "width", "height"))
    else:
        scales = (bw, bh, bw, bh)
        place = tuple(
            start + number(inherited(chain, name), 0.0, 1.0) * scale
            for name, start, scale in zip(("x", "y", "width", "height"), (bx, by, 0.0, 0.0), scales, strict=True)
        )
    tx, ty, tw, th = place
    return (tx, ty, tw, th) if tw > 0 and th > 0 and within(*place) else None


def _span(values: list[float], start: float, size: float) -> tuple[int, int] | None:
    """The whole tiles, from ``start`` in steps of ``size``, that cover ``values``: at least one (a shape that
    rounds to no height still needs its row), None when more than MAX_TILES; counted before any is made."""
    low, high = (min(values) - start) / size, (max(values) - start) / size
    if not (math.isfinite(low) and math.isfinite(high)) or high - low > MAX_TILES:
        return None
    first = math.floor(low)
    last = max(math.ceil(high), first + 1)
    if last - first > MAX_TILES or not within(start + first * size, start + last * size):
        return None
    return first, last


def _plan_fill(
    shape: etree._Element, chain: list[etree._Element], drawn: Callable[[etree._Element], int], sizes: dict
) -> TileFill | None:
    """How one shape's pattern fill is written out, or None when it cannot be (no area, no content, more than
    MAX_TILES tiles, numbers past the bounds): it is then left as it is, and the template check explains."""
    area = shape_box(shape)
    holder = next((el for el in chain if any(isinstance(c.tag, str) for c in el)), None)
    tile = _tile(chain, area) if area is not None else None
    transform = parse_transform(inherited(chain, "patternTransform"))
    inverse = invert(transform)
    if area is None or holder is None or tile is None or inverse is None or not within(*transform):
        return None
    reach = apply(inverse, corners(area))  # the shape's box in the pattern's own space
    columns = _span([x for x, _ in reach], tile[0], tile[2])
    rows = _span([y for _, y in reach], tile[1], tile[3])
    if columns is None or rows is None or (columns[1] - columns[0]) * (rows[1] - rows[0]) > MAX_TILES:
        return None
    inside = _content_transform(chain, tile[2], tile[3], area[2], area[3])
    if inside is None or not within(*inside):
        return None
    if holder not in sizes:
        sizes[holder] = sum(drawn(child) for child in holder if isinstance(child.tag, str))
    across, down = columns[1] - columns[0], rows[1] - rows[0]
    # followed through its <use> elements: every row (and the row in defs) draws a tile's content per column
    total = (down + 1) * (1 + across * (sizes[holder] + 3)) + down + sizes[holder] + 12
    return TileFill(shape, chain, holder, tile, columns, rows, transform, inside, total)


def _write_fill(fill: TileFill, ident: str) -> None:
    shape = fill.shape
    parent = shape.getparent()
    if parent is None:
        return
    stroke_props = {k: v for k, v in style_props(shape.get("style")).items() if k.startswith("stroke")}
    group = etree.Element(f"{_SVG}g")
    for name in _GROUP_ATTRS:
        if shape.get(name) is not None:
            group.set(name, shape.attrib.pop(name))
    _strip_paint(group)
    _tile_defs(etree.SubElement(group, f"{_SVG}defs"), fill, ident)
    _tiles(group, fill, ident)
    shape.set("fill", "none")  # its stroke, if it has one (its own or inherited), drawn over the tiles
    shape.attrib.pop("fill-opacity", None)
    for name, value in stroke_props.items():
        shape.set(name, value)
    group.tail = shape.tail
    shape.tail = None
    parent.replace(shape, group)
    group.append(shape)


def _tile_defs(defs: etree._Element, fill: TileFill, ident: str) -> None:
    """One tile (the content clipped to the tile: the clip moves with every copy), a row of tiles, and the
    shape's outline as a clip."""
    tx, ty, tw, th = fill.tile
    tile = etree.SubElement(defs, f"{_SVG}g", {"id": f"{ident}-tile", "clip-path": f"url(#{ident}-edge)"})
    content = etree.SubElement(tile, f"{_SVG}g", _pattern_context(fill.chain[0]))
    if fill.inside != IDENTITY:
        content.set("transform", matrix(fill.inside))
    for child in fill.content:
        if isinstance(child.tag, str):
            made = copy.deepcopy(child)
            for inner in made.iter():
                if isinstance(inner.tag, str):
                    inner.attrib.pop("id", None)
            made.tail = None
            content.append(made)
    edge = etree.SubElement(defs, f"{_SVG}clipPath", id=f"{ident}-edge")
    etree.SubElement(edge, f"{_SVG}rect", x="0", y="0", width=fmt(tw), height=fmt(th))
    row = etree.SubElement(defs, f"{_SVG}g", id=f"{ident}-row")
    y = fmt(ty + fill.rows[0] * th)
    for i in range(*fill.columns):
        etree.SubElement(row, f"{_SVG}use", href=f"#{ident}-tile", x=fmt(tx + i * tw), y=y)
    shape_clip = etree.SubElement(defs, f"{_SVG}clipPath", id=f"{ident}-shape")
    outline = etree.SubElement(shape_clip, fill.shape.tag, {k: v for k, v in fill.shape.attrib.items() if k in _GEOMETRY})
    rule = prop_value(fill.shape, "fill-rule")
    if rule:
        outline.set("clip-rule", rule)


def _tiles(group: etree._Element, fill: TileFill, ident: str) -> None:
    """The rows of tiles, in the pattern's space, clipped to the shape."""
    painted = etree.SubElement(group, f"{_SVG}g", {"clip-path": f"url(#{ident}-shape)"})
    opacity = prop_value(fill.shape, "fill-opacity")
    if opacity:
        painted.set("opacity", opacity)
    tiles = etree.SubElement(painted, f"{_SVG}g")
    if fill.transform != IDENTITY:
        tiles.set("transform", matrix(fill.transform))
    first, last = fill.rows
    for j in range(first, last):
        etree.SubElement(tiles, f"{_SVG}use", href=f"#{ident}-row", y=fmt((j - first) * fill.tile[3]))


# what a pattern's content inherits is the pattern's, not the filled shape's: set where the tiles are drawn
_INHERITED = {
    "fill": "black",
    "fill-opacity": "1",
    "fill-rule": "nonzero",
    "stroke": "none",
    "stroke-width": "1",
    "stroke-opacity": "1",
    "stroke-dasharray": "none",
    "stroke-dashoffset": "0",
    "stroke-linecap": "butt",
    "stroke-linejoin": "miter",
    "stroke-miterlimit": "4",
    "visibility": "visible",
    "color": "black",
}


def _pattern_context(pattern: etree._Element) -> dict[str, str]:
    found: dict[str, str] = {}
    for el in [pattern, *pattern.iterancestors()]:
        for name in _INHERITED:
            value = prop_value(el, name)
            if value is not None and name not in found:
                found[name] = value.strip()
    return {name: found.get(name, initial) for name, initial in _INHERITED.items()}


_GEOMETRY = {"x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "x1", "y1", "x2", "y2", "points", "d", "pathLength"}


def _strip_paint(group: etree._Element) -> None:
    """The style moved from a pattern-filled shape to its group, without the fill (drawn as tiles) and stroke (kept on the shape)."""
    style = style_props(group.get("style"))
    kept = {k: v for k, v in style.items() if k not in ("fill", "fill-opacity") and not k.startswith("stroke")}
    if kept:
        group.set("style", ";".join(f"{k}:{v}" for k, v in kept.items()))
    else:
        group.attrib.pop("style", None)


def _content_transform(chain: list[etree._Element], tw: float, th: float, bw: float, bh: float) -> Matrix | None:
    """From the pattern content's coordinates to a tile's (origin at the tile's top left corner)."""
    view = numbers(inherited(chain, "viewBox"))
    if len(view) == 4:
        vx, vy, vw, vh = view
        if vw <= 0 or vh <= 0:
            return None
        align = (inherited(chain, "preserveAspectRatio") or "").split() or ["xMidYMid", "meet"]
        if align[0] == "none":
            sx, sy = tw / vw, th / vh
            return (sx, 0.0, 0.0, sy, -vx * sx, -vy * sy)
        s = max(tw / vw, th / vh) if len(align) > 1 and align[1] == "slice" else min(tw / vw, th / vh)
        ax = {"xMin": 0.0, "xMid": 0.5, "xMax": 1.0}.get(align[0][:4], 0.5)
        ay = {"YMin": 0.0, "YMid": 0.5, "YMax": 1.0}.get(align[0][4:], 0.5)
        return (s, 0.0, 0.0, s, (tw - vw * s) * ax - vx * s, (th - vh * s) * ay - vy * s)
    if (inherited(chain, "patternContentUnits") or "userSpaceOnUse").strip() == "objectBoundingBox":
        return multiply(IDENTITY, (bw, 0.0, 0.0, bh, 0.0, 0.0))
    return IDENTITY
