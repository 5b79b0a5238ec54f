"""The card pieces of one print job: which piece each side is, and its PDF bytes.

A piece's key is what it is drawn from: the side's SVG text and size, the
project's fonts and the colour mode.  So a side that two decks (say two
variants) draw alike is one piece, drawn once.  Its bytes come from the
cache, or are drawn here and kept.  A parallel build draws the missing
pieces in other processes first (see :mod:`generator.pipeline.tasks`);
whatever is still missing then is drawn here, so a sheets file is the same
however its pieces were made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..definitions.model import Card, Deck
from ..faces.cached import CachedFaces, DrawnSide
from ..faces.keys import font_inputs
from ..faces.render import FaceRenderer
from ..project import Project
from ..project.cache import read_cached_bytes, read_cached_head, split_parts, write_cached_parts
from ..project.digests import code_digest, digest
from ..resources.fonts import font_book
from .assemble import Known, describe
from .colour import colour_converter
from .vector import font_files, side_pdf

KIND = "pieces"


Spec = tuple[int, str | None, str]  # a side of a job: (deck index, card id or None, "front" or "back")


def piece_key(fonts: str, svg: str, size_mm: tuple[float, float], greyscale: bool) -> str:
    """What a piece is drawn from: Aetherpress, the project's fonts (``fonts``: see
    :func:`~generator.faces.keys.font_inputs`), the side's SVG and size and the colour mode."""
    return digest("piece", code_digest(), fonts, svg, size_mm, greyscale)


def spec(d: int, card: Card | None, side: str) -> Spec:
    return (d, card.id if card is not None else None, side)


class Pieces:
    """The pieces of a job printing ``decks`` (greys with ``greyscale``)."""

    def __init__(
        self,
        project: Project,
        decks: Sequence[Deck],
        greyscale: bool = False,
        draft: bool = False,
        faces: Sequence[CachedFaces] | None = None,
        keys: Mapping[Spec, str] | None = None,
    ):
        """``faces`` are the decks' drawn sides and ``keys`` the pieces' keys, when the caller has them."""
        self.project = project
        self.decks = decks
        self.faces = (
            list(faces) if faces is not None else [CachedFaces(project, d, FaceRenderer(project, d, draft=draft)) for d in decks]
        )
        self.greyscale = greyscale
        self._sides: dict[tuple[int, str, str], DrawnSide] = {}
        self._keys: dict[Spec, str] = dict(keys or {})
        self._fonts: str | None = None
        self._last: tuple[str, bytes] | None = None  # the piece drawn last, by key
        self.drawn = 0  # pieces drawn here (not found in the cache)

    def sides(self) -> list[tuple[int, Card | None, str]]:
        """Every distinct side of the job as (deck index, card, "front"|"back"); a back once per back template."""
        found: dict[tuple[int, str], tuple[int, Card | None, str]] = {}
        for d, (deck, faces) in enumerate(zip(self.decks, self.faces)):
            for card in deck.cards:
                found.setdefault((d, faces.key(card, "front")), (d, card, "front"))
                found.setdefault((d, faces.key(card, "back")), (d, card, "back"))
            if not deck.cards:
                found.setdefault((d, faces.key(None, "back")), (d, None, "back"))
        return list(found.values())

    def side(self, d: int, card: Card | None, side: str) -> DrawnSide:
        key = (d, self.faces[d].key(card, side), side)
        drawn = self._sides.get(key)
        if drawn is None:
            drawn = self._sides[key] = self.faces[d].side(card, side)
        return drawn

    @property
    def fonts(self) -> str:
        if self._fonts is None:
            self._fonts = font_inputs(self.project)
        return self._fonts

    def key(self, d: int, card: Card | None, side: str) -> str:
        found = self._keys.get(spec(d, card, side))
        if found is None:
            g = self.faces[d].renderer.geometry
            svg = self.side(d, card, side).svg
            found = self._keys[spec(d, card, side)] = piece_key(self.fonts, svg, (g.width, g.height), self.greyscale)
        return found

    def known(self, d: int, card: Card | None, side: str) -> Known:
        """What assembling needs to know of the piece: read from the head of its cache entry, or drawn now."""
        head = read_cached_head(self.project, KIND, self.key(d, card, side))
        if head is not None:
            try:
                return Known.read(head)
            except (ValueError, KeyError, TypeError):
                pass  # an entry of another shape: draw it again
        return self._drawn(d, card, side)[1]

    def pdf(self, d: int, card: Card | None, side: str) -> bytes:
        """The piece's PDF: from the cache (checked whole), or drawn now and kept."""
        key = self.key(d, card, side)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        found = read_cached_bytes(self.project, KIND, key)
        if found is not None:
            try:
                head, pdf = split_parts(found)
                Known.read(head)
                return pdf
            except (ValueError, KeyError, TypeError):
                pass
        return self._drawn(d, card, side)[0]

    def _drawn(self, d: int, card: Card | None, side: str) -> tuple[bytes, Known]:
        key = self.key(d, card, side)
        pdf = self.draw(d, card, side)
        known = describe(pdf)
        write_cached_parts(self.project, KIND, key, known.head(), pdf)
        self._last = (key, pdf)  # a piece drawn to be known is about to be asked for
        self.drawn += 1
        return pdf, known

    def draw(self, d: int, card: Card | None, side: str) -> bytes:
        faces = self.faces[d]
        renderer, deck = faces.renderer, self.decks[d]
        template = (
            deck.template_for(card)
            if side == "front" and card is not None
            else deck.back_for(card)
            if card
            else deck.back_template
        )
        return side_pdf(
            self.side(d, card, side).svg,
            renderer.template_file(template),
            renderer.place(card if side == "front" else None, side),
            font_files(font_book(self.project)),
            colour_converter(self.greyscale),
        )
