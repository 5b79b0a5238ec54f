"""The value of every hand of a deck, one by one: for modifiers whose effect depends on the hand.

Counting (:mod:`.counting`) weighs hands with the same natural cards alike.
Some modifiers make that impossible: the lowest card of each hand is wild
(which card that is depends on the hand), a hand rises one category for each
card of some kind it holds, or a reversed order makes wild cards seek the
*lowest* category.  Here every k-card hand of the deck gets its value: every
real hand is classified once, results are carried down to the smaller sets
of natural cards (the best, in the order in force, of the real hands that
hold them), and each hand looks up the set its natural cards make.  The same
values serve the tables of hands built from shared cards (:mod:`.spells`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import comb

import numpy as np

from ..errors import Problem
from .bits import U64, combinations, lex_index_drop, subsets, u64
from .engine import Engine


def lex_index(rows: np.ndarray, n: int) -> np.ndarray:
    """The index of each row (a sorted subset of range(n)) among the subsets of its size in lexicographic order."""
    m, j = rows.shape
    out = np.full(m, comb(n, j) - 1, np.int64)
    for pos in range(j):
        out -= _binom(n, j)[n - 1 - rows[:, pos].astype(np.int64), j - pos]
    return out


def lex_indices(rows: np.ndarray, hands: Sequence[Sequence[int]], n: int) -> list[np.ndarray]:
    """:func:`lex_index` of ``rows[:, hand]`` for each hand (increasing columns of sorted rows, all of one size):
    each column's term at each place in a hand is looked up once and shared by every hand that puts it there."""
    if not hands:
        return []
    j = len(hands[0])
    m = rows.shape[0]
    binom = _binom(n, j)
    top = comb(n, j) - 1
    terms: dict[tuple[int, int], np.ndarray] = {}
    out = []
    for hand in hands:
        index = np.full(m, top, np.int64)
        for place, column in enumerate(hand):
            term = terms.get((column, place))
            if term is None:
                term = terms[(column, place)] = binom[n - 1 - rows[:, column].astype(np.int64), j - place]
            index -= term
        out.append(index)
    return out


@cache
def _binom(n: int, k: int) -> np.ndarray:
    """The binomial coefficients C(a, b) for a up to ``n`` and b up to ``k`` + 1."""
    return np.array([[comb(a, b) for b in range(k + 2)] for a in range(n + 1)], np.int64)


