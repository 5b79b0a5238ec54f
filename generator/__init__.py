"""Aetherpress: card decks and rulebooks from data, ready for print."""

__all__ = ["__version__"]

__version__ = "0.1.0"
