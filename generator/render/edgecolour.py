"""The colour at a card side's edge, read from its drawn piece: what decides the gaps of print-and-play sheets.

Cards butted together share a cut: a cut a little off shows a sliver of the
neighbour.  That is harmless when the neighbour's edge is the same colour and a
flaw when it differs (a dark Founding card beside a cream one, Dragon's Gambit's
suit borders side by side).  The sheets therefore compare the cards' own edges,
as drawn: the piece (the side's PDF, bleed and all) is rasterised small, and its
outermost ring, the bleed's outer half, gives the median colour of the edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from .pagepng import render_pages

PX_PER_MM = 2  # the edge is read at half a millimetre a pixel
RING_MM = 1.0  # how deep into the side, from its outer edge, the edge is read
ALIKE = 24  # edges whose colours differ by no more than this (0-255, in every channel) are alike

Colour = tuple[int, int, int]


def edge_colour(pdf: bytes, size_mm: tuple[float, float]) -> Colour:
    """The median colour (RGB 0-255) of the outermost :data:`RING_MM` of the side drawn in ``pdf``."""
    w, h = (max(8, round(v * PX_PER_MM)) for v in size_mm)
    picture = next(render_pages(pdf, (w, h)))
    ring = max(1, round(RING_MM * PX_PER_MM))
    rgb = picture.convert("RGB")
    found = [rgb.getpixel((x, y)) for y in range(h) for x in range(w) if x < ring or y < ring or x >= w - ring or y >= h - ring]
    r, g, b = (sorted(channel)[len(channel) // 2] for channel in zip(*found))
    return int(r), int(g), int(b)


def alike(edges: Sequence[Colour]) -> bool:
    """Are these edges all of one colour (within :data:`ALIKE`), so that butted cards may share cuts?"""
    distinct = list(dict.fromkeys(edges))
    return all(
        max(abs(a - b) for a, b in zip(one, other)) <= ALIKE for n, one in enumerate(distinct) for other in distinct[n + 1 :]
    )
