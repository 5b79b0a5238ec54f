"""Places on a card: pip layouts as on playing cards, points round a circle, symmetric scatters.

Each place has x, y (mm) and ``rotate`` (degrees), ready for ``symbols(...)``.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

# Pip positions of the usual playing-card layouts, in a unit box (0..1 across and down).
_PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
    5: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)),
    6: ((0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    7: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    8: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.5, 0.75), (0.0, 1.0), (1.0, 1.0)),
    9: ((0.0, 0.0), (1.0, 0.0), (0.0, 1 / 3), (1.0, 1 / 3), (0.5, 0.5), (0.0, 2 / 3), (1.0, 2 / 3), (0.0, 1.0), (1.0, 1.0)),
    10: (
        (0.0, 0.0),
        (1.0, 0.0),
        (0.5, 1 / 6),
        (0.0, 1 / 3),
        (1.0, 1 / 3),
        (0.0, 2 / 3),
        (1.0, 2 / 3),
        (0.5, 5 / 6),
        (0.0, 1.0),
        (1.0, 1.0),
    ),
}


class _Pip(NamedTuple):
    x: float
    y: float
    rotate: float  # 180 for pips in the lower half, drawn upside down as on playing cards


def pip_layout(count: int, box: Any) -> list[_Pip]:
    """Centres of ``count`` pips spread over ``box`` (an object with x, y, w, h)."""
    count = int(count)
    if count not in _PIP_LAYOUTS:
        raise ValueError(f"no pip layout for {count} pips (1 to 10)")
    return [_Pip(box.x + u * box.w, box.y + v * box.h, 180.0 if v > 0.5 + 1e-9 else 0.0) for u, v in _PIP_LAYOUTS[count]]


def around(cx: float, cy: float, r: float, count: int, offset: float = 0.0) -> list[_Pip]:
    """``count`` points evenly round a circle, starting at the top (plus ``offset`` degrees) clockwise;
    each point's ``rotate`` turns a symbol to face outwards."""
    out = []
    for i in range(int(count)):
        a = offset + 360.0 * i / int(count)
        rad = math.radians(a)
        out.append(_Pip(cx + r * math.sin(rad), cy - r * math.cos(rad), a))
    return out


def scatter(count: int, box: Any, seed: int = 1) -> list[_Pip]:
    """``count`` pairs of points spread over ``box``, each pair mirrored through its centre
    (a pattern that looks the same either way up).  The same on every run."""
    state = (int(seed) * 2654435761 + 12345) & 0xFFFFFFFF
    out = []
    for _ in range(int(count)):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        u = state / 0x7FFFFFFF
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        v = state / 0x7FFFFFFF / 2
        out.append(_Pip(box.x + u * box.w, box.y + v * box.h, 0.0))
        out.append(_Pip(box.x + (1 - u) * box.w, box.y + (1 - v) * box.h, 0.0))
    return out
