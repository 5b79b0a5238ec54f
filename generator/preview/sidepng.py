"""A side as a PNG: the SVG drawn into a one-page PDF as the print files draw it, rendered by pdfium."""

from __future__ import annotations

from collections.abc import Iterable

from ..faces.render import Geometry
from ..render.pagepng import png_bytes, render_pages
from ..render.vector import side_pdf
from ..units import pixels

_PREVIEW_DPI = 300


def side_png(svg: str, geometry: Geometry, source: str, fonts: Iterable[str], dpi: float = _PREVIEW_DPI) -> bytes:
    """The side with its bleed at ``dpi`` (300: what print shops ask for), set in ``fonts``, as PNG bytes."""
    size = (pixels(geometry.width, dpi), pixels(geometry.height, dpi))
    image = next(iter(render_pages(side_pdf(svg, source, None, fonts), size)))
    return png_bytes(image, dpi)
