"""A tuck box drawn on one sheet: the deck's back art, its title and credits, the cut line and a die line.

The geometry comes from :mod:`..imposition.boxnet`.  The net is filled with
the back's colour, running :data:`BLEED` mm past every cut so a slightly
missed cut shows no white.  The front carries the deck's back art above a
plate with the title (:func:`front_boxes`: the plate never covers the art's
emblem), the back panel the back art under a label with the card count, size,
description and credits, the sides and lid the title.

What prints of the lines is the cut, solid black on the net's edge: no fold
line crosses a face.  Every fold runs between two corners of the cut, which
is where one folds.  The die line a print shop cuts and scores by, cut and
folds, is a layer of its own (:data:`DIE_LAYER`, a PDF optional content
group), off until a viewer's layer list switches it on, and never printed.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import partial

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..definitions.languages import BOX_COUNT, BOX_FRONT, say
from ..definitions.model import Deck
from ..definitions.styles import style_value
from ..faces.drawn import SideSource
from ..geometry import Box
from ..imposition.boxnet import BoxSheet, TuckBox
from ..resources.fonts import DEFAULT_FONT, font_book, font_name
from .canvas import new_canvas
from .colour import colour_converter
from .placed import fill_sides, use_side
from .vector import font_files, side_pdf

BLEED = 2.0  # mm of colour past the cut line
FRONT_CROP = 0.62  # the share of the back's trim, about its middle, enlarged over the front panel
TICK_GAP, TICK_LENGTH, MIN_TICK = 1.0, 4.0, 1.5  # mm: fold ticks, past the bleed, on the paper's margin
MARGIN = 4.0  # mm of the paper's edge a printer may not print: ticks stay inside it
CUT_WIDTH = 0.2  # mm
FOLD_GREY = 0.45
TITLE_FONT = font_name("Cinzel", "bold")
DIE_LAYER = "Die line"  # the optional content group of the cut and fold lines: off, never printed
DIE_TAG = "AetherpressDieLine"  # its name in the page's /Properties
PLATE_SHARE = 0.15  # of the front panel's height: the title plate's
PLATE_MAX = 16.0  # mm
INSET = 5.0  # mm between a panel's edge and its plate or art
GAP = 2.5  # mm between the art and a plate, or the thumb notch


def emblem_box(panel: Box, top: float, plate: Box, trim: tuple[float, float]) -> Box:
    """Where the back art of ``trim`` size goes whole on ``panel``: centred in the room from ``top`` mm below the
    panel's top edge down to the plate, so plate and art never overlap."""
    room = Box(panel.x + INSET, panel.y + top, panel.w - 2 * INSET, plate.y - GAP - (panel.y + top))
    scale = min(room.w / trim[0], room.h / trim[1])
    w, h = trim[0] * scale, trim[1] * scale
    return Box(room.cx - w / 2, room.cy - h / 2, w, h)


def front_boxes(panel: Box, notch: float, trim: tuple[float, float]) -> tuple[Box, Box]:
    """The front panel's (emblem, plate): the title plate at the panel's foot, the back art whole above it, below
    the thumb notch (``notch`` mm deep)."""
    ph = min(panel.h * PLATE_SHARE, PLATE_MAX)
    plate = Box(panel.x + INSET, panel.bottom - INSET - ph, panel.w - 2 * INSET, ph)
    return emblem_box(panel, notch + GAP, plate, trim), plate


def _credits(deck: Deck) -> list[str]:
    """The deck's credit, as the box's back label prints it (with its unofficial fan-work notice)."""
    if deck.credits is None:
        return []
    return [deck.credits.line()] + ([deck.credits.unofficial] if deck.credits.unofficial else [])


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if line and stringWidth(candidate, font, size) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        if line:
            lines.append(line)
    return lines


def _fit(text: str, font: str, size: float, width: float) -> float:
    """``size``, or smaller so that ``text`` fits ``width`` points."""
    w = stringWidth(text, font, size)
    return size if w <= width else size * width / w


