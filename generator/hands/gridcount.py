"""The best hands of a grid counted exactly, from the best category down, for as long as it stays small.

Under a ``grid`` modifier a player's hand is their ``own`` kept cards and the
best of the lines (rows, columns, the two diagonals) of a square grid of
shared cards.  Every deal cannot be gone through (for one kept card and a
grid of nine out of 36 cards there are about 9.2 x 10^14), but the deals
whose best hand is *at least* some category can be counted, by inclusion and
exclusion over the sets of lines that make it:

    deals with a good line = sum over non-empty sets S of lines of
        (-1)^(|S|+1) x (ways to fill the cells of S so that every line of S is good)
                     x (ways to fill the other cells with the other cards)

where a line is good when it and the kept cards make a hand of that category
or better.  For the rare categories the good lines are few and the fillings
are found one by one; as the categories get commoner they grow too many, and
the count stops when a category would take more than ``budget`` steps.  The
categories below are then left to a simulation (see :mod:`.spells`).

Sets of lines that a turn or a reflection of the grid carries into each other
are filled in as many ways, so each is counted once and weighed.
"""

from __future__ import annotations

import itertools
from math import comb, perm

import numpy as np

from .bits import subsets
from .engine import Engine
from .rankings import Grid
from .values import hand_values

BUDGET = 1_000_000  # steps (lines filled, sets of cards joined) a category may take to be counted exactly


MAX_CARDS = 62  # cards a deck may have for its lines to be kept as bit masks


class _OverBudget(Exception):
    """Counting the next category would take more steps than allowed."""


def grid_lines(size: int) -> list[tuple[int, ...]]:
    """The cells of every row, column and the two diagonals of a size x size grid, row by row."""
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    cols = [tuple(r * size + c for r in range(size)) for c in range(size)]
    diagonals = [tuple(i * size + i for i in range(size)), tuple(i * size + size - 1 - i for i in range(size))]
    return rows + cols + diagonals


def grid_total(n: int, grid: Grid) -> int:
    """Every deal: the kept cards (in any order) and the grid, cell by cell."""
    return comb(n, grid.own) * perm(n - grid.own, grid.size**2)


def _symmetries(size: int) -> list[list[int]]:
    """The eight turns and reflections of the grid, each as the cell every cell goes to."""
    cells = [(r, c) for r in range(size) for c in range(size)]
    m = size - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, m - r),
        lambda r, c: (m - r, m - c),
        lambda r, c: (m - c, r),
        lambda r, c: (r, m - c),
        lambda r, c: (m - r, c),
        lambda r, c: (c, r),
        lambda r, c: (m - c, m - r),
    ]
    return [[f(r, c)[0] * size + f(r, c)[1] for r, c in cells] for f in maps]


