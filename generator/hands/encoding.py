"""Cards as the engine sees them: the physical cards of a deck, and their feature tables.

Every card becomes a few 64-bit numbers with 4-bit fields (one field per
rank on the ladder, per suit, per value of an attribute, per card selector);
the features of a hand are the sums of its cards' numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..definitions.model import Card, Deck
from ..definitions.schema import KeyPath, format_path, suggest
from ..errors import AetherpressError, Problem
from .bits import U64, at_least
from .blocks import BLOCKS, Needs
from .modifiers import check_together, derive_ranking
from .rankings import Modifier, Ranking, Selector


class RankingError(AetherpressError):
    pass


@dataclass(frozen=True)
class _Info:
    """One physical card as the engine sees it."""

    id: str
    card: Card
    rank: str | None
    pos: int | None  # field on the rank ladder
    value: int  # rank value for comparisons (-1: no rank)
    suits: tuple[int, ...]
    wild: bool
    dead: bool = False  # no rank, no suit, and matches no selector

    @property
    def blank(self) -> bool:
        return self.rank is None and not self.suits


class Encoding:
    """A deck's cards encoded for one ranking and its modifiers."""

    def __init__(
        self,
        ranking: Ranking,
        deck: Deck,
        modifiers: Iterable[Modifier] = (),
        file: str = "ranking",
        base_ids: dict | None = None,
    ):
        self._base_ids = base_ids or {}
        self.deck = deck
        self.modifiers = tuple(modifiers)
        self.file = file
        self.k = ranking.hand_size
        self.problems: list[Problem] = []
        check_together(self.modifiers, self.error)
        self.base_ranking = ranking
        self.ranking = derive_ranking(ranking, self.modifiers, self.error)
        self.memo: dict = {}  # per-engine tables built on demand by blocks
        self._build_cards()
        self._build_tables()

    # --- problems ---------------------------------------------------------------
    def error(self, path: KeyPath, message: str) -> None:
        self.problems.append(Problem(self.file, message, None, format_path(path) if path else None))

    def fail(self, problem: Problem) -> None:
        raise RankingError(problem)

    # --- selectors and attributes ----------------------------------------------
    def matches(self, sel: Selector, card: Card, suits: tuple[str, ...]) -> bool:
        if sel.kind == "card":
            return card.id == sel.value
        if sel.kind == "rank":
            return card.rank == sel.value
        if sel.kind == "suit":
            return sel.value in suits
        return card.group == sel.value

    def check_selector(self, sel: Selector, path: KeyPath) -> None:
        known = {
            "card": [c.id for c in self.deck.cards],
            "rank": [r.id for r in self.deck.ranks],
            "suit": [s.id for s in self.deck.suits],
            "group": sorted({c.group for c in self.deck.cards}),
        }[sel.kind]
        # a card or rank that a variant removed is not an error: the block just never matches
        if sel.value not in known and not (sel.kind in ("card", "rank") and sel.value in self._base_ids.get(sel.kind, ())):
            self.error(path, f"unknown {sel.kind} '{sel.value}' in deck '{self.deck.key}'{suggest(sel.value, known)}")

    def check_disjoint(self, sels: tuple[Selector, ...], path: KeyPath) -> None:
        """The entries of one ``contains`` list must pick different cards."""
        seen: dict[int, int] = {}
        for i, s in enumerate(sels):
            for j, c in enumerate(self.universe):
                if self.matches(s, c.card, tuple(self.deck.suits[x].id for x in c.suits)):
                    if j in seen and seen[j] != i:
                        self.error(
                            path + (i,),
                            f"{s.describe()} overlaps entry {seen[j] + 1} of the same list (card '{c.id}'); the entries of one contains list must pick different cards",
                        )
                        return
                    seen[j] = i

    def known_attribute(self, name: str, path: KeyPath) -> bool:
        if name not in self.domains and name != "suits":
            self.error(path, f"unknown attribute '{name}'")
            return False
        return True

    def table_of(self, of: str) -> str:
        """The feature table of ``suits`` or of an attribute."""
        return "suits" if of == "suits" else "attr:" + of

    def at_least(self, feats: dict, memo: dict, name: str, t: int) -> np.ndarray:
        """How many fields of table ``name`` are at least t (t in 1..8), once per evaluation."""
        key = (name, t)
        if key not in memo:
            memo[key] = at_least(feats[name], t)
        return memo[key]

    def selector_count(self, feats: dict, s: Selector) -> np.ndarray:
        word, f = self.selector_field[Selector(s.kind, s.value)]
        return (feats[word] >> U64(4 * f)) & U64(15)

    def features(self, combos: np.ndarray) -> dict:
        """The feature sums of each hand (a row of card indices)."""
        m = combos.shape[0]
        feats = {}
        for name, table in zip(self.table_names, self.tables):
            s = np.zeros(m, U64)
            for j in range(combos.shape[1]):
                s += table[combos[:, j]]
            feats[name] = s
        return feats

    # --- building ---------------------------------------------------------------
    def _build_cards(self) -> None:
        """The physical cards (copies apart), wild cards marked, grouped by rank in ladder order."""
        suit_ids = [s.id for s in self.deck.suits]
        if len(suit_ids) > 16:
            self.error((), "the engine handles at most 16 suits")
        self._build_ladder()
        self.rank_value = {r.id: r.value for r in self.deck.ranks}
        self._universe(self._card_infos(suit_ids))
        suit_order = [s.order for s in self.deck.suits]
        if len(set(suit_order)) <= 1:  # no order given: the first suit listed is the highest
            suit_order = [len(self.deck.suits) - i for i in range(len(self.deck.suits))]
        self.suit_order = suit_order

    def _build_ladder(self) -> None:
        """Each rank's place on the ladder (``pos``, from 0), and the ace's place when it also plays low."""
        ranks = sorted(self.deck.ranks, key=lambda r: r.value)
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
            self.error(("ladder",), "the rank ladder spans more than 16 steps")
        self.pos = pos

    def _card_infos(self, suit_ids: list[str]) -> list[_Info]:
        """One entry per physical card, as the modifiers leave it: dead, in every suit, wild, risen."""
        deck = self.deck
        every = [s for m in self.modifiers for s in m.every_suit]
        wild = [s for m in self.modifiers for s in m.wild]
        dead = [s for m in self.modifiers for s in m.dead]
        rise = [s for m in self.modifiers for s in m.rise]
        for m in self.modifiers:
            for what in ("every_suit", "wild", "dead", "rise"):
                for i, s in enumerate(getattr(m, what)):
                    self.check_selector(s, ("modifiers", m.id, what, i))
        self.rise_of = {card.id: sum(self.matches(s, card, card.suits) for s in rise) for card in deck.cards}
        infos: list[_Info] = []
        for card in deck.cards:
            suits = card.suits
            if any(self.matches(s, card, suits) for s in dead):
                infos.extend(_Info(card.id, card, None, None, -1, (), False, True) for _copy in range(card.copies))
                continue
            if any(self.matches(s, card, suits) for s in every):
                suits = tuple(suit_ids)
            is_wild = any(self.matches(s, card, card.suits) for s in wild)
            for _copy in range(card.copies):
                infos.append(
                    _Info(
                        card.id,
                        card,
                        card.rank,
                        self.pos.get(card.rank) if card.rank else None,
                        self.rank_value.get(card.rank, -1) if card.rank else -1,
                        tuple(suit_ids.index(s) for s in suits),
                        is_wild,
                    )
                )
        return infos

    def _universe(self, infos: list[_Info]) -> None:
        """The real cards, grouped by rank in ladder order (blank wild cards stand outside), checked against the engine's limits."""
        order = sorted(range(len(infos)), key=lambda i: (infos[i].pos if infos[i].pos is not None else 99, i))
        self.universe = [infos[i] for i in order if not (infos[i].wild and infos[i].blank)]
        self.blank_wilds = [c for c in infos if c.wild and c.blank]
        self.n = len(self.universe)
        self.is_wild = np.array([c.wild for c in self.universe], bool)
        self.nwild = len(self.blank_wilds) + int(self.is_wild.sum())
        if self.n > 64:
            self.error((), f"the engine handles decks of at most 64 cards; '{self.deck.key}' has {self.n}")
        if self.n < self.k:
            self.error(("hand_size",), f"deck '{self.deck.key}' has only {self.n} cards for hands of {self.k}")
        self.index_of: dict[str, list[int]] = {}
        for i, c in enumerate(self.universe):
            self.index_of.setdefault(c.id, []).append(i)

    def _attribute_values(self, a: str) -> list:
        """The values the deck's cards give attribute ``a``, in order of first use (at most 16)."""
        values: list = []
        for card in self.deck.cards:
            v = card.attributes.get(a)
            if v is None:
                continue
            for item in v if isinstance(v, (list, tuple)) else [v]:
                if item not in values:
                    values.append(item)
        if not values:
            self.error((), f"no card of deck '{self.deck.key}' has the attribute '{a}'")
        if len(values) > 16:
            self.error((), f"attribute '{a}' has more than 16 values")
        return values

    def _attribute_column(self, a: str, values: list) -> list[int]:
        """Each card's word of attribute ``a``: four bits per value it has (none for a dead card)."""
        col = []
        for c in self.universe:
            v = None if c.dead else c.card.attributes.get(a)
            items = v if isinstance(v, (list, tuple)) else ([] if v is None else [v])
            col.append(sum(1 << (4 * values.index(x)) for x in set(items) if x in values))
        return col

    def _build_tables(self) -> None:
        """One 64-bit word per card and feature: ranks, suits, the attributes and selectors the blocks read."""
        r = self.ranking
        needs = Needs()
        required = [m.require.blocks for m in self.modifiers if m.require is not None]
        for blocks in [c.blocks for c in r.categories] + [c.blocks for c in r.classes] + required:
            for name, value in blocks.items():
                BLOCKS[name].needs(value, needs)
        attrs, selectors = needs.attributes, needs.selectors
        self.uses_mask = needs.mask
        tables: dict[str, list[int]] = {"rank": [], "suits": []}
        for c in self.universe:
            tables["rank"].append(1 << (4 * c.pos) if c.pos is not None else 0)
            tables["suits"].append(sum(1 << (4 * s) for s in c.suits))
        self.domains: dict[str, list] = {"suits": list(range(len(self.deck.suits)))}
        for a in attrs:
            self.domains[a] = self._attribute_values(a)
            tables["attr:" + a] = self._attribute_column(a, self.domains[a])
        self.selector_field: dict[Selector, tuple[str, int]] = {}
        for i, sel in enumerate(selectors):
            word = f"sel{i // 16}"
            self.selector_field[sel] = (word, i % 16)
            col = tables.setdefault(word, [0] * self.n)
            for j, c in enumerate(self.universe):
                if not c.dead and self.matches(sel, c.card, tuple(self.deck.suits[s].id for s in c.suits)):
                    col[j] += 1 << (4 * (i % 16))
        if self.uses_mask:
            tables["mask"] = [1 << i for i in range(self.n)]
        self.table_names = list(tables)
        self.tables = [np.array([v & 0xFFFFFFFFFFFFFFFF for v in tables[name]], dtype=U64) for name in self.table_names]
