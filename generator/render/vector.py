"""Card SVG to PDF, drawn as a browser draws it: Typst's svg2pdf (on usvg), one page per side.

The preview shows a side as Chromium draws its SVG; every print file draws the
same SVG through this one function, so transparency, gradients that fade,
masks, blend modes and pictures print as they show.  The SVG is read by
:func:`~generator.faces.svg.parse_svg` first, so nothing that refers outside
the card reaches the renderer, and only the fonts named here (the shipped ones
and the project's own) are ever used: never a font of the machine.

A side's page is the size of its SVG (trim plus bleed).  The renderer writes
its dictionaries in no fixed order: the files a side is placed in are written
in a fixed one (see :mod:`.assemble`).  With a ``converter`` (greys, process CMYK) every printed colour
and picture is converted afterwards (see :mod:`.recolour`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import svg2pdf_py
from lxml import etree

from ..errors import AetherpressError, Problem
from ..faces.svg import parse_svg
from ..locations import FONTS_DIR
from ..project.scratch import put_once, shared_folder
from ..resources.fontfiles import read_font_file
from ..resources.fonts import FontBook
from ..units import CSS_PX, svg_length_px
from .filters import filter_scale
from .usvgcompat import FontKey, as_chromium_places, half_height

_PT_PER_PX = 72 / CSS_PX["in"]


Kept = Callable[[str, Any, Callable[[], bytes]], bytes]  # (kind, inputs, make): the store's bytes, else make()'s, kept


class FontPaths(tuple):
    """The font files a side may be set in, with the book they are of (which keeps the renderer's database of
    them: loaded once per command while none of them changes) and where the copies the renderer is given are
    kept between commands (``keep``: the store's, see :func:`_as_named`)."""

    book: FontBook | None = None
    keep: Kept | None = None


def font_files(book: FontBook | None = None, keep: Kept | None = None) -> FontPaths:
    """Every font file a side may be set in: the shipped fonts and ``book``'s own, sorted."""
    shipped = sorted(str(p) for p in FONTS_DIR.glob("*.ttf"))
    own = sorted(font.path for font in book.files) if book is not None else []
    found = FontPaths(shipped + own)
    found.book, found.keep = book, keep
    return found


@dataclass(frozen=True)
class _Fonts:
    """The renderer's fonts, and half the height of each face (see :mod:`.usvgcompat`)."""

    database: svg2pdf_py.FontDatabase
    half_heights: dict[FontKey, float]


def _database(files: tuple[str, ...]) -> _Fonts:
    """The renderer's fonts: ``files`` alone, loaded once per font book while none of them changes (a designer may
    replace a project font under the same name while the preview runs), the shipped ones alone once per process."""
    stamps = _stamps(files)
    book = getattr(files, "book", None)
    if book is not None:
        return book.derived(("renderer fonts", stamps), lambda: _loaded(stamps, getattr(files, "keep", None)))
    if all(Path(path).parent == FONTS_DIR for path in files):
        return _shipped(stamps)
    return _loaded(stamps)


def _stamps(files: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    stamps = []
    for path in files:
        try:
            found = os.stat(path)
            stamps.append((path, found.st_mtime_ns, found.st_size))
        except OSError:
            stamps.append((path, 0, 0))  # gone since it was listed: the renderer says so when it reads it
    return tuple(stamps)


@lru_cache(maxsize=2)
def _shipped(stamps: tuple[tuple[str, int, int], ...]) -> _Fonts:
    """The shipped fonts alone (files of the package, not of a project), loaded once per process."""
    return _loaded(stamps)


def _loaded(stamps: tuple[tuple[str, int, int], ...], keep: Kept | None = None) -> _Fonts:
    database = svg2pdf_py.FontDatabase()  # empty: the machine's fonts are never looked at
    heights: dict[FontKey, float] = {}
    for path, _, _ in stamps:
        digest = _digest(path) if keep is not None else None  # what the store keeps them by
        database.load_font_file(_as_named(path, keep, digest))
        found = _half_height(path) if keep is None or digest is None else _kept_half_height(path, keep, digest)
        if found is not None:
            heights.setdefault(found[0], found[1])
    return _Fonts(database, heights)


def _digest(path: str) -> str | None:
    """The SHA-256 of the font file's bytes (None when it cannot be read: the renderer says why when it reads it)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


HEIGHTS = "renderer-font-heights"  # the store's kind of a font's face and half height (JSON; null: none)


def _kept_half_height(path: str, keep: Kept, digest: str) -> tuple[FontKey, float] | None:
    """:func:`_half_height`, kept by the font's digest (fontTools reads the font once, not in every command)."""
    kept = keep(HEIGHTS, [digest], lambda: json.dumps(_half_height(path)).encode("utf-8"))
    try:
        found = json.loads(kept)
        if found is None:
            return None
        (family, weight, style), height = found
        return (str(family), str(weight), str(style)), float(height)
    except (ValueError, TypeError):  # an entry of another shape: read the font
        return _half_height(path)


def _half_height(path: str) -> tuple[FontKey, float] | None:
    """(family in lower case, weight, style) of the font in ``path``, and half its height per em."""
    # fontTools loads with the fonts
    from fontTools.ttLib import TTFont

    try:
        named = read_font_file(Path(path))
        font = TTFont(path, lazy=True)
        hhea, units = font["hhea"], font["head"].unitsPerEm
        return (named.family.lower(), named.weight, named.style), half_height(hhea.ascent, hhea.descent, units)
    except (AetherpressError, OSError, KeyError, ValueError):
        return None


def _renamed_folder() -> Path:
    """The folder of the fonts renamed for the renderer: the run's, shared by its workers (removed as it ends)."""
    return shared_folder("fonts")


RENAMED = "renderer-fonts"  # the store's kind of a font's copy for the renderer (empty: the font as it is)


def _as_named(path: str, keep: Kept | None = None, digest: str | None = None) -> str:
    """``path``, or a copy of it the renderer finds under the family, weight and style Aetherpress (and the
    preview's ``@font-face``) gives it.

    The renderer groups fonts by their typographic family (name 16) and weight class, where Aetherpress and
    the browser take the family (name 1) and the style bits: a ``Montserrat SemiBold`` file is family
    "Montserrat", weight 600 to the one and "Montserrat SemiBold", normal, to the other, and text set in
    it would not print at all.  Such a file is copied with its names and weight made to agree, into the
    run's own folder.  With ``keep`` (the store's), what a font needs is kept by the digest of its bytes, so
    later commands copy it from there instead of reading the font and saving it again.
    """
    if not path.lower().endswith(".ttf"):
        return path
    if keep is None:
        renamed = _renamed(path)
        digest = _digest(path) if renamed else None  # names the copy
    else:
        digest = digest or _digest(path)
        renamed = keep(RENAMED, [digest], lambda: _renamed(path) or b"") if digest is not None else None
    if not renamed or digest is None:
        return path  # as it is (or unreadable: the renderer says what is wrong with it when it reads it)

    def write(target: Path) -> None:
        target.write_bytes(renamed)

    return str(put_once(_renamed_folder() / f"{digest[:24]}.ttf", write))


def _renamed(path: str) -> bytes | None:
    """The font at ``path`` with its names, weight and style bits made to agree (see :func:`_as_named`); None when
    they agree already or the file is no font fontTools reads."""
    # fontTools loads only for a project's own fonts
    from fontTools.ttLib import TTFont

    try:
        named = read_font_file(Path(path))
        font = TTFont(path, recalcTimestamp=False, recalcBBoxes=False)
    except (AetherpressError, OSError):
        return None  # the renderer says what is wrong with it when it reads it
    names, os2, head = font["name"], font.get("OS/2"), font["head"]
    bold, italic = named.weight == "bold", named.style == "italic"
    weight = 700 if bold else 400
    selection = (0x20 if bold else 0) | (0x01 if italic else 0) | (0x40 if not bold and not italic else 0)
    typographic = any(record.nameID in (16, 17, 21, 22) for record in names.names)
    style_bits = (0x01 if bold else 0) | (0x02 if italic else 0)
    agree = os2 is None or (os2.usWeightClass == weight and os2.fsSelection & 0x61 == selection)
    if not typographic and agree and head.macStyle & 0x03 == style_bits:
        font.close()
        return None
    for ident in (16, 17, 21, 22):
        names.removeNames(nameID=ident)
    if os2 is not None:
        os2.usWeightClass = weight
        os2.fsSelection = (os2.fsSelection & ~0x61) | selection
    head.macStyle = (head.macStyle & ~0x03) | style_bits
    saved = io.BytesIO()
    font.save(saved)
    font.close()
    return saved.getvalue()


SHEET_DPI = 300  # what filters are drawn at on sheets and in books, unless asked otherwise


def side_pdf(
    svg_text: str,
    source: str,
    place: str | None = None,
    fonts: Iterable[str] | None = None,
    converter=None,
    dpi: float = SHEET_DPI,
) -> bytes:
    """The side as a one-page PDF of its own size, set in ``fonts`` (default: the shipped ones).

    ``source`` names the file the SVG came from (its template), ``place`` what
    was being drawn (``card 'fox'``); both appear in any error.  ``converter``
    (greys, process CMYK) converts every printed colour and picture.  Filters
    are drawn as pictures of ``dpi`` or finer (see :mod:`.filters`).
    """
    root = parse_svg(svg_text, source, place)
    scale = filter_scale(root, dpi, source, place)
    try:
        loaded = _database(fonts if isinstance(fonts, FontPaths) else tuple(fonts) if fonts is not None else font_files())
    except OSError as exc:  # a project font removed since the fonts were listed
        raise AetherpressError(Problem(source, f"a font file could not be read: {exc}", key=place)) from None
    as_chromium_places(root, loaded.half_heights)
    sized = _in_points(root)
    try:
        drawn = svg2pdf_py.svg_to_pdf(
            sized, loaded.database, svg2pdf_py.ConversionOptions(compress=True, raster_scale=scale or 1.0)
        )
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # the renderer's own words (a size it cannot use, a picture it cannot read); a
        # panic of the native code arrives as a BaseException of its own
        raise AetherpressError(Problem(source, f"the SVG could not be drawn: {exc}", key=place)) from None
    if converter is not None:
        from .recolour import recolour  # only greyscale and print-shop outputs convert colours

        return recolour(drawn, converter)
    return drawn


def _in_points(root: etree._Element) -> str:
    """The SVG with its width and height given in points.

    svg2pdf makes a PDF point of each CSS pixel, so a card 69.5 mm wide would
    print 96/72 too large; given as a number of points, the width is what the
    renderer takes for pixels, and the viewBox (the old size, when there was
    none) keeps the drawing as it was.
    """
    width, height = svg_length_px(root.get("width")), svg_length_px(root.get("height"))
    if width is not None and height is not None and width > 0 and height > 0:
        if root.get("viewBox") is None:
            root.set("viewBox", f"0 0 {width:.6g} {height:.6g}")
        root.set("width", f"{width * _PT_PER_PX:.6g}")
        root.set("height", f"{height * _PT_PER_PX:.6g}")
    return etree.tostring(root, encoding="unicode")


__all__ = ["SHEET_DPI", "font_files", "side_pdf"]
