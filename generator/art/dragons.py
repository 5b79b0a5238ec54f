"""Dragons, built from their anatomy: a spine of neck, body and tail, a head, legs and wings.

Each dragon is a :class:`Pose` (where its joints are, in the unit box, y
down) turned into layers by :func:`build`: the far wing, the near wing's
membrane, the body (neck, trunk, tail, head, horns, legs, claws and dorsal
spikes, joined), the belly plates, the wing bones and the lines of the
scales, the eye.  Every dragon faces left; templates mirror it with
``flip``.

The Pernese court cards each have their own: the Wingsecond's brown in
flight, the Weyrleader's bronze rampant with wings raised, the Weyrwoman's
gold queen seated with her wings half spread.  The Dragon's Gambit Dragon
coils round its element; the backs pair two dragons, one turned half round,
so they look the same either way up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .pathdata import Point, commands, compose, fmt, poly, reverse, spline, subpaths, tube, turn

Layers = list[tuple[str, str]]


@dataclass(frozen=True)
class _Wing:
    shoulder: Point
    elbow: Point
    wrist: Point
    tips: tuple[Point, ...]  # finger tips, from the leading edge back
    root: Point  # where the membrane's trailing edge meets the body
    bone: float = 0.045  # the arm's thickness


@dataclass(frozen=True)
class _Leg:
    hip: Point
    knee: Point
    foot: Point
    width: float = 0.09
    toes: float = 0.0  # the direction the claws point, in degrees (0: forward, to the left)


@dataclass(frozen=True)
class _Pose:
    spine: tuple[Point, ...]  # from the back of the head through the body to the tail's tip
    widths: tuple[float, ...]  # the spine's thickness, spread evenly along it
    head: Point  # the head's centre
    head_angle: float  # degrees; 0 looks left, positive turns the snout down
    head_size: float
    wings: tuple[_Wing, ...] = ()  # far wing first
    legs: tuple[_Leg, ...] = ()  # far legs first
    spikes: tuple[float, float] = (0.05, 0.75)  # the stretch of spine (0..1) that carries dorsal spikes
    belly: tuple[float, float] = (0.12, 0.62)  # the stretch that carries belly plates
    tail_tip: float = 0.11  # size of the spade at the tail's end
    extra: tuple[tuple[str, str], ...] = field(default_factory=tuple)


def _head(pose: _Pose) -> tuple[str, str, str]:
    """The head (with horns and jaw), its eye and its nostril and mouth lines, facing left."""
    skull = [
        (0.44, -0.06),
        (0.3, -0.3),
        (0.04, -0.31),
        (-0.2, -0.22),
        (-0.46, -0.14),
        (-0.62, -0.06),
        (-0.64, 0.03),
        (-0.32, 0.07),
        (-0.08, 0.08),
        (-0.5, 0.13),
        (-0.5, 0.2),
        (-0.2, 0.28),
        (0.2, 0.27),
        (0.44, 0.12),
    ]
    horn_a = tube(spline([(0.14, -0.26), (0.48, -0.46), (0.9, -0.5)], 6), [0.15, 0.08, 0.0])
    horn_b = tube(spline([(0.26, -0.14), (0.6, -0.24), (0.86, -0.14)], 6), [0.11, 0.05, 0.0])
    frill = [(0.35, 0.05), (0.62, 0.12), (0.42, 0.2), (0.58, 0.3), (0.3, 0.25)]
    s, a, (hx, hy) = pose.head_size, pose.head_angle, pose.head

    def put(points: Sequence[Point]) -> list[Point]:
        return [(hx + x * s, hy + y * s) for x, y in turn(points, a)]

    solid = " ".join(poly(put(p)) for p in (skull, horn_a, horn_b, frill))
    eye = poly(put([(-0.2, -0.15), (-0.04, -0.22), (0.1, -0.16), (-0.06, -0.1)]))
    lines = " ".join(
        poly(put(p))
        for p in (
            tube([(-0.62, 0.0), (-0.5, -0.03)], [0.035]),  # nostril
            tube(spline([(-0.58, 0.095), (-0.3, 0.1), (-0.05, 0.06)], 5), [0.02, 0.035, 0.02]),  # mouth
            tube(spline([(-0.25, -0.17), (-0.05, -0.21), (0.15, -0.17)], 5), [0.015, 0.035, 0.015]),  # brow
        )
    )
    return solid, eye, lines


def _wing(w: _Wing, far: bool) -> tuple[str, str]:
    """The membrane (scalloped between the fingers) and the bones of one wing."""
    edge: list[Point] = [w.shoulder, w.elbow, w.wrist]
    previous = w.tips[0]
    edge.append(previous)
    for tip in (*w.tips[1:], w.root):
        mid = ((previous[0] + tip[0]) / 2, (previous[1] + tip[1]) / 2)
        pull = 0.22 if tip is not w.root else 0.12
        notch = (mid[0] + (w.wrist[0] - mid[0]) * pull, mid[1] + (w.wrist[1] - mid[1]) * pull)
        edge += spline([previous, notch, tip], 6)[1:]
        previous = tip
    membrane = poly(edge)
    scale = 0.8 if far else 1.0
    bones = [
        tube([w.shoulder, w.elbow], [w.bone * 1.6 * scale, w.bone * scale]),
        tube([w.elbow, w.wrist], [w.bone * scale, w.bone * 0.7 * scale]),
    ]
    bones += [tube([w.wrist, tip], [w.bone * 0.6 * scale, 0.006]) for tip in w.tips]
    return membrane, " ".join(poly(b) for b in bones)


def _leg(leg: _Leg) -> str:
    thigh = tube([leg.hip, leg.knee], [leg.width * 2.0, leg.width * 1.1])
    shin = tube([leg.knee, leg.foot], [leg.width, leg.width * 0.7])
    claws = []
    for k in (-30, 0, 30):
        a = math.radians(180 + leg.toes + k)
        tip = (leg.foot[0] + math.cos(a) * leg.width * 1.3, leg.foot[1] + math.sin(a) * leg.width * 1.3)
        claws.append(tube([leg.foot, tip], [leg.width * 0.45, 0.0]))
    return " ".join(poly(p) for p in (thigh, shin, *claws))


def _along(spine: Sequence[Point], t: float) -> tuple[Point, Point]:
    """The point at share ``t`` of the spine and the unit normal to its left (the dragon's back, facing left)."""
    i = min(int(t * (len(spine) - 1)), len(spine) - 2)
    (x0, y0), (x1, y1) = spine[i], spine[i + 1]
    d = math.hypot(x1 - x0, y1 - y0) or 1.0
    return (x0, y0), ((y1 - y0) / d, -(x1 - x0) / d)


def build(pose: _Pose) -> Layers:
    spine = spline(pose.spine, 12)
    n = len(spine)
    widths = [pose.widths[min(int(i / (n - 1) * (len(pose.widths) - 1) + 0.5), len(pose.widths) - 1)] for i in range(n)]
    body = [poly(tube(spine, pose.widths))]
    # dorsal spikes along the back, and a spade at the tail's tip
    for k in range(14):
        t = pose.spikes[0] + (pose.spikes[1] - pose.spikes[0]) * k / 13
        (x, y), (nx, ny) = _along(spine, t)
        w = widths[int(t * (n - 1))] / 2
        h = 0.045 + 0.03 * math.sin(math.pi * k / 13)
        (x2, y2), _ = _along(spine, min(t + 0.02, 1.0))
        body.append(
            poly(
                [
                    (x + nx * w * 0.6, y + ny * w * 0.6),
                    (x + nx * (w + h) + (x - x2), y + ny * (w + h) + (y - y2)),
                    (x2 + nx * w * 0.6, y2 + ny * w * 0.6),
                ]
            )
        )
    (tx, ty), (nx, ny) = _along(spine, 0.985)
    dx, dy = -ny, nx  # along the tail
    s = pose.tail_tip
    body.append(
        poly(
            [
                (tx, ty),
                (tx + nx * s - dx * s * 0.3, ty + ny * s - dy * s * 0.3),
                (tx + dx * s * 1.4, ty + dy * s * 1.4),
                (tx - nx * s - dx * s * 0.3, ty - ny * s - dy * s * 0.3),
            ]
        )
    )
    head, eye, head_lines = _head(pose)
    legs = [_leg(leg) for leg in pose.legs]
    # belly plates: short bars across the underside
    plates = []
    for k in range(16):
        t = pose.belly[0] + (pose.belly[1] - pose.belly[0]) * k / 15
        (x, y), (nx, ny) = _along(spine, t)
        w = widths[int(t * (n - 1))] / 2
        plates.append(poly(tube([(x - nx * w * 0.3, y - ny * w * 0.3), (x - nx * w * 0.82, y - ny * w * 0.82)], [0.016, 0.008])))
    belly = []
    for k in range(24):
        t = pose.belly[0] + (pose.belly[1] - pose.belly[0]) * k / 23
        (x, y), (nx, ny) = _along(spine, t)
        w = widths[int(t * (n - 1))] / 2
        belly.append((x - nx * w * 0.55, y - ny * w * 0.55))
    belly_band = poly(tube(belly, [0.02, pose.widths[len(pose.widths) // 3] * 0.45, 0.02]))
    layers: Layers = []
    wings = [_wing(w, far=i < len(pose.wings) - 1) for i, w in enumerate(pose.wings)]
    if len(wings) > 1:  # the far wing, behind everything, in the wing's darker tone
        layers += [("far", compose(wings[0][0])), ("far_bone", compose(wings[0][1]))]
    for leg in legs[: len(legs) // 2]:  # far legs behind the body
        layers.append(("far", compose(leg)))
    layers.append(("body", compose(" ".join(body) + " " + head + " " + " ".join(legs[len(legs) // 2 :]))))
    layers.append(("belly", compose(belly_band)))
    layers.append(("line", compose(" ".join(plates) + " " + head_lines)))
    if wings:
        layers += [("wing", compose(wings[-1][0])), ("bone", compose(wings[-1][1]))]
    layers.append(("eye", compose(eye)))
    layers += list(pose.extra)
    return layers


# --- the dragons -------------------------------------------------------------------------------

_FLIGHT = _Pose(  # the Wingsecond's brown, flying low and fast
    spine=(
        (-0.56, -0.36),
        (-0.44, -0.24),
        (-0.3, -0.08),
        (-0.1, 0.04),
        (0.15, 0.1),
        (0.38, 0.16),
        (0.6, 0.3),
        (0.72, 0.52),
        (0.62, 0.72),
        (0.42, 0.8),
        (0.28, 0.74),
    ),
    widths=(0.11, 0.15, 0.22, 0.24, 0.2, 0.14, 0.09, 0.05, 0.02),
    head=(-0.68, -0.44),
    head_angle=18,
    head_size=0.4,
    wings=(
        _Wing(
            (0.0, -0.06),
            (-0.12, -0.42),
            (-0.28, -0.72),
            ((-0.2, -0.98), (0.02, -0.84), (0.16, -0.62), (0.22, -0.38)),
            (0.12, -0.02),
            0.04,
        ),
        _Wing((0.06, -0.02), (0.3, -0.4), (0.36, -0.78), ((0.62, -0.98), (0.82, -0.7), (0.88, -0.42), (0.78, -0.16)), (0.4, 0.1)),
    ),
    legs=(
        _Leg((-0.16, 0.1), (-0.22, 0.26), (-0.36, 0.3), 0.07, 10),
        _Leg((0.26, 0.18), (0.3, 0.36), (0.16, 0.44), 0.08, -10),
    ),
)

_RAMPANT = _Pose(  # the Weyrleader's bronze, rearing, wings raised high
    spine=(
        (-0.42, -0.56),
        (-0.28, -0.5),
        (-0.2, -0.34),
        (-0.16, -0.12),
        (-0.08, 0.12),
        (0.06, 0.32),
        (0.28, 0.46),
        (0.5, 0.6),
        (0.62, 0.8),
        (0.48, 0.94),
        (0.3, 0.88),
    ),
    widths=(0.11, 0.15, 0.21, 0.25, 0.24, 0.19, 0.13, 0.08, 0.04, 0.015),
    head=(-0.54, -0.62),
    head_angle=8,
    head_size=0.42,
    wings=(
        _Wing(
            (-0.08, -0.18),
            (-0.34, -0.38),
            (-0.5, -0.72),
            ((-0.86, -0.92), (-0.92, -0.6), (-0.86, -0.3), (-0.66, -0.06)),
            (-0.16, 0.06),
            0.04,
        ),
        _Wing((0.0, -0.2), (0.3, -0.48), (0.42, -0.86), ((0.78, -0.98), (0.94, -0.64), (0.92, -0.3), (0.72, -0.02)), (0.1, 0.18)),
    ),
    legs=(
        _Leg((-0.14, -0.14), (-0.36, -0.08), (-0.46, -0.26), 0.065, 40),
        _Leg((0.0, 0.3), (-0.22, 0.48), (-0.12, 0.76), 0.09, -60),
        _Leg((-0.1, -0.08), (-0.3, 0.04), (-0.42, -0.12), 0.07, 30),
        _Leg((0.12, 0.36), (0.02, 0.58), (0.2, 0.82), 0.1, -70),
    ),
    spikes=(0.04, 0.8),
    belly=(0.1, 0.55),
)

_QUEEN = _Pose(  # the Weyrwoman's gold: larger, standing four-square, neck arched high, wings spread
    spine=(
        (-0.6, -0.5),
        (-0.56, -0.3),
        (-0.46, -0.1),
        (-0.28, 0.04),
        (-0.02, 0.1),
        (0.24, 0.12),
        (0.46, 0.2),
        (0.62, 0.38),
        (0.66, 0.6),
        (0.5, 0.74),
        (0.24, 0.76),
        (0.04, 0.7),
    ),
    widths=(0.12, 0.16, 0.22, 0.3, 0.33, 0.3, 0.22, 0.15, 0.1, 0.06, 0.02),
    head=(-0.64, -0.66),
    head_angle=28,
    head_size=0.42,
    wings=(
        _Wing(
            (-0.2, -0.06),
            (-0.28, -0.4),
            (-0.24, -0.74),
            ((-0.5, -0.98), (-0.22, -0.98), (-0.02, -0.84), (0.08, -0.56)),
            (-0.04, -0.06),
            0.045,
        ),
        _Wing(
            (0.0, -0.02),
            (0.3, -0.36),
            (0.5, -0.72),
            ((0.72, -0.98), (0.94, -0.76), (0.98, -0.46), (0.86, -0.16)),
            (0.36, 0.06),
            0.05,
        ),
    ),
    legs=(
        _Leg((-0.3, 0.1), (-0.36, 0.3), (-0.42, 0.52), 0.08, 0),
        _Leg((0.26, 0.16), (0.34, 0.34), (0.28, 0.56), 0.1, 0),
        _Leg((-0.22, 0.12), (-0.18, 0.32), (-0.26, 0.54), 0.085, 0),
        _Leg((0.36, 0.2), (0.48, 0.36), (0.44, 0.58), 0.1, 0),
    ),
    spikes=(0.03, 0.86),
    belly=(0.14, 0.55),
    tail_tip=0.12,
)


def _arc_pose(sweep: float, steps: int, radius: float, legs: tuple[int, ...], head_size: float) -> _Pose:
    """A serpent dragon along an arc of ``sweep`` degrees clockwise from just right of the top, its head
    at the top looking left (counter-clockwise, the way it goes)."""

    def at(angle: float, r: float) -> Point:
        return (r * math.cos(math.radians(angle)), r * math.sin(math.radians(angle)))

    step = sweep / (steps - 1)
    spine = tuple(at(-72 + k * step, radius - 0.012 * k * 22 / step) for k in range(steps))
    a0 = math.radians(-72)
    travel = (math.sin(a0), -math.cos(a0))

    def leg(k: int, far: bool) -> _Leg:
        angle = -72 + k * step
        hip = at(angle, radius - 0.02)
        knee = at(angle + (6 if far else -4), radius + 0.18)
        foot = at(angle - 14, radius + 0.24)
        return _Leg(hip, knee, foot, 0.06, angle - 90)

    return _Pose(
        spine=spine,
        widths=(0.13, 0.17, 0.2, 0.21, 0.2, 0.18, 0.15, 0.11, 0.07, 0.04, 0.015),
        head=(spine[0][0] + 0.16 * travel[0], spine[0][1] + 0.16 * travel[1] - 0.03),
        head_angle=-14,
        head_size=head_size,
        legs=tuple(leg(k, True) for k in legs) + tuple(leg(k - 1, False) for k in legs),
        spikes=(0.04, 0.92),
        belly=(0.05, 0.85),
        tail_tip=0.1,
    )


def _coil() -> _Pose:
    """The Dragon's Gambit Dragon: a serpent dragon wound round the card's centre, chasing its tail."""

    def at(angle: float, r: float) -> Point:
        return (r * math.cos(math.radians(angle)), r * math.sin(math.radians(angle)))

    spine = tuple(at(-72 + k * 22, 0.62 - 0.012 * k) for k in range(15))
    a0 = math.radians(-72)
    travel = (math.sin(a0), -math.cos(a0))  # the way the head goes: counter-clockwise on the page

    def leg(k: int, far: bool) -> _Leg:
        angle = -72 + k * 22
        hip = at(angle, 0.6 - 0.012 * k)
        knee = at(angle + (6 if far else -4), 0.8)
        foot = at(angle - 14, 0.86)
        return _Leg(hip, knee, foot, 0.06, angle - 90)

    return _Pose(
        spine=spine,
        widths=(0.13, 0.17, 0.2, 0.21, 0.2, 0.18, 0.15, 0.11, 0.07, 0.04, 0.015),
        head=(spine[0][0] + 0.16 * travel[0], spine[0][1] + 0.16 * travel[1] - 0.03),
        head_angle=-14,
        head_size=0.4,
        legs=(leg(3, True), leg(9, True), leg(2, False), leg(8, False)),
        spikes=(0.04, 0.92),
        belly=(0.05, 0.85),
        tail_tip=0.1,
    )


_COIL = _coil()


def _pair(pose: _Pose, scale: float, shift: Point) -> Layers:
    """Two of the same dragon, one turned half round about the centre: the same either way up."""
    one = build(pose)
    out: Layers = []
    for role, d in one:
        placed = _transform(d, scale, shift)
        out.append((role, placed + " " + _transform(d, scale, shift, half_turn=True)))
    return out


def _transform(d: str, scale: float, shift: Point, half_turn: bool = False) -> str:

    k = -1.0 if half_turn else 1.0

    def pt(x: float, y: float) -> str:
        return f"{fmt(k * (x * scale + shift[0]))},{fmt(k * (y * scale + shift[1]))}"

    parts = []
    for op, v in commands(d):
        if op == "Z":
            parts.append("Z")
        elif op == "A":
            rx, ry, phi, large, sweep, x, y = v
            parts.append(f"A{fmt(rx * scale)},{fmt(ry * scale)} {fmt(phi)} {int(large)},{int(sweep)} {pt(x, y)}")
        else:
            parts.append(op + " ".join(pt(v[i], v[i + 1]) for i in range(0, len(v), 2)))
    return " ".join(parts)


DRAGONS: dict[str, Callable[[], Layers]] = {
    "dragon-flight": lambda: build(_FLIGHT),
    "dragon-rampant": lambda: build(_RAMPANT),
    "dragon-queen": lambda: build(_QUEEN),
    "dragon-coiled": lambda: build(_COIL),
    "dragons-circling": lambda: _pair(_FLIGHT, 0.56, (0.12, -0.45)),
    "dragons-coiled": lambda: _pair(_arc_pose(172, 9, 0.7, (2, 6), 0.36), 0.9, (0.0, 0.0)),
}


def silhouette(name: str) -> str:
    """One dragon as a single-colour symbol: every part joined, the eye cut out."""
    layers = DRAGONS[name]()
    solid = " ".join(d for role, d in layers if role in ("far", "body", "wing"))
    eye = " ".join(reverse(sub) for role, d in layers if role == "eye" for sub in subpaths(d))
    return solid + " " + eye
