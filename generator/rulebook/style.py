"""The look of a rulebook: page sizes, margins, paragraph styles, colours.

Body text is EB Garamond, headings Cinzel, tables and charts Source Sans 3:
all shipped TrueType fonts, embedded as subsets.

Text is set justified and hyphenated (Pyphen, British English or the book's language) to a measure
of about 65 characters: on A5 the text block sits inside the frame, on A4 and
Letter it is a single column with wide margins.  Charts and wide tables use the
whole frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm

from ..definitions.presets import Paper
from ..resources.fonts import register_fonts
from .scripts import set_for_language
from .words import hyphenation, language

SERIF = "EBGaramond-Regular"
_SERIF_ITALIC = "EBGaramond-Italic"
_SERIF_BOLD = "EBGaramond-Bold"
TITLE = "Cinzel-Regular"
TITLE_BOLD = "Cinzel-Bold"
SANS = "SourceSans3-Regular"
SANS_BOLD = "SourceSans3-Bold"
_SANS_ITALIC = "SourceSans3-Italic"

_MEASURE_EMS = 26.0  # the measure in ems of the body size: about 66 characters of EB Garamond

INK = colors.HexColor("#1d1b18")
ACCENT = colors.HexColor("#7a2e1f")
_MUTED = colors.HexColor("#6b645a")


@dataclass
class Styles:
    page: tuple[float, float]  # points
    margins: tuple[float, float, float, float]  # inner, outer, top, bottom (points)
    body: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    h4: ParagraphStyle
    quote: ParagraphStyle
    list_item: ParagraphStyle
    cell: ParagraphStyle
    cell_head: ParagraphStyle
    caption: ParagraphStyle
    chart_head: ParagraphStyle
    chart_head_num: ParagraphStyle
    chart_cell: ParagraphStyle
    chart_num: ParagraphStyle
    chart_note: ParagraphStyle
    chart_desc_size: float
    chart_head_group: ParagraphStyle
    chart_cell_never: ParagraphStyle
    chart_notation_size: float
    toc_levels: list[ParagraphStyle]
    title: ParagraphStyle
    subtitle: ParagraphStyle
    title_small: ParagraphStyle
    measure: float = 0.0  # width of running text (points); the frame is wider, for charts
    colophon: ParagraphStyle | None = None
    cell_pad: float = 3.0
    rule_dark: colors.Color = INK
    rule_light: colors.Color = colors.HexColor("#b9b2a6")
    band: colors.Color = colors.HexColor("#f4f0e8")
    accent: colors.Color = ACCENT
    muted: colors.Color = _MUTED
    link_colour: str = "#7a2e1f"

    @property
    def frame_width(self) -> float:
        return self.page[0] - self.margins[0] - self.margins[1]

    @property
    def inset(self) -> float:
        """How far running text is indented on each side of the frame."""
        return max(0.0, (self.frame_width - self.measure) / 2)


def make_styles(paper: Paper, spacing: float = 1.0) -> Styles:
    """The styles for ``paper``; ``spacing`` scales the space between paragraphs and before headings."""
    register_fonts()
    w, h = paper.width, paper.height
    small = w < 160
    size = 10.5 if small else 12.0
    margins = ((17 if small else 20) * mm, (14 if small else 20) * mm, (15 if small else 20) * mm, (18 if small else 22) * mm)
    styles = Styles(
        page=(w * mm, h * mm),
        margins=margins,
        measure=size * _MEASURE_EMS,
        **_text_styles(size, spacing),
        **_table_styles(size),
        **_title_styles(size),
    )
    set_for_language([v for v in vars(styles).values() if isinstance(v, ParagraphStyle)] + styles.toc_levels, language())
    return styles


def _text_styles(size: float, spacing: float) -> dict:
    """The running text's styles: body, headings, quotes, list items and the colophon."""
    body = ParagraphStyle(
        "body",
        fontName=SERIF,
        fontSize=size,
        leading=size * 1.3,
        textColor=INK,
        alignment=TA_JUSTIFY,
        spaceAfter=size * 0.55,
        hyphenationLang=hyphenation(),
        hyphenationMinWordLength=6,
        embeddedHyphenation=1,
        uriWasteReduce=0.3,
        allowOrphans=0,
        allowWidows=0,
    )
    heading = {"fontName": TITLE, "textColor": ACCENT, "keepWithNext": 1, "alignment": TA_LEFT, "hyphenationLang": None}
    h1 = ParagraphStyle(
        "h1", parent=body, fontSize=size * 1.75, leading=size * 2.1, spaceBefore=size * 1.6, spaceAfter=size * 0.9, **heading
    )
    h2 = ParagraphStyle(
        "h2", parent=body, fontSize=size * 1.3, leading=size * 1.6, spaceBefore=size * 1.1, spaceAfter=size * 0.45, **heading
    )
    h3 = ParagraphStyle(
        "h3",
        parent=body,
        fontSize=size * 1.05,
        leading=size * 1.3,
        spaceBefore=size * 0.8,
        spaceAfter=size * 0.3,
        fontName=_SERIF_BOLD,
        textColor=INK,
        keepWithNext=1,
        alignment=TA_LEFT,
        hyphenationLang=None,  # a heading is never broken inside a word
    )
    h4 = ParagraphStyle("h4", parent=h3, fontName=_SERIF_ITALIC, fontSize=size, spaceBefore=size * 0.5)
    quote = ParagraphStyle("quote", parent=body, fontName=_SERIF_ITALIC, alignment=TA_LEFT, spaceAfter=size * 0.3)
    list_item = ParagraphStyle("li", parent=body, spaceAfter=size * 0.25)
    # a style copies its parent's values when it is made: the spacing is applied once every child is made
    for style in (body, list_item, quote):
        style.spaceAfter *= spacing
    for style in (h1, h2, h3, h4):
        style.spaceBefore *= spacing
    colophon = ParagraphStyle(
        "colophon",
        parent=body,
        fontSize=size * 0.78,
        leading=size * 1.0,
        alignment=TA_LEFT,
        spaceAfter=size * 0.45,
        hyphenationLang=None,
    )
    return {"body": body, "h1": h1, "h2": h2, "h3": h3, "h4": h4, "quote": quote, "list_item": list_item, "colophon": colophon}


