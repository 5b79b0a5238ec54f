"""Gradients that repeat or reflect, written out as padded gradients holding the stops of every repeat.

The gradient's vector (or circle) is stretched to reach past every shape it
paints, and its stops are laid end to end, one period after another (mirrored
every other period for ``reflect``).  A gradient another inherits from is
made self-contained first, so writing one out changes no other.

Every gradient is planned first (:func:`plan_gradients`: how many periods, how
many stops) and only written (:meth:`GradientPlan.write`) once the side's
whole write-out is known to keep within the allow-list's budget.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass

from lxml import etree

from ..resources.limits import check_deadline
from .numbers import within
from .outline import IDENTITY, parse_transform
from .sanitise import XLINK_NS
from .svgrefs import Area, apply, corners, fmt, href, href_chain, inherited, invert, local, number, shape_box

MAX_STOPS = 2_000  # stops of one written-out gradient
_GRADIENTS = ("linearGradient", "radialGradient")
_GRADIENT_ATTRS = {
    "linearGradient": ("gradientUnits", "gradientTransform", "x1", "y1", "x2", "y2", "spreadMethod"),
    "radialGradient": ("gradientUnits", "gradientTransform", "cx", "cy", "r", "fx", "fy", "fr", "spreadMethod"),
}
Stops = list[tuple[float, etree._Element]]


@dataclass
class GradientPlan:
    """How one gradient is written: its attributes and stops made its own, repeated over ``periods`` (None: only
    made self-contained, its repeat left for the template check to explain)."""

    gradient: etree._Element
    attrs: dict[str, str | None]
    stops: Stops
    periods: tuple[int, int] | None = None
    reflect: bool = False

    @property
    def line(self) -> int | None:
        return self.gradient.sourceline

    @property
    def drawn(self) -> int:
        """The stop elements the gradient holds once written (its own already counted among them)."""
        if self.periods is None:
            return len(self.stops)
        first, last = self.periods
        return (last - first) * _period_length(self.stops)

    def write(self) -> None:
        stops = self.stops if self.periods is None else _repeat_stops(self.stops, *self.periods, self.reflect)
        _set_gradient(self.gradient, self.attrs, stops)


def _stops(chain: list[etree._Element], known: dict[etree._Element, Stops]) -> Stops:
    """The stops a gradient draws with (its own, or the nearest it inherits), offsets made increasing; each
    gradient's own read once (``known``), however many inherit them."""
    for el in chain:
        if el in known:
            return known[el]
        own = [child for child in el if local(child) == "stop"]
        if own:
            found, last = [], 0.0
            for stop in own:
                last = max(last, min(1.0, max(0.0, number(stop.get("offset"), 0.0, 1.0))))
                found.append((last, stop))
            known[el] = found
            return found
    return []


def _reach(gradient: etree._Element, users: list[etree._Element], view: Area, units: str) -> list[list[tuple[float, float]]]:
    """The corners, in the gradient's own space, of every area it may paint."""
    transform = invert(parse_transform(inherited([gradient], "gradientTransform"))) or IDENTITY
    if units != "userSpaceOnUse":
        return [apply(transform, corners((0.0, 0.0, 1.0, 1.0)))]
    x, y, w, h = view
    areas = []
    for user in users or [None]:  # a gradient nothing uses is written out over the card
        area = shape_box(user) if user is not None else view
        if area is None:  # text or a group: the whole card, three times over, stands in for it
            area = (x - w, y - h, 3 * w, 3 * h)
        areas.append(apply(transform, corners(area)))
    return areas


def _period(stops: Stops) -> Stops:
    """One period's stops, reaching from offset 0 to 1."""
    period = list(stops)
    if period[0][0] > 0:
        period.insert(0, (0.0, period[0][1]))
    if period[-1][0] < 1:
        period.append((1.0, period[-1][1]))
    return period


def _period_length(stops: Stops) -> int:
    return len(stops) + (stops[0][0] > 0) + (stops[-1][0] < 1)


def _repeat_stops(stops: Stops, first: int, last: int, reflect: bool) -> Stops:
    """The stops of periods ``first`` to ``last - 1`` laid end to end, offsets in the new [0, 1]."""
    period = _period(stops)
    span = last - first
    out = []
    for k in range(first, last):
        mirrored = reflect and k % 2 != 0
        for offset, stop in reversed(period) if mirrored else period:
            t = k + (1 - offset if mirrored else offset)
            out.append(((t - first) / span, stop))
    return out


def _periods(low: float, high: float, stops: Stops) -> tuple[int, int] | None:
    """The whole periods from ``low`` to ``high`` (at least one), or None when they need more than MAX_STOPS stops;
    counted before any is made, so no number, however far, makes a loop or a list."""
    if not (math.isfinite(low) and math.isfinite(high)) or (high - low + 2) * _period_length(stops) > MAX_STOPS:
        return None
    first = math.floor(low)
    last = max(math.ceil(high), first + 1)
    return (first, last) if (last - first) * _period_length(stops) <= MAX_STOPS else None


