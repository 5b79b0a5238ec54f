"""The registry of building blocks: what a block is, what it sees of the engine, and the blocks by name.

Each block module registers its block here as it loads (``register``); the package's face loads them in
order, so the registry lies below both and a block importing it makes no cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ...definitions.model import Deck
from ...definitions.schema import Context, Field, KeyPath
from ...errors import Problem
from ..rankings import Selector


class Engine(Protocol):
    """What a block sees of the engine it is compiled into (see :mod:`..encoding`)."""

    deck: Deck
    file: str
    pos: dict[str, int]
    ace_low: tuple[str, int] | None
    domains: dict[str, list]
    rank_span: dict[int, tuple[int, int]]
    universe: list[Any]
    memo: dict

    def error(self, path: KeyPath, message: str) -> None: ...
    def fail(self, problem: Problem) -> None: ...
    def check_selector(self, sel: Selector, path: KeyPath) -> None: ...
    def matches(self, sel: Selector, card: Any, suits: tuple[str, ...]) -> bool: ...
    def check_disjoint(self, sels: tuple[Selector, ...], path: KeyPath) -> None: ...
    def known_attribute(self, name: str, path: KeyPath) -> bool: ...
    def table_of(self, of: str) -> str: ...
    def at_least(self, feats: dict, memo: dict, name: str, t: int) -> np.ndarray: ...
    def selector_count(self, feats: dict, s: Selector) -> np.ndarray: ...


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
    """One building block.  Subclasses set ``name`` and ``spec`` and implement ``evaluate``."""

    name: str = ""
    spec: Field

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


def parse_blocks(ctx: Context, good: dict[str, Any], path: KeyPath, hand_size: int) -> dict[str, Any]:
    """The building blocks present in ``good``, each checked and normalised by its own unit."""
    out: dict[str, Any] = {}
    for name, value in good.items():
        block = BLOCKS.get(name)
        if block is None:
            continue
        parsed = block.parse(ctx, value, path + (name,), hand_size)
        if parsed is not None:
            out[name] = parsed
    return out


def register(block: Block) -> Block:
    BLOCKS[block.name] = block
    return block
