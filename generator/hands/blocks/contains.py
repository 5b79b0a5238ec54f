"""``contains = [{ rank = "ace", count = 1 }]``: named cards, ranks, suits or groups, each entry its own cards."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import KeyPath
from .registry import Engine, register
from .selectors import SelectorList


class _Contains(SelectorList):
    name = "contains"

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        self.check_selectors(engine, value, path)
        engine.check_disjoint(value, path)
        return True

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        ok = np.ones(m, bool)
        for sel in value:
            count = engine.selector_count(feats, sel)
            ok &= count >= sel.count
            if sel.max is not None:
                ok &= count <= sel.max
        return ok


register(_Contains())
