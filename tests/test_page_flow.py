"""Page flow of the built-in books, measured on the laid-out book: how full each page is, headings
kept with their tables, tables as wide as the text, charts never starting with a lone row, and
figures set in balanced rows."""

from __future__ import annotations

import pytest

from generator.pipeline.context import ProjectContext
from generator.rulebook import lay_out_book, load_rulebooks
from generator.rulebook.keeping import INTRODUCTION

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
