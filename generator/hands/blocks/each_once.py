"""``each_once = "suits"``: every value of suits (or of an attribute, or of each in a list) exactly once."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, field
from ..bits import u64
from .registry import Block, Engine, Needs, register


class _EachOnce(Block):
    name = "each_once"
    spec = field(str, list)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        items = [value] if isinstance(value, str) else value
        if not items or not all(isinstance(v, str) for v in items):
            ctx.error(path, 'each_once must be "suits", an attribute name, or a list of them')
            return None
        return tuple(items)

    def needs(self, value: Any, needs: Needs) -> None:
        for name in value:
            needs.attribute(name)

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        return all(engine.known_attribute(name, path) for name in value)

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        ok = np.ones(m, bool)
        for of in value:
            ones = sum(1 << (4 * i) for i in range(len(engine.domains[of])))
            ok &= feats[engine.table_of(of)] == u64(ones)
        return ok


register(_EachOnce())
