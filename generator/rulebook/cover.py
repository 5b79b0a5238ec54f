"""The outside of a book and its first and last pages, in order.

The book opens with its front cover (drawn: see :mod:`.coverart`), the
endpaper inside it, the title page (the title in balanced lines: as even in
width as the words allow, no line ending on a joining word such as "&" or
"of", no word left alone on a line when the title has more) and the
colophon on its back.  It ends with the pages that make its sheets whole
(:mod:`.fillers`, never blank), the endpaper inside the back cover and the
back cover.  What the covers say is data in the rulebook file.
"""

from __future__ import annotations

import itertools
from functools import partial

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, HRFlowable, NextPageTemplate, PageBreak, Spacer

from ..libraries.reportlab import IfPage
from .coverart import CoverDesign, FullPage, draw_back, draw_endpaper, draw_front
from .markup import escape
from .paragraphs import Paragraph
from .style import Styles
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


def title_page(styles: Styles, title: str, lines: list[str], subtitle: str, by: str, colophon, edition: str = "") -> list:
    """The title page (a right-hand page inside the covers), then the colophon on its back: the credits and licence
    are printed on a page of the book, never on a cover's inside, which print-on-demand shops leave blank."""
    s = styles
    fh = s.page[1] - s.margins[2] - s.margins[3]
    title_style = s.title
    if not lines:
        lines = balanced_lines(title, lambda t: stringWidth(t, s.title.fontName, s.title.fontSize), s.measure * 0.92)
    if max(stringWidth(line, s.title.fontName, s.title.fontSize) for line in lines) > s.measure:
        title_style = s.title.clone("title-long", fontSize=s.title.fontSize * 0.78, leading=s.title.leading * 0.8)
    flow: list = [
        Spacer(1, fh * 0.2),
        Paragraph("<br/>".join(escape(line) for line in lines), title_style),
        HRFlowable(width="22%", thickness=0.8, color=s.accent, spaceBefore=10, spaceAfter=4, hAlign="CENTER"),
    ]
    if by:
        flow += [Spacer(1, 4), Paragraph(words("by {name}", name=escape(by)), s.title_small)]
    if subtitle:
        parts = balanced_lines(subtitle, lambda t: stringWidth(t, s.subtitle.fontName, s.subtitle.fontSize), s.measure)
        flow += [Spacer(1, 8), Paragraph("<br/>".join(escape(line) for line in parts), s.subtitle)]
    if edition:
        flow += [Spacer(1, fh * 0.25), Paragraph(escape(edition), s.title_small)]
    flow += [NextPageTemplate("verso"), PageBreak(), colophon, NextPageTemplate("right"), PageBreak()]
    return flow


def front_matter(design: CoverDesign, page: tuple[float, float]) -> list:
    """The front cover and the endpaper inside it."""
    lines = partial(_cover_lines)
    return [
        FullPage(partial(draw_front, design=design, lines_for=lines), "front", page, design),
        PageBreak(),
        FullPage(partial(draw_endpaper, design=design), "endpaper", page),
        NextPageTemplate("title"),
        PageBreak(),
    ]


def _cover_lines(title: str, font: str, width: float, size: float) -> list[str]:
    return balanced_lines(title, lambda t: stringWidth(t, font, size), width)


class EndOfBody(Flowable):
    """Marks the end of the book's text: pages after it are fillers, the endpaper and the back cover."""

    def wrap(self, avail_w, avail_h):
        return 0, 0

    def draw(self):
        pass


def _sheet_open(page: int) -> bool:
    """Would a page set after ``page`` leave a sheet unfinished?"""
    return (page + 1) % SIGNATURE != 0


def back_matter(design: CoverDesign, page: tuple[float, float], fillers: list) -> list:
    """The end of the text, the pages that make the book whole sheets (each a page a reader wants: see
    :mod:`.fillers`), the endpaper inside the back cover, then the back cover."""
    flow: list = [EndOfBody(), PageBreak()]
    for filler in fillers[: SIGNATURE - 1]:
        # the page about to be set, the endpaper and the back cover: filled while they would not end a sheet
        flow.append(IfPage(_sheet_open, [filler, PageBreak()]))
    flow += [FullPage(partial(draw_endpaper, design=design), "endpaper", page), PageBreak()]
    flow.append(FullPage(partial(draw_back, design=design), "back", page))
    return flow
