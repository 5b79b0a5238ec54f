"""Text fitting: shrink and wrap a text until it fits its box, using the metrics of the real fonts.

Lengths are millimetres (a font size in mm is the size of the em square).  A
:class:`Fitted` text knows its lines, their positions and the box they
actually cover, so a layout can be checked against the card's safe zone.
Texts may hold rich markup (see :mod:`.richtext`): bold and italic runs are
measured in their own faces and icons by their advance.  Fitting is a pure
function of its inputs (the text, the box, the fonts by their registered
names, which carry a digest of their files, and the icons it uses).

With ``tracking`` (a negative letter spacing in em) a text that does not fit
its lines at a size is tried with its letters set tighter, step by step, before
it is set smaller; of the trackings that fit at a size, the one giving the
fewest lines wins, the loosest of those on a tie.

With ``overflow=True`` a text that does not fit even at the minimum size is
laid out at that size anyway, running out of its box, and :attr:`Fitted.overflow`
says how many characters to cut (draft builds draw it in red).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache

from markupsafe import Markup, escape

from ..geometry import Box
from ..resources.fonts import FontBook, family_attribute, register_fonts
from ..units import decimal
from .overflow import OVERFLOW_INK, characters_to_cut, overflow_marks, untranslated_marks
from .richtext import Icon, Paragraph, Piece, icon_names, parse, words


class TextDoesNotFit(Exception):
    """Raised by :func:`fit_lines` when a text cannot fit even at the minimum size."""


class UnknownIcon(Exception):
    """Raised by :func:`fit_lines` for a ``:name:`` that is no icon."""


@cache
def _metrics(font: str) -> tuple[float, float]:
    """(ascent, descent) of a registered font, as fractions of the font size (descent positive)."""
    # reportlab loads with the first text measured, not with this module
    from reportlab.pdfbase.pdfmetrics import getFont

    register_fonts()
    face = getFont(font).face
    return face.ascent / 1000.0, -face.descent / 1000.0


def _width(text: str, font: str, size: float) -> float:
    # reportlab loads with the first text measured, not with this module
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, size)


_Faces = tuple[str, str, str, str]  # registered names: regular, bold, italic, bold italic
_Icons = tuple[Icon, ...]


def _face(faces: _Faces, bold: bool, italic: bool) -> str:
    return faces[(2 if italic else 0) + (1 if bold else 0)]


def _runs(pieces: tuple[Piece, ...], faces: _Faces) -> list[tuple[str, str | None, bool, bool]]:
    """(text, font, bold, italic) runs, text of the same markup merged; icons as (name, None, ...)."""
    out: list[tuple[str, str | None, bool, bool]] = []
    for p in pieces:
        if p.icon is not None:
            out.append((p.icon, None, p.bold, p.italic))
            continue
        font = _face(faces, p.bold, p.italic)
        if out and out[-1][1:] == (font, p.bold, p.italic):
            out[-1] = (out[-1][0] + p.text, font, p.bold, p.italic)
        else:
            out.append((p.text, font, p.bold, p.italic))
    return out


def _measure(pieces: tuple[Piece, ...], faces: _Faces, icons: dict[str, Icon], size: float, spacing: float = 0.0) -> float:
    """The advance of ``pieces``; ``spacing`` (mm) is added after every character of text."""
    return sum(
        icons[text].advance(size) if font is None else _width(text, font, size) + spacing * len(text)
        for text, font, _, _ in _runs(pieces, faces)
    )


def _wrap(
    paragraphs: tuple[Paragraph, ...],
    faces: _Faces,
    icons: dict[str, Icon],
    size: float,
    width: float,
    wrap: bool,
    force: bool,
    spacing: float = 0.0,
) -> list[tuple[Piece, ...]] | None:
    """Greedy wrap into lines of pieces; None when a word (or a whole line, without wrapping) is too wide.

    With ``force`` a line is never refused: a word too wide for the box stands on a line of its own.
    """
    lines: list[tuple[Piece, ...]] = []
    for paragraph in paragraphs:
        line: tuple[Piece, ...] = ()
        for space, word in words(paragraph):
            trial = (*line, space, *word) if line else word
            if not wrap or _measure(trial, faces, icons, size, spacing) <= width:
                line = trial
            elif not line or _measure(word, faces, icons, size, spacing) > width:
                if not force:
                    return None
                if line:
                    lines.append(line)
                line = word
            else:
                lines.append(line)
                line = word
        if not wrap and not force and _measure(line, faces, icons, size, spacing) > width:
            return None
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Run:
    """Part of a line in one face (or an icon), starting at ``x``."""

    text: str
    x: float
    weight: str = "normal"
    style: str = "normal"
    icon: Icon | None = None


@dataclass(frozen=True)
class Line:
    text: str
    x: float  # anchor position
    y: float  # baseline
    width: float
    runs: tuple[Run, ...] = ()  # set when the line mixes faces or holds icons


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
    overflow: int = 0  # characters to cut for the text to fit (drafts only; 0 when it fits)
    untranslated: str = ""  # the language an edition's text is not translated into (drafts only)
    tracking: float = 0.0  # letter spacing, in em (negative: tighter)

    @property
    def top(self) -> float:
        return self.box.y

    @property
    def bottom(self) -> float:
        return self.box.bottom

    def svg(self, extra: str = "") -> Markup:
        fill = OVERFLOW_INK if self.overflow else self.fill

        def attrs(weight: str, style: str, anchor: str) -> str:
            return (
                f' {family_attribute(self.family)} font-size="{_fmt(self.size)}" fill="{escape(fill)}"'
                + (f' font-weight="{weight}"' if weight != "normal" else "")
                + (f' font-style="{style}"' if style != "normal" else "")
                + (f' text-anchor="{anchor}"' if anchor != "start" else "")
                + (f' letter-spacing="{_fmt(self.tracking * self.size)}"' if self.tracking else "")
                + extra
            )

        out = []
        plain = attrs(self.weight, self.style, self.anchor)
        for line in self.lines:
            if not line.runs:
                out.append(f'<text x="{_fmt(line.x)}" y="{_fmt(line.y)}"{plain}>{escape(line.text)}</text>')
                continue
            for run in line.runs:
                if run.icon is not None:
                    out.append(run.icon.svg(run.x, line.y, self.size, fill))
                elif run.text:
                    out.append(
                        f'<text x="{_fmt(run.x)}" y="{_fmt(line.y)}"{attrs(run.weight, run.style, "start")}>{escape(run.text)}</text>'
                    )
        if self.overflow:
            out.append(overflow_marks(self.frame, self.overflow))
        elif self.untranslated:
            out.append(untranslated_marks(self.frame, self.untranslated))
        return Markup("".join(out))

    def __html__(self) -> str:
        return str(self.svg())


def _fmt(v: float) -> str:
    return decimal(v)


_ANCHORS = {"start": "start", "left": "start", "middle": "middle", "center": "middle", "end": "end", "right": "end"}


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
    rich: bool = True,
    fonts: FontBook | None = None,
    icons: Mapping[str, Icon] | None = None,
    overflow: bool = False,
    tracking: float = 0.0,
) -> Fitted:
    """The largest size from ``max_size`` down to ``min_size`` at which ``text`` fits ``box``.

    ``tracking`` (em, zero or negative) is the tightest letter spacing tried at
    each size, in steps of :data:`TRACKING_STEP`, before a smaller size is.

    ``rich`` reads ``**bold**``, ``*italic*`` and ``:icon:`` markup (icons from
    ``icons``); ``fonts`` gives the families (default: the shipped ones).
    Raises :class:`TextDoesNotFit` when even ``min_size`` is too large (unless
    ``overflow``), :class:`UnknownIcon` for an icon that is not in ``icons``.
    """
    text = str(text)
    book = fonts or _SHIPPED
    bold, italic = weight == "bold", style == "italic"
    faces: _Faces = (
        book.name(family, "bold" if bold else "normal", "italic" if italic else "normal"),
        book.name(family, "bold", "italic" if italic else "normal"),
        book.name(family, "bold" if bold else "normal", "normal" if italic else "italic"),  # italic inside italic is upright
        book.name(family, "bold", "normal" if italic else "italic"),
    )
    paragraphs = parse(text) if rich else tuple((Piece(line),) if line else () for line in text.split("\n"))
    used: list[Icon] = []
    for name in icon_names(paragraphs):
        icon = (icons or {}).get(name)
        if icon is None:
            close = difflib.get_close_matches(name, list(icons or {}), n=1, cutoff=0.6)
            raise UnknownIcon(f"unknown icon ':{name}:'" + (f" (did you mean ':{close[0]}:'?)" if close else ""))
        used.append(icon)
    return _fit_cached(
        paragraphs,
        box,
        family,
        faces,
        tuple(used),
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
        bool(overflow),
        float(tracking),
    )


_SHIPPED = FontBook()
TRACKING_STEP = 0.005  # em


def _trackings(tightest: float) -> tuple[float, ...]:
    """0 and every step of :data:`TRACKING_STEP` down to ``tightest`` (em)."""
    if tightest > 0:
        raise ValueError(f"tracking must be zero or negative (tighter), not {tightest}")
    steps = round(-tightest / TRACKING_STEP)
    return tuple(round(-i * TRACKING_STEP, 4) for i in range(steps + 1))


@lru_cache(maxsize=4096)
def _fit_cached(
    paragraphs,
    box,
    family,
    faces,
    used,
    max_size,
    min_size,
    weight,
    style,
    align,
    valign,
    leading,
    wrap,
    max_lines,
    fill,
    step,
    overflow,
    tightest,
) -> Fitted:
    anchor = _ANCHORS.get(align)
    if anchor is None:
        raise ValueError(f"align must be one of {', '.join(_ANCHORS)}, not '{align}'")
    icons = {icon.name: icon for icon in used}
    font = faces[0]
    ascent, descent = _metrics(font)

    def height(size: float, count: int) -> float:
        return size * (ascent + descent + (count - 1) * leading)

    trackings = _trackings(tightest)
    tracked: dict[float, float] = {}  # the tracking chosen at each size tried

    def attempt(size: float, paras: tuple[Paragraph, ...] = paragraphs) -> list[tuple[Piece, ...]] | None:
        best: list[tuple[Piece, ...]] | None = None
        for em in trackings:
            lines = _wrap(paras, faces, icons, size, box.w, wrap, force=False, spacing=em * size)
            if lines is None or (max_lines is not None and len(lines) > max_lines):
                continue
            if height(size, len(lines)) > box.h + 1e-9 or (best is not None and len(lines) >= len(best)):
                continue
            best, tracked[size] = lines, em
        return best

    steps = max(0, round((max_size - min_size) / step))
    sizes = [round(max_size - i * step, 4) for i in range(steps + 1)]
    if sizes[-1] > min_size:
        sizes.append(min_size)
    chosen = attempt(sizes[0])
    size = sizes[0]
    cut = 0
    if chosen is None:
        # the largest size that fits: binary search (fitting is monotonic in size)
        lo, hi = 1, len(sizes) - 1  # sizes[0] fails
        last = attempt(sizes[hi])
        if last is None:
            if not overflow:
                raise TextDoesNotFit(
                    f"does not fit its {_fmt(box.w)} × {_fmt(box.h)} mm box even at the minimum size {_fmt(min_size)} mm"
                )
            size = sizes[-1]
            cut = characters_to_cut(paragraphs, lambda paras: attempt(size, paras) is not None)
            forced = _wrap(paragraphs, faces, icons, size, box.w, wrap, force=True)
            assert forced is not None
            return _place(
                forced, box, family, faces, icons, size, weight, style, anchor, valign, leading, fill, cut, overflow=True
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
    return _place(
        chosen,
        box,
        family,
        faces,
        icons,
        size,
        weight,
        style,
        anchor,
        valign,
        leading,
        fill,
        cut,
        tracking=tracked.get(size, 0.0),
    )


def _place(
    chosen,
    box,
    family,
    faces,
    icons,
    size,
    weight,
    style,
    anchor,
    valign,
    leading,
    fill,
    cut,
    overflow: bool = False,
    tracking: float = 0.0,
) -> Fitted:
    """Baselines and run positions for the chosen lines, and the box their glyphs cover."""
    ascent, descent = _metrics(faces[0])
    height = size * (ascent + descent + (len(chosen) - 1) * leading)
    if overflow or valign not in ("middle", "bottom"):
        top = box.y
    elif valign == "middle":
        top = box.y + (box.h - height) / 2
    else:
        top = box.bottom - height
    x = box.x if anchor == "start" else box.cx if anchor == "middle" else box.right
    lines = []
    left, right = box.right, box.x
    for i, pieces in enumerate(chosen):
        runs = _runs(pieces, faces)
        spacing = tracking * size
        width = sum(icons[t].advance(size) if f is None else _width(t, f, size) + spacing * len(t) for t, f, _, _ in runs)
        y = top + size * ascent + i * size * leading
        start = x if anchor == "start" else x - width / 2 if anchor == "middle" else x - width
        text = "".join(p.text for p in pieces)
        placed: tuple[Run, ...] = ()
        if len(runs) > 1 or (runs and runs[0][1:] != (faces[0], False, False)):
            placed = _place_runs(runs, icons, start, size, weight, style, spacing)
        lines.append(Line(text, x, y, width, placed))
        left, right = min(left, start), max(right, start + width)
    if right < left:  # empty text
        left = right = x
    return Fitted(
        tuple(lines),
        size,
        family,
        weight,
        style,
        faces[0],
        anchor,
        fill,
        Box(left, top, right - left, height),
        box,
        cut,
        tracking=tracking,
    )


def _place_runs(
    runs, icons: dict[str, Icon], start: float, size: float, weight: str, style: str, spacing: float = 0.0
) -> tuple[Run, ...]:
    """Each run at its own x; spaces at a run's ends are advanced over, not written (SVG would drop them)."""
    out = []
    x = start
    for text, font, bold, italic in runs:
        if font is None:
            out.append(Run(text, x, icon=icons[text]))
            x += icons[text].advance(size)
            continue
        lead = len(text) - len(text.lstrip(" "))
        run_weight = "bold" if bold or weight == "bold" else "normal"
        run_style = "italic" if (style == "italic") != italic else "normal"
        out.append(Run(text.strip(" "), x + _width(" " * lead, font, size) + spacing * lead, run_weight, run_style))
        x += _width(text, font, size) + spacing * len(text)
    return tuple(out)
