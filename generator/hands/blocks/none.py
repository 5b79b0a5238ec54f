"""``none = [{ rank = "ww" }]``: the hand holds no card of these."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import KeyPath
from .registry import Engine, register
from .selectors import SelectorList


class _NoneOf(SelectorList):
    name = "none"

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        self.check_selectors(engine, value, path)
        return True

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        ok = np.ones(m, bool)
        for sel in value:
            ok &= engine.selector_count(feats, sel) == 0
        return ok


register(_NoneOf())
