"""Hand rankings as data: classify, compare and count hands for any game."""

from .check import load_games
from .games import load_game
from .oddstables import Hands, OddsTable
from .rankings import Category, DeckChoice, Game, Modifier, Ranking

__all__ = [
    "Category",
    "DeckChoice",
    "Game",
    "Hands",
    "Modifier",
    "OddsTable",
    "Ranking",
    "load_game",
    "load_games",
]
