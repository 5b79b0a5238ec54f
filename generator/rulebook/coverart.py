"""The drawn covers of a book: the front, the back and the endpapers inside them.

A cover is made from the game's own material: its deck's back enlarged as the
ground (the same under the front, the spine and the back, as on a wraparound
cover), the title on a plate in the deck's colours and title face, a large
fanned hand of the game's best cards, and on the back the blurb, the credits,
a spread of cards, players, time and age with their icons and a clear box for
the barcode (an EAN-13 of the book's ISBN when it has one).  The ground runs
:data:`REACH` past the page's edge, so a print shop's bleed (up to
:data:`..definitions.shops.MAX_BLEED`) finds it there; the screen's page shows
the trim.  Everything here draws on a reportlab canvas in points, the page's
bottom-left corner at the origin.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from ..art.symbols import symbol_svg
from ..definitions.shops import MAX_BLEED
from ..render.placed import use_side
from ..render.vector import side_pdf
from .cardart import draw_card
from .markup import escape
from .paragraphs import Paragraph
from .scripts import set_for_language
from .words import language

REACH = MAX_BLEED  # mm the covers' ground runs past the page's edge, for a shop's bleed
BARCODE_BOX = (50.0, 30.0)  # mm: room for an EAN-13 and its digits, as printers ask (2 x 1.2 in)
_FAN_DEGREES = 9.0
_GROUND_CROP = 0.66  # the share of the back's trim, about its middle, enlarged to cover the page
_SANS = "SourceSans3-Regular"
_SANS_BOLD = "SourceSans3-Bold"


@dataclass(frozen=True)
class CoverDesign:
    """What the covers show and in which colours and faces (colours ``#rrggbb``, fonts reportlab names)."""

    title: str
    title_lines: tuple[str, ...]
    subtitle: str
    by: str
    edition: str
    blurb: str
    facts: tuple[tuple[str, str, str], ...]  # (icon, label, value): players, time, age
    credits: tuple[str, ...]
    isbn: str  # 13 digits, or ""
    ground: str
    ground_light: str
    accent: str
    paper: str
    ink: str
    title_font: str
    text_font: str  # italic
    back: Any  # the deck's back (a card art), enlarged as the ground; None for a book of no deck
    fan: tuple = ()  # card arts fanned on the front
    spread: tuple = ()  # card arts spread on the back
    layout: str = "fan"  # "fan", "row" or "single"
    emblem: str = "star8"  # the back's emblem symbol, for the endpapers
    extra: dict = field(default_factory=dict)


def tint(colour: str, k: float) -> str:
    """``colour`` mixed with white (k > 0) or black (k < 0) by the share ``abs(k)``."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    target = 255 if k > 0 else 0
    k = abs(k)
    return "#" + "".join(f"{round(c + (target - c) * k):02x}" for c in (r, g, b))


def _fill(canv, colour: str) -> None:
    canv.setFillColor(colors.HexColor(colour))


class FullPage(Flowable):
    """A whole page drawn by ``paint(canvas, width, height)`` in page coordinates, whatever the frame; the book
    gives its page no running footer (see :class:`.document.BookDocument`)."""

    def __init__(self, paint, kind: str, page: tuple[float, float], design: CoverDesign | None = None):
        super().__init__()
        self.paint = paint
        self.design = design
        self.kind = kind  # "front", "endpaper", "back"
        self.page = page  # points
        self._origin = (0.0, 0.0)

    def wrap(self, avail_w, avail_h):
        self.width, self.height = avail_w, avail_h - 1
        return self.width, self.height

    def drawOn(self, canvas, x, y, _sW=0):
        self._origin = (x, y)
        super().drawOn(canvas, x, y, _sW)

    def draw(self):
        canv = self.canv
        canv.saveState()
        canv.translate(-self._origin[0], -self._origin[1])
        self.paint(canv, *self.page)
        canv.restoreState()


def draw_ground(canv, w: float, h: float, design: CoverDesign) -> None:
    """The ground past every edge by :data:`REACH`: the deck's back, enlarged until its safe area covers it."""
    reach = REACH * mm
    _fill(canv, design.ground)
    canv.rect(-reach, -reach, w + 2 * reach, h + 2 * reach, stroke=0, fill=1)
    art = design.back
    if art is None:
        return
    # the back's middle covers the page: its frame, corners and any title band at its ends stay off the cover
    inner_w, inner_h = art.trim_w * _GROUND_CROP * mm, art.trim_h * _GROUND_CROP * mm
    scale = max((w + 2 * reach) / inner_w, (h + 2 * reach) / inner_h)
    full_w, full_h = (art.trim_w + 2 * art.bleed) * mm * scale, (art.trim_h + 2 * art.bleed) * mm * scale
    canv.saveState()
    path = canv.beginPath()
    path.rect(-reach, -reach, w + 2 * reach, h + 2 * reach)
    canv.clipPath(path, stroke=0, fill=0)
    canv.translate((w - full_w) / 2, (h - full_h) / 2)
    canv.scale(scale, scale)
    use_side(canv, art.form, (art.trim_w + 2 * art.bleed, art.trim_h + 2 * art.bleed), art.piece)
    canv.restoreState()


def _plate(canv, x: float, y: float, w: float, h: float, design: CoverDesign) -> None:
    """A plate in the deck's paper colour with a double frame in its accent."""
    _fill(canv, design.paper)
    canv.roundRect(x, y, w, h, 2.5 * mm, stroke=0, fill=1)
    canv.saveState()
    canv.setStrokeColor(colors.HexColor(design.accent))
    canv.setLineWidth(1.1)
    canv.roundRect(x + 2.2 * mm, y + 2.2 * mm, w - 4.4 * mm, h - 4.4 * mm, 1.6 * mm, stroke=1, fill=0)
    canv.setLineWidth(0.4)
    canv.roundRect(x + 3.3 * mm, y + 3.3 * mm, w - 6.6 * mm, h - 6.6 * mm, 1.0 * mm, stroke=1, fill=0)
    canv.restoreState()


def _style(name: str, font: str, size: float, colour: str, leading: float = 1.2, **kw) -> ParagraphStyle:
    """A centred style of the covers, set for the book's language (its script, its direction)."""
    style = ParagraphStyle(
        name, fontName=font, fontSize=size, leading=size * leading, textColor=colors.HexColor(colour), alignment=TA_CENTER, **kw
    )
    set_for_language([style], language())
    style.alignment = kw.get("alignment", TA_CENTER)
    return style


def _stack(paragraphs: list[tuple[Paragraph, float]], width: float) -> tuple[list[tuple[Paragraph, float, float]], float]:
    """Paragraphs (each with the space after it) wrapped to ``width``: their heights and the whole height."""
    out, total = [], 0.0
    for para, after in paragraphs:
        _, ph = para.wrap(width, 10_000)
        out.append((para, ph, after))
        total += ph + after
    return out, total


def _draw_stack(canv, stack, x: float, top: float, width: float) -> None:
    y = top
    for para, ph, after in stack:
        y -= ph
        para.drawOn(canv, x, y)
        y -= after


def title_size(lines: list[str], font: str, width: float, largest: float) -> float:
    """The largest size up to ``largest`` at which every line fits ``width``."""
    widest = max(stringWidth(line, font, 1.0) for line in lines)
    return min(largest, width / widest if widest else largest)


def draw_front(canv, w: float, h: float, design: CoverDesign, lines_for) -> None:
    """The front cover: the ground, the title plate, the fanned hand and the edition."""
    draw_ground(canv, w, h, design)
    unit = w / (148 * mm)  # sizes are set for A5 and grow with the page
    plate_w = w * 0.80
    inner = plate_w - 16 * mm
    lines = list(design.title_lines) or lines_for(design.title, design.title_font, inner, 34 * unit)
    size = title_size(lines, design.title_font, inner, 34 * unit)
    paragraphs = [
        (
            Paragraph("<br/>".join(escape(line) for line in lines), _style("t", design.title_font, size, design.ink, 1.08)),
            4 * unit,
        )
    ]
    if design.subtitle:
        sub = lines_for(design.subtitle, design.text_font, inner, 11.5 * unit)
        style = _style("s", design.text_font, 11.5 * unit, design.ink, 1.25)
        paragraphs.append((Paragraph("<br/>".join(escape(line) for line in sub), style), 3 * unit))
    if design.by:
        paragraphs.append((Paragraph(escape(design.by), _style("b", design.title_font, 9 * unit, design.ink, 1.2)), 0))
    stack, height = _stack(paragraphs, inner)
    plate_h = height + 18 * mm * unit
    plate_top = h - 16 * mm * unit
    x = (w - plate_w) / 2
    _plate(canv, x, plate_top - plate_h, plate_w, plate_h, design)
    _draw_stack(canv, stack, x + 8 * mm, plate_top - 9 * mm * unit, inner)
    room_top = plate_top - plate_h - 6 * mm * unit
    foot = 14 * mm * unit
    if design.edition:
        style = _style("e", design.title_font, 8.5 * unit, design.accent)
        para = Paragraph(escape(design.edition), style)
        _pw, ph = para.wrap(w * 0.8, 100)
        para.drawOn(canv, (w - w * 0.8) / 2, 7 * mm * unit)
        foot = 7 * mm * unit + ph + 5 * mm * unit
    if design.fan:
        _draw_hand(canv, list(design.fan), (w / 2, foot), room_top - foot, w * 0.86, design.layout)


def _draw_hand(canv, arts: list, foot: tuple[float, float], room_h: float, room_w: float, layout: str) -> None:
    """Cards fanned (or in a row, or one alone) standing on ``foot``, as large as ``room_h`` x ``room_w`` allows."""
    cx, y0 = foot
    n = len(arts)
    ratio = arts[0].trim_h / arts[0].trim_w
    if layout == "single" or n == 1:
        card_w = min(room_w * 0.5, room_h / ratio)
        draw_card(canv, arts[0], cx - card_w / 2, y0, card_w)
        return
    if layout == "row":
        step = 0.55
        card_w = min(room_w / (1 + step * (n - 1)), room_h / ratio)
        left = cx - card_w * (1 + step * (n - 1)) / 2
        for i, art in enumerate(arts):
            draw_card(canv, art, left + i * card_w * step, y0, card_w)
        return
    angles = [(i - (n - 1) / 2) * _FAN_DEGREES for i in range(n)]

    # the fan's size for a card 1 wide: its cards turn about a point 1.5 card heights below their feet
    def box(card_w: float) -> tuple[float, float, float, float]:
        card_h, radius = card_w * ratio, card_w * ratio * 1.5
        xs, ys = [], []
        for a in angles:
            t = math.radians(-a)
            for px, py in (
                (-card_w / 2, radius),
                (card_w / 2, radius),
                (-card_w / 2, radius + card_h),
                (card_w / 2, radius + card_h),
            ):
                xs.append(px * math.cos(t) - py * math.sin(t))
                ys.append(px * math.sin(t) + py * math.cos(t))
        return min(xs), min(ys), max(xs), max(ys)

    left, bottom, right, top = box(1.0)
    card_w = min(room_w / (right - left), room_h / (top - bottom))
    left, bottom, right, top = box(card_w)
    pivot = (cx - (left + right) / 2, y0 - bottom)
    for angle, art in zip(angles, arts):
        canv.saveState()
        canv.translate(*pivot)
        canv.rotate(-angle)
        draw_card(canv, art, -card_w / 2, card_w * ratio * 1.5, card_w)
        canv.restoreState()


def _icon(canv, name: str, x: float, y: float, size: float, colour: str) -> None:
    """A library symbol ``size`` points high with its bottom-left at (x, y)."""
    size_mm = size / mm
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_mm:.3f}mm" height="{size_mm:.3f}mm" '
        f'viewBox="0 0 {size_mm:.3f} {size_mm:.3f}">{symbol_svg(name, size_mm / 2, size_mm / 2, size_mm * 0.92, colour)}</svg>'
    )
    canv.saveState()
    canv.translate(x, y)
    use_side(
        canv,
        "cover-icon-" + re.sub(r"[^A-Za-z0-9]+", "-", f"{name}-{colour}-{size_mm:.2f}"),
        (size_mm, size_mm),
        partial(side_pdf, svg, f"icon {name}"),
    )
    canv.restoreState()


