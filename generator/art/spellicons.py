"""One icon for each of the twenty-three Aetherial spells, as single-colour symbols.

Each icon says what its spell does, in the spirit of an engraved emblem:
a sealed decree, a snuffed candle, arrows that turn the ranking round, a
hand of six cards, a crown under seven stars...  They are drawn in the unit
box (filled even-odd, so inner shapes are cut out) and registered with the
other symbols, so templates place them with ``symbol()`` like any suit.
The Aetherial style maps each spell's card id to its icon.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from .pathdata import Point, circle, compose, mirror, poly, rect, spline, star, tube, turn


def _card(cx: float, cy: float, w: float, h: float, angle: float) -> list[Point]:
    return turn(
        [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)], angle, 0.0, 0.95
    )


def _fan_card(w: float, h: float, angle: float, grow: float = 0.0) -> list[Point]:
    """A card of a hand held at (0, 1): ``w`` wide, ``h`` tall, turned ``angle`` degrees; ``grow`` widens it all round."""
    x0, x1, y0, y1 = -w / 2 - grow, w / 2 + grow, 1.0 - h - grow, 1.0 + grow
    return turn([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], angle, 0.0, 1.0)


def decree() -> str:
    """A scroll, its ends rolled, with a seal hanging on a ribbon."""
    sheet = rect(-0.62, -0.72, 0.62, 0.42)
    rolls = rect(-0.78, -0.9, 0.78, -0.66) + " " + rect(-0.78, 0.36, 0.78, 0.6)
    lines = " ".join(rect(-0.42, y, 0.42, y + 0.07) for y in (-0.5, -0.3, -0.1))
    ribbon = poly([(0.05, 0.5), (0.2, 0.5), (0.12, 0.78), (0.0, 0.95), (-0.05, 0.74)])
    seal = circle(0.24, 0.32, 0.62)
    return compose(f"{sheet} {rolls} {ribbon} {seal}", f"{lines} " + star(8, 0.13, 0.07, cx=0.32, cy=0.62))


def candle() -> str:
    """A candle just snuffed: the hand ends now."""
    body = rect(-0.22, -0.2, 0.22, 0.78)
    dish = poly([(-0.7, 0.78), (0.7, 0.78), (0.55, 0.98), (-0.55, 0.98)])
    wick = rect(-0.03, -0.36, 0.03, -0.2)
    smoke = tube(spline([(0.0, -0.38), (0.12, -0.55), (-0.1, -0.72), (0.08, -0.9), (0.0, -1.0)], 6), [0.09, 0.07, 0.05, 0.02])
    drip = poly([(0.22, -0.12), (0.3, -0.12), (0.3, 0.2), (0.26, 0.26), (0.22, 0.2)])
    return compose(f"{body} {dish} {wick} {poly(smoke)} {drip}")


def tumult() -> str:
    """Two arrows chasing each other round: the ranking turned upside down."""
    out = []
    for start in (200, 20):
        arc = [(0.72 * math.cos(math.radians(a)), 0.72 * math.sin(math.radians(a))) for a in range(start, start + 130, 5)]
        out.append(poly(tube(arc, [0.05, 0.2, 0.2])))
        end = arc[-1]
        a = math.radians(start + 130)
        tip = (end[0] - 0.32 * math.sin(a), end[1] + 0.32 * math.cos(a))
        side = (0.26 * math.cos(a), 0.26 * math.sin(a))
        out.append(poly([(end[0] + side[0], end[1] + side[1]), tip, (end[0] - side[0], end[1] - side[1])]))
    return compose(" ".join(out) + " " + star(5, 0.22, 0.1))


def _hidden_card() -> str:
    """A card face down, its back latticed: another spell waits unseen."""
    outer = poly(_card(0.0, 0.0, 1.25, 1.75, -8))
    inner = poly(_card(0.0, 0.0, 1.0, 1.5, -8))
    diamonds = " ".join(
        poly(turn([(x, y - 0.16), (x + 0.11, y), (x, y + 0.16), (x - 0.11, y)], -8, 0.0, 0.95))
        for x in (-0.22, 0.22)
        for y in (-0.42, 0.0, 0.42)
    )
    return compose(f"{outer} {diamonds} " + circle(0.13, 0.0, 0.0), inner)


def _six_cards() -> str:
    """A hand of six cards fanned: hands grow to six."""
    angles = (-40, -24, -8, 8, 24, 40)
    out = []
    for k, a in enumerate(angles):
        if k + 1 < len(angles):  # only the edge shows from under the next card: cut that card's shape out
            hole = poly(_fan_card(0.46, 1.5, angles[k + 1], 0.05))
        else:  # the front card shows its face inside a border, and a star
            hole = poly(_fan_card(0.3, 1.34, a, 0.0))
        out.append(compose(poly(_fan_card(0.46, 1.5, a)), hole))
    out.append(compose(star(4, 0.2, 0.06, cx=0.47, cy=0.42)))
    return " ".join(out)


def capitol() -> str:
    """A domed capitol set on the road: the seat of play moves on."""
    dome = "M-0.55,-0.05 C-0.55,-0.55 0.55,-0.55 0.55,-0.05 Z"
    spire = poly([(-0.04, -0.5), (0.0, -0.95), (0.04, -0.5)])
    base = rect(-0.75, -0.05, 0.75, 0.08) + " " + rect(-0.8, 0.5, 0.8, 0.62)
    columns = " ".join(rect(x - 0.07, 0.1, x + 0.07, 0.48) for x in (-0.55, -0.2, 0.2, 0.55))
    arrow = poly([(-0.7, 0.76), (0.45, 0.76), (0.45, 0.68), (0.8, 0.84), (0.45, 1.0), (0.45, 0.92), (-0.7, 0.92)])
    return compose(f"{dome} {spire} {base} {columns} {arrow}")


def _crown_of_seven() -> str:
    """The Founder-Queen's crown under her seven Founding Generals, as stars."""
    crown = poly([(-0.7, 0.85), (-0.78, 0.05), (-0.38, 0.4), (0.0, -0.05), (0.38, 0.4), (0.78, 0.05), (0.7, 0.85)])
    band = rect(-0.7, 0.62, 0.7, 0.72)
    stars = " ".join(
        star(5, 0.13, 0.055, cx=0.82 * math.cos(math.radians(a)), cy=-0.12 + 0.8 * math.sin(math.radians(a)))
        for a in range(-165, -10, 25)
    )
    return compose(f"{crown} {stars}", band)


