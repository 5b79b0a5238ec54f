"""Book assembly: title page, contents, body; running footers, outline, links.

Facing pages: odd pages are right-hand pages (wider inner margin on the
left), even pages left-hand.  The footer carries the page number on the outer
side, the book's title on left-hand pages and the current chapter on
right-hand pages.  The first pass is made on a sketch canvas, where nothing
is drawn: it finds the pages the contents list.  The pass that follows draws
the book (and another follows only if the contents moved a heading).
"""

from __future__ import annotations

import functools
import io
import itertools
from dataclasses import dataclass, field, replace

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Frame,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
    paragraph,
)
from reportlab.platypus.tableofcontents import TableOfContents

from ..libraries.reportlab import frame_fill, inner_flowables, line_texts, undrawn_on, unsaved_pass
from ..render.placed import fill_sides
from .cover import EndOfBody
from .coverart import FullPage
from .flow import Heading
from .keeping import FULL, BookTable, KeepWithStart, unwrapped
from .markup import escape
from .paragraphs import Paragraph
from .scripts import right_to_left, runs, set_in_script_fonts
from .style import SANS, TITLE, Styles
from .words import language, words

_WIDOW = 0.2  # a chapter's last page holding less than this share of a page is a widow page
_MAX_PASSES = 10


@dataclass(frozen=True)
class Placed:
    """A heading, table or chart (part) as laid out: its page, width (points) and what it is."""

    page: int
    kind: str  # "heading", "table", "chart", "text" (anything else drawn: paragraphs, lists, pictures), or a page
    # drawn whole: "front", "endpaper", "back"
    width: float = 0.0
    height: float = 0.0
    title: str = ""  # a heading's
    level: int = 0  # a heading's
    part: int = 0  # a table's: 0 for its start, 1 for what runs over onto the next page, ...
    rows: int = 0  # a table part's rows beyond its repeated header
    whole_rows: int = 0  # a table's rows beyond its header, in all its parts
    lines: tuple[str, ...] = ()  # a heading's lines, as broken
    breaks: tuple[tuple[str, str], ...] = ()  # each line break inside a paragraph: (the line's end, the next line's start)
    wrapped: tuple[str, ...] = ()  # a table's cells set on more than one line


@dataclass
class Layout:
    """Where a book's pages ended and what they hold, as the last pass laid them out."""

    fills: dict[int, float] = field(default_factory=dict)  # body page -> share of the frame's height in use
    chapters: set[int] = field(default_factory=set)  # pages on which a chapter starts
    placed: list[Placed] = field(default_factory=list)  # headings and tables in reading order
    cover: object = None  # the covers' design (see .coverart.CoverDesign)
    measure: float = 0.0  # the width of the running text (points)
    frame_height: float = 0.0  # the height of a page's text area (points)

    def underfilled(self) -> list[int]:
        """Body pages filled less than two thirds of the way down, other than a chapter's last page."""
        last = max(self.fills, default=0)
        first = min(self.chapters, default=last + 1)
        return [page for page in range(first, last) if page + 1 not in self.chapters and self.fills.get(page, 1.0) < FULL]


def _paragraphs(flowable):
    """Every paragraph a flowable draws (itself, or inside its lists, tables and groups)."""
    if isinstance(flowable, paragraph.Paragraph):
        yield flowable
        return
    for held in inner_flowables(flowable):
        yield from _paragraphs(held)


def _breaks(para) -> list[tuple[str, str]]:
    """Each line break of a wrapped paragraph: the end of one line and the start of the next."""
    lines = line_texts(para)
    return [(a, b) for a, b in itertools.pairwise(lines)]


class _OutlinedCanvas(Canvas):
    """A book's canvas: the PDF opens with its outline (the headings) shown."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.showOutline()


class SketchCanvas(Canvas):
    """The canvas of a pass that only lays the book out: every flowable is placed, none is drawn."""


def _toc_entry(heading: Heading, page: int) -> tuple[int, str, int, str]:
    """The contents' entry for a heading on ``page``."""
    return heading.level, escape(heading.title), page, heading.key


