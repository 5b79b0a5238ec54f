"""A book for a print shop, as geometry in millimetres: which pages make the cover, the interior's pages,
the cover spread (back, spine, front) and the crop marks around trimmed pages.

The book's pages are a multiple of four: the first is the front cover, the
second the inside front cover, the last but one the inside back cover and the
last the back cover.  Those four go on the cover (printed on cover stock as
two spreads, outside and inside); the pages between them are the interior, in
reading order, one trimmed page each, still a multiple of four so a
saddle-stitched interior is whole sheets (the book is laid out so: its
insides of the covers are endpapers, never text).  A perfect-bound book's cover wraps
round a spine as thick as the interior's leaves; a saddle-stitched one has no
spine.  Coordinates are from the top-left corner of the sheet, y down.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..geometry import Box
from .shapes import Line

BINDINGS = ("saddle", "perfect")  # saddle-stitched (stapled through the fold) or perfect-bound (glued spine)
PAPER_THICKNESS = 0.1  # mm a leaf: 90 gsm uncoated, about the paper of a printed rulebook
MARK_GAP = 2.0  # mm between the bleed's edge and a crop mark
MARK_LENGTH = 5.0  # mm
SLUG = 1.0  # mm of sheet past the marks
COVER_PAGES = 4  # outside front, inside front, inside back, outside back


class BookError(ValueError):
    """A book that cannot be printed as asked."""


def slug_width(bleed: float, marks: bool = True, slug: float = SLUG) -> float:
    """How far a printed sheet reaches past the trim: the bleed, then with ``marks`` the gap before a mark, the mark
    and ``slug`` of sheet past it; without marks the sheet ends at the bleed (a shop that asks no marks)."""
    return bleed + MARK_GAP + MARK_LENGTH + slug if marks else bleed


@dataclass(frozen=True)
class Split:
    """The book's pages (0-based indexes) as the printer takes them."""

    outside: tuple[int, int]  # (back cover, front cover), left to right as the spread lies face up
    inside: tuple[int, int]  # (inside front cover, inside back cover)
    interior: tuple[int, ...]


def split_pages(pages: int, binding: str) -> Split:
    """The cover's four pages and the interior between them; a one-line error for a book that is no whole sheets."""
    if binding not in BINDINGS:
        raise BookError(f"binding '{binding}' is none of {', '.join(BINDINGS)}")
    if pages < COVER_PAGES + 4 or pages % 4:
        raise BookError(f"a printed book needs a multiple of 4 pages, at least 8, not {pages}")
    return Split((pages - 1, 0), (1, pages - 2), tuple(range(2, pages - 2)))


def spine_width(interior_pages: int, binding: str, thickness: float = PAPER_THICKNESS) -> float:
    """The spine in mm: a perfect-bound interior's leaves times the paper's thickness; a saddle stitch has none."""
    if binding == "saddle":
        return 0.0
    return -(-interior_pages // 2) * thickness


@dataclass(frozen=True)
class PrintSheet:
    """One printed sheet: trimmed pages side by side (with a spine between two covers), bleed and marks round them."""

    trim: tuple[float, float]  # one page, mm
    bleed: float
    spine: float = 0.0  # mm between the two pages of a cover spread
    pages: int = 1  # 1 (a page of the interior) or 2 (a cover spread)
    crop_marks: bool = True  # crop and fold marks outside the bleed (False: the sheet is the bleed box)
    slug: float = SLUG  # mm of sheet past the marks

    @property
    def margin(self) -> float:
        return slug_width(self.bleed, self.crop_marks, self.slug)

    @property
    def trim_box(self) -> Box:
        w, h = self.trim
        return Box(self.margin, self.margin, self.pages * w + (self.spine if self.pages == 2 else 0.0), h)

    @property
    def bleed_box(self) -> Box:
        return self.trim_box.grow(self.bleed)

    @property
    def size(self) -> tuple[float, float]:
        t = self.trim_box
        return t.w + 2 * self.margin, t.h + 2 * self.margin

    def page_boxes(self) -> list[Box]:
        """Where each page's trim lies on the sheet, left to right."""
        w, h = self.trim
        t = self.trim_box
        if self.pages == 1:
            return [t]
        return [Box(t.x, t.y, w, h), Box(t.x + w + self.spine, t.y, w, h)]

    def spine_box(self) -> Box | None:
        if self.pages != 2 or self.spine <= 0:
            return None
        w, h = self.trim
        return Box(self.trim_box.x + w, self.trim_box.y, self.spine, h)

    def marks(self) -> list[Line]:
        """Crop marks at the trim's corners and fold marks at the spine's edges (or the spread's middle),
        each starting :data:`MARK_GAP` past the bleed, so no mark touches the printed area."""
        t, start = self.trim_box, self.bleed + MARK_GAP
        lines: list[Line] = []
        if not self.crop_marks:
            return lines
        for x in (t.x, t.right):
            lines += [Line(x, t.y - start, x, t.y - start - MARK_LENGTH, "crop")]
            lines += [Line(x, t.bottom + start, x, t.bottom + start + MARK_LENGTH, "crop")]
        for y in (t.y, t.bottom):
            lines += [Line(t.x - start, y, t.x - start - MARK_LENGTH, y, "crop")]
            lines += [Line(t.right + start, y, t.right + start + MARK_LENGTH, y, "crop")]
        if self.pages == 2:
            w = self.trim[0]
            folds = {t.x + w, t.x + w + self.spine}
            for x in sorted(folds):
                lines += [Line(x, t.y - start, x, t.y - start - MARK_LENGTH, "fold")]
                lines += [Line(x, t.bottom + start, x, t.bottom + start + MARK_LENGTH, "fold")]
        return lines
