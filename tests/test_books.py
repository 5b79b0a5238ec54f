"""The built-in books as a reader gets them: measure, hyphenation, page fill, charts, credits.

Each check reads the printed PDF (pdfium's text and pixels, see ``book_measure``),
not the layout engine's own idea of what it did.
"""

from __future__ import annotations

import io
import json
import re
import statistics
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli import main
from generator.definitions import load_all
from generator.definitions.presets import load_papers
from generator.hands import load_games
from generator.rulebook import load_rulebooks
from generator.rulebook.colophon import gather_credits
from generator.rulebook.keeping import FULL
from generator.rulebook.style import make_styles
from tests.contexts import hands_of

from .book_measure import body_lines, chapter_pages, characters, full_lines, hyphenated_breaks, page_fill
from .test_rulebook import pdf_text, squash

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parent / "fixtures"  # seed-*.txt: copies of the games' source texts, kept verbatim
PAPERS = {"a5": ("lith", "founders-flip", "pernese", "fivefold-arrangement"), "a4": ("lith", "pernese"), "letter": ("lith",)}


@pytest.fixture(scope="module")
def printed(project, book_pdf):
    """(book id, paper) -> (PDF bytes, styles) for the books and papers in PAPERS."""
    papers = load_papers(project)
    return {
        (book_id, paper): (book_pdf(book_id, paper), make_styles(papers[paper]))
        for paper, ids in PAPERS.items()
        for book_id in ids
    }


def _body(data: bytes, styles) -> list:
    first = chapter_pages(data)[0]  # after the title page, the colophon and the contents
    return [line for line in body_lines(data, styles.body.fontSize) if line.page >= first]


def test_the_measure_is_55_to_75_characters(printed):
    for (book_id, paper), (data, styles) in printed.items():
        full = full_lines(_body(data, styles), styles.measure)
        counts = [characters(line) for line in full]
        assert len(counts) >= 30, (book_id, paper)
        assert 55 <= statistics.mean(counts) <= 75, (book_id, paper, statistics.mean(counts))
        inside = sum(55 <= n <= 75 for n in counts) / len(counts)
        assert inside >= 0.95, (book_id, paper, sorted(counts)[:5], sorted(counts)[-5:])


def test_justified_text_is_hyphenated(printed, books_words):
    data, styles = printed[("lith", "a5")]
    breaks = hyphenated_breaks(_body(data, styles), books_words)
    assert len(breaks) >= 5, breaks  # words broken at a line's end, each a real word when joined


@pytest.fixture(scope="module")
def books_words(project):
    words: set[str] = set()
    for book in load_rulebooks(project).values():
        words |= set(re.findall(r"[a-z]+", book.source.read_text(encoding="utf-8").lower()))
    return words


def test_no_page_is_left_more_than_a_third_empty_and_no_widow_page(printed):
    """A page is at least two thirds full unless a chapter starts on the next; a chapter never ends on a page
    holding less than a fifth of a page."""
    for (book_id, paper), (data, styles) in printed.items():
        fills = page_fill(data, styles.margins)
        chapters = chapter_pages(data)
        assert len(fills) >= 6 and chapters[0] == 6, (book_id, paper, chapters)  # cover, endpaper, title, colophon, contents
        # the text ends with its last line of running text: the pages after it fill the last sheet (the hands at a
        # glance, the cards, a score sheet, notes), then the endpaper and the back cover
        last = max(line.page for line in body_lines(data, styles.body.fontSize))
        assert len(fills) - last <= 5, (book_id, paper, len(fills), last)
        for page in range(chapters[0], last + 1):
            fill = fills[page - 1]
            ends_chapter = page == last or page + 1 in chapters
            if not ends_chapter:
                assert fill >= FULL - 0.01, (book_id, paper, page, fill)  # a pixel row's rounding
            elif page not in chapters:
                assert fill >= 0.2, (book_id, paper, page, fill)


def test_one_chart_per_ranking_with_other_decks_as_columns(printed, project):
    data, _ = printed[("lith", "a5")]
    text = pdf_text(data)
    assert len(re.findall(r"Hand\s+Example", text)) == len(re.findall(r"44 cards\s+36 cards", text)) >= 2
    extended, basic = hands_of(project).odds_table("lith", deck="extended"), hands_of(project).odds_table("lith", deck="basic")
    for a in extended.categories:  # each row carries both decks' counts, side by side
        b = next(c for c in basic.categories if c.name == a.name)
        counts = rf"{a.count:,}\s+[\d.]+ %\s+1 in [\d,.]+\s+" if a.count else r"–\s+never\s+"
        counts += rf"{b.count:,}\s+[\d.]+ %" if b.count else r"–\s+never"
        assert re.search(re.escape(a.name).replace(r"\ ", r"\s+") + r".*?" + counts, text, re.S), a.name
    pernese, _ = printed[("pernese", "a5")]
    assert re.search(r"54 cards\s+38 cards", pdf_text(pernese))


def test_categories_that_never_occur_say_so(printed, project):
    table = hands_of(project).odds_table("dragon-poker")
    hatching = next(c for c in table.categories if c.name == "Hatching")
    assert hatching.count == 0 and hatching.pattern > 0
    text = pdf_text(printed[("pernese", "a5")][0])
    row = text[text.index("Hatching\nBoth Eggs") :].split("Two Pair\n")[0]  # the chart's row
    assert "Never happens" in row and f"{hatching.pattern:,}" in row
    assert re.search(r"–\s+never\s+–\s+never", row)  # on both decks


