"""``wild = { min = 2 }``: how many wild cards a hand holds (printed categories only)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, check_table, field
from .registry import Block, Engine, register


class _Wild(Block):
    name = "wild"
    spec = field(dict)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        g = check_table(ctx, value, {"min": field(int), "max": field(int)}, path, "wild")
        return (g.get("min", 1), g.get("max", 99))

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        lo, hi = value
        return np.full(m, lo <= w <= hi, bool)


register(_Wild())
