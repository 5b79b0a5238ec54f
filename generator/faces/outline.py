"""Where a card SVG's shapes lie: the bounding box, in millimetres, of every visible element.

Enough SVG geometry for the cut check: transforms (matrix, translate, scale,
rotate, skew) on every element, the basic shapes and path data of every
command (curves and arcs are followed closely, to within a few hundredths of
a millimetre), strokes, inherited fill and stroke, ``<use>`` of an element by
id.  Texts are left out: the text fitter knows the boxes their glyphs cover.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from copy import deepcopy
from typing import Any

import numpy as np
from lxml import etree

from ..geometry import Box
from ..pathpoints import path_points
from .svg import parse_svg

Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, as in SVG
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
SHAPES = {"rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "image"}
SKIP = {"defs", "clipPath", "mask", "symbol", "pattern", "linearGradient", "radialGradient", "marker", "style", "title", "desc"}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """The transform ``m`` applied after ``n``."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f)


def parse_transform(text: str | None) -> Matrix:
    m = IDENTITY
    for name, args in _TRANSFORM.findall(text or ""):
        v = [float(x) for x in _NUMBER.findall(args)]
        if name == "matrix" and len(v) == 6:
            step: Matrix = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate":
            step = (1.0, 0.0, 0.0, 1.0, v[0] if v else 0.0, v[1] if len(v) > 1 else 0.0)
        elif name == "scale":
            sx = v[0] if v else 1.0
            step = (sx, 0.0, 0.0, v[1] if len(v) > 1 else sx, 0.0, 0.0)
        elif name == "rotate":
            a = math.radians(v[0] if v else 0.0)
            cx, cy = (v[1], v[2]) if len(v) >= 3 else (0.0, 0.0)
            cos, sin = math.cos(a), math.sin(a)
            step = (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)
        elif name == "skewX":
            step = (1.0, 0.0, math.tan(math.radians(v[0] if v else 0.0)), 1.0, 0.0, 0.0)
        else:  # skewY
            step = (1.0, math.tan(math.radians(v[0] if v else 0.0)), 0.0, 1.0, 0.0, 0.0)
        m = multiply(m, step)
    return m


def _style(element: Any, inherited: dict[str, str]) -> dict[str, str]:
    props = dict(inherited)
    for key in ("fill", "stroke", "stroke-width", "fill-opacity", "stroke-opacity", "opacity", "display", "visibility"):
        if element.get(key) is not None:
            props[key] = element.get(key).strip()
    for part in (element.get("style") or "").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            props[key.strip()] = value.strip()
    return props


def _length(value: str | None, default: float = 0.0) -> float:
    match = _NUMBER.match((value or "").strip())
    return float(match.group(0)) if match else default


