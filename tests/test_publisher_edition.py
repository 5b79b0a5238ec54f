"""The publisher's edition: designed covers, the colophon inside the book, no blank pages, each shop's book files."""

from __future__ import annotations

import io
import shutil

import numpy as np
import pikepdf
import pypdfium2
import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from generator.cli import main
from generator.imposition.printbook import slug_width
from generator.rulebook.isbn import IsbnError, isbn13

from .test_rulebook import FEATURES, scratch_book, squash

BOOKS = ["lith", "founders-flip", "pernese", "fivefold-arrangement"]
COLOPHON = squash("Set in EB Garamond, Cinzel and Source Sans 3")
needs_gs = pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (Debian ghostscript) is not installed")


def _texts(data: bytes) -> list[str]:
    return [squash(p.extract_text()) for p in PdfReader(io.BytesIO(data)).pages]


def _pixels(data: bytes, dpi: int = 18) -> list[np.ndarray]:
    pdf = pypdfium2.PdfDocument(data)
    return [np.asarray(pdf[i].render(scale=dpi / 72).to_pil().convert("RGB")) for i in range(len(pdf))]


@pytest.mark.slow
@pytest.mark.parametrize("book_id", BOOKS)
def test_the_colophon_is_on_a_page_of_the_book_never_a_covers_inside(book_pdf, book_id):
    texts = _texts(book_pdf(book_id))
    pages = len(texts)
    at = [i for i, t in enumerate(texts) if COLOPHON in t]
    assert at == [3], (book_id, at)  # the title page's back, inside the book
    covers = (0, 1, pages - 2, pages - 1)
    assert all(COLOPHON not in texts[i] for i in covers)
    assert 2 <= at[0] <= pages - 3


@pytest.mark.slow
@pytest.mark.parametrize("book_id", BOOKS)
def test_no_page_is_blank(book_pdf, book_id):
    """Every page prints something: whole sheets are made with pages a reader wants, the insides of the covers
    are endpapers; so no blank page, and never two in a row."""
    pictures = _pixels(book_pdf(book_id))
    assert len(pictures) % 4 == 0
    inked = [float((picture < 235).any(axis=2).mean()) for picture in pictures]
    blank = [i + 1 for i, share in enumerate(inked) if share < 0.005]
    assert not blank, (book_id, blank)
    front, back = pictures[0], pictures[-1]
    for cover in (front, back):  # covers are designed to their edges: no paper shows round them
        edge = np.concatenate([cover[0], cover[-1], cover[:, 0], cover[:, -1]])
        assert (edge.min(axis=1) < 235).mean() > 0.95, book_id


FILLERS = ("Hands at a glance", "The cards of", "Score sheet", "Notes")


@pytest.mark.slow
def test_the_pages_that_make_whole_sheets_are_fillers_a_reader_wants(tmp_path, monkeypatch):
    """A new game's book with more and more rules: its last sheet is made whole with the hands at a glance, the
    cards, a score sheet and notes, in that order, as many as it needs (none, one, two or three), never a blank."""
    root = _starter(tmp_path, monkeypatch)
    source = root / "decks" / "g" / "g.md"
    rules = source.read_text(encoding="utf-8")
    used = set()
    for extra in range(0, 4):
        text = rules + "".join(
            f"\n## More rules {n}\n\n" + "Each player may ask for one more card. " * 40 + "\n" for n in range(extra * 3)
        )
        source.write_text(text, encoding="utf-8")
        assert main(["--project", str(root), "rulebook", "g", "--out", str(tmp_path / "out")]) == 0
        data = (tmp_path / "out" / "g.pdf").read_bytes()
        texts = _texts(data)
        assert len(texts) % 4 == 0
        fillers = [name for t in texts for name in FILLERS if t.startswith(squash(name))]
        assert fillers == list(FILLERS[: len(fillers)]), fillers  # in order, each once
        assert len(fillers) <= 3 and not any(t.startswith(squash(f)) for t in texts[:-5] for f in FILLERS)
        inked = [float((p < 235).any(axis=2).mean()) for p in _pixels(data)]
        assert min(inked) > 0.0005, inked  # no blank page (a title page is sparse: any ink counts)
        used.add(len(fillers))
    assert len(used) >= 2, used  # the books needed different numbers of fillers


def test_a_book_of_neither_games_nor_decks_makes_whole_sheets_with_notes_ruled_down_their_page(tmp_path):
    """Its text ends three pages short of a sheet and only the score sheet and notes suit it: a second page for
    notes. Each is ruled once every 8 mm down its own page (a frame that shrinks what it holds asks for its
    height with an endless room: taken from there, the lines were half a million, scaled to fit)."""
    from generator.pipeline.context import ProjectContext
    from generator.rulebook import render_book

    project, book = scratch_book(tmp_path, FEATURES)
    data = render_book(ProjectContext(project).book_context(), book)
    texts = _texts(data)
    assert len(texts) % 4 == 0
    fillers = [name for t in texts for name in FILLERS if t.startswith(squash(name))]
    assert fillers == ["Score sheet", "Notes", "Notes"], fillers
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for number, text in enumerate(texts):
            if text.startswith("Notes"):
                page = pdf.pages[number]
                lines = [op for _, op in pikepdf.parse_content_stream(page) if str(op) == "l"]
                most = float(page.mediabox[3] - page.mediabox[1]) / (8 * mm)
                assert most / 2 <= len(lines) <= most, (number, len(lines))


