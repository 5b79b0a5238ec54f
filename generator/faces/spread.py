"""Gradients that repeat or reflect, written out as padded gradients holding the stops of every repeat.

The gradient's vector (or circle) is stretched to reach past every shape it
paints, and its stops are laid end to end, one period after another (mirrored
every other period for ``reflect``).  A gradient another inherits from is
made self-contained first, so writing one out changes no other.
"""

from __future__ import annotations

import copy
import math

from lxml import etree

from .outline import IDENTITY, parse_transform
from .sanitise import XLINK_NS
from .svgrefs import Area, apply, corners, fill_ref, fmt, href, href_chain, inherited, invert, local, number, shape_box

MAX_STOPS = 2_000  # stops of one written-out gradient
_GRADIENTS = ("linearGradient", "radialGradient")
_GRADIENT_ATTRS = {
    "linearGradient": ("gradientUnits", "gradientTransform", "x1", "y1", "x2", "y2", "spreadMethod"),
    "radialGradient": ("gradientUnits", "gradientTransform", "cx", "cy", "r", "fx", "fy", "fr", "spreadMethod"),
}


def _stops(chain: list[etree._Element]) -> list[tuple[float, etree._Element]]:
    """The stops a gradient draws with (its own, or the nearest it inherits), offsets made increasing."""
    for el in chain:
        own = [child for child in el if local(child) == "stop"]
        if own:
            found, last = [], 0.0
            for stop in own:
                last = max(last, min(1.0, max(0.0, number(stop.get("offset"), 0.0, 1.0))))
                found.append((last, stop))
            return found
    return []


def _users(root: etree._Element, gradient_id: str) -> list[etree._Element]:
    return [el for el in root.iter() if isinstance(el.tag, str) and gradient_id in (fill_ref(el, "fill"), fill_ref(el, "stroke"))]


def _reach(
    gradient: etree._Element, users: list[etree._Element], view: tuple[float, float, float, float], units: str
) -> list[list[tuple[float, float]]]:
    """The corners, in the gradient's own space, of every area it may paint."""
    transform = invert(parse_transform(inherited([gradient], "gradientTransform"))) or IDENTITY
    if units != "userSpaceOnUse":
        return [apply(transform, corners((0.0, 0.0, 1.0, 1.0)))]
    areas = []
    for user in users:
        area = shape_box(user)
        if area is None:  # text or a group: the whole card, three times over, stands in for it
            x, y, w, h = view
            area = (x - w, y - h, 3 * w, 3 * h)
        areas.append(apply(transform, corners(area)))
    return areas


def _repeat_stops(
    stops: list[tuple[float, etree._Element]], first: int, last: int, reflect: bool
) -> list[tuple[float, etree._Element]]:
    """The stops of periods ``first`` to ``last - 1`` laid end to end, offsets in the new [0, 1]."""
    period = list(stops)
    if period[0][0] > 0:
        period.insert(0, (0.0, period[0][1]))
    if period[-1][0] < 1:
        period.append((1.0, period[-1][1]))
    span = last - first
    out = []
    for k in range(first, last):
        mirrored = reflect and k % 2 != 0
        for offset, stop in reversed(period) if mirrored else period:
            t = k + (1 - offset if mirrored else offset)
            out.append(((t - first) / span, stop))
    return out


def _write_gradient(
    gradient: etree._Element,
    stops: list[tuple[float, etree._Element]],
    attrs: dict[str, str | None],
    users: list[etree._Element],
    view: tuple[float, float, float, float],
) -> bool:
    """A repeating gradient written out as a padded one (its inherited attributes and stops made its own)."""
    tag = local(gradient)
    reflect = (attrs.get("spreadMethod") or "").strip() == "reflect"
    attrs = {k: v for k, v in attrs.items() if k != "spreadMethod"}
    units = (attrs.get("gradientUnits") or "objectBoundingBox").strip()
    w, h = (1.0, 1.0) if units != "userSpaceOnUse" else (view[2], view[3])
    if not stops:
        return False
    areas = _reach(gradient, users, view, units)
    written = (
        _linear(attrs, stops, areas, w, h, reflect) if tag == "linearGradient" else _radial(attrs, stops, areas, w, h, reflect)
    )
    if written is None:
        return False
    _set_gradient(gradient, *written)
    return True


