"""Founder's Flip four-card hands written straight from the rules, card by card, with no engine.

The tests count hands with these functions over every hand of a deck (or
every deal of shared cards) and compare with the engine's tables.  A card is
a ``Card(id, value, suits, founding)``; a struck card (Silphion's Fallow)
has no value and no suits.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

CATEGORIES = [
    "Imperial",
    "Four of a Kind",
    "Straight Flush",
    "Convocation",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "One Pair",
    "High Card",
]
FOUNDING = ("magist", "mage", "general", "emperor")
SUITS = ("houses", "armies", "glyphs", "sails")


@dataclass(frozen=True)
class Card:
    id: str
    value: int | None
    suits: frozenset
    founding: bool = False


def deck(values=(1, 2, 3, 4, 5, 6, 7, 8), founding=True) -> list[Card]:
    """The Imperial deck in the standard order (or the part of it with these numbered values)."""
    names = {8: "ect"}
    cards = [Card(f"{names.get(v, v)}-{s}", v, frozenset([s])) for s in SUITS for v in values]
    if founding:
        cards += [Card(f, 9 + i, frozenset(SUITS), True) for i, f in enumerate(FOUNDING)]
    return cards


def is_straight(hand) -> bool:
    values = [c.value for c in hand]
    if None in values or len(set(values)) != len(values):
        return False
    return max(values) - min(values) == len(values) - 1


def is_flush(hand) -> bool:
    return bool(frozenset.intersection(*[c.suits for c in hand]))


def rank_counts(hand) -> list[int]:
    return sorted(Counter(c.value for c in hand if c.value is not None).values(), reverse=True)


def is_convocation(hand) -> bool:
    by_value: dict = {}
    for c in hand:
        if c.value is not None:
            by_value.setdefault(c.value, []).append(c)
    pairs = [cards for cards in by_value.values() if len(cards) == 2]
    if len(pairs) != 2:
        return False

    def covers(two, s1, s2):
        x, y = two
        return (s1 in x.suits and s2 in y.suits) or (s2 in x.suits and s1 in y.suits)

    return any(covers(pairs[0], a, b) and covers(pairs[1], a, b) for a, b in itertools.permutations(SUITS, 2))


def category(hand) -> str:
    """The best category of a four-card hand."""
    counts = rank_counts(hand)
    if {c.id for c in hand} >= set(FOUNDING):
        return "Imperial"
    if counts and counts[0] == 4:
        return "Four of a Kind"
    if is_straight(hand) and is_flush(hand):
        return "Straight Flush"
    if is_convocation(hand):
        return "Convocation"
    if counts[:2] == [2, 2]:
        return "Two Pair"
    if counts and counts[0] >= 3:
        return "Three of a Kind"
    if is_straight(hand):
        return "Straight"
    if is_flush(hand):
        return "Flush"
    if counts and counts[0] >= 2:
        return "One Pair"
    return "High Card"


def best_reading(hand, wild, cards, order=CATEGORIES) -> str:
    """The best category over every reading of the wild cards: each stands for a different
    card of ``cards`` not among the hand's other cards (itself included)."""
    natural = [c for c in hand if c not in wild]
    pool = [c for c in cards if c not in natural]
    return min(
        (category(natural + list(extra)) for extra in itertools.combinations(pool, len(wild))),
        key=order.index,
    )


def tally(names) -> dict[str, int]:
    return dict(Counter(names))