class BoxPainter:
    """Draws one tuck box: coordinates in mm with y down from the net's top-left corner."""

    def __init__(self, canvas: Canvas, source: SideSource, deck: Deck, box: TuckBox, greyscale: bool = False, room: float = 0.0):
        """``room``: mm of paper outside the net on its narrowest side, where the fold ticks go."""
        self.canvas, self.deck, self.box, self.room = canvas, deck, box, room
        self.convert = colour_converter(greyscale) or (lambda c: c)
        style = deck.style
        self.field = self.convert(colors.HexColor(style_value(style, "back_colour")))
        self.accent = self.convert(colors.HexColor(style_value(style, "back_accent")))
        self.paper = self.convert(colors.HexColor(style_value(style, "paper")))
        self.ink = self.convert(colors.HexColor(style_value(style, "ink")))
        self.faces = source.sides(deck)
        first = deck.cards[0] if deck.cards else None
        self.back = partial(
            side_pdf,
            self.faces.side(first, "back").svg,
            self.faces.renderer.template_file(deck.back_for(first) if first else deck.back_template),
            f"back of deck '{deck.id}'",
            font_files(font_book(source.project)),
            colour_converter(greyscale),
        )

    def path(self, points: Sequence[tuple[float, float]]):
        p = self.canvas.beginPath()
        p.moveTo(points[0][0] * mm, -points[0][1] * mm)
        for x, y in points[1:]:
            p.lineTo(x * mm, -y * mm)
        p.close()
        return p

    def paint(self) -> None:
        c, box = self.canvas, self.box
        c.saveState()
        c.setFillColor(self.field)
        c.setStrokeColor(self.field)
        c.setLineWidth(2 * BLEED * mm)
        c.setLineJoin(1)
        c.drawPath(self.path(box.outline), stroke=1, fill=1)  # the field, with bleed past every cut
        c.restoreState()
        composed = self.composition()
        art, plate = composed["back"]
        self.art(art, whole=True)
        self.plate(plate)
        art, plate = composed["front"]
        self.art(art, crop=FRONT_CROP)  # the back's middle, enlarged over the whole panel: no card's edge shows
        self.plate(plate, self.paper, double=True)
        self.front_title(plate)
        self.label(composed["back"][1])
        for name in ("side-1", "side-2"):
            self.spine(box.panels[name])
        self.lid(box.panels["lid"], turned=True)  # reads upright from the front once folded
        self.lid(box.panels["bottom"])
        self.lines()
        self.fold_ticks()

    def art(self, panel: Box, whole: bool = False, crop: float = 1.0) -> None:
        """The deck's back, scaled so the middle ``crop`` of its trim covers the panel (``whole``: its trim fits
        inside it), clipped to the panel and the cut outline."""
        c, g = self.canvas, self.faces.renderer.geometry
        scale = (min if whole else max)(panel.w / (g.trim_w * crop), panel.h / (g.trim_h * crop))
        c.saveState()
        c.clipPath(self.path(self.box.outline), stroke=0, fill=0)
        clip = c.beginPath()
        clip.rect(panel.x * mm, -panel.bottom * mm, panel.w * mm, panel.h * mm)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(panel.cx * mm, -panel.cy * mm)
        c.scale(scale, scale)
        c.translate(-g.width / 2 * mm, -g.height / 2 * mm)
        use_side(c, "back", (g.width, g.height), self.back)
        c.restoreState()

    def plate(self, box: Box, ground=None, double: bool = False) -> None:
        """A plate in the field's colour (or ``ground``) framed in the accent (``double``: a second, finer frame)."""
        c = self.canvas
        c.saveState()
        c.setFillColor(ground or self.field)
        c.setStrokeColor(self.accent)
        c.setLineWidth(0.6 * mm)
        c.roundRect(box.x * mm, -box.bottom * mm, box.w * mm, box.h * mm, 2 * mm, stroke=1, fill=1)
        if double:
            c.setLineWidth(0.2 * mm)
            c.roundRect((box.x + 1.2) * mm, -(box.bottom - 1.2) * mm, (box.w - 2.4) * mm, (box.h - 2.4) * mm, 1.2 * mm)
        c.restoreState()

    def text(self, x: float, y: float, text: str, font: str, size: float, colour, centred: bool = True) -> None:
        c = self.canvas
        c.setFillColor(colour)
        c.setFont(font, size)
        (c.drawCentredString if centred else c.drawString)(x * mm, -y * mm, text)

    def composition(self) -> dict[str, tuple[Box, Box]]:
        """The front's and the back's (art, plate): each plate (the title; the back's label) below the art."""
        g, box = self.faces.renderer.geometry, self.box
        trim = (g.trim_w, g.trim_h)
        back = box.panels["back"]
        height = sum(size * 1.3 for _, _, size in self.label_lines()) / mm + 8
        label = Box(back.x + INSET, back.bottom - INSET - height, back.w - 2 * INSET, height)
        front = box.panels["front"]
        return {
            "front": (front, front_boxes(front, box.notch, trim)[1]),  # the art over the whole panel, the plate at its foot
            "back": (emblem_box(back, INSET, label, trim), label),
        }

    def front_title(self, plate: Box) -> None:
        """The title on the front's plate, in the deck's ink, and the card count under it."""
        size = _fit(self.deck.title, TITLE_FONT, 14, (plate.w - 8) * mm)
        count = self.count_line()
        small = min(7.5, size * 0.6)
        block = (size + small * 1.4) / mm
        top = plate.cy - block / 2
        self.text(plate.cx, top + size * 0.8 / mm, self.deck.title, TITLE_FONT, size, self.ink)
        self.text(plate.cx, top + block - small * 0.15 / mm, count, DEFAULT_FONT, small, self.ink)

    def count_line(self) -> str:
        """What the box holds, as its front says it: the card count."""
        return say(self.deck, BOX_FRONT, count=self.deck.card_count)

    def label_lines(self) -> list[tuple[str, str, float]]:
        """The back's label, line by line: (text, font, size)."""
        d, g = self.deck, self.faces.renderer.geometry
        width = (self.box.panels["back"].w - 2 * INSET - 6) * mm
        body: list[tuple[str, str, float]] = [(d.title, TITLE_FONT, _fit(d.title, TITLE_FONT, 11, width))]
        body.append((say(d, BOX_COUNT, count=d.card_count, width=g.trim_w, height=g.trim_h), DEFAULT_FONT, 8.5))
        body += [(line, DEFAULT_FONT, 8) for line in _wrap(d.description, DEFAULT_FONT, 8, width)]
        body += [
            (line, font_name("EB Garamond", "normal", "italic"), 7.5)
            for c in _credits(d)
            for line in _wrap(c, DEFAULT_FONT, 7.5, width)
        ]
        return body

    def label(self, plate: Box) -> None:
        """The back's label on its plate: the title, what is inside, the description and credits."""
        y = plate.y + 4
        for text, font, size in self.label_lines():
            y += size * 1.3 / mm
            self.text(plate.cx, y - size * 0.3 / mm, text, font, size, self.accent)

    def spine(self, panel: Box) -> None:
        """The title along a side, reading upwards."""
        c = self.canvas
        size = min(panel.w * 0.45 * mm, _fit(self.deck.title, TITLE_FONT, 40, (panel.h - 10) * mm))
        c.saveState()
        c.translate(panel.cx * mm, -panel.cy * mm)
        c.rotate(90)
        self.text(0, size * 0.35 / mm, self.deck.title, TITLE_FONT, size, self.accent)
        c.restoreState()

    def lid(self, panel: Box, turned: bool = False) -> None:
        c = self.canvas
        size = min(panel.h * 0.5 * mm, _fit(self.deck.title, TITLE_FONT, 14, (panel.w - 8) * mm))
        c.saveState()
        c.translate(panel.cx * mm, -panel.cy * mm)
        if turned:
            c.rotate(180)
        self.text(0, size * 0.35 / mm, self.deck.title, TITLE_FONT, size, self.accent)
        c.restoreState()

    def fold_ticks(self) -> None:
        """Short marks in line with every fold, outside the net and its bleed on the paper's margin (as far as
        :attr:`room` allows), so a box cut out at home is scored where it folds; none on the box itself."""
        if self.room < BLEED + TICK_GAP + MIN_TICK:
            return
        start, end = BLEED + TICK_GAP, min(BLEED + TICK_GAP + TICK_LENGTH, self.room - 0.5)
        w, h = self.box.size
        c = self.canvas
        c.saveState()
        c.setLineWidth(CUT_WIDTH * mm)
        c.setStrokeColorRGB(0, 0, 0)
        for f in self.box.folds:
            if abs(f.x1 - f.x2) < 1e-6:  # a fold across the net: marked above and below it
                for y1, y2 in ((-start, -end), (h + start, h + end)):
                    c.line(f.x1 * mm, -y1 * mm, f.x1 * mm, -y2 * mm)
            else:  # a fold along it: marked left and right
                for x1, x2 in ((-start, -end), (w + start, w + end)):
                    c.line(x1 * mm, -f.y1 * mm, x2 * mm, -f.y1 * mm)
        c.restoreState()

    def lines(self) -> None:
        """The cut, printed; then the die line (cut and folds) in its layer, which printers leave out."""
        c = self.canvas
        c.saveState()
        c.setLineWidth(CUT_WIDTH * mm)
        c.setStrokeColorRGB(0, 0, 0)
        c.drawPath(self.path(self.box.outline), stroke=1, fill=0)
        c.addLiteral(f"/OC /{DIE_TAG} BDC")
        c.setStrokeColorRGB(FOLD_GREY, FOLD_GREY, FOLD_GREY)
        c.setDash([2 * mm, 1.5 * mm])
        for f in self.box.folds:
            c.line(f.x1 * mm, -f.y1 * mm, f.x2 * mm, -f.y2 * mm)
        c.addLiteral("EMC")
        c.restoreState()


