"""The fonts for the pages, so a card in the browser is set in the same type as in print.

Every family a template may ask for (the shipped ones and the project's own,
from its ``fonts/`` folder) gets an ``@font-face`` rule for each weight and
style, pointing at the file the PDF draws that combination with: a family
without an italic is drawn upright, as in print, never with a machine's
font.  Files are served by a name made here (a digest), looked up in this
list, never by a path from the URL; family names from font files are
written as escaped CSS strings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..locations import FONTS_DIR
from ..project import Project
from ..render.vector import FontPaths
from ..resources.fonts import FACES, FAMILIES, font_book

_WEIGHTS = {"normal": 400, "bold": 700}


def _css_string(text: str) -> str:
    """``text`` as a CSS string: quotes, backslashes and control characters escaped."""
    out = []
    for c in text:
        if c in '"\\' or c < " " or c == "\x7f":
            out.append(f"\\{ord(c):x} ")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


@dataclass(frozen=True)
class PageFonts:
    files: Mapping[str, Path] = field(default_factory=dict)  # name in /fonts/NAME -> the font file
    css: bytes = b""
    version: str = ""
    renderer: tuple[str, ...] = ()  # the files, sorted, as the PNG renderer takes them (its database kept by the book)


def page_fonts(project: Project) -> PageFonts:
    """The ``@font-face`` rules and files for the project's families (its font problems raised at once)."""
    book = font_book(project)
    paths = {stem: FONTS_DIR / f"{stem}.ttf" for faces in FAMILIES.values() for stem in faces.values()}
    paths.update({font.name: Path(font.path) for font in book.files})
    files: dict[str, Path] = {}
    rules = []
    for family in book.families:
        for weight, style in FACES:
            name = book.name(family, weight, style)  # a project font's name carries its content's digest
            path = paths[name]
            served = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16] + path.suffix.lower()
            files[served] = path
            rules.append(
                f"@font-face {{ font-family: {_css_string(family)}; font-weight: {_WEIGHTS[weight]}; font-style: {style}; "
                f'src: url("/fonts/{served}"); font-display: block; }}'
            )
    css = ("\n".join(rules) + "\n").encode("utf-8")
    renderer = FontPaths(sorted({str(path) for path in files.values()}))
    renderer.book = book
    return PageFonts(files, css, hashlib.sha256(css).hexdigest()[:16], renderer)
