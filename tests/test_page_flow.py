"""Page flow of the built-in books, measured on the laid-out book: how full each page is, headings
kept with their tables, tables as wide as the text, charts never starting with a lone row, and
figures set in balanced rows."""

from __future__ import annotations

import itertools
import re

import pytest

from generator.pipeline.context import ProjectContext
from generator.rulebook import lay_out_book, load_rulebooks
from generator.rulebook.keeping import INTRODUCTION, SHORT_TABLE

BOOKS = ("lith", "founders-flip", "pernese", "fivefold-arrangement")


@pytest.fixture(scope="module")
def layouts(project):
    context = ProjectContext(project).book_context()
    books = load_rulebooks(project)
    return {book_id: lay_out_book(context, books[book_id])[1] for book_id in BOOKS}


@pytest.mark.slow
def test_no_page_is_more_than_a_third_empty_except_before_a_chapter(layouts):
    for book_id, layout in layouts.items():
        assert len(layout.fills) >= 8, book_id
        empty = {page: round(1 - fill, 2) for page, fill in layout.fills.items() if page in layout.underfilled()}
        assert not empty, (book_id, "empty share of pages", empty)


def _introduced_tables(layout):
    """(heading, its table's first part) for each heading whose table follows it after a short introduction."""
    placed = layout.placed
    for index, item in enumerate(placed):
        if item.kind != "heading":
            continue
        between = 0.0
        for following in placed[index + 1 :]:
            if following.kind == "heading" or following.part:
                break
            if following.kind in ("table", "chart"):
                if between < INTRODUCTION * layout.frame_height:
                    yield item, following
                break
            between += following.height


@pytest.mark.slow
def test_a_heading_is_on_the_page_of_its_tables_first_rows(layouts):
    checked = 0
    for book_id, layout in layouts.items():
        for heading, table in _introduced_tables(layout):
            checked += 1
            assert table.page == heading.page, (book_id, heading.title, heading.page, table.page)
    assert checked >= 10


@pytest.mark.slow
def test_every_table_and_chart_is_as_wide_as_the_text(layouts):
    for book_id, layout in layouts.items():
        tables = [p for p in layout.placed if p.kind in ("table", "chart")]
        assert len(tables) >= 2, book_id
        for table in tables:
            assert abs(table.width - layout.measure) < 0.5, (book_id, table, layout.measure)


@pytest.mark.slow
def test_a_chart_never_starts_with_a_lone_row_at_a_page_foot(layouts):
    starts = 0
    for book_id, layout in layouts.items():
        for index, item in enumerate(layout.placed):
            if item.kind != "chart" or item.part:
                continue
            runs_on = index + 1 < len(layout.placed) and layout.placed[index + 1].part
            if runs_on:
                starts += 1
                assert item.rows >= 2, (book_id, item)
    assert starts >= 1


def test_a_figure_that_needs_two_rows_sets_them_evenly():
    from generator.rulebook.widths import balanced_rows

    assert balanced_rows([30.0] * 8, 220.0) == [[0, 1, 2, 3], [4, 5, 6, 7]]  # not seven and one
    assert [len(r) for r in balanced_rows([50.0] * 4, 160.0)] == [2, 2]  # not three and one
    assert [len(r) for r in balanced_rows([50.0] * 5, 160.0)] == [3, 2]
    assert balanced_rows([50.0] * 3, 160.0) == [[0, 1, 2]]
    assert all(len(r) == 1 for r in balanced_rows([100.0, 100.0], 120.0))


# --- the page-flow rules of a publisher, read from the layout record -------------------------------------------------

_NUMBER_END = re.compile(r"[\d.,]$")
_UNIT_START = re.compile(r"^(%|‰|°|mm|cm|pt|in\b)")


def _parts_a_figure(end: str, start: str) -> bool:
    """Whether a line break between ``end`` and ``start`` falls inside a figure: between a number and its unit or
    sign, a sign and its number, or inside "1 in N"."""
    last, first = end.split(" ")[-1], start.split(" ")[0]
    return bool(
        (_NUMBER_END.search(last) and _UNIT_START.match(first))
        or (last.endswith(("£", "$", "€")) and first[:1].isdigit())
        or (re.search(r"(^|\s)1 in$", end) and first[:1].isdigit())
        or (last == "1" and first == "in")
    )


