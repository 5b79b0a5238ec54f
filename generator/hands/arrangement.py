"""Games of rows (Fivefold Arrangement): the ``[arrangement]`` table of a game file, checked against its deck.

```toml
[arrangement]
row = 5                 # cards each player lays out, from one card of each rank
draws = 5               # cards turned from the draw deck
replacement = false     # a turned card stays out of the draw deck

[arrangement.setups.twofold]
title = "Twofold"
points = "twofold_points"   # the rank attribute giving a card's points
shared_draws = true         # the same turned cards serve every player
draw_deck = { dragon = 1, immaculate = 2, ... }
traditional = { players = ["wood", "water"], draw = ["earth", "fire", "air"], remove = ["dragon-fire"] }
```

``traditional`` records the usual choice of suits: the players' suits, and
either the suits the draw deck is made from less the cards removed (which
must leave exactly ``draw_deck``) or the suits left complete in it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..definitions.model import Deck
from ..definitions.schema import Context, KeyPath, check_table, field, suggest
from .rankings import Arrangement, Setup

_ARRANGEMENT_SPEC = {
    "row": field(int, required=True),
    "draws": field(int, required=True),
    "replacement": field(bool),
    "setups": field(dict, required=True),
}
_SETUP_SPEC = {
    "title": field(str),
    "points": field(str, required=True),
    "shared_draws": field(bool),
    "draw_deck": field(dict, required=True),
    "traditional": field(dict),
}
_TRADITIONAL_SPEC = {
    "players": field(list, item=str, required=True),
    "draw": field(list, item=str),
    "remove": field(list, item=str),
    "complete": field(list, item=str),
}
_MAX_OWN = 10  # ranks a player may hold (rows are every ordered choice of them)


def parse_arrangement(ctx: Context, raw: Any) -> Arrangement | None:
    path: KeyPath = ("arrangement",)
    g = check_table(ctx, raw, _ARRANGEMENT_SPEC, path, "[arrangement]")
    if not {"row", "draws", "setups"} <= set(g):
        return None
    if not 1 <= g["row"] <= _MAX_OWN:
        ctx.error(path + ("row",), f"row must be 1 to {_MAX_OWN}")
    if not 1 <= g["draws"] <= 12:
        ctx.error(path + ("draws",), "draws must be 1 to 12")
    setups = {}
    for sid, sraw in g["setups"].items():
        sp = path + ("setups", sid)
        s = check_table(ctx, sraw, _SETUP_SPEC, sp, f"setup '{sid}'")
        if "points" not in s or "draw_deck" not in s:
            continue
        deck = {}
        for rank, n in s["draw_deck"].items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                ctx.error(sp + ("draw_deck", rank), "must be a whole number of cards, 0 or more")
            else:
                deck[rank] = n
        traditional = (
            check_table(ctx, s["traditional"], _TRADITIONAL_SPEC, sp + ("traditional",), "traditional")
            if "traditional" in s
            else {}
        )
        setups[sid] = Setup(sid, s.get("title", sid), s["points"], s.get("shared_draws", True), deck, traditional, sp)
    if not setups:
        ctx.error(path + ("setups",), "give at least one setup")
    return Arrangement(g["row"], g["draws"], g.get("replacement", False), setups, path)


def check_arrangement(ctx: Context, arrangement: Arrangement, deck: Deck) -> None:
    """Ranks, points and the draw deck against the deck; the traditional suits against the draw deck."""
    ranks = [r.id for r in deck.ranks]
    suits = [s.id for s in deck.suits]
    if len(ranks) > _MAX_OWN or arrangement.row > len(ranks):
        ctx.error(
            arrangement.path + ("row",),
            f"a row of {arrangement.row} from the {len(ranks)} ranks of deck '{deck.key}' is not possible",
        )
    for setup in arrangement.setups.values():
        for r in deck.ranks:
            value = r.attributes.get(setup.points)
            if not isinstance(value, int) or isinstance(value, bool):
                ctx.error(
                    setup.path + ("points",), f"rank '{r.id}' of deck '{deck.key}' has no whole-number attribute '{setup.points}'"
                )
                break
        for rank in setup.draw_deck:
            if rank not in ranks:
                ctx.error(setup.path + ("draw_deck", rank), f"unknown rank '{rank}' in deck '{deck.key}'{suggest(rank, ranks)}")
        size = sum(setup.draw_deck.values())
        if not arrangement.replacement and size < arrangement.draws:
            ctx.error(setup.path + ("draw_deck",), f"a draw deck of {size} cards cannot turn {arrangement.draws}")
        _check_traditional(ctx, setup, deck, suits)


def _check_traditional(ctx: Context, setup: Setup, deck: Deck, suits: list[str]) -> None:
    t = setup.traditional
    if not t:
        return
    path = setup.path + ("traditional",)
    for key in ("players", "draw", "complete"):
        for i, suit in enumerate(t.get(key, [])):
            if suit not in suits:
                ctx.error(path + (key, i), f"unknown suit '{suit}' in deck '{deck.key}'{suggest(suit, suits)}")
                return
    ids = {c.id for c in deck.cards}
    for i, card in enumerate(t.get("remove", [])):
        if card not in ids:
            ctx.error(path + ("remove", i), f"unknown card '{card}' in deck '{deck.key}'{suggest(card, sorted(ids))}")
            return
    players = set(t["players"])
    if "draw" in t:
        kept = [c for c in deck.cards if set(c.suits) & set(t["draw"]) and c.id not in t.get("remove", [])]
        made = Counter(c.rank for c in kept for _ in range(c.copies))
        wanted = Counter({r: n for r, n in setup.draw_deck.items() if n})
        if made != wanted:
            ctx.error(path, f"the traditional suits leave {_describe(made)}, not the draw deck {_describe(wanted)}")
    others = [s for s in suits if s not in players]
    for suit in t.get("complete", []):
        for rank in {c.rank for c in deck.cards if suit in c.suits}:
            if not 1 <= setup.draw_deck.get(str(rank), 0) <= len(others):
                ctx.error(path + ("complete",), f"suit '{suit}' cannot stay complete in this draw deck (rank '{rank}')")
                return


def _describe(counts: Counter) -> str:
    return ", ".join(f"{n} {r}" for r, n in sorted(counts.items()))