def _plan_repeat(
    gradient: etree._Element, stops: Stops, attrs: dict[str, str | None], users: list[etree._Element], view: Area
) -> GradientPlan | None:
    """A repeating gradient planned as a padded one (its inherited attributes and stops made its own); None when
    it cannot be written out."""
    if not stops:
        return None
    reflect = (attrs.get("spreadMethod") or "").strip() == "reflect"
    attrs = {k: v for k, v in attrs.items() if k != "spreadMethod"}
    units = (attrs.get("gradientUnits") or "objectBoundingBox").strip()
    w, h = (1.0, 1.0) if units != "userSpaceOnUse" else (view[2], view[3])
    areas = _reach(gradient, users, view, units)
    stretch = _linear if local(gradient) == "linearGradient" else _radial
    written = stretch(attrs, stops, areas, w, h)
    if written is None:
        return None
    return GradientPlan(gradient, written[0], stops, written[1], reflect)


def _linear(attrs: dict, stops: Stops, areas: list, w: float, h: float) -> tuple[dict, tuple[int, int]] | None:
    x1, y1 = number(attrs["x1"], 0.0, w), number(attrs["y1"], 0.0, h)
    x2, y2 = number(attrs["x2"], w, w), number(attrs["y2"], 0.0, h)
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    if not length2 > 0:
        return None
    ts = [((x - x1) * dx + (y - y1) * dy) / length2 for area in areas for x, y in area]
    periods = _periods(min(ts), max(ts), stops)
    if periods is None:
        return None
    first, last = periods
    ends = (x1 + first * dx, y1 + first * dy, x1 + last * dx, y1 + last * dy)
    if not within(*ends):
        return None
    return {**attrs, **dict(zip(("x1", "y1", "x2", "y2"), map(fmt, ends), strict=True))}, periods


def _radial(attrs: dict, stops: Stops, areas: list, w: float, h: float) -> tuple[dict, tuple[int, int]] | None:
    diagonal = math.sqrt((w * w + h * h) / 2)
    cx, cy = number(attrs["cx"], 0.5 * w, w), number(attrs["cy"], 0.5 * h, h)
    r = number(attrs["r"], 0.5 * diagonal, diagonal)
    fx, fy = number(attrs["fx"], cx, w), number(attrs["fy"], cy, h)
    fr = number(attrs["fr"], 0.0, diagonal)
    reach = math.hypot(cx - fx, cy - fy)
    grow = r - fr
    if not grow > reach or not r > 0:  # the focus on or outside the circle: the cone is not written out
        return None
    farthest = max(math.hypot(x - fx, y - fy) for area in areas for x, y in area)
    periods = _periods(0.0, (farthest - fr) / (grow - reach), stops)
    if periods is None:
        return None
    last = periods[1]
    centre = (fx + last * (cx - fx), fy + last * (cy - fy), fr + last * grow)
    if not within(*centre):
        return None
    written = {"cx": fmt(centre[0]), "cy": fmt(centre[1]), "r": fmt(centre[2]), "fx": fmt(fx), "fy": fmt(fy)}
    return {**attrs, **written, "fr": fmt(fr) if fr else None}, (0, last)


def plan_gradients(root: etree._Element, by_id: dict, users: dict[str, list[etree._Element]], view: Area) -> list[GradientPlan]:
    """How every gradient of a card SVG is written when any repeats or reflects (none otherwise): each repeat that
    can be written out, and every gradient that inherits made self-contained."""
    gradients = [el for el in root.iter() if local(el) in _GRADIENTS]
    chains = {el: href_chain(el, by_id) for el in gradients}
    spreads = {el: (inherited(chains[el], "spreadMethod") or "pad").strip() for el in gradients}
    if not any(spread in ("repeat", "reflect") for spread in spreads.values()):
        return []
    plans = []
    known: dict[etree._Element, Stops] = {}
    for el in gradients:  # each gradient read as it stands before any is written (one may inherit another's stops)
        check_deadline()
        stops, attrs = _stops(chains[el], known), {n: inherited(chains[el], n) for n in _GRADIENT_ATTRS[local(el)]}
        plan = None
        if spreads[el] in ("repeat", "reflect"):
            plan = _plan_repeat(el, stops, attrs, users.get(el.get("id") or "", []), view)
        if plan is None and href(el) is not None:
            plan = GradientPlan(el, attrs, stops)  # made self-contained; a repeat it could not write out stays for the check
        if plan is not None:
            plans.append(plan)
    return plans


def _set_gradient(el: etree._Element, attrs: dict[str, str | None], stops: Stops) -> None:
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
