"""Vector art from a drawing program, drawn on a card as vectors: an ``.svg`` picture placed where its ``<image>`` is.

A card list may name an ``.svg`` file as it names a PNG, and ``image()``
gives it to the template as a ``data:image/svg+xml`` address; a template may
write such an address itself.  Neither a browser nor the print renderer is
then trusted with a document inside the card: each such ``<image>`` is
replaced by the drawing itself, a nested ``<svg>`` at the image's place and
size (``preserveAspectRatio`` as the image says: ``xMidYMid meet``, fitted
whole, unless told otherwise), so the card holds vectors the allow-list
checks like any other.  On the way the drawing is cleaned (:mod:`.clean`),
its CSS worked out within itself (:mod:`.css`: an Illustrator ``.st0`` of
one drawing never styles another), and its ids made its own.
"""

from __future__ import annotations

import base64
import re

from lxml import etree

from ..errors import AetherpressError, Problem
from ..units import decimal, svg_length_px
from .bbox import object_box
from .clean import clean_text, clean_tree
from .css import CssError, resolve_css
from .sanitise import SVG_NS, XLINK_NS, sanitise_problems
from .svg import parse_xml

SVG_URI = "data:image/svg+xml;base64,"
_URL = re.compile(r"url\(\s*(['\"]?)#([^'\")\s]+)\1\s*\)")
# what an <image> carries that the drawing put in its place must keep: on a group round it
_PLACED = ("transform", "opacity", "clip-path", "mask", "filter", "style", "class", "mix-blend-mode", "visibility", "display")
_SIZE = ("x", "y", "width", "height")


class ArtError(ValueError):
    """Vector art that cannot be read, said in words for one line."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def _prepared(text: str, shown: str) -> etree._Element:
    """The drawing ``text`` parsed, cleaned and its CSS worked out; problems name ``shown``."""
    root = parse_xml(clean_text(text), shown)
    clean_tree(root)
    try:
        resolve_css(root)
    except CssError as exc:
        raise AetherpressError(Problem(shown, str(exc), exc.line)) from None
    return root


def read_art(data: bytes, shown: str) -> str:
    """A drawing program's SVG file (``shown`` in messages) as clean SVG text; every problem it has is told at
    once, each with its line (AetherpressError)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise AetherpressError(Problem(shown, "is not UTF-8 text; save it again as plain SVG")) from None
    root = _prepared(text, shown)
    found = sanitise_problems(root)
    if found:
        raise AetherpressError([Problem(shown, message, line) for line, message in found])
    return etree.tostring(root, encoding="unicode")


def art_uri(data: bytes, shown: str) -> str:
    """The drawing as a ``data:image/svg+xml`` address (see :func:`read_art`)."""
    return SVG_URI + base64.b64encode(read_art(data, shown).encode("utf-8")).decode("ascii")


def _view_box(art: etree._Element) -> str:
    """The drawing's viewBox, or one made from its size (user units are CSS pixels without one)."""
    if art.get("viewBox"):
        return art.get("viewBox", "")
    width, height = svg_length_px(art.get("width")), svg_length_px(art.get("height"))
    if width and height:
        return f"0 0 {decimal(width, 4)} {decimal(height, 4)}"
    box = object_box(art, {el.get("id"): el for el in art.iter() if isinstance(el.tag, str) and el.get("id")})
    if box and box[2] > 0 and box[3] > 0:
        return " ".join(decimal(v, 4) for v in box)
    return "0 0 100 100"


def _own_ids(art: etree._Element, prefix: str) -> None:
    """Every id of the drawing prefixed, and every reference to one of them."""
    ids = {el.get("id") for el in art.iter() if isinstance(el.tag, str) and el.get("id")}
    if not ids:
        return

    def swap(value: str) -> str:
        return _URL.sub(lambda m: f"url(#{prefix}{m.group(2)})" if m.group(2) in ids else m.group(0), value)

    for el in art.iter():
        if not isinstance(el.tag, str):
            continue
        for name, value in list(el.attrib.items()):
            if name == "id":
                el.set(name, prefix + value)
            elif name in ("href", f"{{{XLINK_NS}}}href") and value.startswith("#") and value[1:] in ids:
                el.set(name, "#" + prefix + value[1:])
            elif "url(" in value:
                el.set(name, swap(value))


def _placed(image: etree._Element, art: etree._Element, prefix: str) -> etree._Element:
    """The drawing as a nested ``<svg>`` where ``image`` stood."""
    _own_ids(art, prefix)
    nested = etree.Element(f"{{{SVG_NS}}}svg")
    for name, value in art.attrib.items():  # what the drawing's root says of all it holds (Figma's fill="none")
        if name not in (*_SIZE, "viewBox", "preserveAspectRatio", "version", "baseProfile", "id"):
            nested.set(name, value)
    for name in _SIZE:
        if image.get(name) is not None:
            nested.set(name, image.get(name, ""))
    nested.set("viewBox", _view_box(art))
    nested.set("preserveAspectRatio", image.get("preserveAspectRatio") or "xMidYMid meet")
    nested.text = art.text
    for child in list(art):
        nested.append(child)
    if not any(image.get(name) for name in _PLACED):
        return nested
    group = etree.Element(f"{{{SVG_NS}}}g")
    for name in _PLACED:
        if image.get(name) is not None:
            group.set(name, image.get(name, ""))
    group.append(nested)
    return group


def inline_art(root: etree._Element) -> bool:
    """Every ``<image>`` of ``root`` showing ``data:image/svg+xml`` replaced by its drawing; whether any was.
    Raises :class:`ArtError` (with the image's line in ``line``) for a drawing that cannot be read."""
    images = [
        el
        for el in root.iter(f"{{{SVG_NS}}}image")
        if any((el.get(n) or "").lstrip().startswith("data:image/svg+xml") for n in ("href", f"{{{XLINK_NS}}}href"))
    ]
    for n, image in enumerate(images):
        uri = (image.get("href") or image.get(f"{{{XLINK_NS}}}href") or "").strip()
        try:
            if not uri.startswith(SVG_URI):
                raise ArtError("an SVG picture must be written as data:image/svg+xml;base64,...", image.sourceline)
            text = base64.b64decode(uri[len(SVG_URI) :], validate=True).decode("utf-8")
            art = _prepared(text, "an SVG picture")
        except AetherpressError as exc:
            raise ArtError(f"an SVG picture {exc.problems[0].message}", image.sourceline) from None
        except (ValueError, UnicodeDecodeError):
            raise ArtError("an SVG picture that cannot be decoded", image.sourceline) from None
        parent = image.getparent()
        if parent is None:
            continue
        placed = _placed(image, art, f"art{n + 1}-")
        placed.tail = image.tail
        parent.replace(image, placed)
    return bool(images)


__all__ = ["SVG_URI", "ArtError", "art_uri", "inline_art", "read_art"]