def _linear(
    attrs: dict, stops: list, areas: list, w: float, h: float, reflect: bool
) -> tuple[dict, list[tuple[float, etree._Element]]] | None:
    x1, y1 = number(attrs["x1"], 0.0, w), number(attrs["y1"], 0.0, h)
    x2, y2 = number(attrs["x2"], w, w), number(attrs["y2"], 0.0, h)
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    if length2 <= 0:
        return None
    ts = [((x - x1) * dx + (y - y1) * dy) / length2 for area in areas for x, y in area]
    first, last = math.floor(min(ts)), math.ceil(max(ts))
    last = max(last, first + 1)
    if (last - first) * (len(stops) + 2) > MAX_STOPS:
        return None
    attrs = {
        **attrs,
        "x1": fmt(x1 + first * dx),
        "y1": fmt(y1 + first * dy),
        "x2": fmt(x1 + last * dx),
        "y2": fmt(y1 + last * dy),
    }
    return attrs, _repeat_stops(stops, first, last, reflect)


def _radial(
    attrs: dict, stops: list, areas: list, w: float, h: float, reflect: bool
) -> tuple[dict, list[tuple[float, etree._Element]]] | None:
    diagonal = math.sqrt((w * w + h * h) / 2)
    cx, cy = number(attrs["cx"], 0.5 * w, w), number(attrs["cy"], 0.5 * h, h)
    r = number(attrs["r"], 0.5 * diagonal, diagonal)
    fx, fy = number(attrs["fx"], cx, w), number(attrs["fy"], cy, h)
    fr = number(attrs["fr"], 0.0, diagonal)
    reach = math.hypot(cx - fx, cy - fy)
    grow = r - fr
    if grow <= reach or r <= 0:  # the focus on or outside the circle: the cone is not written out
        return None
    farthest = max(math.hypot(x - fx, y - fy) for area in areas for x, y in area)
    last = max(1, math.ceil((farthest - fr) / (grow - reach)))
    if last * (len(stops) + 2) > MAX_STOPS:
        return None
    attrs = {
        **attrs,
        "cx": fmt(fx + last * (cx - fx)),
        "cy": fmt(fy + last * (cy - fy)),
        "r": fmt(fr + last * grow),
        "fx": fmt(fx),
        "fy": fmt(fy),
        "fr": fmt(fr) if fr else None,
    }
    return attrs, _repeat_stops(stops, 0, last, reflect)


def write_out_gradients(root: etree._Element, by_id: dict, view: Area) -> bool:
    """Every repeating gradient of a card SVG written out; whether anything changed."""
    gradients = [el for el in root.iter() if local(el) in _GRADIENTS]
    chains = {el: href_chain(el, by_id) for el in gradients}
    spreads = {el: (inherited(chains[el], "spreadMethod") or "pad").strip() for el in gradients}
    if not any(spread in ("repeat", "reflect") for spread in spreads.values()):
        return False
    # each gradient read as it stands before any is changed (one may inherit the stops of another)
    read = {el: (_stops(chains[el]), {n: inherited(chains[el], n) for n in _GRADIENT_ATTRS[local(el)]}) for el in gradients}
    for el in gradients:
        stops, attrs = read[el]
        written = spreads[el] in ("repeat", "reflect") and _write_gradient(
            el, stops, attrs, _users(root, el.get("id") or ""), view
        )
        if not written and href(el) is not None:
            _set_gradient(el, attrs, stops)  # made self-contained; a repeat it could not write out stays for the check
    return True


def _set_gradient(el: etree._Element, attrs: dict[str, str | None], stops: list[tuple[float, etree._Element]]) -> None:
    for name in ("href", f"{{{XLINK_NS}}}href", *_GRADIENT_ATTRS[local(el)]):
        el.attrib.pop(name, None)
    for name, value in attrs.items():
        if value is not None:
            el.set(name, value)
    for child in list(el):
        el.remove(child)
    for offset, stop in stops:
        made = copy.deepcopy(stop)
        made.tail = None
        made.set("offset", fmt(offset))
        el.append(made)
