"""A side's text kept as text in a flattened print file: the side split into what lies under its text and the text.

PDF/X-1a allows no transparency, so Ghostscript turns a page that uses any into
one picture at the shop's resolution, text included.  Text that nothing
transparent is painted over, and that is not itself see-through, can be set
on top of that picture instead and stay text: sharp at any resolution,
searchable, black in one ink.  :func:`split_text` splits a side's SVG into

* the layer under the text: the side without those texts (flattened), and
* the text layer: those texts alone, with the groups, transforms and clip
  paths they sit in, drawn over it as vectors.

A text qualifies when neither it nor a group round it is see-through
(``opacity``, ``fill-opacity``, ``stroke-opacity`` below 1), masked, blended
or filtered, when it is painted in plain colours, and when nothing painted
after it reaches where it lies (its box taken generously: every letter three
quarters of the font size wide, on either side of its start): raised over the
rest, it would otherwise cover what covered it.  A side whose ``<style>`` sets
any of those is not split, nor one that paints more than :data:`MAX_PAINTED`
elements.  What does not qualify stays in the flattened layer.
"""

from __future__ import annotations

import copy
import re

from lxml import etree

from ..faces.outline import IDENTITY, Matrix, multiply, parse_transform, shape_points

_SEE_THROUGH = ("opacity", "fill-opacity", "stroke-opacity", "stop-opacity")
_EFFECTS = ("mask", "filter", "mix-blend-mode")
_NOT_PAINTED = {"defs", "clipPath", "mask", "symbol", "pattern", "linearGradient", "radialGradient", "marker", "style"}
_PAINTED_LATER = {"image", "use", "foreignObject"}  # what may carry transparency the attributes do not show
_STYLE_RISK = re.compile(r"opacity|mask|filter|blend", re.I)


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _props(el: etree._Element) -> dict[str, str]:
    found = {k: v.strip() for k, v in el.attrib.items() if isinstance(k, str)}
    for part in (el.get("style") or "").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            found[key.strip().lower()] = value.strip()
    return found


def _number(value: str) -> float:
    try:
        return float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        return 0.0  # a value that cannot be read counts as see-through


def _transparent(el: etree._Element) -> bool:
    """Whether painting ``el`` itself (not its children) may involve transparency."""
    props = _props(el)
    if any(name in props and _number(props[name]) < 1 for name in _SEE_THROUGH):
        return True
    if any(props.get(name, "none") not in ("none", "normal", "") for name in _EFFECTS):
        return True
    return any("url(" in props.get(name, "") for name in ("fill", "stroke")) or _local(el) in _PAINTED_LATER


def _qualifies(text: etree._Element) -> bool:
    if any(_transparent(el) for el in text.iter() if isinstance(el.tag, str)):
        return False
    return not any(_transparent(a) or _local(a) in _NOT_PAINTED or _local(a) == "text" for a in text.iterancestors())


MAX_PAINTED = 2_000  # elements a side may paint and still be split: beyond, it is kept whole (every text drawn over
# everything painted after it would be a quadratic search)


def _texts(root: etree._Element) -> list[etree._Element]:
    """The texts that may be set over the flattened layer, in painting order: a text qualifies when nothing is
    painted after it where it lies (raised over the rest, it would cover what covered it)."""
    painted = [el for el in root.iter() if isinstance(el.tag, str) and not _inside_definitions(el)]
    if len(painted) > MAX_PAINTED:
        return []
    found = []
    later: list[_Extent | None] = []  # where something is painted after the element looked at (None: anywhere)
    for el in reversed(painted):
        tag = _local(el)
        if tag == "text" and _qualifies(el):
            where = _extent(el)
            if not any(_overlap(where, other) for other in later):
                found.append(el)
        if tag in ("tspan", "textPath", "title", "desc") or (tag in _GROUPS and not _transparent(el)):
            continue  # a text's parts are the text; a plain group paints only its children
        later.append(None if _props(el).get("filter", "none") not in ("none", "") else _extent(el))
    return list(reversed(found))


_Extent = tuple[float, float, float, float]  # x0, y0, x1, y1 in the side's user units
SHAPES = {"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"}
_GROUPS = {"g", "a", "switch"}
_TEXT_ADVANCE = 0.75  # of the font size: wider than any letter of the shipped fonts but a few, as a margin
TEXT_RISE, TEXT_DROP = 1.1, 0.4  # of the font size, above and below the baseline


def _overlap(a: _Extent | None, b: _Extent | None) -> bool:
    if a is None or b is None:
        return True
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _to_root(el: etree._Element) -> Matrix:
    m = IDENTITY
    for ancestor in [*reversed(list(el.iterancestors())), el]:
        if ancestor.getparent() is not None:  # the root's own size maps user units to the page, not needed here
            m = multiply(m, parse_transform(ancestor.get("transform")))
    return m


