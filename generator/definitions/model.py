"""The deck model: plain immutable values every later stage reads.

Lengths are millimetres.  Nothing here touches the file system.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .credits import Credits


def frozen_mapping(data: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """A read-only view of a copy of ``data`` (lists become tuples)."""

    def freeze(value: Any) -> Any:
        if isinstance(value, Mapping):
            return MappingProxyType({k: freeze(v) for k, v in value.items()})
        if isinstance(value, (list, tuple)):
            return tuple(freeze(v) for v in value)
        return value

    return MappingProxyType({k: freeze(v) for k, v in (data or {}).items()})


@dataclass(frozen=True)
class Suit:
    id: str
    name: str
    symbol: str = ""
    colour: str = "#000000"
    order: int = 0
    attributes: Mapping[str, Any] = field(default_factory=frozen_mapping)


@dataclass(frozen=True)
class Rank:
    id: str
    name: str
    label: str
    value: int
    attributes: Mapping[str, Any] = field(default_factory=frozen_mapping)


@dataclass(frozen=True)
class Origin:
    """Where something was defined: a file as shown to people, and a line in it."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    rank: str | None = None
    suits: tuple[str, ...] = ()
    group: str = "default"
    copies: int = 1
    attributes: Mapping[str, Any] = field(default_factory=frozen_mapping)
    origin: Origin | None = field(default=None, compare=False)  # a row of a card list, where there is one

    def get(self, key: str, default: Any = None) -> Any:
        return self.attributes.get(key, default)


@dataclass(frozen=True)
class CardSize:
    name: str
    width: float
    height: float


@dataclass(frozen=True)
class Variant:
    id: str
    title: str
    description: str = ""


@dataclass(frozen=True)
class Deck:
    """A deck as printed: the base definition with zero or more variants applied."""

    id: str
    title: str
    description: str
    source: str = field(compare=False)  # the definition's path as shown in messages (from the working folder)
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    cards: tuple[Card, ...]
    size: CardSize
    template: str
    back_template: str
    backs: Mapping[str, str]  # card group -> back template
    templates: Mapping[str, str]  # card group -> face template
    style: Mapping[str, Any]
    variants: tuple[Variant, ...]
    applied: tuple[str, ...] = ()
    attribute_types: Mapping[str, str] = field(default_factory=frozen_mapping)  # declared card fields
    folder: str = ""  # the folder of the definition file, where its images are
    credits: Credits | None = None  # who made the deck, its source and licence

    @property
    def key(self) -> str:
        """``id`` or ``id:variant+variant`` as given on the command line."""
        return self.id + (":" + "+".join(self.applied) if self.applied else "")

    @property
    def slug(self) -> str:
        return self.id + "".join("-" + v for v in self.applied)

    @property
    def card_count(self) -> int:
        return sum(c.copies for c in self.cards)

    def suit(self, suit_id: str) -> Suit:
        return self._suits_by_id[suit_id]

    def rank(self, rank_id: str) -> Rank:
        return self._ranks_by_id[rank_id]

    def card(self, card_id: str) -> Card:
        return self._cards_by_id[card_id]

    def template_for(self, card: Card) -> str:
        return self.templates.get(card.group, self.template)

    def back_for(self, card: Card) -> str:
        return self.backs.get(card.group, self.back_template)

    @property
    def _suits_by_id(self) -> dict[str, Suit]:
        return {s.id: s for s in self.suits}

    @property
    def _ranks_by_id(self) -> dict[str, Rank]:
        return {r.id: r for r in self.ranks}

    @property
    def _cards_by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}
