"""Rulebooks: Markdown features, errors, charts, fonts, outline, booklets, reproducibility."""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from generator.cli import main
from generator.definitions import load_all
from generator.definitions.presets import load_papers
from generator.errors import AetherpressError
from generator.imposition.booklet import booklet_order, padded_count
from generator.pipeline.context import ProjectContext
from generator.project import Project
from generator.render.impose import impose
from generator.rulebook import load_rulebooks, render_book
from generator.rulebook.bookodds import format_one_in, format_probability
from generator.rulebook.cardart import CardLibrary, HandPicture
from generator.rulebook.charts import hand_chart
from generator.rulebook.source import render_source
from generator.rulebook.style import make_styles
from tests.contexts import hands_of
from tests.pdfcheck import numbered_pdf

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
A5 = load_papers(Project(ROOT))["a5"]


# --- helpers -------------------------------------------------------------------------


@lru_cache(maxsize=16)  # several tests read each book's text
def pdf_text(data: bytes) -> str:
    """The text of a PDF as pypdf reads it (slow for a book: the text of the same bytes is read once in a
    session, and kept for its other workers beside the session's cache)."""
    kept = Path(os.environ["AETHERPRESS_TEST_SESSION_CACHE"]) / "test-texts" / f"{hashlib.sha256(data).hexdigest()}.txt"
    if kept.is_file():
        return kept.read_text(encoding="utf-8")
    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    kept.parent.mkdir(exist_ok=True)
    partial = kept.with_name(f"{kept.name}.{os.getpid()}")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, kept)
    return text


def squash(text: str) -> str:
    """Text without whitespace or typographic differences, for containment checks."""
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"[\s\-\x02\u00ad]+", "", text)  # hyphens go too: hyphenation breaks words at line ends


