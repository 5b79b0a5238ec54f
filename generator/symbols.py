"""Suit and card symbols as vector path data, so they print the same everywhere.

Each symbol is drawn in a unit box from -1 to 1 (y down, as in SVG) and
scaled into place by :func:`symbol_svg`.  Templates call ``symbol(...)``.
"""
from __future__ import annotations

import math
from typing import Callable

from markupsafe import Markup


def _fmt(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _poly(points: list[tuple[float, float]]) -> str:
    return "M" + " L".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points) + " Z"


def _star(points: int, outer: float = 1.0, inner: float = 0.45, rotation: float = -90) -> str:
    pts = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(rotation + i * 180 / points)
        pts.append((r * math.cos(a), r * math.sin(a)))
    return _poly(pts)


def _circle(r: float = 1.0, cx: float = 0.0, cy: float = 0.0) -> str:
    return (f"M{_fmt(cx - r)},{_fmt(cy)} A{_fmt(r)},{_fmt(r)} 0 1,0 {_fmt(cx + r)},{_fmt(cy)} "
            f"A{_fmt(r)},{_fmt(r)} 0 1,0 {_fmt(cx - r)},{_fmt(cy)} Z")


def _crown(points: int = 7) -> str:
    pts = [(-1.0, 0.75)]
    for i in range(points):
        x = -1.0 + 2.0 * i / (points - 1)
        pts.append((x, -0.85))
        if i < points - 1:
            pts.append((x + 1.0 / (points - 1), -0.05))
    pts.append((1.0, 0.75))
    return _poly(pts)


