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