def outline_titles(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    titles: list[str] = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(item.title)

    walk(reader.outline)
    return titles


def source_headings(book, context) -> list[str]:
    _, rendered = render_source(book, context.library, context.odds)
    heads = re.findall(r"^#{1,4} +(.+?)\s*$", rendered, re.M)
    return [re.sub(r"[*_`]", "", h) for h in heads]


def scratch_book(tmp_path: Path, markdown: str, extra_toml: str = "") -> tuple:
    """A project with one test rulebook over the built-in decks and templates."""
    folder = tmp_path / "decks" / "test"
    folder.mkdir(parents=True)
    (folder / "book.toml").write_text(
        f'[rulebook]\nid = "test-book"\ntitle = "Test Book"\nsource = "book.md"\n{extra_toml}', encoding="utf-8"
    )
    (folder / "book.md").write_text(markdown, encoding="utf-8")
    from generator.project import Project

    project = Project(tmp_path)
    return project, load_rulebooks(project)["test-book"]


@dataclass
class FakeCategory:
    name: str
    description: str
    count: int
    pattern: str
    probability: float
    one_in: float | None
    subcounts: dict | None
    example: tuple | None


@dataclass
class FakeTable:
    game: str
    ranking: str
    deck: str
    hand_size: int
    total: int
    categories: list


def fake_table(counts: list[tuple[str, int, tuple | None]], hand_size: int, total: int) -> FakeTable:
    cats = [
        FakeCategory(name, f"what makes a {name.lower()}", c, "", c / total, (total / c) if c else None, None, ex)
        for name, c, ex in counts
    ]
    return FakeTable("test", "test", "decktet:no-excuse", hand_size, total, cats)


# --- Markdown features -------------------------------------------------------------------

FEATURES = """# First Chapter

Some *emphasis*, some **strong text**, `code`, and a [link to the rules](#second-chapter).
A line of raw HTML <b>stays text</b> & so do ampersands.

## Lists

- outer one
- outer two
    - inner alpha
    - inner beta
- outer three

1. first step
2. second step

## A table

| Rank | Cards |
| :--- | ---: |
| Dragon | 1 |
| Censor | 2 |

> A quoted line of wisdom.

---

![The Author](card:decktet/the-author) ![The Desert](card:decktet/the-desert)

# Second Chapter

### A third-level heading

Closing words, number {{ deck('decktet').cards | length }}.
"""


def test_markdown_features_all_render(tmp_path):
    project, book = scratch_book(tmp_path, FEATURES)
    data = render_book(ProjectContext(project).book_context(), book)
    text = squash(pdf_text(data))
    for phrase in [
        "Some emphasis, some strong text, code, and a link to the rules.",
        "<b>stays text</b> & so do ampersands",
        "outer one",
        "inner alpha",
        "inner beta",
        "outer three",
        "first step",
        "second step",
        "Dragon",
        "Censor",
        "A quoted line of wisdom.",
        "The Author",
        "The Desert",
        "Closing words, number 45.",
    ]:
        assert squash(phrase) in text, phrase
    assert outline_titles(data) == ["First Chapter", "Lists", "A table", "Second Chapter", "A third-level heading"]


def test_contents_links_to_headings(tmp_path):
    project, book = scratch_book(tmp_path, FEATURES)
    reader = PdfReader(io.BytesIO(render_book(ProjectContext(project).book_context(), book)))
    contents = reader.pages[4]  # after the cover, the endpaper, the title page and the colophon on its back
    assert "Contents" in contents.extract_text()
    links = [a.get_object() for a in contents.get("/Annots", [])]
    dests = {str(a.get("/Dest") or a.get("/A", {}).get("/D")) for a in links if a.get("/Subtype") == "/Link"}
    assert len(links) >= 4 and len(dests) >= 4  # the chapters and sections listed link somewhere


def test_a_long_contents_flows_over_pages_and_lists_the_right_pages(tmp_path, monkeypatch):
    """Sixty sections: the contents takes more than a page, each entry names the page its heading is on, and
    the book is still drawn once (the sketch's contents is as long as the book's)."""
    from generator.rulebook import document

    drawn: list = []  # the documents (kept, so no two share an id), once for each pass drawn on a real canvas
    build = document.BookDocument.build

    def counted(self, story, canvasmaker, **kwargs):
        if getattr(canvasmaker, "func", canvasmaker) is not document.SketchCanvas:
            drawn.append(self)
        return build(self, story, canvasmaker=canvasmaker, **kwargs)

    monkeypatch.setattr(document.BookDocument, "build", counted)
    sections = "".join(f"## Section {n}\n\nThe rules of section {n}, in a paragraph of their own.\n\n" for n in range(1, 61))
    project, book = scratch_book(tmp_path, "# The Game\n\nAn introduction.\n\n" + sections)
    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(render_book(ProjectContext(project).book_context(), book))
    assert drawn and len(drawn) == len({id(d) for d in drawn})  # (each spacing tried is a document of its own)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")  # pdftotext ends each page with a form feed
    assert pages[4].strip().startswith("Contents")  # after the cover, the endpaper, the title page and its back
    listed: dict[str, int] = {}
    at = 4
    while len(listed) < 61:
        entries = re.findall(r"^ *(The Game|Section \d+)[ .]+(\d+)$", pages[at], re.M)
        assert entries, (at, pages[at])
        listed.update((title, int(number)) for title, number in entries)
        at += 1
    assert at - 4 >= 2  # the contents took two pages or more
    for title, number in listed.items():
        found = [n for n, page in enumerate(pages, 1) if n > at and re.search(rf"^ *{title}$", page, re.M)]
        assert found == [number], (title, number, found)


@pytest.mark.parametrize(
    "snippet, message",
    [
        ("    indented code\n", "code blocks are not supported"),
        ("##### Too deep\n", "heading level 5"),
        ("A [bad link](file:///etc/passwd).\n", "not allowed"),
        ("A [dangling link](#nowhere).\n", "no heading has that anchor"),
        ("Text with ![a picture](card:decktet/the-author) inside.\n", "must stand alone"),
        ("![](card:decktet/the-autor)\n", "no card 'the-autor'"),
        ("![](pictures/cat.png)\n", "use card:, back:, hand: or chart:"),
        ("![](chart:no-such-game)\n", "no game 'no-such-game'"),
    ],
)
def test_unsupported_markdown_is_an_error_naming_the_line(tmp_path, snippet, message):
    project, book = scratch_book(tmp_path, "# Title\n\nFine text.\n\n" + snippet)
    with pytest.raises(AetherpressError) as info:
        render_book(ProjectContext(project).book_context(), book)
    problem = info.value.problems[0]
    assert message in problem.message
    assert problem.file.endswith("book.md")
    assert problem.line == 5


def test_templates_are_sandboxed(tmp_path):
    project, book = scratch_book(tmp_path, "# Title\n\n{{ deck.__globals__ }}\n")
    with pytest.raises(AetherpressError):
        render_book(ProjectContext(project).book_context(), book)
    project, book = scratch_book(tmp_path / "b", "# Title\n\n{% include '../../pyproject.toml' %}\n")
    with pytest.raises(AetherpressError):
        render_book(ProjectContext(project).book_context(), book)


def test_rulebook_toml_errors_name_the_key(tmp_path):
    project, _ = scratch_book(tmp_path, "# T\n")
    (tmp_path / "decks" / "test" / "book.toml").write_text('[rulebook]\nid = "x"\ntitle = "X"\nsauce = "book.md"\n')
    with pytest.raises(AetherpressError) as info:
        load_rulebooks(project)
    assert "unknown key 'sauce'" in str(info.value) and "did you mean 'source'" in str(info.value)


# --- charts --------------------------------------------------------------------------------


def test_chart_rows_order_pictures_and_numbers(project):
    library = CardLibrary(project, load_all(project), ProjectContext(project).sides)
    deck = library.deck("decktet:no-excuse")
    table = fake_table(
        [
            ("Best", 3, ("the-end", "the-market", "the-origin")),
            ("Middle", 1234, ("the-pact", "the-battle", "the-origin")),
            ("Never", 0, None),
            ("Worst", 12007, ("the-consul", "the-painter", "ace-of-wyrms")),
        ],
        3,
        13244,
    )
    styles = make_styles(A5)
    chart = hand_chart(table, deck, library, styles, styles.frame_width)
    _, rows, head_rows, never_rows = chart.aetherpress_chart
    assert chart.repeatRows == head_rows == 1
    body = rows[head_rows:-1]
    names = [r[0].text.split("<br/>")[0] for r in body]
    assert names == ["<b>Best</b>", "<b>Middle</b>", "<b>Never</b>", "<b>Worst</b>"]
    picture, notation = body[0][1]
    assert isinstance(picture, HandPicture) and len(picture.arts) == 3
    assert notation.text == "K Leaves, 6 Leaves/Knots, 2 Waves/Leaves"  # the hand written out beside its pictures
    assert [a.form for a in body[1][1][0].arts] == [
        "card-decktet-no-excuse-the-pact",
        "card-decktet-no-excuse-the-battle",
        "card-decktet-no-excuse-the-origin",
    ]
    # a category that never occurs is said so in words, not pictured, and greyed
    assert never_rows == [head_rows + 2]
    assert not isinstance(body[2][1], list) and "Never happens" in body[2][1].text
    assert [r[2].text for r in body] == ["3", "1,234", "–", "12,007"]
    assert body[1][3].text == f"{format_probability(1234 / 13244)}<br/>{format_one_in(13244 / 1234)}"
    assert format_probability(1234 / 13244) == "9.32\u00a0%" and format_one_in(13244 / 1234) == "1\u00a0in\u00a010.7"
    assert body[0][3].text.endswith("1\u00a0in\u00a04,415")
    assert body[2][3].text == "never"
    assert rows[-1][2].text == "13,244"
    # every row fits the frame: the chart is as wide as the text
    assert sum(chart._colWidths) == pytest.approx(styles.frame_width)


def test_probability_formatting():
    # a number and its sign, and the words of "1 in N", are bound by no-break spaces: no line parts them
    assert format_probability(0.5) == "50.0\u00a0%"
    assert format_probability(1 / 3) == "33.3\u00a0%"
    assert format_probability(2.5e-7) == "0.0000250\u00a0%"
    assert format_one_in(2.0) == "1\u00a0in\u00a02"
    assert format_one_in(123456.7) == "1\u00a0in\u00a0123,457"


# --- booklets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pages, expected",
    [
        (4, [(3, 0), (1, 2)]),
        (8, [(7, 0), (1, 6), (5, 2), (3, 4)]),
        (12, [(11, 0), (1, 10), (9, 2), (3, 8), (7, 4), (5, 6)]),
        (6, [(None, 0), (1, None), (5, 2), (3, 4)]),
    ],
)
def test_booklet_order(pages, expected):
    assert booklet_order(pages) == expected
    assert padded_count(pages) == 4 * len(expected) // 2


