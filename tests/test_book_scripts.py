"""Books in Hebrew, Arabic and Japanese: set in the shipped script fonts, right to left where the language is, lines
broken between characters in Japanese; and an Arabic card deck."""

from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path

import pytest

from generator.cli import main

from .served import edit, new_game

pytestmark = pytest.mark.slow  # whole books

NAME = "game"
HEBREW = "במשחק Aetherpress Game 2 כל שחקן מקבל שלושה קלפים ביד, והמנצח הוא הטוב ביותר."
ARABIC = "يحصل كل لاعب على ثلاث أوراق."
JAPANESE = "各プレイヤーは手札を三枚持ちます。最も強い役を持つプレイヤーがその回に勝ち、三回勝ったプレイヤーがゲームに勝ちます。"
BOOKS = {"he": ("# איך משחקים", HEBREW), "ar": ("# طريقة اللعب", ARABIC), "ja": ("# 遊び方", JAPANESE)}


def book(folder: Path, capsys, language: str, more: str = "") -> Path:
    """The PDF of a book whose edition in ``language`` is written in that language (and ``more`` after it)."""
    root = new_game(folder, NAME)
    deck = root / "decks" / NAME
    edit(deck / f"{NAME}.rulebook.toml", '# editions = ["de"]', f'editions = ["{language}"]')
    heading, text = BOOKS[language]
    (deck / f"{NAME}.{language}.md").write_text(f"{heading}\n\n{text}\n\n{more}\n", encoding="utf-8")
    capsys.readouterr()
    code = main(["--project", str(root), "rulebook", NAME, "--lang", language, "--out", str(folder / "books")])
    assert code == 0, capsys.readouterr().err
    return folder / "books" / f"{NAME}-{language}.pdf"


def page_lines(path: Path, heading: str) -> list[list[tuple[float, str]]]:
    """The lines from the book's first heading on, top to bottom: each its characters as (left edge, character),
    in the order they were drawn."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        for page in pdf:
            text = page.get_textpage()
            lines: dict[tuple[float, float], list[tuple[float, str]]] = {}
            for i in range(text.count_chars()):
                char = text.get_text_range(i, 1)
                if char.strip():
                    left, bottom, _, top = text.get_charbox(i, loose=True)
                    middle = (bottom + top) / 2  # a line is the characters whose middles lie within its first one
                    key = next((k for k in lines if k[0] <= middle <= k[1]), (bottom, top))
                    lines.setdefault(key, []).append((left, char))
            ordered = [lines[k] for k in sorted(lines, key=lambda k: -k[0])]
            wanted = set(heading.replace(" ", ""))
            for i, line in enumerate(ordered[:-1]):
                got = {unicodedata.normalize("NFKC", c) for _, c in line}
                if len(wanted & got) >= len(wanted) - 2 and len(got) <= len(wanted) + 1 and len(ordered[i + 1]) > 12:
                    return ordered[i:]
    finally:
        pdf.close()
    raise AssertionError("no page of running text")


def left_edges(path: Path, *words: str) -> dict[str, float]:
    """Where each of ``words`` starts on the first page that has them all (its left edge, in points)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        for page in pdf:
            text = page.get_textpage()
            found = {}
            for word in words:
                hit = text.search(word, match_case=True, match_whole_word=True).get_next()
                if hit:
                    found[word] = text.get_charbox(hit[0])[0]
            if len(found) == len(words):
                return found
    finally:
        pdf.close()
    raise AssertionError(f"no page with {words}")


def right_to_left(line: list[tuple[float, str]]) -> str:
    return "".join(c for _, c in sorted(line, key=lambda p: -p[0]))


def test_a_hebrew_book_reads_right_to_left_with_latin_and_numbers_left_to_right(tmp_path, capsys):
    lines = page_lines(book(tmp_path, capsys, "he"), "איך משחקים")
    read = ["".join(unicodedata.normalize("NFKC", right_to_left(line))) for line in lines]
    assert read[0] == "איךמשחקים"  # the heading: its first word at the right
    body = "".join(read[1:])
    assert body.startswith("במשחק"), read
    # the Latin name and its number read left to right between the Hebrew words around them
    x = {c: left for left, c in sorted(lines[1])}  # the rightmost of each character
    assert x["כ"] < x["A"] < x["G"] < x["2"] < x["ב"], lines[1]
    assert "ױ" not in body and "ביותר" in body  # no Yiddish ligature for vav and yod