SYMBOLS: dict[str, Callable[[], str]] = {
    "circle": lambda: _circle(0.95),
    "star5": lambda: _star(5, 1.0, 0.42),
    "crown7": lambda: _crown(7),
    "hourglass": lambda: _poly([(-0.8, -1), (0.8, -1), (0.8, -0.85), (0.12, 0), (0.8, 0.85), (0.8, 1),
                                (-0.8, 1), (-0.8, 0.85), (-0.12, 0), (-0.8, -0.85)]),
    "diamond": lambda: _poly([(0, -1), (0.75, 0), (0, 1), (-0.75, 0)]),
    "house": lambda: _poly([(0, -1), (0.95, -0.15), (0.7, -0.15), (0.7, 0.95), (-0.7, 0.95), (-0.7, -0.15), (-0.95, -0.15)]),
    "shield": lambda: "M-0.85,-0.95 L0.85,-0.95 L0.85,0.05 C0.85,0.55 0.4,0.8 0,1 C-0.4,0.8 -0.85,0.55 -0.85,0.05 Z",
    "glyph": lambda: _poly([(0, -1), (0.9, 0), (0, 1), (-0.9, 0)]) + " " + _circle(0.35),
    "sail": lambda: "M-0.1,-1 L-0.1,0.6 L-0.9,0.6 Z M0.05,-0.85 C0.7,-0.4 0.85,0.1 0.75,0.6 L0.05,0.6 Z M-0.95,0.72 L0.95,0.72 L0.6,1 L-0.6,1 Z",
    "moon": lambda: "M0.25,-0.97 A1,1 0 1,0 0.25,0.97 A0.78,0.78 0 1,1 0.25,-0.97 Z",
    "sun": lambda: _star(12, 1.0, 0.72, -90) + " " + _circle(0.55),
    "wave": lambda: "M-1,-0.2 C-0.6,-0.8 -0.2,-0.8 0,-0.2 C0.2,0.4 0.6,0.4 1,-0.2 L1,0.35 C0.6,0.95 0.2,0.95 0,0.35 C-0.2,-0.25 -0.6,-0.25 -1,0.35 Z",
    "leaf": lambda: "M0,-1 C0.75,-0.5 0.75,0.45 0,1 C-0.75,0.45 -0.75,-0.5 0,-1 Z",
    "wyrm": lambda: "M-0.6,-0.9 C0.4,-1 0.9,-0.5 0.3,-0.1 C-0.3,0.3 -0.2,0.7 0.7,0.8 L0.6,1 C-0.5,0.95 -0.7,0.35 -0.05,-0.15 C0.45,-0.5 0.1,-0.75 -0.6,-0.65 Z",
    "knot": lambda: _circle(0.95) + " " + _circle(0.55),
    "earth": lambda: _poly([(-1, 0.85), (-0.35, -0.6), (0, -0.05), (0.35, -0.85), (1, 0.85)]),
    "fire": lambda: "M0,-1 C0.2,-0.5 0.85,-0.2 0.75,0.35 C0.7,0.8 0.35,1 0,1 C-0.35,1 -0.7,0.8 -0.75,0.35 C-0.8,-0.05 -0.35,-0.2 -0.3,-0.55 C-0.05,-0.35 0,-0.6 0,-1 Z",
    "water": lambda: "M0,-1 C0.3,-0.5 0.75,-0.05 0.75,0.35 C0.75,0.75 0.4,1 0,1 C-0.4,1 -0.75,0.75 -0.75,0.35 C-0.75,-0.05 -0.3,-0.5 0,-1 Z",
    "wood": lambda: _poly([(0, -1), (0.8, 0.3), (0.15, 0.3), (0.15, 1), (-0.15, 1), (-0.15, 0.3), (-0.8, 0.3)]),
    "air": lambda: "M-1,-0.35 L0.45,-0.35 C0.75,-0.35 0.9,-0.6 0.75,-0.8 L0.95,-0.9 C1.2,-0.5 0.9,-0.15 0.45,-0.15 L-1,-0.15 Z M-1,0.15 L0.55,0.15 C1,0.15 1.2,0.55 0.9,0.9 L0.7,0.8 C0.85,0.6 0.75,0.35 0.55,0.35 L-1,0.35 Z",
    "eye": lambda: "M-1,0 C-0.5,-0.7 0.5,-0.7 1,0 C0.5,0.7 -0.5,0.7 -1,0 Z " + _circle(0.32),
    "star8": lambda: _star(8, 1.0, 0.5),
    "sword": lambda: _poly([(0, -1), (0.12, -0.8), (0.12, 0.4), (0.45, 0.4), (0.45, 0.52), (0.1, 0.52),
                            (0.1, 0.85), (0.18, 1), (-0.18, 1), (-0.1, 0.85), (-0.1, 0.52), (-0.45, 0.52),
                            (-0.45, 0.4), (-0.12, 0.4), (-0.12, -0.8)]),
    "crown5": lambda: _crown(5),
    "egg": lambda: "M0,-1 C0.55,-1 0.8,0.05 0.8,0.35 C0.8,0.75 0.45,1 0,1 C-0.45,1 -0.8,0.75 -0.8,0.35 C-0.8,0.05 -0.55,-1 0,-1 Z",
    "spade": lambda: ("M0,-1 C0.35,-0.55 1,-0.3 0.92,0.2 C0.85,0.62 0.35,0.7 0.1,0.38 L0.32,1 L-0.32,1 L-0.1,0.38 "
                      "C-0.35,0.7 -0.85,0.62 -0.92,0.2 C-1,-0.3 -0.35,-0.55 0,-1 Z"),
    "heart": lambda: "M0,0.95 C-0.45,0.55 -1,0.15 -1,-0.38 C-1,-0.85 -0.35,-1.02 0,-0.55 C0.35,-1.02 1,-0.85 1,-0.38 C1,0.15 0.45,0.55 0,0.95 Z",
    "club": lambda: (_circle(0.4, 0, -0.52) + " " + _circle(0.4, -0.5, 0.12) + " " + _circle(0.4, 0.5, 0.12) + " "
                     + _poly([(-0.1, -0.2), (0.1, -0.2), (0.3, 1), (-0.3, 1)])),
}


def symbol_path(name: str) -> str:
    return SYMBOLS.get(name, SYMBOLS["diamond"])()


def symbol_svg(name: str, cx: float, cy: float, size: float, fill: str = "#000000",
               stroke: str | None = None, stroke_width: float = 0.0) -> Markup:
    """An SVG <path> of symbol ``name`` centred at (cx, cy), ``size`` mm across."""
    scale = size / 2
    extra = f' stroke="{stroke}" stroke-width="{_fmt(stroke_width / scale)}"' if stroke else ""
    return Markup(f'<path transform="translate({_fmt(cx)},{_fmt(cy)}) scale({_fmt(scale)})" '
                  f'd="{symbol_path(name)}" fill="{fill}" fill-rule="evenodd"{extra}/>')
