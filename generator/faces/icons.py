"""Inline icons for rich card text: the symbol library, a deck's suits and a project's own SVG icons.

``:name:`` in a card's text draws, by the first that has the name: the
project's ``icons/NAME.svg``, the deck's suit ``NAME`` (its symbol in its
colour), or the library symbol ``NAME``.

A project icon is read once, checked and redrawn as plain ``<path>``
elements inside the card: basic shapes become path data, groups and their
transforms stay, fills and strokes carry over (``currentColor`` and shapes
with no colour take the colour of the text).  Metadata that draws nothing
(other namespaces, ``<title>``, ``<metadata>``) is left out; anything else
that is not a plain shape (text, images, gradients, styles, ``<use>``) is an
error naming the file, so an icon draws in print exactly as it looks.  The
result must pass the card allow-list like everything else on a card.
"""

from __future__ import annotations

import math
import re
from functools import partial
from pathlib import Path

from lxml import etree

from ..errors import AetherpressError, Problem, display_path
from ..locations import real
from ..project import Project
from ..resources.symbolnames import SYMBOL_NAMES
from ..units import decimal
from .numbers import MAX_NUMBER, NOT_PATH_DATA, NUMBER
from .outline import IDENTITY, Matrix, multiply, parse_transform
from .richtext import Icon
from .sanitise import SVG_NS, XLINK_NS, XML_NS, _attribute_problem, _css_problem, sanitise_problem