def test_tie_classes_are_in_a_readers_words(printed):
    text = pdf_text(printed[("lith", "a5")][0])
    assert "Of these:" not in text and "neither 0" not in text
    assert "All are kindred." in text and "None is kindred or fortune." in text


def test_every_book_has_a_colophon_with_its_credits(printed, project):
    games = load_games(project)
    definitions = load_all(project)
    for book in load_rulebooks(project).values():
        data, _ = printed[(book.id, "a5")]
        verso = squash(PdfReader(io.BytesIO(data)).pages[3].extract_text())
        credits = gather_credits(book, games, [definitions[d].base for d in book.decks])
        assert credits, book.id
        for c in credits:
            for value in [c.designer, c.author, c.source, c.notice, *c.notes]:
                assert squash(value) in verso, (book.id, value)
            for note in c.notes:  # each told once, however many of the book's sources give it
                assert verso.count(squash(note)) == 1, (book.id, note)
            if c.source and c.designer:
                assert verso.count(squash(f"{c.source}, designed by {c.designer}.")) == 1, (book.id, c.source)
            if c.licence is not None:
                for value in (c.licence.name, c.licence.url, c.licence.terms):
                    assert squash(value) in verso, (book.id, value)
    lith = squash(PdfReader(io.BytesIO(printed[("lith", "a5")][0])).pages[3].extract_text())
    assert squash("Lith, designed by Mycake.") in lith and squash("P. D. Magnus") in lith
    assert squash("is shared under the same licence") in lith
    # the book says its odds were all counted only when none of its tables was simulated
    simulated = squash("except in the tables that say they were simulated")
    flip = squash(PdfReader(io.BytesIO(printed[("founders-flip", "a5")][0])).pages[3].extract_text())
    assert simulated in flip and simulated not in lith
    assert squash("Unless otherwise stated, the content of this page is licensed under Creative Commons") in lith


def test_list_json_and_tts_carry_credits(project, capsys, tmp_path):
    assert main(["--project", str(project.root), "list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["decktet"]["credits"]["designer"] == "P. D. Magnus"
    assert rows["pernese"]["credits"]["author"] == "[Zen]"
    assert rows["standard"]["credits"] is None
    from generator.outputs.tts import SheetGrid, deck_object

    deck = load_all(project)["decktet"].build(())
    saved = deck_object(
        deck, [(SheetGrid(1, 1, 10, 10), list(deck.cards[:2]), "face", "back")], {c.id: 1 for c in deck.cards}, False
    )
    assert "P. D. Magnus" in saved["ObjectStates"][0]["Description"]
    assert "P. D. Magnus" in saved["Note"]


def test_history_and_flavour_are_quoted_verbatim(printed, project):
    seed = (FIXTURES / "seed-founders-flip.txt").read_text(encoding="utf-8")
    history = seed.split("\nHistory\n", 1)[1].strip().split("\n")[0]
    text = squash(pdf_text(printed[("founders-flip", "a5")][0]))
    assert squash(history) in text and squash("— from the Founder’s Flip source text") in text
    for card in load_all(project)["aetherial"].build(()).cards:
        flavour = card.attributes.get("flavour")
        if flavour:
            assert flavour in seed, card.name  # the card's own words, as the source has them
            assert squash(flavour) in text, card.name
    pern = (FIXTURES / "seed-pernese-playing-cards.txt").read_text(encoding="utf-8")
    opening = next(p for p in pern.split("\n") if p.startswith("The traditional deck"))
    assert squash(opening) in squash(pdf_text(printed[("pernese", "a5")][0]))


def test_lith_book_counts_kindred_flush_pairs_as_single_flush_pairs(printed):
    """The ruling is made once, in the Rulings: not again in the rankings, the notes and an appendix."""
    text = squash(pdf_text(printed[("lith", "a5")][0]))
    assert text.count(squash("counts as a Single Flush Pair")) == 1
    assert text.count(squash("The Island, The Window, The Desert")) == 1
    assert text.index(squash("counts as a Single Flush Pair")) > text.index(squash("Rulings The source leaves"))
    assert "misprinted" not in text and squash("Kindred Pair, the higher category") not in text


def test_no_ruling_is_explained_twice(printed, project):
    """Each reading a book's odds rest on is printed once, in its Rulings, before the odds appendix."""
    games = load_games(project)
    for book in load_rulebooks(project).values():
        if (book.id, "a5") not in printed:
            continue
        text = squash(pdf_text(printed[(book.id, "a5")][0]))
        rulings = text.index(squash("Rulings The source"))
        for game_id in book.games:
            for note in getattr(games.get(game_id), "notes", ()):
                assert text.count(squash(note)) == 1, (book.id, note)
                assert text.index(squash(note)) > rulings, (book.id, note)


def test_example_hands_are_written_out_at_a_readable_size(project):
    for paper in ("a5", "a4"):
        styles = make_styles(load_papers(project)[paper])
        assert styles.chart_notation_size >= 6.5
