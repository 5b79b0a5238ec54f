"""Points on the outline of SVG path data: every command, curves and arcs followed closely.

Shared by the cut check (:mod:`generator.faces.outline`) and the art's joined
shapes (:func:`generator.art.pathdata.compose`).
"""

from __future__ import annotations

import math
import re

import numpy as np

_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_T = np.linspace(0.0, 1.0, 33)


def _cubic(p0, p1, p2, p3) -> list[np.ndarray]:
    t = _T[:, None]
    return [((1 - t) ** 3) * p0 + 3 * ((1 - t) ** 2) * t * p1 + 3 * (1 - t) * t * t * p2 + (t**3) * p3]


def _arc(p0, rx: float, ry: float, phi: float, large: bool, sweep: bool, p1) -> list[np.ndarray]:
    """Points along an elliptical arc (SVG's endpoint form), every 3 degrees."""
    rx, ry = abs(rx), abs(ry)
    if rx * rx == 0 or ry * ry == 0 or np.allclose(p0, p1):  # a radius too small to square: a straight line
        return [np.array([p0, p1])]
    cos, sin = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    dx, dy = float(p0[0] - p1[0]) / 2, float(p0[1] - p1[1]) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    k = math.sqrt(max(num, 0.0) / den) * (-1 if large == sweep else 1)
    cxp, cyp = k * rx * y1 / ry, -k * ry * x1 / rx
    cx = cos * cxp - sin * cyp + (p0[0] + p1[0]) / 2
    cy = sin * cxp + cos * cyp + (p0[1] + p1[1]) / 2
    a0 = math.atan2((y1 - cyp) / ry, (x1 - cxp) / rx)
    a1 = math.atan2((-y1 - cyp) / ry, (-x1 - cxp) / rx)
    span = a1 - a0
    if not math.isfinite(span + cx + cy + rx + ry):  # a radius so small against the chord that nothing measures it
        return [np.array([p0, p1])]
    if sweep and span < 0:
        span += 2 * math.pi
    elif not sweep and span > 0:
        span -= 2 * math.pi
    angles = a0 + span * np.linspace(0.0, 1.0, max(2, int(abs(math.degrees(span)) / 3) + 2))
    ex, ey = rx * np.cos(angles), ry * np.sin(angles)
    return [np.stack([cx + cos * ex - sin * ey, cy + sin * ex + cos * ey], axis=1)]


def path_points(d: str) -> np.ndarray:
    """Points on the outline of SVG path data (all commands, absolute and relative)."""
    tokens = _PATH_TOKEN.findall(d or "")
    parts: list[np.ndarray] = []
    cur = start = np.zeros(2)
    last_ctrl: np.ndarray | None = None
    last_op = ""
    i = 0
    op = ""
    while i < len(tokens):
        if tokens[i].isalpha():
            op = tokens[i]
            i += 1
        elif not op:
            break
        up = op.upper()
        n = _ARITY[up]
        args = [float(t) for t in tokens[i : i + n]]
        i += n
        if len(args) < n:
            break
        rel = op.islower()
        base = cur if rel else np.zeros(2)
        if up == "Z":
            cur = start
            parts.append(np.array([cur]))
            op = ""  # a number straight after Z is malformed: stop there
        elif up in "ML":
            cur = base + args
            if up == "M":
                start = cur
                op = "l" if rel else "L"  # further pairs are lines
            parts.append(np.array([cur]))
        elif up == "H":
            cur = np.array([(cur[0] if rel else 0.0) + args[0], cur[1]])
            parts.append(np.array([cur]))
        elif up == "V":
            cur = np.array([cur[0], (cur[1] if rel else 0.0) + args[0]])
            parts.append(np.array([cur]))
        elif up in "CS":
            if up == "C":
                c1, c2, end = base + args[0:2], base + args[2:4], base + args[4:6]
            else:
                c1 = 2 * cur - last_ctrl if last_ctrl is not None and last_op in "CS" else cur
                c2, end = base + args[0:2], base + args[2:4]
            parts += _cubic(cur, c1, c2, end)
            last_ctrl, cur = c2, end
        elif up in "QT":
            if up == "Q":
                q, end = base + args[0:2], base + args[2:4]
            else:
                q = 2 * cur - last_ctrl if last_ctrl is not None and last_op in "QT" else cur
                end = base + args[0:2]
            parts += _cubic(cur, cur + 2 / 3 * (q - cur), end + 2 / 3 * (q - end), end)
            last_ctrl, cur = q, end
        else:  # A
            end = base + args[5:7]
            parts += _arc(cur, args[0], args[1], args[2], bool(args[3]), bool(args[4]), end)
            cur = end
        last_op = up
    return np.concatenate(parts) if parts else np.zeros((0, 2))