def shape_points(tag: str, e: Any) -> np.ndarray:
    g = lambda k: _length(e.get(k))
    if tag in ("rect", "image"):
        x, y, w, h = g("x"), g("y"), g("width"), g("height")
        return np.array([[x, y], [x + w, y + h], [x + w, y], [x, y + h]])
    if tag in ("circle", "ellipse"):
        rx = g("r") if tag == "circle" else g("rx")
        ry = g("r") if tag == "circle" else g("ry")
        a = np.radians(np.arange(0, 360, 3))
        return np.stack([g("cx") + rx * np.cos(a), g("cy") + ry * np.sin(a)], axis=1)
    if tag == "line":
        return np.array([[g("x1"), g("y1")], [g("x2"), g("y2")]])
    if tag in ("polyline", "polygon"):
        v = [float(t) for t in _NUMBER.findall(e.get("points") or "")]
        return np.array(v[: len(v) // 2 * 2]).reshape(-1, 2)
    return path_points(e.get("d") or "")


def _visible(tag: str, props: dict[str, str]) -> tuple[bool, float]:
    """Is anything painted, and how wide is the stroke (0 when none)?"""
    if props.get("display") == "none" or props.get("visibility") == "hidden" or props.get("opacity") == "0":
        return False, 0.0
    if tag == "image":
        return True, 0.0
    fill = props.get("fill", "#000")
    filled = fill != "none" and props.get("fill-opacity") not in ("0", "0.0")
    stroke = props.get("stroke", "none")
    width = (
        _length(props.get("stroke-width"), 1.0) if stroke != "none" and props.get("stroke-opacity") not in ("0", "0.0") else 0.0
    )
    return filled or width > 0, width


def element_boxes(svg_text: str) -> Iterator[tuple[str, Box]]:
    """(tag, bounding box in mm, stroke included) of every visible shape and image of a card SVG."""
    root = parse_svg(svg_text, "card SVG")
    view = [float(v) for v in _NUMBER.findall(root.get("viewBox") or "")]
    scale = 1.0
    if len(view) == 4 and view[2] > 0 and (root.get("width") or "").endswith("mm"):
        scale = _length(root.get("width")) / view[2]
    start = (scale, 0.0, 0.0, scale, -view[0] * scale if view else 0.0, -view[1] * scale if view else 0.0)
    by_id = {e.get("id"): e for e in root.iter() if isinstance(e.tag, str) and e.get("id")}
    yield from _walk(root, start, {}, by_id, 0, None)


def _clip_box(element: Any, matrix: Matrix, by_id: dict) -> Box | None:
    """The box a ``clip-path="url(#id)"`` leaves visible (in user space), or None without a clip."""
    ref = re.match(r"\s*url\(\s*#([^)\s]+)\s*\)", element.get("clip-path") or "")
    clip = by_id.get(ref.group(1)) if ref else None
    if clip is None:
        return None
    holder = etree.Element("g")
    for child in clip:
        holder.append(_copy(child))
        holder[-1].set("fill", "#000")
    boxes = [b for _, b in _walk(holder, multiply(matrix, parse_transform(clip.get("transform"))), {}, by_id, 8, None)]
    if not boxes:
        return Box(0.0, 0.0, 0.0, 0.0)
    x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
    return Box(x0, y0, max(b.right for b in boxes) - x0, max(b.bottom for b in boxes) - y0)


def _intersect(a: Box, b: Box | None) -> Box | None:
    if b is None:
        return a
    x0, y0, x1, y1 = max(a.x, b.x), max(a.y, b.y), min(a.right, b.right), min(a.bottom, b.bottom)
    return Box(x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None


def _walk(
    element: Any, matrix: Matrix, inherited: dict[str, str], by_id: dict, depth: int, clip: Box | None
) -> Iterator[tuple[str, Box]]:
    for child in element:
        if not isinstance(child.tag, str):
            continue
        tag = etree.QName(child).localname
        if tag in SKIP:
            continue
        m = multiply(matrix, parse_transform(child.get("transform")))
        props = _style(child, inherited)
        inner = clip
        own = _clip_box(child, m, by_id)
        if own is not None:
            inner = _intersect(own, clip) if clip is not None else own
            if inner is None:
                continue
        if tag == "svg":  # a drawing placed on the card: shown in its viewport, in its own user space
            x, y, w, h = (_length(child.get(n)) for n in ("x", "y", "width", "height"))
            port = _box_of(m, (x, y, x + w, y + h))
            inner = _intersect(port, inner)
            if inner is not None:
                placed = multiply(multiply(m, (1.0, 0.0, 0.0, 1.0, x, y)), viewport_transform(child, w, h))
                yield from _walk(child, placed, props, by_id, depth + 1, inner)
            continue
        if tag == "use" and depth < 8:
            ref = (child.get("href") or child.get("{http://www.w3.org/1999/xlink}href") or "").lstrip("#")
            if ref in by_id:
                shifted = multiply(m, (1.0, 0.0, 0.0, 1.0, _length(child.get("x")), _length(child.get("y"))))
                holder = etree.Element("g")
                holder.append(_copy(by_id[ref]))
                yield from _walk(holder, shifted, props, by_id, depth + 1, inner)
            continue
        if tag in SHAPES:
            shown, width = _visible(tag, props)
            points = shape_points(tag, child)
            if shown and len(points):
                a, b, c, d, e, f = m
                xs = a * points[:, 0] + c * points[:, 1] + e
                ys = b * points[:, 0] + d * points[:, 1] + f
                half = width / 2 * math.sqrt(abs(a * d - b * c))
                x0, y0 = float(xs.min()) - half, float(ys.min()) - half
                seen = _intersect(Box(x0, y0, float(xs.max()) + half - x0, float(ys.max()) + half - y0), inner)
                if seen is not None:
                    yield f"<{tag}>", seen
        elif tag not in ("text", "tspan"):
            yield from _walk(child, m, props, by_id, depth, inner)


def viewport_transform(el: etree._Element, width: float, height: float) -> Matrix:
    """What a ``viewBox`` of a nested ``<svg>`` or ``<symbol>`` shown ``width`` x ``height`` does (uniform fit)."""
    view = [float(v) for v in _NUMBER.findall(el.get("viewBox") or "")]
    if len(view) != 4 or view[2] <= 0 or view[3] <= 0 or width <= 0 or height <= 0:
        return IDENTITY
    if (el.get("preserveAspectRatio") or "").strip().startswith("none"):
        sx, sy = width / view[2], height / view[3]
        return (sx, 0.0, 0.0, sy, -view[0] * sx, -view[1] * sy)
    scale = min(width / view[2], height / view[3])
    dx = (width - view[2] * scale) / 2
    dy = (height - view[3] * scale) / 2
    return (scale, 0.0, 0.0, scale, dx - view[0] * scale, dy - view[1] * scale)


def _box_of(m: Matrix, bounds: tuple[float, float, float, float]) -> Box:
    a, b, c, d, e, f = m
    x0, y0, x1, y1 = bounds
    xs = [a * x + c * y + e for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    ys = [b * x + d * y + f for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _copy(element: Any) -> Any:

    return deepcopy(element)