def _age_badge(canv, value: str, x: float, y: float, size: float, design: CoverDesign) -> None:
    """The age as a round badge ("10+"), the way game boxes show it."""
    found = re.search(r"\d+", value)
    canv.saveState()
    canv.setStrokeColor(colors.HexColor(design.accent))
    canv.setLineWidth(size * 0.09)
    canv.circle(x + size / 2, y + size / 2, size * 0.45, stroke=1, fill=0)
    _fill(canv, design.accent)
    label = f"{found.group(0)}+" if found else "?"
    font_size = size * (0.42 if len(label) <= 2 else 0.34)
    canv.setFont(_SANS_BOLD, font_size)
    canv.drawCentredString(x + size / 2, y + size / 2 - font_size * 0.35, label)
    canv.restoreState()


def _facts(canv, design: CoverDesign, x: float, y: float, width: float, unit: float) -> None:
    """Players, time and age, each with its icon, in a column from (x, y) upwards."""
    size = 7.5 * mm * unit
    step = size + 3 * mm * unit
    style = _style("f", _SANS, 8.5 * unit, design.paper, 1.15)
    style.alignment = 0
    for i, (icon, label, value) in enumerate(reversed(design.facts)):
        yy = y + i * step
        if icon == "age":
            _age_badge(canv, value, x, yy, size, design)
        else:
            _icon(canv, icon, x, yy, size, design.accent)
        para = Paragraph(f'<font name="{_SANS_BOLD}">{escape(label)}</font><br/>{escape(value)}', style)
        _, ph = para.wrap(width - size - 3 * mm, size * 2)
        para.drawOn(canv, x + size + 3 * mm * unit, yy + (size - ph) / 2)


