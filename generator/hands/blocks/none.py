"""``none = [{ rank = "ww" }]``: the hand holds no card of these."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, field
from . import Block, Engine, Needs, register
from .selectors import parse_selectors


class NoneOf(Block):
    name = "none"
    spec = field(list, item=dict)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        return parse_selectors(ctx, value, path) or None

    def needs(self, value: Any, needs: Needs) -> None:
        for sel in value:
            needs.selector(sel)

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        for i, sel in enumerate(value):
            engine.check_selector(sel, path + (i,))
        return True

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        ok = np.ones(m, bool)
        for sel in value:
            ok &= engine.selector_count(feats, sel) == 0
        return ok


register(NoneOf())
