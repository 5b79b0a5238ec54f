"""``:name:`` in a rulebook's text: the icon drawn in the line, as on a card.

The names are those a card's text knows (see :mod:`generator.faces.icons`):
the project's ``icons/NAME.svg`` first, then the symbols of the library.  In
the paragraph an icon stands as an inline image of its advance width, so
lines break round it like round a word; it is drawn as vector shapes (a PDF
form, placed once per icon and colour).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, partial
from types import MappingProxyType
from typing import Any

from reportlab.lib.units import mm

from ..faces.richtext import Icon
from ..render.placed import use_side
from ..render.vector import side_pdf

_ICON_TAG = "aetherpress-icon"
_ICON = re.compile(r":([A-Za-z][A-Za-z0-9_-]{0,63}):")
_EM = 10.0  # mm: the size the icon is drawn at in its form, scaled to the text's
BASELINE = 0.8  # of the em, from the top of the form
# the icons of the book being converted, for the paragraphs made meanwhile
BOOK_ICONS: ContextVar[Mapping[str, Icon]] = ContextVar("aetherpress_book_icons", default=MappingProxyType({}))


def icon_markup(text: str, escaped: str, icons: Mapping[str, Icon], unknown: Any) -> str:
    """``escaped`` (``text`` escaped) with each ``:name:`` of a known icon an inline icon; ``unknown(name)``
    is called for a name that is no icon."""
    if ":" not in text:
        return escaped
    out = []
    last = 0
    for found in _ICON.finditer(escaped):
        name = found.group(1)
        if name not in icons:
            unknown(name)
            continue
        out.append(escaped[last : found.start()])
        out.append(f'<onDraw name="{_ICON_TAG}" label="{name}"/>')
        last = found.end()
    return "".join(out) + escaped[last:]


class _IconImage:
    """What a paragraph holds where an icon stands: drawn by :func:`drawing_icons`, not as a picture."""

    def __init__(self, icon: Icon, colour: str):
        self.icon = icon
        self.colour = colour

    def draw(self, canvas: Any, x: float, y: float, width: float, height: float) -> None:
        advance = self.icon.advance(_EM)
        canvas.saveState()
        canvas.translate(x, y - height * (1 - BASELINE))
        canvas.scale(width / (advance * mm), height / (_EM * mm))
        form = "icon-" + re.sub(r"[^A-Za-z0-9]+", "-", f"{self.icon.name}-{self.colour}")
        use_side(canvas, form, (advance, _EM), partial(_icon_pdf, self.icon, self.colour))
        canvas.restoreState()


@lru_cache(maxsize=128)
def _icon_pdf(icon: Icon, colour: str) -> bytes:
    advance = icon.advance(_EM)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{advance:.4f}mm" height="{_EM:g}mm" '
        f'viewBox="0 0 {advance:.4f} {_EM:g}">{icon.svg(0, _EM * BASELINE, _EM, colour)}</svg>'
    )
    return side_pdf(svg, f"icon {icon.name}")


def place_icons(frags: Any) -> bool:
    """Make each icon of a parsed paragraph an inline image of its advance width and the text's size;
    whether there was one."""
    icons = BOOK_ICONS.get()
    placed = False
    for frag in frags or ():
        defn = getattr(frag, "cbDefn", None)
        if defn is None or getattr(defn, "kind", None) != "onDraw" or getattr(defn, "name", None) != _ICON_TAG:
            continue
        icon = icons[defn.label]
        colour = getattr(frag, "textColor", None)
        hex_colour = colour.hexval().replace("0x", "#") if colour is not None and hasattr(colour, "hexval") else "#000000"
        defn.kind = "img"
        defn.image = _IconImage(icon, hex_colour)
        defn.width = icon.advance(frag.fontSize)
        defn.height = frag.fontSize
        defn.valign = "baseline"
        placed = True
    return placed


@contextmanager
def drawing_icons(canvas: Any) -> Iterator[None]:
    """While a paragraph draws, its icons are drawn as shapes where it would draw an image."""
    original = canvas.drawImage

    def draw_image(image: Any, x: float, y: float, width: float | None = None, height: float | None = None, **kw: Any):
        if isinstance(image, _IconImage):
            image.draw(canvas, x, y, float(width or 0), float(height or 0))
            return None
        return original(image, x, y, width, height, **kw)

    canvas.drawImage = draw_image
    try:
        yield
    finally:
        del canvas.drawImage
