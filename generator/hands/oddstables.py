"""Odds tables: exact counts per category, and the designer's audit, for the games of one project.

:class:`Hands` holds a project's games with their decks and makes what is
asked of them (engines, tables, rows) once.  Counting a table is the costly
part: its counts come through ``keep`` (the caller's way of keeping them
between runs, given the kind, the inputs the counts are made from, the way
to make them and the way to check kept counts), so a build counts each
table once, ever, and this stage never knows that anything is kept.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..definitions.deck import DeckDefinition
from ..definitions.schema import suggest
from ..errors import AetherpressError, Problem
from .check import engines_for, resolve
from .counting import count
from .engine import Engine, HandResult
from .gridcount import BUDGET as GRID_BUDGET
from .rankings import Game
from .rows import SetupOdds, row_odds
from .simulate import DEFAULT_SEED, DEFAULT_TRIALS, MAX_TRIALS
from .spells import EXACT_LIMIT, built_raw, exact_size
from .tables import CategoryOdds, OddsTable, shares_of

_COUNTS = "odds"  # the kind of kept counts
# (kind, inputs, make, load): the value kept for ``inputs``, else ``make()``; ``load`` checks kept data
_Keep = Callable[[str, Any, Callable[[], dict], Callable[[Any], dict]], dict]


def _make_only(kind: str, inputs: Any, make: Callable[[], dict], load: Callable[[Any], dict]) -> dict:
    """Keeping nothing: the counts are made every time."""
    return make()


_Request = tuple[str | None, str | None, tuple[str, ...]]  # (ranking, deck, modifiers) of one table of a game


def table_requests(game: Game) -> list[_Request]:
    """The tables a book of ``game`` may show: each ranking on each of its decks, and each modifier
    alone (on the ranking and deck it chooses), each table once.  A build counts them ahead, side by side."""
    if not game.rankings:
        return []
    found: list[_Request] = [(ranking, deck, ()) for ranking in game.rankings for deck in game.decks]
    return list(dict.fromkeys(_counted_as(game, r) for r in found + [(None, None, (m,)) for m in game.modifiers]))


def _counted_as(game: Game, request: _Request) -> _Request:
    """The request whose table is counted for ``request``: a modifier that only chooses the ranking counts
    as that ranking, and one the deck plays anyway adds nothing.  (A request that does not resolve is
    left as it is: counting it says why.)"""
    try:
        ranking, deck, modifiers = resolve(game, *request)
    except AetherpressError:
        return request
    played = game.decks[deck].modifiers
    return (ranking, deck, tuple(m for m in modifiers if not game.modifiers[m].only_chooses_ranking and m not in played))


class Hands:
    """The games of a project (``games``) on its decks (``definitions``): engines, tables and rows, each made
    once by this object; counts through ``keep`` (see the module's text)."""

    def __init__(self, definitions: dict[str, DeckDefinition], games: dict[str, Game], keep: _Keep = _make_only):
        self.definitions = definitions
        self.games = games
        self.keep = keep
        self._engines: dict[tuple, Engine] = {}
        self._rows: dict[str, dict[str, SetupOdds]] = {}
        self._counts: dict[str, dict] = {}

    def game(self, game_id: str) -> Game:
        if game_id not in self.games:
            known = ", ".join(self.games) or "none"
            raise AetherpressError(
                Problem("command line", f"unknown game '{game_id}'{suggest(game_id, self.games)}; games: {known}")
            )
        return self.games[game_id]

    def evaluator(
        self, game_id: str, ranking: str | None = None, deck: str | None = None, modifiers: Sequence[str] = ()
    ) -> Engine:
        """The compiled engine for a game's ranking on one of its decks."""
        game = self.game(game_id)
        ranking, deck, modifiers = resolve(game, ranking, deck, modifiers)
        key = (game_id, ranking, deck, modifiers)
        if key not in self._engines:
            self._engines[key] = engines_for(game, self.definitions, ranking, deck, modifiers)
        return self._engines[key]

    def classify(
        self,
        game_id: str,
        cards: Sequence[str],
        ranking: str | None = None,
        deck: str | None = None,
        modifiers: Sequence[str] = (),
    ) -> HandResult:
        """The category of a hand (card ids), with its tie-break key."""
        return self.evaluator(game_id, ranking, deck, modifiers).evaluate(cards)

    def compare(
        self,
        game_id: str,
        a: Sequence[str],
        b: Sequence[str],
        ranking: str | None = None,
        deck: str | None = None,
        modifiers: Sequence[str] = (),
    ) -> int:
        """1 if hand ``a`` beats ``b``, -1 if ``b`` wins, 0 for a tie."""
        ev = self.evaluator(game_id, ranking, deck, modifiers)
        ka, kb = ev.evaluate(a).key, ev.evaluate(b).key
        return (ka > kb) - (ka < kb)

    def row_table(self, game_id: str) -> dict[str, SetupOdds]:
        """Every row of a game of rows (Fivefold Arrangement) in each of its setups, counted exactly."""
        game = self.game(game_id)
        if game.arrangement is None:
            raise AetherpressError(Problem("command line", f"game '{game_id}' has hand rankings, not rows"))
        if game_id not in self._rows:
            self._rows[game_id] = row_odds(game.arrangement, self.definitions[game.deck_id].build(()))
        return self._rows[game_id]

    def odds_table(
        self,
        game_id: str,
        ranking: str | None = None,
        deck: str | None = None,
        modifiers: Sequence[str] = (),
        use_cache: bool = True,
        trials: int | None = None,
        seed: int | None = None,
        simulate: bool = False,
    ) -> OddsTable:
        """Odds for a game's ranking on one of its decks (defaults: the first of each), under the
        modifiers given.  Exact counts; under a modifier that builds hands from shared cards, exact
        where the deals can be counted, otherwise (or with ``simulate``) a seeded simulation of
        ``trials`` deals.  ``use_cache``: False counts again, whatever is kept."""
        game = self.game(game_id)
        ranking, deck, modifiers = resolve(game, ranking, deck, modifiers)
        engine = self.evaluator(game_id, ranking, deck, modifiers)
        raw = self._raw(engine, use_cache, trials, seed, simulate)
        return _table(game, engine, ranking, deck, modifiers, raw)

    def counted(self, game_id: str, modifiers: Sequence[str] = ()) -> bool:
        """Whether :meth:`odds_table` counts this table exactly (no simulated deals in it)."""
        game = self.game(game_id)
        ranking, deck, modifiers = resolve(game, None, None, modifiers)
        engine = self.evaluator(game_id, ranking, deck, modifiers)
        builder = next((m for m in engine.modifiers if m.builds_hands), None)
        if builder is None:
            return True
        size = exact_size(engine, builder)
        return size is not None and size <= EXACT_LIMIT and builder.grid is None

    def count_table(
        self, game_id: str, ranking: str | None = None, deck: str | None = None, modifiers: Sequence[str] = ()
    ) -> None:
        """Count the table :meth:`odds_table` would show (without choosing its example hands)."""
        self._raw(self.evaluator(game_id, ranking, deck, modifiers), True, None, None, False)

    def _raw(self, engine: Engine, use_cache: bool, trials: int | None, seed: int | None, simulate: bool) -> dict:
        """The counts of ``engine``'s table: kept, or counted (or simulated) and kept."""
        builder = next((m for m in engine.modifiers if m.builds_hands), None)
        method: dict[str, Any] | None = None
        if builder is not None:
            trials = DEFAULT_TRIALS if trials is None else trials
            seed = DEFAULT_SEED if seed is None else seed
            if not 1 <= trials <= MAX_TRIALS:
                raise AetherpressError(Problem("command line", f"trials must be 1 to {MAX_TRIALS:,}"))
            size = exact_size(engine, builder)
            counted = not simulate and size is not None and size <= EXACT_LIMIT
            method = {"how": "exact"} if counted else {"how": "simulation", "trials": trials, "seed": seed}
            if builder.grid is not None:
                method["counted"] = GRID_BUDGET  # the rarest categories of a grid are counted within this budget

        def make() -> dict:
            if builder is not None and method is not None:
                return built_raw(engine, builder, int(trials or 0), int(seed or 0), method["how"] == "simulation")
            return count_raw(engine)

        inputs = table_inputs(engine, method)
        known = json.dumps(inputs, sort_keys=True, default=str)
        if not use_cache:
            self._counts[known] = make()
        elif known not in self._counts:
            self._counts[known] = self.keep(_COUNTS, inputs, make, _counts_check(engine))
        return self._counts[known]


def _counts_check(engine: Engine) -> Callable[[Any], dict]:
    """The check of kept counts for ``engine``'s table: the counts when they fit it, else ValueError."""

    def load(data: Any) -> dict:
        if not consistent(engine, data):
            raise ValueError("counts that do not fit the table")
        return data

    return load


def _deck_content(deck) -> list:
    """What of a deck the counts depend on (not its looks)."""
    cards = [
        [
            c.id,
            c.rank,
            list(c.suits),
            c.group,
            c.copies,
            {k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(c.attributes.items()) if not k.startswith("_")},
        ]
        for c in deck.cards
    ]
    return [cards, [[r.id, r.value] for r in deck.ranks], [[s.id, s.order] for s in deck.suits]]


def table_inputs(engine: Engine, method: dict | None = None) -> dict:
    """What a table depends on: the ranking, the modifiers, the deck's cards (and, for a table of built
    hands, how it was made: counted, or simulated with which trials and seed)."""
    return {
        "ranking": engine.ranking.data,
        "modifiers": [m.data for m in engine.modifiers if not m.only_chooses_ranking],
        "deck": _deck_content(engine.deck),
    } | ({"method": method} if method else {})


def table_digest(engine: Engine) -> str:
    """A short digest of what ``engine``'s table depends on (to name what is derived from it)."""
    payload = json.dumps(table_inputs(engine), sort_keys=True, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:32]


def _example(engine: Engine, index: int, raw: dict) -> tuple[str, ...] | None:
    """The game's example for a category when it is a hand of this deck and takes
    that category here (or, for a category no hand takes, fits it); otherwise the
    first hand the count found; None when there is none."""
    cat = engine.ranking.categories[index]
    ids = {c.id for c in engine.deck.cards}
    if cat.example is not None and set(cat.example) <= ids:
        got = engine.evaluate(cat.example)
        if got.category == index or (raw["counts"][index] == 0 and got.fits_category(index)):
            return cat.example
    found = raw["examples"].get(str(index))
    return tuple(found) if found else None


def consistent(engine: Engine, raw: dict) -> bool:
    """Do these counts fit this engine's ranking and deck?  (Checked before a cached table is believed.)"""
    ncat = len(engine.ranking.categories)
    counts, pattern, sub = raw["counts"], raw["pattern"], raw["subcounts"]
    numbers = [*counts, *pattern, *(x for row in sub for x in row), raw["total"]]
    ids = set(engine.index_of) | {c.id for c in engine.blank_wilds}
    return (
        all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in numbers)
        and len(counts) == len(pattern) == len(sub) == ncat
        and sum(counts) == raw["total"] > 0
        and all(c <= p <= raw["total"] for c, p in zip(counts, pattern))
        and all(sum(row) == c for row, c in zip(sub, counts))
        and all(set(hand) <= ids and len(hand) == engine.k for hand in raw["examples"].values())
        and _consistent_exact(raw.get("exact"), ncat)
    )


