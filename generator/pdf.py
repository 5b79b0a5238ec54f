"""Print sheets: a deck's faces in a grid per page, with backs on the following page.

Vector all the way: each card's SVG becomes a reportlab drawing placed at
its trim position and clipped to the trim; a back shared by many cards is
stored once as a form XObject.  Files are reproducible (``invariant``).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .errors import AetherpressError, Problem
from .faces import FaceRenderer
from .fonts import DEFAULT_FONT, register_fonts
from .model import Card, Deck
from .project import Project
from .svgdraw import svg_to_drawing
from .writers import atomic_output

A4 = (210.0, 297.0)


@dataclass(frozen=True)
class SheetLayout:
    paper: tuple[float, float] = A4
    margin: float = 5.0
    crop: float = 4.0  # length of crop marks, mm

    def grid(self, card_w: float, card_h: float) -> tuple[int, int, float, float]:
        """(columns, rows, left, top) of a centred grid of cards touching each other."""
        usable_w = self.paper[0] - 2 * self.margin
        usable_h = self.paper[1] - 2 * self.margin
        cols, rows = int(usable_w // card_w), int(usable_h // card_h)
        if cols < 1 or rows < 1:
            raise AetherpressError(Problem(
                "layout", f"a {card_w:g} x {card_h:g} mm card does not fit on {self.paper[0]:g} x {self.paper[1]:g} mm paper "
                f"with {self.margin:g} mm margins; choose larger paper or a smaller card size"))
        left = (self.paper[0] - cols * card_w) / 2
        top = (self.paper[1] - rows * card_h) / 2
        return cols, rows, left, top


def _draw_card(canvas: Canvas, drawing, x_mm: float, y_mm: float, w_mm: float, h_mm: float, bleed: float) -> None:
    """Draw a bleed-sized card so its trim lands at (x, y) (top-left, mm from the page top)."""
    page_h = canvas._pagesize[1] / mm
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(x_mm * mm, (page_h - y_mm - h_mm) * mm, w_mm * mm, h_mm * mm)
    canvas.clipPath(path, stroke=0, fill=0)
    renderPDF.draw(drawing, canvas, (x_mm - bleed) * mm, (page_h - y_mm - h_mm - bleed) * mm)
    canvas.restoreState()


def _crop_marks(canvas: Canvas, xs: list[float], ys: list[float], layout: SheetLayout) -> None:
    page_h = canvas._pagesize[1] / mm
    canvas.saveState()
    canvas.setLineWidth(0.2 * mm)
    canvas.setStrokeColorRGB(0, 0, 0)
    top, bottom, left, right = ys[0], ys[-1], xs[0], xs[-1]
    gap = 1.0
    for x in xs:
        canvas.line(x * mm, (page_h - top + gap) * mm, x * mm, (page_h - top + gap + layout.crop) * mm)
        canvas.line(x * mm, (page_h - bottom - gap) * mm, x * mm, (page_h - bottom - gap - layout.crop) * mm)
    for y in ys:
        canvas.line((left - gap) * mm, (page_h - y) * mm, (left - gap - layout.crop) * mm, (page_h - y) * mm)
        canvas.line((right + gap) * mm, (page_h - y) * mm, (right + gap + layout.crop) * mm, (page_h - y) * mm)
    canvas.restoreState()


def write_sheets(project: Project, deck: Deck, target: Path, layout: SheetLayout = SheetLayout()) -> Path:
    """Write the deck's print-and-play sheets: fronts page, then mirrored backs page."""
    register_fonts()
    faces = FaceRenderer(project, deck)
    g = faces.geometry
    try:
        cols, rows, left, top = layout.grid(g.trim_w, g.trim_h)
    except AetherpressError as exc:
        raise AetherpressError(Problem(deck.source, exc.problems[0].message, key="deck.size")) from None
    per_page = cols * rows
    cards: list[Card] = [c for c in deck.cards for _ in range(c.copies)]
    with atomic_output(target) as tmp:
        canvas = Canvas(str(tmp), pagesize=(layout.paper[0] * mm, layout.paper[1] * mm), invariant=1,
                        initialFontName=DEFAULT_FONT, initialFontSize=10)
        canvas.setTitle(f"{deck.title} ({deck.key}) - print sheets")
        canvas.setAuthor("Aetherpress")
        canvas.setSubject(deck.description)
        canvas.setCreator("Aetherpress")
        back_forms: dict[str, str] = {}
        drawings = {}
        for start in range(0, len(cards), per_page):
            page = cards[start:start + per_page]
            xs = [left + i * g.trim_w for i in range(cols + 1)]
            ys = [top + j * g.trim_h for j in range(rows + 1)]
            for i, card in enumerate(page):
                col, row = i % cols, i // cols
                if card.id not in drawings:
                    drawings[card.id] = svg_to_drawing(faces.face(card), f"templates/cards/{deck.template_for(card)}.svg.j2", f"card '{card.id}' of deck '{deck.id}'")
                _draw_card(canvas, drawings[card.id], left + col * g.trim_w, top + row * g.trim_h, g.trim_w, g.trim_h, g.bleed)
            _crop_marks(canvas, xs, ys, layout)
            canvas.showPage()
            # backs, mirrored left-to-right for long-edge duplex printing
            for i, card in enumerate(page):
                col, row = cols - 1 - i % cols, i // cols
                back_name = deck.back_for(card)
                if back_name not in back_forms:
                    form = f"back-{len(back_forms)}"
                    drawing = svg_to_drawing(faces.back(card), f"templates/cards/{back_name}.svg.j2", f"back of card '{card.id}' of deck '{deck.id}'")
                    canvas.beginForm(form, lowerx=0, lowery=0, upperx=g.width * mm, uppery=g.height * mm)
                    renderPDF.draw(drawing, canvas, 0, 0)
                    canvas.endForm()
                    back_forms[back_name] = form
                page_h = layout.paper[1]
                x, y = left + col * g.trim_w, top + row * g.trim_h
                canvas.saveState()
                path = canvas.beginPath()
                path.rect(x * mm, (page_h - y - g.trim_h) * mm, g.trim_w * mm, g.trim_h * mm)
                canvas.clipPath(path, stroke=0, fill=0)
                canvas.translate((x - g.bleed) * mm, (page_h - y - g.trim_h - g.bleed) * mm)
                canvas.doForm(back_forms[back_name])
                canvas.restoreState()
            _crop_marks(canvas, xs, ys, layout)
            canvas.showPage()
        canvas.save()
    return target
