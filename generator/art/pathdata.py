"""Path data in a unit box: the small geometry that symbols and art are drawn with.

Every shape is drawn in a box from -1 to 1 (y down, as in SVG) with absolute
M, L, C, A and Z commands only, and placed on a card by :func:`place`, which
scales, turns and moves the coordinates themselves (no transform attribute).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache, lru_cache

from ..units import decimal

Point = tuple[float, float]


def path_element(d: str, **paint: str) -> str:
    """A ``<path>`` element with path data ``d`` and these attributes, built with svgwrite (which escapes
    every attribute); attribute names with ``-`` are given as ``fill_rule`` and the like."""
    from svgwrite.path import Path  # loaded when the first path is drawn, not by every command

    return Path(d=d, debug=False, **{name.replace("_", "-"): value for name, value in paint.items()}).tostring()


def fmt(v: float) -> str:
    return decimal(v)


def poly(points: Sequence[Point]) -> str:
    """A closed polygon."""
    return "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in points) + " Z"


def star(points: int, outer: float = 1.0, inner: float = 0.45, rotation: float = -90, cx: float = 0.0, cy: float = 0.0) -> str:
    pts = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(rotation + i * 180 / points)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return poly(pts)


def circle(r: float = 1.0, cx: float = 0.0, cy: float = 0.0, clockwise: bool = False) -> str:
    """A circle as two arcs (counter-clockwise on the page unless ``clockwise``)."""
    s = 1 if clockwise else 0
    return (
        f"M{fmt(cx - r)},{fmt(cy)} A{fmt(r)},{fmt(r)} 0 1,{s} {fmt(cx + r)},{fmt(cy)} "
        f"A{fmt(r)},{fmt(r)} 0 1,{s} {fmt(cx - r)},{fmt(cy)} Z"
    )


def rect(x0: float, y0: float, x1: float, y1: float) -> str:
    return poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def turn(points: Sequence[Point], degrees: float, cx: float = 0.0, cy: float = 0.0) -> list[Point]:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in points]


def mirror(points: Sequence[Point]) -> list[Point]:
    """Points reflected left to right (x to -x), in reverse order so the winding stays the same."""
    return [(-x, y) for x, y in reversed(points)]


def _bezier(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 16) -> list[Point]:
    """Points along a cubic Bézier curve (both ends included)."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (
                u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
            )
        )
    return out


def spline(points: Sequence[Point], steps: int = 10) -> list[Point]:
    """A smooth curve through ``points`` (Catmull-Rom), sampled ``steps`` times between each two."""
    pts = [points[0], *points, points[-1]]
    out: list[Point] = []
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        out += _bezier(p1, c1, c2, p2, steps)[(1 if out else 0) :]
    return out


def tube(spine: Sequence[Point], widths: Sequence[float]) -> list[Point]:
    """The outline of a stroke along ``spine`` whose width runs through ``widths`` (spread evenly along it)."""
    n = len(spine)
    left, right = [], []
    for i, (x, y) in enumerate(spine):
        a = spine[max(i - 1, 0)]
        b = spine[min(i + 1, n - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        t = i / (n - 1) * (len(widths) - 1)
        k = min(int(t), len(widths) - 2)
        w = (widths[k] + (widths[k + 1] - widths[k]) * (t - k)) / 2
        left.append((x - dy / d * w, y + dx / d * w))
        right.append((x + dy / d * w, y - dx / d * w))
    return left + right[::-1]


def _signed_area(points: Sequence[Point]) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True)) / 2


_TOKEN = re.compile(r"[MLCAZ]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?")
_ARITY = {"M": 2, "L": 2, "C": 6, "A": 7, "Z": 0}


@cache
def commands(d: str) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """Path data as (command, numbers) pairs; only absolute M, L, C, A and Z are used in the unit box."""
    tokens = _TOKEN.findall(d)
    out, i = [], 0
    while i < len(tokens):
        op = tokens[i]
        n = _ARITY[op]
        out.append((op, tuple(float(t) for t in tokens[i + 1 : i + 1 + n])))
        i += 1 + n
    return tuple(out)


@lru_cache(maxsize=16384)
def place(d: str, cx: float, cy: float, size: float, rotate: float = 0.0, flip: bool = False) -> str:
    """Path data ``d`` (unit box) scaled to ``size`` mm, turned ``rotate`` degrees and centred at (cx, cy);
    with ``flip``, mirrored left to right first."""
    s = size / 2
    a = math.radians(rotate)
    cos, sin = math.cos(a) * s, math.sin(a) * s
    fx = -1.0 if flip else 1.0

    def pt(x: float, y: float) -> str:
        x *= fx
        return f"{fmt(cx + x * cos - y * sin)},{fmt(cy + x * sin + y * cos)}"

    parts = []
    for op, v in commands(d):
        if op == "Z":
            parts.append("Z")
        elif op == "A":
            rx, ry, phi, large, sweep, x, y = v
            if flip:
                phi, sweep = -phi, 1 - sweep
            parts.append(f"A{fmt(rx * s)},{fmt(ry * s)} {fmt(phi + rotate)} {int(large)},{int(sweep)} {pt(x, y)}")
        else:
            parts.append(op + " ".join(pt(v[i], v[i + 1]) for i in range(0, len(v), 2)))
    return " ".join(parts)


def subpaths(d: str) -> list[str]:
    """Path data split into its subpaths (each from an M to its Z)."""
    return ["M" + part.strip() for part in d.split("M") if part.strip()]


def reverse(sub: str) -> str:
    """One subpath drawn the other way round (same shape, opposite winding)."""
    cmds = commands(sub)
    start = cmds[0][1]
    points = [start]
    segments = []
    for op, v in cmds[1:]:
        if op == "Z":
            continue
        segments.append((op, v, points[-1]))
        points.append(v[-2:])
    out = [f"M{fmt(points[-1][0])},{fmt(points[-1][1])}"]
    for op, v, before in reversed(segments):
        if op == "L":
            out.append(f"L{fmt(before[0])},{fmt(before[1])}")
        elif op == "C":
            out.append(f"C{fmt(v[2])},{fmt(v[3])} {fmt(v[0])},{fmt(v[1])} {fmt(before[0])},{fmt(before[1])}")
        else:  # A
            out.append(f"A{fmt(v[0])},{fmt(v[1])} {fmt(v[2])} {int(v[3])},{1 - int(v[4])} {fmt(before[0])},{fmt(before[1])}")
    return " ".join(out) + " Z"


def compose(solid: str, holes: str = "") -> str:
    """Parts that join and holes cut out of them, for the non-zero fill rule: every part of ``solid`` is
    turned clockwise on the page and every part of ``holes`` the other way, so overlapping parts join
    and holes stay holes whatever they overlap."""
    # pathpoints loads numpy: only art that cuts holes needs it
    from ..pathpoints import path_points

    def oriented(sub: str, clockwise: bool) -> str:
        pts = path_points(sub)
        area = _signed_area([(float(x), float(y)) for x, y in pts])
        return sub if (area > 0) == clockwise else reverse(sub)

    return " ".join([oriented(s, True) for s in subpaths(solid)] + [oriented(h, False) for h in subpaths(holes)])
