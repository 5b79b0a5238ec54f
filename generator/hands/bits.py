"""Hands as bits: 64-bit words of 4-bit fields, and every k-card hand of a deck in lexicographic order.

A card is a few 64-bit numbers with one 4-bit field per rank, per suit, per
value of an attribute or per card selector; a hand's features are the sums
of its cards' numbers, so a building block is a handful of vectorised
integer operations over millions of hands at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb

import numpy as np

U64 = np.uint64
ALL16 = sum(1 << (4 * i) for i in range(16))  # 1 in every 4-bit field
G8 = 8 * ALL16  # the top bit of every field


def u64(value: int) -> np.uint64:
    return U64(value & 0xFFFFFFFFFFFFFFFF)


def popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x)


def at_least(x: np.ndarray, t: int) -> np.ndarray:
    """How many 4-bit fields of each word are at least ``t`` (1..8)."""
    return popcount((x + u64((8 - t) * ALL16)) & u64(G8))


def combinations(n: int, k: int, tables: Sequence[np.ndarray], keep: bool = False) -> tuple[np.ndarray | None, list[np.ndarray]]:
    """Every k-subset of range(n) in lexicographic order, with the sum of each table over it.

    Returns (combos or None, [sums]).  Sums are built one card at a time, so the
    full list of combinations is only made when ``keep`` asks for it.
    """
    if k == 0:
        return (np.zeros((1, 0), np.int16) if keep else None), [np.zeros(1, U64) for _ in tables]
    if n < k:
        return (np.zeros((0, k), np.int16) if keep else None), [np.zeros(0, U64) for _ in tables]
    last = np.arange(n - k + 1, dtype=np.int32)
    sums = [t[last] for t in tables]
    cols: list[np.ndarray] = [last.astype(np.int16)]
    for level in range(2, k + 1):
        hi = n - (k - level)
        counts = hi - (last + 1)
        total = int(counts.sum())
        parent = np.repeat(np.arange(len(last), dtype=np.int32), counts)
        offsets = np.cumsum(counts) - counts
        x = np.arange(total, dtype=np.int32) + np.repeat((last + 1 - offsets).astype(np.int32), counts)
        sums = [s[parent] + t[x] for s, t in zip(sums, tables)]
        if keep:
            cols = [c[parent] for c in cols] + [x.astype(np.int16)]
        last = x
    return (np.stack(cols, axis=1) if keep else None), sums


def subsets(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) in lexicographic order, one row each."""
    combos, _ = combinations(n, k, [], keep=True)
    assert combos is not None
    return combos


def subset_rows(n: int, k: int) -> Iterator[np.ndarray]:
    """Every k-subset of range(n) in lexicographic order, as blocks of rows (one block per first card),
    so that no more than C(n - 1, k - 1) rows are held at once."""
    if k == 0 or n < k:
        yield subsets(n, k)
        return
    for first in range(n - k + 1):
        rest = subsets(n - first - 1, k - 1)
        yield np.hstack([np.full((len(rest), 1), first, np.int16), (rest + first + 1).astype(np.int16)])


def lex_index_drop(combos: np.ndarray, n: int, binom: np.ndarray) -> list[np.ndarray]:
    """For each position i, the lexicographic index among (j-1)-subsets of the row without column i."""
    m, j1 = combos.shape
    j = j1 - 1
    top = comb(n, j) - 1
    c = combos.astype(np.int64)
    same = [binom[n - 1 - c[:, col], j - col] for col in range(j1)]  # column stays at its place
    shift = [binom[n - 1 - c[:, col], j - col + 1] for col in range(j1)]  # column moves one place left
    out = []
    for i in range(j1):
        s = np.zeros(m, np.int64)
        for col in range(i):
            s += same[col]
        for col in range(i + 1, j1):
            s += shift[col]
        out.append(top - s)
    return out


def lowbit(mask: np.ndarray) -> np.ndarray:
    low = mask & (~mask + U64(1))
    return popcount(low - U64(1)).astype(np.int64)


def unrank(index: int, n: int, k: int) -> list[int]:
    """The k-subset of range(n) at ``index`` in lexicographic order."""
    out = []
    x = 0
    for j in range(k, 0, -1):
        while comb(n - x - 1, j - 1) <= index:
            index -= comb(n - x - 1, j - 1)
            x += 1
        out.append(x)
        x += 1
    return out
