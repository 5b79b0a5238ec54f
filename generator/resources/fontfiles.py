"""A designer's own fonts: TrueType files in a project's ``fonts/`` folder, checked and named.

Each file is read with fontTools: its family (the name table's family, as
word processors group Regular, Bold, Italic and Bold Italic), whether it is
bold or italic (the OS/2 style bits), and whether the PDF library can embed
it at all.  reportlab embeds TrueType outlines only: an OpenType font with
PostScript (CFF) outlines, a variable font (only its default instance would
draw), a collection, a web font, or a font whose licence forbids embedding
is refused with one line naming the file and what to use instead.

A font is registered under a name made from its file's content, so a font
that changes is a new font to every cache, and a render stays a pure
function of the files it reads.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AetherpressError, Problem, display_path
from ..locations import real

_FONT_SUFFIXES = (".ttf", ".otf")
_REFUSED_SUFFIXES = {
    ".woff": "a web font (.woff) cannot be embedded in a PDF; use the font's .ttf file",
    ".woff2": "a web font (.woff2) cannot be embedded in a PDF; use the font's .ttf file",
    ".ttc": "a font collection (.ttc) cannot be embedded; use the single .ttf files",
    ".otc": "a font collection (.otc) cannot be embedded; use the single .ttf files",
    ".pfb": "a Type 1 font (.pfb) is not used; use the font's .ttf file",
}
_MAX_FONT_BYTES = 20_000_000
_MAX_FONT_FILES = 64
_REQUIRED_TABLES = ("head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap", "name", "post")  # what the PDF library reads
# The PostScript name the PDF names the font by (OpenType's rule): 1 to 63 printable ASCII characters, none of [](){}<>/%
_POSTSCRIPT_NAME = re.compile(r"[!-~]{1,63}")
_POSTSCRIPT_REFUSED = set("[](){}<>/%")
_BOLD_FROM = 600  # OS/2 weight class: semibold and heavier count as bold when the style bits say nothing


@dataclass(frozen=True)
class FontFile:
    """One checked font file: how templates name it (family, weight, style) and its registered name."""

    path: str
    family: str
    weight: str  # normal or bold
    style: str  # normal or italic
    name: str  # the name it is registered under with reportlab: the file's PostScript name and a content digest
    postscript: str = ""  # its PostScript name


def _best_name(names, ident: int) -> str | None:
    """A name-table entry, preferring Windows English Unicode, then any readable one."""
    found = names.getName(ident, 3, 1, 0x409) or names.getName(ident, 1, 0, 0)
    if found is None:
        found = next((record for record in names.names if record.nameID == ident), None)
    if found is None:
        return None
    try:
        text = found.toUnicode()
    except (UnicodeDecodeError, ValueError):
        return None
    text = " ".join(text.split())
    return text if text and len(text) <= 64 and text.isprintable() else None


def _postscript_name(names) -> str:
    """The PostScript name the PDF library embeds the font under, as it reads it: name ID 6 (else the full
    name, else the family, spaces made '-') from a Windows English or Macintosh Roman record.  Every such
    record is checked, whichever the library meets first; raises ValueError saying what is wrong."""
    for ident in (6, 4, 1):
        found = []
        for record in names.names:
            if record.nameID != ident:
                continue
            where = (record.platformID, record.platEncID, record.langID)
            if where == (3, 1, 0x409):
                if len(record.string) % 2:
                    raise ValueError(f"its PostScript name (name ID {ident}) is damaged")
                encoding = "utf_16_be"
            elif where == (1, 0, 0):
                encoding = "mac_roman"
            else:
                continue
            try:
                text = record.string.decode(encoding)
            except UnicodeDecodeError:
                text = record.string.decode("latin1")
            if text:
                found.append(text.replace(" ", "-"))
        for text in found:
            if not _POSTSCRIPT_NAME.fullmatch(text) or _POSTSCRIPT_REFUSED & set(text):
                raise ValueError(
                    f"its PostScript name (name ID {ident}) {text[:40]!r} is not 1 to 63 printable ASCII characters "
                    "without [](){}<>/%; rename it in a font editor"
                )
        if found:
            return found[0]
    raise ValueError("it has no PostScript name (name ID 6)")


def _kind_problem(magic: bytes) -> str | None:
    """Why a file whose first four bytes are ``magic`` is not a TrueType font Aetherpress can embed (None: it may be)."""
    if magic == b"OTTO":
        return "is an OpenType font with PostScript (CFF) outlines, which the PDF library cannot embed; use the font's TrueType (.ttf) version"
    if magic in (b"wOFF", b"wOF2"):
        return _REFUSED_SUFFIXES[".woff"]
    if magic == b"ttcf":
        return _REFUSED_SUFFIXES[".ttc"]
    if magic not in (b"\x00\x01\x00\x00", b"true"):
        return "is not a TrueType font file"
    return None


def _tables_problem(tables: set[str]) -> str | None:
    """Why a TrueType font with ``tables`` cannot be drawn as it is (None: it can)."""
    if "fvar" in tables:
        return (
            "is a variable font; only its default instance would be drawn: use the static .ttf files "
            "(font downloads keep them in a folder named static/)"
        )
    if "CFF " in tables or "CFF2" in tables:
        return "has PostScript (CFF) outlines, which the PDF library cannot embed; use a TrueType (.ttf) version"
    if "glyf" not in tables or "cmap" not in tables or "name" not in tables or "head" not in tables:
        return "is not a complete TrueType font (it lacks glyph outlines, a character map or names)"
    missing = [tag for tag in _REQUIRED_TABLES if tag not in tables]
    if missing:
        return f"is not a complete TrueType font (it lacks the {', '.join(missing)} table{'s' if len(missing) > 1 else ''})"
    return None


def _bold_italic(font: Any, tables: set[str], names: Any) -> tuple[bool, bool]:
    """Whether the font is bold and whether it is italic, by its style bits, weight class and subfamily name."""
    os2 = font["OS/2"] if "OS/2" in tables else None
    selection = os2.fsSelection if os2 is not None else 0
    mac_style = font["head"].macStyle if "head" in tables else 0
    subfamily = (_best_name(names, 2) or "").lower()
    bold = bool(selection & 0x20 or mac_style & 0x01 or "bold" in subfamily) or (
        os2 is not None and os2.usWeightClass >= _BOLD_FROM
    )
    italic = bool(selection & 0x01 or mac_style & 0x02 or "italic" in subfamily or "oblique" in subfamily)
    return bold, italic


def read_font_file(path: Path) -> FontFile:
    """The checked font in ``path``; raises AetherpressError naming the file and the problem."""
    shown = display_path(path)

    def refuse(message: str) -> AetherpressError:
        return AetherpressError(Problem(shown, message))

    if path.stat().st_size > _MAX_FONT_BYTES:
        raise refuse(f"the font file is larger than {_MAX_FONT_BYTES // 1_000_000} MB")
    data = path.read_bytes()
    problem = _kind_problem(data[:4])
    if problem is not None:
        raise refuse(problem)
    # fontTools loads only for a project's own fonts
    from fontTools.ttLib import TTFont, TTLibError

    try:
        font = TTFont(path, lazy=True)
        tables = set(font.keys())
        problem = _tables_problem(tables)
        if problem is not None:
            raise refuse(problem)
        names = font["name"]
        family = _best_name(names, 1)
        try:
            postscript = _postscript_name(names)
        except ValueError as exc:
            raise refuse(str(exc)) from None
        os2 = font["OS/2"] if "OS/2" in tables else None
        if os2 is not None and os2.fsType & 0x0002 and not os2.fsType & 0x000C:
            raise refuse("the font's licence does not allow embedding it in a PDF (its OS/2 fsType is 'restricted')")
        bold, italic = _bold_italic(font, tables, names)
        font.close()
    except AetherpressError:
        raise
    except (TTLibError, KeyError, AttributeError, ValueError, TypeError, IndexError, AssertionError, EOFError) as exc:
        raise refuse(f"cannot be read as a font ({type(exc).__name__}); the file is damaged or not a font") from None
    if family is None:
        raise refuse("the font has no readable family name")
    digest = hashlib.sha256(data).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9-]", "", postscript)[:40] + "-" + digest
    return FontFile(str(path), family, "bold" if bold else "normal", "italic" if italic else "normal", name, postscript)


Listing = tuple[tuple[str, int, int], ...]  # the files of a folder, each by (path, size, time of change)


def font_listing(folder: Path) -> Listing:
    """The files in ``folder`` (a project's ``fonts/``) with their stamps: the same listing, the same fonts."""
    if not folder.is_dir():
        return ()
    listing = []
    for path in sorted(folder.iterdir()):
        if path.is_file():
            stat = path.stat()
            listing.append((str(path), stat.st_size, stat.st_mtime_ns))
    return tuple(listing)


def read_fonts(listing: Listing, root: Path | str) -> tuple[FontFile, ...]:
    """Every font of ``listing``, checked; every problem at once."""
    problems: list[Problem] = []
    found: list[FontFile] = []
    paths = [Path(p) for p, _, _ in listing]
    candidates = [p for p in paths if p.suffix.lower() in _FONT_SUFFIXES or p.suffix.lower() in _REFUSED_SUFFIXES]
    if len(candidates) > _MAX_FONT_FILES:
        raise AetherpressError(
            Problem(display_path(paths[0].parent), f"holds {len(candidates)} font files; the limit is {_MAX_FONT_FILES}")
        )
    for path in candidates:
        if not real(path).is_relative_to(real(root)):
            problems.append(Problem(display_path(path), "is a link to a place outside the project; copy the font in instead"))
        elif path.suffix.lower() in _REFUSED_SUFFIXES:
            problems.append(Problem(display_path(path), _REFUSED_SUFFIXES[path.suffix.lower()]))
        else:
            try:
                found.append(read_font_file(path))
            except AetherpressError as exc:
                problems.extend(exc.problems)
    seen: dict[tuple[str, str, str], FontFile] = {}
    for font in found:
        key = (font.family, font.weight, font.style)
        if key in seen:
            problems.append(
                Problem(
                    display_path(Path(font.path)),
                    f"is '{font.family}' {_describe(font)} again (as {Path(seen[key].path).name}); keep one of the two",
                )
            )
        seen.setdefault(key, font)
    if problems:
        raise AetherpressError(problems)
    return tuple(found)


def _describe(font: FontFile) -> str:
    words = [w for w in (font.weight, font.style) if w != "normal"]
    return " ".join(words) or "regular"
