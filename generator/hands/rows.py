"""The odds of every row in a game of rows (Fivefold Arrangement), counted exactly.

A player lays out ``row`` of their own cards, one of each of some ranks, in
an order; ``draws`` cards are turned from the draw deck, and a card of the
row turns face up when a card of its rank is turned.  The row scores the
points of its best run of face-up neighbours.  Only which ranks were turned
matters, so the draws are counted once per set of turned ranks (the number
of ways the draw deck can turn exactly those ranks), and every row is scored
against every such set: exact integer counts, no sampling.

Head to head: in a setup with shared draws both rows are scored against the
same turned cards; otherwise each player's cards are turned from a deck of
their own, and two rows' points are independent.
"""

from __future__ import annotations

import copy as _copy
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, factorial
from typing import Any

import numpy as np

from ..definitions.model import Deck
from .rankings import Arrangement, Setup


@dataclass(frozen=True)
class _RowOdds:
    """A kind of row: one row, its mirror image, and every row that differs from it only by
    cards that are interchangeable (the same points and as many in the draw deck); all of
    them score alike."""

    ranks: tuple[str, ...]  # rank ids of one row of the kind, left to right
    slots: tuple[tuple[str, ...], ...]  # for each place, the ranks interchangeable with it
    orders: int  # how many rows (choices and orders of cards) are of this kind
    counts: tuple[int, ...]  # counts[p]: ways the draws give this row p points
    total: int
    win: Fraction  # against a row chosen at random (every row and order alike)
    tie: Fraction

    @property
    def expected(self) -> Fraction:
        return Fraction(sum(p * n for p, n in enumerate(self.counts)), self.total)

    def chance(self, points: int) -> Fraction:
        return Fraction(self.counts[points] if points < len(self.counts) else 0, self.total)

    @property
    def lose(self) -> Fraction:
        return 1 - self.win - self.tie


