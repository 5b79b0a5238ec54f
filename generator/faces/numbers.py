"""The numbers of a card's SVG, read once where the SVG enters: each finite and within ±1,000,000.

A card is a few dozen millimetres wide.  A number past a million, or one that
is no number at all (``1e999``, ``nan``), draws nothing a browser and the
print would show alike, and overflows the steps that measure a drawn side
(the cut and safe-zone checks, the write-out of repeats).  So every number an
attribute, a ``style`` or a ``<style>`` of the SVG holds is read by the
allow-list (:func:`number_problem`, called by :mod:`.sanitise` for each
element) and a side holding one out of bounds is refused in one line naming
the element and the attribute, as a project's icons are (:mod:`.icons`).  A
transform must be transform functions of numbers, each with as many as it
takes, and path data only commands and numbers, so that no reader takes a
word for a number or drops one that another reader keeps.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache

from lxml import etree

MAX_NUMBER = 1_000_000
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
NOT_PATH_DATA = re.compile(r"[^MmLlHhVvCcSsQqTtAaZz0-9eE+\-.,\s]")  # a path's commands, numbers and separators
# what a number out of bounds (or a word read as one) cannot be written without: an exponent, an n or an i, seven
# digits in a row (looked for as seven nines once every digit is a nine: a search of a class of characters is slow)
_LETTERS = frozenset("eEnNiI")
_NINES = str.maketrans("012345678", "999999999")
_PLAIN_PATH = str.maketrans("", "", "MmLlHhVvCcSsQqTtAaZz0123456789+-.,\t\n\r ")  # what plain path data is made of
_WORD_NUMBER = re.compile(r"(?<![\w-])(?:nan|inf|infinity)(?![\w-])", re.I)  # what float() would read as a number
_CALL = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^()]*)\)[\s,]*")
_SEPARATORS = re.compile(r"[\s,]*")
_ARGUMENTS = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,), "skewY": (1,)}
_TRANSFORM_WORDS = (
    "a transform is a list of matrix (6 numbers), translate or scale (1 or 2), rotate (1 or 3), skewX and skewY (1)"
)
_BOUNDS = f"its numbers must lie between -{MAX_NUMBER:,} and {MAX_NUMBER:,}"
_IDS = re.compile(r"url\([^)]*\)|#[\w-]*")  # references and hexadecimal colours: no numbers of their own

# what holds numbers (attribute or CSS): places and sizes, lists of them, text and marker placing, strokes and
# opacities, filter values
_PLACES = {"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr", "width", "height", "points"}
_PLACING = {"dx", "dy", "rotate", "textLength", "startOffset", "markerWidth", "markerHeight", "refX", "refY", "orient"}
_STROKES = {"stroke-width", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "pathLength", "viewBox"}
_SHADES = {"opacity", "fill-opacity", "stroke-opacity", "stop-opacity", "flood-opacity", "offset"}
_TYPE = {"font-size", "font-weight", "letter-spacing", "word-spacing", "baseline-shift"}
_FILTERS = {"stdDeviation", "k1", "k2", "k3", "k4", "values"}
_NUMBERED = frozenset(_PLACES | _PLACING | _STROKES | _SHADES | _TYPE | _FILTERS)
_PAINTS = frozenset({"fill", "stroke", "stop-color", "flood-color", "color"})  # rgb(), hsl() ... hold numbers
_TRANSFORMS = frozenset({"transform", "gradientTransform", "patternTransform"})
_DECLARATION = re.compile(r"([\w-]+)\s*:\s*([^;{}]*)")


def within(*values: float) -> bool:
    """Whether every one of ``values`` is finite and within ±:data:`MAX_NUMBER` (what a card may write)."""
    return all(math.isfinite(v) and abs(v) <= MAX_NUMBER for v in values)


def numbers_problem(text: str) -> str | None:
    """Why the numbers written in ``text`` cannot be drawn (one out of bounds, a word read as a number), or None.
    Only a number with an exponent or seven digits in a row can be out of bounds, and only a text with an n or an
    i can hold a word read as a number: any other text is let through without reading its numbers."""
    if _LETTERS.isdisjoint(text) and (len(text) < 7 or "9999999" not in text.translate(_NINES)):
        return None
    if _WORD_NUMBER.search(text) or not within(*(float(n) for n in NUMBER.findall(text))):
        return _BOUNDS
    return None


@lru_cache(maxsize=2048)  # the same transforms and paths come on card after card
def transform_problem(text: str) -> str | None:
    """Why ``text`` is not a transform a browser and the print read alike, or None."""
    if _WORD_NUMBER.search(text):
        return _BOUNDS
    at = _SEPARATORS.match(text).end()  # type: ignore[union-attr]  # matches the empty string at least
    if text[at:].strip() == "none":
        return None
    while at < len(text):
        call = _CALL.match(text, at)
        if call is None:
            return _TRANSFORM_WORDS
        arguments = [a for a in re.split(r"[\s,]+", call.group(2).strip()) if a]
        if not all(NUMBER.fullmatch(a) for a in arguments) or len(arguments) not in _ARGUMENTS[call.group(1)]:
            return _TRANSFORM_WORDS
        at = call.end()
    return numbers_problem(text)


@lru_cache(maxsize=2048)
def _path_problem(value: str) -> str | None:
    if not value.translate(_PLAIN_PATH) and "9999999" not in value.translate(_NINES):  # commands and plain numbers
        return None
    if NOT_PATH_DATA.search(value):
        return "path data holds only path commands and numbers"
    return numbers_problem(value)


def _paint_problem(value: str) -> str | None:
    return numbers_problem(_IDS.sub(" ", value)) if "(" in value else None  # numbers only in rgb(), hsl() ...


# how the value of each attribute or CSS property that holds numbers is checked
_CHECKS: dict[str, Callable[[str], str | None]] = {
    **dict.fromkeys(_NUMBERED, numbers_problem),
    **dict.fromkeys(_TRANSFORMS, transform_problem),
    **dict.fromkeys(_PAINTS, _paint_problem),
    "d": _path_problem,
}


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _css_numbers_problem(text: str) -> str | None:
    """Why a declaration of CSS ``text`` holds numbers that cannot be drawn (naming the declaration), or None."""
    for prop, value in _DECLARATION.findall(text):
        check = _CHECKS.get(prop.lower())
        problem = check(value.strip()) if check is not None else None
        if problem:
            return f"'{_shown(f'{prop}: {value.strip()}')}': {problem}"
    return None


def number_problem(element: etree._Element) -> str | None:
    """What is wrong with the numbers ``element`` holds (in its attributes, its ``style``, and as a ``<style>`` in
    its text), said for a message that names the element; None when each is finite and within bounds."""
    for name, value in element.attrib.items():
        check = _CHECKS.get(name)  # an attribute of another namespace (xlink:href) holds no numbers to check
        if check is numbers_problem and _LETTERS.isdisjoint(value) and len(value) < 7:
            continue  # the common case, a short plain number, looked at without a call
        if check is not None:
            problem = check(value)
            if problem:
                return f"{name}='{_shown(value)}': {problem}"
        elif name == "style":
            problem = _css_numbers_problem(value)
            if problem:
                return f"style {problem}"
    if element.tag == "{http://www.w3.org/2000/svg}style" and element.text:
        return _css_numbers_problem(element.text)
    return None
