"""Card PDFs: one page per card side, trim plus bleed, with TrimBox and BleedBox (print shops, PNG)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.lib.units import mm

from ..definitions.model import Card, Deck
from ..faces.drawn import SideSource
from ..faces.keys import font_inputs
from ..units import format_mm
from .canvas import new_canvas
from .colour import colour_converter
from .forms import Forms
from .pdfx import make_pdfx
from .presspiece import Press
from .sheetpdf import Progress, job_cards
from .vector import SHEET_DPI


def draw_card_pages(
    source: SideSource,
    deck: Deck,
    bleed: float,
    sides: Sequence[tuple[Card, str]],
    greyscale: bool = False,
    progress: Progress | None = None,
    press: Press | None = None,
    dpi: float = SHEET_DPI,
) -> bytes:
    """A PDF with one page per (card, "front"|"back"): trim plus ``bleed``, TrimBox and BleedBox set, filters drawn
    at ``dpi``.

    With ``press`` every side is drawn as a print shop takes it (:mod:`.presspiece`):
    process CMYK through its profile (``greyscale`` is the converter's own
    setting), transparency flattened at the press's resolution.
    """
    process = press.process if press is not None else None
    drawn = source.sides(deck, bleed=bleed)
    g = drawn.renderer.geometry
    buffer = io.BytesIO()
    boxes = {
        "trimBox": (bleed * mm, bleed * mm, (bleed + g.trim_w) * mm, (bleed + g.trim_h) * mm),
        "bleedBox": (0, 0, g.width * mm, g.height * mm),
    }
    canvas = new_canvas(
        buffer,
        (g.width, g.height),
        f"{deck.title} ({deck.key}) - cards with bleed",
        deck.description,
        f"{deck.key}, {format_mm(bleed, 3)} mm bleed"
        + (", greyscale" if greyscale or (process and process.greyscale) else "")
        + (f", CMYK, {process.profile.description}, ink limit {process.ink_limit * 100:g} %" if process else ""),
        process=process is not None,
        **boxes,
    )
    forms = Forms(canvas, [drawn], process or colour_converter(greyscale), press, dpi, source.kept_bytes, source.piece)
    if not sides:
        canvas.showPage()
    for n, (card, side) in enumerate(sides):
        forms.draw(forms.side(0, card, side), card)
        canvas.showPage()
        if progress:
            progress(n + 1, len(sides))
    canvas.save()
    return forms.filled(buffer.getvalue())


CARD_PAGES = "card-pages"  # the store's kind of a file of card pages as designed (PNG exports, proofs)


def card_pdf_bytes(
    source: SideSource,
    deck: Deck,
    bleed: float,
    sides: Sequence[tuple[Card, str]],
    greyscale: bool = False,
    dpi: float = SHEET_DPI,
) -> bytes:
    """:func:`draw_card_pages` as designed (no press), kept: the pages a PNG export, a shop's PNGs and the design
    of a shop's proof share are drawn once (from the SVG of each side, so a picture replaced draws them again)."""
    drawn = source.sides(deck, bleed=bleed)
    pages = [[side, card.id, deck.back_for(card), drawn.side(card, side).svg] for card, side in sides]
    inputs = ["card pages", font_inputs(source.project), deck.key, deck.title, deck.description, bleed, pages, greyscale, dpi]
    return source.kept_bytes(CARD_PAGES, inputs, lambda: draw_card_pages(source, deck, bleed, sides, greyscale, dpi=dpi))


def shop_pdf_bytes(
    source: SideSource, deck: Deck, bleed: float, press: Press, copies: int = 1, progress: Progress | None = None
) -> bytes:
    """Every printed card as two pages, back then front (the DriveThruCards order), with ``bleed``,
    as the press takes them (not yet PDF/X: see :mod:`.pdfx`)."""
    sides = [(job.card, side) for job in job_cards([deck], copies) for side in ("back", "front")]
    return draw_card_pages(source, deck, bleed, sides, progress=progress, press=press)


def shop_pdfx(source: SideSource, deck: Deck, bleed: float, press: Press, level: str = "4", copies: int = 1) -> bytes:
    """The shop's file as PDF/X ``level``: every side with nothing transparent left (see :mod:`.presspiece`)."""
    return make_pdfx(shop_pdf_bytes(source, deck, bleed, press, copies), press.process.profile, level)
