"""Regenerate the fonts shipped here for Hebrew, Arabic, Japanese, Korean and simplified Chinese books.

All are Noto fonts (SIL Open Font License 1.1, see Noto-OFL.txt), as
Debian's ``fonts-noto-core`` and ``fonts-noto-cjk`` packages install them:

- Noto Serif Hebrew, regular and bold, whole (31 KB each);
- Noto Naskh Arabic, regular and bold, whole (176 and 181 KB);
- Noto Sans CJK JP regular, cut down to Japanese: kana, the 2,965 kanji of
  JIS X 0208 level 1, CJK punctuation, full-width forms and Basic Latin, with
  its shaping features; its PostScript (CFF) outlines are given TrueType
  outlines, which the PDF library needs;
- Noto Sans CJK KR regular, cut down to Korean: the 2,350 Hangul syllables of
  KS X 1001, the compatibility jamo, CJK punctuation, full-width forms and
  Basic Latin, with TrueType outlines as above;
- Noto Sans CJK SC regular, cut down to simplified Chinese: the 3,755 hanzi of
  GB 2312 level 1, CJK punctuation, full-width forms and Basic Latin, with
  TrueType outlines as above.

A book in Japanese, Korean or Chinese sets its bold in the regular weight.

    python -m generator.fonts.make_scripts /usr/share/fonts/truetype/noto /usr/share/fonts/opentype/noto
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

HERE = Path(__file__).parent
WHOLE = ["NotoSerifHebrew-Regular", "NotoSerifHebrew-Bold", "NotoNaskhArabic-Regular", "NotoNaskhArabic-Bold"]
JAPANESE_STEM = "NotoSansJP-Subset"
KOREAN_STEM = "NotoSansKR-Subset"
CHINESE_STEM = "NotoSansSC-Subset"
_QUOTES = (0x2018, 0x2019, 0x201C, 0x201D, 0x2026, 0x00B7, 0x00D7)  # curly quotes, ellipsis, middle dot, times


def _double_byte(codec: str, rows: range) -> list[str]:
    """The characters of ``rows`` of a two-byte East Asian character set (cells A1 to FE), read by ``codec``."""
    chars = []
    for row in rows:
        for cell in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                chars.append(bytes([row, cell]).decode(codec))
    return chars


def japanese_characters() -> str:
    """Kana, JIS X 0208 level-1 kanji (rows 16 to 47), CJK punctuation, full-width forms and Basic Latin."""
    chars = [chr(c) for c in range(0x20, 0x7F)]
    chars += [chr(c) for c in range(0x3000, 0x3100)]  # CJK symbols and punctuation, hiragana, katakana
    chars += [chr(c) for c in range(0xFF01, 0xFF9F)]  # full-width forms and half-width katakana
    chars += [chr(c) for c in (0x2018, 0x2019, 0x201C, 0x201D, 0x2026, 0x2015, 0x30FB, 0x00D7)]
    chars += _double_byte("euc_jp", range(0xB0, 0xD0))
    return "".join(dict.fromkeys(chars))


def korean_characters() -> str:
    """The 2,350 Hangul syllables of KS X 1001 (rows 16 to 40), compatibility jamo, CJK punctuation, full-width
    forms and Basic Latin."""
    chars = [chr(c) for c in range(0x20, 0x7F)]
    chars += [chr(c) for c in range(0x3000, 0x3040)]  # CJK symbols and punctuation
    chars += [chr(c) for c in range(0x3131, 0x318F)]  # Hangul compatibility jamo
    chars += [chr(c) for c in range(0xFF01, 0xFF5F)]  # full-width forms
    chars += [chr(c) for c in _QUOTES]
    chars += _double_byte("euc_kr", range(0xB0, 0xC9))
    return "".join(dict.fromkeys(chars))


def chinese_characters() -> str:
    """The 3,755 hanzi of GB 2312 level 1 (rows 16 to 55), CJK punctuation, full-width forms and Basic Latin."""
    chars = [chr(c) for c in range(0x20, 0x7F)]
    chars += [chr(c) for c in range(0x3000, 0x3040)]  # CJK symbols and punctuation
    chars += [chr(c) for c in range(0xFF01, 0xFF5F)]  # full-width forms
    chars += [chr(c) for c in (*_QUOTES, 0x2014)]  # and the em dash of the Chinese dash
    chars += _double_byte("gb2312", range(0xB0, 0xD8))
    return "".join(dict.fromkeys(chars))


HORIZONTAL = ["ccmp", "locl", "kern", "liga", "calt", "palt", "halt"]  # the features of horizontal setting


def cut(font: TTFont, text: str, features: list[str] | None = None) -> TTFont:
    """``font`` cut down to the characters of ``text``, keeping ``features`` (default: horizontal setting's)."""
    options = subset.Options()
    options.layout_features = features or HORIZONTAL
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    return font


def true_type(font: TTFont) -> TTFont:
    """``font`` with quadratic TrueType outlines in place of its CFF table."""
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    font["maxp"] = newTable("maxp")
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for key in [
        "maxZones",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
        "maxPoints",
        "maxContours",
        "maxCompositePoints",
        "maxCompositeContours",
        "maxComponentDepth",
        "numGlyphs",
    ]:
        setattr(maxp, key, 0)
    maxp.maxZones = 1
    font["head"].indexToLocFormat = 0
    font["head"].glyphDataFormat = 0
    font["post"].formatType = 2.0
    font["post"].extraNames = []
    font["post"].mapping = {}
    font.sfntVersion = "\x00\x01\x00\x00"
    return font


def main(truetype_folder: str, opentype_folder: str) -> None:
    for stem in WHOLE:
        shutil.copyfile(Path(truetype_folder) / f"{stem}.ttf", HERE / f"{stem}.ttf")
    collection = Path(opentype_folder) / "NotoSansCJK-Regular.ttc"
    for number, stem, characters in _CUTS:
        font = TTFont(collection, fontNumber=number, recalcTimestamp=False)  # the source's date: made alike each time
        true_type(cut(font, characters())).save(HERE / f"{stem}.ttf")


# the number of each language's font in Noto Sans CJK's collection, the font it becomes and the characters it keeps
_CUTS = ((0, JAPANESE_STEM, japanese_characters), (1, KOREAN_STEM, korean_characters), (2, CHINESE_STEM, chinese_characters))


if __name__ == "__main__":
    main(*sys.argv[1:3])