def _consistent_exact(exact: Any, ncat: int) -> bool:
    """The exactly counted categories of a simulated table: whole counts, within the deals there are."""
    if exact is None:
        return True
    try:
        counts = [(int(i), n) for i, n in exact["counts"].items()]
        total = exact["total"]
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    return (
        isinstance(total, int)
        and total > 0
        and all(0 <= i < ncat and isinstance(n, int) and not isinstance(n, bool) and n >= 0 for i, n in counts)
        and sum(n for _, n in counts) <= total
    )


def count_raw(engine: Engine) -> dict:
    counts, pattern, sub, total, examples = count(engine)
    return {
        "counts": [int(x) for x in counts],
        "pattern": [int(x) for x in pattern],
        "subcounts": [[int(x) for x in row] for row in sub],
        "total": int(total),
        "examples": {str(i): list(v) for i, v in examples.items()},
    }


def _table(game: Game, engine: Engine, ranking: str, deck: str, modifiers: tuple, raw: dict) -> OddsTable:
    r = engine.ranking
    total = raw["total"]
    class_names = [c.name for c in r.classes]
    if class_names and r.classes[-1].blocks:
        class_names.append("other")
    simulated = raw.get("method") == "simulation"
    shares = shares_of(raw)
    counted = raw.get("exact", {}).get("counts", {})  # deals out of raw["exact"]["total"]
    cats = []
    for i in engine.order:  # best first, in the order in force
        cat = r.categories[i]
        count = raw["counts"][i]
        sub = None
        if class_names:
            sub = {name: raw["subcounts"][i][j] for j, name in enumerate(class_names)}
        example = _example(engine, i, raw)
        share, interval = shares[i] if simulated else (Fraction(count, total or 1), None)
        cats.append(
            CategoryOdds(
                cat.name,
                cat.description,
                counted.get(str(i), count),
                raw["pattern"][i],
                float(share),
                float(1 / share) if share else None,
                sub,
                example,
                interval,
                share,
            )
        )
    choice = game.decks[deck]
    return OddsTable(
        game.id,
        ranking,
        deck,
        r.hand_size,
        total,
        tuple(cats),
        modifiers,
        engine.deck.key,
        game.title,
        r.title,
        choice.title,
        engine.n + len(engine.blank_wilds),
        raw.get("method", "exact"),
        raw.get("trials"),
        raw.get("seed"),
        tuple(m.title for m in engine.modifiers if m.id in modifiers),
        next((m.require.name for m in engine.modifiers if m.require is not None), None),
        {rank: [counts[i] for i in engine.order] for rank, counts in raw["kept"]} if raw.get("kept") else None,
        raw.get("exact", {}).get("total"),
    )
