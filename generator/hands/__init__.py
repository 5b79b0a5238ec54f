"""Hand rankings as data: classify, compare and count hands for any game."""

from .check import load_games
from .games import load_game
from .odds import OddsTable, classify, compare, evaluator, game_table, odds_table, row_table
from .rankings import Category, DeckChoice, Game, Modifier, Ranking

__all__ = [
    "Category",
    "DeckChoice",
    "Game",
    "Modifier",
    "OddsTable",
    "Ranking",
    "classify",
    "compare",
    "evaluator",
    "game_table",
    "load_game",
    "load_games",
    "odds_table",
    "row_table",
]