def hand_values(engine: Engine) -> tuple[np.ndarray, np.ndarray]:
    """For every k-card hand of the deck's cards, in lexicographic order: its value as
    ``place * classes + class`` (place: its category's place in the order in force, best 0)
    and the mask of the categories it fits (under some reading, or by rising)."""
    memo = engine.memo.get("hand_values")
    if memo is not None:
        return memo
    if engine.blank_wilds:
        engine.fail(
            Problem(engine.file, "wild cards without rank or suit cannot be combined with this modifier; count without it")
        )
    k, n = engine.k, engine.n
    ncls = max(1, len(engine.class_fns) + (1 if engine.class_fns else 0))
    combos, sums = combinations(n, k, engine.tables, keep=True)
    assert combos is not None
    feats = dict(zip(engine.table_names, sums))
    m = len(combos)
    mask = engine.masks(feats, k, m, printed=False)
    cls = engine.classes(feats, k, m) if engine.class_fns else np.zeros(m, np.int64)
    code = engine.best_place(mask) * ncls + cls
    wild = engine.is_wild[combos]
    most = int(wild.sum(axis=1).max()) + (1 if engine.lowest_wild else 0) if m else 0
    value, fits = code, mask
    if most:
        levels = _carry_down(engine, combos, mask, code, most)
        value, fits = _natural_values(engine, combos, wild, levels, ncls)
    rise = np.array([engine.rise_of.get(c.id, 0) for c in engine.universe], np.int64)
    if rise.any():
        up = rise[combos].sum(axis=1)
        place = np.maximum(value // ncls - up, 0)
        value = place * ncls + value % ncls
        order = np.array(engine.order, np.int64)
        fits = fits | (U64(1) << order[place].astype(U64))
    engine.memo["hand_values"] = (value, fits)
    return value, fits


def _carry_down(engine: Engine, combos: np.ndarray, mask: np.ndarray, code: np.ndarray, most: int) -> dict:
    """For every set of j natural cards (j from k down to k - most): the union of the masks
    and the best value of the real hands that hold it."""
    k, n = engine.k, engine.n
    binom = _binom(n, k)
    levels = {k: (combos, mask, code)}
    for j in range(k - 1, max(k - most, 0) - 1, -1):
        c_up, mask_up, code_up = levels[j + 1]
        size = comb(n, j)
        mask_j = np.zeros(size, U64)
        code_j = np.full(size, np.iinfo(np.int64).max, np.int64)
        for idx in lex_index_drop(c_up, n, binom):
            np.bitwise_or.at(mask_j, idx, mask_up)
            np.minimum.at(code_j, idx, code_up)
        levels[j] = (subsets(n, j), mask_j, code_j)
    return levels


def _natural_values(
    engine: Engine, combos: np.ndarray, wild: np.ndarray, levels: dict, ncls: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's value from the natural cards it keeps once its wild cards (and, under a
    lowest-wild modifier, its lowest natural card) stand for any cards."""
    m, k = combos.shape
    options = [(wild, np.ones(m, bool))]  # (which cards are wild, the hands this applies to)
    if engine.lowest_wild:
        pos = np.array([c.pos if c.pos is not None else -1 for c in engine.universe], np.int64)[combos]
        natural = ~wild & (pos >= 0)
        low = np.where(natural, pos, np.iinfo(np.int64).max).min(axis=1)
        lowest = natural & (pos == low[:, None])
        options = [(wild | (np.arange(k) == c)[None, :], lowest[:, c]) for c in range(k) if lowest[:, c].any()]
        options.append((wild, ~lowest.any(axis=1)))
    value = np.full(m, np.iinfo(np.int64).max, np.int64)
    fits = np.zeros(m, U64)
    for pattern, rows_ok in options:
        bits = (pattern.astype(np.int64) << np.arange(k)).sum(axis=1)
        for p in np.unique(bits[rows_ok]):
            rows = np.flatnonzero(rows_ok & (bits == p))
            keep = [c for c in range(k) if not p >> c & 1]
            nat = combos[rows][:, keep]
            _, mask_j, code_j = levels[len(keep)]
            idx = lex_index(nat, engine.n) if keep else np.zeros(len(rows), np.int64)
            v, f = code_j[idx], mask_j[idx]
            w = k - len(keep)
            if engine.printed.any():
                pmask = engine.masks(engine.features(nat), k, len(rows), printed=True, w=w)
                place = engine.best_place(pmask)
                v = np.where(place * ncls < v - v % ncls, place * ncls + v % ncls, v)
                f = f | pmask
            value[rows] = np.minimum(value[rows], v)
            fits[rows] |= f
    return value, fits


def count_by_hand(engine: Engine) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, dict[int, tuple[str, ...]]]:
    """Exact counts from every hand's own value (see :func:`.counting.count` for the shape)."""
    value, fits = hand_values(engine)
    ncat = len(engine.ranking.categories)
    ncls = max(1, len(engine.class_fns) + (1 if engine.class_fns else 0))
    order = np.array(engine.order, np.int64)
    best = order[value // ncls]
    cls = value % ncls
    counts = np.bincount(best, minlength=ncat)[:ncat].astype(np.int64)
    pattern = np.array([int(np.count_nonzero(fits & u64(1 << i))) for i in range(ncat)], np.int64)
    sub = np.bincount(best * ncls + cls, minlength=ncat * ncls)[: ncat * ncls].reshape(ncat, ncls).astype(np.int64)
    examples: dict[int, tuple[str, ...]] = {}
    combos = None
    for i in range(ncat):
        hits = np.flatnonzero(best == i)
        if len(hits):
            if combos is None:
                combos = subsets(engine.n, engine.k)
            examples[i] = tuple(engine.universe[int(c)].id for c in combos[hits[len(hits) // 2]])
    return counts, pattern, sub, int(counts.sum()), examples
