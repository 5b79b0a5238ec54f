"""Games and their hand rankings as values: categories of building blocks, tie classes, modifiers, decks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
class SharedCards:
    """Shared cards: ``cards`` dealt to the middle, ``own`` cards per player, and a hand
    made of own and shared cards using between ``min`` and ``max`` shared cards."""

    cards: int
    own: int
    min: int = 0
    max: int = 99


@dataclass(frozen=True)
class Grid:
    """A ``size`` x ``size`` grid of shared cards: a hand is ``own`` kept cards and one line of the grid."""

    size: int
    own: int


@dataclass(frozen=True)
class Modifier:
    """A spell or house rule: how it changes what cards are, what hands are worth, or what a hand is made of."""

    id: str
    title: str
    description: str
    wild: tuple[Selector, ...] = ()
    every_suit: tuple[Selector, ...] = ()
    data: str = ""
    aliases: tuple[str, ...] = ()
    dead: tuple[Selector, ...] = ()  # cards with no rank and no suit, that match nothing
    lowest_wild: bool = False  # the lowest card of each hand is wild for that hand
    rise: tuple[Selector, ...] = ()  # a hand rises one category per card of these
    reverse: tuple[str, ...] | None = None  # the order of categories is reversed, but for these at the top
    insert: tuple[str, Category] | None = None  # (below which category, the new category)
    require: Category | None = None  # hands not fitting its blocks fall to this new last category
    shared: SharedCards | None = None
    grid: Grid | None = None
    ranking: str | None = None  # the ranking hands are played with under this modifier
    path: tuple = ()

    @property
    def only_chooses_ranking(self) -> bool:
        """Whether all it does is choose the ranking hands are played with (its odds are that ranking's)."""
        effects = (self.wild, self.every_suit, self.dead, self.lowest_wild, self.rise, self.insert, self.require)
        return self.ranking is not None and not any(effects) and self.reverse is None and not self.builds_hands

    @property
    def builds_hands(self) -> bool:
        """Whether a hand is made from shared cards (the table is of the best hand a player can make)."""
        return self.shared is not None or self.grid is not None


@dataclass(frozen=True)
class Setup:
    """One way to play a game of rows (Fivefold Arrangement's Twofold or Fivefold)."""

    id: str
    title: str
    points: str  # the rank attribute that gives a card's points
    shared_draws: bool  # every player's row is turned by the same cards
    draw_deck: Mapping[str, int]  # rank id -> cards of that rank in the draw deck
    traditional: Mapping[str, Any]
    path: tuple = ()


@dataclass(frozen=True)
class Arrangement:
    """A game of rows: lay out ``row`` of one's own cards (one per rank), turn ``draws`` cards;
    a row's points are its best run of face-up neighbours."""

    row: int
    draws: int
    replacement: bool
    setups: Mapping[str, Setup]
    path: tuple = ("arrangement",)


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
    aliases: Mapping[str, str] = field(default_factory=dict)  # short names of modifiers -> their ids
    spells: str | None = None  # the deck whose cards are the game's spells (modifiers named by card id)
    arrangement: Arrangement | None = None  # a game of rows instead of hands (no rankings)
    credits: Credits | None = None  # who made the game, its source and licence
    locator: Any = field(default=None, compare=False, repr=False)  # places its file's keys at their lines

    def modifier_id(self, name: str) -> str:
        """A modifier's id from its id or one of its aliases (unknown names are returned as they are)."""
        return self.aliases.get(name, name)

    @property
    def default_ranking(self) -> str:
        return next(iter(self.rankings), "")

    @property
    def default_deck(self) -> str:
        return next(iter(self.decks))
