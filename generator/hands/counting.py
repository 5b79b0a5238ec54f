"""Counting every hand of a deck exactly: how many take each category as their best.

Without wild cards, every k-card hand is classified at once from its feature
sums.  With wild cards, every real hand is classified once and the result is
carried down to the smaller sets of natural cards that a wild card completes
(a hand with w wild cards is worth the best of the real hands that contain
its natural cards).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numpy as np

from .bits import U64, combinations, lex_index_drop, lowbit, subsets, u64, unrank
from .engine import Engine
from .values import count_by_hand


def count(engine: Engine) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, dict[int, tuple[str, ...]]]:
    """Exact counts: (weights per category, pattern counts, subcounts[cat][class], total, first hands)."""
    if engine.by_hand:
        return count_by_hand(engine)
    ncat = len(engine.ranking.categories)
    ncls = max(1, len(engine.class_fns) + (1 if engine.class_fns else 0))
    k = engine.k
    best_counts = np.zeros(ncat, np.int64)
    pattern = np.zeros(ncat, np.int64)
    sub = np.zeros((ncat, ncls), np.int64)
    examples: dict[int, tuple] = {}
    if engine.nwild == 0:
        combos, sums = combinations(engine.n, k, engine.tables, keep=False)
        feats = dict(zip(engine.table_names, sums))
        m = len(sums[0])
        mask = engine.masks(feats, k, m, printed=False)
        best = lowbit(mask)
        cls = engine.classes(feats, k, m) if engine.class_fns else np.zeros(m, np.int64)
        best_counts += np.bincount(best, minlength=ncat)[:ncat]
        for i in range(ncat):
            pattern[i] += int(np.count_nonzero(mask & u64(1 << i)))
        sub += np.bincount(best * ncls + cls, minlength=ncat * ncls)[: ncat * ncls].reshape(ncat, ncls)
        _find_examples(engine, best, None, 0, examples, lambda idx: unrank(idx, engine.n, k))
        return best_counts, pattern, sub, sum(int(x) for x in best_counts), examples
    # with wild cards: classify every real hand, then carry results down
    combos, sums = combinations(engine.n, k, engine.tables, keep=True)
    assert combos is not None
    feats = dict(zip(engine.table_names, sums))
    m = len(combos)
    mask = engine.masks(feats, k, m, printed=False)
    best = lowbit(mask)
    cls = engine.classes(feats, k, m) if engine.class_fns else np.zeros(m, np.int64)
    code = best * ncls + cls
    binom = np.array([[comb(a, b) for b in range(k + 2)] for a in range(engine.n + 1)], np.int64)
    levels = {k: (combos, mask, code)}
    for j in range(k - 1, max(k - engine.nwild, 0) - 1, -1):
        c_up, mask_up, code_up = levels[j + 1]
        size = comb(engine.n, j)
        mask_j = np.zeros(size, U64)
        code_j = np.full(size, np.iinfo(np.int64).max, np.int64)
        for idx in lex_index_drop(c_up, engine.n, binom):
            np.bitwise_or.at(mask_j, idx, mask_up)
            np.minimum.at(code_j, idx, code_up)
        levels[j] = (subsets(engine.n, j), mask_j, code_j)
    total = 0
    for w in range(0, min(k, engine.nwild) + 1):
        j = k - w
        combos_j, mask_j, code_j = levels[j]
        keep = ~engine.is_wild[combos_j].any(axis=1) if j else np.ones(1, bool)
        # natural cards, and w of the wild cards (any of them: they count alike)
        weight = comb(engine.nwild, w)
        nat = combos_j[keep]
        mm = len(nat)
        pfeats = engine.features(nat)
        pmask = engine.masks(pfeats, k, mm, printed=True, w=w)
        full = mask_j[keep] | pmask
        bst = lowbit(full)
        cl = code_j[keep] % ncls
        best_counts += weight * np.bincount(bst, minlength=ncat)[:ncat]
        for i in range(ncat):
            pattern[i] += weight * int(np.count_nonzero(full & u64(1 << i)))
        sub += weight * np.bincount(bst * ncls + cl, minlength=ncat * ncls)[: ncat * ncls].reshape(ncat, ncls)
        total += weight * mm
        _find_examples(engine, bst, nat, w, examples, None)
    return best_counts, pattern, sub, total, examples


def _wild_ids(engine: Engine, w: int) -> list[str]:
    wilds = [c.id for c in engine.blank_wilds] + [c.id for c in engine.universe if c.wild]
    return wilds[:w]


def _find_examples(
    engine: Engine,
    best: np.ndarray,
    nat: np.ndarray | None,
    w: int,
    examples: dict,
    unrank_hand: Callable[[int], list[int]] | None,
) -> None:
    for i in range(len(engine.ranking.categories)):
        if i in examples:
            continue
        hits = np.flatnonzero(best == i)
        if len(hits) == 0:
            continue
        idx = int(hits[len(hits) // 2])
        if nat is not None:
            cards = [engine.universe[int(c)].id for c in nat[idx]]
            wilds = _wild_ids(engine, w)
            if len(wilds) < w or any(x in cards for x in wilds):
                continue
            examples[i] = tuple(cards) + tuple(wilds)
        else:
            examples[i] = tuple(engine.universe[c].id for c in unrank_hand(idx))  # type: ignore[misc]
