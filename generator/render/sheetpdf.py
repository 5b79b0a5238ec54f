"""Print sheets: pages of cards drawn from the placements of the layout stage.

Vector all the way.  reportlab draws the pages (marks, clipping, each card's
place and turn) with one named form per distinct card side; each form is then
filled with that side's piece (its SVG drawn once into a one-page PDF, see
:mod:`.pieces`), so a back shared by a whole deck or a card printed in copies
is stored once, and a side drawn for the A4 sheets is reused for the Letter
ones.  Files are reproducible and name only embedded fonts.
"""

from __future__ import annotations

import gc
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..definitions.model import Card, Deck
from ..definitions.styles import dark_edges
from ..errors import AetherpressError, Problem
from ..faces.render import FaceRenderer
from ..imposition.grids import LayoutError
from ..imposition.layout import Layout
from ..imposition.layout import layout as lay_out
from ..imposition.shapes import Item, Line, Outline, Page, Target
from ..libraries.reportlab import end_form
from ..project.files import write_bytes
from .assemble import Known
from .canvas import new_canvas
from .edgecolour import Colour, edge_kinds, is_dark
from .pieces import PieceSource
from .refill import ToFill, fill_whole, settled

_CROP_WIDTH = 0.2  # mm
_LARGE_JOB = 4000  # card places
CUT_WIDTH = 0.1
Progress = Callable[[int, int], None]


@dataclass
class _JobCard:
    """One printed copy of a card: its deck (by index) and the card."""

    deck: int
    card: Card


def job_cards(decks: Sequence[Deck], copies: int = 1) -> list[_JobCard]:
    """Every card of every deck, each as many times as it is printed."""
    return [_JobCard(d, card) for d, deck in enumerate(decks) for card in deck.cards for _ in range(card.copies * copies)]


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


def _draw_lines(canvas: Canvas, page_h: float, lines: Sequence[Line]) -> None:
    styles = {"crop": (_CROP_WIDTH, (0, 0, 0), None), "fold": (_CROP_WIDTH, (0.45, 0.45, 0.45), (2, 2))}
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


def _draw_outlines(canvas: Canvas, page_h: float, outlines: Sequence[Outline]) -> None:
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


def _draw_targets(canvas: Canvas, page_h: float, targets: Sequence[Target]) -> None:
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


class _CardForms:
    """One named, empty form per distinct card side, filled with its piece once the pages are drawn."""

    def __init__(self, pieces: PieceSource):
        self.canvas: Canvas | None = None  # set when the pages are drawn
        self.pieces = pieces
        self.names: dict[str, str] = {}  # piece key -> form name
        self.sizes: dict[str, tuple[float, float]] = {}
        self.where: dict[str, tuple[int, Card | None, str]] = {}

    def name(self, d: int, card: Card, side: str) -> str:
        """The form of this side: named in the order sides first appear (so names follow the layout alone)."""
        key = self.pieces.key(d, card, side)
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = f"card{len(self.names)}"
            g = self.pieces.faces[d].renderer.geometry
            self.sizes[name] = (g.width, g.height)
            self.where[name] = (d, card, side)
        return name

    def draw(self, d: int, card: Card, side: str) -> None:
        assert self.canvas is not None
        self.canvas.doForm(self.name(d, card, side))

    def define(self) -> None:
        """Declare every form named so far, empty and of its card's size."""
        assert self.canvas is not None
        for name, (w, h) in self.sizes.items():
            self.canvas.beginForm(name, lowerx=0, lowery=0, upperx=w * mm, uppery=h * mm)
            end_form(self.canvas)

    def known(self, name: str) -> Known:
        return self.pieces.known(*self.where[name])

    def piece(self, name: str) -> bytes:
        return self.pieces.pdf(*self.where[name])

    def edge(self, d: int, card: Card) -> Colour:
        """The colour at the edge of the card's front, as drawn (read when its piece was drawn)."""
        return self.pieces.edge(d, card)


def _draw_page(canvas: Canvas, page: Page, cards: Sequence[_JobCard], forms: _CardForms) -> None:
    for p in page.placements:
        job = cards[p.item]
        g = forms.pieces.faces[job.deck].renderer.geometry
        b = p.box
        place(
            canvas,
            page.height,
            (p.trim.x, p.trim.y, p.trim.w, p.trim.h),
            (b.x, b.y, b.w, b.h),
            (g.width, g.height),
            p.rotation,
            partial(forms.draw, job.deck, job.card, p.side),
        )
    _draw_outlines(canvas, page.height, page.outlines)
    _draw_lines(canvas, page.height, page.lines)
    _draw_targets(canvas, page.height, page.targets)


@dataclass(frozen=True)
class SheetOptions:
    """Everything about a sheets PDF beyond the decks: layout, copies, ink saving."""

    layout: Layout
    copies: int = 1
    greyscale: bool = False
    draft: bool = False  # text that does not fit is drawn in red with how much to cut, instead of stopping


