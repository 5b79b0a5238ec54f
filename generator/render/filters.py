"""Filters drawn at the output's resolution, and never at a size that could exhaust the machine.

svg2pdf draws each filtered element as a picture of its filter region, at
``raster_scale`` pixels per unit of the user space the element sits in (its
parent's).  A card is drawn in millimetres, so the renderer's own scale of one
pixel a unit makes a drop shadow of 25 dpi.  :func:`filter_scale` finds every
filtered element as it is drawn (through groups, nested ``<svg>`` and
``<use>``), where its region lies on the page, and the scale that draws every
one of them at ``dpi`` or finer; then it holds the pictures asked for to a
budget before anything is drawn: a region many times the card's size (a hostile
``width="200000"``, or the default region of a huge shape) would otherwise ask
the renderer for a picture of gigabytes, and the native code stops the process.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from ..errors import AetherpressError, Problem
from ..faces.bbox import object_box, transformed
from ..faces.outline import IDENTITY, Matrix, multiply, parse_transform, viewport_transform
from ..faces.svgrefs import Area, href, local, number, prop_value
from ..units import MM_PER_INCH, svg_length_px

REGION_CARDS = 4.0  # a filter's region may cover at most this many times the side's area
BUDGET_CARDS = 12.0  # the pictures of a side's filters, in all, at most this many times the side at the dpi asked
_MAX_INSTANCES = 2_000  # filtered elements drawn (uses followed) a side may hold
_NOT_DRAWN = {"defs", "clipPath", "symbol", "pattern", "linearGradient", "radialGradient", "marker", "style", "filter", "mask"}
_DEFAULT_REGION = (-0.1, -0.1, 1.2, 1.2)  # of the bounding box, as SVG says


@dataclass(frozen=True)
class _Filtered:
    """One filtered element as drawn: its filter's id, the millimetres in a unit of its parent's user space,
    its region in that space (width, height) and on the page (mm², finite or not)."""

    ident: str
    mm_per_unit: float
    region: tuple[float, float]
    area_mm2: float
    line: int | None


def _filter_id(el: etree._Element) -> str | None:
    value = prop_value(el, "filter") or ""
    value = value.strip()
    if not value.startswith("url("):
        return None
    return value[4:].strip(" )'\"").lstrip("#") or None


def _region(el: etree._Element, flt: etree._Element, by_id: dict, viewport: tuple[float, float]) -> Area | None:
    """The filter region of ``flt`` on ``el``, in ``el``'s user space; None when ``el`` draws nothing."""
    user_space = (flt.get("filterUnits") or "").strip() == "userSpaceOnUse"
    names = ("x", "y", "width", "height")
    if user_space:
        scale = (viewport[0], viewport[1], viewport[0], viewport[1])
        default = tuple(d * s for d, s in zip(_DEFAULT_REGION, scale))
        x, y, w, h = (number(flt.get(n), default[i], scale[i]) for i, n in enumerate(names))
        return (x, y, w, h)
    box = object_box(el, by_id)
    if box is None or box[2] <= 0 or box[3] <= 0:
        return None
    fx, fy, fw, fh = (number(flt.get(n), _DEFAULT_REGION[i]) for i, n in enumerate(names))
    return (box[0] + fx * box[2], box[1] + fy * box[3], fw * box[2], fh * box[3])


def _drawn(
    el: etree._Element, ctm: Matrix, by_id: dict, viewport: tuple[float, float], depth: int
) -> Iterator[tuple[etree._Element, Matrix, tuple[float, float]]]:
    """Every element under ``el`` as it is drawn: (element, the transform of its parent's user space to the
    root's, the viewport its percentages refer to); ``<use>`` followed, masks drawn where they are used."""
    for child in el:
        tag = local(child)
        if not tag or tag in _NOT_DRAWN or depth > 32:
            continue
        yield child, ctm, viewport
        own = multiply(ctm, parse_transform(child.get("transform")))
        mask = (prop_value(child, "mask") or "").strip()
        if mask.startswith("url(") and (target := by_id.get(mask[4:].strip(" )'\"").lstrip("#"))) is not None:
            yield from _drawn(target, own, by_id, viewport, depth + 1)
        if tag == "use":
            target = by_id.get(href(child) or "")
            if target is None:
                continue
            shift = multiply(own, (1.0, 0.0, 0.0, 1.0, number(child.get("x"), 0.0), number(child.get("y"), 0.0)))
            if local(target) == "symbol":
                size = (number(child.get("width"), viewport[0]), number(child.get("height"), viewport[1]))
                yield from _drawn(target, multiply(shift, viewport_transform(target, *size)), by_id, size, depth + 1)
            else:  # the target drawn in place of the use, its own transform included
                yield from _drawn_copy(target, shift, by_id, viewport, depth + 1)
        elif tag == "svg":
            size = (number(child.get("width"), viewport[0]), number(child.get("height"), viewport[1]))
            at = multiply(own, (1.0, 0.0, 0.0, 1.0, number(child.get("x"), 0.0), number(child.get("y"), 0.0)))
            yield from _drawn(child, multiply(at, viewport_transform(child, *size)), by_id, size, depth + 1)
        else:
            yield from _drawn(child, own, by_id, viewport, depth + 1)