_ICONS_FOLDER = "icons"
_MAX_ICON_BYTES = 200_000
_MAX_ICONS = 500
_MAX_ICON_ELEMENTS = 2_000
_MAX_ICON_NUMBER = MAX_NUMBER  # no number in an icon, nor its transforms taken together, may be larger (as on a card)
_NUMBERED = (
    "d",
    "points",
    "transform",
    "stroke-width",
    "stroke-miterlimit",
    "stroke-dasharray",
    "opacity",
    "fill-opacity",
    "stroke-opacity",
)
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, huge_tree=False)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_TRANSFORM_CALL = re.compile(
    r"(?:matrix|translate|scale|rotate|skewX|skewY)\s*\(\s*(?:[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[\s,]*)*\)[\s,]*"
)
SHAPES = {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"}
_SKIPPED = {"title", "desc", "metadata"}
_PAINT = (
    "fill",
    "fill-rule",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-opacity",
    "stroke-dasharray",
    "opacity",
    "transform",
)


class IconError(Exception):
    pass


def _f(v: float) -> str:
    return decimal(v, 4)


def _bounded(value: float, element: etree._Element, name: str, text: str) -> float:
    """``value`` if it is a finite number of at most _MAX_ICON_NUMBER; an IconError naming the attribute otherwise."""
    if not math.isfinite(value) or abs(value) > _MAX_ICON_NUMBER:
        raise IconError(
            f"<{etree.QName(element).localname}> (line {element.sourceline}) has {name}='{text[:40]}': "
            f"its numbers must lie between -{_MAX_ICON_NUMBER:,} and {_MAX_ICON_NUMBER:,}"
        )
    return value


def _numbers(element: etree._Element, name: str, text: str) -> list[float]:
    """Every number in ``text`` (an attribute of ``element``), each checked."""
    return [_bounded(float(n), element, name, text) for n in NUMBER.findall(text)]


def _num(element: etree._Element, name: str, default: float = 0.0) -> float:
    text = element.get(name)
    if text is None:
        return default
    match = NUMBER.match(text.strip())
    if match is None:
        raise IconError(f"<{etree.QName(element).localname}> has {name}='{text[:20]}', not a number")
    return _bounded(float(match.group(0)), element, name, text)


def shape_path(element: etree._Element, tag: str) -> str:
    """Path data for a basic shape."""
    if tag == "path":
        return element.get("d") or ""
    if tag == "rect":
        x, y, w, h = (_num(element, k) for k in ("x", "y", "width", "height"))
        rx = _num(element, "rx", _num(element, "ry", 0.0))
        ry = _num(element, "ry", rx)
        rx, ry = min(rx, w / 2), min(ry, h / 2)
        if rx <= 0 or ry <= 0:
            return f"M{_f(x)},{_f(y)} H{_f(x + w)} V{_f(y + h)} H{_f(x)} Z"
        arc = f"A{_f(rx)},{_f(ry)} 0 0,1"
        return (
            f"M{_f(x + rx)},{_f(y)} H{_f(x + w - rx)} {arc} {_f(x + w)},{_f(y + ry)} V{_f(y + h - ry)} "
            f"{arc} {_f(x + w - rx)},{_f(y + h)} H{_f(x + rx)} {arc} {_f(x)},{_f(y + h - ry)} V{_f(y + ry)} {arc} {_f(x + rx)},{_f(y)} Z"
        )
    if tag in ("circle", "ellipse"):
        cx, cy = _num(element, "cx"), _num(element, "cy")
        rx = _num(element, "r") if tag == "circle" else _num(element, "rx")
        ry = _num(element, "r") if tag == "circle" else _num(element, "ry")
        arc = f"A{_f(rx)},{_f(ry)} 0 1,0"
        return f"M{_f(cx - rx)},{_f(cy)} {arc} {_f(cx + rx)},{_f(cy)} {arc} {_f(cx - rx)},{_f(cy)} Z"
    if tag == "line":
        return f"M{_f(_num(element, 'x1'))},{_f(_num(element, 'y1'))} L{_f(_num(element, 'x2'))},{_f(_num(element, 'y2'))}"
    numbers = _numbers(element, "points", element.get("points") or "")
    pairs = [f"{_f(numbers[i])},{_f(numbers[i + 1])}" for i in range(0, len(numbers) - 1, 2)]
    if not pairs:
        return ""
    return "M" + " L".join(pairs) + (" Z" if tag == "polygon" else "")


def _paint(element: etree._Element) -> dict[str, str]:
    """The element's paint and transform, from attributes and its style attribute (checked like a card's CSS)."""
    out = {k: element.get(k) for k in _PAINT if element.get(k) is not None}
    style = element.get("style")
    if style:
        problem = _css_problem(style)
        if problem:
            raise IconError(problem)
        for declaration in style.split(";"):
            key, _, value = declaration.partition(":")
            if key.strip() in _PAINT and value.strip():
                out[key.strip()] = value.strip()
    return {k: v for k, v in out.items() if k == "transform" or "url(" not in v}


def _check_numbers(element: etree._Element, attrs: dict[str, str], matrix: Matrix) -> Matrix:
    """The transform ``element`` draws in (``matrix`` then its own), once every number it carries is checked:
    neither a number nor the transforms of its groups taken together may be absurdly large."""
    for name in _NUMBERED:
        if name in attrs:
            _numbers(element, name, attrs[name])
    if "d" in attrs and NOT_PATH_DATA.search(attrs["d"]):
        raise IconError(
            f"<{etree.QName(element).localname}> (line {element.sourceline}) has d='{attrs['d'][:40]}': "
            "path data holds only path commands and numbers"
        )
    if "transform" not in attrs:
        return matrix
    if _TRANSFORM_CALL.sub("", attrs["transform"]).strip(" \t\r\n,"):
        raise IconError(
            f"<{etree.QName(element).localname}> (line {element.sourceline}) has transform='{attrs['transform'][:40]}': "
            "a transform is a list of matrix, translate, scale, rotate, skewX and skewY of numbers"
        )
    combined = multiply(matrix, parse_transform(attrs["transform"]))
    if not all(math.isfinite(v) and abs(v) <= _MAX_ICON_NUMBER for v in combined):
        raise IconError(
            f"<{etree.QName(element).localname}> (line {element.sourceline}): its transforms and its groups' taken together "
            f"scale or move it by more than {_MAX_ICON_NUMBER:,}"
        )
    return combined


def _convert(element: etree._Element, into: etree._Element, count: list[int], matrix: Matrix = IDENTITY) -> None:
    for child in element:
        if not isinstance(child.tag, str):
            continue
        qname = etree.QName(child)
        if qname.namespace != SVG_NS or qname.localname in _SKIPPED:
            continue  # editors' metadata (Inkscape, Illustrator): it draws nothing
        tag = qname.localname
        for name, value in child.attrib.items():
            if etree.QName(name).namespace not in (None, XLINK_NS, XML_NS):
                continue  # an editor's own attributes (inkscape:label ...)
            problem = _attribute_problem(child, name, value)
            if problem:
                raise IconError(f"<{tag}> (line {child.sourceline}): {problem}")
        count[0] += 1
        if count[0] > _MAX_ICON_ELEMENTS:
            raise IconError(f"has more than {_MAX_ICON_ELEMENTS:,} elements; simplify it")
        if tag == "defs" and len(child) == 0:
            continue
        if tag == "g":
            attrs = _paint(child)
            inner = _check_numbers(child, attrs, matrix)
            group = etree.SubElement(into, f"{{{SVG_NS}}}g", attrs)
            _convert(child, group, count, inner)
        elif tag in SHAPES:
            d = shape_path(child, tag)
            if d.strip():
                attrs = _paint(child)
                attrs["d"] = d
                _check_numbers(child, attrs, matrix)
                etree.SubElement(into, f"{{{SVG_NS}}}path", attrs)
        else:
            raise IconError(
                f"<{tag}> (line {child.sourceline}) is not allowed in an icon: an icon is shapes only "
                "(path, rect, circle, ellipse, line, polyline, polygon, in groups)"
            )


def _view(root: etree._Element) -> tuple[float, float, float, float]:
    box = root.get("viewBox")
    if box:
        numbers = _numbers(root, "viewBox", box)
        if len(numbers) == 4 and numbers[2] > 0 and numbers[3] > 0:
            return numbers[0], numbers[1], numbers[2], numbers[3]
        raise IconError(f"its viewBox '{box[:40]}' is not four numbers with a positive width and height")
    width, height = _num(root, "width", 0.0), _num(root, "height", 0.0)
    if width > 0 and height > 0:
        return 0.0, 0.0, width, height
    raise IconError("it needs a viewBox (or a width and height) to be scaled to the text")


def _read_icon(path: str, size: int, mtime: int) -> Icon:
    file = Path(path)
    if size > _MAX_ICON_BYTES:
        raise IconError(f"the icon file is larger than {_MAX_ICON_BYTES // 1000} KB")
    data = file.read_bytes()
    try:
        root = etree.fromstring(data, parser=_PARSER)  # entities are neither loaded nor expanded, in any encoding
    except etree.XMLSyntaxError as exc:
        raise IconError(f"it is not SVG that parses: {exc.msg}") from None
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None:
        raise IconError("it declares a DOCTYPE or entities, which are not allowed; remove the <!DOCTYPE ...> block")
    if not isinstance(root.tag, str) or etree.QName(root) != etree.QName(SVG_NS, "svg"):
        raise IconError("it is not an <svg> document (is its xmlns missing?)")
    view = _view(root)
    holder = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS})
    _convert(root, holder, [0])
    if len(holder) == 0:
        raise IconError("it draws nothing (no shapes)")
    found = sanitise_problem(holder)
    if found is not None:
        raise IconError(found[1])
    body = "".join(etree.tostring(child, encoding="unicode") for child in holder)
    body = body.replace(f' xmlns="{SVG_NS}"', "")
    return Icon(file.stem, aspect=view[2] / view[3], body=body, view=view)