def layout_job(
    decks: Sequence[Deck],
    renderers: Sequence[FaceRenderer],
    options: SheetOptions,
    edges: Callable[[int, Card], Colour] | None = None,
) -> tuple[list[_JobCard], tuple[Page, ...]]:
    """The job's cards and its pages.  With ``edges`` (each card's front edge colour, as drawn), cards are laid out
    by their own edges: cards whose edges differ are never neighbours, and a card dark at its edge keeps its bleed
    with gaps (see :mod:`.edgecolour`); without, by their decks' styles."""
    cards = job_cards(decks, options.copies)
    geometries = [r.geometry for r in renderers]
    styled = [dark_edges(deck.style) for deck in decks]
    found = [edges(c.deck, c.card) for c in cards] if edges is not None else None
    dark = [styled[c.deck] or (found is not None and is_dark(found[i])) for i, c in enumerate(cards)]
    # cards that keep their bleed with gaps share no cut, whatever their colours: only butted ones go by colour
    kinds = edge_kinds(found) if found is not None else [0] * len(cards)
    items = [
        Item(
            i,
            geometries[c.deck].trim_w,
            geometries[c.deck].trim_h,
            geometries[c.deck].bleed,
            geometries[c.deck].radius,
            dark[i],
            -1 if dark[i] else kinds[i],
        )
        for i, c in enumerate(cards)
    ]
    return cards, lay_out(items, options.layout)


@dataclass(frozen=True)
class Skeleton:
    """What the sheets without their cards are drawn from (see :func:`draw_skeleton`): ``inputs`` says it as data
    (the layout and which places share a card, not the cards), ``draw`` draws it."""

    inputs: list
    draw: Callable[[], bytes]


def _draw(skeleton: Skeleton) -> bytes:
    return skeleton.draw()


def _fill(forms: ToFill) -> bytes:
    return fill_whole(forms).pdf


def write_job(
    decks: Sequence[Deck],
    target: Path,
    options: SheetOptions,
    pieces: PieceSource,
    progress: Progress | None = None,
    title: str | None = None,
    skeleton_of: Callable[[Skeleton], bytes] = _draw,
    fill_of: Callable[[ToFill], bytes] = _fill,
) -> Path:
    """Write print sheets for several decks in one PDF, packed size by size, from their ``pieces``.

    ``progress`` is told (done, total) as the card forms are filled; ``skeleton_of`` makes the pages without
    their cards (by default, drawn: a caller may take them from what it keeps), and ``fill_of`` fills them (by
    default, every form: a caller may fill again only the forms whose pieces changed).
    """
    forms = _CardForms(pieces)
    # the layout and the skeleton's drawing are let go before the forms are filled (a large deck's peak memory)
    plan = _plan_skeleton(decks, options, forms, title)
    skeleton, inputs = skeleton_of(plan), plan.inputs
    del plan
    if len(forms.names) > _LARGE_JOB:
        gc.collect()  # reportlab's drawing is a web of cycles: let it go before the forms are filled
    order = list(forms.names.values())
    position = {name: n for n, name in enumerate(order, 1)}

    def known(name: str) -> Known:
        found = forms.known(name)
        if progress:
            progress(position[name], len(order))
        return found

    keys = {name: key for key, name in forms.names.items()}
    filled = fill_of(ToFill(skeleton, inputs, order, keys, known, forms.piece))
    if progress:
        progress(len(order), len(order))
    return write_bytes(target, filled)


def _plan_skeleton(decks: Sequence[Deck], options: SheetOptions, forms: _CardForms, title: str | None) -> Skeleton:
    """The sheets with an empty form for each card, to be drawn (see :func:`draw_skeleton`)."""
    try:
        cards, pages = layout_job(decks, [faces.renderer for faces in forms.pieces.faces], options, forms.edge)
    except LayoutError as exc:
        raise AetherpressError(
            Problem(decks[0].source if decks else "layout", str(exc), key="deck.size" if decks else None)
        ) from None
    lay = options.layout
    names = " + ".join(f"{d.title} ({d.key})" for d in decks)
    title = title or f"{names} - print sheets"
    keywords = ", ".join([*(d.key for d in decks), lay.paper.name, lay.mode] + (["greyscale"] if options.greyscale else []))
    subject = " / ".join(d.description for d in decks if d.description)
    placed = [forms.name(cards[p.item].deck, cards[p.item].card, p.side) for page in pages for p in page.placements]
    # the pages without their cards depend on the layout and which places share a card, not on the cards
    inputs = ["sheets skeleton", repr(pages), placed, forms.sizes, title, subject, keywords, repr(lay)]
    paper = (lay.paper.width, lay.paper.height)
    return Skeleton(inputs, partial(_draw_skeleton, forms, pages, cards, paper, title, subject, keywords))


def _draw_skeleton(
    forms: _CardForms,
    pages: Sequence[Page],
    cards: Sequence[_JobCard],
    paper: tuple[float, float],
    title: str,
    subject: str,
    keywords: str,
) -> bytes:
    """The sheets with every mark and every card place, each card an empty form to be filled."""
    buffer = io.BytesIO()
    canvas = forms.canvas = new_canvas(buffer, paper, title, subject, keywords)
    if not pages:
        canvas.showPage()
    for page in pages:
        _draw_page(canvas, page, cards, forms)
        canvas.showPage()
    forms.define()
    canvas.save()
    forms.canvas = None
    return settled(buffer.getvalue())
