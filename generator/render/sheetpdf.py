"""Print sheets: pages of cards drawn from the placements of the layout stage.

Vector all the way: each card's SVG becomes a reportlab drawing, clipped to
its trim or to the bleed kept by the layout.  A drawing that appears more
than once (a back shared by a whole deck, a card printed in copies) is stored
once as a form XObject and referenced at every place; one that appears once
is drawn in place.  Files are reproducible (``invariant``) and name only
embedded fonts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..definitions.model import Card, Deck
from ..errors import AetherpressError, Problem
from ..faces.render import FaceRenderer
from ..imposition.grids import LayoutError
from ..imposition.layout import Layout
from ..imposition.layout import layout as lay_out
from ..imposition.shapes import Item, Line, Outline, Page, Target
from ..project import Project
from ..project.files import atomic_output
from .canvas import new_canvas
from .colour import colour_converter
from .forms import Forms

CROP_WIDTH = 0.2  # mm
CUT_WIDTH = 0.1
Progress = Callable[[int, int], None]


@dataclass
class JobCard:
    """One printed copy of a card: its deck (by index) and the card."""

    deck: int
    card: Card


def job_cards(decks: Sequence[Deck], copies: int = 1) -> list[JobCard]:
    """Every card of every deck, each as many times as it is printed."""
    return [JobCard(d, card) for d, deck in enumerate(decks) for card in deck.cards for _ in range(card.copies * copies)]


def place(
    canvas: Canvas,
    page_h: float,
    box: tuple[float, float, float, float],
    clip: tuple[float, float, float, float] | None,
    size: tuple[float, float],
    rotation: int,
    draw: Callable[[], None],
) -> None:
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
        chosen = [line for line in lines if line.kind == kind]
        if not chosen:
            continue
        width, rgb, dash = styles[kind]
        canvas.saveState()
        canvas.setLineWidth(width * mm)
        canvas.setStrokeColorRGB(*rgb)
        canvas.setLineCap(0)
        if dash:
            canvas.setDash([d * mm for d in dash])
        canvas.lines([(s.x1 * mm, (page_h - s.y1) * mm, s.x2 * mm, (page_h - s.y2) * mm) for s in chosen])
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
        place(
            canvas,
            page.height,
            (p.trim.x, p.trim.y, p.trim.w, p.trim.h),
            (b.x, b.y, b.w, b.h),
            (g.width, g.height),
            p.rotation,
            partial(forms.draw, key, job.card),
        )
    draw_outlines(canvas, page.height, page.outlines)
    draw_lines(canvas, page.height, page.lines)
    draw_targets(canvas, page.height, page.targets)


@dataclass(frozen=True)
class SheetOptions:
    """Everything about a sheets PDF beyond the decks: layout, copies, ink saving."""

    layout: Layout
    copies: int = 1
    greyscale: bool = False
    draft: bool = False  # text that does not fit is drawn in red with how much to cut, instead of stopping


def layout_job(
    decks: Sequence[Deck], renderers: Sequence[FaceRenderer], options: SheetOptions
) -> tuple[list[JobCard], tuple[Page, ...]]:
    cards = job_cards(decks, options.copies)
    geometries = [r.geometry for r in renderers]
    items = [
        Item(i, geometries[c.deck].trim_w, geometries[c.deck].trim_h, geometries[c.deck].bleed, geometries[c.deck].radius)
        for i, c in enumerate(cards)
    ]
    return cards, lay_out(items, options.layout)


def write_job(
    project: Project,
    decks: Sequence[Deck],
    target: Path,
    options: SheetOptions,
    progress: Progress | None = None,
    title: str | None = None,
) -> Path:
    """Write print sheets for several decks in one PDF, packed size by size."""
    renderers = [FaceRenderer(project, deck, draft=options.draft) for deck in decks]
    try:
        cards, pages = layout_job(decks, renderers, options)
    except LayoutError as exc:
        raise AetherpressError(
            Problem(decks[0].source if decks else "layout", str(exc), key="deck.size" if decks else None)
        ) from None
    lay = options.layout
    names = " + ".join(f"{d.title} ({d.key})" for d in decks)
    title = title or f"{names} - print sheets"
    keywords = ", ".join([*(d.key for d in decks), lay.paper.name, lay.mode] + (["greyscale"] if options.greyscale else []))
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


def write_sheets(
    project: Project,
    deck: Deck,
    target: Path,
    layout: Layout | SheetOptions,
    *,
    copies: int = 1,
    greyscale: bool = False,
    progress: Progress | None = None,
) -> Path:
    """Write one deck's print sheets with ``layout`` (paper, duplex, marks...)."""
    if isinstance(layout, SheetOptions):
        options = layout
    else:
        options = SheetOptions(layout, copies, greyscale)
    return write_job(project, [deck], target, options, progress)