class SetupOdds:
    """Every row of one setup: points, expected points, and chances head to head."""

    def __init__(self, arrangement: Arrangement, setup: Setup, deck: Deck):
        self.setup = setup
        ranks = sorted(deck.ranks, key=lambda r: r.value)
        self.ranks = [r.id for r in ranks]
        self.labels = {r.id: r.label for r in ranks}
        self.names = {r.id: r.name for r in ranks}
        self.points = np.array([int(r.attributes[setup.points]) for r in ranks], np.int64)
        self.turned, self.weights, self.total = _turned_ranks(arrangement, setup, self.ranks)
        perms = list(itertools.permutations(range(len(self.ranks)), arrangement.row))
        self.rows = np.array(perms, np.int64).reshape(len(perms), arrangement.row)
        self.index = {p: i for i, p in enumerate(perms)}
        self.scores = _scores(self.rows, self.points, self.turned)  # [turned set, row]
        top = int(self.scores.max()) + 1 if self.scores.size else 1
        self.counts = np.stack([(self.weights[:, None] * (self.scores == p)).sum(axis=0) for p in range(top)], axis=1)
        win, tie = self._against_the_field()
        # ranks are interchangeable when they score alike and are as many in the draw deck
        group: dict[tuple[int, int], list[int]] = {}
        for i, r in enumerate(self.ranks):
            group.setdefault((int(self.points[i]), setup.draw_deck.get(r, 0)), []).append(i)
        self.kind_of = [next(g for g in group.values() if i in g) for i in range(len(self.ranks))]
        kinds: dict[tuple, list[int]] = {}
        for i, perm in enumerate(perms):
            pattern = tuple(self.kind_of[j][0] for j in perm)
            kinds.setdefault(min(pattern, pattern[::-1]), []).append(i)
        out = []
        for members in kinds.values():
            i = members[0]
            out.append(
                _RowOdds(
                    tuple(self.ranks[j] for j in perms[i]),
                    tuple(tuple(self.ranks[x] for x in self.kind_of[j]) for j in perms[i]),
                    len(members),
                    tuple(int(x) for x in self.counts[i]),
                    self.total,
                    win[i],
                    tie[i],
                )
            )
        self.all_rows = sorted(out, key=lambda r: (-r.expected, -r.win, r.ranks))
        self.kinds = kinds
        self._kinds_odds = out  # in the order of ``kinds``

    @property
    def title(self) -> str:
        return self.setup.title

    def slot_label(self, slot: Sequence[str]) -> str:
        """A place of a kind of row in short: "D", "C/I", "1–5" (any of those ranks)."""
        if len(slot) <= 2:
            return "/".join(self.labels[r] for r in slot)
        return f"{self.labels[slot[0]]}–{self.labels[slot[-1]]}"

    def row_label(self, row: _RowOdds) -> str:
        """A kind of row in short, left to right: "1–5 · 1–5 · C/I · C/I · D" (spaced, so the places stand apart)."""
        return " · ".join(self.slot_label(slot) for slot in row.slots)

    def row_words(self, row: _RowOdds) -> str:
        """A kind of row in words, left to right, neighbours of the same sort together."""
        parts = []
        for slot, group in itertools.groupby(row.slots):
            n = len(list(group))
            names = [self.names[r] for r in slot]
            if n == 1:
                parts.append(self.slot_names(slot))
            elif n == len(slot) == 2:
                parts.append(f"the {names[0]} and the {names[1]} in either order")
            elif n == len(slot):
                parts.append(f"the {_and(names)} in any order")
            else:
                parts.append(f"{_NUMBERS.get(n, str(n))} of the {_and(names)}")
        return ", then ".join(parts)

    def slot_names(self, slot: Sequence[str]) -> str:
        """A place of a kind of row in words: "the Dragon", "the Censor or the Immaculate", "a One, Two or Three"."""
        names = [self.names[r] for r in slot]
        if len(names) == 1:
            return f"the {names[0]}"
        if len(names) == 2:
            return f"the {names[0]} or the {names[1]}"
        return f"a {', '.join(names[:-1])} or {names[-1]}"

    @property
    def classes(self) -> list[tuple[str, str]]:
        """Each set of interchangeable ranks, lowest first: (short label, in words)."""
        return [(self.slot_label(slot), self.slot_names(slot)) for slot in self._kind_slots()]

    @property
    def marks(self) -> list[tuple[str, list[str]]]:
        """Each set of interchangeable ranks, lowest first: (short label, the ranks' names), for a book in any
        language to say what its marks mean in its own words."""
        return [(self.slot_label(slot), [self.names[r] for r in slot]) for slot in self._kind_slots()]

    def _kind_slots(self) -> list[tuple[str, ...]]:
        return [tuple(self.ranks[i] for i in members) for members in sorted({tuple(g) for g in self.kind_of})]

    def in_words_of(self, deck: Deck) -> SetupOdds:
        """The same counts, its marks and names as ``deck`` (an edition of the deck counted) writes its ranks."""
        copy = _copy.copy(self)
        copy.labels = {r.id: r.label for r in deck.ranks if r.id in self.labels}
        copy.names = {r.id: r.name for r in deck.ranks if r.id in self.names}
        return copy

    @property
    def orders(self) -> int:
        """How many rows there are: every choice of cards, in every order."""
        return len(self.rows)

    def best(self, n: int = 5) -> list[_RowOdds]:
        return self.all_rows[:n]

    def worst(self, n: int = 5) -> list[_RowOdds]:
        return self.all_rows[-n:][::-1]

    def _row(self, ranks: Sequence[str]) -> int:
        key = tuple(self.ranks.index(r) for r in ranks)
        if key not in self.index:
            raise KeyError(f"not a row of this setup: {', '.join(ranks)}")
        return self.index[key]

    def row_kind(self, ranks: Sequence[str]) -> _RowOdds:
        """The kind of row that the row of these rank ids, left to right, is."""
        i = self._row(ranks)
        return next(r for members, r in zip(self.kinds.values(), self._kinds_odds) if i in members)

    def points_now(self, ranks: Sequence[str], turned: set[str]) -> int:
        """What the row of these rank ids scores when the ranks ``turned`` have been turned."""
        mask = sum(1 << i for i, r in enumerate(self.ranks) if r in turned)
        row = np.array([[self.ranks.index(r) for r in ranks]], np.int64)
        return int(_scores(row, self.points, np.array([mask], np.int64))[0, 0])

    def head_to_head(self, a: Any, b: Any) -> tuple[Fraction, Fraction, Fraction]:
        """(row a wins, the rows tie, row b wins), exactly; rows are RowOdds or rank ids."""
        i = self._row(a.ranks if isinstance(a, _RowOdds) else a)
        j = self._row(b.ranks if isinstance(b, _RowOdds) else b)
        if self.setup.shared_draws:
            sa, sb = self.scores[:, i], self.scores[:, j]
            wins = int(self.weights[sa > sb].sum())
            ties = int(self.weights[sa == sb].sum())
            return Fraction(wins, self.total), Fraction(ties, self.total), Fraction(self.total - wins - ties, self.total)
        ca, cb = self.counts[i], self.counts[j]
        below = np.concatenate([[0], np.cumsum(cb)[:-1]])
        wins = int((ca * below).sum())
        ties = int((ca * cb).sum())
        square = self.total * self.total
        return Fraction(wins, square), Fraction(ties, square), Fraction(square - wins - ties, square)

    def _against_the_field(self) -> tuple[list[Fraction], list[Fraction]]:
        """Each row's chance to beat, and to tie, a row chosen at random from every row and order."""
        nrows = self.scores.shape[1]
        if self.setup.shared_draws:
            order = np.sort(self.scores, axis=1)
            below = np.stack([np.searchsorted(order[d], self.scores[d], "left") for d in range(len(order))])
            upto = np.stack([np.searchsorted(order[d], self.scores[d], "right") for d in range(len(order))])
            wins = (self.weights[:, None] * below).sum(axis=0)
            ties = (self.weights[:, None] * (upto - below)).sum(axis=0)
            denominator = self.total * nrows
        else:
            field_counts = self.counts.sum(axis=0)  # over every row: ways x rows
            below = np.concatenate([[0], np.cumsum(field_counts)[:-1]])
            counts = self.counts
            wins = (counts * below[None, :]).sum(axis=1)
            ties = (counts * field_counts[None, :]).sum(axis=1)
            denominator = self.total * self.total * nrows
        return [Fraction(int(w), denominator) for w in wins], [Fraction(int(t), denominator) for t in ties]

    def to_json(self, compare: int = 5) -> dict[str, Any]:
        head = self.best(compare) + self.worst(compare)
        return {
            "setup": self.setup.id,
            "title": self.setup.title,
            "shared_draws": self.setup.shared_draws,
            "draw_deck": dict(self.setup.draw_deck),
            "points": {r: int(p) for r, p in zip(self.ranks, self.points)},
            "draws": self.total,
            "rows": [
                {
                    "row": list(r.ranks),
                    "kind": self.row_label(r),
                    "places": [list(slot) for slot in r.slots],
                    "orders": r.orders,
                    "points": list(r.counts),
                    "expected": float(r.expected),
                    "beats_random_row": float(r.win),
                    "ties_random_row": float(r.tie),
                }
                for r in self.all_rows
            ],
            "head_to_head": [
                {"row": list(a.ranks), "against": list(b.ranks), "win": float(w), "tie": float(t), "lose": float(lo)}
                for a in head
                for b in head
                if a is not b
                for w, t, lo in [self.head_to_head(a, b)]
            ],
        }


