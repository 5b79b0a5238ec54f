"""Hands built from shared cards: the best hand a player can make, counted exactly or simulated.

Under a ``shared`` modifier each player holds ``own`` cards and ``cards``
shared cards lie in the middle; a hand is ``k`` of them using between
``min`` and ``max`` shared cards, and the player makes the best one.  Every
way the own and shared cards can fall is a set of ``own + cards`` cards and a
choice of which of them are shared, so the count enumerates those sets and
splits; each hand's value is looked up among the values of every k-card hand
(:func:`.values.hand_values`).  When that is too many, a seeded simulation
deals at random instead.

Under a ``grid`` modifier a hand is the player's ``own`` kept cards and one
line (row, column or diagonal) of a square grid of shared cards: there are
too many grids to go through, so the rarest categories are counted exactly
(:mod:`.gridcount`) and the rest are simulated.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np

from ..errors import Problem
from .bits import U64, subset_rows
from .engine import Engine
from .gridcount import grid_exact, grid_lines, grid_total
from .rankings import Grid, Modifier, SharedCards
from .simulate import deals
from .values import hand_values, lex_index, lex_indices

EXACT_LIMIT = 40_000_000  # deals (card sets x splits) up to which a table is counted exactly
_CHUNK = 50_000  # card sets at a time: about 70 MB of working arrays at most


def _hand_size_problem(engine: Engine, modifier: Modifier) -> str | None:
    """Why the modifier cannot make hands of this ranking's size, or None."""
    k = engine.k
    if modifier.shared is not None:
        sh = modifier.shared
        if not _allowed(sh, k):
            return (
                f"modifier '{modifier.id}' cannot make a hand of {k} cards from {sh.own} own and "
                f"{sh.cards} shared cards using {sh.min} to {sh.max} shared cards"
            )
    if modifier.grid is not None and modifier.grid.own + modifier.grid.size != k:
        g = modifier.grid
        return f"modifier '{modifier.id}' makes hands of {g.own + g.size} cards; ranking '{engine.ranking.id}' has {k}"
    return None


def exact_size(engine: Engine, modifier: Modifier) -> int | None:
    """How many deals an exact count would go through (None: it cannot count this modifier exactly)."""
    if modifier.shared is None:
        return None
    sh = modifier.shared
    u = sh.own + sh.cards
    return comb(engine.n, u) * comb(u, sh.cards)


def _allowed(sh: SharedCards, k: int) -> dict[tuple[int, ...], list[int]]:
    """For each choice of shared positions among the own + shared cards (sorted), the
    k-card position subsets a player may use (indices into the list of k-subsets)."""
    u = sh.own + sh.cards
    hands = list(itertools.combinations(range(u), k))
    out: dict[tuple[int, ...], list[int]] = {}
    for split in itertools.combinations(range(u), sh.cards):
        ok = [t for t, hand in enumerate(hands) if sh.min <= len(set(hand) & set(split)) <= sh.max]
        if not ok:
            return {}
        out[split] = ok
    return out


