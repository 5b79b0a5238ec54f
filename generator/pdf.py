"""Print sheets and single-card PDFs, drawn from the placements of ``sheets``.

Vector all the way: each card's SVG becomes a reportlab drawing, clipped to
its trim or to the bleed kept by the layout.  A drawing that appears more
than once (a back shared by a whole deck, a card printed in copies) is stored
once as a form XObject and referenced at every place; one that appears once
is drawn in place.  Files are reproducible (``invariant``) and name only
embedded fonts.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from reportlab.graphics import renderPDF
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .errors import AetherpressError, Problem
from .faces import FaceRenderer
from .fonts import DEFAULT_FONT, register_fonts
from .model import Card, Deck
from .project import Project
from .sheets import Item, Layout, LayoutError, Line, Outline, Page, Paper, Target, layout as lay_out
from .svgdraw import svg_to_drawing
from .writers import atomic_output
from .pdfforms import end_form

A4 = Paper("A4", 210.0, 297.0)
CROP_WIDTH = 0.2  # mm
CUT_WIDTH = 0.1
Progress = Callable[[int, int], None]

# reportlab's default ASCII85 stream encoding is kept: without it, inline images
# (a card's own picture) cannot be written into a page's content stream.


def grey(colour):
    """A colour as the grey of its luminance (Rec. 709 weights), alpha kept."""
    if colour is None or not hasattr(colour, "red"):
        return colour
    level = 0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue
    alpha = getattr(colour, "alpha", 1)
    return colors.Color(level, level, level, alpha=alpha)


INK_LIMIT = 2.4  # total area coverage DriveThruCards accepts: 240 %


def cmyk(colour, ink_limit: float = INK_LIMIT):
    """A colour as process CMYK: full grey-component replacement, then cyan, magenta and
    yellow scaled down (black kept) until the total ink is at most ``ink_limit``."""
    if colour is None or not hasattr(colour, "red"):
        return colour
    r, g, b = colour.red, colour.green, colour.blue
    k = 1.0 - max(r, g, b)
    if k >= 1.0 - 1e-9:
        c = m = y = 0.0
    else:
        c, m, y = ((1.0 - v - k) / (1.0 - k) for v in (r, g, b))
    if c + m + y + k > ink_limit:
        scale = max(ink_limit - k, 0.0) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return colors.CMYKColor(round(c, 4), round(m, 4), round(y, 4), round(k, 4), alpha=getattr(colour, "alpha", 1))


def colour_converter(greyscale: bool = False, process: bool = False):
    """How card colours are drawn: as designed (RGB), as greys, or as process CMYK."""
    if process:
        return cmyk
    return grey if greyscale else None


def card_drawing(svg_text: str, source: str, place: str | None = None, converter=None):
    """The SVG as a reportlab drawing, every colour passed through ``converter`` when given."""
    return svg_to_drawing(svg_text, source, place, color_converter=converter)


@dataclass
class JobCard:
    """One printed copy of a card: its deck (by index) and the card."""
    deck: int
    card: Card


def job_cards(decks: Sequence[Deck], copies: int = 1) -> list[JobCard]:
    """Every card of every deck, each as many times as it is printed."""
    return [JobCard(d, card) for d, deck in enumerate(decks) for card in deck.cards
            for _ in range(card.copies * copies)]


def new_canvas(target, pagesize_mm: tuple[float, float], title: str, subject: str = "",
               keywords: str = "", process: bool = False, **boxes) -> Canvas:
    """A reproducible canvas; with ``process`` every colour must be CMYK (reportlab refuses RGB)."""
    register_fonts()
    extra = {"enforceColorSpace": "cmyk"} if process else {}
    canvas = Canvas(str(target) if isinstance(target, Path) else target, pagesize=(pagesize_mm[0] * mm, pagesize_mm[1] * mm), invariant=1,
                    pageCompression=1, initialFontName=DEFAULT_FONT, initialFontSize=10, **extra, **boxes)
    canvas.setTitle(title)
    canvas.setAuthor("Aetherpress")
    canvas.setCreator("Aetherpress")
    canvas.setSubject(subject)
    canvas.setKeywords(keywords)
    return canvas


class Forms:
    """Card drawings by (deck, side, name): drawn once and stored as a form XObject
    when they appear more than once in the file, else drawn in place."""

    def __init__(self, canvas: Canvas, decks: Sequence[Deck], renderers: Sequence[FaceRenderer], converter=None,
                 uses: dict[tuple, int] | None = None):
        self.canvas = canvas
        self.decks = decks
        self.renderers = renderers
        self.converter = converter
        self.uses = uses or {}
        self.names: dict[tuple, str] = {}

    @staticmethod
    def face_key(d: int, deck: Deck, card: Card) -> tuple:
        return (d, "face", card.id)

    @staticmethod
    def back_key(d: int, deck: Deck, card: Card) -> tuple:
        return (d, "back", deck.back_for(card))

    def _drawing(self, key: tuple, card: Card):
        d, side, name = key
        deck, faces = self.decks[d], self.renderers[d]
        if side == "face":
            return card_drawing(faces.face(card), f"templates/cards/{deck.template_for(card)}.svg.j2",
                                f"card '{card.id}' of deck '{deck.id}'", self.converter)
        return card_drawing(faces.back(card), f"templates/cards/{deck.back_for(card)}.svg.j2",
                            f"back of card '{card.id}' of deck '{deck.id}'", self.converter)

    def draw(self, key: tuple, card: Card) -> None:
        """Draw the card side with its bleed corner at the current origin."""
        if self.uses.get(key, 2) < 2:
            renderPDF.draw(self._drawing(key, card), self.canvas, 0, 0)
            return
        name = self.names.get(key)
        if name is None:
            name = f"card{len(self.names)}"
            drawing = self._drawing(key, card)
            g = self.renderers[key[0]].geometry
            self.canvas.beginForm(name, lowerx=0, lowery=0, upperx=g.width * mm, uppery=g.height * mm)
            renderPDF.draw(drawing, self.canvas, 0, 0)
            end_form(self.canvas)
            self.names[key] = name
        self.canvas.doForm(name)

    def side(self, d: int, card: Card, side: str) -> tuple:
        deck = self.decks[d]
        return self.face_key(d, deck, card) if side == "front" else self.back_key(d, deck, card)


def place(canvas: Canvas, page_h: float, box: tuple[float, float, float, float],
          clip: tuple[float, float, float, float] | None, size: tuple[float, float], rotation: int,
          draw: Callable[[], None]) -> None:
    """Call ``draw`` (a w x h mm picture at the origin) centred on ``box`` (x, y, w, h mm from
    the page top), turned by ``rotation`` degrees clockwise, clipped to ``clip``."""
    x, y, w, h = box
    canvas.saveState()
    if clip is not None:
        cx, cy, cw, ch = clip
        path = canvas.beginPath()
        path.rect(cx * mm, (page_h - cy - ch) * mm, cw * mm, ch * mm)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate((x + w / 2) * mm, (page_h - y - h / 2) * mm)
    if rotation:
        canvas.rotate(-rotation)
    canvas.translate(-size[0] / 2 * mm, -size[1] / 2 * mm)
    draw()
    canvas.restoreState()


def draw_lines(canvas: Canvas, page_h: float, lines: Sequence[Line]) -> None:
    styles = {"crop": (CROP_WIDTH, (0, 0, 0), None), "fold": (CROP_WIDTH, (0.45, 0.45, 0.45), (2, 2))}
    for kind in ("fold", "crop"):
        chosen = [l for l in lines if l.kind == kind]
        if not chosen:
            continue
        width, rgb, dash = styles[kind]
        canvas.saveState()
        canvas.setLineWidth(width * mm)
        canvas.setStrokeColorRGB(*rgb)
        canvas.setLineCap(0)
        if dash:
            canvas.setDash([d * mm for d in dash])
        canvas.lines([(l.x1 * mm, (page_h - l.y1) * mm, l.x2 * mm, (page_h - l.y2) * mm) for l in chosen])
        canvas.restoreState()


def draw_outlines(canvas: Canvas, page_h: float, outlines: Sequence[Outline]) -> None:
    """Cut outlines: hairline magenta trims, corners rounded like the cards'."""
    if not outlines:
        return
    canvas.saveState()
    canvas.setLineWidth(CUT_WIDTH * mm)
    canvas.setStrokeColorRGB(1, 0, 1)
    for o in outlines:
        r = o.rect
        canvas.roundRect(r.x * mm, (page_h - r.bottom) * mm, r.w * mm, r.h * mm, o.radius * mm, stroke=1, fill=0)
    canvas.restoreState()