@pytest.mark.parametrize("n", [4, 8, 12])
def test_imposed_sides_carry_the_right_pages(n):
    reader = PdfReader(io.BytesIO(impose(numbered_pdf(n), (210 * mm, 297 * mm))))
    assert len(reader.pages) == n // 2
    for side, (left, right) in zip(reader.pages, booklet_order(n)):
        assert float(side.mediabox.width) > float(side.mediabox.height)  # landscape
        text = side.extract_text()
        found = [int(m) for m in re.findall(r"page(\d+)", text)]
        assert sorted(found) == sorted([left + 1, right + 1])
        # the left page's text lies left of the right page's
        positions = {}
        side.extract_text(
            visitor_text=lambda t, cm, tm, fd, fs, positions=positions: positions.setdefault(
                t.strip(), cm[4] * tm[0] + tm[4] * cm[0]
            )
        )
        assert positions[f"page{left + 1}"] < positions[f"page{right + 1}"]


# --- the real books ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def books(project):
    return load_rulebooks(project)


@pytest.fixture(scope="module")
def built(project, books, book_pdf):
    """Every real book that can be built here, as PDF bytes (A5)."""
    context = ProjectContext(project).book_context()
    return {book.id: (book, book_pdf(book.id), context) for book in books.values()}


def test_every_game_has_a_book(books):
    games = {g for b in books.values() for g in b.games}
    assert {"founders-flip", "lith", "fivefold-arrangement", "dragon-poker", "red-star"} <= games
    assert books["pernese"].games == ("dragon-poker", "red-star")


