"""Card PDFs: one page per card side, trim plus bleed, with TrimBox and BleedBox (print shops, PNG)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.lib.units import mm

from ..definitions.model import Card, Deck
from ..faces.render import FaceRenderer
from ..project import Project
from ..units import format_mm
from .canvas import new_canvas
from .colour import ProcessColour, colour_converter
from .forms import Forms
from .pdfx import FLATTEN_DPI, make_pdfx
from .sheetpdf import Progress, job_cards
from .textlayer import OVER, UNDER


def draw_card_pages(
    project: Project,
    deck: Deck,
    bleed: float,
    sides: Sequence[tuple[Card, str]],
    greyscale: bool = False,
    progress: Progress | None = None,
    process: ProcessColour | None = None,
    text_layer: str | None = None,
) -> bytes:
    """A PDF with one page per (card, "front"|"back"): trim plus ``bleed``, TrimBox and BleedBox set.

    With ``process`` every colour and picture is drawn in process CMYK through
    its profile (and ``greyscale`` is the converter's own setting); with
    ``text_layer`` only that layer of each side (:mod:`.textlayer`).
    """
    faces = FaceRenderer(project, deck, bleed=bleed)
    g = faces.geometry
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
    forms = Forms(canvas, [deck], [faces], process or colour_converter(greyscale), text_layer)
    if not sides:
        canvas.showPage()
    for n, (card, side) in enumerate(sides):
        forms.draw(forms.side(0, card, side), card)
        canvas.showPage()
        if progress:
            progress(n + 1, len(sides))
    canvas.save()
    return forms.filled(buffer.getvalue())


def card_pdf_bytes(
    project: Project, deck: Deck, bleed: float, sides: Sequence[tuple[Card, str]], greyscale: bool = False
) -> bytes:
    return draw_card_pages(project, deck, bleed, sides, greyscale)


def shop_pdf_bytes(
    project: Project,
    deck: Deck,
    bleed: float,
    process: ProcessColour,
    copies: int = 1,
    progress: Progress | None = None,
    text_layer: str | None = None,
) -> bytes:
    """Every printed card as two pages, back then front (the DriveThruCards order), with ``bleed``,
    in process CMYK (not yet PDF/X: see :mod:`.pdfx`)."""
    sides = [(job.card, side) for job in job_cards([deck], copies) for side in ("back", "front")]
    return draw_card_pages(project, deck, bleed, sides, progress=progress, process=process, text_layer=text_layer)


def shop_pdfx(
    project: Project,
    deck: Deck,
    bleed: float,
    process: ProcessColour,
    level: str = "4",
    copies: int = 1,
    dpi: float = FLATTEN_DPI,
) -> bytes:
    """The shop's file as PDF/X ``level``.  PDF/X-1a is flattened at ``dpi``, with each side's text that
    nothing transparent touches set over the flattened picture as text."""
    if level == "4":  # PDF/X-1a (2001 or 2003) is flattened
        return make_pdfx(shop_pdf_bytes(project, deck, bleed, process, copies), process.profile, level)
    under = shop_pdf_bytes(project, deck, bleed, process, copies, text_layer=UNDER)
    over = shop_pdf_bytes(project, deck, bleed, process, copies, text_layer=OVER)
    return make_pdfx(under, process.profile, level, over=over, dpi=dpi)
