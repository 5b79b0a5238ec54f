"""One engine for every ranking: classify a hand and compare two hands.

A ranking (:class:`~.rankings.Ranking`) is compiled against a deck and the
modifiers in force into an :class:`Engine`: each category becomes the list
of its building blocks (:data:`~.blocks.BLOCKS`), evaluated over the feature
sums of many hands at once (:mod:`.encoding`).  Counting every hand of a
deck is :mod:`.counting`.

Wild cards: a wild card stands for any card of the deck (with a rank or a
suit) that is not among the hand's other cards, and two wild cards stand for
different cards.  A hand is worth the best category over all such readings.
Categories marked ``printed`` are matched on the printed cards instead, wild
cards counting as blanks.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..definitions.model import Deck
from ..definitions.schema import KeyPath, suggest
from ..errors import AetherpressError, Problem
from .bits import U64, lowbit, u64
from .blocks import BLOCKS
from .blocks.straight import runs
from .encoding import Encoding, RankingError
from .modifiers import category_order
from .rankings import Modifier, Ranking

_Compiled = list[tuple[str, Any]]  # a category's blocks: (name, value)


@dataclass(frozen=True)
class HandResult:
    """What the engine makes of one hand."""

    category: int
    name: str
    tie_class: str | None
    key: tuple
    reading: tuple[str, ...]  # the real cards the hand counts as (its natural cards when no reading is needed)
    fits: int = 0  # bit i set: the hand fits the pattern of category i (under some reading)

    def fits_category(self, index: int) -> bool:
        return bool(self.fits >> index & 1)


class Engine(Encoding):
    """A ranking compiled against one deck and its modifiers."""

    def __init__(
        self,
        ranking: Ranking,
        deck: Deck,
        modifiers: Iterable[Modifier] = (),
        file: str = "ranking",
        base_ids: dict | None = None,
    ):
        super().__init__(ranking, deck, modifiers, file, base_ids)
        self._compile()
        if self.problems:
            raise RankingError(self.problems)

    def _compile(self) -> None:
        r = self.ranking
        # rank groups for rectangles: ladder position -> (offset, count) in the universe
        self.rank_span: dict[int, tuple[int, int]] = {}
        for i, c in enumerate(self.universe):
            if c.pos is not None:
                off, cnt = self.rank_span.get(c.pos, (i, 0))
                self.rank_span[c.pos] = (off, cnt + 1)
        self.cat_fns = [self._compile_blocks(cat.blocks, cat.path) for cat in r.categories]
        self.class_fns = [self._compile_blocks(c.blocks, c.path) for c in r.classes]
        self.printed = np.array([c.printed for c in r.categories], bool)
        # a requirement: hands that do not meet it fall to its category, the last
        self.require_fns: _Compiled | None = None
        for m in self.modifiers:
            if m.require is not None:
                self.require_fns = self._compile_blocks(m.require.blocks, m.path + ("require",))
        # the order of the categories, best first (a reversal changes it), and each one's place in it
        self.order = category_order(r, self.modifiers, self.error)
        self.place = np.zeros(len(self.order), np.int64)
        self.place[self.order] = np.arange(len(self.order))
        keep = {i for m in self.modifiers for i, c in enumerate(r.categories) if m.reverse and c.name in m.reverse}
        bottom = {len(r.categories) - 1} if self.require_fns is not None else set()
        reversed_order = any(m.reverse is not None for m in self.modifiers)
        self.flipped = {i for i in range(len(r.categories)) if reversed_order and i not in keep and i not in bottom}
        self.lowest_wild = any(m.lowest_wild for m in self.modifiers)
        self.rises = any(m.rise for m in self.modifiers)
        self.by_hand = self.lowest_wild or self.rises or (reversed_order and self.nwild > 0)

    def _compile_blocks(self, blocks: Mapping[str, Any], path: KeyPath) -> _Compiled:
        return [(name, value) for name, value in blocks.items() if BLOCKS[name].check(self, value, tuple(path) + (name,))]

    # --- many hands at once -------------------------------------------------------
    def _eval(self, fns: _Compiled, feats: dict, memo: dict, k: int, w: int, m: int) -> np.ndarray:
        ok = np.ones(m, bool)
        for name, value in fns:
            ok &= BLOCKS[name].evaluate(self, feats, memo, k, w, m, value)
        return ok

    def masks(self, feats: dict, k: int, m: int, printed: bool, w: int = 0) -> np.ndarray:
        """Bit i set where category i fits.  ``printed``: only the printed categories
        (on natural cards with ``w`` wild cards); otherwise the reading categories
        (and the printed ones too when this deck has no wild cards)."""
        memo: dict = {}
        out = np.zeros(m, U64)
        for i, fns in enumerate(self.cat_fns):
            use = self.printed[i] if printed else (not self.printed[i] or self.nwild == 0)
            if not use:
                continue
            if not fns:
                out |= u64(1 << i)
                continue
            out |= self._eval(fns, feats, memo, k, w, m).astype(U64) << u64(i)
        if self.require_fns is not None:
            last = u64(1 << (len(self.cat_fns) - 1))
            ok = self._eval(self.require_fns, feats, memo, k, w, m)
            out = np.where(ok, out & ~last, U64(0) if printed else last)
        return out

    def best_place(self, mask: np.ndarray) -> np.ndarray:
        """The place, in the order in force, of the category each mask stands for: the best
        category it fits in the ranking's own order (a hand keeps its category when a spell
        reorders them).  A mask of 0 sorts after every place."""
        if not self.flipped:
            return lowbit(mask)
        place = np.append(self.place, len(self.order))
        return place[np.minimum(lowbit(mask), len(self.order))]

    def classes(self, feats: dict, k: int, m: int) -> np.ndarray:
        memo: dict = {}
        out = np.full(m, len(self.class_fns), np.int64)
        for i in range(len(self.class_fns) - 1, -1, -1):
            fns = self.class_fns[i]
            hit = self._eval(fns, feats, memo, k, 0, m) if fns else np.ones(m, bool)
            out[hit] = i
        return out

    # --- one hand ------------------------------------------------------------------
    def _resolve(self, cards: Sequence[str]) -> tuple[list[int], int]:
        if len(cards) != self.k:
            raise AetherpressError(
                Problem(self.file, f"a hand of '{self.ranking.id}' has {self.k} cards, not {len(cards)}: {', '.join(cards)}")
            )
        natural: list[int] = []
        w = 0
        blank_left: dict[str, int] = {}
        for c in self.blank_wilds:
            blank_left[c.id] = blank_left.get(c.id, 0) + 1
        used: dict[str, int] = {}
        for cid in cards:
            if cid in blank_left:
                if blank_left[cid] == 0:
                    raise AetherpressError(Problem(self.file, f"card '{cid}' is in the hand more often than in the deck"))
                blank_left[cid] -= 1
                w += 1
                continue
            options = self.index_of.get(cid)
            if not options:
                raise AetherpressError(
                    Problem(self.file, f"no card '{cid}' in deck '{self.deck.key}'{suggest(cid, self.index_of)}")
                )
            n_used = used.get(cid, 0)
            if n_used >= len(options):
                raise AetherpressError(Problem(self.file, f"card '{cid}' is in the hand more often than in the deck"))
            used[cid] = n_used + 1
            i = options[n_used]
            if self.universe[i].wild:
                w += 1
            else:
                natural.append(i)
        return natural, w

    def evaluate(self, cards: Sequence[str]) -> HandResult:
        natural, w = self._resolve(cards)
        options = [(natural, w)]
        if self.lowest_wild:  # the lowest card not already wild is wild too: any of them, if several tie
            ranked = [i for i in natural if self.universe[i].pos is not None]
            if ranked:
                low = min(int(self.universe[i].pos or 0) for i in ranked)
                options = [([j for j in natural if j != i], w + 1) for i in ranked if self.universe[i].pos == low]
        result = max((self._evaluate(nat, ww) for nat, ww in options), key=lambda r: r.key)
        rise = sum(self.rise_of.get(c, 0) for c in cards)
        if not rise:
            return result
        place = max(int(self.place[result.category]) - rise, 0)
        category = self.order[place]
        return HandResult(
            category,
            self.ranking.categories[category].name,
            result.tie_class,
            (-place,) + result.key[1:],
            result.reading,
            result.fits | 1 << category,
        )

    def _evaluate(self, natural: list[int], w: int) -> HandResult:
        k = self.k
        if w:
            pool = [i for i in range(self.n) if i not in natural]
            readings = np.array([sorted(natural + list(x)) for x in itertools.combinations(pool, w)], np.int64)
        else:
            readings = np.array([sorted(natural)], np.int64)
        feats = self.features(readings)
        m = len(readings)
        mask = self.masks(feats, k, m, printed=False)
        own = self.best_place(mask)
        cls = self.classes(feats, k, m) if self.class_fns else np.zeros(m, np.int64)
        nat = np.array([sorted(natural)], np.int64).reshape(1, len(natural))
        pmask = self.masks(self.features(nat), k, 1, printed=True, w=w)[0] if (w or self.printed.any()) else U64(0)
        if self.nwild == 0:
            pmask = U64(0)
        full = np.bitwise_or.reduce(mask) | pmask
        best_place = min(int(own.min()), int(self.best_place(np.array([pmask], U64))[0]))
        best = self.order[best_place]
        low_only = runs(self, feats, {}, k)[1]
        if best_place in own:
            cand = np.flatnonzero(own == best_place)
        else:
            cand = np.flatnonzero(own == own.min())
        cand = cand[cls[cand] == cls[cand].min()]
        if best_place in own:
            best_key, best_reading = max(
                ((self._tiebreak(best, readings[i], int(cls[i]), w, bool(low_only[i])), readings[i]) for i in cand),
                key=lambda pair: pair[0],
            )
        else:  # only a printed category fits: the natural cards as they are
            best_reading = np.array(sorted(natural))
            best_key = self._tiebreak(best, best_reading, int(cls[cand[0]]), w, False)
        names = [c.name for c in self.ranking.classes]
        tie_class = (names[int(cls[cand[0]])] if int(cls[cand[0]]) < len(names) else None) if names else None
        return HandResult(
            best,
            self.ranking.categories[best].name,
            tie_class,
            (-best_place,) + best_key,
            tuple(self.universe[int(i)].id for i in best_reading),
            int(full),
        )

    def _tiebreak(self, category: int, reading: np.ndarray, cls: int, w: int, low_ace: bool) -> tuple:
        """What decides between two hands of the same category, step by step (bigger wins).

        classes: the tie class (kindred > fortune > neither); no_wild: a hand without
        wild cards first; ranks: the rank values, cards of the largest group first,
        then from the highest down; top: the highest such card only; suits: the
        suits of the cards in that order, each card's highest suit first."""
        cards = [self.universe[int(i)] for i in reading]
        values = []
        for c in cards:
            v = c.value
            if low_ace and self.ace_low and c.rank == self.ace_low[0]:
                v = self.ace_low_value
            values.append(v)
        counts: dict[Any, int] = {}
        for c in cards:
            if c.rank is not None:
                counts[c.rank] = counts.get(c.rank, 0) + 1
        order = sorted(
            range(len(cards)),
            key=lambda i: (
                -(counts.get(cards[i].rank, 0)),
                -values[i],
                tuple(-self.suit_order[s] for s in sorted(cards[i].suits, key=lambda s: -self.suit_order[s])),
            ),
        )
        key: list[Any] = []
        steps = self.ranking.categories[category].tiebreak or self.ranking.tiebreak
        for step in steps:
            if step == "classes":
                key.append(-cls)
            elif step == "no_wild":
                key.append(0 if w else 1)
            elif step == "ranks":
                key.append(tuple(values[i] for i in order))
            elif step == "top":
                key.append(values[order[0]] if order else -1)
            elif step == "suits":
                key.append(tuple(tuple(sorted((self.suit_order[s] for s in cards[i].suits), reverse=True)) for i in order))
        return _negated(tuple(key)) if category in self.flipped else tuple(key)


def _negated(key: Any) -> Any:
    """A tie-break key that sorts the other way round (a reversed order of hands)."""
    return tuple(_negated(x) for x in key) if isinstance(key, tuple) else -key