def test_every_heading_is_in_the_outline(built):
    assert built, "no book was built"
    for book_id, (book, data, context) in built.items():
        titles = outline_titles(data)
        headings = source_headings(book, context)
        assert titles == headings, book_id
        assert "Notes on this edition" not in headings  # notes and appendix are one section, the Rulings
        after = headings[headings.index("Rulings") + 1 :]
        assert not after or after[0] == "Odds and strategy", (book_id, after)  # only the appendix follows


def test_only_embedded_fonts(built, tmp_path):
    for book_id, (_book, data, _context) in built.items():
        path = tmp_path / f"{book_id}.pdf"
        path.write_bytes(data)
        listing = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
        lines = listing.splitlines()
        emb = lines[0].index("emb")
        rows = lines[2:]
        assert len(rows) >= 4, book_id  # serif, heading and sans faces at least
        for row in rows:
            assert row[emb : emb + 3] == "yes", row
            assert "Helvetica" not in row and "Times" not in row, row


def test_fivefold_tables_come_from_the_deck(built, definitions, project):
    from generator.hands import load_games

    _book, data, _ = built["fivefold-arrangement"]
    setups = load_games(project)["fivefold-arrangement"].arrangement.setups
    text = pdf_text(data)
    deck = definitions["dragons-gambit"].build(())
    for rank in deck.ranks:
        expected = rf"\n{rank.name}\s+{rank.attributes['twofold_points']}\s+{rank.attributes['fivefold_points']}\s"
        assert re.search(expected, text), expected
    for game in ("twofold", "fivefold"):
        counts = setups[game].draw_deck
        assert re.search(rf"Total\s+{sum(counts.values())}\s", text)
        for rank_id, n in counts.items():
            assert re.search(rf"\n{deck.rank(rank_id).name}\s+{n}\s", text), (game, rank_id)


