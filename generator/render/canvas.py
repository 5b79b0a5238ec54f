"""A reproducible reportlab canvas that names only embedded fonts."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..resources.fonts import DEFAULT_FONT, register_fonts


def new_canvas(
    target, pagesize_mm: tuple[float, float], title: str, subject: str = "", keywords: str = "", process: bool = False, **boxes
) -> Canvas:
    """A reproducible canvas; with ``process`` every colour must be CMYK (reportlab refuses RGB)."""
    register_fonts()
    extra = {"enforceColorSpace": "cmyk"} if process else {}
    canvas = Canvas(
        str(target) if isinstance(target, Path) else target,
        pagesize=(pagesize_mm[0] * mm, pagesize_mm[1] * mm),
        invariant=1,
        pageCompression=1,
        initialFontName=DEFAULT_FONT,
        initialFontSize=10,
        **extra,
        **boxes,
    )
    canvas.setTitle(title)
    canvas.setAuthor("Aetherpress")
    canvas.setCreator("Aetherpress")
    canvas.setSubject(subject)
    canvas.setKeywords(keywords)
    return canvas
