"""Booklet order for saddle-stitch printing: which page goes where on which side of which sheet.

Pages are padded with blanks to a multiple of four and placed two to a side
of a landscape sheet, in the order that makes a booklet once the sheets are
printed double-sided (flip on the short edge), stacked, folded and stapled.
"""

from __future__ import annotations


def padded_count(pages: int) -> int:
    return max(4, -(-pages // 4) * 4)


def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """Sides in print order as (left, right) page indexes (0-based); None is a blank.

    Sheet ``s`` (of n/4) carries n-1-2s | 2s on its front and 2s+1 | n-2-2s on its back.
    """
    n = padded_count(pages)
    sides: list[tuple[int | None, int | None]] = []
    for s in range(n // 4):
        sides.append((n - 1 - 2 * s, 2 * s))
        sides.append((2 * s + 1, n - 2 - 2 * s))

    def keep(page: int | None) -> int | None:
        return page if page is not None and page < pages else None

    return [(keep(left), keep(right)) for left, right in sides]


def creep_shifts(pages: int, thickness: float) -> list[tuple[float, float]]:
    """For each side of :func:`booklet_order`, how far (mm) its left and right pages move towards the fold.

    Folded together, each sheet wraps round the sheets inside it, so the pages of
    inner sheets reach further out at the fore-edge: sheet ``s`` (0 the outermost)
    reaches ``s * thickness`` further than the outermost.  Its pages are moved that
    far towards the fold (the left page right, the right page left), so once the
    booklet is trimmed every page keeps the same margin at the fore-edge.
    """
    sides = len(booklet_order(pages))
    return [(s // 2 * thickness, -(s // 2) * thickness) for s in range(sides)]
