"""Card sides as pictures: the drawn sides a project context hands over, rasterised as the print files are.

Each side is drawn into its piece (the one-page PDF the print sheets are made
of, :func:`~generator.render.pieces.draw_piece`), rendered by pdfium at the
asked size and cut to its trim with the style's rounded corners, so a picture
of a card is the card as it prints.  What the pictures are made from is a
:class:`SideSource`: the command's project context, which keeps each side
drawn once (see :mod:`generator.pipeline.context`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..definitions.model import Card, Deck
from ..faces.drawn import DrawnSides, SideSource
from ..render.pagepng import render_pages
from ..units import MM_PER_INCH

if TYPE_CHECKING:
    from PIL import Image

_SMOOTH = 4  # the corners' mask is drawn this many times finer, then shrunk: smooth edges


def card_height(sides: DrawnSides, width: int) -> int:
    """The height in pixels of a card ``width`` pixels wide (trimmed)."""
    g = sides.renderer.geometry
    return max(1, round(width * g.trim_h / g.trim_w))


def dpi_width(sides: DrawnSides, dpi: float) -> int:
    """The trimmed card's width in pixels at ``dpi``."""
    return max(1, round(sides.renderer.geometry.trim_w / MM_PER_INCH * dpi))


def card_pictures(
    source: SideSource, sides: DrawnSides, items: Sequence[tuple[Card | None, str]], width: int, rounded: bool = True
) -> list[Image.Image]:
    """Each (card, "front"|"back") of ``sides``' deck (from ``source``, which keeps their pieces) as an RGBA picture ``width`` pixels wide, cut to its trim
    (with the style's corner radius when ``rounded``; transparent outside it)."""
    from PIL import Image, ImageDraw

    g = sides.renderer.geometry
    scale = width / g.trim_w  # pixels per mm
    full = (max(1, round(g.width * scale)), max(1, round(g.height * scale)))
    height = card_height(sides, width)
    left, top = round(g.bleed * scale), round(g.bleed * scale)
    mask = Image.new("L", (width * _SMOOTH, height * _SMOOTH), 0)
    radius = min(g.radius, g.trim_w / 2, g.trim_h / 2) * scale * _SMOOTH if rounded else 0
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width * _SMOOTH - 1, height * _SMOOTH - 1), radius=radius, fill=255)
    mask = mask.resize((width, height), Image.Resampling.LANCZOS)
    out = []
    for card, side in items:
        pdf = source.piece(sides, card, side)
        image = next(render_pages(pdf, full)).crop((left, top, left + width, top + height)).convert("RGBA")
        image.putalpha(mask)
        out.append(image)
    return out


def distinct_backs(deck: Deck) -> list[tuple[str, Card | None]]:
    """(back name, a card it is the back of) for every back of ``deck``, in the order the cards first show them."""
    found: dict[str, Card | None] = {}
    for card in deck.cards:
        found.setdefault(deck.back_for(card), card)
    return list(found.items()) or [(deck.back_template, None)]