def line_sets(size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every non-empty set of lines (as indices into :func:`grid_lines`) up to the grid's symmetries,
    with how many sets it stands for."""
    lines = grid_lines(size)
    where = {frozenset(line): i for i, line in enumerate(lines)}
    moves = [[where[frozenset(s[c] for c in line)] for line in lines] for s in _symmetries(size)]
    seen: dict[tuple[int, ...], int] = {}
    for r in range(1, len(lines) + 1):
        for chosen in itertools.combinations(range(len(lines)), r):
            canonical = min(tuple(sorted(move[i] for i in chosen)) for move in moves)
            seen[canonical] = seen.get(canonical, 0) + 1
    return sorted(seen.items(), key=lambda item: (len(item[0]), item[0]))


class _Filler:
    """Ways to fill the cells of a set of lines so that every line is one of the good sets of cards."""

    def __init__(self, lines: list[tuple[int, ...]], good: list[int], steps: list[int], budget: int):
        self.lines = lines
        self.good = good  # each good line as a bit mask of its cards
        self.by_card: dict[int, list[int]] = {}
        for g in good:
            for card in _bits(g):
                self.by_card.setdefault(card, []).append(g)
        self.steps = steps
        self.budget = budget

    def _step(self, n: int = 1) -> None:
        self.steps[0] += n
        if self.steps[0] > self.budget:
            raise _OverBudget

    def fillings(self, chosen: tuple[int, ...]) -> int:
        """Ways to fill the cells of the lines ``chosen`` (distinct cards throughout)."""
        parts = _components([self.lines[i] for i in chosen])
        joined: dict[int, int] = {0: 1}
        for part in parts:
            ways = self._component(part)
            nxt: dict[int, int] = {}
            self._step(len(joined) * len(ways))
            for used, a in joined.items():
                for cards, b in ways.items():
                    if not used & cards:
                        nxt[used | cards] = nxt.get(used | cards, 0) + a * b
            joined = nxt
        return sum(joined.values())

    def _component(self, lines: list[tuple[int, ...]]) -> dict[int, int]:
        """The sets of cards the lines of one connected part can be filled with, and in how many ways."""
        out: dict[int, int] = {}

        def fill(i: int, placed: dict[int, int], used: int) -> None:
            if i == len(lines):
                out[used] = out.get(used, 0) + 1
                return
            line = lines[i]
            known = [placed[c] for c in line if c in placed]
            free = [c for c in line if c not in placed]
            known_mask = sum(1 << card for card in known)
            for g in self.by_card.get(known[0], []) if known else self.good:
                self._step()
                if g & known_mask != known_mask or (g & ~known_mask) & used:
                    continue
                rest = _bits(g & ~known_mask)
                for order in itertools.permutations(rest):
                    inner = dict(placed)
                    inner.update(zip(free, order))
                    fill(i + 1, inner, used | (g & ~known_mask))

        fill(0, {}, 0)
        return out


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _components(lines: list[tuple[int, ...]]) -> list[list[tuple[int, ...]]]:
    """The lines in connected parts (lines sharing cells), each part in an order where every line
    after the first shares a cell with one before it."""
    left = list(lines)
    parts = []
    while left:
        part = [left.pop(0)]
        cells = set(part[0])
        grew = True
        while grew:
            grew = False
            for line in list(left):
                if cells & set(line):
                    part.append(line)
                    cells |= set(line)
                    left.remove(line)
                    grew = True
        parts.append(part)
    return parts


def grid_exact(engine: Engine, grid: Grid, budget: int = BUDGET) -> list[int]:
    """Exact counts of the deals whose best hand is each category, by place in the order in force
    (best first), for as many places from the top as fit the budget each (the last place, once
    every other is counted, is what is left)."""
    if engine.n > MAX_CARDS:
        return []
    value, _ = hand_values(engine)
    ncls = max(1, len(engine.class_fns) + (1 if engine.class_fns else 0))
    place = value // ncls
    n, own, size = engine.n, grid.own, grid.size
    combos = subsets(n, engine.k)
    masks = (np.int64(1) << combos.astype(np.int64)).sum(axis=1)
    kept_sets = [sum(1 << c for c in kept) for kept in itertools.combinations(range(n), own)]
    lines = grid_lines(size)
    sets = line_sets(size)
    places = len(engine.order)
    total = grid_total(n, grid)
    at_least: list[int] = []  # deals whose best hand is this place or better
    for top in range(places - 1):
        steps = [0]
        found = 0
        try:
            for kept in kept_sets:
                holds = (masks & kept) == kept
                good = [int(m) ^ kept for m in masks[holds & (place <= top)]]
                if not good:
                    continue
                filler = _Filler(lines, good, steps, budget)
                for chosen, weight in sets:
                    cells = len({c for i in chosen for c in lines[i]})
                    rest = perm(n - own - cells, size * size - cells)
                    sign = 1 if len(chosen) % 2 else -1
                    found += sign * weight * filler.fillings(chosen) * rest
        except _OverBudget:
            break
        at_least.append(found)
    if len(at_least) == places - 1:
        at_least.append(total)
    return [b - a for a, b in zip([0] + at_least, at_least)]
