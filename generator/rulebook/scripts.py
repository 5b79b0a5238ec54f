"""Hebrew, Arabic and Japanese in books: the fonts that set them, right-to-left lines, and lines that break
between characters.

The book's own fonts (EB Garamond, Cinzel, Source Sans 3) set Latin, Greek and
Cyrillic.  A run of characters a paragraph's font has no glyph for is set in
the first font that has them all, in the same weight where the family has it:
first the project's own fonts (its ``fonts/`` folder, which its cards use
too), in the order of their file names, so a publisher can add an OFL font for
any script; then the shipped script fonts (:data:`FALLBACKS`: Noto Serif
Hebrew, Noto Naskh Arabic, Noto Sans CJK cut down to Japanese, Korean and
simplified Chinese), the book's language's own first.  That is done run by
run, so a Latin name or a number in Hebrew text keeps the book's serif.

A paragraph holding right-to-left characters is shaped with HarfBuzz
(``uharfbuzz``, through reportlab: Arabic letters join, marks sit on their
letters, and a right-to-left word comes out in the order it is read from the
page) and, once broken into lines in reading order, each line's words are put
in the order of the Unicode Bidirectional Algorithm (``python-bidi``'s levels,
rule L2 applied to whole words): in a Hebrew book the first word of a line is
drawn at its right end, and a Latin name or a number inside it still reads
left to right.  A book whose language is written right to left sets its text
flush right; one in Chinese or Japanese breaks its lines between any two
characters (reportlab's CJK wrapping, which keeps closing punctuation off a
line's start); one in Korean, which puts spaces between its words, breaks them
at spaces only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import TYPE_CHECKING, Any

from reportlab.platypus import paragraph

from ..locations import FONTS_DIR
from .words import language

if TYPE_CHECKING:
    from ..resources.fonts import FontBook

# (family, regular, bold) of each shipped script font, in the order tried for a run no book font has
FALLBACKS: tuple[tuple[str, str, str], ...] = (
    ("Noto Serif Hebrew", "NotoSerifHebrew-Regular", "NotoSerifHebrew-Bold"),
    ("Noto Naskh Arabic", "NotoNaskhArabic-Regular", "NotoNaskhArabic-Bold"),
    ("Noto Sans CJK JP", "NotoSansJP-Subset", "NotoSansJP-Subset"),
    ("Noto Sans CJK SC", "NotoSansSC-Subset", "NotoSansSC-Subset"),
    ("Noto Sans CJK KR", "NotoSansKR-Subset", "NotoSansKR-Subset"),
)
RTL_FONTS = frozenset(s for _, *pair in FALLBACKS[:2] for s in pair)  # the fonts whose glyphs read right to left
# the script font a book in each language tries first (a hanzi in a Chinese book in Chinese shapes, not Japanese)
OWN_SCRIPT_FONT = {"ja": "Noto Sans CJK JP", "zh": "Noto Sans CJK SC", "ko": "Noto Sans CJK KR"}
CJK_LANGUAGES = tuple(OWN_SCRIPT_FONT)
BETWEEN_CHARACTERS = ("ja", "zh")  # the languages whose lines break between any two characters, not at spaces
# (family, regular, bold) of the project's own fonts for the book being made: tried before the shipped ones
_PROJECT_FONTS: ContextVar[tuple[tuple[str, str, str], ...]] = ContextVar("project_fonts", default=())
_BIDI_STRONG_RTL = ("R", "AL")
_NEUTRAL = ("WS", "ON", "CS", "ES", "ET", "BN", "S", "B", "NSM")


@cache
def register_script_fonts() -> None:
    from reportlab.pdfbase import pdfmetrics

    from ..resources.fonts import register_fonts
    from ..resources.subsettags import TaggedTTFont

    register_fonts()
    paragraph.shapeFragWord = _shape_fragword  # reportlab's paragraphs shape a word one font at a time
    for stem in dict.fromkeys(s for _, *pair in FALLBACKS for s in pair):
        pdfmetrics.registerFont(TaggedTTFont(stem, str(FONTS_DIR / f"{stem}.ttf")))


@contextmanager
def project_fonts(book: FontBook) -> Iterator[None]:
    """Inside the block, a run no book font has is tried in the project's own fonts of ``book`` (registered
    here) before the shipped script fonts."""
    from ..resources.fonts import FAMILIES

    book.activate()
    own = tuple((family, book.name(family), book.name(family, "bold")) for family in book.families if family not in FAMILIES)
    token = _PROJECT_FONTS.set(own)
    try:
        yield
    finally:
        _PROJECT_FONTS.reset(token)


def fallbacks(language: str) -> tuple[tuple[str, str, str], ...]:
    """The (family, regular, bold) fonts a run no book font has is tried in, in order, in a book in ``language``:
    the project's own, then the language's own script font, then the other shipped ones."""
    return _PROJECT_FONTS.get() + _shipped(_base(language))


@cache
def _shipped(base: str) -> tuple[tuple[str, str, str], ...]:
    own = OWN_SCRIPT_FONT.get(base)
    return tuple(sorted(FALLBACKS, key=lambda entry: entry[0] != own))


def _base(language: str) -> str:
    return language.replace("-", "_").split("_")[0]


@cache
def _glyphs(font: str) -> frozenset[int] | dict:
    from reportlab.pdfbase.pdfmetrics import getFont

    face = getattr(getFont(font), "face", None)
    return getattr(face, "charToGlyph", None) or {}


def _silent(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf")


def _bold(font: str) -> bool:
    return "Bold" in font


def fallback_font(font: str, run: str) -> str | None:
    """The script font, in the weight of ``font`` where it has one, that has every character of ``run``."""
    register_script_fonts()
    for _, regular, bold in fallbacks(language()):
        stem = bold if _bold(font) else regular
        glyphs = _glyphs(stem)
        if all(ord(c) in glyphs or _silent(c) for c in run):
            return stem
    return None


def runs(text: str, font: str) -> list[tuple[str, str]]:
    """``text`` as (font, run) pieces: each character in ``font`` where it has a glyph, else in the first script
    font that has it; spaces and invisible characters stay with the run they are in.  Each character's font is
    looked for once, and each run cut from the text once: linear in its length."""
    register_script_fonts()
    own = _glyphs(font)
    if all(ord(c) in own or _silent(c) for c in text):
        return [(font, text)]
    choice: dict[str, str | None] = {}  # None: a space or an invisible character, in the font of the run it is in
    out: list[tuple[str, str]] = []
    start, current = 0, ""
    for index, char in enumerate(text):
        if char not in choice:
            choice[char] = None if _silent(char) else font if ord(char) in own else fallback_font(font, char) or font
        chosen = choice[char] or current or font
        if chosen != current:
            if index > start:
                out.append((current, text[start:index]))
            start, current = index, chosen
    out.append((current, text[start:]))
    return out


def split_frags(frags: Sequence[Any]) -> tuple[list[Any], bool]:
    """A paragraph's fragments with each run its font lacks moved to a script font; and whether any text is
    written right to left (the paragraph is then shaped and its lines ordered by :func:`visual_order`)."""
    out: list[Any] = []
    rtl = False
    for frag in frags:
        text = getattr(frag, "text", None)
        if not isinstance(text, str) or not text or hasattr(frag, "cbDefn"):
            out.append(frag)
            continue
        rtl = rtl or has_rtl(text)
        pieces = runs(text, frag.fontName)
        if len(pieces) == 1 and pieces[0][0] == frag.fontName:
            out.append(frag)
            continue
        for font, run in pieces:
            piece = frag.clone()
            piece.text, piece.fontName = run, font
            out.append(piece)
    return out, rtl


def has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in _BIDI_STRONG_RTL for c in text)


@cache
def right_to_left(language: str) -> bool:
    """Whether ``language`` (a code such as ``he``) is written right to left, by Babel's data."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(language.replace("-", "_")).character_order == "right-to-left"
    except (UnknownLocaleError, ValueError):
        return False


