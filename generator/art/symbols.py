"""Suit and card symbols as vector path data, so they print the same everywhere.

Each symbol is drawn in a unit box from -1 to 1 (y down, as in SVG) and
scaled into place by :func:`symbol_svg`.  Templates call ``symbol(...)``.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from markupsafe import Markup

from .dragons import silhouette
from .pathdata import circle as _circle
from .pathdata import compose, path_element, place, spline, tube
from .pathdata import fmt as _fmt
from .pathdata import poly as _poly
from .pathdata import star as _star
from .spellicons import ICONS


def _double_spiral(turns: float = 1.6, width: float = 0.2) -> str:
    """Two spiral arms, each the other turned half round: the same either way up."""
    steps = 90
    arms = []
    for start in (0.0, math.pi):
        outer, inner = [], []
        for i in range(steps + 1):
            t = i / steps
            theta = start + t * turns * 2 * math.pi
            r = 0.06 + 0.86 * t
            w = width * (0.25 + 0.75 * math.sin(math.pi * min(t * 1.15, 1.0)) ** 0.5)
            outer.append(((r + w / 2) * math.cos(theta), (r + w / 2) * math.sin(theta)))
            inner.append((max(r - w / 2, 0.0) * math.cos(theta), max(r - w / 2, 0.0) * math.sin(theta)))
        arms.append(_poly(outer + inner[::-1]))
    return " ".join(arms)


def _air() -> str:
    """Three gusts of wind, each ending in a curl."""
    gusts = [
        [(-0.95, -0.5), (-0.2, -0.5), (0.35, -0.52), (0.62, -0.68), (0.52, -0.9), (0.3, -0.84)],
        [(-0.95, 0.02), (0.0, 0.02), (0.6, 0.0), (0.9, -0.18), (0.82, -0.44), (0.58, -0.4)],
        [(-0.7, 0.52), (-0.1, 0.52), (0.4, 0.54), (0.66, 0.7), (0.58, 0.92), (0.36, 0.86)],
    ]
    return compose(" ".join(_poly(tube(spline(g, 6), [0.13, 0.17, 0.15, 0.06])) for g in gusts))


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
    "hourglass": lambda: _poly(
        [
            (-0.8, -1),
            (0.8, -1),
            (0.8, -0.85),
            (0.12, 0),
            (0.8, 0.85),
            (0.8, 1),
            (-0.8, 1),
            (-0.8, 0.85),
            (-0.12, 0),
            (-0.8, -0.85),
        ]
    ),
    "diamond": lambda: _poly([(0, -1), (0.75, 0), (0, 1), (-0.75, 0)]),
    # a house with its chimney and an arched door (a notch, even-odd), unlike a shield either way up
    "house": lambda: (
        _poly(
            [
                (0, -1),
                (0.42, -0.62),
                (0.42, -0.92),
                (0.66, -0.92),
                (0.66, -0.4),
                (1, -0.08),
                (0.74, -0.08),
                (0.74, 0.95),
                (-0.74, 0.95),
                (-0.74, -0.08),
                (-1, -0.08),
            ]
        )
        + " M-0.22,0.95 L-0.22,0.42 C-0.22,0.16 0.22,0.16 0.22,0.42 L0.22,0.95 Z"
    ),
    # a heater shield charged with a cross (cut out)
    "shield": lambda: (
        "M-0.85,-0.95 L0.85,-0.95 L0.85,0.05 C0.85,0.55 0.4,0.8 0,1 C-0.4,0.8 -0.85,0.55 -0.85,0.05 Z "
        + _poly(
            [
                (-0.12, -0.76),
                (0.12, -0.76),
                (0.12, -0.3),
                (0.6, -0.3),
                (0.6, -0.06),
                (0.12, -0.06),
                (0.12, 0.66),
                (-0.12, 0.66),
                (-0.12, -0.06),
                (-0.6, -0.06),
                (-0.6, -0.3),
                (-0.12, -0.3),
            ]
        )
    ),
    "glyph": lambda: _poly([(0, -1), (0.9, 0), (0, 1), (-0.9, 0)]) + " " + _circle(0.35),
    "sail": lambda: (
        "M-0.1,-1 L-0.1,0.6 L-0.9,0.6 Z M0.05,-0.85 C0.7,-0.4 0.85,0.1 0.75,0.6 L0.05,0.6 Z M-0.95,0.72 L0.95,0.72 L0.6,1 L-0.6,1 Z"
    ),
    "moon": lambda: "M0.6,-0.97 A1,1 0 1,0 0.6,0.97 A0.78,0.78 0 1,1 0.6,-0.97 Z",
    "sun": lambda: _star(12, 1.0, 0.72, -90) + " " + _circle(0.55),
    "wave": lambda: (
        "M-1,-0.2 C-0.6,-0.8 -0.2,-0.8 0,-0.2 C0.2,0.4 0.6,0.4 1,-0.2 L1,0.35 C0.6,0.95 0.2,0.95 0,0.35 C-0.2,-0.25 -0.6,-0.25 -1,0.35 Z"
    ),
    "leaf": lambda: "M0,-1 C0.75,-0.5 0.75,0.45 0,1 C-0.75,0.45 -0.75,-0.5 0,-1 Z",
    "wyrm": lambda: (
        "M-0.6,-0.9 C0.4,-1 0.9,-0.5 0.3,-0.1 C-0.3,0.3 -0.2,0.7 0.7,0.8 L0.6,1 C-0.5,0.95 -0.7,0.35 -0.05,-0.15 C0.45,-0.5 0.1,-0.75 -0.6,-0.65 Z"
    ),
    "knot": lambda: _circle(0.95) + " " + _circle(0.55),
    "earth": lambda: _poly([(-1, 0.85), (-0.35, -0.6), (0, -0.05), (0.35, -0.85), (1, 0.85)]),
    # a flame of three tongues round an inner flame (cut out)
    "fire": lambda: (
        "M0,-1 C0.25,-0.6 0.55,-0.45 0.5,-0.1 C0.62,-0.3 0.72,-0.45 0.7,-0.66 C0.95,-0.32 1,0.1 0.9,0.4 "
        "C0.78,0.8 0.42,1 0,1 C-0.42,1 -0.78,0.8 -0.9,0.4 C-1,0.1 -0.95,-0.32 -0.7,-0.66 "
        "C-0.72,-0.45 -0.62,-0.3 -0.5,-0.1 C-0.55,-0.45 -0.25,-0.6 0,-1 Z "
        "M0,-0.12 C0.14,0.1 0.36,0.28 0.33,0.52 C0.3,0.74 0.16,0.82 0,0.82 C-0.16,0.82 -0.3,0.74 -0.33,0.52 C-0.36,0.28 -0.14,0.1 0,-0.12 Z"
    ),
    # a drop with its highlight (cut out) over a ripple
    "water": lambda: (
        "M0,-1 C0.28,-0.55 0.68,-0.15 0.68,0.22 C0.68,0.6 0.38,0.8 0,0.8 C-0.38,0.8 -0.68,0.6 -0.68,0.22 C-0.68,-0.15 -0.28,-0.55 0,-1 Z "
        "M0.36,0.16 C0.42,0.4 0.3,0.58 0.08,0.64 L0.1,0.52 C0.24,0.48 0.3,0.36 0.26,0.18 Z "
        "M-1,0.86 C-0.66,0.74 -0.34,0.98 0,0.86 C0.34,0.74 0.66,0.98 1,0.86 L1,1 C0.66,1.1 0.34,0.88 0,1 C-0.34,1.1 -0.66,0.88 -1,1 Z"
    ),
    "wood": lambda: _poly([(0, -1), (0.8, 0.3), (0.15, 0.3), (0.15, 1), (-0.15, 1), (-0.15, 0.3), (-0.8, 0.3)]),
    "air": lambda: _air(),
    "eye": lambda: "M-1,0 C-0.5,-0.7 0.5,-0.7 1,0 C0.5,0.7 -0.5,0.7 -1,0 Z " + _circle(0.32),
    "star8": lambda: _star(8, 1.0, 0.5),
    "sword": lambda: _poly(
        [
            (0, -1),
            (0.12, -0.8),
            (0.12, 0.4),
            (0.45, 0.4),
            (0.45, 0.52),
            (0.1, 0.52),
            (0.1, 0.85),
            (0.18, 1),
            (-0.18, 1),
            (-0.1, 0.85),
            (-0.1, 0.52),
            (-0.45, 0.52),
            (-0.45, 0.4),
            (-0.12, 0.4),
            (-0.12, -0.8),
        ]
    ),
    "crown5": lambda: _crown(5),
    # the flying dragon of the Pernese Wingsecond as one shape (dragons.py), non-zero: the eye is a hole
    "dragon": lambda: silhouette("dragon-flight"),
    "scales": lambda: (
        "M-0.06,-0.9 L0.06,-0.9 L0.06,0.8 L0.4,0.8 L0.4,0.95 L-0.4,0.95 L-0.4,0.8 L-0.06,0.8 Z "
        "M-0.85,-0.62 L0.85,-0.62 L0.85,-0.52 L-0.85,-0.52 Z "
        "M-0.75,-0.55 L-1,0.15 L-0.5,0.15 Z M0.75,-0.55 L0.5,0.15 L1,0.15 Z "
        "M-1,0.15 C-0.95,0.42 -0.55,0.42 -0.5,0.15 Z M0.5,0.15 C0.55,0.42 0.95,0.42 1,0.15 Z"
    ),
    "lotus": lambda: (
        "M0,-1 C0.32,-0.6 0.32,-0.05 0,0.55 C-0.32,-0.05 -0.32,-0.6 0,-1 Z "
        "M-0.08,0.55 C-0.6,0.35 -0.85,-0.1 -0.8,-0.6 C-0.45,-0.35 -0.2,0 -0.08,0.55 Z "
        "M0.08,0.55 C0.6,0.35 0.85,-0.1 0.8,-0.6 C0.45,-0.35 0.2,0 0.08,0.55 Z "
        "M-1,0.62 C-0.5,0.85 0.5,0.85 1,0.62 C0.6,1 -0.6,1 -1,0.62 Z"
    ),
    "pawn": lambda: (
        _circle(0.3, 0, -0.62) + " M-0.22,-0.32 L0.22,-0.32 L0.32,-0.2 L0.14,-0.2 "
        "C0.18,0.2 0.3,0.5 0.55,0.7 L0.7,1 L-0.7,1 L-0.55,0.7 C-0.3,0.5 -0.18,0.2 -0.14,-0.2 "
        "L-0.32,-0.2 Z"
    ),
    "tower": lambda: (
        _poly(
            [
                (-0.7, -1),
                (-0.42, -1),
                (-0.42, -0.78),
                (-0.14, -0.78),
                (-0.14, -1),
                (0.14, -1),
                (0.14, -0.78),
                (0.42, -0.78),
                (0.42, -1),
                (0.7, -1),
                (0.7, -0.5),
                (0.48, -0.5),
                (0.58, 0.75),
                (0.8, 1),
                (-0.8, 1),
                (-0.58, 0.75),
                (-0.48, -0.5),
                (-0.7, -0.5),
            ]
        )
        + " M-0.14,1 L-0.14,0.5 C-0.14,0.2 0.14,0.2 0.14,0.5 L0.14,1 Z"
    ),
    "person": lambda: _circle(0.42, 0, -0.5) + " M-0.9,1 C-0.9,0.2 -0.5,0.02 0,0.02 C0.5,0.02 0.9,0.2 0.9,1 Z",
    "pin": lambda: (
        "M0,1 C-0.2,0.5 -0.75,0 -0.75,-0.35 C-0.75,-0.8 -0.4,-1 0,-1 C0.4,-1 0.75,-0.8 0.75,-0.35 C0.75,0 0.2,0.5 0,1 Z "
        + _circle(0.28, 0, -0.38)
    ),
    "bolt": lambda: _poly([(0.25, -1), (-0.6, 0.15), (-0.05, 0.15), (-0.3, 1), (0.6, -0.2), (0.05, -0.2), (0.4, -1)]),
    "spiral": lambda: (
        "M0,0 C0,-0.25 0.3,-0.25 0.3,0 C0.3,0.4 -0.45,0.4 -0.45,0 C-0.45,-0.65 0.6,-0.65 0.6,0 "
        "C0.6,0.85 -0.8,0.85 -0.8,0 C-0.8,-1.05 0.95,-1.05 0.95,0 L0.8,0 C0.8,-0.85 -0.65,-0.85 -0.65,0 "
        "C-0.65,0.65 0.45,0.65 0.45,0 C0.45,-0.45 -0.3,-0.45 -0.3,0 C-0.3,0.2 -0.12,0.2 -0.12,0 Z"
    ),
    "spiral2": lambda: _double_spiral(),
    "ray": lambda: _poly([(0, -1), (0.08, 0), (0, 1), (-0.08, 0)]),
    "star4": lambda: _star(4, 1.0, 0.25),
    "egg": lambda: (
        "M0,-1 C0.55,-1 0.8,0.05 0.8,0.35 C0.8,0.75 0.45,1 0,1 C-0.45,1 -0.8,0.75 -0.8,0.35 C-0.8,0.05 -0.55,-1 0,-1 Z"
    ),
    "spade": lambda: (
        "M0,-1 C0.22,-0.66 0.82,-0.4 0.82,0.04 C0.82,0.38 0.54,0.5 0.32,0.42 C0.22,0.38 0.14,0.3 0.08,0.2 "
        "C0.1,0.55 0.24,0.84 0.46,1 L-0.46,1 C-0.24,0.84 -0.1,0.55 -0.08,0.2 "
        "C-0.14,0.3 -0.22,0.38 -0.32,0.42 C-0.54,0.5 -0.82,0.38 -0.82,0.04 C-0.82,-0.4 -0.22,-0.66 0,-1 Z"
    ),
    "heart": lambda: (
        "M0,0.95 C-0.45,0.55 -1,0.15 -1,-0.38 C-1,-0.85 -0.35,-1.02 0,-0.55 C0.35,-1.02 1,-0.85 1,-0.38 C1,0.15 0.45,0.55 0,0.95 Z"
    ),
    "club": lambda: (
        _circle(0.4, 0, -0.58)
        + " "
        + _circle(0.4, -0.58, 0.1)
        + " "
        + _circle(0.4, 0.58, 0.1)
        + " M-0.1,-0.3 C-0.1,0.4 -0.2,0.8 -0.4,1 L0.4,1 C0.2,0.8 0.1,0.4 0.1,-0.3 Z"
    ),
}


SYMBOLS.update(ICONS)  # the Aetherial spells' icons (spellicons.py)


class _UnknownSymbol(ValueError):
    """A symbol name the library does not have."""


@cache
def symbol_path(name: str) -> str:
    """Path data of a symbol in its unit box."""
    if name not in SYMBOLS:
        close = difflib.get_close_matches(str(name), list(SYMBOLS), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise _UnknownSymbol(f"unknown symbol '{name}'{hint}; symbols: {', '.join(SYMBOLS)}")
    return SYMBOLS[name]()


def placed_path(name: str, cx: float, cy: float, size: float, rotate: float = 0.0) -> str:
    """Path data of symbol ``name`` scaled to ``size`` mm, turned ``rotate`` degrees and centred at (cx, cy).

    The transform is applied to the coordinates, so the SVG needs no transform
    attribute and many placed symbols can share one <path> element.
    """
    return place(symbol_path(name), cx, cy, size, rotate)


# symbols whose parts overlap and must join: filled non-zero (holes are drawn the other way round)
_NONZERO = {"dragon", "club", "spiral2", "air", *ICONS}


def _path(name: str, d: str, fill: str, stroke: str | None, stroke_width: float) -> Markup:
    """The <path> element of a symbol."""
    paint = {"fill": str(fill), "fill_rule": "nonzero" if name in _NONZERO else "evenodd"}
    if stroke and stroke_width:
        paint.update({"stroke": str(stroke), "stroke_width": _fmt(stroke_width)})
    return Markup(path_element(d, **paint))


def symbol_svg(
    name: str,
    cx: float,
    cy: float,
    size: float,
    fill: str = "#000000",
    stroke: str | None = None,
    stroke_width: float = 0.0,
    rotate: float = 0.0,
) -> Markup:
    """An SVG <path> of symbol ``name`` centred at (cx, cy), ``size`` mm across, turned ``rotate`` degrees.

    ``stroke_width`` is in millimetres.
    """
    return _path(name, placed_path(name, cx, cy, size, rotate), fill, stroke, stroke_width)


def symbols_svg(
    name: str, places: Iterable[Any], size: float, fill: str = "#000000", stroke: str | None = None, stroke_width: float = 0.0
) -> Markup:
    """One <path> holding symbol ``name`` at every place (objects with x, y and rotate), e.g. pips.

    One element instead of many keeps the SVG small and quick to draw; the
    places must not overlap (the path fills even-odd).
    """
    places = list(places)
    if not places:
        return Markup("")
    d = " ".join(placed_path(name, p.x, p.y, size, getattr(p, "rotate", 0.0)) for p in places)
    return _path(name, d, fill, stroke, stroke_width)
