"""Odds tables: exact counts per category, cached on disk, and the designer's audit."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..definitions.discovery import load_all
from ..definitions.schema import suggest
from ..errors import AetherpressError, Problem
from ..project import Project
from ..project.cache import read_cached, write_cached
from .check import engines_for, load_games
from .counting import count
from .engine import ENGINE_VERSION, Engine, HandResult
from .rankings import Game


@dataclass(frozen=True)
class CategoryOdds:
    name: str
    description: str
    count: int
    pattern: int
    probability: float
    one_in: float | None
    subcounts: dict | None
    example: tuple[str, ...] | None


@dataclass(frozen=True)
class OddsTable:
    game: str
    ranking: str
    deck: str
    hand_size: int
    total: int
    categories: tuple[CategoryOdds, ...]
    modifiers: tuple[str, ...] = ()
    deck_key: str = ""
    title: str = ""
    ranking_title: str = ""
    deck_title: str = ""
    cards: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "ranking": self.ranking,
            "deck": self.deck,
            "hand_size": self.hand_size,
            "total": self.total,
        }
        if self.modifiers:
            out["modifiers"] = list(self.modifiers)
        cats = []
        for c in self.categories:
            row: dict[str, Any] = {
                "name": c.name,
                "count": c.count,
                "pattern": c.pattern,
                "probability": float(f"{c.probability:.3g}"),
            }
            if c.subcounts is not None:
                row["subcounts"] = dict(c.subcounts)
            cats.append(row)
        out["categories"] = cats
        return out

    def audit(self) -> dict[str, list]:
        """Advice for the designer: categories no hand takes, and adjacent ones out of rarity order."""
        unreachable = [c.name for c in self.categories if c.count == 0]
        inverted = []
        for hi, lo in zip(self.categories, self.categories[1:]):
            if hi.count and lo.count and hi.count > lo.count:
                inverted.append((hi.name, hi.count, lo.name, lo.count))
        return {"unreachable": unreachable, "inverted": inverted}


# --- building tables -------------------------------------------------------------

_GAMES: dict[str, dict[str, Game]] = {}
_TABLES: dict[str, dict] = {}
_ENGINES: dict[tuple, Engine] = {}


def game_table(project: Project) -> dict[str, Game]:
    key = project.key
    if key not in _GAMES:
        _GAMES[key] = load_games(project)
    return _GAMES[key]


def _game(project: Project, game_id: str) -> Game:
    games = game_table(project)
    if game_id not in games:
        raise AetherpressError(
            Problem("command line", f"unknown game '{game_id}'{suggest(game_id, games)}; games: {', '.join(games) or 'none'}")
        )
    return games[game_id]


def evaluator(
    project: Project, game_id: str, ranking: str | None = None, deck: str | None = None, modifiers: Sequence[str] = ()
) -> Engine:
    """The compiled engine for a game's ranking on one of its decks."""
    game = _game(project, game_id)
    key = (project.key, game_id, ranking or game.default_ranking, deck or game.default_deck, tuple(modifiers))
    if key not in _ENGINES:
        _ENGINES[key] = engines_for(game, load_all(project), ranking, deck, modifiers)
    return _ENGINES[key]


def classify(
    project: Project,
    game_id: str,
    cards: Sequence[str],
    ranking: str | None = None,
    deck: str | None = None,
    modifiers: Sequence[str] = (),
) -> HandResult:
    """The category of a hand (card ids), with its tie-break key."""
    return evaluator(project, game_id, ranking, deck, modifiers).evaluate(cards)


def compare(
    project: Project,
    game_id: str,
    a: Sequence[str],
    b: Sequence[str],
    ranking: str | None = None,
    deck: str | None = None,
    modifiers: Sequence[str] = (),
) -> int:
    """1 if hand ``a`` beats ``b``, -1 if ``b`` wins, 0 for a tie."""
    ev = evaluator(project, game_id, ranking, deck, modifiers)
    ka, kb = ev.evaluate(a).key, ev.evaluate(b).key
    return (ka > kb) - (ka < kb)


def deck_content(deck) -> list:
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


def cache_key(engine: Engine) -> str:
    payload = json.dumps(
        {
            "engine": ENGINE_VERSION,
            "ranking": engine.ranking.data,
            "modifiers": [m.data for m in engine.modifiers],
            "deck": deck_content(engine.deck),
        },
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:32]


def odds_table(
    project: Project,
    game_id: str,
    ranking: str | None = None,
    deck: str | None = None,
    modifiers: Sequence[str] = (),
    use_cache: bool = True,
) -> OddsTable:
    """Exact counts for a game's ranking on one of its decks (defaults: the first of each)."""
    game = _game(project, game_id)
    ranking = ranking or game.default_ranking
    deck = deck or game.default_deck
    engine = evaluator(project, game_id, ranking, deck, modifiers)
    key = cache_key(engine)
    raw = read_cached(project, "odds", key, lambda data: consistent(engine, data)) if use_cache else None
    if raw is None:
        raw = (_TABLES.get(key) if use_cache else None) or count_raw(engine)
        if use_cache:
            write_cached(project, "odds", key, raw)
    _TABLES[key] = raw
    return _table(game, engine, ranking, deck, tuple(modifiers), raw)


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
    cats = []
    for i, cat in enumerate(r.categories):
        count = raw["counts"][i]
        sub = None
        if class_names:
            sub = {name: raw["subcounts"][i][j] for j, name in enumerate(class_names)}
        example = _example(engine, i, raw)
        cats.append(
            CategoryOdds(
                cat.name,
                cat.description,
                count,
                raw["pattern"][i],
                count / total if total else 0.0,
                (total / count) if count else None,
                sub,
                example,
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
    )