def test_every_spell_text_is_in_founders_flip(built, definitions):
    _, data, _ = built["founders-flip"]
    text = squash(pdf_text(data))
    for card in definitions["aetherial"].build(()).cards:
        assert squash(card.name) in text, card.name
        assert squash(card.attributes["text"]) in text, card.name


def test_chart_counts_equal_the_engines(built, project):

    charts = {
        "founders-flip": [
            ("founders-flip", "standard", None),
            ("founders-flip", "gage", None),
            ("founders-flip", "sutet-rots", None),
        ],
        "lith": [("lith", None, "extended"), ("lith", None, "basic")],
        "pernese": [("dragon-poker", None, None), ("dragon-poker", None, "stripped")],
    }
    for book_id, specs in charts.items():
        text = pdf_text(built[book_id][1]).replace("’", "'")  # names are set with typographers' apostrophes
        for game, ranking, deck in specs:
            table = hands_of(project).odds_table(game, ranking=ranking, deck=deck)
            position = 0
            for category in table.categories:
                name = re.escape(category.name).replace(r"\ ", r"\s+")  # a long name may wrap in its cell
                row = re.compile(name + r".*?" + re.escape(f"{category.count:,}"), re.S)
                match = row.search(text, position)
                assert match, (book_id, game, ranking, deck, category.name, category.count)
                position = match.start() + 1
            assert f"{table.total:,}" in text


