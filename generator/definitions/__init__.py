"""Stage one: definition files (decks, card lists, styles, presets, variants) read into the model."""

from .deck import DeckDefinition, load_definition
from .discovery import deck_language, definition_kind, is_deck_file, load_all, load_each, own_ids, parse_deck_spec
from .model import Card, CardSize, Deck, Origin, Rank, Suit, Variant, frozen_mapping

__all__ = [
    "Card",
    "CardSize",
    "Deck",
    "DeckDefinition",
    "Origin",
    "Rank",
    "Suit",
    "Variant",
    "deck_language",
    "definition_kind",
    "frozen_mapping",
    "is_deck_file",
    "load_all",
    "load_definition",
    "load_each",
    "own_ids",
    "parse_deck_spec",
]
