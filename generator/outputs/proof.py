"""Contact sheets: every face of a deck and its backs on one PNG, for review at a glance.

Each card is drawn once (copies are not repeated) at its trim size with the
style's corner radius, as it will look once cut, captioned with its id.  The
sheet is laid out as a one-page PDF and rendered to PNG with pdfium, so it
goes through the same drawing path as the print files; the bytes are the same
on every run.
"""

from __future__ import annotations

import io
import math
from functools import partial
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..definitions.model import Deck
from ..faces.drawn import SideSource
from ..project.files import write_bytes
from ..render.colour import colour_converter
from ..render.placed import fill_sides, use_side
from ..render.vector import font_files, side_pdf
from ..resources.fonts import DEFAULT_FONT, font_book, font_name, register_fonts

_GUTTER = 5.0  # mm between cards
_CAPTION = 4.0  # mm under each card for its id
_MARGIN = 8.0
HEADER = 12.0
BACKGROUND = (0.86, 0.86, 0.85)


def _proof_pdf(source: SideSource, deck: Deck, columns: int | None = None, greyscale: bool = False, draft: bool = False) -> bytes:
    """A one-page PDF with every face and every back of ``deck`` in a grid (pictures and all in grey with ``greyscale``)."""
    register_fonts()
    faces = source.sides(deck, draft=draft)
    fonts = font_files(font_book(source.project))
    g = faces.renderer.geometry
    items: list[tuple[str, str]] = [(card.id, faces.side(card, "front").svg) for card in deck.cards]
    backs_seen: set[str] = set()
    for card in deck.cards:
        name = deck.back_for(card)
        if name not in backs_seen:
            backs_seen.add(name)
            items.append((f"back: {name}", faces.side(card, "back").svg))
    if not deck.cards:
        items.append((f"back: {deck.back_template}", faces.side(None, "back").svg))
    n = len(items)
    cols = columns or max(1, min(10, math.ceil(math.sqrt(n * g.trim_h / g.trim_w * 0.75))))
    rows = math.ceil(n / cols)
    cell_w, cell_h = g.trim_w + _GUTTER, g.trim_h + _CAPTION + _GUTTER
    page_w = 2 * _MARGIN + cols * cell_w - _GUTTER
    page_h = 2 * _MARGIN + HEADER + rows * cell_h - _GUTTER
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(page_w * mm, page_h * mm), invariant=1, initialFontName=DEFAULT_FONT, initialFontSize=10)
    canvas.setTitle(f"{deck.title} ({deck.key}) - contact sheet")
    canvas.setCreator("Aetherpress")
    canvas.setFillColorRGB(*BACKGROUND)
    canvas.rect(0, 0, page_w * mm, page_h * mm, stroke=0, fill=1)
    canvas.setFillColorRGB(0.15, 0.15, 0.15)
    canvas.setFont(font_name("Cinzel", "bold"), 14)
    canvas.drawString(_MARGIN * mm, (page_h - _MARGIN - 6) * mm, deck.title)
    canvas.setFont(DEFAULT_FONT, 10)
    canvas.drawRightString(
        (page_w - _MARGIN) * mm,
        (page_h - _MARGIN - 6) * mm,
        f"{deck.key} · {len(deck.cards)} faces, {deck.card_count} cards · {g.trim_w:g} × {g.trim_h:g} mm, bleed {g.bleed:g} mm",
    )
    radius = min(g.radius, g.trim_w / 2, g.trim_h / 2)
    for i, (label, svg) in enumerate(items):
        col, row = i % cols, i // cols
        x = _MARGIN + col * cell_w
        top = _MARGIN + HEADER + row * cell_h
        y = page_h - top - g.trim_h  # bottom of the trim, from the page bottom
        piece = partial(side_pdf, svg, f"{deck.source} {label}", None, fonts, colour_converter(greyscale))
        canvas.saveState()
        path = canvas.beginPath()
        path.roundRect(x * mm, y * mm, g.trim_w * mm, g.trim_h * mm, radius * mm)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.translate((x - g.bleed) * mm, (y - g.bleed) * mm)
        use_side(canvas, f"side{i}", (g.width, g.height), piece)
        canvas.restoreState()
        canvas.setStrokeColorRGB(0.55, 0.55, 0.55)
        canvas.setLineWidth(0.3)
        canvas.roundRect(x * mm, y * mm, g.trim_w * mm, g.trim_h * mm, radius * mm, stroke=1, fill=0)
        canvas.setFillColorRGB(0.2, 0.2, 0.2)
        canvas.setFont(DEFAULT_FONT, 7)
        canvas.drawCentredString((x + g.trim_w / 2) * mm, (y - _CAPTION + 1.2) * mm, label)
    canvas.showPage()
    canvas.save()
    return fill_sides(canvas, buffer.getvalue())


def proof_png(source: SideSource, deck: Deck, dpi: float = 72.0, greyscale: bool = False, draft: bool = False) -> bytes:
    """The contact sheet as PNG bytes at ``dpi`` (screen resolution by default)."""
    # pdfium loads only for rasters
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(_proof_pdf(source, deck, greyscale=greyscale, draft=draft))
    try:
        image = document[0].render(scale=dpi / 72.0).to_pil().convert("RGB")
    finally:
        document.close()
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def write_proof(
    source: SideSource, deck: Deck, folder: Path, dpi: float = 72.0, greyscale: bool = False, draft: bool = False
) -> Path:
    """Write ``<folder>/<slug>-proof.png`` (``folder``: the deck's output folder) and return its path."""
    return write_bytes(folder / f"{deck.slug}-proof.png", proof_png(source, deck, dpi, greyscale, draft))
