"""``distinct = { of = "suits", min = 3 }``: how many different values of suits or an attribute a hand holds."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, check_table, field
from .registry import Block, Engine, Needs, register


class _Distinct(Block):
    name = "distinct"
    spec = field(dict)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        g = check_table(ctx, value, {"of": field(str, required=True), "min": field(int), "max": field(int)}, path, "distinct")
        return (g["of"], g.get("min", 0), g.get("max", 99)) if "of" in g else None

    def needs(self, value: Any, needs: Needs) -> None:
        needs.attribute(value[0])

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        return engine.known_attribute(value[0], path)

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        of, lo, hi = value
        n = engine.at_least(feats, memo, engine.table_of(of), 1)
        return (n >= lo) & (n <= hi)


register(_Distinct())
