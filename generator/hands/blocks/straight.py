"""``straight = true``: all cards on consecutive steps of the rank ladder (an ace may also play low)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, field
from ..bits import ALL16, G8, popcount, u64
from .registry import Block, Engine, register


def runs(engine: Engine, feats: dict, memo: dict, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(is a run, is a run only with the ace low) for every hand."""
    if ("straight",) in memo:
        return memo[("straight",)]
    present = (feats["rank"] + u64(7 * ALL16)) & u64(G8)  # bit 4p+3 for every rank present
    distinct = popcount(present) == k
    run = u64(sum(1 << (4 * i) for i in range(k)))

    def is_run(bits: np.ndarray) -> np.ndarray:
        low = bits & (~bits + u64(1))
        return bits == low * run

    normal = distinct & is_run(present)
    low_only = np.zeros_like(normal)
    if engine.ace_low is not None:
        ace = u64(1 << (4 * engine.pos[engine.ace_low[0]] + 3))
        spot = u64(1 << (4 * engine.ace_low[1] + 3))
        has = (present & ace) != 0
        alt = (present & ~ace) | spot
        low_only = distinct & has & is_run(alt) & ~normal
    memo[("straight",)] = (normal | low_only, low_only)
    return memo[("straight",)]


class Straight(Block):
    name = "straight"
    spec = field(bool)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        return True if value else None

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        return runs(engine, feats, memo, k)[0]


register(Straight())