def _barcode(canv, design: CoverDesign, x: float, y: float) -> None:
    """A clear box for the barcode; the EAN-13 of the book's ISBN in it when it has one."""
    bw, bh = BARCODE_BOX[0] * mm, BARCODE_BOX[1] * mm
    canv.setFillColor(colors.white)
    canv.rect(x, y, bw, bh, stroke=0, fill=1)
    if not design.isbn:
        return
    # reportlab draws its barcodes in a drawing of its own: the bars from the ISBN's first twelve digits
    from reportlab.graphics import renderPDF
    from reportlab.graphics.barcode.eanbc import Ean13BarcodeWidget
    from reportlab.graphics.shapes import Drawing

    widget = Ean13BarcodeWidget(design.isbn[:12], fontName=_SANS, fontSize=8, barHeight=17 * mm, barWidth=0.33 * mm)
    widget.barFillColor = widget.textColor = colors.black
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(x1 - x0, y1 - y0)
    drawing.add(widget)
    left = x + (bw - (x1 - x0)) / 2
    renderPDF.draw(drawing, canv, left, y + 3 * mm)
    canv.setFillColor(colors.black)
    canv.setFont(_SANS, 8)
    canv.drawCentredString(x + bw / 2, y + 3 * mm + (y1 - y0) + 1.5 * mm, "ISBN " + hyphenless(design.isbn))