def fallow() -> str:
    """A bare field: furrows and a withered stalk."""
    furrows = " ".join(
        poly(tube(spline([(-0.95, y), (-0.3, y - 0.08), (0.3, y + 0.06), (0.95, y)], 6), [0.1])) for y in (0.45, 0.7, 0.93)
    )
    stalk = tube(spline([(0.0, 0.35), (0.05, -0.2), (0.25, -0.55), (0.55, -0.6)], 8), [0.1, 0.06, 0.03])
    leaf = "M0.05,-0.05 C-0.3,-0.1 -0.55,0.1 -0.6,0.3 C-0.35,0.3 -0.1,0.2 0.05,-0.05 Z"
    seed = circle(0.1, 0.62, -0.55)
    return compose(f"{furrows} {poly(stalk)} {leaf} {seed}")


def dance() -> str:
    """Two rings linked: the Houses' marriage."""
    rings = circle(0.5, -0.3, 0.0) + " " + circle(0.5, 0.3, 0.0)
    holes = circle(0.36, -0.3, 0.0) + " " + circle(0.36, 0.3, 0.0)
    return compose(rings + " " + star(4, 0.28, 0.08, cx=0.0, cy=-0.72), holes)


def rainbow() -> str:
    """Three bands of an arc over clouds: every colour at once."""
    bands = []
    for r in (0.95, 0.72, 0.49):
        bands.append(f"M{-r},0.3 A{r},{r} 0 0,1 {r},0.3 L{r - 0.15},0.3 A{r - 0.15},{r - 0.15} 0 0,0 {-(r - 0.15)},0.3 Z")
    clouds = (
        circle(0.22, -0.72, 0.5) + " " + circle(0.2, -0.42, 0.56) + " " + circle(0.22, 0.72, 0.5) + " " + circle(0.2, 0.42, 0.56)
    )
    return compose(" ".join(bands) + " " + clouds)


def tree() -> str:
    """A tree of four boughs on deep roots: the four suits in harmony."""
    trunk = poly([(-0.12, 0.6), (-0.08, -0.1), (0.08, -0.1), (0.12, 0.6)])
    crown = " ".join(circle(0.32, x, y) for x, y in ((-0.42, -0.38), (0.42, -0.38), (0.0, -0.68), (0.0, -0.2)))
    roots = " ".join(
        poly(tube(spline([(0.0, 0.55), (dx * 0.4, 0.75), (dx, 0.92)], 6), [0.12, 0.04])) for dx in (-0.7, -0.3, 0.3, 0.7)
    )
    return compose(f"{trunk} {crown} {roots}")


