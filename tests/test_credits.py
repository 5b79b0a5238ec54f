"""Credits a publisher can print: one statement per source, each licence named once with its link, what
this edition changed, an unofficial fan-work notice where the setting is someone else's; PDF metadata."""

from __future__ import annotations

import io

import pikepdf
import pytest
from pypdf import PdfReader

from generator.definitions import load_all
from generator.hands import load_games
from generator.rulebook import load_rulebooks
from generator.rulebook.colophon import book_author, gather_credits

from .test_rulebook import squash

# whole builds, rulebooks or long counts: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow


def _verso(data: bytes) -> str:
    return squash(PdfReader(io.BytesIO(data)).pages[3].extract_text())  # the title page's back


def _credits(project, book_id):
    book = load_rulebooks(project)[book_id]
    definitions = load_all(project)
    return gather_credits(book, load_games(project), [definitions[d].base for d in book.decks])


def test_each_licence_is_named_once_with_its_link_and_the_changes(project, book_pdf):
    verso = _verso(book_pdf("lith"))
    (lith, *_) = [c for c in _credits(project, "lith") if c.licence is not None]
    assert squash(lith.notice) in verso  # quoted exactly, once ...
    assert verso.replace(squash(lith.notice), "").count(squash(lith.licence.name)) == 1  # ... and the licence named once
    assert verso.count(squash(lith.licence.url)) == 1 and squash(lith.licence.short) in verso
    assert lith.changes and squash(f"Changes in this edition: {lith.changes}") in verso
    assert squash("Unless otherwise stated, the content of this page is licensed under") in verso


def test_the_decktet_names_its_source_and_quotes_its_licence(project, book_pdf):
    verso = _verso(book_pdf("lith"))
    decktet = next(c for c in _credits(project, "lith") if c.source == "The Decktet")
    assert decktet.url.startswith("http") and squash(f"Source: {decktet.url}") in verso
    assert "open license" in decktet.notice and squash(decktet.notice) in verso


def test_pern_is_an_unofficial_fan_work_once(project, book_pdf):
    verso = _verso(book_pdf("pernese"))
    notices = {c.unofficial for c in _credits(project, "pernese") if c.unofficial}
    assert len(notices) == 1
    (notice,) = notices
    assert "unofficial fan work" in notice and "Anne McCaffrey" in notice
    assert verso.count(squash(notice)) == 1
    assert load_all(project)["pernese"].base.credits.unofficial == notice  # the box prints it too


def test_pdf_author_is_the_designer_with_language_and_outline(project, book_pdf):
    for book_id, expected in (("lith", "Mycake"), ("fivefold-arrangement", "FrivYeti"), ("founders-flip", "")):
        assert book_author(_credits(project, book_id)) == expected
        with pikepdf.open(io.BytesIO(book_pdf(book_id))) as pdf:
            assert str(pdf.docinfo.get("/Author", "")) == expected, book_id  # never "Aetherpress" or "anonymous"
            assert str(pdf.Root.Lang) == "en" and pdf.Root.PageMode == "/UseOutlines"  # the language the book is set in
            assert len(pdf.open_outline().root) > 0


def test_a_bad_language_is_one_clear_line(tmp_path):
    from generator.errors import AetherpressError
    from generator.project import Project
    from generator.rulebook.definition import load_rulebook

    (tmp_path / "decks").mkdir()
    book = tmp_path / "decks" / "b.rulebook.toml"
    (tmp_path / "decks" / "b.md").write_text("# B\n", encoding="utf-8")
    book.write_text('[rulebook]\nid = "b"\ntitle = "B"\nlanguage = "English!"\n', encoding="utf-8")
    try:
        load_rulebook(book, Project(tmp_path))
    except AetherpressError as exc:
        (problem,) = exc.problems
        assert "'English!' is not a language code" in str(problem) and "b.rulebook.toml" in str(problem)
        assert problem.line == 4
    else:
        raise AssertionError("a bad language tag was accepted")
