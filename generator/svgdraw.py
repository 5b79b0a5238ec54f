"""SVG text to reportlab drawings, safely: no entities, no network, no files."""
from __future__ import annotations

import logging

from lxml import etree
from functools import lru_cache

from reportlab import rl_config
from reportlab.graphics.shapes import Drawing
from svglib import svglib as svglib_module
from svglib.svglib import SvgRenderer
from svglib.utils import normalise_svg_path as _svglib_normalise

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


@lru_cache(maxsize=4096)
def _normalised_path(d: str) -> list:
    return _svglib_normalise(d)


def _speed_up_svglib() -> None:
    """Card faces repeat the same path data (symbols, frames) many times: parse each once.

    svglib's converter only reads the normalised path, so sharing the result is safe.
    """
    if svglib_module.normalise_svg_path is not _normalised_path:
        svglib_module.normalise_svg_path = _normalised_path


def svg_to_drawing(svg_text: str, source: str) -> Drawing:
    """A reportlab Drawing of the SVG, sized in points from its mm width and height."""
    register_fonts()
    _speed_up_svglib()
    root = parse_svg(svg_text, source)
    renderer = SvgRenderer(source, external_reference_root="/nonexistent-aetherpress-root")
    # reportlab checks every attribute set on a shape against its schema, which costs
    # about a fifth of the conversion; svglib sets only valid attributes.
    checking = rl_config.shapeChecking
    rl_config.shapeChecking = 0
    try:
        drawing = renderer.render(root)
    finally:
        rl_config.shapeChecking = checking
    drawing.initialFontName = DEFAULT_FONT
    return drawing