def _table_styles(size: float) -> dict:
    """The styles of tables, captions and hand charts (Source Sans 3, smaller than the body)."""
    cs = size * 0.82
    cell = ParagraphStyle("cell", fontName=SANS, fontSize=cs, leading=cs * 1.25, textColor=INK, alignment=TA_LEFT)
    chs = size * 0.78
    chart_cell = ParagraphStyle("chart_cell", parent=cell, fontSize=chs, leading=chs * 1.2)
    chart_head = ParagraphStyle("chart_head", parent=chart_cell, fontName=SANS_BOLD)
    return {
        "cell": cell,
        "cell_head": ParagraphStyle("cell_head", parent=cell, fontName=SANS_BOLD),
        "caption": ParagraphStyle(
            "caption", parent=cell, fontSize=cs * 0.9, leading=cs * 1.1, alignment=TA_CENTER, textColor=_MUTED
        ),
        "chart_head": chart_head,
        "chart_head_num": ParagraphStyle("chart_head_num", parent=chart_head, alignment=TA_RIGHT),
        "chart_cell": chart_cell,
        "chart_num": ParagraphStyle("chart_num", parent=chart_cell, alignment=TA_RIGHT),
        "chart_note": ParagraphStyle("chart_note", parent=chart_cell, fontName=_SANS_ITALIC, textColor=_MUTED),
        "chart_desc_size": chs * 0.92,
        "chart_head_group": ParagraphStyle("chart_head_group", parent=chart_head, alignment=TA_CENTER),
        "chart_cell_never": ParagraphStyle("chart_cell_never", parent=chart_cell, textColor=_MUTED),
        "chart_notation_size": max(6.5, chs * 0.92),
    }


def _title_styles(size: float) -> dict:
    """The styles of the contents and the title page."""
    toc1 = ParagraphStyle(
        "toc1",
        fontName=_SERIF_BOLD,
        fontSize=size,
        leading=size * 1.45,
        textColor=INK,
        leftIndent=0,
        firstLineIndent=0,
        spaceBefore=size * 0.35,
    )
    toc2 = ParagraphStyle("toc2", parent=toc1, fontName=SERIF, leftIndent=size * 1.2, spaceBefore=0, leading=size * 1.3)
    return {
        "toc_levels": [toc1, toc2],
        "title": ParagraphStyle(
            "title", fontName=TITLE_BOLD, fontSize=size * 2.8, leading=size * 3.3, textColor=ACCENT, alignment=TA_CENTER
        ),
        "subtitle": ParagraphStyle(
            "subtitle", fontName=_SERIF_ITALIC, fontSize=size * 1.3, leading=size * 1.7, textColor=INK, alignment=TA_CENTER
        ),
        "title_small": ParagraphStyle(
            "title_small", fontName=TITLE, fontSize=size * 0.85, leading=size * 1.2, textColor=_MUTED, alignment=TA_CENTER
        ),
    }