class BookDocument(BaseDocTemplate):
    def __init__(self, target, styles: Styles, title: str, subject: str, author: str = "", language: str = "en-GB"):
        self.s = styles
        self.book_title = title
        self.chapter = ""
        super().__init__(
            target,
            pagesize=styles.page,
            invariant=1,
            title=title,
            author=author,  # the designer; empty when the sources name nobody (never "anonymous")
            lang=language,
            subject=subject,
            creator="Aetherpress",
            producer="Aetherpress",
            leftMargin=styles.margins[0],
            rightMargin=styles.margins[1],
            topMargin=styles.margins[2],
            bottomMargin=styles.margins[3],
            initialFontName=styles.body.fontName,
            initialFontSize=styles.body.fontSize,
        )
        self.keepTogetherClass = KeepWithStart  # keep-with-next that may split a long table after its start
        _w, h = styles.page
        inner, outer, top, bottom = styles.margins
        # frames are as wide as the measure of the text; charts break out to the margins' edge
        fw, fh, inset = styles.measure, h - top - bottom, styles.inset
        pad = {"leftPadding": 0, "rightPadding": 0, "topPadding": 0, "bottomPadding": 0}
        right = Frame(inner + inset, bottom, fw, fh, id="right", **pad)
        left = Frame(outer + inset, bottom, fw, fh, id="left", **pad)
        title_frame = Frame(inner + inset, bottom, fw, fh, id="title", **pad)
        verso = Frame(outer + inset, bottom, fw, fh, id="verso", **pad)
        self.addPageTemplates(
            [
                PageTemplate("title", [title_frame], autoNextPageTemplate="verso"),
                PageTemplate("verso", [verso], autoNextPageTemplate="right"),
                PageTemplate("left", [left], onPageEnd=self._footer, autoNextPageTemplate="right"),
                PageTemplate("right", [right], onPageEnd=self._footer, autoNextPageTemplate="left"),
                PageTemplate("blank", [Frame(inner + inset, bottom, fw, fh, id="blank", **pad)], autoNextPageTemplate="blank"),
            ]
        )

    def multiBuild(self, story, maxPasses=_MAX_PASSES, **build):
        """reportlab's passes, the first on a sketch canvas: it only finds where the headings fall, for
        the contents, and nothing drawn on it is kept (the last pass, drawn, is the book)."""
        if not any(f.isIndexing() for f in story):
            return super().multiBuild(story, maxPasses, **build)
        # the sketch's contents lists every heading (on no page yet), so it takes as many pages as the book's will
        listed = [_toc_entry(f, 0) for f in story if isinstance(f, Heading) and f.level <= 1]
        # the layout of a flowable never depends on its drawing: on the sketch canvas, nothing is drawn
        with unsaved_pass(self, story) as indexing, undrawn_on(SketchCanvas):
            for flowable in indexing:
                if isinstance(flowable, TableOfContents):
                    flowable.addEntries(listed)
                flowable.beforeBuild()
            self.build(story[:], canvasmaker=functools.partial(SketchCanvas, initialFontName=self.s.body.fontName))
            for flowable in indexing:
                flowable.afterBuild()
        return super().multiBuild(story, maxPasses, **build)

    def handle_documentBegin(self):
        self.chapter = ""
        self.layout = Layout(measure=self.s.measure, frame_height=self.s.page[1] - self.s.margins[2] - self.s.margins[3])
        self.fills = self.layout.fills  # page -> share of the frame's height in use when the page ended
        self.chapter_pages = self.layout.chapters
        self.body_last = 0  # the last page of the text (filled pages, the endpaper and the back cover follow it)
        self.bare_pages: set[int] = set()  # pages drawn whole (covers, endpapers): no running footer
        super().handle_documentBegin()

    def handle_pageEnd(self):
        used, height = frame_fill(self.frame)
        if not self.body_last or self.page == self.body_last:  # the text's pages, not the blanks and back cover
            self.fills[self.page] = used / height if height else 0.0
        super().handle_pageEnd()

    def widows(self) -> list[int]:
        """Pages of the body that end a chapter holding less than a fifth of a page, or are less than two thirds
        full mid-chapter."""
        last = max(self.fills, default=0)
        first = min(self.chapter_pages, default=last + 1)
        bad = []
        for page in range(first, last + 1):
            ends_chapter = page == last or page + 1 in self.chapter_pages
            fill = self.fills.get(page, 1.0)
            if (ends_chapter and page not in self.chapter_pages and fill < _WIDOW) or (not ends_chapter and fill < FULL):
                bad.append(page)
        return bad

    def afterFlowable(self, flowable):
        if isinstance(flowable, FullPage):
            self.bare_pages.add(self.page)
            self.layout.placed.append(Placed(self.page, flowable.kind))
            return
        inner = unwrapped(flowable)
        paragraphs = list(_paragraphs(flowable))
        breaks = tuple(b for p in paragraphs for b in _breaks(p))
        if isinstance(inner, BookTable):
            width = sum(inner._colWidths)
            wrapped = tuple(" ".join(cell) for p in paragraphs if len(cell := line_texts(p)) > 1)
            placed = Placed(self.page, inner.kind, width, inner._height, part=inner.part, rows=inner.body_rows)
            self.layout.placed.append(replace(placed, whole_rows=inner.all_rows, breaks=breaks, wrapped=wrapped))
        elif isinstance(flowable, Heading):
            heading_lines = tuple(line_texts(flowable))
            self.layout.placed.append(
                Placed(self.page, "heading", title=flowable.title, level=flowable.level, lines=heading_lines)
            )
        elif not isinstance(flowable, (Spacer, CondPageBreak, PageBreak, EndOfBody)):
            height = float(vars(flowable).get("height", 0.0) or 0.0)
            if height:  # what was drawn: not the page-top markers, which take no room
                drawn_w = float(vars(flowable).get("width", 0.0) or 0.0)
                self.layout.placed.append(Placed(self.page, "text", drawn_w, height, breaks=breaks))
        if isinstance(flowable, EndOfBody):
            self.body_last = self.page
        if isinstance(flowable, Heading):
            if flowable.level == 0:
                self.chapter = flowable.title
                self.chapter_pages.add(self.page)
            if flowable.level <= 1:
                self.notify("TOCEntry", _toc_entry(flowable, self.page))

    def _footer(self, canv, doc):
        if doc.page in self.bare_pages:
            return
        s = self.s
        w, _ = s.page
        inner, outer, _, bottom = s.margins
        even = doc.page % 2 == 0
        x0, x1 = (outer, w - inner) if even else (inner, w - outer)
        y = bottom * 0.5
        canv.saveState()
        canv.setStrokeColor(s.rule_light)
        canv.setLineWidth(0.4)
        canv.line(x0, y + 9, x1, y + 9)
        canv.setFillColor(s.muted)
        size = s.body.fontSize * 0.75
        canv.setFont(TITLE, size)
        label = self.book_title if even else (self.chapter or self.book_title)
        if right_to_left(language()) or len(runs(label, TITLE)) > 1:
            _footer_label(canv, s, label, (x0 + 8 * mm, x1 - 8 * mm), y, size, even)
            label = ""
        if even:
            canv.drawString(x0, y, str(doc.page))
            canv.drawString(x0 + 8 * mm, y, label)
        else:
            canv.drawRightString(x1, y, str(doc.page))
            canv.drawRightString(x1 - 8 * mm, y, label)
        canv.restoreState()


