"""Card SVG to reportlab drawings (through svglib), each converted once per process.

The SVG is read by :func:`~generator.faces.svg.parse_svg` first, so nothing
that refers outside the card reaches svglib.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from functools import lru_cache

from reportlab import rl_config
from reportlab.graphics.shapes import Drawing, Group, Image
from svglib import svglib as svglib_module
from svglib.svglib import SvgRenderer
from svglib.utils import normalise_svg_path as _svglib_normalise

from ..errors import AetherpressError, Problem
from ..faces.fonts import DEFAULT_FONT, register_fonts
from ..faces.svg import parse_svg

logging.getLogger("svglib").setLevel(logging.CRITICAL)


@lru_cache(maxsize=4096)
def _normalised_path(d: str) -> list:
    return _svglib_normalise(d)


def _speed_up_svglib() -> None:
    """Card faces repeat the same path data (symbols, frames) many times: parse each once.

    svglib's converter only reads the normalised path, so sharing the result is safe.
    """
    if svglib_module.normalise_svg_path is not _normalised_path:
        svglib_module.normalise_svg_path = _normalised_path


_DRAWINGS: OrderedDict[tuple, Drawing] = OrderedDict()
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
    ``color_converter`` maps every colour (greyscale builds use one), and its
    ``picture`` method, when it has one, every embedded picture.
    """
    register_fonts()
    _speed_up_svglib()
    root = parse_svg(svg_text, source, place)
    renderer = SvgRenderer(source, color_converter=color_converter, external_reference_root="/nonexistent-aetherpress-root")
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
    if hasattr(color_converter, "picture"):
        _convert_pictures(drawing, color_converter.picture)
    return drawing


def _convert_pictures(node, convert) -> None:
    """Pass every embedded picture of the drawing through ``convert`` (greys, CMYK), as its colours were."""
    for child in getattr(node, "contents", []):
        if isinstance(child, Image) and hasattr(child.path, "mode"):
            child.path = convert(child.path)
        elif isinstance(child, Group):
            _convert_pictures(child, convert)
