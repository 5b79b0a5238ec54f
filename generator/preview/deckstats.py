"""A deck's statistics for its page: cards by suit, rank, group and every field, and its games' odds.

Cards are counted as printed (a card of three copies counts three times; a
card of several suits counts in each).  A field of numbers gets a histogram
(a cost curve), a field of a few values their counts, a field of texts how
many cards have one and how long they are.  The odds are the counting
engine's, as the ``odds`` command prints them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from statistics import median
from typing import Any

from ..definitions.model import Card, Deck
from ..errors import AetherpressError
from ..hands import Game, Hands
from ..rulebook.bookodds import format_one_in, format_probability
from .play import Play

_BINS = 12  # bars of a histogram of numbers too spread out for one bar each
_ONE_BAR_EACH = 30  # whole numbers up to this many apart get a bar each
_VALUES_SHOWN = 24  # the commonest values of a field of words; the rest are counted together


def stats_json(deck: Deck, play: Play) -> dict[str, Any]:
    """Every count of the deck, and the odds of each game played with it (or the games' one-line problem)."""
    cards = deck.cards
    out: dict[str, Any] = {
        "slug": deck.slug,
        "key": deck.key,
        "title": deck.title,
        "printed": deck.card_count,
        "faces": len(cards),
        "suits": _suits(deck),
        "ranks": _ranks(deck),
        "groups": _counted([(c.group, c.copies) for c in cards]),
        "fields": [_field(name, kind, cards) for name, kind in _fields(deck)],
        "games": [],
    }
    try:
        with play.lock:
            out["games"] = [_game_odds(play.hands, game, choices) for game, choices in play.games_of(deck).values()]
    except AetherpressError as exc:
        out["problem"] = f"error: {exc.problems[0]}"
    return out


def _suits(deck: Deck) -> list[dict[str, Any]]:
    rows = [
        {"id": s.id, "name": s.name, "colour": s.colour, "count": sum(c.copies for c in deck.cards if s.id in c.suits)}
        for s in deck.suits
    ]
    every = sum(c.copies for c in deck.cards if len(deck.suits) > 1 and len(c.suits) == len(deck.suits))
    none = sum(c.copies for c in deck.cards if not c.suits)
    if every:
        rows.append({"id": "", "name": "every suit", "colour": "", "count": every})
    if none:
        rows.append({"id": "", "name": "no suit", "colour": "", "count": none})
    return rows


def _ranks(deck: Deck) -> list[dict[str, Any]]:
    rows = [
        {"id": r.id, "name": r.name, "label": r.label, "count": sum(c.copies for c in deck.cards if c.rank == r.id)}
        for r in sorted(deck.ranks, key=lambda r: r.value)
    ]
    none = sum(c.copies for c in deck.cards if not c.rank)
    if none:
        rows.append({"id": "", "name": "no rank", "label": "", "count": none})
    return rows


def _counted(pairs: Sequence[tuple[Any, int]]) -> list[list[Any]]:
    """[value, cards] for each value, the commonest first (ties in the order first met)."""
    counts: Counter[Any] = Counter()
    for value, n in pairs:
        counts[value] += n
    return [[value, n] for value, n in counts.most_common()]


def _fields(deck: Deck) -> list[tuple[str, str]]:
    """Each field of the cards with its kind: the declared ones in their order, then the others by name."""
    declared = dict(deck.attribute_types)
    seen = sorted({k for c in deck.cards for k in c.attributes if not k.startswith("_") and k not in declared})
    for name in seen:
        values = [c.attributes[name] for c in deck.cards if name in c.attributes]
        declared[name] = _kind(values)
    return list(declared.items())


def _kind(values: list[Any]) -> str:
    if all(isinstance(v, bool) for v in values):
        return "bool"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "int"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "float"
    if all(isinstance(v, (list, tuple)) for v in values):
        return "list"
    return "str"


def _present(value: Any) -> bool:
    return value is not None and value != "" and value != [] and value != ()


def _field(name: str, kind: str, cards: Sequence[Card]) -> dict[str, Any]:
    pairs = [(c.attributes.get(name), c.copies) for c in cards]
    given = [(v, n) for v, n in pairs if _present(v)]
    out: dict[str, Any] = {
        "name": name,
        "kind": kind,
        "cards": sum(n for _, n in given),
        "missing": sum(n for v, n in pairs if not _present(v)),
    }
    if kind in ("int", "float") and given:
        numbers = [(float(v), n) for v, n in given if isinstance(v, (int, float)) and not isinstance(v, bool)]
        out.update(_histogram(numbers, kind == "int"))
    elif kind in ("text", "image"):
        lengths = [len(str(v)) for v, n in given for _ in range(n)]
        if lengths:
            out["length"] = {"shortest": min(lengths), "median": median(lengths), "longest": max(lengths)}
    elif kind == "list":
        out["values"] = _top(_counted([(item, n) for v, n in given for item in (v or ())]))
    else:
        out["values"] = _top(_counted([(v if isinstance(v, (bool, int, float)) else str(v), n) for v, n in given]))
    return out


def _top(counted: list[list[Any]]) -> list[list[Any]]:
    if len(counted) <= _VALUES_SHOWN:
        return counted
    rest = sum(n for _, n in counted[_VALUES_SHOWN - 1 :])
    return counted[: _VALUES_SHOWN - 1] + [[f"{len(counted) - _VALUES_SHOWN + 1} other values", rest]]


def _histogram(numbers: list[tuple[float, int]], whole: bool) -> dict[str, Any]:
    """Bars of a field of numbers ([low, high, cards]; low == high for a bar of one value), with its mean."""
    low, high = min(v for v, _ in numbers), max(v for v, _ in numbers)
    total = sum(n for _, n in numbers)
    mean = sum(v * n for v, n in numbers) / total
    distinct = sorted({v for v, _ in numbers})
    if (whole and high - low <= _ONE_BAR_EACH) or len(distinct) <= _BINS:
        values = range(int(low), int(high) + 1) if whole else distinct
        bars = [[v, v, sum(n for x, n in numbers if x == v)] for v in values]
    else:
        width = (high - low) / _BINS
        if whole:
            width = math.ceil(width)
        bars = []
        for i in range(_BINS):
            a = low + i * width
            b = a + width
            last = i == _BINS - 1 or b > high
            bars.append([a, (b - 1 if whole else b), sum(n for x, n in numbers if a <= x < b or (last and x == high))])
            if last:
                break
    return {"bars": bars, "mean": mean, "lowest": low, "highest": high}


def _game_odds(hands: Hands, game: Game, choices: list[str]) -> dict[str, Any]:
    """The chart of a game's odds on this deck: each category's chance, best first (on the first of the
    game's decks the deck is); for a game of rows, the chance of each number of points in each setup."""
    if game.arrangement is not None:
        setups = []
        for setup in hands.row_table(game.id).values():
            orders = sum(r.orders for r in setup.all_rows)
            points = len(max((r.counts for r in setup.all_rows), key=len))
            share = [sum(r.orders * (r.counts[p] if p < len(r.counts) else 0) for r in setup.all_rows) for p in range(points)]
            setups.append(
                {
                    "title": setup.title,
                    "points": [[p, n / (orders * setup.total)] for p, n in enumerate(share)],
                    "best": setup.row_label(setup.all_rows[0]),
                    "best_expected": float(setup.all_rows[0].expected),
                }
            )
        return {"id": game.id, "title": game.title, "kind": "rows", "setups": setups}
    table = hands.odds_table(game.id, None, choices[0])
    return {
        "id": game.id,
        "title": game.title,
        "kind": "hands",
        "ranking": table.ranking_title,
        "deck": table.deck_title,
        "total": table.total,
        "exact": not table.simulated,
        "categories": [
            {
                "name": c.name,
                "probability": c.probability,
                "chance": format_probability(c.probability, c.interval),
                "one_in": format_one_in(c.one_in),
            }
            for c in table.categories
        ],
    }
