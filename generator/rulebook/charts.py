"""Hand-ranking charts: one row per category, best first, with real card faces.

Each row holds the category's name and description, an example hand drawn
as small card pictures with the hand written out beneath them in a compact
notation a reader can read at print size, and the engine's exact count and
chance ("1 in N" under it).  One chart serves a ranking: the counts of other
decks (the basic Decktet, the stripped Pernese deck) are further columns, not
a second chart.  A category no hand ever takes is marked so, in words, and is
not pictured.  Where the game sorts hands of a category into tie classes,
the row says in words how the category's hands fall into them.  Rows never
split and the header repeats on every page the chart continues on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Table, TableStyle

from ..definitions.model import Deck
from .bookodds import format_count, format_one_in, format_probability
from .cardart import CardLibrary, HandPicture
from .keeping import BookTable
from .markup import escape
from .notation import HandNotation, legend
from .paragraphs import Paragraph
from .scripts import mirrored, right_to_left
from .style import Styles
from .words import NO_GAMES, GameWords, category_words, language, number, per_cent, words

_STEP = 0.56  # overlap of fanned cards: the visible part of each card, as a share of its width
_HAND_SHARE = 0.3  # the least share of a chart's width its hand names and descriptions keep


def _chart_card_width(hand_size: int, room_mm: float, largest: float = 13.0) -> float:
    """Card width (mm) so a fanned hand fits in ``room_mm``, between 7 mm and ``largest``."""
    width = room_mm / (1 + _STEP * (max(hand_size, 1) - 1))
    return max(7.0, min(largest, width))


def _tie_classes_in_words(subcounts: dict | None) -> str:
    """How a category's hands fall into tie classes, as a reader would say it.

    The last class is the one for hands of no other class (Lith's "neither").
    """
    if not subcounts or len(subcounts) < 2:
        return ""
    names = list(subcounts)
    present = [(name, int(subcounts[name])) for name in names if int(subcounts[name])]
    if not present:
        return ""
    if len(present) == 1:
        name = present[0][0]
        if name == names[-1]:
            return words("None is {names}.", names=words(" or ").join(names[:-1]))
        return words("All are {name}.", name=name)
    parts = [f"{format_count(n)} {name}" for name, n in present]
    return words("Of these, {some} and {last}.", some=", ".join(parts[:-1]), last=parts[-1])


def _never_text(category: Any) -> str:
    try:
        pattern = int(category.pattern or 0)
    except (TypeError, ValueError):
        pattern = 0
    if pattern:
        return words(
            "Never happens: each of the {count} hands that fit it is worth more as a higher hand, and counts as that.",
            count=format_count(pattern),
        )
    return words("Never happens with this deck.")


def hand_chart(
    table: Any,
    deck: Deck,
    library: CardLibrary,
    styles: Styles,
    avail_width: float,
    example_for: Callable[[int], tuple | None] | None = None,
    extra: Sequence[tuple[str, Any]] = (),
    label: str = "",
    marks: tuple[str, ...] = (),
    names: GameWords = NO_GAMES,
) -> Table:
    """The chart of ``table`` (an engine odds table) as a splittable Table.

    ``extra`` holds (label, table) pairs of the same ranking on other decks,
    shown as further columns; ``label`` heads the main table's columns then.
    ``marks`` are the card attributes besides suits and ranks that decide the
    hands (Lith's interpretive types): the written-out examples show them, and
    the chart's ``legend`` says what their letters and the ranks' stand for.
    ``names`` names the hands in the book's language (see :func:`.words.game_words`).
    """
    s = styles
    tables = [table] + [t for _, t in extra]
    labels = [label or words("This deck")] + [lab for lab, _ in extra]
    # several decks side by side: each deck's count and chance share one column (so the example keeps its room)
    two_heads = len(tables) > 1
    pad = 2 * s.cell_pad
    num_widths = _number_widths(tables, s, two_heads)
    hand_min = max(30 * mm, avail_width * 0.25)
    room = avail_width - sum(num_widths) - hand_min - pad
    card_w = _chart_card_width(table.hand_size, room / mm, 13.0 if avail_width < 130 * mm else 16.0)

    rows = _head_rows(tables, labels, s, two_heads)
    head_rows = len(rows)
    never_rows = []
    by_name = [{c.name: c for c in t.categories} for t in tables]
    for index, category in enumerate(table.categories):
        occurs = [by_name[i].get(category.name) for i in range(len(tables))]
        ever = any(c is not None and c.count for c in occurs)
        example = (example_for(index) if example_for else category.example) if category.count else None
        if not example and not ever:
            never_rows.append(len(rows))
        row: list[Any] = [
            Paragraph(_description(table, category, s, names), s.chart_cell_never if not ever else s.chart_cell),
            _example_picture(category, example, ever, deck, library, s, card_w, marks),
        ]
        for found in occurs:
            count, chance = _numbers(found)
            row += _cells(f"<b>{count}</b>" if two_heads else count, chance, s.chart_num, two_heads)
        rows.append(row)
    total_row: list[Any] = [Paragraph(f"<b>{words('All hands')}</b>", s.chart_cell), ""]
    for t in tables:
        total = format_count(t.total)
        total_row += _cells(f"<b>{total}</b>" if two_heads else total, per_cent(number("100")), s.chart_num, two_heads)
    rows.append(total_row)

    col_widths = _column_widths(rows, head_rows, num_widths, avail_width, pad)
    commands = _chart_commands(s, head_rows, len(rows) - 1, len(tables))
    side = "LEFT"
    if right_to_left(language()):  # the hand's name at the right, the chances at the left
        rows, col_widths, commands = mirrored(rows, col_widths, commands)
        side = "RIGHT"
    chart = BookTable(rows, colWidths=col_widths, repeatRows=head_rows, splitByRow=1, hAlign=side)
    chart.kind = "chart"
    chart.setStyle(TableStyle(commands))
    chart.aetherpress_chart = (table, rows, head_rows, never_rows)  # for tests and checks
    letters = legend(deck, marks, {}) if marks else ""
    chart.legend = words("In the examples: {letters}.", letters=letters) if letters else ""
    return chart


def _numbers(category: Any) -> tuple[str, str]:
    """A category's count and chance on one deck (``None``: the deck has no such category)."""
    if category is None or not category.count:
        return "–", words("never")
    return format_count(category.count), f"{format_probability(category.probability)}<br/>{format_one_in(category.one_in)}"


def _cells(count: str, chance: str, style: Any, two_heads: bool) -> list[Any]:
    """A deck's count and chance: one cell when decks stand side by side, else two."""
    if two_heads:
        return [Paragraph(f"{count}<br/>{chance}", style)]
    return [Paragraph(count, style), Paragraph(chance, style)]


def _number_widths(tables: list[Any], s: Styles, two_heads: bool) -> list[float]:
    """The widths of the count and chance columns: as wide as their longest text."""
    pad = 2 * s.cell_pad
    count_w = max(
        [stringWidth(format_count(t.total), s.chart_num.fontName, s.chart_num.fontSize) for t in tables]
        + [stringWidth(words("Hands"), s.chart_head.fontName, s.chart_head.fontSize)]
    )
    chance_w = max(
        [stringWidth(format_one_in(999_999), s.chart_num.fontName, s.chart_num.fontSize)]
        + [stringWidth(words("Chance"), s.chart_head.fontName, s.chart_head.fontSize)]
    )
    if two_heads:
        return [max(count_w, chance_w) + pad + 1] * len(tables)
    return [count_w + pad + 1, chance_w + pad + 1]


def _head_rows(tables: list[Any], labels: list[str], s: Styles, two_heads: bool) -> list[list[Any]]:
    """The header: the decks' labels over their columns (several decks only), then the columns' names."""
    head: list[Any] = [Paragraph(words("Hand"), s.chart_head), Paragraph(words("Example"), s.chart_head)]
    for _ in tables:
        head += _cells(words("Hands"), words("Chance"), s.chart_head_num, two_heads)
    rows: list[list[Any]] = []
    if two_heads:
        top: list[Any] = ["", ""]
        for lab in labels:
            top.append(Paragraph(f"<b>{escape(lab)}</b>", s.chart_head_group))
        rows.append(top)
    rows.append(head)
    return rows


def _description(table: Any, category: Any, s: Styles, names: GameWords) -> str:
    """A category's name, description and how its hands fall into tie classes, as paragraph markup."""
    name, description = category_words(table, category, names)
    desc = f"<b>{escape(name)}</b>"
    if description:
        desc += f'<br/><font size="{s.chart_desc_size}">{escape(description)}</font>'
    ties = _tie_classes_in_words(getattr(category, "subcounts", None)) if category.count else ""
    if ties:
        desc += f'<br/><font size="{s.chart_desc_size}" color="#6b645a"><i>{escape(ties)}</i></font>'
    return desc


def _example_picture(
    category: Any,
    example: tuple | None,
    ever: bool,
    deck: Deck,
    library: CardLibrary,
    s: Styles,
    card_w: float,
    marks: tuple[str, ...] = (),
) -> Any:
    """The example cell: the hand fanned over its notation, or why there is none."""
    if example:
        cards = [library.card(deck, cid, "hand chart") for cid in example]
        arts = [library.art(deck, c) for c in cards]
        notation = HandNotation(deck, cards, s.chart_cell.fontName, s.chart_notation_size, marks=marks)
        return [HandPicture(arts, card_w, _STEP), notation]
    if not ever:
        return Paragraph(_never_text(category), s.chart_note)
    if not category.count:
        return Paragraph(words("Never happens with this deck; see the other columns."), s.chart_note)
    return Paragraph(words("no example"), s.chart_note)


def _column_widths(rows: list[list[Any]], head_rows: int, num_widths: list[float], avail_width: float, pad: float) -> list[float]:
    """Numbers as wide as their longest text, the example as wide as the widest fanned hand (or its cards
    written out on one line, while the name and description keep at least _HAND_SHARE of the width), the name
    and description what is left."""
    examples = [r[1] for r in rows[head_rows:-1] if isinstance(r[1], list)]
    fanned = max([hand.wrap(0, 0)[0] for hand, _ in examples] + [24 * mm])
    written = max([notation.wrap(1e6, 1e6)[0] for _, notation in examples] + [0])
    example_w = max(fanned, min(written, avail_width * (1 - _HAND_SHARE) - sum(num_widths) - pad)) + pad
    hand_w = avail_width - sum(num_widths) - example_w
    return [hand_w, example_w, *num_widths]


def _chart_commands(s: Styles, head_rows: int, last: int, decks: int) -> list[tuple]:
    """The chart's table style: rules, padding, bands on every other row, the total row kept with the last."""
    commands: list[tuple] = [
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("VALIGN", (0, 0), (-1, head_rows - 1), "BOTTOM"),
        ("LEFTPADDING", (0, 0), (-1, -1), s.cell_pad),
        ("RIGHTPADDING", (0, 0), (-1, -1), s.cell_pad),
        ("TOPPADDING", (0, head_rows), (-1, -1), 3),
        ("BOTTOMPADDING", (0, head_rows), (-1, -1), 3),
        ("LINEBELOW", (0, head_rows - 1), (-1, head_rows - 1), 0.8, s.rule_dark),
        ("LINEBELOW", (0, head_rows), (-1, last - 1), 0.3, s.rule_light),
        ("LINEABOVE", (0, last), (-1, last), 0.8, s.rule_dark),
        ("ALIGN", (1, head_rows), (1, -1), "LEFT"),
        ("FONTNAME", (0, 0), (-1, -1), s.body.fontName),
        ("NOSPLIT", (0, last - 1), (-1, last)),  # the total row never stands alone
    ]
    if decks > 1:
        for i in range(decks):
            col = 2 + i
            commands.append(("LINEBELOW", (col, 0), (col, 0), 0.5, s.rule_dark))
        for i in range(1, decks):  # a thin rule sets each further deck apart
            commands.append(("LINEBEFORE", (2 + i, 1), (2 + i, -1), 0.3, s.rule_light))
    for i in range(head_rows, last, 2):
        commands.append(("BACKGROUND", (0, i), (-1, i), s.band))
    return commands
