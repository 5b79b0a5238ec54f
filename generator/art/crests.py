"""The crests of the four Founding cards, engraved in several tones.

The source says printers of Founder's Flip decks print "only symbols and lush
illustration" on the Founding cards.  Each crest keeps the card's emblem at
its heart (the Magist's eye, the Mage's eight-pointed star, the General's
sword, the Emperor's crown) and dresses it: the eye in a radiant triangle
over a scroll, the star over an open book, crossed swords in a laurel
wreath, a closed imperial crown with its orb, jewels and ermine.

Roles: ``main`` (the emblem, in the card's deep field colour), ``shade`` (its
second tone), ``light`` (highlights and pages), ``gold`` (metalwork) and
``gem`` (stones).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .pathdata import Point, circle, compose, mirror, poly, rect, spline, star, tube, turn

Layers = list[tuple[str, str]]


def _laurel(radius: float = 0.82, start: float = 120, end: float = 250, leaves: int = 7) -> list[list[Point]]:
    """A laurel branch along an arc on the left (mirror it for the right): the stem, then its leaves."""
    stem = [(radius * math.cos(math.radians(a)), radius * math.sin(math.radians(a))) for a in range(int(start), int(end) + 1, 5)]
    out = [tube(stem, [0.025, 0.04, 0.02])]
    for k in range(leaves):
        a = math.radians(start + (end - start) * (k + 0.5) / leaves)
        x, y = radius * math.cos(a), radius * math.sin(a)
        for side in (-1, 1):
            tip = (x + 0.2 * math.cos(a + side * 0.9), y + 0.2 * math.sin(a + side * 0.9))
            mid = ((x + tip[0]) / 2, (y + tip[1]) / 2)
            nx, ny = -(tip[1] - y), tip[0] - x
            out.append([(x, y), (mid[0] + nx * 0.3, mid[1] + ny * 0.3), tip, (mid[0] - nx * 0.3, mid[1] - ny * 0.3)])
    return out


def magist() -> Layers:
    """The all-seeing eye in a radiant triangle, over a scroll."""
    rays = " ".join(poly(turn([(-0.035, -0.2), (0.035, -0.2), (0.0, -0.98)], a, 0.0, -0.05)) for a in range(-90, 91, 15))
    outer = [(0.0, -0.78), (0.72, 0.45), (-0.72, 0.45)]
    inner = [(0.0, -0.58), (0.54, 0.34), (-0.54, 0.34)]
    eye = "M-0.4,0.02 C-0.2,-0.24 0.2,-0.24 0.4,0.02 C0.2,0.26 -0.2,0.26 -0.4,0.02 Z"
    scroll = "M-0.8,0.56 C-0.5,0.5 0.5,0.5 0.8,0.56 L0.74,0.8 C0.4,0.74 -0.4,0.74 -0.74,0.8 Z"
    ends = (
        poly([(-0.8, 0.56), (-0.98, 0.62), (-0.86, 0.7), (-0.98, 0.82), (-0.74, 0.8)])
        + " "
        + poly([(0.8, 0.56), (0.74, 0.8), (0.98, 0.82), (0.86, 0.7), (0.98, 0.62)])
    )
    lashes = " ".join(
        poly(tube([(0.4 * math.cos(a), 0.02 - 0.3 * math.sin(a)), (0.5 * math.cos(a), -0.06 - 0.36 * math.sin(a))], [0.03, 0.01]))
        for a in (math.radians(d) for d in (50, 70, 90, 110, 130))
    )
    return [
        ("gold", compose(rays)),
        ("main", compose(poly(outer) + " " + scroll + " " + ends, poly(inner))),
        ("light", compose(eye)),
        ("main", compose(circle(0.13, 0.0, 0.02) + " " + lashes)),
        ("gold", compose(circle(0.05, -0.04, -0.02) + " " + rect(-0.5, 0.62, 0.5, 0.65))),
    ]


def mage() -> Layers:
    """The eight-pointed star risen over an open book."""
    book = "M0,0.32 C-0.3,0.18 -0.62,0.2 -0.92,0.3 L-0.92,0.86 C-0.62,0.76 -0.3,0.76 0,0.9 C0.3,0.76 0.62,0.76 0.92,0.86 L0.92,0.3 C0.62,0.2 0.3,0.18 0,0.32 Z"
    cover = "M-0.98,0.36 L-0.98,0.96 C-0.62,0.86 -0.3,0.86 0,0.98 C0.3,0.86 0.62,0.86 0.98,0.96 L0.98,0.36 L0.92,0.38 L0.92,0.86 C0.62,0.76 0.3,0.76 0,0.9 C-0.3,0.76 -0.62,0.76 -0.92,0.86 L-0.92,0.38 Z"
    lines = " ".join(
        poly(tube(spline([(x0, y), ((x0 + x1) / 2, y - 0.05), (x1, y + 0.02)], 4), [0.025]))
        for y in (0.42, 0.54, 0.66)
        for x0, x1 in ((-0.8, -0.12), (0.12, 0.8))
    )
    glow = " ".join(poly(turn([(-0.03, -0.62), (0.03, -0.62), (0.0, -1.0)], a, 0.0, -0.3)) for a in range(0, 360, 30))
    return [
        ("gold", compose(glow)),
        ("main", compose(star(8, 0.62, 0.28, cx=0.0, cy=-0.3) + " " + cover)),
        ("light", compose(star(8, 0.36, 0.16, rotation=-67.5, cx=0.0, cy=-0.3) + " " + book)),
        ("gem", compose(circle(0.1, 0.0, -0.3))),
        ("shade", compose(lines + " " + poly(tube([(0.0, 0.32), (0.0, 0.9)], [0.03])))),
    ]


def general() -> Layers:
    """Two swords crossed in a laurel wreath."""
    blade = [(0.0, -0.95), (0.07, -0.82), (0.07, 0.3), (-0.07, 0.3), (-0.07, -0.82)]
    hilt = [[(-0.26, 0.3), (0.26, 0.3), (0.26, 0.38), (-0.26, 0.38)], [(-0.05, 0.38), (0.05, 0.38), (0.05, 0.62), (-0.05, 0.62)]]
    fuller = [(-0.015, -0.72), (0.015, -0.72), (0.015, 0.22), (-0.015, 0.22)]
    blades, fullers, hilts = [], [], []
    for a in (-38, 38):
        blades.append(poly(turn(blade, a, 0.0, 0.05)))
        fullers.append(poly(turn(fuller, a, 0.0, 0.05)))
        hilts += [poly(turn(part, a, 0.0, 0.05)) for part in hilt]
        c = turn([(0.0, 0.68)], a, 0.0, 0.05)[0]
        hilts.append(circle(0.08, c[0], c[1]))
    wreath = " ".join(poly(p) + " " + poly(mirror(p)) for p in _laurel(0.84, 95, 235))
    return [
        ("gold", compose(wreath)),
        ("main", compose(" ".join(blades))),
        ("light", compose(" ".join(fullers))),
        ("gold", compose(" ".join(hilts))),
        ("gem", compose(circle(0.1, 0.0, 0.92))),
    ]


def emperor() -> Layers:
    """The closed imperial crown: arches, orb and cross, jewels, on an ermine band."""
    cap = "M-0.62,0.3 C-0.66,-0.35 -0.3,-0.62 0,-0.62 C0.3,-0.62 0.66,-0.35 0.62,0.3 Z"
    arches = " ".join(
        poly(tube(spline([(x0, 0.3), (x1, -0.25), (0.0, -0.6)], 8), [0.07, 0.06, 0.05]))
        for x0, x1 in ((-0.62, -0.6), (-0.22, -0.2), (0.22, 0.2), (0.62, 0.6))
    )
    orb = circle(0.13, 0.0, -0.7)
    cross = rect(-0.03, -1.0, 0.03, -0.8) + " " + rect(-0.1, -0.94, 0.1, -0.88)
    band = "M-0.78,0.28 C-0.3,0.2 0.3,0.2 0.78,0.28 L0.78,0.6 C0.3,0.52 -0.3,0.52 -0.78,0.6 Z"
    ermine = "M-0.86,0.6 C-0.3,0.52 0.3,0.52 0.86,0.6 L0.86,0.9 C0.3,0.82 -0.3,0.82 -0.86,0.9 Z"
    tails = " ".join(poly([(x, 0.64), (x + 0.05, 0.74), (x, 0.82), (x - 0.05, 0.74)]) for x in (-0.6, -0.3, 0.0, 0.3, 0.6))
    jewels = (
        " ".join(circle(0.07, x, 0.41) for x in (-0.5, 0.5)) + " " + poly([(0.0, 0.3), (0.1, 0.41), (0.0, 0.52), (-0.1, 0.41)])
    )
    pearls = " ".join(circle(0.035, x, 0.25 + 0.0 * x) for x in (-0.55, -0.35, -0.15, 0.15, 0.35, 0.55))
    return [
        ("main", compose(cap)),
        ("gold", compose(arches + " " + orb + " " + cross + " " + band)),
        ("light", compose(ermine + " " + pearls)),
        ("main", compose(tails)),
        ("gem", compose(jewels)),
    ]


CRESTS: dict[str, Callable[[], Layers]] = {
    "crest-magist": magist,
    "crest-mage": mage,
    "crest-general": general,
    "crest-emperor": emperor,
}
