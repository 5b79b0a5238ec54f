"""Drafts: how a text that does not fit is marked, and how many characters it must lose to fit.

A draft build draws such a text in red at the smallest size, running out of
its box; these are the dashed frame round the box, the red tag above it
("cut 37 characters") and the count itself: the fewest characters whose
removal from the end of the text lets it fit.
"""

from __future__ import annotations

from collections.abc import Callable

from ..geometry import Box
from ..resources.fonts import family_attribute
from ..units import decimal
from .richtext import Paragraph, truncate, visible_length

OVERFLOW_INK = "#d0021b"  # draft builds draw text that does not fit in this red
_UNTRANSLATED_INK = "#1f5fbf"  # and mark an edition's text left in the source language in this blue
LABEL_FONT = "SourceSans3-Bold"  # the tag saying how much to cut
_LABEL_FAMILY = "Source Sans 3"  # its family, as the SVG names it
_LABEL_SIZE = 2.4  # mm


def characters_to_cut(paragraphs: tuple[Paragraph, ...], fits: Callable[[tuple[Paragraph, ...]], bool]) -> int:
    """How many visible characters must go from the end for the text to fit (binary search on what is kept)."""
    total = visible_length(paragraphs)
    lo, hi = 0, total  # the most characters kept that fit lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(truncate(paragraphs, mid)):
            lo = mid
        else:
            hi = mid - 1
    return total - lo


def overflow_marks(frame: Box, count: int) -> str:
    """A dashed red frame round the box asked for, and above it a red tag: how many characters to cut."""
    return _tag_marks(frame, f"cut {count} character{'s' if count != 1 else ''}", OVERFLOW_INK)


def untranslated_marks(frame: Box, language: str) -> str:
    """A dashed frame round a text printed in the source language in an edition, tagged with the language it lacks."""
    return _tag_marks(frame, f"not translated ({language})", _UNTRANSLATED_INK)


def _tag_marks(frame: Box, label: str, ink: str) -> str:
    """A dashed frame in ``ink`` round the box asked for, and above it a tag of that colour saying ``label``."""
    # reportlab loads with the first text measured, not with this module
    from reportlab.pdfbase.pdfmetrics import stringWidth

    size = _LABEL_SIZE
    pad = size * 0.3
    width = stringWidth(label, LABEL_FONT, size) + 2 * pad
    height = size * 1.3
    f = frame
    return (
        f'<rect x="{_fmt(f.x)}" y="{_fmt(f.y)}" width="{_fmt(f.w)}" height="{_fmt(f.h)}" fill="none"'
        f' stroke="{ink}" stroke-width="0.25" stroke-dasharray="1 0.6"/>'
        f'<rect x="{_fmt(f.right - width)}" y="{_fmt(f.y - height)}" width="{_fmt(width)}" height="{_fmt(height)}"'
        f' fill="{ink}"/>'
        f'<text x="{_fmt(f.right - pad)}" y="{_fmt(f.y - height + size * 0.98)}" {family_attribute(_LABEL_FAMILY)}'
        f' font-size="{_fmt(size)}" font-weight="bold" fill="#ffffff" text-anchor="end">{label}</text>'
    )


def _fmt(v: float) -> str:
    return decimal(v)