@pytest.mark.slow
def test_the_covers_carry_the_title_blurb_and_facts(project, book_pdf):
    from generator.rulebook import load_rulebooks

    for book_id in BOOKS:
        book = load_rulebooks(project)[book_id]
        texts = _texts(book_pdf(book_id))
        assert squash(" ".join(book.title_lines) or book.title) in texts[0]
        assert squash(book.blurb) in texts[-1] and squash(book.players) in texts[-1]


def test_isbns_are_checked_and_written_as_their_thirteen_digits():
    assert isbn13("978-1-86197-876-9") == "9781861978769"
    assert isbn13("ISBN 0-306-40615-2") == "9780306406157"  # an ISBN-10, as its ISBN-13
    for bad, said in (("978-1-86197-876-0", "should be 9"), ("0-306-40615-3", "check digit"), ("12345", "13 digits")):
        with pytest.raises(IsbnError, match=said):
            isbn13(bad)


def _starter(tmp_path, monkeypatch, extra: str = ""):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "g"]) == 0
    root = tmp_path / "g"
    book = root / "decks" / "g" / "g.rulebook.toml"
    book.write_text(book.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return root


@pytest.mark.slow
def test_a_new_game_gets_designed_covers_with_no_choice_made(tmp_path, monkeypatch):
    root = _starter(tmp_path, monkeypatch, 'blurb = "A game of moons."\nisbn = "978-1-86197-876-9"\nplayers = "2 to 4"\n')
    assert main(["--project", str(root), "rulebook", "g", "--out", str(tmp_path / "out")]) == 0
    data = (tmp_path / "out" / "g.pdf").read_bytes()
    pictures, texts = _pixels(data), _texts(data)
    for cover in (pictures[0], pictures[-1]):
        assert (cover.min(axis=2) < 200).mean() > 0.5  # the deck's back, not a pale page
    assert squash("A game of moons.") in texts[-1] and squash("ISBN 978-186197876-9") in texts[-1]
    assert len(pictures) % 4 == 0


def test_a_wrong_isbn_is_a_one_line_error_at_its_line(tmp_path, monkeypatch, capsys):
    root = _starter(tmp_path, monkeypatch, 'isbn = "978-1-86197-876-0"\n')
    assert main(["--project", str(root), "validate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "g.rulebook.toml:" in err[0] and "check digit should be 9" in err[0]


@pytest.mark.slow
@needs_gs
def test_each_shop_gets_the_marks_slug_and_boxes_its_guide_asks(project, tmp_path):
    """DriveThruCards: no marks, no slug (each page is its bleed box), the cover the outside spread alone; the
    generic press: crop marks on a slug, the cover's outside and inside spreads."""
    from generator.definitions.shops import load_shops

    shop = load_shops(project)["drivethrucards"]
    assert (shop.book.marks, shop.book.slug, shop.book.cover) == (False, 0.0, "outside")
    out = tmp_path / "out"
    assert main(["--project", str(project.root), "rulebook", "pernese", "--shop", "drivethrucards", "--out", str(out)]) == 0
    assert main(["--project", str(project.root), "rulebook", "pernese", "--print", "--out", str(out)]) == 0
    for tag, marks, cover_pages in (("drivethrucards", False, 1), ("print", True, 2)):
        bleed = 3.175 if tag == "drivethrucards" else 3.0
        for part in ("interior", "cover"):
            with pikepdf.open(out / f"pernese-{tag}-{part}.pdf") as pdf:
                if part == "cover":
                    assert len(pdf.pages) == cover_pages, tag
                for page in pdf.pages:
                    media = [float(v) for v in page.MediaBox]
                    trim = [float(v) for v in page.TrimBox]
                    bleed_box = [float(v) for v in page.BleedBox]
                    margin = (trim[0] - media[0]) / 72 * 25.4
                    assert margin == pytest.approx(slug_width(bleed, marks, 1.0 if marks else 0.0), abs=0.02), (tag, part)
                    assert (bleed_box == media) == (not marks), (tag, part)
        picture = _pixels((out / f"pernese-{tag}-interior.pdf").read_bytes(), 72)[0]
        corner = picture[: round(slug_width(bleed, marks) / 25.4 * 72) - 1, :]
        dark = (corner.min(axis=2) < 128).any()
        assert dark == marks, tag  # the crop marks, in the slug, or nothing there