def test_command_line_builds_a_book_and_a_booklet(project, tmp_path, built):
    book_id = "fivefold-arrangement"
    assert main(["--project", str(project.root), "rulebook", book_id, "--out", str(tmp_path)]) == 0
    single = PdfReader(str(tmp_path / f"{book_id}.pdf"))
    assert (
        main(["--project", str(project.root), "rulebook", book_id, "--booklet", "--paper", "Letter", "--out", str(tmp_path)]) == 0
    )
    booklet = PdfReader(str(tmp_path / f"{book_id}-booklet-letter.pdf"))
    assert len(booklet.pages) == padded_count(len(single.pages)) // 2
    assert float(booklet.pages[0].mediabox.width) == pytest.approx(279.4 * mm, abs=0.5)
    assert main(["--project", str(project.root), "rulebook", book_id, "--paper", "A4", "--out", str(tmp_path)]) == 0
    assert float(PdfReader(str(tmp_path / f"{book_id}-a4.pdf")).pages[0].mediabox.width) == pytest.approx(210 * mm, abs=0.5)
    assert main(["--project", str(project.root), "rulebook", "fivefold", "--out", str(tmp_path)]) == 2
    # an imposed booklet is reproducible and embeds every font too
    first = (tmp_path / f"{book_id}-booklet-letter.pdf").read_bytes()
    assert (
        main(["--project", str(project.root), "rulebook", book_id, "--booklet", "--paper", "Letter", "--out", str(tmp_path)]) == 0
    )
    assert (tmp_path / f"{book_id}-booklet-letter.pdf").read_bytes() == first
    listing = subprocess.run(
        ["pdffonts", str(tmp_path / f"{book_id}-booklet-letter.pdf")], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    emb = listing[0].index("emb")
    assert len(listing) > 4 and all(row[emb : emb + 3] == "yes" for row in listing[2:])


def test_a_game_id_finds_its_shared_book(books):
    from generator.rulebook.definition import book_for

    assert book_for(books, "red-star").id == book_for(books, "dragon-poker").id == "pernese"


def test_full_build_includes_every_rulebook_byte_for_byte(project, books, built, tmp_path, capsys):
    """A plain build writes every book, and the same bytes as this process made with a context of its own
    (new decks, drawings and odds lookups, in other processes): books are reproducible."""
    assert main(["--project", str(project.root), "build", "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in (tmp_path / "rulebooks").glob("*.pdf"))
    editions = [f"{book_id}-{code}.pdf" for book_id, book in books.items() for code in book.editions]
    assert editions == ["fivefold-arrangement-de.pdf"]  # the built-in book with a second edition
    assert written == sorted([f"{book_id}.pdf" for book_id in books] + editions)
    assert "rulebook:" in capsys.readouterr().out
    for book_id in books:
        assert (tmp_path / "rulebooks" / f"{book_id}.pdf").read_bytes() == built[book_id][1], book_id


def test_every_reachable_category_is_pictured(project):
    from generator.rulebook.bookodds import chart_examples

    context = ProjectContext(project).book_context()
    styles = make_styles(A5)
    for game, ranking, deck in [("founders-flip", "gage", None), ("lith", None, "basic"), ("dragon-poker", None, "stripped")]:
        table = context.odds.table(game, ranking, deck)
        chart_deck = context.library.deck(table.deck_key)
        examples = chart_examples(project, table, {c.id for c in chart_deck.cards})
        chart = hand_chart(table, chart_deck, context.library, styles, styles.frame_width, examples.get)
        _, rows, head_rows, _never = chart.aetherpress_chart
        assert len(rows) == len(table.categories) + head_rows + 1  # header, categories, total
        for category, row in zip(table.categories, rows[head_rows:-1]):
            if category.count:
                assert isinstance(row[1][0], HandPicture), (game, category.name)
                assert len(row[1][0].arts) == table.hand_size
            else:
                assert not isinstance(row[1], list)


def test_chart_pages_repeat_the_header_and_keep_rows_whole(built, project):

    reader = PdfReader(io.BytesIO(built["founders-flip"][1]))
    pages = [page.extract_text() for page in reader.pages]
    table = hands_of(project).odds_table("founders-flip", ranking="gage")
    chart_pages = [t for t in pages if re.search(r"%\s*1 in [\d,.]+\b", t)]  # a chance with its "1 in N" under it
    assert len(chart_pages) >= 3  # three charts, one over several pages
    for text in chart_pages:
        assert re.search(r"Hand\s+Example\s+Hands\s+Chance", text), text[:200]
    for category in table.categories:  # a row's name and its numbers always share a page
        name = re.escape(category.name).replace(r"\ ", r"\s+")
        row = re.compile(name + r"\n.*?" + re.escape(f"{category.count:,}"), re.S)
        assert any(row.search(text) for text in chart_pages), category.name


def test_validate_checks_rulebook_files(tmp_path, capsys):
    project, _ = scratch_book(tmp_path, "# T\n")
    assert main(["--project", str(project.root), "validate"]) == 0
    assert "1 rulebook checked" in capsys.readouterr().out
    (tmp_path / "decks" / "test" / "book.toml").write_text('[rulebook]\nid = "x"\ntitle = "X"\nsource = "missing.md"\n')
    assert main(["--project", str(project.root), "validate"]) == 2
    assert "no such file 'missing.md'" in capsys.readouterr().err


def test_no_heading_is_left_at_the_foot_of_a_page(project, books, monkeypatch):
    """Every heading is drawn on the same page as the flowable that follows it."""
    from reportlab.platypus import CondPageBreak, Spacer

    import generator.rulebook.document as document
    from generator.rulebook.flow import Heading

    drawn: list[tuple[object, int]] = []
    original = document.BookDocument.afterFlowable

    def record(self, flowable):
        drawn.append((flowable, self.page))
        return original(self, flowable)

    monkeypatch.setattr(document.BookDocument, "afterFlowable", record)
    context = ProjectContext(project).book_context()
    for book in books.values():
        drawn.clear()
        render_book(context, book)
        checked = 0  # (multiBuild's passes all append here; each pass is checked the same way)
        for (flowable, page), (after, after_page) in itertools.pairwise(drawn):
            if isinstance(flowable, Heading) and not isinstance(after, (CondPageBreak, Spacer)):
                assert after_page == page, (book.id, flowable.title)
                checked += 1
        assert checked >= 10, book.id


def test_every_book_prints_the_readings_its_odds_rest_on(built, project):
    from generator.hands import load_games

    games = load_games(project)
    checked = 0
    for book_id, (book, data, _context) in built.items():
        text = squash(pdf_text(data))
        for game_id in book.games:
            for note in getattr(games.get(game_id), "notes", ()):
                assert squash(note) in text, (book_id, note)
                checked += 1
    assert checked >= 10


def test_a_book_is_laid_out_on_a_sketch_and_drawn_once(project, books, monkeypatch):
    """The first pass only finds where the headings fall: nothing is drawn on it, and the book is the
    same, byte for byte, as the one reportlab's own passes (each drawn in full) make."""
    from reportlab.platypus import BaseDocTemplate

    from generator.rulebook import cardart as pictures
    from generator.rulebook import document

    context = ProjectContext(project).book_context()
    drawn_on: list[type] = []
    draw_card = pictures.draw_card

    def counted(canv, *args):
        drawn_on.append(type(canv))
        return draw_card(canv, *args)

    monkeypatch.setattr(pictures, "draw_card", counted)
    book = books["lith"]
    sketched = render_book(context, book)
    assert drawn_on and document.SketchCanvas not in drawn_on
    once = len(drawn_on)
    monkeypatch.setattr(document.BookDocument, "multiBuild", BaseDocTemplate.multiBuild)
    drawn_on.clear()
    assert render_book(context, book) == sketched
    assert len(drawn_on) == 2 * once  # reportlab's two passes draw every card twice


def test_a_paragraph_keeps_its_hyphens_however_often_it_is_laid_out():
    """A word broken at its own hyphen keeps it when the paragraph is broken into lines again (reportlab's
    own Paragraph loses it the second time: "AttributionNonCommercial")."""
    from types import SimpleNamespace

    from reportlab.platypus import Paragraph as PlainParagraph

    from generator.rulebook.paragraphs import Paragraph
    from generator.rulebook.style import make_styles

    styles = make_styles(SimpleNamespace(width=148, height=210))
    text = (
        "This book adapts material shared under Creative Commons Attribution-NonCommercial-ShareAlike 3.0 "
        '(CC BY-NC-SA 3.0), <a href="https://example.org/">https://example.org/</a>, and more.'
    )

    def words(p) -> str:
        return "".join(getattr(f, "text", "") for line in p.blPara.lines for f in line.words).replace(" ", "")

    ours, plain = Paragraph(text, styles.colophon), PlainParagraph(text, styles.colophon)
    for p in (ours, plain):
        p.wrap(styles.measure, 1000)
    assert "Attribution-NonCommercial" in words(ours) and "Attribution-NonCommercial" in words(plain)
    for width in (styles.measure, styles.measure * 0.8, styles.measure):
        ours.wrap(width, 1000)
        assert "Attribution-NonCommercial-ShareAlike" in words(ours), width
    plain.wrap(styles.measure, 1000)
    assert "AttributionNonCommercial" in words(plain)  # what this guards against


def test_a_heading_under_a_heading_is_kept_with_it_and_no_heading_is_hyphenated(project):
    """A chapter title with a section title right under it: one page-break check before the pair, none between
    them (so the chapter title cannot be left alone at a page's foot); no heading style breaks words."""
    from reportlab.platypus.doctemplate import CondPageBreak

    from generator.definitions.presets import load_papers
    from generator.rulebook.cardart import CardLibrary
    from generator.rulebook.flow import Converter, Heading
    from generator.rulebook.markup import SourceMap, parse
    from generator.rulebook.style import make_styles

    text = "# Twofold: the game for two\n\n## Setup\n\nEach player takes eight cards.\n\n## Stakes\n\nAgree on a bet.\n"
    styles = make_styles(load_papers(project)["a5"], 1.0)
    story = Converter(
        styles, CardLibrary(project, load_all(project), ProjectContext(project).sides), SourceMap("book.md", text, text), None
    ).convert(parse(text))
    kinds = ["break" if isinstance(f, CondPageBreak) else "heading" if isinstance(f, Heading) else "text" for f in story]
    assert kinds[:4] == ["break", "heading", "heading", "text"]
    assert kinds.count("break") == 2  # before the chapter, and before "Stakes", which follows text
    assert all(s.hyphenationLang is None and s.keepWithNext for s in (styles.h1, styles.h2, styles.h3, styles.h4))
    # an introduction keeps with the chart it introduces: no page-break check between them either
    from reportlab.platypus import Spacer

    chart = Spacer(1, 10)
    text = "Some rules.\n\nAll hands, counted by kind:\n\n![](chart:game)\n"
    story = Converter(
        styles,
        CardLibrary(project, load_all(project), ProjectContext(project).sides),
        SourceMap("book.md", text, text),
        lambda *a: chart,
    ).convert(parse(text))
    at = next(i for i, f in enumerate(story) if f is chart)  # the chart, as wide as the text like every table
    assert getattr(story[at - 1], "text", "").endswith("counted by kind:") and not isinstance(story[at - 1], CondPageBreak)


def test_straight_quotes_are_set_curled_wherever_the_text_came_from():
    from reportlab.lib.styles import ParagraphStyle

    from generator.rulebook.paragraphs import Paragraph, curl

    assert curl("the player's hand: \"1 in 12\" ('Queens' Wing')") == "the player’s hand: “1 in 12” (‘Queens’ Wing’)"
    para = Paragraph('A <b>"bold"</b> word\'s <a href="https://example.org/it\'s">link</a>', ParagraphStyle("t"))
    texts = [f.text for f in para.frags]
    assert "".join(texts) == "A “bold” word’s link" and "'" not in "".join(texts)
    assert any(getattr(f, "link", None) for f in para.frags)  # a link's address is not text: left as written


def test_every_example_hand_is_written_out_on_one_line(project):
    """The cards of each chart's example are named on one line under the fanned hand (the Founding cards'
    names are long): the example column widens for them, as far as a chart as wide as the text allows."""
    from generator.rulebook import deciding_attributes
    from generator.rulebook.notation import HandNotation

    context = ProjectContext(project).book_context()
    styles = make_styles(A5)
    for game, ranking, deck in [
        ("founders-flip", "standard", None),
        ("founders-flip", "gage", None),
        ("dragon-poker", None, None),
        ("lith", None, "extended"),
    ]:
        table = context.odds.table(game, ranking, deck)
        deck_obj = context.library.deck(table.deck_key)
        marks = deciding_attributes(context.odds.games()[game].rankings[table.ranking], deck_obj)
        chart = hand_chart(table, deck_obj, context.library, styles, styles.measure, marks=marks)
        chart.wrap(styles.measure, 1e6)
        _, rows, head_rows, _never = chart.aetherpress_chart
        notations = [row[1][1] for row in rows[head_rows:-1] if isinstance(row[1], list)]
        assert notations and all(isinstance(n, HandNotation) for n in notations)
        most = 1 if table.hand_size <= 4 else 2  # five or six cards (WW Stones, Magist ...) take two lines at text width
        assert [n.text for n in notations if len(n.lines) > most] == [], (game, ranking)


def test_a_rulebook_naming_a_game_the_project_does_not_have_is_one_line(tmp_path, monkeypatch, capsys):
    """``games`` names games of the project or variants of the book's decks: a misspelt one is refused by
    validate and by the rulebook command, with the name meant; the built-in books (a variant among them) pass."""
    import shutil

    from generator.cli import main

    root = tmp_path / "catalogue"
    shutil.copytree(Path(__file__).parent / "fixtures" / "catalogue-base", root)
    book = root / "decks" / "cat" / "cat.rulebook.toml"
    book.write_text(book.read_text(encoding="utf-8").replace('games = ["snap"]', 'games = ["snpa"]'), encoding="utf-8")
    monkeypatch.chdir(root)
    for command in (["validate"], ["rulebook", "cat", "--out", str(tmp_path / "books")]):
        assert main(command) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].startswith("error: decks/cat/cat.rulebook.toml: rulebook.games: 'snpa' is no game of the project")
        assert "did you mean 'snap'" in err[-1]
    assert not (tmp_path / "books").exists()


def test_an_email_address_in_angle_brackets_is_a_mailto_link_printed_as_written():
    """Markdown hides an address written as ``<name@host>`` from web harvesters as numbered entities; a book
    prints the address and links it, instead of refusing a link target of entity fragments."""
    from generator.rulebook.markup import parse

    link = next(parse("Write to <designer@example.com> or visit <https://example.com>.").iter("a"))
    assert link.get("href") == "mailto:designer@example.com"
    assert "".join(link.itertext()) == "designer@example.com"