@pytest.mark.slow
def test_a_number_and_its_unit_or_sign_never_part(layouts):
    checked = 0
    for book_id, layout in layouts.items():
        for item in layout.placed:
            for end, start in item.breaks:
                checked += 1
                assert not _parts_a_figure(end, start), (book_id, item.page, end, start)
    assert checked > 200


@pytest.mark.slow
def test_a_headings_last_line_holds_at_least_two_words(layouts):
    broken = 0
    for book_id, layout in layouts.items():
        for item in layout.placed:
            if item.kind != "heading" or len(item.title.split()) < 2:
                continue
            assert item.lines, (book_id, item.title)
            broken += len(item.lines) > 1
            assert len(item.lines[-1].replace("\u00a0", " ").split()) >= 2, (book_id, item.page, item.lines)
    assert broken >= 1  # some heading is set on two lines, and keeps two words on its last


@pytest.mark.slow
def test_a_table_of_twelve_rows_or_fewer_never_splits(layouts):
    short = 0
    for book_id, layout in layouts.items():
        for item in layout.placed:
            if item.kind == "table" and item.whole_rows <= SHORT_TABLE:
                short += item.part == 0
                assert item.part == 0 and item.rows == item.whole_rows, (book_id, item.page, item)
    assert short >= 10


@pytest.mark.slow
def test_a_cells_figure_never_wraps(layouts):
    """A cell holding one figure is one line; a cell of several (a share and its "1 in N") breaks between them
    only (see the test above)."""
    cells = 0
    for book_id, layout in layouts.items():
        for item in layout.placed:
            if item.kind in ("table", "chart"):
                cells += len(item.wrapped)
                figures = [cell for cell in item.wrapped if _FIGURE.fullmatch(cell.replace("\u00a0", " "))]
                assert not figures, (book_id, item.page, figures)
    assert cells > 10  # cells do wrap (names, descriptions): the record holds them


_FIGURE = re.compile(r"[(]?(\d[\d,.]*\s?%|1 (in|von|sur) [\d,.]+)[)]?")  # one figure: a share, or "1 in N"


def test_a_figure_in_a_narrow_tables_cell_is_never_broken(project):
    """A table too wide for the measure squeezes its columns, but never below a figure's width: "1 in 58,905"
    and "49.4 %" each stay on one line of their cell."""
    from generator.definitions import load_all
    from generator.definitions.presets import load_papers
    from generator.libraries.reportlab import inner_flowables, line_texts, table_cells
    from generator.pipeline.context import ProjectContext
    from generator.rulebook.cardart import CardLibrary
    from generator.rulebook.flow import Converter
    from generator.rulebook.keeping import Stack, unwrapped
    from generator.rulebook.markup import SourceMap, parse
    from generator.rulebook.style import make_styles

    head = "| Hand | Description of the hand in many words | Chance | One in | Under the spell | Under the other spell |"
    row = "| Straight Flush | four cards in sequence and all of one suit, as the rules say | 49.4 % | 1 in 58,905 | 0.0136 % (1 in 7,363) | 1 in 486,948 |"
    text = "\n".join([head, "| --- | --- | ---: | ---: | ---: | ---: |", row, row]) + "\n"
    styles = make_styles(load_papers(project)["a5"], 1.0)
    story = Converter(
        styles, CardLibrary(project, load_all(project), ProjectContext(project).sides), SourceMap("book.md", text, text), None
    ).convert(parse(text))
    table = unwrapped(story[0])
    table.wrap(styles.measure, 1000)
    rows = [[inner_flowables(Stack([cell]))[0] for cell in row] for row in table_cells(table)]  # as laid out in cells
    for cell in [cell for row in rows[1:] for cell in row[2:]]:
        lines = line_texts(cell)
        assert lines and all(not _parts_a_figure(a, b) for a, b in itertools.pairwise(lines)), lines
        if "(" not in cell.text:
            assert len(lines) == 1, lines
    assert len(line_texts(rows[1][1])) > 1  # the words of the description did wrap
