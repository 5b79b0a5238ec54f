"""A book's PDF made ready for a print shop: the interior and the cover spread, with bleed, marks, CMYK and PDF/X.

The book is drawn once, at its trim size (:mod:`generator.rulebook`); here its
pages are placed on sheets that reach past the trim (:mod:`..imposition.printbook`):
each page of the interior alone, the four cover pages as two spreads (outside:
back, spine, front; inside: inside front, spine, inside back).  The outside
spread's ground runs under both covers and the spine into the bleed, so a cut
a little off the trim shows no white.  Crop marks (and fold marks at the
spine) are black ink alone, outside the bleed.  Transparency is flattened as
the screen shows it, in RGB (:func:`.flatten.flatten_pages`: a card picture
that has any becomes a picture at :data:`~.presspiece.FLATTEN_DPI`).  Every colour and picture then
goes through the cards' process CMYK (:func:`.recolour.recolour_pages`, so
small dark text prints in black alone) and the file becomes PDF/X
(:func:`.pdfx.make_pdfx`) with the profile as its output intent.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..geometry import Box
from ..imposition.printbook import PAPER_THICKNESS, SLUG, PrintSheet, spine_width, split_pages
from .canvas import new_canvas
from .colour import ProcessColour
from .flatten import flatten_pages
from .pdfx import make_pdfx
from .presspiece import FLATTEN_DPI
from .recolour import recolour_pages

MARK_WIDTH = 0.1  # mm
MIN_SPINE_TEXT = 5.0  # mm: a narrower spine carries no band and no title (a fold a little off would show them)


@dataclass(frozen=True)
class Press:
    """How a book is printed: bleed (mm), colour, PDF/X version, binding and the interior's paper thickness (mm)."""

    bleed: float
    process: ProcessColour
    level: str = "4"
    binding: str = "saddle"
    thickness: float = PAPER_THICKNESS
    crop_marks: bool = True  # crop and fold marks outside the bleed, on a slug
    slug: float = SLUG  # mm of sheet past the marks
    cover_inside: bool = True  # the cover file also holds the inside spread (a shop that prints the cover's inside)


@dataclass(frozen=True)
class Look:
    """The cover's own drawing: the outside ground, the spine's band and title, in the book's colours and face."""

    ground: colors.Color
    spine: colors.Color
    spine_ink: colors.Color
    font: str
    title: str
    author: str = ""
    language: str = ""


@dataclass(frozen=True)
class PrintBook:
    interior: bytes
    cover: bytes
    interior_pages: int
    spine: float  # mm


def print_book(book: bytes, press: Press, look: Look) -> PrintBook:
    """The book's PDF (pages a multiple of four, at trim size) as the interior and cover files a printer takes."""
    import pikepdf

    with pikepdf.open(io.BytesIO(book)) as source:
        pages = len(source.pages)
        box = [float(v) for v in source.pages[0].MediaBox]
    trim = ((box[2] - box[0]) / mm, (box[3] - box[1]) / mm)
    split = split_pages(pages, press.binding)
    spine = spine_width(len(split.interior), press.binding, press.thickness)
    page = PrintSheet(trim, press.bleed, crop_marks=press.crop_marks, slug=press.slug)
    spread = PrintSheet(trim, press.bleed, spine, 2, press.crop_marks, press.slug)
    interior = _sheets(book, [(page, [(i, page.trim_box, {})], False) for i in split.interior], look, "interior")
    boxes = spread.page_boxes()
    b = press.bleed
    # how far each cover page's drawing reaches past its trim, edge by edge: into the bleed at its outer edges; the
    # front's ground over a spine too thin for a band of its own, so the fold shows the cover, not a stripe
    wrap = spine if 0 < spine < MIN_SPINE_TEXT else 0.0
    sides = ({"left": b, "top": b, "bottom": b}, {"right": b, "top": b, "bottom": b, "left": wrap})
    outside = [(i, box_, edge) for i, box_, edge in zip(split.outside, boxes, sides, strict=True)]
    flat = ({"left": b, "top": b, "bottom": b}, {"right": b, "top": b, "bottom": b})  # the endpapers: to the outer edges
    inside = [(i, box_, edge) for i, box_, edge in zip(split.inside, boxes, flat, strict=True)]
    spreads = [(spread, outside, True)] + ([(spread, inside, False)] if press.cover_inside else [])
    cover = _sheets(book, spreads, look, "cover")
    return PrintBook(_pressed(interior, press), _pressed(cover, press), len(split.interior), spine)


def _pressed(pdf: bytes, press: Press) -> bytes:
    return make_pdfx(recolour_pages(flatten_pages(pdf, FLATTEN_DPI), press.process), press.process.profile, press.level)


Placed = list[tuple[int, Box, dict[str, float]]]  # (page of the book, its trim on the sheet, mm it draws past each edge)


