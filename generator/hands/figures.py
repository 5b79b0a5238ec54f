"""How many figures a probability is printed with, and its interval's ends rounded outward.

An exact probability is printed as a percentage to three significant figures.
A simulated one is printed to no more decimals than its 99.9 % interval
supports: the interval must be narrower than one unit of the last digit
printed.  The ends of an interval are rounded outward (the lower end down,
the upper end up), so the printed interval holds the computed one.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

_SIGNIFICANT = 3


def decimals(p: float, significant: int = _SIGNIFICANT) -> int:
    """Decimals of the percentage that give ``significant`` figures (none for 10 % and up at three)."""
    pct = p * 100
    if pct <= 0:
        return 0
    return max(0, significant - 1 - math.floor(math.log10(pct)))


def supported(p: float, interval: tuple[float, float] | None) -> int:
    """Decimals of the percentage to print: three significant figures, fewer while the interval
    is as wide as one unit of the last digit (never fewer than none)."""
    d = decimals(p)
    if interval is None:
        return d
    width = Decimal(repr(interval[1])) * 100 - Decimal(repr(interval[0])) * 100
    while d > 0 and width >= Decimal(1).scaleb(-d):
        d -= 1
    return d


def percent(p: float, d: int, rounding: str | None = None) -> Decimal:
    """``p`` as a percentage with ``d`` decimals (rounded half-even, or as ``rounding`` says)."""
    value = Decimal(repr(p)) * 100
    return value.quantize(Decimal(1).scaleb(-d), rounding=rounding) if rounding else value.quantize(Decimal(1).scaleb(-d))


def outward_percent(interval: tuple[float, float], d: int) -> tuple[Decimal, Decimal]:
    """The interval as percentages with ``d`` decimals, its lower end rounded down and its upper end up."""
    return percent(interval[0], d, ROUND_FLOOR), percent(interval[1], d, ROUND_CEILING)


def outward(interval: tuple[float, float], significant: int) -> tuple[float, float]:
    """The interval's ends (probabilities) to ``significant`` figures, the lower rounded down, the upper up."""

    def rounded(x: float, how: str) -> float:
        if x <= 0:
            return 0.0
        exponent = math.floor(math.log10(x)) - significant + 1
        return float(Decimal(repr(x)).quantize(Decimal(1).scaleb(exponent), rounding=how))

    return rounded(interval[0], ROUND_FLOOR), min(1.0, rounded(interval[1], ROUND_CEILING))
