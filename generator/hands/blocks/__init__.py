"""The building blocks of hand categories: one small unit per block, in one registry.

A category (or tie class) of a ranking is a combination of blocks
(``groups = [2, 2]``, ``flush = true`` ...).  Each block knows how it is
written in a game file (``spec``, ``help``, ``parse``), what feature tables
of the cards it reads (``needs``), what it checks against a deck
(``check``), and how it tells, for millions of hands at once, which fit
(``evaluate``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ...definitions.schema import Context, Field, KeyPath
from ..rankings import Selector

if TYPE_CHECKING:
    from ..engine import Engine


@dataclass
class Needs:
    """The feature tables the blocks of a ranking read, in the order first asked for."""

    attributes: list[str] = field(default_factory=list)
    selectors: list[Selector] = field(default_factory=list)
    mask: bool = False

    def attribute(self, name: str) -> None:
        if name != "suits" and name not in self.attributes:
            self.attributes.append(name)

    def selector(self, sel: Selector) -> None:
        key = Selector(sel.kind, sel.value)
        if key not in self.selectors:
            self.selectors.append(key)


class Block:
    """One building block.  Subclasses set ``name``, ``spec`` and ``help`` and implement ``evaluate``."""

    name: str = ""
    spec: Field
    help: str = ""

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        """The block's value as the engine uses it, or None (the block is left out; problems go to ``ctx``)."""
        return value

    def needs(self, value: Any, needs: Needs) -> None:
        """Record the feature tables this block reads."""

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        """Check the block against the engine's deck (problems through ``engine.error``); False leaves it out."""
        return True

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        raise NotImplementedError


BLOCKS: dict[str, Block] = {}


def register(block: Block) -> Block:
    BLOCKS[block.name] = block
    return block


# registered in the order the README and error messages list them
from . import groups, straight, flush, shared, each_once, distinct, rectangle, contains, none, wild  # noqa: E402,F401,I001

__all__ = ["BLOCKS", "Block", "Needs", "register"]
