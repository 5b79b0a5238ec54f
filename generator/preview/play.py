"""The playtest table's answers: the games a deck is played in, a seeded deal, and what each hand is worth.

The games are read once per reading of the definitions (:class:`Play`), and
every figure comes from the counting engine through
:mod:`generator.hands.standing`: the table's page shows them and counts
nothing itself.  The deal is shuffled here, from the seed the page shows, so
the same seed deals the same cards again.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from ..definitions.model import Deck
from ..errors import AetherpressError
from ..hands import Game, Hands
from ..hands.standing import RowStanding, Unfinished, played_as, row_standing, standing
from ..hands.tables import OddsTable
from ..pipeline.context import ProjectContext
from ..project import Project
from ..rulebook.bookodds import format_count, format_one_in, format_probability
from .query import MAX_SEED, BadRequest, Query, card_lists

MAX_SEATS = 6
_DEFAULT_HAND = 5  # cards each, for a deck no game is played with


class Play:
    """A project's games, read when first asked for after the definitions were read (see :class:`.state.Preview`).

    The engine is not made for several threads: one request at a time uses it."""

    def __init__(self, project: Project):
        self.context = ProjectContext(project)
        self.lock = threading.Lock()
        self._played: dict[str, dict[str, tuple[Game, list[str]]]] = {}  # by deck key

    @property
    def hands(self) -> Hands:
        return self.context.hands

    def games_of(self, deck: Deck) -> dict[str, tuple[Game, list[str]]]:
        """The games played with ``deck``, each with the names of its decks (or ``rows``) the deck is."""
        if deck.key not in self._played:
            found = {}
            for gid, game in self.context.games.items():
                choices = played_as(self.context.definitions, game, deck)
                if choices:
                    found[gid] = (game, choices)
            self._played[deck.key] = found
        return self._played[deck.key]


# --- what a deck is played with ------------------------------------------------------


def table_json(play: Play, deck: Deck, served: Mapping[str, Deck]) -> dict[str, Any]:
    """The deck's cards and the games played with it: their decks or setups, hand sizes and spells.
    ``served``: every deck being previewed, by slug (where a game's spells are looked up)."""
    cards = [
        {"id": c.id, "name": c.name, "copies": c.copies, "back": deck.back_for(c), "rank": c.rank, "suits": list(c.suits)}
        for c in deck.cards
    ]
    out: dict[str, Any] = {"slug": deck.slug, "key": deck.key, "title": deck.title, "cards": cards, "games": []}
    try:
        with play.lock:
            games = play.games_of(deck)
            out["games"] = [_game_json(play.hands, game, choices, served) for game, choices in games.values()]
    except AetherpressError as exc:
        out["problem"] = f"error: {exc.problems[0]}"
    return out


def _game_json(hands: Hands, game: Game, choices: list[str], served: Mapping[str, Deck]) -> dict[str, Any]:
    if game.arrangement is not None:
        arrangement = game.arrangement
        return {
            "id": game.id,
            "title": game.title,
            "kind": "rows",
            "row": arrangement.row,
            "draws": arrangement.draws,
            "rules": [{"id": s.id, "title": s.title, "shared_draws": s.shared_draws} for s in arrangement.setups.values()],
            "hand_size": len({c.rank for c in hands.definitions[game.deck_id].build(()).cards}),
        }
    rules = []
    for name in choices:
        engine = hands.evaluator(game.id, None, name)
        rules.append({"id": name, "title": game.decks[name].title, "hand_size": engine.k, "ranking": engine.ranking.title})
    spells = None
    if game.spells is not None:
        deck = next((d for d in served.values() if d.id == game.spells and not d.edition), None)
        spell_cards = _spell_cards(hands, game, deck)
        spells = {"deck": deck.slug if deck is not None else None, "cards": spell_cards}
    played = {m for name in choices for m in game.decks[name].modifiers}
    modifiers = [_modifier_json(game, m) for m in game.modifiers if m not in played]
    return {"id": game.id, "title": game.title, "kind": "hands", "rules": rules, "spells": spells, "modifiers": modifiers}


def _spell_cards(hands: Hands, game: Game, deck: Deck | None) -> list[dict[str, Any]]:
    """The spell deck's cards (from the deck being previewed, else as defined), each with whether it is a modifier."""
    if deck is None:
        if game.spells not in hands.definitions:
            return []
        deck = hands.definitions[str(game.spells)].build(())
    return [
        {
            "id": c.id,
            "name": c.name,
            "copies": c.copies,
            "back": deck.back_for(c),
            "modifier": c.id in game.modifiers,
            "text": game.modifiers[c.id].description if c.id in game.modifiers else str(c.attributes.get("text", "")),
        }
        for c in deck.cards
    ]


def _modifier_json(game: Game, mid: str) -> dict[str, Any]:
    m = game.modifiers[mid]
    out: dict[str, Any] = {"id": mid, "title": m.title, "description": m.description}
    if m.shared is not None:
        out["own"], out["shared"] = m.shared.own, m.shared.cards
    if m.grid is not None:
        out["own"], out["shared"] = m.grid.own, m.grid.size**2
    if m.ranking is not None:
        out["hand_size"] = game.rankings[m.ranking].hand_size
    return out


# --- a seeded deal ---------------------------------------------------------------------


def shuffled(items: Sequence[str], rng: random.Random) -> list[str]:
    """``items`` in a shuffled order: Fisher and Yates's shuffle on ``rng.random()``, whose numbers Python
    keeps the same for the same seed from version to version (so a seed deals the same cards for years)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def deal_json(play: Play, deck: Deck, served: Mapping[str, Deck], query: Query) -> dict[str, Any]:
    """A deal from ``seed``: ``seats`` hands of ``cards`` each (a game's hand size by default), the draw pile,
    and the game's spells shuffled with the same seed."""
    seed = query.whole("seed", 0, MAX_SEED)
    seats = query.whole("seats", 2, MAX_SEATS, 2)
    rng = random.Random(seed)
    gid = query.one("game")
    with play.lock:
        games = play.games_of(deck) if gid is not None else {}
        if gid is not None and gid not in games:
            raise BadRequest(f"deck '{deck.key}' is not played in a game '{gid}'; games: {', '.join(games) or 'none'}")
        game, choices = games[gid] if gid is not None else (None, [])
        if game is not None and game.arrangement is not None:
            rules = query.choice("rules", list(game.arrangement.setups), "setup")
            return dict(_rows_deal(game, rules, deck, seats, rng), seed=seed)
        size = _DEFAULT_HAND
        if game is not None:
            rules = query.choice("rules", choices, "deck of the game")
            size = play.hands.evaluator(game.id, None, rules).k
        size = query.whole("cards", 1, 20, size)
        order = shuffled([c.id for c in deck.cards for _ in range(c.copies)], rng)
        if size * seats > len(order):
            raise BadRequest(f"{seats} hands of {size} cards need {size * seats} cards; deck '{deck.key}' has {len(order)}")
        hands = [[order[i * seats + s] for i in range(size)] for s in range(seats)]  # dealt round the table, one at a time
        out: dict[str, Any] = {"seed": seed, "hands": hands, "pile": order[size * seats :], "aside": []}
        if game is not None and game.spells is not None:
            spell_deck = next((d for d in served.values() if d.id == game.spells and not d.edition), None)
            cards = [c["id"] for c in _spell_cards(play.hands, game, spell_deck) for _ in range(c["copies"])]
            out["spells"] = shuffled(cards, rng)
        return out


def _rows_deal(game: Game, setup_id: str, deck: Deck, seats: int, rng: random.Random) -> dict[str, Any]:
    """A game of rows: each seat takes the cards of one suit (the setup's usual suits first); the draw pile is
    made of the other suits' cards, as many of each rank as the setup's draw deck has (its usual suits and
    cards first), shuffled; the cards left over are set aside."""
    assert game.arrangement is not None
    setup = game.arrangement.setups[setup_id]
    usual = setup.traditional
    suits = [s.id for s in deck.suits]
    players = [s for s in usual.get("players", []) if s in suits] + [s for s in suits if s not in usual.get("players", [])]
    if seats > len(suits) - 1:
        raise BadRequest(f"a game of rows deals one suit to each seat and draws from the others: at most {len(suits) - 1} seats")
    mine = players[:seats]
    ranked = sorted(deck.cards, key=lambda c: deck.rank(c.rank).value if c.rank else 0)
    hands = [[c.id for c in ranked if s in c.suits for _ in range(c.copies)] for s in mine]
    left = [c for c in deck.cards if not set(c.suits) & set(mine)]
    pile = _draw_pile(setup, usual, suits, mine, left)
    aside = [c.id for c in left if c.id not in pile]
    return {"hands": hands, "pile": shuffled(sorted(pile, key=[c.id for c in deck.cards].index), rng), "aside": aside}


def _draw_pile(setup: Any, usual: Mapping[str, Any], suits: list[str], mine: list[str], left: list) -> list[str]:
    """The cards of the other suits a game of rows draws from: the setup's usual draw suits when the seats hold
    its usual suits, else as many of each rank as its draw deck has, its complete suits first."""
    if usual.get("draw") and mine == list(usual["players"]):
        return [c.id for c in left if set(c.suits) & set(usual["draw"]) and c.id not in usual.get("remove", [])]
    first = list(usual.get("complete", [])) + [s for s in suits if s not in usual.get("complete", [])]
    wanted = dict(setup.draw_deck)
    pile = []
    for card in sorted(left, key=lambda c: min((first.index(s) for s in c.suits if s in first), default=len(first))):
        if wanted.get(str(card.rank), 0) > 0:
            wanted[str(card.rank)] -= 1
            pile.append(card.id)
    return pile


# --- what each hand is worth -------------------------------------------------------------


def hands_json(play: Play, deck: Deck, query: Query) -> dict[str, Any]:
    """Each seat's hand (``seat``, once per seat) valued in ``game`` on its deck ``rules`` under ``spell``,
    with the ``shared`` row; for a game of rows, each seat's row in setup ``rules``, ``shared`` the cards
    turned.  With the rules in force and their table of odds."""
    seats = query.every("seat")
    if len(seats) > MAX_SEATS:
        raise BadRequest(f"{len(seats)} seats; at most {MAX_SEATS}")
    shared_text = query.one("shared", "") or ""
    lists = card_lists([*seats, shared_text], deck, "hand")
    hands, shared = lists[:-1], lists[-1]
    gid = query.one("game")
    if gid is None:
        raise BadRequest("'game' is missing: the game whose hands these are")
    with play.lock:
        games = play.games_of(deck)
        if gid not in games:
            raise BadRequest(f"deck '{deck.key}' is not played in a game '{gid}'; games: {', '.join(games) or 'none'}")
        game, choices = games[gid]
        if game.arrangement is not None:
            return _rows_json(play.hands, game, query, hands, shared)
        rules = query.choice("rules", choices, "deck of the game")
        spell = query.one("spell")
        if spell is not None and game.modifier_id(spell) not in game.modifiers:
            known = ", ".join(game.modifiers) or "none"
            raise BadRequest(f"game '{game.id}' has no spell or rule '{spell}'; its modifiers: {known}")
        modifiers = (game.modifier_id(spell),) if spell else ()
        table = play.hands.odds_table(game.id, None, rules, modifiers)
        engine = play.hands.evaluator(game.id, None, rules, modifiers)
        values = [standing(play.hands, game.id, rules, modifiers, own, shared) for own in hands]
    return {"rules": _rules_json(game, rules, modifiers, table, engine.k), "seats": [_seat_json(v) for v in values]}


def _rules_json(game: Game, rules: str, modifiers: tuple[str, ...], table: OddsTable, k: int) -> dict[str, Any]:
    builder = next((game.modifiers[m] for m in modifiers if game.modifiers[m].builds_hands), None)
    own, shared = k, 0
    if builder is not None and builder.shared is not None:
        own, shared = builder.shared.own, builder.shared.cards
    elif builder is not None and builder.grid is not None:
        own, shared = builder.grid.own, builder.grid.size**2
    if table.simulated:
        counted = f"{format_count(table.total)} simulated deals (seed {table.seed})"
    else:
        counted = f"all {format_count(table.total)} {'hands' if builder is None else 'deals'}, counted exactly"
    return {
        "game": game.id,
        "rules": rules,
        "spell": modifiers[0] if modifiers else None,
        "title": table.ranking_title,
        "deck": table.deck_title,
        "modifiers": list(table.modifier_titles),
        "hand_size": k,
        "own": own,
        "shared": shared,
        "counted": counted,
        "exact": not table.simulated,
        "categories": [
            {
                "name": c.name,
                "probability": c.probability,
                "fraction": [c.fraction.numerator, c.fraction.denominator],
                "chance": format_probability(c.probability, c.interval),
                "one_in": format_one_in(c.one_in),
                "exact": c.exact,
            }
            for c in table.categories
        ],
    }


def _seat_json(value: Any) -> dict[str, Any]:
    if isinstance(value, Unfinished):
        return {"needs": value.needs}
    about = "" if value.exact else "about "
    chance, beats = format_one_in(float(1 / value.at_least)), format_probability(float(value.beats))
    line = f"{value.category} · {about}{chance} · beats {about}{beats} of hands"
    return {
        "category": value.category,
        "place": value.place,
        "at_least": [value.at_least.numerator, value.at_least.denominator],
        "beats": [value.beats.numerator, value.beats.denominator],
        "exact": value.exact,
        "line": line,
        "cards": list(value.cards),
        "reading": list(value.reading),
    }


def _rows_json(hands: Hands, game: Game, query: Query, rows: list[list[str]], turned: list[str]) -> dict[str, Any]:
    assert game.arrangement is not None
    setup = query.choice("rules", list(game.arrangement.setups), "setup")
    if query.one("spell") is not None:
        raise BadRequest(f"game '{game.id}' is a game of rows: it has no spells")
    odds = hands.row_table(game.id)[setup]
    values = [row_standing(hands, game.id, setup, row, turned) for row in rows]
    rules = {
        "game": game.id,
        "rules": setup,
        "title": odds.title,
        "row": game.arrangement.row,
        "counted": f"all {format_count(odds.total)} ways the draws fall, counted exactly",
        "exact": True,
        "best": [
            {"kind": odds.row_label(r), "expected": f"{float(r.expected):.2f}", "beats": format_probability(float(r.win))}
            for r in odds.best(5)
        ],
    }
    return {"rules": rules, "seats": [_row_json(v) for v in values]}


def _row_json(value: RowStanding | Unfinished) -> dict[str, Any]:
    if isinstance(value, Unfinished):
        return {"needs": value.needs}
    points = f"{float(value.expected):.2f}"
    line = f"{value.kind} · {points} points expected · beats {format_probability(float(value.beats))} of rows"
    return {
        "category": value.kind,
        "line": line,
        "expected": [value.expected.numerator, value.expected.denominator],
        "nothing": [value.nothing.numerator, value.nothing.denominator],
        "beats": [value.beats.numerator, value.beats.denominator],
        "ties": [value.ties.numerator, value.ties.denominator],
        "points": value.points,
        "exact": True,
    }
