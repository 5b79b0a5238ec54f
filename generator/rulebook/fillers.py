"""Pages a reader wants where a book needs pages to make whole sheets: never a blank page.

A book's pages are a multiple of four (folded sheets; the covers are the first
two and last two).  The pages the text leaves over are filled, one page each,
in this order: the hands at a glance (the first game's ranking, best first,
with its odds), the cards of the book's deck, a score sheet and a page for
notes (a book with neither a game nor a deck has a second page for notes, so
that it too makes whole sheets).  Each is one page: it is shrunk to its frame
rather than run over.
"""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepInFrame, Spacer, Table, TableStyle

from .bookodds import format_one_in, format_probability
from .cardart import CardPicture
from .markup import escape
from .paragraphs import Paragraph
from .style import SANS, SANS_BOLD, Styles
from .words import GameWords, category_words, words

FILLERS = ("reference", "gallery", "scores", "notes")  # the kinds of page, in the order they are used
_SCORE_ROWS = 16
_SCORE_PLAYERS = 6


def _heading(styles: Styles, text: str) -> Paragraph:
    return Paragraph(escape(text), styles.h1)


def _frame_height(styles: Styles) -> float:
    """The height a filler may take: its page's frame, less a little room."""
    return styles.page[1] - styles.margins[2] - styles.margins[3] - 2


def _one_page(styles: Styles, flow: list[Flowable]) -> Flowable:
    return KeepInFrame(styles.measure, _frame_height(styles), flow, mode="shrink")


def _grid(rows: list[list], widths: list[float], styles: Styles, lines: bool = True) -> Table:
    table = Table(rows, colWidths=widths, hAlign="CENTER")
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), SANS),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), styles.cell_pad),
        ("RIGHTPADDING", (0, 0), (-1, -1), styles.cell_pad),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, styles.rule_dark),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, styles.rule_dark),
        ("LINEBELOW", (0, -1), (-1, -1), 0.8, styles.rule_dark),
    ]
    if lines:
        commands.append(("LINEBELOW", (0, 1), (-1, -2), 0.25, styles.rule_light))
    table.setStyle(TableStyle(commands))
    return table


def reference_page(styles: Styles, table, names: GameWords) -> Flowable:
    """The hands at a glance: each category of a ranking, best first, what it is and how often it is dealt (named
    from ``names``, as the charts name them)."""
    s = styles
    head = [
        Paragraph(words("Hand"), s.cell_head),
        Paragraph(words("What it is"), s.cell_head),
        Paragraph(words("Chance"), s.chart_head_num),
    ]
    rows = [head]
    for number, c in enumerate(table.categories, 1):
        chance = f"{format_probability(c.probability, c.interval)}<br/>{format_one_in(c.one_in)}" if c.count else words("never")
        name, description = category_words(table, c, names)
        rows.append(
            [
                Paragraph(f"<b>{number}. {escape(name)}</b>", s.cell),
                Paragraph(escape(description), s.cell),
                Paragraph(chance, s.chart_num),
            ]
        )
    widths = [s.measure * 0.32, s.measure * 0.46, s.measure * 0.22]
    intro = Paragraph(words("Best first, with how often each is dealt."), s.caption)
    return _one_page(s, [_heading(s, words("Hands at a glance")), intro, Spacer(1, 3 * mm), _grid(rows, widths, s)])


def gallery_page(styles: Styles, title: str, arts: list) -> Flowable:
    """Every card of a deck, in a grid as large as one page allows."""
    s = styles
    frame_h = s.page[1] - s.margins[2] - s.margins[3] - s.h1.leading - s.h1.spaceAfter - 12 * mm
    ratio = arts[0].trim_h / arts[0].trim_w if arts else 1.4
    gap = 1.5 * mm
    best = (1, 1.0)
    for columns in range(1, 13):
        width = (s.measure - gap * (columns - 1)) / columns
        rows = -(-len(arts) // columns)
        if rows * (width * ratio + gap) <= frame_h:
            best = (columns, width)
            break
    columns, width = best
    pictures: list[Flowable | str] = [CardPicture(art, width / mm) for art in arts]
    grid = [pictures[i : i + columns] for i in range(0, len(pictures), columns)]
    grid[-1] += [""] * (columns - len(grid[-1]))
    table = Table(grid, colWidths=[width + gap] * columns, hAlign="CENTER")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), SANS),
                *[(k, (0, 0), (-1, -1), gap / 2) for k in ("LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING")],
            ]
        )
    )
    return _one_page(s, [_heading(s, title), Spacer(1, 2 * mm), table])


def scores_page(styles: Styles) -> Flowable:
    """A score sheet: a row per hand played, a column per player, and their totals."""
    s = styles
    first = s.measure * 0.16
    rest = (s.measure - first) / _SCORE_PLAYERS
    head: list[Flowable | str] = [Paragraph(words("Hand"), s.cell_head)]
    rows: list[list[Flowable | str]] = [head + [Paragraph(words("Player"), s.cell_head)] * _SCORE_PLAYERS]
    for label in [str(n) for n in range(1, _SCORE_ROWS + 1)] + [f"<b>{words('Total')}</b>"]:
        row: list[Flowable | str] = [Paragraph(label, s.cell)]
        rows.append(row + [""] * _SCORE_PLAYERS)
    table = _grid(rows, [first] + [rest] * _SCORE_PLAYERS, s)
    table.setStyle(
        TableStyle(
            [
                ("INNERGRID", (1, 0), (-1, -1), 0.25, s.rule_light),
                ("FONTNAME", (0, 0), (-1, -1), SANS_BOLD),
                ("TOPPADDING", (0, 1), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 5),
            ]
        )
    )
    return _one_page(s, [_heading(s, words("Score sheet")), Spacer(1, 3 * mm), table])


class _Ruled(Flowable):
    """Lines to write on, ``height`` points of them (a frame shrinking its content to fit asks for its height
    with an endless room, so the lines never take theirs from the room offered)."""

    def __init__(self, colour, step: float, height: float):
        super().__init__()
        self.colour = colour
        self.step = step
        self.ruled = max(0.0, height)

    def wrap(self, avail_w, avail_h):
        self.width, self.height = avail_w, self.ruled
        return self.width, self.height

    def draw(self):
        self.canv.setStrokeColor(self.colour)
        self.canv.setLineWidth(0.35)
        y = self.height - self.step
        while y > 0:
            self.canv.line(0, y, self.width, y)
            y -= self.step


def notes_page(styles: Styles) -> Flowable:
    """A page of lines for notes, down the rest of the page under its heading."""
    heading = _heading(styles, words("Notes"))
    below = _frame_height(styles) - heading.wrap(styles.measure, _frame_height(styles))[1] - heading.getSpaceAfter()
    return _one_page(styles, [heading, _Ruled(styles.rule_light, 8 * mm, below - 4)])
