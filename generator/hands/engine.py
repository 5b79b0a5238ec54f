"""One engine for every ranking: classify a hand, compare two hands, count a deck.

A ranking (``games.Ranking``) is compiled against a deck (``model.Deck``)
and the modifiers in force into an ``Engine``.  Every card becomes a few
64-bit numbers with 4-bit fields (one field per rank, per suit, per value of
an attribute, per card selector); the features of a hand are the sums of its
cards' numbers, so each building block is a handful of vectorised integer
operations over millions of hands at once.

Wild cards: a wild card stands for any card of the deck (with a rank or a
suit) that is not among the hand's other cards, and two wild cards stand for
different cards.  A hand is worth the best category over all such readings,
which is the best category over all real hands that contain its natural
cards: the engine classifies every real hand once and carries the result
down to smaller hands (``_propagate``).  Categories marked ``printed`` are
matched on the printed cards instead, wild cards counting as blanks.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import comb
from typing import Any, Iterable, Sequence

import numpy as np

from ..errors import AetherpressError, Problem
from ..model import Card, Deck
from .games import Game, Modifier, Ranking, Selector

ENGINE_VERSION = "1"

U64 = np.uint64
ALL16 = sum(1 << (4 * i) for i in range(16))  # 1 in every 4-bit field
G8 = 8 * ALL16                                  # the top bit of every field


def _u(value: int) -> np.uint64:
    return U64(value & 0xFFFFFFFFFFFFFFFF)


def popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x)


class RankingError(AetherpressError):
    pass


@dataclass(frozen=True)
class Info:
    """One physical card as the engine sees it."""
    id: str
    card: Card
    rank: str | None
    pos: int | None     # field on the rank ladder
    value: int          # rank value for comparisons (-1: no rank)
    suits: tuple[int, ...]
    wild: bool

    @property
    def blank(self) -> bool:
        return self.rank is None and not self.suits


@dataclass(frozen=True)
class HandResult:
    """What the engine makes of one hand."""
    category: int
    name: str
    tie_class: str | None
    key: tuple
    reading: tuple[str, ...]  # the real cards the hand counts as (its natural cards when no reading is needed)
    fits: int = 0             # bit i set: the hand fits the pattern of category i (under some reading)

    def fits_category(self, index: int) -> bool:
        return bool(self.fits >> index & 1)


def _combos(n: int, k: int, tables: Sequence[np.ndarray], keep: bool = False):
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
    cols = [last.astype(np.int16)] if keep else None
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


def _lex_index_drop(combos: np.ndarray, n: int, binom: np.ndarray) -> list[np.ndarray]:
    """For each position i, the lexicographic index among (j-1)-subsets of the row without column i."""
    m, j1 = combos.shape
    j = j1 - 1
    top = comb(n, j) - 1
    c = combos.astype(np.int64)
    same = [binom[n - 1 - c[:, col], j - col] for col in range(j1)]          # column stays at its place
    shift = [binom[n - 1 - c[:, col], j - col + 1] for col in range(j1)]     # column moves one place left
    out = []
    for i in range(j1):
        s = np.zeros(m, np.int64)
        for col in range(i):
            s += same[col]
        for col in range(i + 1, j1):
            s += shift[col]
        out.append(top - s)
    return out


class Engine:
    """A ranking compiled against one deck and its modifiers."""

    def __init__(self, ranking: Ranking, deck: Deck, modifiers: Iterable[Modifier] = (), file: str = "ranking",
                 base_ids: dict | None = None):
        self._base_ids = base_ids or {}
        self.ranking = ranking
        self.deck = deck
        self.modifiers = tuple(modifiers)
        self.file = file
        self.k = ranking.hand_size
        self.problems: list[Problem] = []
        self._build_cards()
        self._build_tables()
        self._compile()
        if self.problems:
            raise RankingError(self.problems)

    # --- cards and feature tables --------------------------------------------
    def _err(self, path: tuple, message: str) -> None:
        from ..schema import format_path
        self.problems.append(Problem(self.file, message, None, format_path(path) if path else None))

    def _matches(self, sel: Selector, card: Card, suits: tuple[str, ...]) -> bool:
        if sel.kind == "card":
            return card.id == sel.value
        if sel.kind == "rank":
            return card.rank == sel.value
        if sel.kind == "suit":
            return sel.value in suits
        return card.group == sel.value

    def _check_selector(self, sel: Selector, path: tuple) -> None:
        known = {"card": [c.id for c in self.deck.cards], "rank": [r.id for r in self.deck.ranks],
                 "suit": [s.id for s in self.deck.suits], "group": sorted({c.group for c in self.deck.cards})}[sel.kind]
        if sel.value not in known and not (sel.kind in ("card", "rank") and self._in_base(sel)):
            from ..schema import suggest
            self._err(path, f"unknown {sel.kind} '{sel.value}' in deck '{self.deck.key}'{suggest(sel.value, known)}")

    def _in_base(self, sel: Selector) -> bool:
        # a card or rank that a variant removed is not an error: the block just never matches
        return sel.value in self._base_ids.get(sel.kind, ())

    def _build_cards(self) -> None:
        deck = self.deck
        suit_ids = [s.id for s in deck.suits]
        if len(suit_ids) > 16:
            self._err((), "the engine handles at most 16 suits")
        ranks = sorted(deck.ranks, key=lambda r: r.value)
        if self.ranking.ladder == "values":
            pos = {r.id: r.value for r in ranks}
        else:
            pos = {r.id: i for i, r in enumerate(ranks)}
        self.ace_low = None
        al = self.ranking.ace_low
        if al is not None and al.rank in pos and al.below in pos:
            self.ace_low = (al.rank, pos[al.below] - 1)
            self.ace_low_value = next(r.value for r in ranks if r.id == al.below) - 1
        base = min(list(pos.values()) + ([self.ace_low[1]] if self.ace_low else [0]), default=0)
        pos = {r: p - base for r, p in pos.items()}
        if self.ace_low:
            self.ace_low = (self.ace_low[0], self.ace_low[1] - base)
        if pos and max(pos.values()) >= 16:
            self._err(("ladder",), "the rank ladder spans more than 16 steps")
        self.pos = pos
        self.rank_value = {r.id: r.value for r in deck.ranks}
        every = [s for m in self.modifiers for s in m.every_suit]
        wild = [s for m in self.modifiers for s in m.wild]
        for m in self.modifiers:
            for i, s in enumerate(m.every_suit):
                self._check_selector(s, ("modifiers", m.id, "every_suit", i))
            for i, s in enumerate(m.wild):
                self._check_selector(s, ("modifiers", m.id, "wild", i))
        infos = []
        for card in deck.cards:
            suits = card.suits
            if any(self._matches(s, card, suits) for s in every):
                suits = tuple(suit_ids)
            is_wild = any(self._matches(s, card, card.suits) for s in wild)
            for copy in range(card.copies):
                infos.append(Info(card.id, card, card.rank, pos.get(card.rank) if card.rank else None,
                                  self.rank_value.get(card.rank, -1) if card.rank else -1,
                                  tuple(suit_ids.index(s) for s in suits), is_wild))
        # the real cards, grouped by rank in ladder order; blank wild cards stand outside
        order = sorted(range(len(infos)), key=lambda i: (infos[i].pos if infos[i].pos is not None else 99, i))
        self.universe = [infos[i] for i in order if not (infos[i].wild and infos[i].blank)]
        self.blank_wilds = [c for c in infos if c.wild and c.blank]
        self.n = len(self.universe)
        self.is_wild = np.array([c.wild for c in self.universe], bool)
        self.nwild = len(self.blank_wilds) + int(self.is_wild.sum())
        if self.n > 64:
            self._err((), f"the engine handles decks of at most 64 cards; '{deck.key}' has {self.n}")
        if self.n < self.k:
            self._err(("hand_size",), f"deck '{deck.key}' has only {self.n} cards for hands of {self.k}")
        self.index_of: dict[str, list[int]] = {}
        for i, c in enumerate(self.universe):
            self.index_of.setdefault(c.id, []).append(i)
        suit_order = [s.order for s in deck.suits]
        if len(set(suit_order)) <= 1:  # no order given: the first suit listed is the highest
            suit_order = [len(deck.suits) - i for i in range(len(deck.suits))]
        self.suit_order = suit_order

    def _build_tables(self) -> None:
        r = self.ranking
        attrs: list[str] = []
        selectors: list[Selector] = []
        self.uses_mask = False
        blocks_all = [c.blocks for c in r.categories] + [c.blocks for c in r.classes]
        for blocks in blocks_all:
            for name, value in blocks.items():
                if name in ("shared", "distinct") and value[0] != "suits" and value[0] not in attrs:
                    attrs.append(value[0])
                if name == "each_once":
                    attrs.extend(v for v in value if v != "suits" and v not in attrs)
                if name in ("contains", "none"):
                    for s in value:
                        key = Selector(s.kind, s.value)
                        if key not in selectors:
                            selectors.append(key)
                if name == "rectangle":
                    self.uses_mask = True
        tables: dict[str, list[int]] = {"rank": [], "suits": []}
        for c in self.universe:
            tables["rank"].append(1 << (4 * c.pos) if c.pos is not None else 0)
            tables["suits"].append(sum(1 << (4 * s) for s in c.suits))
        self.domains: dict[str, list] = {"suits": list(range(len(self.deck.suits)))}
        for a in attrs:
            values: list = []
            for c in self.deck.cards:
                v = c.attributes.get(a)
                if v is None:
                    continue
                for item in (v if isinstance(v, (list, tuple)) else [v]):
                    if item not in values:
                        values.append(item)
            if not values:
                self._err((), f"no card of deck '{self.deck.key}' has the attribute '{a}'")
            if len(values) > 16:
                self._err((), f"attribute '{a}' has more than 16 values")
            self.domains[a] = values
            col = []
            for c in self.universe:
                v = c.card.attributes.get(a)
                items = v if isinstance(v, (list, tuple)) else ([] if v is None else [v])
                col.append(sum(1 << (4 * values.index(x)) for x in set(items) if x in values))
            tables["attr:" + a] = col
        self.selector_field: dict[Selector, tuple[str, int]] = {}
        for i, sel in enumerate(selectors):
            word = f"sel{i // 16}"
            self.selector_field[sel] = (word, i % 16)
            col = tables.setdefault(word, [0] * self.n)
            for j, c in enumerate(self.universe):
                if self._matches(sel, c.card, tuple(self.deck.suits[s].id for s in c.suits)):
                    col[j] += 1 << (4 * (i % 16))
        if self.uses_mask:
            tables["mask"] = [1 << i for i in range(self.n)]
        self.table_names = list(tables)
        self.tables = [np.array([v & 0xFFFFFFFFFFFFFFFF for v in tables[name]], dtype=U64) for name in self.table_names]

    # --- compiling blocks -------------------------------------------------------
    def _compile(self) -> None:
        r = self.ranking
        self.cat_fns = []
        for cat in r.categories:
            self.cat_fns.append(self._compile_blocks(cat.blocks, cat.path))
        self.class_fns = [self._compile_blocks(c.blocks, c.path) for c in r.classes]
        self.printed = np.array([c.printed for c in r.categories], bool)
        # rank groups for rectangles: ladder position -> (offset, count) in the universe
        self.rank_span: dict[int, tuple[int, int]] = {}
        for i, c in enumerate(self.universe):
            if c.pos is not None:
                off, cnt = self.rank_span.get(c.pos, (i, 0))
                self.rank_span[c.pos] = (off, cnt + 1)
        self._rect_tables: dict[tuple, list] = {}

    def _compile_blocks(self, blocks, path):
        fns = []
        for name, value in blocks.items():
            p = tuple(path) + (name,)
            if name in ("shared", "distinct") and value[0] not in self.domains and value[0] != "suits":
                self._err(p, f"unknown attribute '{value[0]}'")
                continue
            if name == "each_once" and any(v not in self.domains for v in value):
                self._err(p, f"unknown attribute '{[v for v in value if v not in self.domains][0]}'")
                continue
            if name in ("contains", "none"):
                for i, s in enumerate(value):
                    self._check_selector(s, p + (i,))
                if name == "contains":
                    self._check_disjoint(value, p)
            if name == "rectangle":
                ranks, _ = value
                if isinstance(ranks, tuple):
                    for i, rid in enumerate(ranks):
                        if rid not in self.pos and rid not in [x.id for x in self.deck.ranks]:
                            self._err(p + ("ranks", i), f"unknown rank '{rid}' in deck '{self.deck.key}'")
            fns.append((name, value))
        return fns

    def _check_disjoint(self, sels, path) -> None:
        seen: dict[int, int] = {}
        for i, s in enumerate(sels):
            for j, c in enumerate(self.universe):
                if self._matches(s, c.card, tuple(self.deck.suits[x].id for x in c.suits)):
                    if j in seen and seen[j] != i:
                        self._err(path + (i,), f"{s.describe()} overlaps entry {seen[j] + 1} of the same list (card '{c.id}'); the entries of one contains list must pick different cards")
                        return
                    seen[j] = i

    # --- evaluating blocks over many hands --------------------------------------
    def _ge(self, feats: dict, memo: dict, name: str, t: int) -> np.ndarray:
        """How many fields of ``name`` are at least t (t in 1..8)."""
        key = (name, t)
        if key not in memo:
            x = feats[name]
            memo[key] = popcount((x + _u((8 - t) * ALL16)) & _u(G8))
        return memo[key]

    def _eval(self, fns, feats: dict, memo: dict, k: int, w: int, m: int) -> np.ndarray:
        ok = np.ones(m, bool)
        for name, value in fns:
            if name == "groups":
                for t in sorted(set(value)):
                    ok &= self._ge(feats, memo, "rank", t) >= sum(1 for g in value if g >= t)
            elif name == "flush":
                ok &= self._ge(feats, memo, "suits", k) >= 1
            elif name == "straight":
                ok &= self._straight(feats, memo, k)[0]
            elif name == "shared":
                of, count = value
                ok &= self._ge(feats, memo, self._attr(of), k) >= count
            elif name == "each_once":
                for of in value:
                    ones = sum(1 << (4 * i) for i in range(len(self.domains[of])))
                    ok &= feats[self._attr(of)] == _u(ones)
            elif name == "distinct":
                of, lo, hi = value
                n = self._ge(feats, memo, self._attr(of), 1)
                ok &= (n >= lo) & (n <= hi)
            elif name == "contains":
                for s in value:
                    c = self._sel_count(feats, s)
                    ok &= c >= s.count
                    if s.max is not None:
                        ok &= c <= s.max
            elif name == "none":
                for s in value:
                    ok &= self._sel_count(feats, s) == 0
            elif name == "rectangle":
                ok &= self._rectangle(feats, value, m)
            elif name == "wild":
                lo, hi = value
                if not lo <= w <= hi:
                    ok &= False
        return ok

    def _attr(self, of: str) -> str:
        return "suits" if of == "suits" else "attr:" + of

    def _sel_count(self, feats, s: Selector) -> np.ndarray:
        word, f = self.selector_field[Selector(s.kind, s.value)]
        return (feats[word] >> _u(4 * f)) & _u(15)

    def _straight(self, feats, memo, k):
        if ("straight",) in memo:
            return memo[("straight",)]
        present = (feats["rank"] + _u(7 * ALL16)) & _u(G8)   # bit 4p+3 for every rank present
        distinct = popcount(present) == k
        run = _u(sum(1 << (4 * i) for i in range(k)))

        def is_run(bits):
            low = bits & (~bits + _u(1))
            return bits == low * run

        normal = distinct & is_run(present)
        low_only = np.zeros_like(normal)
        if self.ace_low is not None:
            ace = _u(1 << (4 * self.pos[self.ace_low[0]] + 3))
            spot = _u(1 << (4 * self.ace_low[1] + 3))
            has = (present & ace) != 0
            alt = (present & ~ace) | spot
            low_only = distinct & has & is_run(alt) & ~normal
        memo[("straight",)] = (normal | low_only, low_only)
        return memo[("straight",)]

    def _rectangle(self, feats, value, m):
        ranks, b = value
        if isinstance(ranks, tuple):
            positions = [self.pos[r] for r in ranks if r in self.pos]
            if len(positions) < len(ranks):
                return np.zeros(m, bool)
            need = len(ranks)
        else:
            positions = sorted(self.rank_span)
            need = ranks
        subsets = list(itertools.combinations(range(len(self.deck.suits)), b))
        if need > len(positions) or not subsets or need > 15:
            return np.zeros(m, bool)
        mask = feats["mask"]
        out = np.zeros(m, bool)
        for start in range(0, len(subsets), 12):
            chunk = subsets[start:start + 12]
            acc = np.zeros(m, U64)
            for p in positions:
                off, cnt = self.rank_span[p]
                table = self._rect_table(p, chunk)
                sub = ((mask >> _u(off)) & _u((1 << cnt) - 1)).astype(np.int64)
                acc += table[sub]
            guard = sum(16 << (5 * i) for i in range(len(chunk)))
            add = sum((16 - need) << (5 * i) for i in range(len(chunk)))
            out |= ((acc + _u(add)) & _u(guard)) != 0
        return out

    def _rect_table(self, p: int, chunk: list) -> np.ndarray:
        key = (p, tuple(chunk))
        if key not in self._rect_tables:
            off, cnt = self.rank_span[p]
            if cnt > 12:
                raise RankingError(Problem(self.file, "rectangle: more than 12 cards share a rank"))
            cards = [set(self.universe[off + i].suits) for i in range(cnt)]
            table = np.zeros(1 << cnt, U64)
            for sub in range(1 << cnt):
                have = [cards[i] for i in range(cnt) if sub >> i & 1]
                v = 0
                for f, suits in enumerate(chunk):
                    if _matching(list(suits), have):
                        v |= 1 << (5 * f)
                table[sub] = v
            self._rect_tables[key] = table
        return self._rect_tables[key]

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
                out |= _u(1 << i)
                continue
            out |= self._eval(fns, feats, memo, k, w, m).astype(U64) << _u(i)
        return out

    def classes(self, feats: dict, k: int, m: int) -> np.ndarray:
        memo: dict = {}
        out = np.full(m, len(self.class_fns), np.int64)
        for i in range(len(self.class_fns) - 1, -1, -1):
            fns = self.class_fns[i]
            hit = self._eval(fns, feats, memo, k, 0, m) if fns else np.ones(m, bool)
            out[hit] = i
        return out

    def features(self, combos: np.ndarray) -> dict:
        m = combos.shape[0]
        feats = {}
        for name, table in zip(self.table_names, self.tables):
            s = np.zeros(m, U64)
            for j in range(combos.shape[1]):
                s += table[combos[:, j]]
            feats[name] = s
        return feats

    # --- counting ---------------------------------------------------------------
    def count(self):
        """Exact counts: (weights per category, pattern counts, subcounts[cat][class], total, first hands)."""
        ncat = len(self.ranking.categories)
        ncls = max(1, len(self.class_fns) + (1 if self.class_fns else 0))
        k = self.k
        best_counts = np.zeros(ncat, np.int64)
        pattern = np.zeros(ncat, np.int64)
        sub = np.zeros((ncat, ncls), np.int64)
        examples: dict[int, tuple] = {}
        if self.nwild == 0:
            combos, sums = _combos(self.n, k, self.tables, keep=False)
            feats = dict(zip(self.table_names, sums))
            m = len(sums[0])
            mask = self.masks(feats, k, m, printed=False)
            best = _lowbit(mask)
            cls = self.classes(feats, k, m) if self.class_fns else np.zeros(m, np.int64)
            best_counts += np.bincount(best, minlength=ncat)[:ncat]
            for i in range(ncat):
                pattern[i] += int(np.count_nonzero(mask & _u(1 << i)))
            sub += np.bincount(best * ncls + cls, minlength=ncat * ncls)[:ncat * ncls].reshape(ncat, ncls)
            self._find_examples(best, None, 0, examples, lambda idx: _unrank(idx, self.n, k))
            return best_counts, pattern, sub, sum(int(x) for x in best_counts), examples
        # with wild cards: classify every real hand, then carry results down
        combos, sums = _combos(self.n, k, self.tables, keep=True)
        feats = dict(zip(self.table_names, sums))
        m = len(combos)
        mask = self.masks(feats, k, m, printed=False)
        best = _lowbit(mask)
        cls = self.classes(feats, k, m) if self.class_fns else np.zeros(m, np.int64)
        code = best * ncls + cls
        binom = np.array([[comb(a, b) for b in range(k + 2)] for a in range(self.n + 1)], np.int64)
        levels = {k: (combos, mask, code)}
        for j in range(k - 1, max(k - self.nwild, 0) - 1, -1):
            c_up, mask_up, code_up = levels[j + 1]
            size = comb(self.n, j)
            mask_j = np.zeros(size, U64)
            code_j = np.full(size, np.iinfo(np.int64).max, np.int64)
            for idx in _lex_index_drop(c_up, self.n, binom):
                np.bitwise_or.at(mask_j, idx, mask_up)
                np.minimum.at(code_j, idx, code_up)
            combos_j, _ = _combos(self.n, j, [], keep=True)
            levels[j] = (combos_j, mask_j, code_j)
        total = 0
        for w in range(0, min(k, self.nwild) + 1):
            j = k - w
            combos_j, mask_j, code_j = levels[j]
            keep = ~self.is_wild[combos_j].any(axis=1) if j else np.ones(1, bool)
            # natural cards, and w of the wild cards (any of them: they count alike)
            weight = comb(self.nwild, w)
            nat = combos_j[keep]
            mm = len(nat)
            pfeats = self.features(nat)
            pmask = self.masks(pfeats, k, mm, printed=True, w=w)
            full = mask_j[keep] | pmask
            bst = _lowbit(full)
            cl = code_j[keep] % ncls
            best_counts += weight * np.bincount(bst, minlength=ncat)[:ncat]
            for i in range(ncat):
                pattern[i] += weight * int(np.count_nonzero(full & _u(1 << i)))
            sub += weight * np.bincount(bst * ncls + cl, minlength=ncat * ncls)[:ncat * ncls].reshape(ncat, ncls)
            total += weight * mm
            self._find_examples(bst, nat, w, examples, None)
        return best_counts, pattern, sub, total, examples

    def _wild_ids(self, w: int) -> list[str]:
        wilds = [c.id for c in self.blank_wilds] + [c.id for c in self.universe if c.wild]
        return wilds[:w]

    def _find_examples(self, best, nat, w, examples, unrank) -> None:
        for i in range(len(self.ranking.categories)):
            if i in examples:
                continue
            hits = np.flatnonzero(best == i)
            if len(hits) == 0:
                continue
            idx = int(hits[len(hits) // 2])
            if nat is not None:
                cards = [self.universe[int(c)].id for c in nat[idx]]
                wilds = self._wild_ids(w)
                if len(wilds) < w or any(x in cards for x in wilds):
                    continue
                examples[i] = tuple(cards) + tuple(wilds)
            else:
                examples[i] = tuple(self.universe[c].id for c in unrank(idx))

    # --- single hands -----------------------------------------------------------
    def _resolve(self, cards: Sequence[str]) -> tuple[list[int], int]:
        if len(cards) != self.k:
            raise AetherpressError(Problem(self.file, f"a hand of '{self.ranking.id}' has {self.k} cards, not {len(cards)}: {', '.join(cards)}"))
        natural: list[int] = []
        w = 0
        blank_left = {}
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
                from ..schema import suggest
                raise AetherpressError(Problem(self.file, f"no card '{cid}' in deck '{self.deck.key}'{suggest(cid, self.index_of)}"))
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
        k = self.k
        if w:
            pool = [i for i in range(self.n) if i not in natural]
            readings = np.array([sorted(natural + list(x)) for x in itertools.combinations(pool, w)], np.int64)
        else:
            readings = np.array([sorted(natural)], np.int64)
        feats = self.features(readings)
        m = len(readings)
        mask = self.masks(feats, k, m, printed=False)
        own = _lowbit(mask)
        cls = self.classes(feats, k, m) if self.class_fns else np.zeros(m, np.int64)
        nat = np.array([sorted(natural)], np.int64).reshape(1, len(natural))
        pmask = self.masks(self.features(nat), k, 1, printed=True, w=w)[0] if (w or self.printed.any()) else U64(0)
        if self.nwild == 0:
            pmask = U64(0)
        full = np.bitwise_or.reduce(mask) | pmask
        best = int(_lowbit(np.array([full], U64))[0])
        low_only = self._straight(feats, {}, k)[1]
        if best in own:
            cand = np.flatnonzero(own == best)
        else:
            cand = np.flatnonzero(own == own.min())
        cand = cand[cls[cand] == cls[cand].min()]
        best_key = None
        best_reading = None
        for i in cand:
            key = self._tiebreak(best, readings[i], int(cls[i]), w, bool(low_only[i]))
            if best_key is None or key > best_key:
                best_key, best_reading = key, readings[i]
        if best not in own:
            best_reading = np.array(sorted(natural))
            best_key = self._tiebreak(best, best_reading, int(cls[cand[0]]), w, False)
        names = [c.name for c in self.ranking.classes]
        tie_class = (names[int(cls[cand[0]])] if int(cls[cand[0]]) < len(names) else None) if names else None
        return HandResult(best, self.ranking.categories[best].name, tie_class, (-best,) + best_key,
                          tuple(self.universe[int(i)].id for i in best_reading), int(full))

    def _tiebreak(self, category: int, reading, cls: int, w: int, low_ace: bool) -> tuple:
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
        for c, v in zip(cards, values):
            if c.rank is not None:
                counts[c.rank] = counts.get(c.rank, 0) + 1
        order = sorted(range(len(cards)), key=lambda i: (-(counts.get(cards[i].rank, 0)), -values[i],
                                                         tuple(-self.suit_order[s] for s in sorted(cards[i].suits, key=lambda s: -self.suit_order[s]))))
        key = []
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
        return tuple(key)


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


def _lowbit(mask: np.ndarray) -> np.ndarray:
    low = mask & (~mask + U64(1))
    return popcount(low - U64(1)).astype(np.int64)


def _unrank(index: int, n: int, k: int) -> list[int]:
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


# --- checking a game against its deck -------------------------------------------

def engines_for(game: Game, definitions, ranking: str | None = None, deck: str | None = None,
                modifiers: Sequence[str] = ()) -> Engine:
    from ..schema import suggest
    rid = ranking or game.default_ranking
    if rid not in game.rankings:
        raise AetherpressError(Problem(game.source, f"game '{game.id}' has no ranking '{rid}'{suggest(rid, game.rankings)}; rankings: {', '.join(game.rankings)}"))
    did = deck or game.default_deck
    if did not in game.decks:
        raise AetherpressError(Problem(game.source, f"game '{game.id}' has no deck '{did}'{suggest(did, game.decks)}; decks: {', '.join(game.decks)}"))
    for m in modifiers:
        if m not in game.modifiers:
            raise AetherpressError(Problem(game.source, f"game '{game.id}' has no modifier '{m}'{suggest(m, game.modifiers)}; modifiers: {', '.join(game.modifiers) or 'none'}"))
    if game.deck_id not in definitions:
        raise AetherpressError(Problem(game.source, f"unknown deck '{game.deck_id}'{suggest(game.deck_id, definitions)}", key="game.deck"))
    choice = game.decks[did]
    built = definitions[game.deck_id].build(choice.variants)
    mods = [game.modifiers[m] for m in choice.modifiers] + [game.modifiers[m] for m in modifiers if m not in choice.modifiers]
    base = definitions[game.deck_id].base
    base_ids = {"card": {c.id for c in base.cards}, "rank": {r.id for r in base.ranks}}
    return Engine(game.rankings[rid], built, mods, game.source, base_ids)


def check_game(game: Game, definitions, path) -> None:
    """Compile every ranking on every deck of the game and check the example hands."""
    from ..load import read_toml
    problems: list[Problem] = []
    _, ctx = read_toml(path)
    if game.deck_id not in definitions:
        from ..schema import suggest
        ctx.error(("game", "deck"), f"unknown deck '{game.deck_id}'{suggest(game.deck_id, definitions)}")
        ctx.raise_if_any()
    definition = definitions[game.deck_id]
    for name, choice in game.decks.items():
        for i, v in enumerate(choice.variants):
            if v not in definition.variant_specs:
                from ..schema import suggest
                ctx.error(("decks", name, "variants", i), f"deck '{game.deck_id}' has no variant '{v}'{suggest(v, definition.variant_specs)}")
    ctx.raise_if_any()
    base_cards = [c.id for c in definition.base.cards]
    for rid, ranking in game.rankings.items():
        checked_examples: set[int] = set()
        compiled = True
        for did in game.decks:
            combos = [()] + [(m,) for m in game.modifiers if m not in game.decks[did].modifiers] if did == game.default_deck else [()]
            for mods in combos:
                try:
                    engine = engines_for(game, definitions, rid, did, mods)
                except AetherpressError as exc:
                    compiled = False
                    for p in exc.problems:
                        line = ctx.locator.line(_key_path(p.key)) if p.key and ctx.locator else None
                        problems.append(Problem(p.file, p.message, line, p.key))
                    continue
                if mods:
                    continue
                ids = {c.id for c in engine.deck.cards}
                for i, cat in enumerate(ranking.categories):
                    if cat.example is None or i in checked_examples or not set(cat.example) <= ids:
                        continue
                    checked_examples.add(i)
                    try:
                        got = engine.evaluate(cat.example)
                    except AetherpressError as exc:
                        ctx.error(cat.path + ("example",), exc.problems[0].message)
                        continue
                    if not got.fits_category(i):
                        ctx.error(cat.path + ("example",), f"the example hand does not fit {cat.name} (it is a {got.name})")
                    elif got.category != i and not cat.printed:
                        ctx.error(cat.path + ("example",), f"the example hand is a {got.name}, not a {cat.name}")
        if not compiled:
            continue
        for i, cat in enumerate(ranking.categories):
            if cat.example is None or i in checked_examples:
                continue
            unknown = [c for c in cat.example if c not in base_cards]
            if unknown:
                from ..schema import suggest
                ctx.error(cat.path + ("example",), f"unknown card '{unknown[0]}' in deck '{game.deck_id}'{suggest(unknown[0], base_cards)}")
            else:
                ctx.error(cat.path + ("example",), "the example hand is not a hand of any of the game's decks")
    problems.extend(ctx.problems)
    if problems:
        raise AetherpressError(_dedupe(problems))


def _key_path(key: str) -> tuple:
    import re
    out: list = []
    for part in re.findall(r'"[^"]*"|[A-Za-z0-9_-]+|\[\d+\]', key):
        if part.startswith("["):
            out.append(int(part[1:-1]) - 1)
        else:
            out.append(part.strip('"'))
    return tuple(out)


def _dedupe(problems):
    out = []
    for p in problems:
        if p not in out:
            out.append(p)
    return out
