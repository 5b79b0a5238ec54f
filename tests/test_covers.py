"""Covers: the title in balanced lines, by the designer; a back cover last, the pages a multiple of four and
the last text page never a cover (see tests/test_publisher_edition.py for the covers' design and the fillers)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from generator.rulebook import load_rulebooks
from generator.rulebook.cover import JOINING, SIGNATURE, balanced_lines

from .test_rulebook import squash

# whole builds, rulebooks or long counts: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

BOOKS = ["lith", "founders-flip", "pernese", "fivefold-arrangement"]


def test_balanced_lines():
    width = len
    assert balanced_lines("Dragon Poker & Red Star", width, 14) == ["Dragon Poker", "& Red Star"]
    assert balanced_lines("Lith", width, 2) == ["Lith"]  # one word stays one line, however wide
    assert balanced_lines("Fivefold Arrangement", width, 40) == ["Fivefold Arrangement"]  # it fits
    for title in ("A game of betting and bluffing for scoundrels, rogues and blaggards", "The Lord of the Rings and the Sea"):
        lines = balanced_lines(title, width, 30)
        assert " ".join(lines) == title and 1 < len(lines) <= 3
        assert all(line.split()[-1].lower() not in JOINING for line in lines[:-1])
        assert all(len(line.split()) > 1 for line in lines)  # no word alone on a line
        assert max(map(len, lines)) <= 30
    assert balanced_lines("The Lord of the Rings and the Sea", width, 30) == ["The Lord of the Rings", "and the Sea"]
    assert balanced_lines("one two three four", width, 9) == ["one two", "three four"]  # not 'one two three' / 'four'


@pytest.mark.parametrize("book_id", BOOKS)
def test_front_and_back_covers(project, book_pdf, book_id):
    book = load_rulebooks(project)[book_id]
    pages = PdfReader(io.BytesIO(book_pdf(book_id))).pages
    assert len(pages) % SIGNATURE == 0
    front = squash(pages[0].extract_text())
    assert "Aetherpressedition" not in front
    back = squash(pages[-1].extract_text())
    assert book.blurb and squash(book.blurb) in back
    assert squash(f"Players {book.players}") in back  # beside its icon
    # inside the back cover, its endpaper: no text there, nor inside the front cover
    assert not squash(pages[-2].extract_text()) and not squash(pages[1].extract_text())


def test_by_the_designer(book_pdf):
    def by_lines(book_id):
        text = PdfReader(io.BytesIO(book_pdf(book_id))).pages[0].extract_text()
        return [line.strip() for line in text.splitlines() if line.strip().lower().startswith("by ")]

    assert by_lines("lith") == ["by Mycake"]
    assert by_lines("founders-flip") == []  # the source names nobody, so nobody is named


def test_title_lines_must_hold_the_title(tmp_path):
    from generator.errors import AetherpressError
    from generator.project import Project
    from generator.rulebook.definition import load_rulebook

    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "b.md").write_text("# B\n", encoding="utf-8")
    book = tmp_path / "decks" / "b.rulebook.toml"
    book.write_text('[rulebook]\nid = "b"\ntitle = "Red Star"\ntitle_lines = ["Red", "Stars"]\n', encoding="utf-8")
    with pytest.raises(AetherpressError) as caught:
        load_rulebook(book, Project(tmp_path))
    (problem,) = caught.value.problems
    assert "title's lines must hold the title's words" in str(problem) and problem.line == 4