_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five"}


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _turned_ranks(arrangement: Arrangement, setup: Setup, ranks: list[str]) -> tuple[np.ndarray, np.ndarray, int]:
    """Every set of ranks the draws can turn (bit masks over ``ranks``), how many ways each
    comes about, and the number of ways in all: sets of cards without replacement, sequences
    of cards with it."""
    sizes = [setup.draw_deck.get(r, 0) for r in ranks]
    draws = arrangement.draws
    ways: dict[int, int] = {}
    for counts in _compositions(draws, len(ranks)):
        if arrangement.replacement:
            w = factorial(draws)
            for n, c in zip(sizes, counts):
                w = w * n**c // factorial(c)
        else:
            w = 1
            for n, c in zip(sizes, counts):
                w *= comb(n, c)
        if w:
            mask = sum(1 << i for i, c in enumerate(counts) if c)
            ways[mask] = ways.get(mask, 0) + w
    total = sum(sizes) ** draws if arrangement.replacement else comb(sum(sizes), draws)
    masks = sorted(ways)
    return np.array(masks, np.int64), np.array([ways[m] for m in masks], np.int64), total


def _compositions(total: int, parts: int):
    """Every way to write ``total`` as an ordered sum of ``parts`` whole numbers, 0 or more."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _scores(rows: np.ndarray, points: np.ndarray, turned: np.ndarray) -> np.ndarray:
    """The best run's points of every row against every set of turned ranks: [turned set, row].

    Built one place at a time, in the narrowest integers that hold any row's points."""
    most = int(np.abs(points).max(initial=0)) * rows.shape[1]
    kind = np.int16 if most < 2**15 else np.int64
    run = np.zeros((len(turned), len(rows)), kind)
    best = np.zeros_like(run)
    for place in range(rows.shape[1]):
        run += points[rows[:, place]].astype(kind)[None, :]
        run *= ((turned[:, None] >> rows[None, :, place]) & 1).astype(kind)
        np.maximum(best, run, out=best)
    return best.astype(np.int64)


def row_odds(arrangement: Arrangement, deck: Deck) -> dict[str, SetupOdds]:
    """Every setup of a game of rows, counted."""
    return {sid: SetupOdds(arrangement, setup, deck) for sid, setup in arrangement.setups.items()}
