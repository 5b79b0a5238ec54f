"""What drawing programs write that draws nothing, taken out of a card's SVG before it is checked.

Inkscape, Illustrator, Affinity Designer and Figma save a drawing with more
than a browser draws: an XML declaration and a DOCTYPE (which a pasted file
puts in the middle of a card), editor namespaces (``inkscape:``,
``sodipodi:``, ``serif:``, Adobe's), ``<metadata>``, and CSS properties no
browser draws SVG by (``-inkscape-font-specification``, ``line-height``,
``font-variant-caps: normal`` ...; see ``[inert]`` in ``allowlist.toml``).
A browser ignores all of it, so it is dropped here, silently, and the SVG the
preview shows and every print draws is the same without it.  What would draw
(a script, a foreign object, a reference outside the card, a property that
changes the drawing) is not touched: the sanitiser refuses it.

A nested ``<svg>`` whose size is given in physical units (``width="56mm"``,
as Inkscape saves a drawing) is given that size on the card: in a card drawn
in millimetres a browser would read 56 mm as 56 x 96/25.4 user units, 3.78
times too large.
"""

from __future__ import annotations

import re

from lxml import etree

from ..resources.allowlist import allow_list
from ..resources.fonts import GENERIC_FAMILIES, all_families, css_family, first_family
from ..units import CSS_PX, MM_PER_INCH, decimal, svg_length_px
from .sanitise import SVG_NS, XLINK_NS, XML_NS
from .svgrefs import prop_value, set_prop

_XML_DECLARATION = re.compile(r"<\?xml(?=\s)[^>]*\?>")
_PLAIN_DOCTYPE = re.compile(r"<!DOCTYPE\s+svg\b[^\[>]*>", re.I)
_BOM = re.compile("\ufeff(?=\\s*<)")
_KEPT_NAMESPACES = (None, SVG_NS, XML_NS)
_PHYSICAL = ("mm", "cm", "in", "pt", "pc")


def clean_text(text: str) -> str:
    """``text`` without XML declarations, plain SVG DOCTYPEs (no internal subset) and byte-order marks, wherever
    they stand (a drawing pasted into a template brings its own)."""
    if "<?xml" in text:
        text = _XML_DECLARATION.sub("", text)
    if "<!" in text:
        text = _PLAIN_DOCTYPE.sub("", text)
    if "\ufeff" in text:
        text = _BOM.sub("", text)
    return text


def _inert_declaration(name: str, value: str) -> bool:
    """Whether the CSS declaration ``name: value`` draws nothing in a browser (see ``[inert]``)."""
    listed = allow_list()
    if name in listed.inert_properties:
        return True
    initial = listed.initial.get(name)
    return initial is not None and value.strip().lower().replace("!important", "").strip() in initial


def drop_inert_css(style: str) -> str:
    """A ``style`` attribute's declarations without those that draw nothing (the rest as written)."""
    kept = []
    for declaration in style.split(";"):
        name, colon, value = declaration.partition(":")
        if colon and _inert_declaration(name.strip().lower(), value):
            continue
        if declaration.strip():
            kept.append(declaration.strip())
    return ";".join(kept)


_CURRENT_COLOUR = re.compile(r"\bcurrentcolor\b", re.I)
_COLOUR_NAMES = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")


def _drop_attributes(el: etree._Element, unit_mm: float | None) -> bool:
    changed = False
    for name in _COLOUR_NAMES:  # CSS reads the keyword in any case, the print renderer only as currentColor
        value = el.get(name)
        if value is not None and value.strip().lower() == "currentcolor" and value.strip() != "currentColor":
            el.set(name, "currentColor")
            changed = True
    style = el.get("style")
    if style and "currentcolor" in style.lower() and _CURRENT_COLOUR.sub("currentColor", style) != style:
        el.set("style", _CURRENT_COLOUR.sub("currentColor", style))
        changed = True
    for name in list(el.attrib):
        qname = etree.QName(name)
        foreign = qname.namespace not in _KEPT_NAMESPACES and not (qname.namespace == XLINK_NS and qname.localname == "href")
        if foreign or (qname.namespace is None and _inert_declaration(qname.localname, el.attrib[name])):
            del el.attrib[name]
            changed = True
    style = el.get("style")
    if style is not None and (";" in style or ":" in style):
        kept = drop_inert_css(style)
        if kept != style.strip().rstrip(";"):
            if kept:
                el.set("style", kept)
            else:
                del el.attrib["style"]
            changed = True
    if unit_mm and etree.QName(el).localname == "svg" and el.getparent() is not None:
        changed = _physical_size(el, unit_mm) or changed
    return changed


