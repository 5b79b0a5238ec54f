"""Fonts: the families shipped with the package, and a project's own from its ``fonts/`` folder.

Templates ask for a family (``font-family="'EB Garamond'"``) with a weight and a
style; every combination maps to one TrueType file, registered by name with
reportlab (which sets the books' type and measures the cards' text) and given
by file to the card renderer (see :mod:`generator.render.vector`), so output
never depends on the fonts of the machine.  A :class:`FontBook` is the
shipped families plus one project's fonts (see :mod:`.fontfiles`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar
from xml.sax.saxutils import quoteattr

from ..errors import AetherpressError, Problem, display_path
from ..locations import FONTS_DIR
from ..project import Project
from .fontfiles import FontFile, Listing, font_listing, read_fonts

T = TypeVar("T")

# family -> {(weight, style): file stem}; the stem is also the reportlab font name
FAMILIES: dict[str, dict[tuple[str, str], str]] = {
    "Cinzel": {("normal", "normal"): "Cinzel-Regular", ("bold", "normal"): "Cinzel-Bold"},
    "EB Garamond": {
        ("normal", "normal"): "EBGaramond-Regular",
        ("bold", "normal"): "EBGaramond-Bold",
        ("normal", "italic"): "EBGaramond-Italic",
        ("bold", "italic"): "EBGaramond-BoldItalic",
    },
    "Source Sans 3": {
        ("normal", "normal"): "SourceSans3-Regular",
        ("bold", "normal"): "SourceSans3-Bold",
        ("normal", "italic"): "SourceSans3-Italic",
    },
}
DEFAULT_FONT = "EBGaramond-Regular"
FACES = (("normal", "normal"), ("bold", "normal"), ("normal", "italic"), ("bold", "italic"))


def _pick(faces: dict[tuple[str, str], str], weight: str, style: str) -> str:
    """The face of a family for a weight and style, falling back within the family."""
    return (
        faces.get((weight, style))
        or faces.get((weight, "normal"))
        or faces.get(("normal", style))
        or faces.get(("normal", "normal"))
        or next(iter(faces.values()))
    )


_CSS_WORD = re.compile(r"-?[_a-zA-Z\u0080-\U0010ffff][-_a-zA-Z0-9\u0080-\U0010ffff]*")


def css_family(family: str) -> str:
    """A family name as a CSS ``font-family`` value: always a CSS string, ``'Source Sans 3'``.

    Unquoted, a name is a row of CSS words, and a browser and the print renderer both drop the whole value when
    a word is none ("Source Sans 3": a word may not start with a digit) or read a keyword ("serif") as the generic
    family.  In single quotes unless the name holds one and no double quote; a backslash and the quote it is in
    are escaped.  :func:`first_family` reads it back."""
    quote = '"' if "'" in family and '"' not in family else "'"
    return quote + family.replace("\\", "\\\\").replace(quote, "\\" + quote) + quote


def family_attribute(family: str) -> str:
    """``font-family="'Source Sans 3'"``: the one way the text helpers name a family in SVG."""
    return "font-family=" + quoteattr(css_family(family))


_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(.))", re.S)


def _unescape(text: str) -> str:
    def one(match: re.Match) -> str:
        if match.group(1) is None:
            return match.group(2)
        code = int(match.group(1), 16)
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"

    return _ESCAPE.sub(one, text)


_FIRST_FAMILY = re.compile(r"""\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|((?:[^,"'\\]|\\.)*))""", re.S)


def first_family(value: str | None) -> str | None:
    """The first family a CSS ``font-family`` value names, unquoted and unescaped, or None:
    ``'Source Sans 3', serif`` and ``Source Sans 3`` give ``Source Sans 3``."""
    match = _FIRST_FAMILY.match(value or "")
    if match is None:
        return None
    quoted = match.group(1) if match.group(1) is not None else match.group(2)
    name = _unescape(quoted) if quoted is not None else " ".join(_unescape(match.group(3) or "").split())
    return name or None


GENERIC_FAMILIES = frozenset(
    {
        "serif",
        "sans-serif",
        "monospace",
        "cursive",
        "fantasy",
        "system-ui",
        "math",
        "emoji",
        "fangsong",
        "ui-serif",
        "ui-sans-serif",
        "ui-monospace",
        "ui-rounded",
    }
)  # CSS's generic families: a browser maps each to a font of the machine, the print renderer to none


def all_families(value: str | None) -> list[str]:
    """Every family a CSS ``font-family`` value names, in order, unquoted and unescaped."""
    found, rest = [], value or ""
    while rest.strip():
        match = _FIRST_FAMILY.match(rest)
        if match is None or not match.group(0):
            break
        name = first_family(match.group(0))
        if name:
            found.append(name)
        rest = rest[match.end() :]
        if not rest.lstrip().startswith(","):
            break
        rest = rest.lstrip()[1:]
    return found


_QUOTED = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""", re.S)


def unquoted_family_problem(value: str) -> str | None:
    """The family in a ``font-family`` value that CSS cannot read unquoted (a word that is no CSS word), or None."""
    for entry in _QUOTED.sub("''", value).split(","):
        words = entry.split()
        if words and "\\" not in entry and not all(_CSS_WORD.fullmatch(word) or word == "''" for word in words):
            return " ".join(words)
    return None


def font_name(family: str, weight: str = "normal", style: str = "normal") -> str:
    """The reportlab name of a shipped font, falling back within the family."""
    return _pick(FAMILIES[family], weight, style)


@cache
def register_fonts() -> None:
    """Register every shipped font with reportlab (books, boxes and text measures set type with them)."""
    # reportlab loads when fonts are first used, not with the font catalogue
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics

    from .subsettags import TaggedTTFont

    for faces in FAMILIES.values():
        for stem in faces.values():
            pdfmetrics.registerFont(TaggedTTFont(stem, str(FONTS_DIR / f"{stem}.ttf")))
    for family in FAMILIES:
        regular = font_name(family)
        addMapping(family, 0, 0, regular)
        addMapping(family, 1, 0, font_name(family, "bold"))
        addMapping(family, 0, 1, font_name(family, "normal", "italic"))
        addMapping(family, 1, 1, font_name(family, "bold", "italic"))
    # reportlab's graphics start every drawing in Helvetica, which would then be
    # named (unembedded) in the PDF; start them in a shipped font instead.
    # reportlab loads when fonts are first used, not with the font catalogue
    from reportlab.graphics import shapes

    shapes.STATE_DEFAULTS["fontName"] = DEFAULT_FONT


@cache
def _register_file(name: str, path: str) -> None:
    # reportlab loads when fonts are first used, not with the font catalogue
    from reportlab.pdfbase import pdfmetrics

    from .subsettags import TaggedTTFont

    pdfmetrics.registerFont(TaggedTTFont(name, path))


class FontBook:
    """The families a project's templates may use: the shipped ones and the project's own."""

    def __init__(self, extra: Iterable[FontFile] = ()):
        self.files = tuple(extra)
        self._derived: dict[Hashable, Any] = {}  # made from these files (the renderer's font database), once per book
        self.families: dict[str, dict[tuple[str, str], str]] = {f: dict(faces) for f, faces in FAMILIES.items()}
        for font in self.files:
            self.families.setdefault(font.family, {})[(font.weight, font.style)] = font.name

    def __contains__(self, family: object) -> bool:
        return family in self.families

    def __iter__(self):
        return iter(self.families)

    def name(self, family: str, weight: str = "normal", style: str = "normal") -> str:
        """The registered name of the face, falling back within the family; KeyError for an unknown family."""
        return _pick(self.families[family], weight, style)

    def face_named(self, postscript: str) -> tuple[str, str, str] | None:
        """(family, weight, style) of the face whose PostScript name is ``postscript`` (as Illustrator names a font:
        ``SourceSans3-Bold``), letter case aside; None when no face has it."""
        wanted = postscript.strip().lower()
        for family, faces in self.families.items():
            for (weight, style), name in faces.items():
                own = next((f for f in self.files if f.name == name), None)
                if (own.postscript if own is not None else name).lower() == wanted:
                    return family, weight, style
        return None

    def derived(self, key: Hashable, make: Callable[[], T]) -> T:
        """What ``make`` makes of the book's files, made once per book (a command's book, see :func:`font_book`)."""
        if key not in self._derived:
            self._derived[key] = make()
        found: T = self._derived[key]
        return found

    def activate(self) -> None:
        """Register the project's fonts with reportlab, which measures text with them."""
        register_fonts()
        for font in self.files:
            _register_file(font.name, font.path)


def font_book(project: Project) -> FontBook:
    """The shipped families and the fonts in the project's ``fonts/`` folder (checked; problems raised at once)."""
    own = project.own
    if own.kind != "project":
        return project.readings.get("font book", (), FontBook)
    listing = font_listing(own.fonts)
    return project.readings.get("font book", (listing, str(own.root)), lambda: _project_book(listing, own.root))


def _project_book(listing: Listing, root: Path) -> FontBook:
    """The shipped families and the fonts of ``listing`` (a project's ``fonts/``), checked."""
    files = read_fonts(listing, root)
    clashes = [
        Problem(
            display_path(Path(f.path)),
            f"is a font of the family '{f.family}', which ships with Aetherpress; a project font may not replace it",
        )
        for f in files
        if f.family in FAMILIES
    ]
    if clashes:
        raise AetherpressError(clashes)
    return FontBook(files)


def text_width(text: str, family: str, size: float, weight: str = "normal", style: str = "normal") -> float:
    """Advance width of ``text`` in the units of ``size`` (shipped fonts)."""
    # reportlab loads when fonts are first used, not with the font catalogue
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    return stringWidth(text, font_name(family, weight, style), size)


def missing_characters(font: str, text: str) -> str:
    """The characters of ``text`` (each once, in order) that the registered font ``font`` has no glyph for;
    spaces, line breaks and invisible format characters aside."""
    # reportlab loads when fonts are first used, not with the font catalogue
    from reportlab.pdfbase.pdfmetrics import getFont

    face = getattr(getFont(font), "face", None)
    glyphs = getattr(face, "charToGlyph", None)
    if glyphs is None:
        return ""
    seen = dict.fromkeys(
        c for c in text if not c.isspace() and unicodedata.category(c) not in ("Cc", "Cf") and ord(c) not in glyphs
    )
    return "".join(seen)