def _footer_label(canv, s: Styles, label: str, span: tuple[float, float], y: float, size: float, even: bool) -> None:
    """A running head in a script the title face lacks, or written right to left: set as a paragraph is."""
    from reportlab.lib.enums import TA_LEFT, TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle

    style = ParagraphStyle("footer", fontName=TITLE, fontSize=size, leading=size * 1.2, textColor=s.muted)
    style.alignment = TA_LEFT if even else TA_RIGHT
    style.rightToLeft = right_to_left(language())
    para = Paragraph(escape(label), style)
    width = span[1] - span[0]
    _, height = para.wrap(width, size * 4)
    para.drawOn(canv, span[0], y - height + size)


class ScriptContents(TableOfContents):
    """The contents of a book in Hebrew, Arabic, Chinese, Japanese or Korean: each entry set as the book's paragraphs are (fonts
    run by run, right to left), its page number at the line's far end, without dots."""

    def wrap(self, availWidth, availHeight):
        from reportlab.lib.enums import TA_LEFT, TA_RIGHT
        from reportlab.lib.styles import ParagraphStyle

        rtl = right_to_left(language())
        number_width = 10 * mm
        rows = []
        for level, text, page, key in self._lastEntries or [(0, "", 0, None)]:
            style = self.getLevelStyle(level)
            entry = Paragraph(f'<a href="#{key}">{text}</a>' if key else text, style)
            number_style = ParagraphStyle("page", parent=style, leftIndent=0, rightIndent=0, wordWrap=None)
            number_style.alignment = TA_LEFT if rtl else TA_RIGHT
            number = Paragraph(str(page), number_style)
            rows.append([number, entry] if rtl else [entry, number])
        widths = (number_width, availWidth - number_width) if rtl else (availWidth - number_width, number_width)
        self._table = Table(rows, colWidths=widths, style=self.tableStyle)
        self.width, self.height = self._table.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height


def contents(styles: Styles) -> list:
    code = language()
    kind = ScriptContents if set_in_script_fonts(code) else TableOfContents
    toc = kind(levelStyles=styles.toc_levels, dotsMinLevel=1)
    toc.tableStyle = TableStyle(
        [
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5),
            ("FONTNAME", (0, 0), (-1, -1), SANS),
        ]
    )
    return [Paragraph(words("Contents"), styles.h1), toc, PageBreak()]


def render_pdf(
    styles: Styles, title: str, subject: str, story: list, author: str = "", language: str = "en-GB"
) -> tuple[bytes, list[int], Layout]:
    """The PDF, the pages that are widows or under two thirds full (see ``BookDocument.widows``) and its layout.

    Its Author is ``author`` (the game's designer; none when the sources name nobody), its Lang
    ``language``, and it opens with its outline shown."""
    buffer = io.BytesIO()
    doc = BookDocument(buffer, styles, title, subject, author, language)
    doc.multiBuild(story, canvasmaker=functools.partial(_OutlinedCanvas, initialFontName=styles.body.fontName))
    return fill_sides(doc.canv, buffer.getvalue()), doc.widows(), doc.layout
