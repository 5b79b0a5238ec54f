"""``aetherpress calibrate``: a one-sheet duplex test that measures a printer's front/back offset.

The front page carries five thin crosses; the back page carries, at the
mirrored place of each cross, a horizontal and a vertical millimetre scale.
Print it on both sides, hold the sheet against a light with the back facing
you, and read where the front's lines cross the scales: the horizontal scale
gives DX, the vertical one DY.  Build with ``--offset DX,DY`` (add the
reading to the offset the page was printed with, shown on it).

A 100 mm bar on the front shows whether the page was printed at 100 %.  Every
label is 7 pt or larger, and offsets are written out (``DX = +1.5 mm, DY = 0 mm``)
so a comma is never read as a decimal point.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm

from ..geometry import Box
from ..imposition.layout import Layout
from ..imposition.mirror import mirror_rect
from ..project.files import atomic_output
from ..render.canvas import new_canvas

_SCALE = 10  # mm each way from the mirrored point
_CROSS = 18  # mm each way from a cross's centre
_AWAY = 13  # mm from the mirrored centre to each scale (so the two scales never cross)
_BAR = 100.0  # mm: the scale check bar
_MIN_LABEL = 7.0  # pt: the smallest text on the page
LABEL_FONT = "SourceSans3-Regular"
_BOLD_FONT = "SourceSans3-Bold"


@dataclass(frozen=True)
class _Probe:
    """A cross on the front at (x, y) and the origin of its scales on the back."""

    front: tuple[float, float]
    back: tuple[float, float]


def probes(layout: Layout) -> list[_Probe]:
    """The front crosses (centre and four around it) and where their scales go on the back."""
    W, H = layout.paper.width, layout.paper.height
    mx = layout.mirrors_x()
    dx, dy = layout.offset
    points = [(W / 2, H / 2), (W * 0.27, H * 0.3), (W * 0.73, H * 0.3), (W * 0.27, H * 0.78), (W * 0.73, H * 0.78)]
    out = []
    for x, y in points:
        r = mirror_rect(Box(x, y, 0.0, 0.0), W, H, mx)
        out.append(_Probe((x, y), (r.x + dx, r.y + dy)))
    return out


def _fmt(v: float) -> str:
    return f"{v:+.1f}".replace("+0.0", "0").rstrip("0").rstrip(".") if v else "0"


def _offset_words(dx: float, dy: float) -> str:
    """An offset written out, never as '0,0' (which reads as a decimal number in much of the world)."""
    if not dx and not dy:
        return "no offset (DX = 0 mm, DY = 0 mm)"
    return f"DX = {_fmt(dx)} mm, DY = {_fmt(dy)} mm (--offset {_fmt(dx).lstrip('+')},{_fmt(dy).lstrip('+')})"


def write_calibration(target: Path, layout: Layout) -> Path:
    W, H = layout.paper.width, layout.paper.height
    with atomic_output(target) as tmp:
        canvas = new_canvas(
            tmp,
            (W, H),
            f"Duplex calibration ({layout.paper.name}, {layout.flip}-edge flip)",
            "Printer front/back offset test",
            f"calibration, {layout.paper.name}, {layout.flip}",
        )

        def y(v: float) -> float:
            return (H - v) * mm

        # front: crosses and instructions
        canvas.setLineWidth(0.12 * mm)
        for p in probes(layout):
            x0, y0 = p.front
            canvas.line((x0 - _CROSS) * mm, y(y0), (x0 + _CROSS) * mm, y(y0))
            canvas.line(x0 * mm, y(y0 - _CROSS), x0 * mm, y(y0 + _CROSS))
            canvas.circle(x0 * mm, y(y0), 1.5 * mm, stroke=1, fill=0)
        lines = [
            ("Duplex calibration", _BOLD_FONT, 14),
            (f"{layout.paper.name}, {layout.flip}-edge flip, printed with {_offset_words(*layout.offset)}", LABEL_FONT, 9),
            ("1. Print this sheet on both sides at 100 % (no 'fit to page'), with the same flip setting.", LABEL_FONT, 9),
            ("2. Hold it against a light with the back facing you; the front's crosses shine through.", LABEL_FONT, 9),
            ("3. Read where each cross's vertical line meets the horizontal scale (DX) and its", LABEL_FONT, 9),
            ("    horizontal line meets the vertical scale (DY); the five readings should agree.", LABEL_FONT, 9),
            ("4. Add them to the offset above and build with  aetherpress build --offset DX,DY", LABEL_FONT, 9),
            ("    (DX first, then DY, in millimetres with a decimal point: --offset 1.5,-0.5)", LABEL_FONT, 9),
        ]
        top = 12.0
        for text, font, size in lines:
            canvas.setFont(font, size)
            canvas.drawString(14 * mm, y(top), text)
            top += size * 0.3528 * 1.45
        _scale_bar(canvas, 14.0, H - 24.0, y)
        canvas.setFont(LABEL_FONT, 8)
        canvas.drawString(14 * mm, y(H - 10), "Front")
        canvas.showPage()

        # back: at each mirrored cross, a DX scale below it and a DY scale to its right;
        # the front's long lines reach both.
        for p in probes(layout):
            bx, by = p.back
            sy, sx = by + _AWAY, bx + _AWAY  # the DX scale's line, the DY scale's line
            canvas.setLineWidth(0.1 * mm)
            canvas.line((bx - _SCALE) * mm, y(sy), (bx + _SCALE) * mm, y(sy))
            canvas.line(sx * mm, y(by - _SCALE), sx * mm, y(by + _SCALE))
            for step in range(-2 * _SCALE, 2 * _SCALE + 1):
                v = step / 2
                tick = 3.0 if step % 10 == 0 else 2.0 if step % 2 == 0 else 1.0
                canvas.setLineWidth((0.15 if step == 0 else 0.08) * mm)
                canvas.line((bx + v) * mm, y(sy), (bx + v) * mm, y(sy + tick))  # DX ticks hang down
                canvas.line(sx * mm, y(by + v), (sx + tick) * mm, y(by + v))  # DY ticks point right
                if step % 10 == 0:
                    canvas.setFont(LABEL_FONT, _MIN_LABEL)
                    canvas.drawCentredString((bx + v) * mm, y(sy + 6.0), _fmt(v))
                    canvas.drawString((sx + 3.8) * mm, y(by + v + 0.9), _fmt(v))
            canvas.setFont(_BOLD_FONT, 8)
            canvas.drawRightString((bx - _SCALE - 1.5) * mm, y(sy + 1.4), "DX")
            canvas.drawCentredString(sx * mm, y(by - _SCALE - 2.0), "DY")
        canvas.setFont(_BOLD_FONT, 11)
        canvas.drawString(14 * mm, y(14), "Back: read the front's lines on these scales (mm)")
        canvas.setFont(LABEL_FONT, 8)
        canvas.drawString(14 * mm, y(H - 10), "Back")
        canvas.showPage()
        canvas.save()
    return target


def _scale_bar(canvas, x0: float, top: float, y) -> None:
    """A bar exactly _BAR mm long with a tick every 10 mm: measure it to check the page was not scaled."""
    canvas.setLineWidth(0.6 * mm)
    canvas.line(x0 * mm, y(top), (x0 + _BAR) * mm, y(top))
    canvas.setLineWidth(0.15 * mm)
    for i in range(int(_BAR // 10) + 1):
        tick = 3.0 if i % 5 == 0 else 1.8
        canvas.line((x0 + 10 * i) * mm, y(top - tick), (x0 + 10 * i) * mm, y(top + tick))
    canvas.setFont(_BOLD_FONT, 9)
    canvas.drawString((x0 + _BAR + 4) * mm, y(top + 1.2), f"{_BAR:g} mm")
    canvas.setFont(LABEL_FONT, 8)
    canvas.drawString(
        x0 * mm, y(top + 7), "Scale check: this bar is exactly 100 mm long when the page is printed at 100 % (actual size)."
    )
