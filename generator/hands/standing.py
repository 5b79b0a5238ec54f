"""What a hand on a playtest table is worth: its category under the rules in force, and its chances.

A hand's category is the engine's (:meth:`.engine.Engine.evaluate`); its
chances are read from the game's odds table under the same rules
(:meth:`.oddstables.Hands.odds_table`, counted exactly, or simulated where
the table is), in the order of categories in force: the chance that a hand
is of this category or better, and the chance that it is of a lower one.
Nothing here counts a second way.

Under a modifier that builds hands from shared cards the hand is the best one
the rules let a player make from their own cards and the shared ones (as the
table counts it); in a game of rows a row's odds are its kind's, from
:meth:`.oddstables.Hands.row_table`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..definitions.deck import DeckDefinition
from ..definitions.model import Deck
from .engine import Engine, HandResult
from .gridcount import grid_lines
from .oddstables import Hands
from .rankings import Game
from .tables import OddsTable


@dataclass(frozen=True)
class Standing:
    """A hand's category and its chances against every hand the table counts."""

    category: str
    place: int  # in the order in force, 0 the best
    cards: tuple[str, ...]  # the cards the hand is made of (own cards, and the shared ones it uses)
    reading: tuple[str, ...]  # the cards it counts as (wild cards read)
    at_least: Fraction  # a hand of this category or better
    beats: Fraction  # a hand of a lower category
    exact: bool  # counted (True) or from a seeded simulation


@dataclass(frozen=True)
class Unfinished:
    """A hand that cannot be valued yet, and why (one line: what it lacks)."""

    needs: str


def counting_content(deck: Deck) -> list[Any]:
    """What of a deck decides how its hands count: cards (ids, ranks, suits, groups, copies and every field
    but texts), ranks and suits.  Two decks alike in this are one deck to the odds, whatever they look like."""
    texts = {name for name, kind in deck.attribute_types.items() if kind in ("text", "image")}
    cards = [
        (c.id, c.rank, c.suits, c.group, c.copies, sorted((k, str(v)) for k, v in c.attributes.items() if k not in texts))
        for c in deck.cards
    ]
    return [cards, [(r.id, r.value) for r in deck.ranks], [(s.id, s.order) for s in deck.suits]]


def played_as(definitions: Mapping[str, DeckDefinition], game: Game, deck: Deck) -> list[str]:
    """The game's decks (its deck choices) that ``deck`` is, by the content its hands count on: ``[]`` when
    the game is not played with it.  A game of rows is played with its deck as the deck stands (``["rows"]``)."""
    if deck.id != game.deck_id or game.deck_id not in definitions:
        return []
    mine = counting_content(deck)
    if game.arrangement is not None:
        return ["rows"] if counting_content(definitions[game.deck_id].build(())) == mine else []
    return [
        name for name, choice in game.decks.items() if counting_content(definitions[game.deck_id].build(choice.variants)) == mine
    ]


def _needs(count: int, wanted: int, what: str) -> Unfinished:
    """``what`` takes ``wanted`` cards and has ``count``: how many more, or how many too many."""
    if count < wanted:
        return Unfinished(f"{what}: {wanted - count} more")
    return Unfinished(f"{what}: {count - wanted} too many")


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _best(engine: Engine, hands: list[tuple[str, ...]]) -> tuple[HandResult, tuple[str, ...]]:
    return max(((engine.evaluate(h), h) for h in hands), key=lambda pair: pair[0].key)


def _made(engine: Engine, own: Sequence[str], shared: Sequence[str]) -> tuple[HandResult, tuple[str, ...]] | Unfinished:
    """The best hand the rules in force make of ``own`` and ``shared`` cards, or what it lacks."""
    builder = next((m for m in engine.modifiers if m.builds_hands), None)
    k = engine.k
    if builder is not None and builder.shared is not None:
        sh = builder.shared
        if len(own) != sh.own:
            return _needs(len(own), sh.own, f"a hand is {_cards(sh.own)} of your own and {sh.cards} shared")
        if len(shared) != sh.cards:
            return _needs(len(shared), sh.cards, f"the shared row holds {_cards(sh.cards)}")
        pool = list(own) + list(shared)
        made = [
            tuple(pool[i] for i in pick)
            for pick in itertools.combinations(range(len(pool)), k)
            if sh.min <= sum(1 for i in pick if i >= sh.own) <= sh.max
        ]
        return _best(engine, made)
    if builder is not None and builder.grid is not None:
        g = builder.grid
        if len(own) != g.own:
            return _needs(len(own), g.own, f"a hand is {_cards(g.own)} kept and a line of the grid")
        if len(shared) != g.size**2:
            return _needs(len(shared), g.size**2, f"the grid is {g.size} × {g.size} cards in the shared row")
        return _best(engine, [tuple(own) + tuple(shared[i] for i in line) for line in grid_lines(g.size)])
    if len(own) != k:
        return _needs(len(own), k, f"a hand is {_cards(k)}")
    return engine.evaluate(own), tuple(own)


def standing(
    hands: Hands,
    game_id: str,
    deck: str,
    modifiers: Sequence[str],
    own: Sequence[str],
    shared: Sequence[str] = (),
) -> Standing | Unfinished:
    """What ``own`` cards (with the ``shared`` row, under a modifier that uses it) are worth in the game on
    its deck ``deck`` under ``modifiers``.  Unknown cards, or a card held more often than the deck has it,
    raise the engine's one-line error."""
    engine = hands.evaluator(game_id, None, deck, modifiers)
    made = _made(engine, own, shared)
    if isinstance(made, Unfinished):
        return made
    result, cards = made
    table = hands.odds_table(game_id, None, deck, modifiers)
    return _against(table, result, cards)


def _against(table: OddsTable, result: HandResult, cards: tuple[str, ...]) -> Standing:
    names = [c.name for c in table.categories]
    place = names.index(result.name)
    fractions = [c.fraction for c in table.categories]
    return Standing(
        result.name,
        place,
        cards,
        result.reading,
        sum(fractions[: place + 1], Fraction(0)),
        sum(fractions[place + 1 :], Fraction(0)),
        all(c.exact for c in table.categories),
    )


@dataclass(frozen=True)
class RowStanding:
    """A laid-out row of a game of rows: its kind and its exact odds in one setup, and its points now."""

    kind: str  # the kind of row in short, left to right ("1–5 · C/I · D · …")
    expected: Fraction  # expected points over every way the draws fall
    nothing: Fraction  # the chance it scores no points
    beats: Fraction  # the chance it beats a row chosen at random
    ties: Fraction
    points: int  # what it scores against the ranks turned so far


def row_standing(hands: Hands, game_id: str, setup: str, row: Sequence[str], turned: Sequence[str]) -> RowStanding | Unfinished:
    """A row of card ids, left to right, in a setup of a game of rows, with the cards turned so far."""
    game = hands.game(game_id)
    setups = hands.row_table(game_id)
    odds = setups[setup]
    assert game.arrangement is not None  # row_table said so
    size = game.arrangement.row
    if len(row) != size:
        return _needs(len(row), size, f"a row is {_cards(size)}")
    deck = hands.definitions[game.deck_id].build(())
    ranks = [deck.card(c).rank or "" for c in row]
    if len(set(ranks)) != len(ranks):
        return Unfinished(f"a row is {size} cards of different ranks")
    kind = odds.row_kind(ranks)
    turned_ranks = {deck.card(c).rank or "" for c in turned}
    return RowStanding(
        odds.row_label(kind), kind.expected, kind.chance(0), kind.win, kind.tie, odds.points_now(ranks, turned_ranks)
    )