def project_icons(project: Project) -> dict[str, Icon]:
    """The project's own icons (``icons/*.svg``), every problem at once."""
    own = project.own
    folder = own.root / _ICONS_FOLDER
    if own.kind != "project" or not folder.is_dir():
        return {}
    problems: list[Problem] = []
    icons: dict[str, Icon] = {}
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".svg")
    if len(files) > _MAX_ICONS:
        raise AetherpressError(Problem(display_path(folder), f"holds {len(files)} icons; the limit is {_MAX_ICONS}"))
    for path in files:
        if not _NAME.fullmatch(path.stem):
            problems.append(Problem(display_path(path), "an icon's name may hold only letters, digits, '-' and '_'"))
            continue
        if not real(path).is_relative_to(real(own.root)) or not path.is_file():
            problems.append(Problem(display_path(path), "is a link to a place outside the project; copy the icon in instead"))
            continue
        stat = path.stat()
        try:
            stamps = (str(path), stat.st_size, stat.st_mtime_ns)
            icons[path.stem] = project.readings.get("icons", stamps, partial(_read_icon, *stamps))
        except IconError as exc:
            problems.append(Problem(display_path(path), f"icon ':{path.stem}:': {exc}"))
    if problems:
        raise AetherpressError(problems)
    return icons


def deck_icons(project: Project, suits, monochrome: bool = False) -> dict[str, Icon]:
    """Every icon a deck's texts may use: library symbols, then the deck's suits, then the project's icons."""
    icons: dict[str, Icon] = {name: Icon(name, symbol=name) for name in SYMBOL_NAMES}
    for suit in suits:
        icons[suit.id] = Icon(suit.id, colour=None if monochrome else suit.colour, symbol=suit.symbol)
    icons.update(project_icons(project))
    return icons