def hyphenless(isbn: str) -> str:
    """An ISBN-13 written as its prefix, then the rest (ranges of registration groups are not known here)."""
    return f"{isbn[:3]}-{isbn[3:12]}-{isbn[12]}"


def draw_back(canv, w: float, h: float, design: CoverDesign) -> None:
    """The back cover over its whole area: a panel with the title, blurb and credits; a spread of cards;
    players, time and age with their icons; the barcode box."""
    draw_ground(canv, w, h, design)
    unit = w / (148 * mm)
    margin = 12 * mm * unit
    panel_w = w - 2 * margin
    inner = panel_w - 16 * mm * unit
    paragraphs = [(Paragraph(escape(design.title), _style("bt", design.title_font, 15 * unit, design.ink)), 4 * unit)]
    if design.blurb:
        paragraphs.append((Paragraph(escape(design.blurb), _style("bb", design.text_font, 11 * unit, design.ink, 1.3)), 5 * unit))
    for line in design.credits:
        paragraphs.append((Paragraph(escape(line), _style("bc", _SANS, 6.8 * unit, tint(design.ink, 0.25), 1.25)), 1.5 * unit))
    stack, height = _stack(paragraphs, inner)
    panel_h = height + 16 * mm * unit
    top = h - margin
    _plate(canv, margin, top - panel_h, panel_w, panel_h, design)
    _draw_stack(canv, stack, margin + 8 * mm * unit, top - 8 * mm * unit, inner)
    foot = margin + BARCODE_BOX[1] * mm
    _barcode(canv, design, w - margin - BARCODE_BOX[0] * mm, margin)
    if design.facts:
        _facts(canv, design, margin, margin, w - 2 * margin - BARCODE_BOX[0] * mm - 4 * mm, unit)
        foot = max(foot, margin + len(design.facts) * (10.5 * mm * unit))
    room = top - panel_h - foot - 14 * mm * unit
    if design.spread and room > 20 * mm:
        _draw_hand(canv, list(design.spread), (w / 2, foot + 7 * mm * unit), room, w - 2 * margin, "row")


def draw_endpaper(canv, w: float, h: float, design: CoverDesign) -> None:
    """The inside of a cover: a pale tint of the ground with the deck's emblem, to the page's edges."""
    reach = REACH * mm
    _fill(canv, tint(design.ground, 0.88))
    canv.rect(-reach, -reach, w + 2 * reach, h + 2 * reach, stroke=0, fill=1)
    size = min(w, h) * 0.55
    _icon(canv, design.emblem, (w - size) / 2, (h - size) / 2, size, tint(design.ground, 0.78))
