"""An element's object bounding box, in its own user space: what ``objectBoundingBox`` units are measured against.

Shapes and pictures exactly (curves followed closely), groups and ``<use>`` as
the union of what they hold, nested ``<svg>`` as their viewport, texts
generously (every character three quarters of its font size wide, the glyphs
1.1 sizes above the baseline and 0.4 below, ``dx`` and ``dy`` lists added).
Used to bound what a renderer is asked to draw as a picture (a filter's
region), so a generous guess is safe and an exact one is not needed.
"""

from __future__ import annotations

import math

from lxml import etree

from .outline import Matrix, multiply, parse_transform, viewport_transform
from .svgrefs import Area, apply, href, local, number, numbers, shape_box

TEXT_ADVANCE = 0.75  # of the font size: wider than any letter of the shipped fonts but a few
TEXT_RISE, TEXT_DROP = 1.1, 0.4  # of the font size, above and below the baseline
_NOT_DRAWN = {"defs", "clipPath", "mask", "symbol", "pattern", "linearGradient", "radialGradient", "marker", "style", "filter"}
_MAX_DEPTH = 32


def union(boxes: list[Area]) -> Area | None:
    if not boxes:
        return None
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    return (x0, y0, x1 - x0, y1 - y0)


def transformed(box: Area, m: Matrix) -> Area:
    """The bounding box of ``box`` carried by ``m``."""
    x, y, w, h = box
    points = apply(m, [(x, y), (x + w, y), (x, y + h), (x + w, y + h)])
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def font_size(el: etree._Element) -> float:
    """The font size ``el`` is set in (inherited; 16, the CSS default, when nothing says)."""
    for holder in [el, *el.iterancestors()]:
        value = holder.get("font-size")
        for part in (holder.get("style") or "").split(";"):
            key, _, found = part.partition(":")
            if key.strip().lower() == "font-size":
                value = found
        size = number(value, math.nan) if value else math.nan
        if math.isfinite(size) and size > 0:
            return size
    return 16.0


def _text_box(text: etree._Element) -> Area:
    size = font_size(text)
    chars = sum(len(part) for part in text.itertext())
    points: list[tuple[float, float]] = []
    shift_x = shift_y = 0.0
    for part in text.iter():
        if not isinstance(part.tag, str):
            continue
        xs, ys = numbers(part.get("x")), numbers(part.get("y"))
        points += [(x, y) for x in xs or [0.0] for y in (ys or [0.0])[:1]] if xs else [(0.0, y) for y in ys[:1]]
        shift_x += sum(abs(v) for v in numbers(part.get("dx")))
        shift_y += sum(abs(v) for v in numbers(part.get("dy")))
    points = points or [(0.0, 0.0)]
    reach = chars * size * TEXT_ADVANCE + shift_x
    x0, x1 = min(p[0] for p in points) - reach, max(p[0] for p in points) + reach
    y0 = min(p[1] for p in points) - TEXT_RISE * size - shift_y
    y1 = max(p[1] for p in points) + TEXT_DROP * size + shift_y
    return (x0, y0, x1 - x0, y1 - y0)


def object_box(el: etree._Element, by_id: dict[str, etree._Element], depth: int = 0) -> Area | None:
    """``el``'s bounding box in its own user space (its ``transform`` not applied); None when it draws nothing."""
    tag = local(el)
    if depth > _MAX_DEPTH or tag in _NOT_DRAWN:
        return None
    if tag == "image":
        return (number(el.get("x"), 0.0), number(el.get("y"), 0.0), number(el.get("width"), 0.0), number(el.get("height"), 0.0))
    if tag == "text":
        return _text_box(el)
    if tag == "svg" and depth > 0:
        return (number(el.get("x"), 0.0), number(el.get("y"), 0.0), number(el.get("width"), 0.0), number(el.get("height"), 0.0))
    if tag == "use":
        target = by_id.get(href(el) or "")
        if target is None:
            return None
        shift: Matrix = (1.0, 0.0, 0.0, 1.0, number(el.get("x"), 0.0), number(el.get("y"), 0.0))
        if local(target) == "symbol":
            inner = _children_box(target, by_id, depth + 1)
            place = viewport_transform(target, number(el.get("width"), 100.0), number(el.get("height"), 100.0))
            return transformed(inner, multiply(shift, place)) if inner else None
        inner = object_box(target, by_id, depth + 1)
        return transformed(inner, multiply(shift, parse_transform(target.get("transform")))) if inner else None
    if tag in ("g", "svg", "a", "switch"):
        return _children_box(el, by_id, depth)
    return shape_box(el)


def _children_box(el: etree._Element, by_id: dict[str, etree._Element], depth: int) -> Area | None:
    boxes = []
    for child in el:
        if isinstance(child.tag, str):
            inner = object_box(child, by_id, depth + 1)
            if inner is not None:
                boxes.append(transformed(inner, parse_transform(child.get("transform"))))
    return union(boxes)


__all__ = ["TEXT_ADVANCE", "TEXT_DROP", "TEXT_RISE", "font_size", "object_box", "transformed", "union"]
