"""The deck model: plain immutable values every later stage reads.

Lengths are millimetres.  Nothing here touches the file system.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
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


class UnknownId(KeyError):
    """A deck asked for a suit, rank or card it does not have (by a template, say); said as a sentence."""

    def __str__(self) -> str:
        return str(self.args[0])


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
    line: int | None = None  # a line of the file, or a row of the sheet
    sheet: str | None = None  # a sheet of a spreadsheet, where the line is a row of it

    def __str__(self) -> str:
        if self.sheet is not None:
            return f"{self.file}: {self.place}"
        return self.file if self.line is None else f"{self.file}:{self.line}"

    @property
    def place(self) -> str:
        """The sheet and row as a spreadsheet shows them (``sheet 'Cards', row 4``), or nothing for a file of lines."""
        if self.sheet is None:
            return ""
        return f"sheet '{self.sheet}'" + (f", row {self.line}" if self.line is not None else "")


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
    # language -> field -> text, from the card list's columns such as ``text@de`` (see .languages)
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=frozen_mapping, compare=False)
    untranslated: tuple[str, ...] = field(default=(), compare=False)  # an edition's fields printed in the source language
    # an edition's fields translated in a catalogue: where each translation is written, for problems with it
    written_at: Mapping[str, Origin] = field(default_factory=frozen_mapping, compare=False)

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
    language: str = field(default="en", compare=False)  # the language the definition is written in
    editions: tuple[str, ...] = field(default=(), compare=False)  # the languages it is published in besides
    edition: str = ""  # the language of this deck's texts when it is an edition ("": the source language)
    template_words: Mapping[str, str] = field(default_factory=frozen_mapping)  # text its templates write -> translation

    @property
    def key(self) -> str:
        """``id`` or ``id:variant+variant`` as given on the command line."""
        return self.id + (":" + "+".join(self.applied) if self.applied else "") + ("@" + self.edition if self.edition else "")

    @property
    def slug(self) -> str:
        """The name of its output folder and files: ``imperial-academy``, ``imperial-academy-de`` for an edition."""
        return self.id + "".join("-" + v for v in self.applied) + ("-" + self.edition if self.edition else "")

    @property
    def card_count(self) -> int:
        return sum(c.copies for c in self.cards)

    def suit(self, suit_id: str) -> Suit:
        return self._found(self._suits_by_id, suit_id, "suit")

    def rank(self, rank_id: str) -> Rank:
        return self._found(self._ranks_by_id, rank_id, "rank")

    def card(self, card_id: str) -> Card:
        return self._found(self._cards_by_id, card_id, "card")

    def _found(self, table: Mapping[str, Any], wanted: str, what: str) -> Any:
        try:
            return table[wanted]
        except (KeyError, TypeError):
            if wanted is None:
                raise UnknownId(f"asked deck '{self.key}' for the {what} of a card that has none") from None
            raise UnknownId(f"deck '{self.key}' has no {what} {wanted!r}") from None

    def template_for(self, card: Card) -> str:
        return self.templates.get(card.group, self.template)

    def back_for(self, card: Card) -> str:
        return self.backs.get(card.group, self.back_template)

    @cached_property
    def _suits_by_id(self) -> dict[str, Suit]:
        return {s.id: s for s in self.suits}

    @cached_property
    def _ranks_by_id(self) -> dict[str, Rank]:
        return {r.id: r for r in self.ranks}

    @cached_property
    def _cards_by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}
