"""Where the print renderer (usvg) and the browser place text differently, the side told to usvg in its own terms.

The preview is the reference: a designer sees a card as Chromium draws its
SVG.  Two text properties are placed otherwise by usvg, and measured against
Chromium they are given to usvg so that it puts the glyphs where Chromium does:

* ``letter-spacing`` on a text anchored ``middle`` or ``end``: Chromium
  counts the spacing after the last character in the width it centres (or
  ends) on, usvg does not, so usvg's text sits half (or all) of that spacing
  to the right.  The chunk's ``x`` is moved by it.
* ``baseline-shift: sub`` and ``super``: Chromium shifts by half the font's
  height (ascent plus descent, from its ``hhea`` table) at the element's own
  font size; usvg by far less.  The keyword is replaced by that length.

Two more are not drawn by usvg at all, and are given in terms it draws:

* ``pathLength``: Chromium measures dashes along a shape as if it were that
  long; the dashes are scaled by the shape's true length over it.
* ``vector-effect: non-scaling-stroke``: the stroke keeps its width whatever
  the transforms; it is given the width that draws it so in the card's own
  units, as wide as the preview shows it at real size.

And one is drawn by usvg as if it were not there:

* ``mix-blend-mode`` on an element that also has a ``filter`` (a blurred
  shape set to multiply, as a drawing program saves a layer): usvg draws the
  filtered picture in normal mode.  The element is wrapped in a group that
  blends, which is what the browser does with it (the filter, then opacity,
  then the blend), and which usvg draws.  The group counts as one more level
  against the print renderer's nesting limit (see ``faces.sanitise``).

Nothing else is changed, and the SVG the preview shows keeps the designer's
own words.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from lxml import etree

from ..faces.bbox import font_size
from ..faces.icons import shape_path
from ..faces.outline import IDENTITY, multiply, parse_transform, viewport_transform
from ..faces.sanitise import SVG_NS, filtered_and_blended
from ..faces.svgrefs import local, number, numbers, prop_value, set_prop, take_prop
from ..resources.fonts import first_family
from ..units import decimal, svg_length_px

FontKey = tuple[str, str, str]  # (family in lower case, weight, style)
HalfHeights = Mapping[FontKey, float]  # half of (ascent + descent) per em, by face
_ANCHORED = {"middle": 0.5, "end": 1.0}
_EM = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(em|px|)\s*$")


def half_height(ascent: int, descent: int, units_per_em: int) -> float:
    """Half the height of a face, per em, as Chromium measures it for ``sub`` and ``super``."""
    return (ascent - descent) / 2 / units_per_em if units_per_em > 0 else 0.0


def _inherited(el: etree._Element, name: str) -> str | None:
    for holder in [el, *el.iterancestors()]:
        value = prop_value(holder, name)
        if value is not None and value.strip() not in ("", "inherit"):
            return value.strip()
    return None


def _weight(value: str | None) -> str:
    if value is None:
        return "normal"
    value = value.strip().lower()
    if value in ("bold", "bolder"):
        return "bold"
    return "bold" if value.isdigit() and int(value) >= 600 else "normal"


def _face(el: etree._Element, faces: HalfHeights) -> float | None:
    """The half height of the face ``el`` is set in, falling back within its family; None when unknown."""
    family = (first_family(_inherited(el, "font-family")) or "").lower()
    weight = _weight(_inherited(el, "font-weight"))
    style = "italic" if (_inherited(el, "font-style") or "").lower() in ("italic", "oblique") else "normal"
    for key in ((family, weight, style), (family, weight, "normal"), (family, "normal", style), (family, "normal", "normal")):
        if key in faces:
            return faces[key]
    return None


def _baseline_shifts(root: etree._Element, faces: HalfHeights) -> bool:
    changed = False
    for el in root.iter():
        if local(el) not in ("text", "tspan", "textPath"):
            continue
        keyword = (prop_value(el, "baseline-shift") or "").strip().lower()
        if keyword not in ("sub", "super"):
            continue
        half = _face(el, faces)
        if half is None:
            continue
        shift = half * font_size(el) * (-1 if keyword == "sub" else 1)
        set_prop(el, "baseline-shift", decimal(shift, 4))
        changed = True
    return changed


def _length(value: str | None, size: float) -> float:
    """A ``letter-spacing`` in user units (``normal`` and what cannot be read: 0)."""
    found = _EM.match(value or "")
    if not found:
        return 0.0
    number = float(found.group(1))
    return number * size if found.group(2) == "em" else number if math.isfinite(number) else 0.0


@dataclass
class _Chunk:
    """A run of characters that starts at an absolute ``x``: the element giving it and the index in its list."""

    holder: etree._Element
    index: int  # in the holder's x list
    anchor: float  # 0 start, 0.5 middle, 1 end
    spacing: float = 0.0  # the letter-spacing after its last character


def _characters(el: etree._Element) -> Iterator[tuple[etree._Element, str]]:
    """Each character of a text in order, with the element it belongs to."""
    for ch in el.text or "":
        yield el, ch
    for child in el:
        if local(child) in ("tspan", "textPath"):
            yield from _characters(child)
        for ch in child.tail or "":
            yield el, ch


def _chunks(text: etree._Element) -> list[_Chunk]:
    """The text's chunks: one from its first character, and one from the first character of each ``<tspan>``
    that gives its own ``x`` (none when an element lists several positions: each character its own chunk)."""
    if any(len(numbers(el.get("x"))) > 1 for el in text.iter()):
        return []
    chunks: list[_Chunk] = []
    started: set[int] = set()
    for el, _ch in _characters(text):
        first = id(el) not in started
        started.add(id(el))
        if not chunks or (first and el is not text and el.get("x") is not None):
            anchor = _ANCHORED.get((_inherited(el, "text-anchor") or "start").lower(), 0.0)
            chunks.append(_Chunk(el if chunks else text, 0, anchor))
        chunks[-1].spacing = _length(_inherited(el, "letter-spacing"), font_size(el))
    return chunks


def _letter_spacing(root: etree._Element) -> bool:
    changed = False
    for text in root.iter("{http://www.w3.org/2000/svg}text"):
        if text.get("textLength") is not None or not any(
            (prop_value(el, "letter-spacing") or "normal").strip() not in ("normal", "0", "") for el in text.iter()
        ):
            continue
        for chunk in _chunks(text):
            move = chunk.anchor * chunk.spacing
            if not move:
                continue
            xs = numbers(chunk.holder.get("x")) or [0.0]
            if chunk.index < len(xs):
                xs[chunk.index] -= move
                chunk.holder.set("x", " ".join(decimal(v, 4) for v in xs))
                changed = True
    return changed


def _numbers_of(value: str) -> list[float]:
    return [float(v) for v in re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", value)]


def _path_lengths(root: etree._Element) -> bool:
    changed = False
    for el in root.iter():
        if not isinstance(el.tag, str) or el.get("pathLength") is None:
            continue
        wanted = _numbers_of(el.get("pathLength", ""))
        del el.attrib["pathLength"]
        changed = True
        tag = local(el)
        if not wanted or wanted[0] <= 0 or tag not in ("path", "rect", "circle", "ellipse", "line", "polyline", "polygon"):
            continue
        # svgelements loads only for the shapes that say their length
        from svgelements import Path as SvgPath

        try:
            length = float(SvgPath(shape_path(el, tag)).length(error=1e-4))
        except (ValueError, IndexError, TypeError, ZeroDivisionError):
            continue
        scale = length / wanted[0]
        for name in ("stroke-dasharray", "stroke-dashoffset"):
            value = prop_value(el, name)
            if value and value.strip() != "none" and math.isfinite(scale):
                set_prop(el, name, " ".join(decimal(v * scale, 4) for v in _numbers_of(value)))
    return changed


def _to_root_scale(el: etree._Element) -> float:
    """How much the transforms from ``el``'s user space to the root's scale a length (the mean of the two axes)."""
    m = parse_transform(el.get("transform"))
    for ancestor in el.iterancestors():
        if local(ancestor) == "svg" and ancestor.getparent() is not None:
            size = (number(ancestor.get("width"), 0.0), number(ancestor.get("height"), 0.0))
            m = multiply(viewport_transform(ancestor, *size), m)
        m = multiply(parse_transform(ancestor.get("transform")) if ancestor.getparent() is not None else IDENTITY, m)
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def _non_scaling_strokes(root: etree._Element) -> bool:
    changed = False
    view = numbers(root.get("viewBox"))
    width = svg_length_px(root.get("width"))
    per_px = view[2] / width if len(view) == 4 and width else 1.0  # root units in a CSS pixel
    for el in root.iter():
        if not isinstance(el.tag, str) or (prop_value(el, "vector-effect") or "").strip() != "non-scaling-stroke":
            continue
        scale = _to_root_scale(el)
        stroke = _numbers_of(_inherited(el, "stroke-width") or "1")
        if scale > 0 and stroke:
            set_prop(el, "stroke-width", decimal(stroke[0] * per_px / scale, 5))
        set_prop(el, "vector-effect", "none")
        changed = True
    return changed


def _filtered_blends(root: etree._Element) -> bool:
    """Each element with both a filter and a blend mode wrapped in a group that blends (see the module's words)."""
    changed = False
    for el in list(root.iter()):
        if el is root or not filtered_and_blended(el):
            continue
        mode = take_prop(el, "mix-blend-mode") or ""
        group = etree.Element(f"{{{SVG_NS}}}g", {"style": f"mix-blend-mode:{mode.strip()}"})
        if el.get("id") is not None:  # a <use> of it draws the group, and so blends
            group.set("id", el.attrib.pop("id"))
        el.addprevious(group)
        group.append(el)
        changed = True
    return changed


def as_chromium_places(root: etree._Element, faces: HalfHeights) -> bool:
    """Rewrite ``root`` (a parsed side) in place so usvg places its text and draws its dashes and strokes, and
    blends what it filters, as Chromium does; whether it changed."""
    changed = _filtered_blends(root)
    changed = _baseline_shifts(root, faces) or changed
    changed = _path_lengths(root) or changed
    changed = _non_scaling_strokes(root) or changed
    return _letter_spacing(root) or changed


__all__ = ["FontKey", "HalfHeights", "as_chromium_places", "half_height"]