def _physical_size(el: etree._Element, unit_mm: float) -> bool:
    """A nested ``<svg>``'s x, y, width and height in physical units as the card's user units (``unit_mm`` mm each)."""
    changed = False
    for name in ("x", "y", "width", "height"):
        value = (el.get(name) or "").strip().lower()
        if value.endswith(_PHYSICAL):
            px = svg_length_px(value)
            if px is not None:
                el.set(name, decimal(px / CSS_PX["mm"] / unit_mm, 4))
                changed = True
    return changed


def card_unit_mm(root: etree._Element) -> float | None:
    """Millimetres in a user unit of a card whose width is given in millimetres over a viewBox; None otherwise."""
    width = svg_length_px(root.get("width"))
    view = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        view_width = float(view[2]) if len(view) == 4 else 0.0
    except ValueError:
        return None
    if width is None or view_width <= 0:
        return None
    return width * MM_PER_INCH / 96 / view_width


def clean_tree(root: etree._Element) -> bool:
    """Drop from the parsed ``root`` what draws nothing (see the module's words); whether anything changed."""
    changed = False
    inert = allow_list().inert_elements
    unit_mm = card_unit_mm(root)
    for el in list(root.iter()):
        if el is not root and el.getparent() is None:
            continue  # inside something already dropped
        if not isinstance(el.tag, str):
            continue
        qname = etree.QName(el)
        if el is not root and (qname.namespace != SVG_NS or qname.localname in inert):
            if qname.localname in ("script", "foreignObject") or qname.namespace in ("http://www.w3.org/1999/xhtml",):
                continue  # never silently: the sanitiser names it
            _remove(el)
            changed = True
            continue
        changed = _drop_attributes(el, unit_mm) or changed
    return changed


def name_families(root: etree._Element, fonts) -> bool:
    """A ``font-family`` that names a face by its PostScript name (``'SourceSans3-Bold'``, as Illustrator writes
    it), which neither a browser nor the print renderer finds, given as its family, weight and style."""
    changed = False
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        family = first_family(prop_value(el, "font-family"))
        if not family or family in fonts:
            continue
        face = fonts.face_named(family)
        if face is None:
            continue
        named = {"font-family": css_family(face[0]), "font-weight": face[1], "font-style": face[2]}
        for key, found in named.items():
            set_prop(el, key, found)
        changed = True
    return changed


def settle_families(root: etree._Element, fonts, fallback: str) -> tuple[bool, list[str]]:
    """Every ``font-family`` made to name first a family of ``fonts``, and every text that inherits none given
    ``fallback``: whether anything changed, and what to tell (a drawing placed in the side brings the lines of its
    own file, so no line is told).

    The print renderer has the project's fonts alone and draws nothing for a text whose families it has none of
    (a drawing's ``'MyriadPro-Regular'``, a bare ``serif``, no family at all), where a browser falls back to a font
    of the machine it runs on.  So a family the project has not got is replaced by the first the value names that
    it has, else by ``fallback``, and the preview and every print draw the text alike; a family named and
    replaced is told, with how to keep it."""
    changed, told = False, []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        value = prop_value(el, "font-family")
        if value is None:
            if etree.QName(el).localname == "text" and not any(prop_value(up, "font-family") for up in el.iterancestors()):
                el.set("font-family", css_family(fallback))
                changed = True
            continue
        names = all_families(value)
        if names and names[0] in fonts:
            continue
        chosen = next((name for name in names if name in fonts), fallback)
        named = [name for name in names if name.lower() not in GENERIC_FAMILIES]
        if named and named[0] not in fonts:
            told.append(
                f"font '{named[0]}' is not one of the project's fonts: its text is drawn in '{chosen}', on screen "
                f"as in print (put the font's file in fonts/, or turn the text to paths, to keep it)"
            )
        set_prop(el, "font-family", css_family(chosen))
        changed = True
    return changed, told


def _remove(el: etree._Element) -> None:
    """``el`` taken out, its tail text kept in place."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


__all__ = ["card_unit_mm", "clean_text", "clean_tree", "drop_inert_css", "name_families", "settle_families"]
