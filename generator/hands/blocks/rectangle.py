"""``rectangle = { ranks = 2, suits = 2 }``: n ranks, each present in the same m suits (a Convocation).

The ranks may be named (``ranks = ["magist", "mage"]``).  A hand fits when,
for some set of m suits and n ranks, each rank has m different cards that
can each stand for a different one of those suits (a matching, since a card
may belong to several suits).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, check_table, field
from ...errors import Problem
from ..bits import U64, u64
from .registry import Block, Engine, Needs, register


def _matching(suits: list[int], cards: list[set]) -> bool:
    """Can each suit be given a different card that has it?"""
    if len(cards) < len(suits):
        return False
    match: dict[int, int] = {}

    def augment(s: int, seen: set) -> bool:
        for ci, have in enumerate(cards):
            if suits[s] in have and ci not in seen:
                seen.add(ci)
                if ci not in match or augment(match[ci], seen):
                    match[ci] = s
                    return True
        return False

    return all(augment(s, set()) for s in range(len(suits)))


class _Rectangle(Block):
    name = "rectangle"
    spec = field(dict)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        g = check_table(
            ctx, value, {"ranks": field(int, list, required=True), "suits": field(int, required=True)}, path, "rectangle"
        )
        if "ranks" not in g or "suits" not in g:
            return None
        ranks = g["ranks"]
        if isinstance(ranks, list):
            if not ranks or not all(isinstance(r, str) for r in ranks):
                ctx.error(path + ("ranks",), "ranks must be a number or a list of rank ids")
                return None
            ranks = tuple(ranks)
        elif ranks < 1:
            ctx.error(path + ("ranks",), "ranks must be 1 or more")
            return None
        if g["suits"] < 1:
            ctx.error(path + ("suits",), "suits must be 1 or more")
            return None
        return (ranks, g["suits"])

    def needs(self, value: Any, needs: Needs) -> None:
        needs.mask = True

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        ranks, _ = value
        if isinstance(ranks, tuple):
            for i, rid in enumerate(ranks):
                if rid not in engine.pos and rid not in [x.id for x in engine.deck.ranks]:
                    engine.error(path + ("ranks", i), f"unknown rank '{rid}' in deck '{engine.deck.key}'")
        return True

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        ranks, b = value
        if isinstance(ranks, tuple):
            positions = [engine.pos[r] for r in ranks if r in engine.pos]
            if len(positions) < len(ranks):
                return np.zeros(m, bool)
            need = len(ranks)
        else:
            positions = sorted(engine.rank_span)
            need = ranks
        subsets = list(itertools.combinations(range(len(engine.deck.suits)), b))
        if need > len(positions) or not subsets or need > 15:
            return np.zeros(m, bool)
        mask = feats["mask"]
        out = np.zeros(m, bool)
        for start in range(0, len(subsets), 12):
            chunk = subsets[start : start + 12]
            acc = np.zeros(m, U64)
            for p in positions:
                off, cnt = engine.rank_span[p]
                table = _table(engine, p, chunk)
                sub = ((mask >> u64(off)) & u64((1 << cnt) - 1)).astype(np.int64)
                acc += table[sub]
            guard = sum(16 << (5 * i) for i in range(len(chunk)))
            add = sum((16 - need) << (5 * i) for i in range(len(chunk)))
            out |= ((acc + u64(add)) & u64(guard)) != 0
        return out


def _table(engine: Engine, p: int, chunk: list) -> np.ndarray:
    """For rank position ``p``: which suit sets of ``chunk`` each subset of its cards can cover (5 bits each)."""
    cache = engine.memo.setdefault("rectangle", {})
    key = (p, tuple(chunk))
    if key not in cache:
        off, cnt = engine.rank_span[p]
        if cnt > 12:
            engine.fail(Problem(engine.file, "rectangle: more than 12 cards share a rank"))
        cards = [set(engine.universe[off + i].suits) for i in range(cnt)]
        table = np.zeros(1 << cnt, U64)
        for sub in range(1 << cnt):
            have = [cards[i] for i in range(cnt) if sub >> i & 1]
            v = 0
            for f, suits in enumerate(chunk):
                if _matching(list(suits), have):
                    v |= 1 << (5 * f)
            table[sub] = v
        cache[key] = table
    return cache[key]


register(_Rectangle())