def padlock() -> str:
    """A padlock: the Armies may not be discarded."""
    body = "M-0.62,-0.1 L0.62,-0.1 L0.62,0.9 L-0.62,0.9 Z"
    shackle = "M-0.42,-0.1 L-0.42,-0.42 C-0.42,-1.0 0.42,-1.0 0.42,-0.42 L0.42,-0.1 L0.26,-0.1 L0.26,-0.42 C0.26,-0.8 -0.26,-0.8 -0.26,-0.42 L-0.26,-0.1 Z"
    hole = circle(0.13, 0.0, 0.28) + " " + poly([(-0.07, 0.41), (0.07, 0.41), (0.11, 0.68), (-0.11, 0.68)])
    return compose(f"{body} {shackle}", hole)


def grid() -> str:
    """The three-by-three grid of In Wrought Arcanum, one line of it drawn through."""
    cells = " ".join(
        rect(x - 0.24, y - 0.24, x + 0.24, y + 0.24)
        for x in (-0.6, 0.0, 0.6)
        for y in (-0.6, 0.0, 0.6)
        if not (abs(x - y) < 1e-9)
    )
    line = poly(tube([(-0.85, -0.85), (0.85, 0.85)], [0.2]))
    return compose(f"{cells} {line}")


def compass() -> str:
    """A compass rose for the unknown lands."""
    rose = star(4, 1.0, 0.2) + " " + star(4, 0.6, 0.15, rotation=-45)
    return compose(f"{rose} " + circle(0.72), circle(0.64) + " " + star(4, 0.14, 0.05))


def birds() -> str:
    """Three birds flying low and away."""
    out = []
    for x, y, s in ((-0.45, -0.45, 0.5), (0.3, -0.05, 0.62), (-0.2, 0.55, 0.44)):
        wing = [(x - s, y - 0.25 * s), (x - 0.5 * s, y - 0.35 * s), (x, y + 0.05 * s)]
        right = [(2 * x - px, py) for px, py in reversed(wing)]
        out.append(poly(tube(spline(wing + right[1:], 6), [0.04, 0.16 * s / 0.5, 0.04])))
    return compose(" ".join(out))


def _weeping_eye() -> str:
    """An eye shedding a tear."""
    eye = "M-0.95,-0.3 C-0.5,-0.95 0.5,-0.95 0.95,-0.3 C0.5,0.35 -0.5,0.35 -0.95,-0.3 Z"
    iris = circle(0.3, 0.0, -0.3)
    pupil = circle(0.12, 0.0, -0.3, clockwise=True)
    tear = "M0.3,0.2 C0.4,0.45 0.55,0.6 0.55,0.75 C0.55,0.9 0.45,1.0 0.3,1.0 C0.15,1.0 0.05,0.9 0.05,0.75 C0.05,0.6 0.2,0.45 0.3,0.2 Z"
    return compose(f"{eye} {tear}", iris) + " " + compose(pupil)


def wings() -> str:
    """A pair of wings spread to fly, their feathers cut apart."""
    top = spline([(0.1, -0.02), (0.3, -0.45), (0.6, -0.72), (0.98, -0.82)], 6)
    tips = [(0.98, -0.82), (0.96, -0.52), (0.9, -0.24), (0.77, 0.01), (0.58, 0.2), (0.36, 0.32)]
    root = (0.1, 0.14)
    edge: list[Point] = []
    cuts = []
    for a, b in itertools.pairwise(tips):
        notch = (
            a[0] + (b[0] - a[0]) * 0.5 + (root[0] - (a[0] + b[0]) / 2) * 0.18,
            a[1] + (b[1] - a[1]) * 0.5 + (root[1] - (a[1] + b[1]) / 2) * 0.18,
        )
        edge += [a, notch]
        cuts.append(tube([notch, (notch[0] + (root[0] - notch[0]) * 0.45, notch[1] + (root[1] - notch[1]) * 0.45)], [0.04, 0.01]))
    right = top + edge[1:] + [tips[-1], root]
    solid = poly(right) + " " + poly(mirror(right)) + " " + circle(0.13, 0.0, 0.12)
    holes = " ".join(poly(c) + " " + poly(mirror(c)) for c in cuts)
    return compose(solid, holes)


def anchor() -> str:
    """An anchor: the Realmgirt makes landfall."""
    ring = circle(0.18, 0.0, -0.78)
    shank = rect(-0.07, -0.6, 0.07, 0.85)
    stock = rect(-0.42, -0.5, 0.42, -0.38)
    arms = poly(tube(spline([(-0.75, 0.25), (-0.55, 0.7), (0.0, 0.9), (0.55, 0.7), (0.75, 0.25)], 6), [0.1, 0.16, 0.1]))
    flukes = poly([(-0.75, 0.05), (-0.92, 0.35), (-0.6, 0.3)]) + " " + poly([(0.75, 0.05), (0.6, 0.3), (0.92, 0.35)])
    return compose(f"{ring} {shank} {stock} {arms} {flukes}", circle(0.09, 0.0, -0.78))


