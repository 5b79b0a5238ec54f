"""Books in Hebrew, Arabic, Japanese, Chinese and Korean: set in the project's own fonts or the shipped script fonts,
right to left where the language is, lines broken between characters in Japanese and Chinese and at spaces in
Korean; and an Arabic card deck."""

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
CHINESE = "每位玩家手中有三张牌。拥有最强牌型的玩家赢得这一轮，先赢得三轮的玩家赢得游戏。出牌时，所有玩家都必须能看到牌面。"
KOREAN = (
    "각 플레이어는 손에 카드 세 장을 듭니다. 가장 강한 패를 가진 플레이어가 그 판을 이기고, 세 판을 먼저 이긴 "
    "플레이어가 게임에서 승리합니다. 카드를 내려놓을 때는 모든 플레이어가 볼 수 있도록 앞면이 위로 오게 놓습니다."
)
BOOKS = {
    "he": ("# איך משחקים", HEBREW),
    "ar": ("# طريقة اللعب", ARABIC),
    "ja": ("# 遊び方", JAPANESE),
    "zh": ("# 玩法", CHINESE),
    "ko": ("# 게임 방법", KOREAN),
}


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
    # the chart's own words come from the shipped Hebrew catalogue: "Hand" and "Chance" as יד and סיכוי
    hebrew = left_edges(book(tmp_path / "he", capsys, "he", "![chart](chart:game)"), "סיכוי", "דוגמה")
    assert hebrew["דוגמה"] > hebrew["סיכוי"]  # the example before the chance, reading from the right
    root = new_game(tmp_path / "en", NAME)
    capsys.readouterr()
    assert main(["--project", str(root), "rulebook", NAME, "--out", str(tmp_path / "en" / "books")]) == 0
    english = left_edges(tmp_path / "en" / "books" / f"{NAME}.pdf", "Hand", "Chance")
    assert english["Hand"] < english["Chance"]


def test_a_right_to_left_books_list_bullets_and_numbers_stand_at_the_right(tmp_path, capsys):
    lists = "- ערבבו את הקלפים.\n\nאחר כך:\n\n1. השחקן הראשון משחק.\n"
    lines = page_lines(book(tmp_path, capsys, "he", lists), "איך משחקים")
    for mark in ("•", "1"):
        line = next(line for line in lines if any(c == mark for _, c in line))
        assert max(line)[1] == mark, line  # the rightmost character of its line, where the item's text starts
    number = next(line for line in lines if any(c == "1" for _, c in line))
    assert right_to_left(number).startswith("1.השחקן"), number  # "1." read from the right


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


def test_a_chinese_book_breaks_lines_between_characters(tmp_path, capsys):
    path = book(tmp_path, capsys, "zh")
    lines = page_lines(path, "玩法")
    text = ["".join(c for _, c in sorted(line)) for line in lines]
    assert text[0] == "玩法"
    body = text[1:-1]  # the last line is the running foot
    assert len(body) >= 2 and "".join(body) == CHINESE, body
    assert all(not line.startswith(("。", "，")) for line in body[1:])
    used = "".join(fonts(path))
    assert "NotoSansCJKsc" in used and "NotoSansCJKjp" not in used, used  # simplified Chinese shapes, not Japanese


def test_a_korean_book_breaks_lines_only_at_spaces(tmp_path, capsys):
    path = book(tmp_path, capsys, "ko")
    lines = page_lines(path, "게임 방법")
    text = ["".join(c for _, c in sorted(line)) for line in lines]
    assert text[0] == "게임방법"
    body = text[1:-1]  # the last line is the running foot
    assert len(body) >= 3 and "".join(body) == KOREAN.replace(" ", ""), body
    word_ends = set()
    for word in KOREAN.split():
        word_ends.add(len(word) + max(word_ends, default=0))
    line_ends = set()
    for line in body:
        line_ends.add(len(line) + max(line_ends, default=0))
    assert line_ends <= word_ends, body  # every line ends where a word does
    assert "NotoSansCJKkr" in "".join(fonts(path))


def fonts(path: Path) -> list[str]:
    """The names of the fonts a PDF's pages use."""
    import pikepdf

    with pikepdf.open(path) as pdf:
        return sorted(
            {str(font.get("/BaseFont", "")) for page in pdf.pages for font in (page.Resources.get("/Font") or {}).values()}
        )


def test_a_projects_own_font_sets_a_book_before_the_shipped_script_fonts(tmp_path, capsys):
    from .test_languages import SCRIPTS

    (tmp_path / "own").mkdir()
    root = new_game(tmp_path / "own", NAME)
    (root / "fonts").mkdir(exist_ok=True)
    shutil.copy(SCRIPTS / "NotoSansHebrew-Subset.ttf", root / "fonts")
    deck = root / "decks" / NAME
    edit(deck / f"{NAME}.rulebook.toml", '# editions = ["de"]', 'editions = ["he"]')
    (deck / f"{NAME}.he.md").write_text("# שחר\n\nשלוף קלף אחד. החלף קלף עם השחקן משמאלך.\n", encoding="utf-8")
    capsys.readouterr()
    code = main(["--project", str(root), "rulebook", NAME, "--lang", "he", "--out", str(tmp_path / "books")])
    assert code == 0, capsys.readouterr().err
    used = "".join(fonts(tmp_path / "books" / f"{NAME}-he.pdf"))
    # the project's font sets what it has; the book's own words (contents, running heads, from the shipped Hebrew
    # catalogue) hold letters this cut-down font lacks, and those fall back to the shipped serif
    assert "NotoSansHebrew" in used, used
    # without it, the same book is set in the shipped Hebrew serif
    (root / "fonts" / "NotoSansHebrew-Subset.ttf").unlink()
    assert main(["--project", str(root), "rulebook", NAME, "--lang", "he", "--out", str(tmp_path / "books")]) == 0
    used = "".join(fonts(tmp_path / "books" / f"{NAME}-he.pdf"))
    assert "NotoSansHebrew" not in used and "NotoSerifHebrew" in used, used


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
