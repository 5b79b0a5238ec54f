"""The colour at a card side's edge, read from its drawn piece: what decides the gaps of print-and-play sheets.

Cards butted together share a cut: a cut a little off shows a sliver of the
neighbour.  That is harmless when the neighbour's edge is the same colour and a
flaw when it differs (a dark Founding card beside a cream one, Dragon's Gambit's
suit borders side by side).  The sheets therefore read the cards' own edges, as
drawn: the piece (the side's PDF, bleed and all) is rasterised small, and its
outermost ring, the bleed's outer half, gives the median colour of the edge.
Cards of different edge colours are laid out apart (each colour its own pages),
and a card dark at its edge keeps its bleed with gaps, whatever its deck's style.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

import numpy as np
import pikepdf

from ..definitions.styles import DARK, luminance
from .pagepng import render_pages

PX_PER_MM = 2  # the edge is read at half a millimetre a pixel
RING_MM = 1.0  # how deep into the side, from its outer edge, the edge is read
ALIKE = 24  # edges whose colours differ by no more than this (0-255, in every channel) are alike

Colour = tuple[int, int, int]


def edge_colour(pdf: bytes, size_mm: tuple[float, float]) -> Colour:
    """The median colour (RGB 0-255) of the outermost :data:`RING_MM` of the side drawn in ``pdf``."""
    w, h = (max(8, round(v * PX_PER_MM)) for v in size_mm)
    picture = np.asarray(next(render_pages(_device_rgb(pdf), (w, h))).convert("RGB"))
    ring = max(1, round(RING_MM * PX_PER_MM))
    inside = np.zeros((h, w), dtype=bool)
    inside[ring : h - ring, ring : w - ring] = True
    found = np.sort(picture[~inside], axis=0)  # the ring's pixels, each channel in order
    r, g, b = found[len(found) // 2]  # the median (the upper one of an even count)
    return int(r), int(g), int(b)


def _device_rgb(pdf: bytes) -> bytes:
    """``pdf`` with its page's three-channel ICC colour spaces named as device RGB.  A piece's profile is sRGB, as
    pdfium draws device RGB; reading the profile was most of the cost of reading an edge (7 ms of 9 a side)."""
    named = _named_in_place(pdf)
    if named is not None:
        return named
    with pikepdf.open(io.BytesIO(pdf)) as document:
        resources = document.pages[0].obj.get("/Resources")
        spaces = resources.get("/ColorSpace") if isinstance(resources, pikepdf.Dictionary) else None
        if not isinstance(spaces, pikepdf.Dictionary):
            return pdf
        changed = False
        for name in list(spaces.keys()):
            if _rgb_profile(spaces[name]):
                spaces[name] = pikepdf.Name.DeviceRGB
                changed = True
        if not changed:
            return pdf
        out = io.BytesIO()
        document.save(out)
        return out.getvalue()


# A piece as the renderer writes it: one page, its resources written out in its own dictionary, every colour space
# of them an array naming an ICC profile, and the profile's dictionary written before its stream.
_PAGE = re.compile(rb"\n\d+ 0 obj\n<<\n  /Type /Page\n  /Resources <<\n.*?\nendobj\n", re.S)
_SPACES = re.compile(rb"\n    /ColorSpace <<\n((?:      /[A-Za-z0-9]+ \[/ICCBased \d+ 0 R\]\n)+)    >>\n")
_ICC = re.compile(rb"\[/ICCBased (\d+) 0 R\]")


def _named_in_place(pdf: bytes) -> bytes | None:
    """:func:`_device_rgb` without opening the file, for a piece as the renderer writes it (see above): each
    three-channel profile the page's colour spaces name is written over with ``/DeviceRGB`` and spaces, so every
    object keeps its place and the cross-reference table holds.  None for any other file."""
    pages = _PAGE.findall(pdf)
    if len(pages) != 1 or pdf.count(b"/Type /Page\n") != 1:
        return None
    page = pages[0]
    spaces = _SPACES.search(page)
    if spaces is None:
        return None
    block = spaces.group(1)
    for number in {int(n) for n in _ICC.findall(block)}:
        head = re.search(rb"\n%d 0 obj\n<<\n((?:  /[A-Za-z0-9]+ [^\n]*\n)*)>>\nstream\n" % number, pdf)
        if head is None or re.search(rb"(?m)^  /N 3$", head.group(1)) is None:
            return None  # a profile of another kind, or written otherwise: let pikepdf read it
    named = _ICC.sub(lambda found: b"/DeviceRGB".ljust(len(found.group(0))), block)
    start = pdf.index(page) + spaces.start(1)
    return pdf[:start] + named + pdf[start + len(block) :]


def _rgb_profile(space: object) -> bool:
    """Is ``space`` a three-channel ICC colour space, ``[/ICCBased stream]``?"""
    if not (isinstance(space, pikepdf.Array) and len(space) == 2 and space[0] == pikepdf.Name.ICCBased):
        return False
    profile = space[1]
    return isinstance(profile, pikepdf.Stream) and int(profile.get("/N", 0)) == 3


def edge_kinds(edges: Sequence[Colour]) -> list[int]:
    """Each edge's kind: the first colour seen within :data:`ALIKE` of it (0, 1, 2... in order of appearance)."""
    seen: list[Colour] = []
    kinds = []
    for colour in edges:
        kind = next((n for n, other in enumerate(seen) if _alike(colour, other)), None)
        if kind is None:
            kind = len(seen)
            seen.append(colour)
        kinds.append(kind)
    return kinds


def _alike(one: Colour, other: Colour) -> bool:
    return max(abs(a - b) for a, b in zip(one, other)) <= ALIKE


def is_dark(colour: Colour) -> bool:
    """Is an edge of ``colour`` dark (as :func:`~generator.definitions.styles.dark_edges` says of a style's)?"""
    return luminance("#{:02x}{:02x}{:02x}".format(*colour)) < DARK