def breaks_between_characters(language: str) -> bool:
    return _base(language) in BETWEEN_CHARACTERS


def set_in_script_fonts(language: str) -> bool:
    """Whether a book in ``language`` is mostly set in the script fonts (right to left, Chinese, Japanese, Korean)."""
    return right_to_left(language) or _base(language) in CJK_LANGUAGES


def _levels(text: str, base: int) -> list[int]:
    """The resolved embedding level of each character of ``text`` in a paragraph of level ``base`` (0 left to
    right, 1 right to left), by the Unicode Bidirectional Algorithm up to rule L1."""
    from bidi import algorithm

    storage = algorithm.get_empty_storage()
    storage["base_level"] = base
    storage["base_dir"] = "LR"[base]
    algorithm.get_embedding_levels(text, storage)
    algorithm.explicit_embed_and_overrides(storage)
    algorithm.resolve_weak_types(storage)
    algorithm.resolve_neutral_types(storage, False)
    algorithm.resolve_implicit_levels(storage, False)
    return [c["level"] for c in storage["chars"]]


def word_levels(words: Sequence[str], base: int) -> list[int]:
    """The level of each word of a line (``words`` in reading order) in a paragraph of level ``base``: the level of
    its first character that is not neutral (a number in Hebrew text is 2, a Hebrew word 1, a Latin word 0 or 2)."""
    levels = _levels(" ".join(words), base)
    out = []
    start = 0
    for word in words:
        own = levels[start : start + len(word)]
        strong = [lv for c, lv in zip(word, own) if unicodedata.bidirectional(c) not in _NEUTRAL]
        out.append((strong or own or [base])[0])
        start += len(word) + 1
    return out