def draw_targets(canvas: Canvas, page_h: float, targets: Sequence[Target]) -> None:
    if not targets:
        return
    canvas.saveState()
    canvas.setLineWidth(0.15 * mm)
    canvas.setStrokeColorRGB(0, 0, 0)
    for t in targets:
        y = page_h - t.y
        canvas.circle(t.x * mm, y * mm, t.r * 0.6 * mm, stroke=1, fill=0)
        canvas.line((t.x - t.r) * mm, y * mm, (t.x + t.r) * mm, y * mm)
        canvas.line(t.x * mm, (y - t.r) * mm, t.x * mm, (y + t.r) * mm)
    canvas.restoreState()


def draw_page(canvas: Canvas, page: Page, cards: Sequence[JobCard], forms: Forms) -> None:
    for p in page.placements:
        job = cards[p.item]
        g = forms.renderers[job.deck].geometry
        key = forms.side(job.deck, job.card, p.side)
        b = p.box
        place(canvas, page.height, (p.trim.x, p.trim.y, p.trim.w, p.trim.h), (b.x, b.y, b.w, b.h),
              (g.width, g.height), p.rotation, lambda: forms.draw(key, job.card))
    draw_outlines(canvas, page.height, page.outlines)
    draw_lines(canvas, page.height, page.lines)
    draw_targets(canvas, page.height, page.targets)


@dataclass(frozen=True)
class SheetOptions:
    """Everything about a sheets PDF beyond the decks: layout, copies, ink saving."""
    layout: Layout = field(default_factory=lambda: Layout(A4))
    copies: int = 1
    greyscale: bool = False


