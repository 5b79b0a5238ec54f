"""Hand-ranking odds for rulebooks, from the hand-ranking engine.

The engine (``generator.hands``) enumerates every hand; this module only asks
it for tables and formats its numbers.  Nothing here computes or types in an
odd: when the engine is missing, a book that needs odds does not build.
"""
from __future__ import annotations

import math
from typing import Any

from ..errors import AetherpressError, Problem
from ..project import Project


class OddsSource:
    """Fetches odds tables (the engine caches them on disk), once per build."""

    def __init__(self, project: Project):
        self.project = project
        self._tables: dict[tuple, Any] = {}
        self._games = None

    def _engine(self, where: str):
        try:
            from .. import hands  # noqa: F401
            from ..hands import load_games, odds_table
        except ImportError as exc:
            raise AetherpressError(Problem(where, f"this rulebook needs hand-ranking odds, but the hand-ranking engine (generator.hands) is not available: {exc}")) from None
        return load_games, odds_table

    def games(self, where: str = "rulebook"):
        if self._games is None:
            load_games, _ = self._engine(where)
            self._games = load_games(self.project)
        return self._games

    def table(self, game: str, ranking: str | None = None, deck: str | None = None, where: str = "rulebook"):
        key = (game, ranking, deck)
        if key not in self._tables:
            _, odds_table = self._engine(where)
            games = self.games(where)
            if game not in games:
                raise AetherpressError(Problem(where, f"no game '{game}' for odds; games: {', '.join(sorted(games))}"))
            try:
                self._tables[key] = odds_table(self.project, game, ranking=ranking, deck=deck)
            except AetherpressError as exc:
                raise AetherpressError([Problem(where, f"odds for {game}/{ranking or 'default'}/{deck or 'default'}: {p}") for p in exc.problems]) from None
            except (KeyError, ValueError) as exc:
                raise AetherpressError(Problem(where, f"no odds for game '{game}', ranking '{ranking}', deck '{deck}': {exc}")) from None
        return self._tables[key]


def format_count(n: int) -> str:
    return f"{n:,}"


def format_probability(p: float) -> str:
    """A probability as a percentage with three significant figures, never in exponent form."""
    if p <= 0:
        return "0 %"
    pct = p * 100
    if pct >= 99.95 and p < 1:
        return f"{pct:.4f}".rstrip("0") + " %"
    digits = max(0, 2 - math.floor(math.log10(pct)))
    return f"{pct:.{digits}f} %"


def format_one_in(one_in: float | None) -> str:
    """'1 in N': whole numbers from 100 up, one decimal below."""
    if one_in is None:
        return "never"
    if one_in >= 100:
        return f"1 in {round(one_in):,}"
    return f"1 in {one_in:.1f}".replace(".0", "") if one_in == round(one_in) else f"1 in {one_in:.1f}"
