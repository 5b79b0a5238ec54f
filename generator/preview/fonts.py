"""The shipped fonts for the pages, so a card in the browser is set in the same type as in print.

Every family, weight and style a template may ask for gets an ``@font-face``
rule, pointing at the file reportlab draws that combination with (a family
without an italic is drawn upright, as in the PDF).  Font files are found by
name in this fixed list, never by a path from the URL.
"""

from __future__ import annotations

from functools import cache

from ..faces.fonts import FAMILIES, font_name
from ..locations import FONTS_DIR

WEIGHTS = {"normal": 400, "bold": 700}
STYLES = ("normal", "italic")


def font_files() -> dict[str, str]:
    """File name (as in ``/fonts/NAME``) -> reportlab font name, for every shipped font."""
    return {f"{stem}.ttf": stem for faces in FAMILIES.values() for stem in faces.values()}


@cache
def font_bytes(name: str) -> bytes | None:
    stem = font_files().get(name)
    return (FONTS_DIR / f"{stem}.ttf").read_bytes() if stem is not None else None


@cache
def fonts_css() -> bytes:
    rules = []
    for family in FAMILIES:
        for weight, number in WEIGHTS.items():
            for style in STYLES:
                stem = font_name(family, weight, style)
                rules.append(
                    f'@font-face {{ font-family: "{family}"; font-weight: {number}; font-style: {style}; '
                    f'src: url("/fonts/{stem}.ttf") format("truetype"); font-display: block; }}'
                )
    return ("\n".join(rules) + "\n").encode("utf-8")
