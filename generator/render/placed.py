"""Card sides on a reportlab canvas: placed as named forms now, filled with their PDF pages once the file is saved.

reportlab lays out sheets, card pages, boxes, proofs and books; the sides
themselves are drawn by :func:`~generator.render.vector.side_pdf` into PDF
pages of their own.  :func:`use_side` places a side as an empty form of its
size (once per canvas, however often it is used) and remembers how to draw
it; :func:`fill_sides` fills every such form of the saved file with its
side's page (see :func:`~generator.render.assemble.fill_forms`), so a side is
stored once in the file.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..libraries.reportlab import end_form
from .assemble import Known, fill_forms

_SIDES = "_aetherpress_sides"  # on a canvas: form name -> how to draw its side's PDF


def use_side(canvas: Canvas, name: str, size_mm: tuple[float, float], piece: Callable[[], bytes]) -> None:
    """Draw the side ``piece()`` (a one-page PDF of ``size_mm``) with its corner at the current origin, as form ``name``."""
    sides: dict[str, Callable[[], bytes]] = canvas.__dict__.setdefault(_SIDES, {})
    if name not in sides:
        canvas.beginForm(name, lowerx=0, lowery=0, upperx=size_mm[0] * mm, uppery=size_mm[1] * mm)
        end_form(canvas)
        sides[name] = piece
    canvas.doForm(name)


def fill_sides(canvas: Canvas, pdf: bytes) -> bytes:
    """``pdf``, saved from ``canvas``, with every side placed by :func:`use_side` drawn in its form."""
    sides: dict[str, Callable[[], bytes]] = canvas.__dict__.get(_SIDES, {})
    if not sides:
        return pdf
    return fill_forms(pdf, lambda name: Known({}), lambda name: sides[name](), sorted(sides))