def tablets() -> str:
    """The two Edicts, as tablets of law."""
    out = []
    for x in (-0.47, 0.47):
        out.append(f"M{x - 0.4},0.95 L{x - 0.4},-0.5 C{x - 0.4},-1.0 {x + 0.4},-1.0 {x + 0.4},-0.5 L{x + 0.4},0.95 Z")
    lines = " ".join(rect(x - 0.25, y, x + 0.25, y + 0.08) for x in (-0.47, 0.47) for y in (-0.4, -0.15, 0.1, 0.35, 0.6))
    return compose(" ".join(out), lines)


def chest() -> str:
    """A treasure chest, bound and locked, its coins spilled before it."""
    box = rect(-0.78, -0.05, 0.78, 0.62)
    lid = "M-0.78,-0.1 L-0.78,-0.35 C-0.78,-0.85 0.78,-0.85 0.78,-0.35 L0.78,-0.1 Z"
    straps = rect(-0.5, -0.75, -0.38, 0.62) + " " + rect(0.38, -0.75, 0.5, 0.62)
    seam = rect(-0.78, -0.1, 0.78, -0.05)
    lock = circle(0.08, 0.0, 0.12) + " " + poly([(-0.04, 0.16), (0.04, 0.16), (0.06, 0.34), (-0.06, 0.34)])
    coins = " ".join(
        circle(0.13, x, y) for x, y in ((-0.6, 0.85), (-0.3, 0.87), (0.0, 0.85), (0.3, 0.87), (0.6, 0.85), (0.15, 0.72))
    )
    return compose(f"{box} {lid} {coins}", f"{straps} {seam} {lock}")


def whirlwind() -> str:
    """A whirlwind that swallows the discards and spins them out again."""
    out = []
    for i, (y, r) in enumerate(((-0.8, 0.9), (-0.45, 0.72), (-0.1, 0.55), (0.25, 0.38), (0.58, 0.22))):
        x = 0.12 * math.sin(i * 1.3)
        out.append(poly(tube(spline([(x - r, y), (x, y + 0.09), (x + r, y)], 8), [0.05, 0.15, 0.05])))
    out.append(poly(tube(spline([(0.1, 0.7), (0.0, 0.85), (0.08, 1.0)], 4), [0.1, 0.03])))
    return compose(" ".join(out))


def bonfire() -> str:
    """A bonfire on crossed logs: the festival."""
    logs = poly(tube([(-0.85, 0.95), (0.85, 0.55)], [0.2])) + " " + poly(tube([(-0.85, 0.55), (0.85, 0.95)], [0.2]))
    flames = []
    for x, h, w in ((0.0, 1.0, 0.42), (-0.42, 0.62, 0.3), (0.42, 0.7, 0.3)):
        top = 0.55 - 1.4 * h
        flames.append(
            f"M{x},{top} C{x + 0.2 * w / 0.42},{top + 0.35} {x + w},{0.2} {x + w * 0.8},{0.5} "
            f"C{x + w * 0.5},{0.72} {x - w * 0.5},{0.72} {x - w * 0.8},{0.5} C{x - w},{0.2} {x - 0.1},{top + 0.45} {x},{top} Z"
        )
    return compose(logs + " " + " ".join(flames))


def _mushroom() -> str:
    """A toadstool: what grows where things rot."""
    cap = "M-0.9,0.0 C-0.9,-0.75 0.9,-0.75 0.9,0.0 C0.6,0.12 -0.6,0.12 -0.9,0.0 Z"
    spots = " ".join(circle(r, x, y) for x, y, r in ((-0.45, -0.25, 0.12), (0.05, -0.42, 0.1), (0.45, -0.18, 0.13)))
    stem = "M-0.22,0.08 C-0.28,0.45 -0.3,0.75 -0.38,0.95 L0.38,0.95 C0.3,0.75 0.28,0.45 0.22,0.08 Z"
    ring = rect(-0.3, 0.3, 0.3, 0.38)
    return compose(f"{cap} {stem}", f"{spots} {ring}")


ICONS: dict[str, Callable[[], str]] = {
    "decree": decree,
    "candle": candle,
    "tumult": tumult,
    "hidden-card": _hidden_card,
    "six-cards": _six_cards,
    "capitol": capitol,
    "crown-of-seven": _crown_of_seven,
    "fallow": fallow,
    "rings": dance,
    "rainbow": rainbow,
    "tree": tree,
    "padlock": padlock,
    "grid": grid,
    "compass": compass,
    "birds": birds,
    "weeping-eye": _weeping_eye,
    "wings": wings,
    "anchor": anchor,
    "tablets": tablets,
    "chest": chest,
    "whirlwind": whirlwind,
    "bonfire": bonfire,
    "toadstool": _mushroom,
}
