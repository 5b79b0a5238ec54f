"""SVG text to reportlab drawings, safely: no entities, no network, no files.

A card's SVG may only refer to things inside itself (``#id``) or carry data
inline (``data:image/png;base64,...``).  A DOCTYPE, an entity, or a reference
to a file or a web address is refused with an error naming the element's line.
"""
from __future__ import annotations

import logging
from collections import OrderedDict
import re

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
_LOCAL_REF = re.compile(r"^\s*(#[^\s]*|data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]*)\s*$")
_URL_IN_STYLE = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]+)")
MAX_SVG_BYTES = 5_000_000


def parse_svg(svg_text: str, source: str, place: str | None = None) -> etree._Element:
    """Parse and check an SVG; problems name ``source`` (a file) and ``place`` (e.g. a card)."""
    try:
        return _parse_svg(svg_text, source)
    except AetherpressError as exc:
        if place is None:
            raise
        raise AetherpressError([Problem(p.file, p.message, p.line, place) for p in exc.problems]) from None


def _parse_svg(svg_text: str, source: str) -> etree._Element:
    data = svg_text.encode("utf-8")
    if len(data) > MAX_SVG_BYTES:
        raise AetherpressError(Problem(source, f"the SVG is larger than {MAX_SVG_BYTES // 1_000_000} MB"))
    if re.search(rb"<!(DOCTYPE|ENTITY)", data, re.I):
        line = data[: re.search(rb"<!(DOCTYPE|ENTITY)", data, re.I).start()].count(b"\n") + 1
        raise AetherpressError(Problem(source, f"the SVG declares a DOCTYPE or entities (output line {line}), which are not allowed; remove the <!DOCTYPE ...> block"))
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        message = re.sub(r", line \d+, column \d+$", "", exc.msg)
        raise AetherpressError(Problem(source, f"the SVG it makes does not parse: {message} (output line {exc.lineno})")) from None
    if not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        raise AetherpressError(Problem(source, "the template's output is not an <svg> document"))
    _check_references(root, source)
    return root


def _check_references(root: etree._Element, source: str) -> None:
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            local = etree.QName(name).localname
            refs = []
            if local == "href":
                refs.append(value)
            elif local == "style" or "url(" in value:
                refs.extend(_URL_IN_STYLE.findall(value))
            for ref in refs:
                if not _LOCAL_REF.match(ref) and not (local != "href" and ref.startswith("#")):
                    shown = ref if len(ref) < 60 else ref[:57] + "..."
                    raise AetherpressError(Problem(
                        source, f"<{etree.QName(element).localname}> (output line {element.sourceline}) refers to "
                        f"'{shown}'; a card may only use '#id' references and inline data:image/png or data:image/jpeg images"))
        if etree.QName(element).localname == "style" and element.text and re.search(r"@import|url\(\s*['\"]?\s*[^#'\"\s)]", element.text):
            raise AetherpressError(Problem(source, f"<style> (output line {element.sourceline}) may not import or load anything"))


@lru_cache(maxsize=4096)
def _normalised_path(d: str) -> list:
    return _svglib_normalise(d)


def _speed_up_svglib() -> None:
    """Card faces repeat the same path data (symbols, frames) many times: parse each once.

    svglib's converter only reads the normalised path, so sharing the result is safe.
    """
    if svglib_module.normalise_svg_path is not _normalised_path:
        svglib_module.normalise_svg_path = _normalised_path


_DRAWINGS: "OrderedDict[tuple, Drawing]" = OrderedDict()
_DRAWINGS_KEPT = 512


def svg_to_drawing(svg_text: str, source: str, place: str | None = None, color_converter=None) -> Drawing:
    """A reportlab Drawing of the SVG (see :func:`_svg_to_drawing`), converted once per process.

    A deck's faces are drawn into several files (A4 and Letter sheets, card PDFs,
    contact sheets); the same SVG text gives the same drawing, which reportlab
    only reads, so recent conversions are kept and shared.
    """
    key = (svg_text, color_converter)
    drawing = _DRAWINGS.get(key)
    if drawing is None:
        drawing = _svg_to_drawing(svg_text, source, place, color_converter)
        _DRAWINGS[key] = drawing
        if len(_DRAWINGS) > _DRAWINGS_KEPT:
            _DRAWINGS.popitem(last=False)
    else:
        _DRAWINGS.move_to_end(key)
    return drawing


def _svg_to_drawing(svg_text: str, source: str, place: str | None = None, color_converter=None) -> Drawing:
    """A reportlab Drawing of the SVG, sized in points from its mm width and height.

    ``source`` names the file the SVG came from (its template), ``place`` what
    was being drawn (``card 'fox'``); both appear in any error.  A
    ``color_converter`` maps every colour (greyscale builds use one).
    """
    register_fonts()
    _speed_up_svglib()
    root = parse_svg(svg_text, source, place)
    renderer = SvgRenderer(source, color_converter=color_converter,
                           external_reference_root="/nonexistent-aetherpress-root")
    # reportlab checks every attribute set on a shape against its schema, which costs
    # about a fifth of the conversion; svglib sets only valid attributes.
    checking = rl_config.shapeChecking
    rl_config.shapeChecking = 0
    try:
        drawing = renderer.render(root)
    except AetherpressError:
        raise
    except Exception as exc:
        raise AetherpressError(Problem(source, f"the SVG could not be drawn: {exc}", key=place)) from None
    finally:
        rl_config.shapeChecking = checking
    drawing.initialFontName = DEFAULT_FONT
    return drawing
