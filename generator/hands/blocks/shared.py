"""``shared = { of = "types", count = 2 }``: all cards share n values of their suits or an attribute."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, check_table, field
from .registry import Block, Engine, Needs, register


class Shared(Block):
    name = "shared"
    spec = field(dict)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        g = check_table(ctx, value, {"of": field(str, required=True), "count": field(int)}, path, "shared")
        return (g["of"], g.get("count", 1)) if "of" in g else None

    def needs(self, value: Any, needs: Needs) -> None:
        needs.attribute(value[0])

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        return engine.known_attribute(value[0], path)

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        of, count = value
        return engine.at_least(feats, memo, engine.table_of(of), k) >= count


register(Shared())