def _sheets(book: bytes, sheets: list[tuple[PrintSheet, Placed, bool]], look: Look, part: str) -> bytes:
    """One page per sheet: its ground (``True``: the outside cover's), spine and marks drawn, then the book's
    pages set on it at their trims."""
    buffer = io.BytesIO()
    first = sheets[0][0]
    size = first.size
    canvas = new_canvas(buffer, size, f"{look.title} - {part}", look.title, f"{part}, print")
    canvas.setAuthor(look.author)
    for sheet, _pages, outside in sheets:
        canvas.setPageSize((sheet.size[0] * mm, sheet.size[1] * mm))
        h = sheet.size[1]
        trim, bleed = sheet.trim_box, sheet.bleed_box
        canvas.setTrimBox(_pdf_box(trim, h))
        canvas.setBleedBox(_pdf_box(bleed, h))
        if outside:
            _outside(canvas, sheet, look)
        _marks(canvas, sheet)
        canvas.showPage()
    canvas.save()
    return _placed(buffer.getvalue(), book, [(s.size[1], placed) for s, placed, _ in sheets], look.language)


def _pdf_box(box: Box, sheet_h: float) -> tuple[float, float, float, float]:
    """A box (mm, y down) as a PDF box (points, y up)."""
    return (box.x * mm, (sheet_h - box.bottom) * mm, box.right * mm, (sheet_h - box.y) * mm)


def _outside(canvas: Canvas, sheet: PrintSheet, look: Look) -> None:
    """The outside cover's ground over the whole bleed; on a spine of :data:`MIN_SPINE_TEXT` or more, a band in
    the book's accent with the title reading down it."""
    h = sheet.size[1]
    bleed = sheet.bleed_box
    canvas.setFillColor(look.ground)
    canvas.rect(bleed.x * mm, (h - bleed.bottom) * mm, bleed.w * mm, bleed.h * mm, stroke=0, fill=1)
    spine = sheet.spine_box()
    if spine is None or spine.w < MIN_SPINE_TEXT:  # a thin spine is the ground: a band there would show on a cover
        return
    band = Box(spine.x, bleed.y, spine.w, bleed.h)  # into the bleed at the head and foot
    canvas.setFillColor(look.spine)
    canvas.rect(band.x * mm, (h - band.bottom) * mm, band.w * mm, band.h * mm, stroke=0, fill=1)
    size = min(spine.w * 0.55 * mm, 14.0)
    width = (spine.h - 20) * mm
    if stringWidth(look.title, look.font, size) > width:
        size *= width / stringWidth(look.title, look.font, size)
    canvas.saveState()
    canvas.translate(spine.cx * mm, (h - spine.cy) * mm)
    canvas.rotate(-90)
    canvas.setFillColor(look.spine_ink)
    canvas.setFont(look.font, size)
    canvas.drawCentredString(0, -size * 0.35, look.title)
    canvas.restoreState()


def _marks(canvas: Canvas, sheet: PrintSheet) -> None:
    h = sheet.size[1]
    canvas.saveState()
    canvas.setStrokeColor(colors.CMYKColor(0, 0, 0, 1))
    canvas.setLineWidth(MARK_WIDTH * mm)
    for line in sheet.marks():
        canvas.line(line.x1 * mm, (h - line.y1) * mm, line.x2 * mm, (h - line.y2) * mm)
    canvas.restoreState()


def _placed(frames: bytes, book: bytes, placed: list[tuple[float, Placed]], language: str) -> bytes:
    """``frames`` with each book page set on its sheet at its trim, over what the sheet already draws; a cover
    page's drawing reaches past its trim by as much as its edges say (its ground, drawn past the page into the
    bleed), never over a spine band or the other cover."""
    import pikepdf
    from pikepdf import Name

    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(frames)) as doc, pikepdf.open(io.BytesIO(book)) as source:
        forms: dict[int, pikepdf.Object] = {}
        for page, (sheet_h, pages) in zip(doc.pages, placed, strict=True):
            drawn = [b"q"]
            for index, trim, edges in pages:
                if index not in forms:
                    forms[index] = doc.copy_foreign(source.pages[index].as_form_xobject())
                    if edges:
                        x0, y0, x1, y1 = (float(v) for v in forms[index].BBox)
                        forms[index].BBox = [
                            x0 - edges.get("left", 0.0) * mm,
                            y0 - edges.get("bottom", 0.0) * mm,
                            x1 + edges.get("right", 0.0) * mm,
                            y1 + edges.get("top", 0.0) * mm,
                        ]
                name = Name(f"/BookPage{index + 1}")
                page.add_resource(forms[index], Name.XObject, name)
                drawn.append(f"q 1 0 0 1 {trim.x * mm:.4f} {(sheet_h - trim.bottom) * mm:.4f} cm {name} Do Q".encode())
            drawn.append(b"Q")
            page.contents_add(b"\n".join(drawn), prepend=False)
        if language:
            doc.Root[Name.Lang] = pikepdf.String(language)
        doc.save(out, deterministic_id=True)
    return out.getvalue()