def word_order(levels: Sequence[int]) -> list[int]:
    """The order (indices, left to right on the page) in which words of these levels are drawn: from the highest
    level down to the lowest odd one, each run of words at that level or higher is reversed (rule L2)."""
    order = list(range(len(levels)))
    if not levels:
        return order
    for level in range(max(levels), (min(levels) | 1) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= level:
                j += 1
            order[i:j] = reversed(order[i:j])
            i = j
    return order


def _proxy(word: str, font: str) -> str:
    """A shaped word as the bidirectional algorithm reads it: a glyph that HarfBuzz chose and that has no character
    of its own (an Arabic letter's joining form, a ligature) stands for a letter of its font's direction."""
    stand_in = "\u05d0" if font in RTL_FONTS else "a"
    return "".join(stand_in if unicodedata.category(c) in ("Co", "Cn", "Cs") else c for c in word)


def _line_words(line: Any) -> list[list[tuple[Any, Any]]]:
    """A broken line's words, each the pieces (fragment, text) it is made of; the text of a picture is None."""
    words: list[list[tuple[Any, Any]]] = [[]]
    for frag in line.words:
        text = getattr(frag, "text", None)
        if not isinstance(text, str) or hasattr(frag, "cbDefn"):
            words[-1].append((frag, None))
            continue
        start = 0
        for index, char in enumerate(text):
            if char == " ":
                if index > start:
                    words[-1].append((frag, text[start:index]))  # slices keep HarfBuzz's positions
                if words[-1]:
                    words.append([])
                start = index + 1
        if start < len(text):
            words[-1].append((frag, text[start:]))
    return [w for w in words if w]


def visual_order(line: Any, base: int) -> None:
    """Put the words of a broken line (reportlab's ``FragLine``, in reading order) in the order they are drawn."""
    words = _line_words(line)
    texts = ["".join(_proxy(t, getattr(f, "fontName", "")) for f, t in w if t is not None) or "\ufffc" for w in words]
    if base == 0 and not any(has_rtl(t) for t in texts):
        return
    levels = word_levels(texts, base)
    drawn = []
    order = word_order(levels)
    for position, index in enumerate(order):
        pieces = words[index][::-1] if levels[index] % 2 else words[index]
        for number, (frag, text) in enumerate(pieces):
            if text is None:
                drawn.append(frag)
                continue
            piece = frag.clone()
            piece.text = text + (" " if number == len(pieces) - 1 and position < len(order) - 1 else "")
            drawn.append(piece)
    line.words = drawn


def _shape_fragword(word: Any, *args: Any, **kwargs: Any) -> Any:
    """reportlab's shaping of a word, one font at a time: reportlab shapes a word with the font of its first piece,
    so a Hebrew word followed by a full stop in the book's serif would get the Hebrew font's empty glyph for it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfbase.ttfonts import makeShapedFragWord

    pieces = word[1:]
    kwargs["features"] = FEATURES
    if len({f.fontName for f, _ in pieces if not hasattr(f, "cbDefn")}) <= 1:
        return _REPORTLAB_SHAPE(word, *args, **kwargs)
    total = 0.0
    parts: list[Any] = []
    for frag, text in pieces:
        if hasattr(frag, "cbDefn"):
            parts.append((frag, text))
            total += getattr(frag, "width", 0)
            continue
        shaped = _REPORTLAB_SHAPE([stringWidth(text, frag.fontName, frag.fontSize), (frag, text)], *args, **kwargs)
        total += shaped[0]
        parts.extend(shaped[1:])
    return makeShapedFragWord(word)([total, *parts])


_REPORTLAB_SHAPE = paragraph.shapeFragWord  # reportlab's own shaping of a word, which _shape_fragword calls
FEATURES = {
    "kern": True,
    "liga": True,
}  # reportlab's own choice adds "dlig", which joins Hebrew vav and yod as a Yiddish ligature


def set_for_language(styles: Sequence[Any], language: str) -> None:
    """Make a book's paragraph styles fit its language: flush right and ordered right to left for Hebrew or
    Arabic, lines broken between characters for Chinese or Japanese."""
    from reportlab.lib.enums import TA_JUSTIFY, TA_LEFT, TA_RIGHT

    rtl, cjk = right_to_left(language), breaks_between_characters(language)
    for style in styles:
        if rtl:
            style.rightToLeft = True
            style.leftIndent, style.rightIndent = style.rightIndent, style.leftIndent
            if style.alignment in (TA_LEFT, TA_JUSTIFY):
                style.alignment = TA_RIGHT
        if cjk:
            style.wordWrap = "CJK"


def list_from_the_right(options: dict[str, Any]) -> dict[str, Any]:
    """A list's options (reportlab's ``ListFlowable`` keywords) as a right-to-left book sets it: its bullets or
    numbers at the right, where its lines start, a number's full stop at its left ("1." read right to left)."""
    out = dict(options, leftIndent=0, rightIndent=options.get("leftIndent", 0), bulletDir="rtl", bulletAlign="right")
    if out.get("bulletFormat") == "%s.":
        out["bulletFormat"] = ".%s"
    return out


_MIRRORED = {"LINEBEFORE": "LINEAFTER", "LINEAFTER": "LINEBEFORE", "LEFTPADDING": "RIGHTPADDING", "RIGHTPADDING": "LEFTPADDING"}
_SIDES = {"LEFT": "RIGHT", "RIGHT": "LEFT"}


def mirrored(rows: list[list[Any]], widths: list[float], commands: list[tuple]) -> tuple[list[list[Any]], list[float], list]:
    """A table as a right-to-left book sets it: its first column at the right, its style's columns, lines and
    alignments mirrored to match."""
    count = len(widths)

    def column(c: int) -> int:
        return count - 1 - (c + count if c < 0 else c)

    out = []
    for command in commands:
        name, (c0, r0), (c1, r1), *rest = command
        if name == "ALIGN" and rest and rest[0] in _SIDES:
            rest = [_SIDES[rest[0]], *rest[1:]]
        out.append((_MIRRORED.get(name, name), (column(c1), r0), (column(c0), r1), *rest))
    return [row[::-1] for row in rows], widths[::-1], out
