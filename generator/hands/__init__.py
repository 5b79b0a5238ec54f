"""Hand rankings as data: classify, compare and count hands for any game."""
from .games import Category, DeckChoice, Game, Modifier, Ranking, load_game, load_games
from .odds import OddsTable, classify, compare, evaluator, odds_table

__all__ = ["Category", "DeckChoice", "Game", "Modifier", "OddsTable", "Ranking", "classify", "compare",
           "evaluator", "load_game", "load_games", "odds_table"]
