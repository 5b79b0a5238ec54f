"""``groups = [3, 2]``: n of a kind, several groups (three of one rank and two of another)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, field
from .registry import Block, Engine, register


class _Groups(Block):
    name = "groups"
    spec = field(list, item=int)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        if not value or any(g < 1 for g in value) or sum(value) > hand_size:
            ctx.error(path, f"groups must be sizes of 1 or more that fit in a hand of {hand_size}")
            return None
        return tuple(sorted(value, reverse=True))

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        ok = np.ones(m, bool)
        for t in sorted(set(value)):
            ok &= engine.at_least(feats, memo, "rank", t) >= sum(1 for g in value if g >= t)
        return ok


register(_Groups())
