"""Hand-ranking odds for rulebooks, from the hand-ranking engine.

The engine (``generator.hands``) enumerates every hand; this module only asks
it for tables and formats its numbers.  Nothing here computes or types in an
odd.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from decimal import ROUND_CEILING, Decimal
from typing import Any

from ..errors import AetherpressError, Problem
from ..hands import Game, Hands
from ..hands.figures import outward_percent, percent, supported
from ..hands.oddstables import table_inputs, table_requests
from .words import NBSP, number, per_cent, words


class OddsSource:
    """Fetches odds tables from a project's :class:`~generator.hands.Hands`, once per build."""

    def __init__(self, hands: Hands):
        self.hands = hands
        self._tables: dict[tuple, Any] = {}
        self._games: dict[str, Game] | None = None
        self.simulated = False  # has the book being made shown a simulated table? (see :meth:`begin`)

    def begin(self) -> None:
        """A new book starts: it has shown no table yet."""
        self.simulated = False

    def count_ahead(self, games: Sequence[str]) -> None:
        """Count (or find counted) every table ``games`` offer, before a book's source is filled in: a long count (a
        simulation of millions of deals) is not part of the time a source may take.  A table that cannot be
        counted is left: the book says why, if it shows it."""
        known = self.games()
        for game_id in dict.fromkeys(games):
            if game_id not in known:
                continue
            for ranking, deck, modifiers in table_requests(known[game_id]):
                try:
                    self.hands.count_table(game_id, ranking, deck, modifiers)
                except AetherpressError:
                    continue

    def games(self, where: str = "rulebook") -> dict[str, Game]:
        if self._games is None:
            self._games = self.hands.games
        return self._games

    def notes(self, game: str, where: str = "rulebook") -> tuple[str, ...]:
        """The readings a game's ranking data rests on, as its data file states them."""
        games = self.games(where)
        if game not in games:
            raise AetherpressError(Problem(where, f"no game '{game}'; games: {', '.join(sorted(games))}"))
        return tuple(games[game].notes)

    def table(
        self,
        game: str,
        ranking: str | None = None,
        deck: str | None = None,
        where: str = "rulebook",
        modifiers: Sequence[str] = (),
    ):
        key = (game, ranking, deck, tuple(modifiers))
        if key not in self._tables:
            games = self.games(where)
            if game not in games:
                raise AetherpressError(Problem(where, f"no game '{game}' for odds; games: {', '.join(sorted(games))}"))
            try:
                self._tables[key] = self.hands.odds_table(game, ranking=ranking, deck=deck, modifiers=tuple(modifiers))
            except AetherpressError as exc:
                raise AetherpressError(
                    [Problem(where, f"odds for {game}/{ranking or 'default'}/{deck or 'default'}: {p}") for p in exc.problems]
                ) from None
            except (KeyError, ValueError) as exc:
                raise AetherpressError(
                    Problem(where, f"no odds for game '{game}', ranking '{ranking}', deck '{deck}': {exc}")
                ) from None
        self.simulated |= self._tables[key].simulated
        return self._tables[key]

    def modifiers(self, game: str, where: str = "rulebook") -> dict[str, Any]:
        """A game's modifiers (spells and house rules) by id, in the order of its file."""
        games = self.games(where)
        if game not in games:
            raise AetherpressError(Problem(where, f"no game '{game}'; games: {', '.join(sorted(games))}"))
        return dict(games[game].modifiers)

    def rows(self, game: str, where: str = "rulebook") -> dict[str, Any]:
        """The setups of a game of rows, every kind of row counted (see ``generator.hands.rows``)."""
        games = self.games(where)
        if game not in games or games[game].arrangement is None:
            raise AetherpressError(Problem(where, f"no game of rows '{game}'"))
        return self.hands.row_table(game)


def format_count(n: int) -> str:
    return number(f"{n:,}")