def layout_job(decks: Sequence[Deck], renderers: Sequence[FaceRenderer], options: SheetOptions
               ) -> tuple[list[JobCard], tuple[Page, ...]]:
    cards = job_cards(decks, options.copies)
    geometries = [r.geometry for r in renderers]
    items = [Item(i, geometries[c.deck].trim_w, geometries[c.deck].trim_h, geometries[c.deck].bleed,
                  geometries[c.deck].radius) for i, c in enumerate(cards)]
    return cards, lay_out(items, options.layout)


def write_job(project: Project, decks: Sequence[Deck], target: Path, options: SheetOptions = SheetOptions(),
              progress: Progress | None = None, title: str | None = None) -> Path:
    """Write print sheets for several decks in one PDF, packed size by size."""
    renderers = [FaceRenderer(project, deck) for deck in decks]
    try:
        cards, pages = layout_job(decks, renderers, options)
    except LayoutError as exc:
        raise AetherpressError(Problem(decks[0].source if decks else "layout", str(exc),
                                       key="deck.size" if decks else None)) from None
    lay = options.layout
    names = " + ".join(f"{d.title} ({d.key})" for d in decks)
    title = title or f"{names} - print sheets"
    keywords = ", ".join([*(d.key for d in decks), lay.paper.name, lay.mode]
                         + (["greyscale"] if options.greyscale else []))
    subject = " / ".join(d.description for d in decks if d.description)
    with atomic_output(target) as tmp:
        canvas = new_canvas(tmp, (lay.paper.width, lay.paper.height), title, subject, keywords)
        uses: dict[tuple, int] = {}
        forms = Forms(canvas, decks, renderers, colour_converter(options.greyscale))
        for page in pages:
            for p in page.placements:
                key = forms.side(cards[p.item].deck, cards[p.item].card, p.side)
                uses[key] = uses.get(key, 0) + 1
        forms.uses = uses
        if not pages:
            canvas.showPage()
        for n, page in enumerate(pages):
            draw_page(canvas, page, cards, forms)
            canvas.showPage()
            if progress:
                progress(n + 1, len(pages))
        canvas.save()
    return target


def write_sheets(project: Project, deck: Deck, target: Path, layout: Layout | SheetOptions | None = None,
                 *, copies: int = 1, greyscale: bool = False, progress: Progress | None = None) -> Path:
    """Write one deck's print sheets (default: A4 duplex with crop marks)."""
    if isinstance(layout, SheetOptions):
        options = layout
    else:
        options = SheetOptions(layout or Layout(A4), copies, greyscale)
    return write_job(project, [deck], target, options, progress)


def draw_card_pages(target, project: Project, deck: Deck, bleed: float, sides: Sequence[tuple[Card, str]],
                    greyscale: bool = False, progress: Progress | None = None, process: bool = False) -> None:
    """A PDF with one page per (card, "front"|"back"): trim plus ``bleed``, TrimBox and BleedBox set.

    ``target`` is a path or a binary file object.  ``process`` draws every colour
    as CMYK within the print shops' 240 % ink limit.
    """
    faces = FaceRenderer(project, deck, bleed=bleed)
    g = faces.geometry
    boxes = {"trimBox": (bleed * mm, bleed * mm, (bleed + g.trim_w) * mm, (bleed + g.trim_h) * mm),
             "bleedBox": (0, 0, g.width * mm, g.height * mm)}
    canvas = new_canvas(target, (g.width, g.height), f"{deck.title} ({deck.key}) - cards with bleed",
                        deck.description, f"{deck.key}, {_num(bleed)} mm bleed"
                        + (", greyscale" if greyscale else "") + (", CMYK" if process else ""),
                        process=process, **boxes)
    forms = Forms(canvas, [deck], [faces], colour_converter(greyscale, process))
    for card, side in sides:
        key = forms.side(0, card, side)
        forms.uses[key] = forms.uses.get(key, 0) + 1
    if not sides:
        canvas.showPage()
    for n, (card, side) in enumerate(sides):
        forms.draw(forms.side(0, card, side), card)
        canvas.showPage()
        if progress:
            progress(n + 1, len(sides))
    canvas.save()


def card_pdf_bytes(project: Project, deck: Deck, bleed: float, sides: Sequence[tuple[Card, str]],
                   greyscale: bool = False) -> bytes:
    buffer = io.BytesIO()
    draw_card_pages(buffer, project, deck, bleed, sides, greyscale)
    return buffer.getvalue()


def write_card_pdf(project: Project, deck: Deck, target: Path, bleed: float, greyscale: bool = False,
                   copies: int = 1, progress: Progress | None = None, process: bool = False) -> Path:
    """Every printed card as two pages, back then front (the DriveThruCards order), with ``bleed``;
    in process CMYK when ``process``."""
    sides = [(job.card, side) for job in job_cards([deck], copies) for side in ("back", "front")]
    with atomic_output(target) as tmp:
        draw_card_pages(tmp, project, deck, bleed, sides, greyscale, progress, process)
    return target


def _num(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")