def _bounds(m: Matrix, points: list[tuple[float, float]], margin: float = 0.0) -> _Extent:
    a, b, c, d, e, f = m
    xs = [a * x + c * y + e for x, y in points]
    ys = [b * x + d * y + f for x, y in points]
    scale = abs(a * d - b * c) ** 0.5
    return (min(xs) - margin * scale, min(ys) - margin * scale, max(xs) + margin * scale, max(ys) + margin * scale)


def _inherited_number(el: etree._Element, name: str, default: float) -> float:
    for holder in [el, *el.iterancestors()]:
        value = _props(holder).get(name)
        if value:
            found = re.match(r"\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)", value)
            return float(found.group(1)) if found else default
    return default


def _extent(el: etree._Element) -> _Extent | None:
    """Where ``el`` paints, generously (None when that is not known: a ``<use>``, a nested ``<svg>`` ...)."""
    tag = _local(el)
    if tag in SHAPES:
        outline = shape_points(tag, el)
        if not len(outline):
            return None
        width = _inherited_number(el, "stroke-width", 1.0)
        return _bounds(_to_root(el), [(float(x), float(y)) for x, y in outline], width)
    if tag == "image":
        x, y = _attr(el, "x"), _attr(el, "y")
        return _bounds(_to_root(el), [(x, y), (x + _attr(el, "width"), y + _attr(el, "height"))])
    if tag == "text":
        return _text_extent(el)
    if tag in _GROUPS:
        return _group_extent(el)
    return None


def _text_extent(el: etree._Element) -> _Extent | None:
    """Where a ``<text>`` paints, generously: every character as wide as the widest (None when its glyphs are moved one by one)."""
    size = _inherited_number(el, "font-size", 16.0)
    chars = max((len(t) for t in el.itertext()), default=0)
    points: list[tuple[float, float]] = []
    for part in el.iter():
        xs = [float(v) for v in re.findall(r"[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?", part.get("x") or "")]
        ys = [float(v) for v in re.findall(r"[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?", part.get("y") or "")]
        if part.get("dx") or part.get("dy") or part.get("rotate") or part.get("textLength"):
            return None  # glyphs moved one by one: not worth the guess
        if xs or ys:  # the corners of where the positions reach: each list's least and greatest
            x_range, y_range = (min(xs), max(xs)) if xs else (0.0, 0.0), (min(ys), max(ys)) if ys else (0.0, 0.0)
            points += [(x, y) for x in x_range for y in y_range]
    if not points:
        points = [(0.0, 0.0)]
    reach = chars * size * _TEXT_ADVANCE
    box = _bounds(_to_root(el), points)
    scale = _bounds(_to_root(el), [(0.0, 0.0), (1.0, 1.0)])
    unit = max(abs(scale[2] - scale[0]), abs(scale[3] - scale[1]))
    return (box[0] - reach * unit, box[1] - TEXT_RISE * size * unit, box[2] + reach * unit, box[3] + TEXT_DROP * size * unit)


def _group_extent(el: etree._Element) -> _Extent | None:
    """Where a group paints: the extents of its painted children together (None when one is not known)."""
    parts = [_extent(child) for child in el if isinstance(child.tag, str) and _local(child) not in _NOT_PAINTED]
    if any(part is None for part in parts):
        return None
    known = [part for part in parts if part is not None]
    if not known:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(p[0] for p in known), min(p[1] for p in known), max(p[2] for p in known), max(p[3] for p in known))


def _attr(el: etree._Element, name: str) -> float:
    try:
        return float(el.get(name) or 0.0)
    except ValueError:
        return 0.0


def _inside_definitions(el: etree._Element) -> bool:
    return any(_local(a) in _NOT_PAINTED for a in [el, *el.iterancestors()])


def split_text(svg: str) -> tuple[str, str] | None:
    """(the side without the texts that can stay text, those texts alone), or None when no text can."""
    root = etree.fromstring(svg.encode("utf-8"))
    if any(_local(el) == "style" and _STYLE_RISK.search(el.text or "") for el in root.iter()):
        return None
    texts = _texts(root)
    if not texts:
        return None
    marked = "{urn:aetherpress}layer"
    for n, text in enumerate(texts):
        text.set(marked, str(n))
    over = copy.deepcopy(root)
    for text in texts:
        parent = text.getparent()
        if parent is not None:
            parent.remove(text)
    ancestors = {a for el in over.iter() if isinstance(el.tag, str) and el.get(marked) is not None for a in el.iterancestors()}

    def prune(el: etree._Element) -> None:
        for child in list(el):
            if not isinstance(child.tag, str) or child.get(marked) is not None or _local(child) in _NOT_PAINTED:
                continue  # a text kept, or definitions its groups may clip with
            if child in ancestors:
                prune(child)
            else:
                el.remove(child)

    prune(over)
    for text in over.iter():
        if isinstance(text.tag, str):
            text.attrib.pop(marked, None)
    etree.cleanup_namespaces(over)
    return etree.tostring(root, encoding="unicode"), etree.tostring(over, encoding="unicode")