def draw_box_page(source: SideSource, deck: Deck, box: TuckBox, sheet: BoxSheet, caption: str, greyscale: bool = False) -> bytes:
    """One page of ``sheet.paper`` with the tuck box placed as ``sheet`` says, and a caption in the margin."""
    paper = sheet.paper
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        (paper.width, paper.height),
        f"{deck.title} ({deck.key}) - tuck box",
        deck.description,
        f"{deck.key}, tuck box, {paper.name}" + (", greyscale" if greyscale else ""),
    )
    canvas.saveState()
    canvas.translate(sheet.x * mm, (paper.height - sheet.y) * mm)  # the net's top-left corner, y up
    if sheet.turned:
        canvas.translate(box.size[1] * mm, 0)
        canvas.rotate(-90)
    net_w, net_h = (box.size[1], box.size[0]) if sheet.turned else box.size
    room = min(sheet.x, sheet.y, paper.width - sheet.x - net_w, paper.height - sheet.y - net_h) - MARGIN
    BoxPainter(canvas, source, deck, box, greyscale, room).paint()
    canvas.restoreState()
    canvas.setFillColorRGB(0.3, 0.3, 0.3)
    size = _fit(caption, DEFAULT_FONT, 8, (paper.width - 20) * mm)
    canvas.setFont(DEFAULT_FONT, size)
    net_h = box.size[0] if sheet.turned else box.size[1]
    below = sheet.y + net_h + BLEED + TICK_GAP + TICK_LENGTH + 4  # under the net and its fold ticks
    y = below if below <= paper.height - 8 else max(8.0, sheet.y - BLEED - 4)
    canvas.drawCentredString(paper.width / 2 * mm, (paper.height - y) * mm, caption)
    canvas.showPage()
    canvas.save()
    return die_layer(fill_sides(canvas, buffer.getvalue()))


def die_layer(pdf: bytes) -> bytes:
    """``pdf`` (one page) with its die line's marked content made the optional content group :data:`DIE_LAYER`:
    off unless switched on in a viewer's layers, and never printed."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name, String

    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        group = doc.make_indirect(
            Dictionary(
                Type=Name.OCG,
                Name=String(DIE_LAYER),
                Intent=Array([Name.View, Name.Design]),
                Usage=Dictionary(
                    Print=Dictionary(PrintState=Name.OFF),
                    CreatorInfo=Dictionary(Creator=String("Aetherpress"), Subtype=Name.Technical),
                ),
            )
        )
        doc.Root.OCProperties = Dictionary(
            OCGs=Array([group]), D=Dictionary(Name=String("Tuck box"), Order=Array([group]), OFF=Array([group]))
        )
        page = doc.pages[0]
        page.add_resource(group, Name.Properties, Name("/" + DIE_TAG))
        doc.save(out, deterministic_id=True)
    return out.getvalue()
