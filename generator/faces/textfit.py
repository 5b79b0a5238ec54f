"""Text fitting: shrink and wrap a text until it fits its box, using the metrics of the shipped fonts.

Lengths are millimetres (a font size in mm is the size of the em square).  A
:class:`Fitted` text knows its lines, their positions and the box they
actually cover, so a layout can be checked against the card's safe zone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from markupsafe import Markup, escape

from ..geometry import Box
from .fonts import font_name, register_fonts


class TextDoesNotFit(Exception):
    """Raised by :func:`fit_lines` when a text cannot fit even at the minimum size."""


@cache
def _metrics(font: str) -> tuple[float, float]:
    """(ascent, descent) of a registered font, as fractions of the font size (descent positive)."""
    from reportlab.pdfbase.pdfmetrics import getFont

    register_fonts()
    face = getFont(font).face
    return face.ascent / 1000.0, -face.descent / 1000.0


def _width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, size)


def _wrap(text: str, font: str, size: float, width: float, wrap: bool) -> list[str] | None:
    """Greedy wrap; None when a single word (or the whole line, without wrapping) is too wide."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not wrap:
            line = " ".join(words)
            if _width(line, font, size) > width:
                return None
            lines.append(line)
            continue
        line = ""
        for word in words:
            trial = f"{line} {word}" if line else word
            if _width(trial, font, size) <= width:
                line = trial
            elif not line or _width(word, font, size) > width:
                return None
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Line:
    text: str
    x: float  # anchor position
    y: float  # baseline
    width: float


@dataclass(frozen=True)
class Fitted:
    """A text laid out in a box: lines with baselines, the size chosen and the box covered."""

    lines: tuple[Line, ...]
    size: float
    family: str
    weight: str
    style: str
    font: str
    anchor: str
    fill: str
    box: Box  # the area the glyphs may cover (ascent to descent of every line)
    frame: Box  # the box that was asked for

    @property
    def top(self) -> float:
        return self.box.y

    @property
    def bottom(self) -> float:
        return self.box.bottom

    def svg(self, extra: str = "") -> Markup:
        attrs = (
            f' font-family="{escape(self.family)}" font-size="{_fmt(self.size)}" fill="{escape(self.fill)}"'
            + (f' font-weight="{self.weight}"' if self.weight != "normal" else "")
            + (f' font-style="{self.style}"' if self.style != "normal" else "")
            + (f' text-anchor="{self.anchor}"' if self.anchor != "start" else "")
            + extra
        )
        return Markup(
            "".join(f'<text x="{_fmt(line.x)}" y="{_fmt(line.y)}"{attrs}>{escape(line.text)}</text>' for line in self.lines)
        )

    def __html__(self) -> str:
        return str(self.svg())


def _fmt(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


ANCHORS = {"start": "start", "left": "start", "middle": "middle", "center": "middle", "end": "end", "right": "end"}


def fit_lines(
    text: str,
    box: Box,
    family: str,
    max_size: float,
    min_size: float,
    *,
    weight: str = "normal",
    style: str = "normal",
    align: str = "middle",
    valign: str = "top",
    leading: float = 1.2,
    wrap: bool = True,
    max_lines: int | None = None,
    fill: str = "#000000",
    step: float = 0.05,
) -> Fitted:
    """The largest size from ``max_size`` down to ``min_size`` at which ``text`` fits ``box``.

    Raises :class:`TextDoesNotFit` when even ``min_size`` is too large.
    """
    return _fit_cached(
        str(text),
        box,
        family,
        float(max_size),
        float(min_size),
        weight,
        style,
        align,
        valign,
        float(leading),
        bool(wrap),
        max_lines,
        fill,
        float(step),
    )


@lru_cache(maxsize=4096)
def _fit_cached(
    text, box, family, max_size, min_size, weight, style, align, valign, leading, wrap, max_lines, fill, step
) -> Fitted:
    anchor = ANCHORS.get(align)
    if anchor is None:
        raise ValueError(f"align must be one of {', '.join(ANCHORS)}, not '{align}'")
    font = font_name(family, weight, style)
    ascent, descent = _metrics(font)

    def attempt(size: float) -> list[str] | None:
        lines = _wrap(text, font, size, box.w, wrap)
        if lines is None or (max_lines is not None and len(lines) > max_lines):
            return None
        height = size * (ascent + descent + (len(lines) - 1) * leading)
        return lines if height <= box.h + 1e-9 else None

    steps = max(0, round((max_size - min_size) / step))
    sizes = [round(max_size - i * step, 4) for i in range(steps + 1)]
    if sizes[-1] > min_size:
        sizes.append(min_size)
    chosen = attempt(sizes[0])
    size = sizes[0]
    if chosen is None:
        # the largest size that fits: binary search (fitting is monotonic in size)
        lo, hi = 1, len(sizes) - 1  # sizes[0] fails
        last = attempt(sizes[hi])
        if last is None:
            raise TextDoesNotFit(
                f"does not fit its {_fmt(box.w)} × {_fmt(box.h)} mm box even at the minimum size {_fmt(min_size)} mm"
            )
        best, best_lines = hi, last
        hi -= 1
        while lo <= hi:
            mid = (lo + hi) // 2
            got = attempt(sizes[mid])
            if got is not None:
                best, best_lines = mid, got
                hi = mid - 1
            else:
                lo = mid + 1
        size, chosen = sizes[best], best_lines
    height = size * (ascent + descent + (len(chosen) - 1) * leading)
    if valign == "middle":
        top = box.y + (box.h - height) / 2
    elif valign == "bottom":
        top = box.bottom - height
    else:
        top = box.y
    if anchor == "start":
        x = box.x
    elif anchor == "middle":
        x = box.cx
    else:
        x = box.right
    lines = []
    left, right = box.right, box.x
    for i, line_text in enumerate(chosen):
        width = _width(line_text, font, size)
        y = top + size * ascent + i * size * leading
        lines.append(Line(line_text, x, y, width))
        start = x if anchor == "start" else x - width / 2 if anchor == "middle" else x - width
        left, right = min(left, start), max(right, start + width)
    if right < left:  # empty text
        left = right = x
    return Fitted(tuple(lines), size, family, weight, style, font, anchor, fill, Box(left, top, right - left, height), box)
