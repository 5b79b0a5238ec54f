"""A side as a PNG: the SVG drawn into a one-page PDF as the print files draw it, rendered by pdfium."""

from __future__ import annotations

import io

from reportlab.graphics import renderPDF

from ..faces.render import Geometry
from ..render.canvas import new_canvas
from ..render.drawing import svg_to_drawing
from ..render.raster import pixels, png_bytes, render_pages

PREVIEW_DPI = 300


def side_png(svg: str, geometry: Geometry, source: str, dpi: float = PREVIEW_DPI) -> bytes:
    """The side with its bleed at ``dpi`` (300: what print shops ask for), as PNG bytes."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (geometry.width, geometry.height), source)
    renderPDF.draw(svg_to_drawing(svg, source), canvas, 0, 0)
    canvas.showPage()
    canvas.save()
    size = (pixels(geometry.width, dpi), pixels(geometry.height, dpi))
    image = next(iter(render_pages(buffer.getvalue(), size)))
    return png_bytes(image, dpi)
