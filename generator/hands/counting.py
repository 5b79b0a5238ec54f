"""Counting every hand of a deck exactly: how many take each category as their best.

Without wild cards, every k-card hand is classified from its feature sums.
With wild cards, every real hand is classified once and the result is
carried down to the smaller sets of natural cards that a wild card completes
(a hand with w wild cards is worth the best of the real hands that contain
its natural cards).

Hands are classified in chunks (all hands starting with one card), so memory
stays small: what is kept for every hand is its best category (one byte)
and, with wild cards, its mask and tie code (16 bytes).  A table larger than
:data:`_MAX_HANDS` is refused with its size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from math import comb

import numpy as np

from ..errors import AetherpressError, Problem
from .bits import U64, combinations, lex_index_drop, lowbit, subsets, u64, unrank
from .engine import Engine
from .values import count_by_hand

_MAX_HANDS = 20_000_000
_Counts = tuple[np.ndarray, np.ndarray, np.ndarray, int, dict[int, tuple[str, ...]]]


def _hands_to_classify(engine: Engine) -> int:
    """How many hands counting would classify: every real hand, and the natural parts wild cards complete."""
    top = comb(engine.n, engine.k)
    if engine.nwild == 0:
        return top
    return sum(comb(engine.n, j) for j in range(max(engine.k - engine.nwild, 0), engine.k + 1))


def _chunks(n: int, k: int, tables: list[np.ndarray], keep: bool) -> Iterator[tuple[np.ndarray | None, list[np.ndarray]]]:
    """Every k-subset of range(n) in lexicographic order, one chunk per first card: (rows or None, table sums)."""
    for first in range(n - k + 1):
        rest, sums = combinations(n - first - 1, k - 1, [t[first + 1 :] for t in tables], keep=keep)
        sums = [t[first] + s for t, s in zip(tables, sums)]
        rows = None
        if rest is not None:
            rows = np.hstack([np.full((len(rest), 1), first, np.int16), (rest + first + 1).astype(np.int16)])
        yield rows, sums


def count(engine: Engine) -> _Counts:
    """Exact counts: (weights per category, pattern counts, subcounts[cat][class], total, first hands)."""
    hands = _hands_to_classify(engine)
    if hands > _MAX_HANDS:
        raise AetherpressError(
            Problem(
                engine.file,
                f"counting ranking '{engine.ranking.id}' on deck '{engine.deck.key}' would classify {hands:,} hands; "
                f"the limit is {_MAX_HANDS:,} (use a smaller hand, deck or number of wild cards)",
            )
        )
    if engine.by_hand:
        return count_by_hand(engine)
    if engine.nwild == 0:
        return _count_plain(engine)
    return _count_wild(engine)


def _tally(engine: Engine, full: np.ndarray, classes: np.ndarray, weight: int, acc: list[np.ndarray]) -> np.ndarray:
    """Add one chunk's hands (bit masks of the categories they fit, tie classes) to the totals; their best categories."""
    best_counts, pattern, sub = acc
    ncat, ncls = sub.shape
    best = lowbit(full)
    best_counts += weight * np.bincount(best, minlength=ncat)[:ncat]
    for i in range(ncat):
        pattern[i] += weight * int(np.count_nonzero(full & u64(1 << i)))
    sub += weight * np.bincount(best * ncls + classes, minlength=ncat * ncls)[: ncat * ncls].reshape(ncat, ncls)
    return best


def _accumulators(engine: Engine) -> tuple[list[np.ndarray], int]:
    ncat = len(engine.ranking.categories)
    ncls = max(1, len(engine.class_fns) + (1 if engine.class_fns else 0))
    return [np.zeros(ncat, np.int64), np.zeros(ncat, np.int64), np.zeros((ncat, ncls), np.int64)], ncls


