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
from typing import Any

import numpy as np
from lxml import etree

from ..geometry import Box
from .svg import parse_svg

Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, as in SVG
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
SHAPES = {"rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "image"}
SKIP = {"defs", "clipPath", "mask", "symbol", "pattern", "linearGradient", "radialGradient", "marker", "style", "title", "desc"}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_T = np.linspace(0.0, 1.0, 33)


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


def _cubic(p0, p1, p2, p3) -> list[np.ndarray]:
    t = _T[:, None]
    return [((1 - t) ** 3) * p0 + 3 * ((1 - t) ** 2) * t * p1 + 3 * (1 - t) * t * t * p2 + (t**3) * p3]


def _arc(p0, rx: float, ry: float, phi: float, large: bool, sweep: bool, p1) -> list[np.ndarray]:
    """Points along an elliptical arc (SVG's endpoint form), every 3 degrees."""
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0 or np.allclose(p0, p1):
        return [np.array([p0, p1])]
    cos, sin = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    dx, dy = (p0[0] - p1[0]) / 2, (p0[1] - p1[1]) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    k = math.sqrt(max(num, 0.0) / den) * (-1 if large == sweep else 1)
    cxp, cyp = k * rx * y1 / ry, -k * ry * x1 / rx
    cx = cos * cxp - sin * cyp + (p0[0] + p1[0]) / 2
    cy = sin * cxp + cos * cyp + (p0[1] + p1[1]) / 2
    a0 = math.atan2((y1 - cyp) / ry, (x1 - cxp) / rx)
    a1 = math.atan2((-y1 - cyp) / ry, (-x1 - cxp) / rx)
    span = a1 - a0
    if sweep and span < 0:
        span += 2 * math.pi
    elif not sweep and span > 0:
        span -= 2 * math.pi
    angles = a0 + span * np.linspace(0.0, 1.0, max(2, int(abs(math.degrees(span)) / 3) + 2))
    ex, ey = rx * np.cos(angles), ry * np.sin(angles)
    return [np.stack([cx + cos * ex - sin * ey, cy + sin * ex + cos * ey], axis=1)]


def path_points(d: str) -> np.ndarray:
    """Points on the outline of SVG path data (all commands, absolute and relative)."""
    tokens = _PATH_TOKEN.findall(d or "")
    parts: list[np.ndarray] = []
    cur = start = np.zeros(2)
    last_ctrl: np.ndarray | None = None
    last_op = ""
    i = 0
    op = ""
    while i < len(tokens):
        if tokens[i].isalpha():
            op = tokens[i]
            i += 1
        elif not op:
            break
        up = op.upper()
        n = _ARITY[up]
        args = [float(t) for t in tokens[i : i + n]]
        i += n
        if len(args) < n:
            break
        rel = op.islower()
        base = cur if rel else np.zeros(2)
        if up == "Z":
            cur = start
            parts.append(np.array([cur]))
            op = ""  # a number straight after Z is malformed: stop there
        elif up in "ML":
            cur = base + args
            if up == "M":
                start = cur
                op = "l" if rel else "L"  # further pairs are lines
            parts.append(np.array([cur]))
        elif up == "H":
            cur = np.array([(cur[0] if rel else 0.0) + args[0], cur[1]])
            parts.append(np.array([cur]))
        elif up == "V":
            cur = np.array([cur[0], (cur[1] if rel else 0.0) + args[0]])
            parts.append(np.array([cur]))
        elif up in "CS":
            if up == "C":
                c1, c2, end = base + args[0:2], base + args[2:4], base + args[4:6]
            else:
                c1 = 2 * cur - last_ctrl if last_ctrl is not None and last_op in "CS" else cur
                c2, end = base + args[0:2], base + args[2:4]
            parts += _cubic(cur, c1, c2, end)
            last_ctrl, cur = c2, end
        elif up in "QT":
            if up == "Q":
                q, end = base + args[0:2], base + args[2:4]
            else:
                q = 2 * cur - last_ctrl if last_ctrl is not None and last_op in "QT" else cur
                end = base + args[0:2]
            parts += _cubic(cur, cur + 2 / 3 * (q - cur), end + 2 / 3 * (q - end), end)
            last_ctrl, cur = q, end
        else:  # A
            end = base + args[5:7]
            parts += _arc(cur, args[0], args[1], args[2], bool(args[3]), bool(args[4]), end)
            cur = end
        last_op = up
    return np.concatenate(parts) if parts else np.zeros((0, 2))


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


def _copy(element: Any) -> Any:
    from copy import deepcopy

    return deepcopy(element)