def _drawn_copy(
    target: etree._Element, ctm: Matrix, by_id: dict, viewport: tuple[float, float], depth: int
) -> Iterator[tuple[etree._Element, Matrix, tuple[float, float]]]:
    """``target`` drawn by a ``<use>`` whose user space is ``ctm``: the target itself, then what it holds."""
    if depth > 32:
        return
    yield target, ctm, viewport
    own = multiply(ctm, parse_transform(target.get("transform")))
    yield from _drawn(target, own, by_id, viewport, depth + 1)


def _instances(root: etree._Element) -> list[_Filtered]:
    by_id = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    if not any(_filter_id(el) for el in root.iter() if isinstance(el.tag, str)):
        return []
    view = [number(v, 0.0) for v in (root.get("viewBox") or "").replace(",", " ").split()]
    viewport = (view[2], view[3]) if len(view) == 4 else (number(root.get("width"), 100.0), number(root.get("height"), 100.0))
    unit_mm = root_unit_mm(root)
    found: list[_Filtered] = []
    for el, ctm, port in _drawn(root, IDENTITY, by_id, viewport, 0):
        ident = _filter_id(el)
        flt = by_id.get(ident or "")
        if flt is None or local(flt) != "filter":
            continue
        if len(found) >= _MAX_INSTANCES:
            raise _TooMany(el.sourceline)
        a, b, c, d, _, _ = ctm
        mm_per_unit = math.sqrt(abs(a * d - b * c)) * unit_mm
        region = _region(el, flt, by_id, port)
        if region is None:
            continue
        in_parent = transformed(region, parse_transform(el.get("transform")))
        on_page = transformed(region, multiply(ctm, parse_transform(el.get("transform"))))
        area = on_page[2] * on_page[3] * unit_mm * unit_mm
        found.append(_Filtered(ident or "", mm_per_unit, (in_parent[2], in_parent[3]), area, el.sourceline))
    return found


class _TooMany(Exception):
    def __init__(self, line: int | None):
        self.line = line


def root_unit_mm(root: etree._Element) -> float:
    """Millimetres in a unit of the root's user space (its width over its viewBox; a CSS pixel without one)."""
    width = svg_length_px(root.get("width"))
    view = [number(v, 0.0) for v in (root.get("viewBox") or "").replace(",", " ").split()]
    px = MM_PER_INCH / 96
    if width and len(view) == 4 and view[2] > 0:
        return width * px / view[2]
    return px


def filter_scale(root: etree._Element, dpi: float, source: str, place: str | None) -> float | None:
    """The raster scale that draws every filter of the side ``root`` at ``dpi`` or finer (None: it has none);
    a one-line error when its filters would be drawn larger than the budget."""
    try:
        found = _instances(root)
    except _TooMany as many:
        raise AetherpressError(
            Problem(source, f"more than {_MAX_INSTANCES:,} filtered elements are drawn (output line {many.line})", key=place)
        ) from None
    if not found:
        return None
    page = _page_mm2(root)
    per_mm = dpi / MM_PER_INCH
    for item in found:
        if not math.isfinite(item.area_mm2) or item.area_mm2 > REGION_CARDS * page:
            side = math.sqrt(item.area_mm2) if math.isfinite(item.area_mm2) else math.inf
            raise AetherpressError(
                Problem(
                    source,
                    f"filter '{item.ident}' would be drawn over about {side:,.0f} x {side:,.0f} mm, more than "
                    f"{REGION_CARDS:g} times the card (output line {item.line}); give the filter a region near what it "
                    "draws (x, y, width, height)",
                    key=place,
                )
            )
    scale = max(item.mm_per_unit for item in found) * per_mm
    pixels = sum(item.region[0] * item.region[1] for item in found) * scale * scale
    budget = BUDGET_CARDS * page * per_mm * per_mm
    if not math.isfinite(scale) or not math.isfinite(pixels) or pixels > budget:
        raise AetherpressError(
            Problem(
                source,
                f"its {len(found)} filtered elements would be drawn as pictures of {_cards(pixels, budget)} times the "
                f"card's area in all, more than {BUDGET_CARDS:g} times; filter fewer or smaller elements, or a group of "
                f"them once (output line {found[0].line})",
                key=place,
            )
        )
    return scale


def _cards(pixels: float, budget: float) -> str:
    """``pixels`` as times the card's area (``budget`` is :data:`BUDGET_CARDS` of them), whatever the resolution."""
    cards = pixels / budget * BUDGET_CARDS if math.isfinite(pixels) and budget > 0 else math.inf
    return f"{cards:,.0f}" if math.isfinite(cards) and cards < 1e15 else "endless"


def _page_mm2(root: etree._Element) -> float:
    px = MM_PER_INCH / 96
    width, height = svg_length_px(root.get("width")), svg_length_px(root.get("height"))
    if width and height:
        return width * px * height * px
    view = [number(v, 0.0) for v in (root.get("viewBox") or "").replace(",", " ").split()]
    unit = root_unit_mm(root)
    return view[2] * view[3] * unit * unit if len(view) == 4 else 100.0 * 100.0 * px * px


__all__ = ["BUDGET_CARDS", "REGION_CARDS", "filter_scale", "root_unit_mm"]
