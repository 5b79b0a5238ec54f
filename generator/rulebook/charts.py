"""Hand-ranking charts: one row per category, best first, with real card faces.

Each row holds the category's name and description, an example hand drawn
as small card pictures, and the engine's exact count, probability and
"1 in N".  Rows never split (a table row is atomic in reportlab) and the
header row repeats on every page the chart continues on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Table, TableStyle

from ..definitions.model import Deck
from .markup import escape
from .odds import format_count, format_one_in, format_probability
from .pictures import CardLibrary, HandPicture
from .style import Styles

STEP = 0.56  # overlap of fanned cards: the visible part of each card, as a share of its width


def chart_card_width(hand_size: int, room_mm: float, largest: float = 13.0) -> float:
    """Card width (mm) so a fanned hand fits in ``room_mm``, between 7 mm and ``largest``."""
    width = room_mm / (1 + STEP * (max(hand_size, 1) - 1))
    return max(7.0, min(largest, width))


def hand_chart(
    table: Any,
    deck: Deck,
    library: CardLibrary,
    styles: Styles,
    avail_width: float,
    example_for: Callable[[int], tuple | None] | None = None,
) -> Table:
    """The chart of ``table`` (an engine odds table) as a splittable Table."""
    s = styles
    numbers_all = [
        (
            format_count(c.count),
            format_probability(c.probability) if c.count else "–",
            format_one_in(c.one_in) if c.count else "never",
        )
        for c in table.categories
    ]
    pad = 2 * s.cell_pad
    num_widths = []
    for i, head_text in enumerate(("Hands", "Chance", "Odds")):
        texts = [n[i] for n in numbers_all] + [format_count(table.total)]
        widest = max(
            [stringWidth(t, s.chart_num.fontName, s.chart_num.fontSize) for t in texts]
            + [stringWidth(head_text, s.chart_head.fontName, s.chart_head.fontSize)]
        )
        num_widths.append(widest + pad + 1)
    hand_min = max(32 * mm, avail_width * 0.26)
    room = avail_width - sum(num_widths) - hand_min - pad
    card_w = chart_card_width(table.hand_size, room / mm, 13.0 if avail_width < 130 * mm else 16.0)
    head = [Paragraph(t, s.chart_head) for t in ("Hand", "Example", "Hands", "Chance", "Odds")]
    head[2] = Paragraph("Hands", s.chart_head_num)
    head[3] = Paragraph("Chance", s.chart_head_num)
    head[4] = Paragraph("Odds", s.chart_head_num)
    rows: list[list[Any]] = [head]
    for index, category in enumerate(table.categories):
        desc = f"<b>{escape(category.name)}</b>"
        if category.description:
            desc += f'<br/><font size="{s.chart_desc_size}">{escape(category.description)}</font>'
        subcounts = getattr(category, "subcounts", None)
        if subcounts:
            parts = ", ".join(f"{escape(str(k))} {format_count(int(v))}" for k, v in subcounts.items())
            desc += f'<br/><font size="{s.chart_desc_size}" color="#6b645a"><i>Of these: {parts}</i></font>'
        example = (example_for(index) if example_for else category.example) if category.count else None
        if example:
            arts = [library.art(deck, library.card(deck, cid, "hand chart")) for cid in example]
            picture: Any = HandPicture(arts, card_w, STEP)
        elif not category.count and category.pattern:
            picture = Paragraph(
                f"never the best reading: all {format_count(int(category.pattern))} hands that hold it count as a higher hand",
                s.chart_note,
            )
        else:
            picture = Paragraph("cannot occur with this deck" if not category.count else "no example", s.chart_note)
        numbers = numbers_all[len(rows) - 1]
        rows.append(
            [
                Paragraph(desc, s.chart_cell),
                picture,
                Paragraph(numbers[0], s.chart_num),
                Paragraph(numbers[1], s.chart_num),
                Paragraph(numbers[2], s.chart_num),
            ]
        )
    total = ("All hands", format_count(table.total), "100 %", "")
    rows.append(
        [
            Paragraph(f"<b>{total[0]}</b>", s.chart_cell),
            "",
            Paragraph(total[1], s.chart_num),
            Paragraph(total[2], s.chart_num),
            "",
        ]
    )

    # columns: numbers as wide as their longest text, the example as wide as the
    # widest fanned hand, the name and description take what is left
    example_w = max([r[1].wrap(0, 0)[0] for r in rows[1:-1] if isinstance(r[1], HandPicture)] + [20 * mm]) + pad
    hand_w = avail_width - sum(num_widths) - example_w
    col_widths = [hand_w, example_w, *num_widths]
    chart = Table(rows, colWidths=col_widths, repeatRows=1, splitByRow=1, hAlign="LEFT")
    last = len(rows) - 1
    commands = [
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("LEFTPADDING", (0, 0), (-1, -1), s.cell_pad),
        ("RIGHTPADDING", (0, 0), (-1, -1), s.cell_pad),
        ("TOPPADDING", (0, 1), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 1), (-1, -1), 3),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, s.rule_dark),
        ("LINEBELOW", (0, 1), (-1, last - 1), 0.3, s.rule_light),
        ("LINEABOVE", (0, last), (-1, last), 0.8, s.rule_dark),
        ("ALIGN", (1, 1), (1, -1), "LEFT"),
        ("FONTNAME", (0, 0), (-1, -1), s.body.fontName),
        ("NOSPLIT", (0, last - 1), (-1, last)),  # the total row never stands alone
    ]
    for i in range(1, last, 2):
        commands.append(("BACKGROUND", (0, i), (-1, i), s.band))
    chart.setStyle(TableStyle(commands))
    chart.aetherpress_chart = (table, rows)  # for tests and checks
    return chart