def _count_plain(engine: Engine) -> _Counts:
    k = engine.k
    acc, _ = _accumulators(engine)
    best_all = np.empty(comb(engine.n, k), np.uint8)
    offset = 0
    for _, sums in _chunks(engine.n, k, engine.tables, keep=False):
        feats = dict(zip(engine.table_names, sums))
        m = len(sums[0])
        mask = engine.masks(feats, k, m, printed=False)
        cls = engine.classes(feats, k, m) if engine.class_fns else np.zeros(m, np.int64)
        best_all[offset : offset + m] = _tally(engine, mask, cls, 1, acc)
        offset += m
    examples: dict[int, tuple[str, ...]] = {}
    _find_examples(engine, best_all, None, 0, examples, lambda idx: unrank(idx, engine.n, k))
    best_counts, pattern, sub = acc
    return best_counts, pattern, sub, int(best_counts.sum()), examples


def _count_wild(engine: Engine) -> _Counts:
    k, n = engine.k, engine.n
    acc, ncls = _accumulators(engine)
    binom = np.array([[comb(a, b) for b in range(k + 2)] for a in range(n + 1)], np.int64)
    mask_k = np.empty(comb(n, k), U64)
    code_k = np.empty(comb(n, k), np.int64)
    lowest = max(k - engine.nwild, 0)
    mask_below = np.zeros(comb(n, k - 1), U64) if k - 1 >= lowest else None
    code_below = np.full(comb(n, k - 1), np.iinfo(np.int64).max, np.int64) if k - 1 >= lowest else None
    offset = 0
    # every real hand: its categories and tie code, carried down to the hands one card smaller
    for rows, sums in _chunks(n, k, engine.tables, keep=True):
        assert rows is not None
        feats = dict(zip(engine.table_names, sums))
        m = len(rows)
        mask = engine.masks(feats, k, m, printed=False)
        cls = engine.classes(feats, k, m) if engine.class_fns else np.zeros(m, np.int64)
        code = lowbit(mask) * ncls + cls
        mask_k[offset : offset + m], code_k[offset : offset + m] = mask, code
        offset += m
        if mask_below is not None and code_below is not None:
            for idx in lex_index_drop(rows, n, binom):
                np.bitwise_or.at(mask_below, idx, mask)
                np.minimum.at(code_below, idx, code)
    levels: dict[int, tuple[np.ndarray, np.ndarray]] = {k: (mask_k, code_k)}
    if mask_below is not None and code_below is not None:
        levels[k - 1] = (mask_below, code_below)
    for j in range(k - 2, lowest - 1, -1):  # smaller levels are small: carry them down whole
        mask_up, code_up = levels[j + 1]
        mask_j = np.zeros(comb(n, j), U64)
        code_j = np.full(comb(n, j), np.iinfo(np.int64).max, np.int64)
        for idx in lex_index_drop(subsets(n, j + 1), n, binom):
            np.bitwise_or.at(mask_j, idx, mask_up)
            np.minimum.at(code_j, idx, code_up)
        levels[j] = (mask_j, code_j)
    total = 0
    examples: dict[int, tuple[str, ...]] = {}
    for w in range(0, min(k, engine.nwild) + 1):
        j = k - w
        mask_j, code_j = levels[j]
        weight = comb(engine.nwild, w)  # natural cards, and w of the wild cards (any of them: they count alike)
        pieces = _chunks(n, j, [], keep=True) if j == k else iter([(subsets(n, j), [])])
        start = 0
        natural, best = [], []
        for rows, _ in pieces:
            assert rows is not None
            size = len(rows)
            keep = ~engine.is_wild[rows].any(axis=1) if j else np.ones(size, bool)
            nat = rows[keep]
            pmask = engine.masks(engine.features(nat), k, len(nat), printed=True, w=w)
            full = mask_j[start : start + size][keep] | pmask
            classes = code_j[start : start + size][keep] % ncls
            best.append(_tally(engine, full, classes, weight, acc).astype(np.uint8))
            natural.append(nat)
            total += weight * len(nat)
            start += size
        _find_examples(engine, np.concatenate(best), np.concatenate(natural), w, examples, None)
    best_counts, pattern, sub = acc
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
    """For each category not yet given an example, the middle hand (in deck order) that takes it."""
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
        elif unrank_hand is not None:
            examples[i] = tuple(engine.universe[c].id for c in unrank_hand(idx))