class _Tally:
    """Counts per category (by place in the order in force) and of the categories each deal fits at all."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.ncat = len(engine.ranking.categories)
        self.ncls = max(1, len(engine.class_fns) + (1 if engine.class_fns else 0))
        self.places = np.zeros(self.ncat, np.int64)
        self.pattern = np.zeros(self.ncat, np.int64)
        self.total = 0

    def add(self, best: np.ndarray, fits: np.ndarray) -> None:
        self.places += np.bincount(best // self.ncls, minlength=self.ncat)[: self.ncat]
        self.total += len(best)
        if self.ncat <= 20:
            seen = np.bincount(fits.astype(np.int64), minlength=1 << self.ncat)
            values = np.flatnonzero(seen)
            for i in range(self.ncat):
                self.pattern[i] += int(seen[values[(values >> i) & 1 == 1]].sum())
        else:
            for i in range(self.ncat):
                self.pattern[i] += int(np.count_nonzero((fits >> U64(i)) & U64(1)))

    def raw(self) -> dict:
        counts = np.zeros(self.ncat, np.int64)
        counts[self.engine.order] = self.places
        return {
            "counts": [int(x) for x in counts],
            "pattern": [int(x) for x in self.pattern],
            "subcounts": [[int(n)] + [0] * (self.ncls - 1) for n in counts],  # tie classes are not told apart here
            "total": int(self.total),
            "examples": {},
        }


def _best(values: list[np.ndarray], fits: list[np.ndarray], allowed: list[int], prefix: tuple | None) -> tuple:
    """The best value over the allowed columns, and the union of what they fit."""
    everything = len(values)
    if prefix is not None and len(allowed) == everything - 1:
        (vmin_pre, vmin_suf, f_pre, f_suf) = prefix
        j = next(i for i in range(everything) if i not in allowed)
        parts_v = ([vmin_pre[j - 1]] if j > 0 else []) + ([vmin_suf[j + 1]] if j + 1 < everything else [])
        parts_f = ([f_pre[j - 1]] if j > 0 else []) + ([f_suf[j + 1]] if j + 1 < everything else [])
        best, fit = parts_v[0], parts_f[0]
        for v, f in zip(parts_v[1:], parts_f[1:]):
            best, fit = np.minimum(best, v), fit | f
        return best, fit
    best, fit = values[allowed[0]].copy(), fits[allowed[0]].copy()
    for t in allowed[1:]:
        np.minimum(best, values[t], out=best)
        np.bitwise_or(fit, fits[t], out=fit)
    return best, fit


def _prefixes(values: list[np.ndarray], fits: list[np.ndarray]) -> tuple:
    """Running minima and unions from the left and from the right (for 'all but one')."""
    vp, fp = [values[0]], [fits[0]]
    for v, f in zip(values[1:], fits[1:]):
        vp.append(np.minimum(vp[-1], v))
        fp.append(fp[-1] | f)
    vs, fs = [values[-1]], [fits[-1]]
    for v, f in zip(values[-2::-1], fits[-2::-1]):
        vs.append(np.minimum(vs[-1], v))
        fs.append(fs[-1] | f)
    return vp, vs[::-1], fp, fs[::-1]


def shared_exact(engine: Engine, sh: SharedCards) -> dict:
    """Every way ``own`` and ``shared`` cards can fall, and the best hand of each (exact)."""
    value, fits = hand_values(engine)
    n, k = engine.n, engine.k
    u = sh.own + sh.cards
    allowed = _allowed(sh, k)
    hands = list(itertools.combinations(range(u), k))
    tally = _Tally(engine)
    needs_prefix = any(len(a) == len(hands) - 1 for a in allowed.values())
    for chunk in (rows[s : s + _CHUNK] for rows in subset_rows(n, u) for s in range(0, len(rows), _CHUNK)):
        idx = lex_indices(chunk, hands, n)
        vals = [value[i] for i in idx]
        fit = [fits[i] for i in idx]
        prefix = _prefixes(vals, fit) if needs_prefix else None
        for ok in allowed.values():
            best, union = _best(vals, fit, ok, prefix)
            tally.add(best, union)
    raw = tally.raw()
    raw["method"] = "exact"
    return raw


def _shared_simulated(engine: Engine, sh: SharedCards, trials: int, seed: int) -> dict:
    """A seeded simulation of the same: own cards first, then the shared ones."""
    value, fits = hand_values(engine)
    k = engine.k
    u = sh.own + sh.cards
    split = tuple(range(sh.own, u))
    ok = _allowed(sh, k)[split]
    hands = list(itertools.combinations(range(u), k))
    tally = _Tally(engine)
    for rows in deals(engine.n, u, trials, seed):
        vals, fit = _looked_up(engine, rows, [hands[t] for t in ok], value, fits)
        best, union = _best(vals, fit, list(range(len(ok))), None)
        tally.add(best, union)
    return _simulated(tally, trials, seed)


def grid_simulated(engine: Engine, grid: Grid, trials: int, seed: int) -> dict:
    """A seeded simulation: ``own`` kept cards, a grid of shared cards, the best line; with the exact
    counts of the categories from the top that can be counted (``exact``: category index -> deals)."""
    value, fits = hand_values(engine)
    own = tuple(range(grid.own))
    hands = [own + tuple(grid.own + c for c in line) for line in grid_lines(grid.size)]
    tally = _Tally(engine)
    # with one kept card: the same deals, sorted by the rank of the card kept
    ranks = list(dict.fromkeys(c.rank for c in engine.universe if c.rank is not None))
    rank_of = np.array([ranks.index(c.rank) if c.rank is not None else len(ranks) for c in engine.universe], np.int64)
    kept = np.zeros((len(ranks) + 1, tally.ncat), np.int64)
    for rows in deals(engine.n, grid.own + grid.size**2, trials, seed):
        vals, fit = _looked_up(engine, rows, hands, value, fits)
        best, union = _best(vals, fit, list(range(len(hands))), None)
        tally.add(best, union)
        if grid.own == 1:
            np.add.at(kept, (rank_of[rows[:, 0]], best // tally.ncls), 1)
    raw = _simulated(tally, trials, seed)
    exact = grid_exact(engine, grid)
    if exact:
        raw["exact"] = {
            "total": grid_total(engine.n, grid),
            "counts": {str(engine.order[place]): count for place, count in enumerate(exact)},
        }
    if grid.own == 1:
        by_rank = []  # in ladder order, lowest first
        for i, rank in enumerate(ranks):
            counts = np.zeros(tally.ncat, np.int64)
            counts[engine.order] = kept[i]
            by_rank.append([str(rank), [int(x) for x in counts]])
        raw["kept"] = by_rank
    return raw


def _looked_up(engine: Engine, rows: np.ndarray, hands: list, value: np.ndarray, fits: np.ndarray) -> tuple:
    vals, fit = [], []
    for hand in hands:
        idx = lex_index(np.sort(rows[:, list(hand)], axis=1), engine.n)
        vals.append(value[idx])
        fit.append(fits[idx])
    return vals, fit


def _simulated(tally: _Tally, trials: int, seed: int) -> dict:
    raw = tally.raw()
    raw.update(method="simulation", trials=trials, seed=seed)
    return raw


def built_raw(engine: Engine, modifier: Modifier, trials: int, seed: int, simulate: bool = False) -> dict:
    """The table of best hands under a modifier that builds hands from shared cards."""
    problem = _hand_size_problem(engine, modifier)
    if problem:
        engine.fail(Problem(engine.file, problem))
    if modifier.shared is not None:
        size = exact_size(engine, modifier)
        if not simulate and size is not None and size <= EXACT_LIMIT:
            return shared_exact(engine, modifier.shared)
        return _shared_simulated(engine, modifier.shared, trials, seed)
    assert modifier.grid is not None
    return grid_simulated(engine, modifier.grid, trials, seed)
