"""``flush = true``: all cards share a suit."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, field
from . import Block, Engine, register


class Flush(Block):
    name = "flush"
    spec = field(bool)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        return True if value else None

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        return engine.at_least(feats, memo, "suits", k) >= 1


register(Flush())
