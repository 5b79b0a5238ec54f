"""Tuck boxes: the flat net of a box for a deck, as pure geometry in millimetres.

The net, left to right: front, side, back, side, glue flap (glued inside the
front's free edge).  The back carries the lid and its tuck flap at the top and
the bottom, the sides carry dust flaps, and the front has a thumb notch.
y grows downwards; the net's top-left corner is (0, 0).

    +----------------------------------+        tuck flap (T)
    |         [lid, D]                 |        lid (D)
    |  dust |            | dust        |
    +-------+------+-----+------+------+--+
    | front | side | back | side | glue |      body (H)
    +-------+------+-----+------+------+--+
       ... the same again below: dust flaps, bottom, tuck flap

Inside, the box is the card size plus a little play, and as deep as the cards
stacked at ``thickness`` each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..definitions.presets import Paper
from ..geometry import Box
from .grids import LayoutError

CARD_THICKNESS = 0.3  # mm: a typical 300 gsm card
PLAY = 1.0  # mm added to the width, height and depth so cards slide in and out
_MIN_DEPTH = 5.0  # mm
Point = tuple[float, float]


@dataclass(frozen=True)
class _Segment:
    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def length(self) -> float:
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)


@dataclass(frozen=True)
class TuckBox:
    """The net of a tuck box: panels, the cut outline (a closed polygon) and the fold lines."""

    width: float  # inside: W, H, D
    height: float
    depth: float
    tuck: float  # tuck flap length T
    dust: float  # dust flap length F
    glue: float  # glue flap width G
    inset: float  # how much narrower the tuck flap is on each side than the lid
    notch: float  # thumb notch radius
    panels: dict[str, Box]
    outline: tuple[Point, ...]
    folds: tuple[_Segment, ...]

    @property
    def size(self) -> tuple[float, float]:
        xs, ys = [p[0] for p in self.outline], [p[1] for p in self.outline]
        return max(xs) - min(xs), max(ys) - min(ys)


def _arc(cx: float, cy: float, r: float, start: float, end: float, steps: int = 8) -> list[Point]:
    """Points on a circle from angle ``start`` to ``end`` (degrees, y down), both ends included."""
    return [
        (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
        for a in (start + (end - start) * i / steps for i in range(steps + 1))
    ]


def tuck_box(card_w: float, card_h: float, cards: int, thickness: float = CARD_THICKNESS) -> TuckBox:
    """The net of a tuck box holding ``cards`` cards of ``card_w`` x ``card_h`` mm, each ``thickness`` thick."""
    if card_w <= 0 or card_h <= 0 or thickness <= 0 or cards < 0:
        raise LayoutError("a tuck box needs a positive card size, card thickness and card count")
    W, H = card_w + PLAY, card_h + PLAY
    D = max(_MIN_DEPTH, cards * thickness + PLAY)
    T = min(max(D + 5.0, 12.0), 20.0, H / 3)  # tuck flap
    F = min(max(D, 10.0), 0.45 * W, D + T)  # dust flap
    G = min(12.0, W / 4)  # glue flap
    i = min(1.0, W / 20)  # tuck flap inset
    R = min(7.5, W / 6, T)  # thumb notch
    a = min(2.0, D / 4)  # dust flap chamfer
    c = min(G, H / 8)  # glue flap chamfer
    top, bottom = T + D, T + D + H  # the body's top and bottom edges
    x_side1, x_back, x_side2, x_glue = W, W + D, 2 * W + D, 2 * W + 2 * D
    x_end = x_glue + G
    panels = {
        "front": Box(0, top, W, H),
        "side-1": Box(x_side1, top, D, H),
        "back": Box(x_back, top, W, H),
        "side-2": Box(x_side2, top, D, H),
        "glue": Box(x_glue, top, G, H),
        "lid": Box(x_back, T, W, D),
        "tuck": Box(x_back + i, 0, W - 2 * i, T),
        "bottom": Box(x_back, bottom, W, D),
        "bottom-tuck": Box(x_back + i, bottom + D, W - 2 * i, T),
        "dust-1": Box(x_side1, top - F, D, F),
        "dust-2": Box(x_side2, top - F, D, F),
        "bottom-dust-1": Box(x_side1, bottom, D, F),
        "bottom-dust-2": Box(x_side2, bottom, D, F),
    }
    r = min(T / 2, (W - 2 * i) / 4)  # rounded tuck flap corners
    pts: list[Point] = [(0.0, top), (W / 2 - R, top)]
    pts += _arc(W / 2, top, R, 180, 0)[1:-1]  # the thumb notch dips into the front
    pts += [(W / 2 + R, top), (W, top)]
    pts += [(x_side1 + a, top - F), (x_back - a, top - F), (x_back, top)]
    pts += [(x_back, T), (x_back + i, T)]
    pts += _arc(x_back + i + r, r, r, 180, 270)
    pts += _arc(x_side2 - i - r, r, r, 270, 360)
    pts += [(x_side2 - i, T), (x_side2, T), (x_side2, top)]
    pts += [(x_side2 + a, top - F), (x_glue - a, top - F), (x_glue, top)]
    pts += [(x_end, top + c), (x_end, bottom - c), (x_glue, bottom)]
    pts += [(x_glue - a, bottom + F), (x_side2 + a, bottom + F), (x_side2, bottom)]
    pts += [(x_side2, bottom + D), (x_side2 - i, bottom + D)]
    end = bottom + D + T
    pts += _arc(x_side2 - i - r, end - r, r, 0, 90)
    pts += _arc(x_back + i + r, end - r, r, 90, 180)
    pts += [(x_back + i, bottom + D), (x_back, bottom + D), (x_back, bottom)]
    pts += [(x_back - a, bottom + F), (x_side1 + a, bottom + F), (x_side1, bottom)]
    pts += [(0.0, bottom)]
    folds = [_Segment(x, top, x, bottom) for x in (x_side1, x_back, x_side2, x_glue)]
    folds += [
        _Segment(x1, y, x2, y) for y in (top, bottom) for x1, x2 in ((x_side1, x_back), (x_back, x_side2), (x_side2, x_glue))
    ]
    folds += [_Segment(x_back + i, T, x_side2 - i, T), _Segment(x_back + i, bottom + D, x_side2 - i, bottom + D)]
    outline = tuple((round(x, 6), round(y, 6)) for x, y in _dedupe(pts))
    folds = [_Segment(*(round(v, 6) for v in (f.x1, f.y1, f.x2, f.y2))) for f in folds]
    return TuckBox(W, H, D, T, F, G, i, R, panels, outline, tuple(folds))


def _dedupe(points: list[Point]) -> list[Point]:
    out: list[Point] = []
    for p in points:
        if not out or math.dist(out[-1], p) > 1e-9:
            out.append(p)
    if len(out) > 1 and math.dist(out[0], out[-1]) <= 1e-9:
        out.pop()
    return out


@dataclass(frozen=True)
class BoxSheet:
    """Where the net goes on the paper: offset of its top-left corner, and whether it is turned a quarter."""

    paper: Paper
    x: float
    y: float
    turned: bool


def place_box(box: TuckBox, paper: Paper, margin: float = 5.0) -> BoxSheet:
    """The net centred on ``paper`` (turned a quarter, or the paper turned, when only that fits)."""
    w, h = box.size
    for sheet in (paper, paper.oriented(not paper.landscape)):
        for turned in (False, True):
            nw, nh = (h, w) if turned else (w, h)
            if nw <= sheet.width - 2 * margin + 1e-9 and nh <= sheet.height - 2 * margin + 1e-9:
                return BoxSheet(sheet, (sheet.width - nw) / 2, (sheet.height - nh) / 2, turned)
    raise LayoutError(
        f"the tuck box's net ({w:.0f} x {h:.0f} mm) does not fit on {paper.name} "
        f"({paper.width:g} x {paper.height:g} mm) with {margin:g} mm margins; choose larger paper (--paper a3)"
    )
