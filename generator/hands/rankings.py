"""Games and their hand rankings as values: categories of building blocks, tie classes, modifiers, decks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..definitions.credits import Credits

MAX_HAND = 7
TIEBREAK_STEPS = ("classes", "no_wild", "ranks", "top", "suits")
LADDERS = ("deck", "values")


@dataclass(frozen=True)
class Selector:
    """Which cards a block means: by card id, rank, suit or group (one of them)."""

    kind: str  # card | rank | suit | group
    value: str
    count: int = 1
    max: int | None = None

    def describe(self) -> str:
        return f"{self.kind} '{self.value}'"


@dataclass(frozen=True)
class Category:
    name: str
    description: str
    example: tuple[str, ...] | None
    blocks: Mapping[str, Any]
    printed: bool = False
    path: tuple = ()
    tiebreak: tuple[str, ...] | None = None  # this category's own tie-break steps, if it has them


@dataclass(frozen=True)
class TieClass:
    name: str
    description: str
    blocks: Mapping[str, Any]
    path: tuple = ()


@dataclass(frozen=True)
class AceLow:
    rank: str
    below: str


@dataclass(frozen=True)
class Ranking:
    id: str
    title: str
    description: str
    hand_size: int
    ladder: str
    ace_low: AceLow | None
    tiebreak: tuple[str, ...]
    classes: tuple[TieClass, ...]
    categories: tuple[Category, ...]
    source: str
    data: str  # canonical JSON of the ranking's table, for cache keys

    def category(self, name: str) -> Category:
        for c in self.categories:
            if c.name == name:
                return c
        raise KeyError(name)


@dataclass(frozen=True)
class Modifier:
    id: str
    title: str
    description: str
    wild: tuple[Selector, ...] = ()
    every_suit: tuple[Selector, ...] = ()
    data: str = ""


@dataclass(frozen=True)
class DeckChoice:
    """A deck the game's odds are counted on: deck variants plus modifiers."""

    name: str
    title: str
    description: str
    variants: tuple[str, ...]
    modifiers: tuple[str, ...]


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    description: str
    deck_id: str
    source: str
    rankings: Mapping[str, Ranking]
    decks: Mapping[str, DeckChoice]
    modifiers: Mapping[str, Modifier]
    notes: tuple[str, ...] = ()
    path: Path | None = None  # the game file
    credits: Credits | None = None  # who made the game, its source and licence

    @property
    def default_ranking(self) -> str:
        return next(iter(self.rankings))

    @property
    def default_deck(self) -> str:
        return next(iter(self.decks))
