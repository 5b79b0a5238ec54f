"""Small readers of card SVG: references (``href``, ``url(#id)``), inherited attributes, numbers, boxes, matrices."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from ..units import decimal
from .outline import Matrix, shape_points
from .sanitise import XLINK_NS

SHAPES = ("rect", "circle", "ellipse", "line", "polyline", "polygon", "path")
_URL = re.compile(r"^\s*url\(\s*['\"]?#([^)'\"\s]+)['\"]?\s*\)\s*(?:none)?\s*$")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
Area = tuple[float, float, float, float]  # x, y, width, height


def local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def href(el: etree._Element) -> str | None:
    ref = (el.get("href") or el.get(f"{{{XLINK_NS}}}href") or "").strip()
    return ref[1:] if ref.startswith("#") else None


def href_chain(el: etree._Element, by_id: dict) -> list[etree._Element]:
    """``el`` and the elements it inherits from through ``href``, nearest first (a loop stops the chain)."""
    chain = [el]
    while (ref := href(chain[-1])) is not None and ref in by_id and by_id[ref] not in chain and len(chain) < 16:
        chain.append(by_id[ref])
    return chain


def inherited(chain: list[etree._Element], name: str) -> str | None:
    for el in chain:
        if el.get(name) is not None:
            return el.get(name)
    return None


def number(value: str | None, default: float, percent_of: float = 1.0) -> float:
    text = (value or "").strip()
    match = _NUMBER.match(text)
    if not match:
        return default
    number = float(match.group(0))
    return number / 100 * percent_of if text.endswith("%") else number


def numbers(text: str | None) -> list[float]:
    """The numbers of an attribute such as ``viewBox`` or ``points``, in order."""
    return [float(v) for v in _NUMBER.findall(text or "")]


def view_box(root: etree._Element) -> tuple[float, float, float, float]:
    numbers = [float(v) for v in _NUMBER.findall(root.get("viewBox") or "")]
    if len(numbers) == 4 and numbers[2] > 0 and numbers[3] > 0:
        return numbers[0], numbers[1], numbers[2], numbers[3]
    return 0.0, 0.0, number(root.get("width"), 100.0), number(root.get("height"), 100.0)


def fill_ref(el: etree._Element, prop: str) -> str | None:
    """The id a shape's ``fill`` (or ``stroke``) names, from its attribute or its style."""
    value = el.get(prop)
    for part in (el.get("style") or "").split(";"):
        if ":" in part and part.split(":", 1)[0].strip() == prop:
            value = part.split(":", 1)[1]
    match = _URL.match(value or "")
    return match.group(1) if match else None


def paint_users(root: etree._Element) -> dict[str, list[etree._Element]]:
    """The elements whose ``fill`` or ``stroke`` names each id, in document order (each element once an id): found
    in one walk, so a side with many gradients or patterns looks each one's users up, not for them."""
    users: dict[str, list[etree._Element]] = {}
    for el in root.iter():
        if isinstance(el.tag, str) and (el.get("fill") or el.get("stroke") or el.get("style")):
            for ident in dict.fromkeys((fill_ref(el, "fill"), fill_ref(el, "stroke"))):
                if ident is not None:
                    users.setdefault(ident, []).append(el)
    return users


_ANY_URL = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)")


def referenced_ids(root: etree._Element) -> set[str]:
    """Every id the SVG refers to, by ``url(#id)`` in any attribute or ``<style>``, or by ``href="#id"``: one walk."""
    found: set[str] = set()
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for value in el.attrib.values():
            if "#" in value:
                found.update(_ANY_URL.findall(value))
                if value.strip().startswith("#"):
                    found.add(value.strip()[1:])
        if local(el) == "style" and el.text and "#" in el.text:
            found.update(_ANY_URL.findall(el.text))
    return found


def invert(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def apply(m: Matrix, points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    a, b, c, d, e, f = m
    return [(a * x + c * y + e, b * x + d * y + f) for x, y in points]


def corners(box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    x, y, w, h = box
    return [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]


def shape_box(el: etree._Element) -> tuple[float, float, float, float] | None:
    """A shape's bounding box in its own user space, or None when it has no area."""
    if local(el) not in SHAPES:
        return None
    points = shape_points(local(el), el)
    if not len(points):
        return None
    x0, y0 = float(points[:, 0].min()), float(points[:, 1].min())
    w, h = float(points[:, 0].max()) - x0, float(points[:, 1].max()) - y0
    return (x0, y0, w, h) if w > 0 and h > 0 else None


def fmt(value: float) -> str:
    return decimal(value, 6)


def style_props(style: str | None) -> dict[str, str]:
    props = {}
    for part in (style or "").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            props[key.strip()] = value.strip()
    return props


def prop_value(el: etree._Element, name: str) -> str | None:
    return style_props(el.get("style")).get(name, el.get(name))


def set_prop(el: etree._Element, name: str, value: str) -> None:
    """``name: value`` on ``el``, where the designer set it (its style, or the attribute)."""
    props = style_props(el.get("style"))
    if name in props:
        props[name] = value
        el.set("style", ";".join(f"{k}:{v}" for k, v in props.items()))
    else:
        el.set(name, value)


def take_prop(el: etree._Element, name: str) -> str | None:
    """``name`` taken off ``el`` (from its style and its attribute): its value, the style's over the attribute's."""
    props = style_props(el.get("style"))
    value = props.pop(name, None)
    attribute = el.attrib.pop(name, None)
    if props:
        el.set("style", ";".join(f"{k}:{v}" for k, v in props.items()))
    elif "style" in el.attrib:
        del el.attrib["style"]
    return value if value is not None else attribute


def matrix(m: Matrix) -> str:
    return "matrix(" + " ".join(fmt(v) for v in m) + ")"
