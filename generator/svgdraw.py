"""SVG text to reportlab drawings, safely: no entities, no network, no files."""
from __future__ import annotations

import logging

from lxml import etree
from reportlab.graphics.shapes import Drawing
from svglib.svglib import SvgRenderer

from .errors import AetherpressError, Problem
from .fonts import DEFAULT_FONT, register_fonts

logging.getLogger("svglib").setLevel(logging.CRITICAL)

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                          remove_comments=True, huge_tree=False)


def parse_svg(svg_text: str, source: str) -> etree._Element:
    try:
        root = etree.fromstring(svg_text.encode("utf-8"), parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        line = getattr(exc, "lineno", None) or (exc.position[0] if getattr(exc, "position", None) else None)
        raise AetherpressError(Problem(source, f"the SVG does not parse: {exc.msg}", line)) from None
    if etree.QName(root).localname != "svg":
        raise AetherpressError(Problem(source, "the template's output is not an <svg> document"))
    return root


def svg_to_drawing(svg_text: str, source: str) -> Drawing:
    """A reportlab Drawing of the SVG, sized in points from its mm width and height."""
    register_fonts()
    root = parse_svg(svg_text, source)
    renderer = SvgRenderer(source, external_reference_root="/nonexistent-aetherpress-root")
    drawing = renderer.render(root)
    drawing.initialFontName = DEFAULT_FONT
    return drawing
