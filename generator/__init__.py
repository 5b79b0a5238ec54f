"""Aetherpress: card decks and rulebooks from data, ready for print."""

__version__ = "0.1.0"
