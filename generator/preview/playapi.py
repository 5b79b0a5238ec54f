"""The table's and the deck statistics' JSON: ``/api/NAME/DECK?QUERY``, answered in one line when it cannot be.

- ``table``: the deck's cards and the games played with it (:func:`.play.table_json`);
- ``deal?seed=S&seats=N[&game=G&rules=R&cards=K]``: a seeded deal;
- ``hands?game=G[&rules=R&spell=M&shared=IDS]&seat=IDS…``: what each seat's hand (or row) is worth;
- ``stats``: the deck's counts and its games' odds; ``textroom``: how full each card's texts are.

A request the API does not take is answered with status 400 and the one
line saying why; a game file that cannot be read, with 409 and its error
line, as the command line says it.  Nothing from the query reaches the file
system: card ids, games and rules are looked up among the deck's.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from ..errors import AetherpressError
from .deckstats import stats_json
from .play import deal_json, hands_json, table_json
from .query import BadRequest, Query
from .state import Preview
from .worker import Worker

WAIT_SECONDS = 60.0  # the longest a request waits for the worker (the cards' texts are measured there)

_TAKES = {
    "table": (),
    "deal": ("seed", "seats", "cards", "game", "rules"),
    "hands": ("game", "rules", "spell", "shared", "seat"),
    "stats": (),
    "textroom": (),
}
NAMES = tuple(_TAKES)


def answer(preview: Preview, worker: Worker, name: str, slug: str, query: str) -> tuple[int, Any]:
    """(HTTP status, JSON data or the one line of text) for ``/api/NAME/SLUG?QUERY``."""
    entry = preview.snapshot.entry(slug)
    if entry is None:
        return 404, "not found"
    try:
        asked = Query(query, _TAKES[name])
        deck, served = entry.deck, {s: e.deck for s, e in preview.snapshot.decks.items()}
        play = preview.play
        makers: dict[str, Callable[[], Any]] = {
            "table": lambda: table_json(play, deck, served),
            "deal": lambda: deal_json(play, deck, served, asked),
            "hands": lambda: hands_json(play, deck, asked),
            "stats": lambda: stats_json(deck, play),
        }
        if name == "textroom":
            texts = worker.call(lambda: preview.text_room(slug)).result(WAIT_SECONDS)
            return (404, "not found") if texts is None else (200, {"slug": slug, "texts": texts})
        return 200, makers[name]()
    except BadRequest as exc:
        return 400, f"bad request: {exc}"
    except AetherpressError as exc:
        return 409, f"error: {exc.problems[0]}"
    except FutureTimeout:
        return 503, "still measuring; try again"
