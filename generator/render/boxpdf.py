"""A tuck box drawn on one sheet: the deck's back art, its title and credits, cut and fold lines.

The geometry comes from :mod:`..imposition.tuckbox`.  The net is filled with
the back's colour, running :data:`_BLEED` mm past every cut so a slightly
missed cut shows no white; the front and back panels carry the deck's back
art, the sides and lid its title, the back a label with the card count, size,
description and credits.  Cut lines are solid black, folds dashed grey.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import partial

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..definitions.model import Deck
from ..definitions.styles import style_value
from ..faces.render import FaceRenderer
from ..geometry import Box
from ..imposition.boxnet import BoxSheet, TuckBox
from ..project import Project
from ..resources.fonts import DEFAULT_FONT, font_book, font_name
from .canvas import new_canvas
from .colour import colour_converter
from .placed import fill_sides, use_side
from .vector import font_files, side_pdf

_BLEED = 2.0  # mm of colour past the cut line
CUT_WIDTH = 0.2  # mm
_FOLD_GREY = 0.45
_TITLE_FONT = font_name("Cinzel", "bold")


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


class _BoxPainter:
    """Draws one tuck box: coordinates in mm with y down from the net's top-left corner."""

    def __init__(self, canvas: Canvas, project: Project, deck: Deck, box: TuckBox, greyscale: bool = False):
        self.canvas, self.deck, self.box = canvas, deck, box
        self.convert = colour_converter(greyscale) or (lambda c: c)
        style = deck.style
        self.field = self.convert(colors.HexColor(style_value(style, "back_colour")))
        self.accent = self.convert(colors.HexColor(style_value(style, "back_accent")))
        self.paper = self.convert(colors.HexColor(style_value(style, "paper")))
        self.ink = self.convert(colors.HexColor(style_value(style, "ink")))
        self.faces = FaceRenderer(project, deck)
        first = deck.cards[0] if deck.cards else None
        self.back = partial(
            side_pdf,
            self.faces.back(first),
            self.faces.template_file(deck.back_for(first) if first else deck.back_template),
            f"back of deck '{deck.id}'",
            font_files(font_book(project)),
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
        c.setLineWidth(2 * _BLEED * mm)
        c.setLineJoin(1)
        c.drawPath(self.path(box.outline), stroke=1, fill=1)  # the field, with bleed past every cut
        c.restoreState()
        for name in ("front", "back"):
            self.art(box.panels[name])
        self.front_title(box.panels["front"])
        self.label(box.panels["back"])
        for name in ("side-1", "side-2"):
            self.spine(box.panels[name])
        self.lid(box.panels["lid"], turned=True)  # reads upright from the front once folded
        self.lid(box.panels["bottom"])
        self.lines()

    def art(self, panel: Box) -> None:
        """The deck's back, scaled so its trim covers the panel, clipped to the panel and the cut outline."""
        c, g = self.canvas, self.faces.geometry
        scale = max(panel.w / g.trim_w, panel.h / g.trim_h)
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

    def plate(self, box: Box) -> None:
        c = self.canvas
        c.saveState()
        c.setFillColor(self.field)
        c.setStrokeColor(self.accent)
        c.setLineWidth(0.6 * mm)
        c.roundRect(box.x * mm, -box.bottom * mm, box.w * mm, box.h * mm, 2 * mm, stroke=1, fill=1)
        c.restoreState()

    def text(self, x: float, y: float, text: str, font: str, size: float, colour, centred: bool = True) -> None:
        c = self.canvas
        c.setFillColor(colour)
        c.setFont(font, size)
        (c.drawCentredString if centred else c.drawString)(x * mm, -y * mm, text)

    def front_title(self, panel: Box) -> None:
        plate = Box(panel.x + 5, panel.y + panel.h * 0.66, panel.w - 10, panel.h * 0.26)  # over a back's lower ornament
        self.plate(plate)
        size = _fit(self.deck.title, _TITLE_FONT, 14, (plate.w - 6) * mm)
        self.text(plate.cx, plate.cy + size * 0.35 / mm * 0.9, self.deck.title, _TITLE_FONT, size, self.accent)

    def label(self, panel: Box) -> None:
        """The back: a plate with the title, what is inside, the description and credits."""
        d, g = self.deck, self.faces.geometry
        width = (panel.w - 16) * mm
        body: list[tuple[str, str, float]] = [(d.title, _TITLE_FONT, _fit(d.title, _TITLE_FONT, 11, width))]
        body.append((f"{d.card_count} cards · {g.trim_w:g} × {g.trim_h:g} mm", DEFAULT_FONT, 8.5))
        body += [(line, DEFAULT_FONT, 8) for line in _wrap(d.description, DEFAULT_FONT, 8, width)]
        body += [
            (line, font_name("EB Garamond", "normal", "italic"), 7.5)
            for c in _credits(d)
            for line in _wrap(c, DEFAULT_FONT, 7.5, width)
        ]
        height = sum(size * 1.3 for _, _, size in body) / mm + 8
        plate = Box(panel.x + 5, panel.bottom - 6 - height, panel.w - 10, height)
        self.plate(plate)
        y = plate.y + 4
        for text, font, size in body:
            y += size * 1.3 / mm
            self.text(plate.cx, y - size * 0.3 / mm, text, font, size, self.accent)

    def spine(self, panel: Box) -> None:
        """The title along a side, reading upwards."""
        c = self.canvas
        size = min(panel.w * 0.45 * mm, _fit(self.deck.title, _TITLE_FONT, 40, (panel.h - 10) * mm))
        c.saveState()
        c.translate(panel.cx * mm, -panel.cy * mm)
        c.rotate(90)
        self.text(0, size * 0.35 / mm, self.deck.title, _TITLE_FONT, size, self.accent)
        c.restoreState()

    def lid(self, panel: Box, turned: bool = False) -> None:
        c = self.canvas
        size = min(panel.h * 0.5 * mm, _fit(self.deck.title, _TITLE_FONT, 14, (panel.w - 8) * mm))
        c.saveState()
        c.translate(panel.cx * mm, -panel.cy * mm)
        if turned:
            c.rotate(180)
        self.text(0, size * 0.35 / mm, self.deck.title, _TITLE_FONT, size, self.accent)
        c.restoreState()

    def lines(self) -> None:
        c = self.canvas
        c.saveState()
        c.setLineWidth(CUT_WIDTH * mm)
        c.setStrokeColorRGB(_FOLD_GREY, _FOLD_GREY, _FOLD_GREY)
        c.setDash([2 * mm, 1.5 * mm])
        for f in self.box.folds:
            c.line(f.x1 * mm, -f.y1 * mm, f.x2 * mm, -f.y2 * mm)
        c.setDash([])
        c.setStrokeColorRGB(0, 0, 0)
        c.drawPath(self.path(self.box.outline), stroke=1, fill=0)
        c.restoreState()


def draw_box_page(project: Project, deck: Deck, box: TuckBox, sheet: BoxSheet, caption: str, greyscale: bool = False) -> bytes:
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
    _BoxPainter(canvas, project, deck, box, greyscale).paint()
    canvas.restoreState()
    canvas.setFillColorRGB(0.3, 0.3, 0.3)
    size = _fit(caption, DEFAULT_FONT, 8, (paper.width - 20) * mm)
    canvas.setFont(DEFAULT_FONT, size)
    net_h = box.size[0] if sheet.turned else box.size[1]
    below = sheet.y + net_h + _BLEED + 6  # just under the net, clear of the printer's margin
    y = below if below <= paper.height - 8 else max(8.0, sheet.y - _BLEED - 4)
    canvas.drawCentredString(paper.width / 2 * mm, (paper.height - y) * mm, caption)
    canvas.showPage()
    canvas.save()
    return fill_sides(canvas, buffer.getvalue())
