"""``flush = true``: all cards share a suit; ``flush = false``: no suit is common to all cards."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, field
from .registry import Block, Engine, register


class Flush(Block):
    name = "flush"
    spec = field(bool)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        return bool(value)

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        shared = engine.at_least(feats, memo, "suits", k) >= 1
        return shared if value else ~shared


register(Flush())
