"""``<pattern>`` fills written out as tiles: each tile a ``<use>`` of the pattern's content, clipped to the tile.

A shape filled with a pattern becomes a group: its tiles (enough to cover
the shape's box, in the pattern's own space), clipped to the shape, with the
shape's stroke drawn over them.  What the group's content inherits is set
from the pattern's side of the tree, as a browser draws a pattern's content.
"""

from __future__ import annotations

import copy
import math
import re

from lxml import etree

from .outline import IDENTITY, Matrix, multiply, parse_transform
from .sanitise import MAX_DRAWN, SVG_NS
from .svgrefs import (
    SHAPES,
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
    shape_box,
    style_props,
)

MAX_TILES = 2_500  # tiles of one written-out pattern fill
# what moves from a pattern-filled shape to the group drawn in its place (applied to fill and stroke together)
_GROUP_ATTRS = ("transform", "opacity", "clip-path", "mask", "style", "class", "id")


def write_out_patterns(root: etree._Element, by_id: dict, prefix: str) -> bool:
    """Every shape filled with a pattern written out as tiles (ids made from ``prefix``); whether anything changed."""
    patterns = {el.get("id"): el for el in root.iter() if local(el) == "pattern" and el.get("id")}
    if not patterns:
        return False
    changed = False
    count = 0
    for shape in [el for el in root.iter() if local(el) in SHAPES]:
        ref = fill_ref(shape, "fill")
        if ref not in patterns or fill_ref(shape, "stroke") in patterns:
            continue
        if any(local(a) in ("clipPath", "mask", "pattern", "defs", "symbol", "marker") for a in shape.iterancestors()):
            continue
        count += 1
        changed = _write_pattern(shape, href_chain(patterns[ref], by_id), f"{prefix}{count}") or changed
    for pattern_id, pattern in patterns.items():
        if not _referenced(root, pattern_id) and pattern.getparent() is not None:
            pattern.getparent().remove(pattern)
            changed = True
    return changed


def _referenced(root: etree._Element, ident: str) -> bool:
    needle = re.compile(r"url\(\s*['\"]?#" + re.escape(ident) + r"['\"]?\s*\)|^#" + re.escape(ident) + "$")
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if any(needle.search(value.strip()) for value in el.attrib.values()):
            return True
        if local(el) == "style" and el.text and needle.search(el.text):
            return True
    return False


def _write_pattern(shape: etree._Element, chain: list[etree._Element], ident: str) -> bool:
    area = shape_box(shape)
    content_holder = next((el for el in chain if any(isinstance(c.tag, str) for c in el)), None)
    if area is None or content_holder is None:
        return False
    bx, by, bw, bh = area
    units = (inherited(chain, "patternUnits") or "objectBoundingBox").strip()
    if units == "userSpaceOnUse":
        tx, ty = number(inherited(chain, "x"), 0.0), number(inherited(chain, "y"), 0.0)
        tw, th = number(inherited(chain, "width"), 0.0), number(inherited(chain, "height"), 0.0)
    else:
        tx = bx + number(inherited(chain, "x"), 0.0, 1.0) * bw
        ty = by + number(inherited(chain, "y"), 0.0, 1.0) * bh
        tw = number(inherited(chain, "width"), 0.0, 1.0) * bw
        th = number(inherited(chain, "height"), 0.0, 1.0) * bh
    if tw <= 0 or th <= 0:
        return False
    pattern_transform = parse_transform(inherited(chain, "patternTransform"))
    inverse = invert(pattern_transform)
    if inverse is None:
        return False
    reach = apply(inverse, corners(area))  # the shape's box in the pattern's own space
    i0 = math.floor((min(x for x, _ in reach) - tx) / tw)
    i1 = math.ceil((max(x for x, _ in reach) - tx) / tw)
    j0 = math.floor((min(y for _, y in reach) - ty) / th)
    j1 = math.ceil((max(y for _, y in reach) - ty) / th)
    drawn = sum(1 for child in content_holder.iter() if isinstance(child.tag, str))
    if (i1 - i0) * (j1 - j0) > MAX_TILES or (i1 - i0) * (j1 - j0) * (drawn + 2) > MAX_DRAWN // 2:
        return False  # as many elements, once every <use> is followed, as the allow-list lets a card draw
    content = _content_transform(chain, tw, th, bw, bh)
    if content is None:
        return False

    stroke_props = {k: v for k, v in style_props(shape.get("style")).items() if k.startswith("stroke")}
    rule, fill_opacity = prop_value(shape, "fill-rule"), prop_value(shape, "fill-opacity")
    svg = f"{{{SVG_NS}}}"
    group = etree.Element(f"{svg}g")
    for name in _GROUP_ATTRS:
        if shape.get(name) is not None:
            group.set(name, shape.attrib.pop(name))
    _strip_paint(group)
    defs = etree.SubElement(group, f"{svg}defs")
    # one tile: the content clipped to the tile (the clip moves with every copy); a row of tiles; rows of rows
    tile = etree.SubElement(defs, f"{svg}g", {"id": f"{ident}-tile", "clip-path": f"url(#{ident}-edge)"})
    tile_content = etree.SubElement(tile, f"{svg}g", _pattern_context(chain[0]))
    if content != IDENTITY:
        tile_content.set("transform", matrix(content))
    for child in content_holder:
        if isinstance(child.tag, str):
            made = copy.deepcopy(child)
            for inner in made.iter():
                if isinstance(inner.tag, str):
                    inner.attrib.pop("id", None)
            made.tail = None
            tile_content.append(made)
    edge = etree.SubElement(defs, f"{svg}clipPath", id=f"{ident}-edge")
    etree.SubElement(edge, f"{svg}rect", x="0", y="0", width=fmt(tw), height=fmt(th))
    row = etree.SubElement(defs, f"{svg}g", id=f"{ident}-row")
    for i in range(i0, i1):
        etree.SubElement(row, f"{svg}use", href=f"#{ident}-tile", x=fmt(tx + i * tw), y=fmt(ty + j0 * th))
    shape_clip = etree.SubElement(defs, f"{svg}clipPath", id=f"{ident}-shape")
    outline = etree.SubElement(shape_clip, shape.tag, {k: v for k, v in shape.attrib.items() if k in _GEOMETRY})
    if rule:
        outline.set("clip-rule", rule)
    painted = etree.SubElement(group, f"{svg}g", {"clip-path": f"url(#{ident}-shape)"})
    if fill_opacity:
        painted.set("opacity", fill_opacity)
    tiles = etree.SubElement(painted, f"{svg}g")
    if pattern_transform != IDENTITY:
        tiles.set("transform", matrix(pattern_transform))
    for j in range(j0, j1):
        etree.SubElement(tiles, f"{svg}use", href=f"#{ident}-row", y=fmt((j - j0) * th))
    shape.set("fill", "none")  # its stroke, if it has one (its own or inherited), drawn over the tiles
    shape.attrib.pop("fill-opacity", None)
    for name, value in stroke_props.items():
        shape.set(name, value)
    parent = shape.getparent()
    if parent is None:
        return False
    group.tail = shape.tail
    shape.tail = None
    parent.replace(shape, group)
    group.append(shape)
    return True


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
        align = (inherited(chain, "preserveAspectRatio") or "xMidYMid meet").split()
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