def test_a_right_to_left_books_chart_reads_from_the_right(tmp_path, capsys):
    (tmp_path / "he").mkdir()
    (tmp_path / "en").mkdir()
    hebrew = left_edges(book(tmp_path / "he", capsys, "he", "![chart](chart:game)"), "Hand", "Chance")
    assert hebrew["Hand"] > hebrew["Chance"]  # the hand's name in the first column, at the right
    root = new_game(tmp_path / "en", NAME)
    capsys.readouterr()
    assert main(["--project", str(root), "rulebook", NAME, "--out", str(tmp_path / "en" / "books")]) == 0
    english = left_edges(tmp_path / "en" / "books" / f"{NAME}.pdf", "Hand", "Chance")
    assert english["Hand"] < english["Chance"]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_an_arabic_book_is_shaped_and_reads_right_to_left(tmp_path, capsys):
    from .test_languages import pdf_text

    path = book(tmp_path, capsys, "ar")
    # joined letters are drawn as their contextual forms, which poppler names by Arabic Presentation Forms-B
    assert any("\ufe70" <= c <= "\ufeff" for c in pdf_text(path))
    lines = page_lines(path, "طريقة اللعب")
    drawn = [right_to_left(line) for line in lines]
    assert drawn[0] == "طريقةاللعب"
    assert drawn[1].startswith("يحصلكل")


def test_a_japanese_book_breaks_lines_between_characters(tmp_path, capsys):
    lines = page_lines(book(tmp_path, capsys, "ja"), "遊び方")
    text = ["".join(c for _, c in sorted(line)) for line in lines]
    assert text[0] == "遊び方"
    body = text[1:-1]  # the last line is the running foot
    assert len(body) >= 2 and "".join(body) == JAPANESE, body
    assert all(not line.startswith(("。", "、")) for line in body[1:])


def test_a_book_character_no_font_has_names_the_fonts(tmp_path, capsys):
    root = new_game(tmp_path, NAME)
    deck = root / "decks" / NAME
    edit(deck / f"{NAME}.rulebook.toml", '# editions = ["de"]', 'editions = ["hi"]')
    source = deck / f"{NAME}.hi.md"
    source.write_text("# खेल\n\nहर खिलाड़ी\n", encoding="utf-8")
    capsys.readouterr()
    code = main(["--project", str(root), "rulebook", NAME, "--lang", "hi", "--out", str(tmp_path / "books")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"error: {source}:1: the book in Hindi (hi)")
    assert "Noto Naskh Arabic" in err and "'ख' (U+0916)" in err


ARABIC_CARDS = [("فجر", "اسحب ورقة واحدة"), ("قمر", "بادل ورقة مع اللاعب على يسارك"), ("بذرة", "ضع ورقة من يدك تحت الكومة")]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_an_arabic_card_deck_is_shaped_and_reads_in_order(tmp_path, capsys):
    from .test_languages import SCRIPTS, pdf_text, run, script_deck

    root = script_deck(tmp_path, "ar", "NotoSansHebrew-Subset.ttf", "Noto Naskh Arabic", ARABIC_CARDS)
    (root / "fonts" / "NotoSansHebrew-Subset.ttf").unlink()
    shutil.copy(SCRIPTS.parents[2] / "generator" / "fonts" / "NotoNaskhArabic-Regular.ttf", root / "fonts")
    code, _, err = run(capsys, root, "build", NAME, "--paper", "a4", "--out", str(tmp_path / "out"))
    assert code == 0, err
    text = unicodedata.normalize("NFKC", pdf_text(tmp_path / "out" / NAME / f"{NAME}-sheets.pdf", 1, 1))
    text = " ".join("".join(c for c in text if c not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069").split())
    for name, rule in ARABIC_CARDS:
        assert name in text, (name, text)
        assert rule.split()[0] in text and rule.split()[-1] in text, (rule, text)
