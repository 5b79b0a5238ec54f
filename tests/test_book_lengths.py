"""Long paragraphs in any script: Chinese and Japanese break between characters in the long-word check, and a
paragraph split over many pages is broken into lines (and, right to left, shaped) once, not again on each page."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import SimpleDocTemplate, paragraph

from generator.errors import AetherpressError
from generator.rulebook.markup import SourceMap, check_limits
from generator.rulebook.paragraphs import Paragraph
from generator.rulebook.scripts import register_script_fonts

JAPANESE = "各プレイヤーは手札を三枚持ちます。最も強い役を持つプレイヤーがその回に勝ち、三回勝ったプレイヤーがゲームに勝ちます。"
CHINESE = "每位玩家手中有三张牌。拥有最强牌型的玩家赢得这一轮，先赢得三轮的玩家赢得游戏。"


def _check(text: str) -> None:
    check_limits(SourceMap("book.md", text, text))


@pytest.mark.parametrize("run", [JAPANESE * 10, CHINESE * 10, "ＡＢＣ" * 100], ids=["japanese", "chinese", "full-width"])
def test_a_long_run_of_chinese_or_japanese_is_no_long_word(run):
    assert len(run) > 121
    _check(f"# Rules\n\n{run}\n")


@pytest.mark.parametrize("word", ["a" * 121, "a" * 121 + JAPANESE, "ש" * 200], ids=["latin", "latin-then-japanese", "hebrew"])
def test_a_word_longer_than_a_line_is_still_refused(word):
    with pytest.raises(AetherpressError, match=r"book.md:3: a word of \d+ characters is longer than a line can hold"):
        _check(f"# Rules\n\n{word}\n")


def _shaped(words: int) -> tuple[int, int]:
    """(words shaped, pages) laying out one right-to-left paragraph of ``words`` Hebrew words on A5 pages."""
    register_script_fonts()
    calls = [0]
    shape = paragraph.shapeFragWord

    def counted(*args, **kwargs):
        calls[0] += 1
        return shape(*args, **kwargs)

    style = ParagraphStyle("rtl", fontName="EBGaramond-Regular", fontSize=10, leading=13, alignment=TA_RIGHT)
    style.rightToLeft = True
    text = " ".join(["שחקן", "מחזיק", "שלושה", "קלפים", "ביד"] * (words // 5))
    out = io.BytesIO()
    document = SimpleDocTemplate(out, pagesize=A5)
    paragraph.shapeFragWord = counted
    try:
        document.build([Paragraph(text, style)])
    finally:
        paragraph.shapeFragWord = shape
    return calls[0], document.page


def test_a_right_to_left_paragraph_over_many_pages_is_shaped_once():
    """Each word is shaped once however many pages the paragraph runs over (breaking again what was left at each
    page would shape the last words once a page, and cost as the square of the paragraph's length)."""
    shaped, pages = _shaped(6_000)
    assert pages >= 10
    assert shaped <= 6_000 * 1.05, (shaped, pages)
