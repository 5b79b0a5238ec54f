"""PDF functions of one input (types 0, 2 and 3) read as Python functions, to sample a gradient's colours."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def domain_of(function: Any) -> tuple[float, float]:
    """The inputs a function is defined for (from its /Domain)."""
    domain = function.get("/Domain", [0, 1])
    return float(domain[0]), float(domain[1])


def evaluate(function: Any) -> Callable[[float], list[float]]:
    """A PDF function of one input (types 0, 2 and 3), read once, as a Python function."""
    start, end = domain_of(function)
    kind = int(function.get("/FunctionType"))
    if kind == 2:
        c0 = [float(v) for v in function.get("/C0", [0])]
        c1 = [float(v) for v in function.get("/C1", [1])]
        exponent = float(function.get("/N", 1))
        return lambda t: [a + min(end, max(start, t)) ** exponent * (b - a) for a, b in zip(c0, c1)]
    if kind == 3:
        bounds = [start, *(float(b) for b in function.Bounds), end]
        encode = [float(v) for v in function.Encode]
        pieces = [evaluate(f) for f in function.Functions]

        def stitched(t: float) -> list[float]:
            t = min(end, max(start, t))
            i = next((i for i in range(len(pieces) - 1) if t < bounds[i + 1]), len(pieces) - 1)
            e0, e1, width = encode[2 * i], encode[2 * i + 1], bounds[i + 1] - bounds[i]
            return pieces[i](e0 + (t - bounds[i]) * (e1 - e0) / width if width else e0)

        return stitched
    if kind == 0 and len(function.Size) == 1:
        size, bits = int(function.Size[0]), int(function.BitsPerSample)
        encode = [float(v) for v in function.get("/Encode", [0, size - 1])]
        ranges = [float(v) for v in function.Range]
        decode = [float(v) for v in function.get("/Decode", ranges)]
        m, data, top = len(ranges) // 2, function.read_bytes(), (1 << bits) - 1

        def sample(i: int, j: int) -> float:
            bit = (i * m + j) * bits
            raw = int.from_bytes(data[bit // 8 : (bit + bits + 7) // 8], "big") >> ((8 - (bit + bits) % 8) % 8) & top
            return decode[2 * j] + raw * (decode[2 * j + 1] - decode[2 * j]) / top

        def sampled(t: float) -> list[float]:
            t = min(end, max(start, t))
            e = min(size - 1.0, max(0.0, encode[0] + (t - start) * (encode[1] - encode[0]) / ((end - start) or 1)))
            i = min(int(e), max(size - 2, 0))
            return [sample(i, j) + (e - i) * (sample(min(i + 1, size - 1), j) - sample(i, j)) for j in range(m)]

        return sampled
    raise ValueError(f"recolour cannot evaluate a type {kind} function")
