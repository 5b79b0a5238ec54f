"""The covers of a book: the title page (the front cover) and the back cover.

The front cover sets the title in balanced lines (as even in width as the
words allow, no line ending on a joining word such as "&" or "of", no word
left alone on a line when the title has more), "by" the designer the credits
name, the subtitle and the cover pictures.  The back cover is the book's last
page: the blurb, who plays and for how long, and the credits in one line
each.  Blank pages go before it so that the book's pages are a multiple of
four (a saddle-stitched booklet's sheets) and the last text page is never
the outside back cover.  What the covers say is data in the rulebook file.
"""

from __future__ import annotations

import itertools

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, HRFlowable, NextPageTemplate, PageBreak, Spacer, Table, TableStyle
from reportlab.platypus.flowables import DocWhile

from .keeping import BreakOut
from .markup import escape
from .paragraphs import Paragraph
from .style import SANS, Styles
from .words import words

JOINING = {"&", "and", "of", "the", "a", "an", "in", "for", "to", "with", "or"}  # never the last word of a line
MAX_LINES = 3
SIGNATURE = 4  # pages of a folded sheet: the book's pages are a multiple of this


def balanced_lines(title: str, width, measure: float) -> list[str]:
    """``title`` in as few lines as fit ``measure`` (``width(text)`` measures a line), the widest line as
    narrow as it can be; no line ends on a joining word and, with three words or more, none is one word."""
    words = title.split()
    if width(title) <= measure or len(words) < 2:
        return [title]
    best: tuple[float, list[str]] | None = None
    for count in range(2, min(MAX_LINES, len(words)) + 1):
        for cuts in itertools.combinations(range(1, len(words)), count - 1):
            lines = [" ".join(words[a:b]) for a, b in zip((0, *cuts), (*cuts, len(words)))]
            if any(line.split()[-1].lower() in JOINING for line in lines[:-1]):
                continue
            if len(words) >= 3 and any(len(line.split()) == 1 for line in lines):
                continue
            widest = max(width(line) for line in lines)
            if best is None or widest < best[0]:
                best = (widest, lines)
        if best is not None and best[0] <= measure:
            return best[1]
    return best[1] if best is not None else [title]


def title_page(
    styles: Styles, title: str, lines: list[str], subtitle: str, by: str, cover: list, colophon, edition: str = ""
) -> list:
    """The front cover, then the colophon on its back."""
    s = styles
    fh = s.page[1] - s.margins[2] - s.margins[3]
    title_style = s.title
    if not lines:
        lines = balanced_lines(title, lambda t: stringWidth(t, s.title.fontName, s.title.fontSize), s.measure * 0.92)
    if max(stringWidth(line, s.title.fontName, s.title.fontSize) for line in lines) > s.measure:
        title_style = s.title.clone("title-long", fontSize=s.title.fontSize * 0.78, leading=s.title.leading * 0.8)
    flow: list = [
        Spacer(1, fh * 0.12),
        Paragraph("<br/>".join(escape(line) for line in lines), title_style),
        HRFlowable(width="22%", thickness=0.8, color=s.accent, spaceBefore=10, spaceAfter=4, hAlign="CENTER"),
    ]
    if by:
        flow += [Spacer(1, 4), Paragraph(words("by {name}", name=escape(by)), s.title_small)]
    if subtitle:
        parts = balanced_lines(subtitle, lambda t: stringWidth(t, s.subtitle.fontName, s.subtitle.fontSize), s.measure)
        flow += [Spacer(1, 8), Paragraph("<br/>".join(escape(line) for line in parts), s.subtitle)]
    flow.append(Spacer(1, fh * 0.08))
    if cover:
        widths = [c.wrap(1e6, 1e6)[0] + 4 * mm for c in cover]
        row = Table([cover], colWidths=widths, hAlign="CENTER")
        row.setStyle(
            TableStyle(
                [
                    ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("FONTNAME", (0, 0), (-1, -1), SANS),
                ]
            )
        )
        flow.append(BreakOut(row, s.inset))
    if edition:
        flow.append(Paragraph(escape(edition), s.title_small))
    flow += [NextPageTemplate("verso"), PageBreak(), colophon, NextPageTemplate("right"), PageBreak()]
    return flow


class EndOfBody(Flowable):
    """Marks the end of the book's text: pages after it are blanks and the back cover."""

    def wrap(self, avail_w, avail_h):
        return 0, 0

    def draw(self):
        pass


def back_cover(styles: Styles, title: str, blurb: str, facts: list[tuple[str, str]], credits: list[str]) -> list:
    """The end of the text, blank pages to make the pages a multiple of four, then the back cover."""
    s = styles
    fh = s.page[1] - s.margins[2] - s.margins[3]
    flow: list = [EndOfBody(), NextPageTemplate("blank"), PageBreak()]
    flow.append(DocWhile(f"doc.page % {SIGNATURE} != 0", [PageBreak()]))
    flow += [Spacer(1, fh * 0.1), Paragraph(escape(title), s.title_small)]
    flow.append(HRFlowable(width="22%", thickness=0.8, color=s.accent, spaceBefore=6, spaceAfter=10, hAlign="CENTER"))
    if blurb:
        flow += [Paragraph(escape(blurb), s.subtitle), Spacer(1, 12)]
    if facts:
        line = " · ".join(words("{fact}: {value}", fact=escape(k), value=escape(v)) for k, v in facts)
        flow += [Paragraph(line, s.title_small), Spacer(1, 16)]
    for line in credits:
        flow.append(Paragraph(escape(line), s.colophon))
    return flow