def format_probability(p: float, interval: tuple[float, float] | None = None, decimals: int | None = None) -> str:
    """A probability as a percentage with three significant figures, never in exponent form; with
    its interval (a simulated figure), with no more decimals than the interval supports; with
    ``decimals``, to that many decimals (a column of figures set alike)."""
    if p <= 0 and interval is None and decimals is None:
        return per_cent("0")
    pct = p * 100
    if interval is None and decimals is None and pct >= 99.95 and p < 1:
        return per_cent(number(f"{pct:.4f}".rstrip("0")))
    return per_cent(number(str(printed_percent(p, interval, decimals))))


def printed_percent(p: float, interval: tuple[float, float] | None = None, decimals: int | None = None) -> Decimal:
    """The percentage :func:`format_probability` prints for ``p``."""
    return percent(p, supported(p, interval) if decimals is None else decimals)


def format_bound(figures: Sequence[Sequence[Any]], decimals: int | None = None) -> str:
    """How far, in percentage points, a printed figure may lie from its true share: the largest distance from
    a figure as printed (``(p, interval)`` pairs, printed to ``decimals`` or as their intervals support,
    rounding included) to an end of its interval, rounded up to two decimals."""
    farthest = Decimal(0)
    for p, (low, high) in figures:
        shown = printed_percent(p, (low, high), decimals)
        farthest = max(farthest, shown - Decimal(repr(low)) * 100, Decimal(repr(high)) * 100 - shown)
    return number(str(farthest.quantize(Decimal("0.01"), rounding=ROUND_CEILING)))


def format_interval(interval: tuple[float, float] | None, p: float | None = None) -> str:
    """The interval of a probability ``p``: '1.2 % to 1.4 %', to the decimals ``p`` is printed with,
    the ends rounded outward (empty for an exact figure)."""
    if interval is None:
        return ""
    d = supported(interval[1] if p is None else p, interval)
    lo, hi = outward_percent(interval, d)
    return words("{low} to {high}", low=per_cent(number(str(lo))), high=per_cent(number(str(hi))))


def format_points(value: Any) -> str:
    """Expected points, two decimals."""
    return number(f"{float(value):.2f}")


def format_one_in(one_in: float | None) -> str:
    """'1 in N': whole numbers from 100 up, one decimal below."""
    if one_in is None:
        return words("never")
    if one_in >= 100:
        n = f"{round(one_in):,}"
    else:
        n = f"{one_in:.1f}".replace(".0", "") if one_in == round(one_in) else f"{one_in:.1f}"
    return words("1 in {n}", n=number(n)).replace(" ", NBSP)  # never parted by a line's end


_MAX_SEARCH = 200_000  # hands: beyond this a missing example is left out rather than searched for


def chart_examples(hands: Hands, table: Any, deck_card_ids: set[str]) -> dict[int, tuple[str, ...] | None]:
    """An example hand for every category of ``table`` that some hand takes, from the chart's deck.

    The engine gives each table examples from the table's own deck; should one be
    missing or hold cards the deck lacks, the example is the first hand of the deck,
    in deck order, that the engine puts in that category: found in one pass over the
    hands (small decks only) and kept as the hands keep their counts.
    """
    examples: dict[int, tuple[str, ...] | None] = {}
    missing = []
    for index, category in enumerate(table.categories):
        if category.count and category.example and set(category.example) <= deck_card_ids:
            examples[index] = tuple(category.example)
        else:
            examples[index] = None
            if category.count:
                missing.append(index)
    if not missing:
        return examples
    if table.total > _MAX_SEARCH:
        return examples
    engine = hands.evaluator(table.game, table.ranking, table.deck)
    ids = [c.id for c in engine.deck.cards if c.id in deck_card_ids]

    def search() -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        wanted = set(missing)
        for hand in itertools.combinations(ids, table.hand_size):
            category = engine.evaluate(hand).category
            if category in wanted:
                found[str(category)] = list(hand)
                wanted.discard(category)
                if not wanted:
                    break
        return found

    def load(data: dict[str, list[str]]) -> dict[str, list[str]]:
        if not all(engine.evaluate(hand).category == int(index) for index, hand in data.items()):
            raise ValueError("hands of other categories")
        return data

    found = hands.keep("rulebook-examples", [table_inputs(engine), ids, missing, table.hand_size], search, load)
    for index in missing:
        if str(index) in found:
            examples[index] = tuple(found[str(index)])
    return examples
