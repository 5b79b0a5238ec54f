"""The query strings of the table's API, read strictly: only the names asked for, each value checked.

Anything else is a :class:`BadRequest` with one line saying what is wrong,
which the server answers with status 400.  Card ids are looked up among the
deck's cards and never used for anything but that lookup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import parse_qs

from ..definitions.model import Deck
from ..definitions.schema import suggest

MAX_QUERY = 4096  # characters of a query string
MAX_FIELDS = 24  # name=value pairs in one query
MAX_SEED = 2**53 - 1  # the largest whole number a page's script holds exactly
_MAX_LIST = 64  # card ids in one list


class BadRequest(Exception):
    """A request the API does not take: ``str()`` is the one line it is answered with."""


class Query:
    """A query string's values by name, every name one of ``allowed``."""

    def __init__(self, text: str, allowed: Iterable[str]):
        allowed = tuple(allowed)
        if len(text) > MAX_QUERY:
            raise BadRequest(f"the query is {len(text):,} characters long; at most {MAX_QUERY:,}")
        try:
            found = parse_qs(text, keep_blank_values=True, max_num_fields=MAX_FIELDS, errors="strict")
        except (ValueError, UnicodeDecodeError):
            raise BadRequest(f"the query is not name=value pairs (at most {MAX_FIELDS}) in UTF-8") from None
        for name in found:
            if name not in allowed:
                names = ", ".join(allowed) or "none"
                raise BadRequest(f"unknown parameter '{_shown(name)}'{suggest(name, allowed)}; this address takes: {names}")
        self.values: Mapping[str, list[str]] = found

    def one(self, name: str, default: str | None = None) -> str | None:
        """The value of ``name`` given once (``default`` when not given)."""
        values = self.values.get(name)
        if not values:
            return default
        if len(values) > 1:
            raise BadRequest(f"'{name}' is given {len(values)} times; give it once")
        return values[0]

    def every(self, name: str) -> list[str]:
        return list(self.values.get(name, []))

    def whole(self, name: str, low: int, high: int, default: int | None = None) -> int:
        """A whole number from ``low`` to ``high``."""
        text = self.one(name)
        if text is None:
            if default is None:
                raise BadRequest(f"'{name}' is missing: a whole number from {low} to {high:,}")
            return default
        if not text.isascii() or not text.isdigit() or len(text) > 20 or not low <= int(text) <= high:
            raise BadRequest(f"'{name}' must be a whole number from {low} to {high:,}, not '{_shown(text)}'")
        return int(text)

    def choice(self, name: str, options: Sequence[str], what: str) -> str:
        """One of ``options`` (the first when not given)."""
        value = self.one(name)
        if value is None:
            return options[0]
        if value not in options:
            raise BadRequest(f"no {what} '{_shown(value)}'{suggest(value, options)}; {what}s: {', '.join(options)}")
        return value


def card_lists(texts: Sequence[str], deck: Deck, what: str) -> list[list[str]]:
    """Comma-separated card ids (``""``: no cards), each a card of ``deck``; no card used more often in all
    the lists together than the deck has it."""
    lists = []
    for text in texts:
        ids = text.split(",") if text else []
        if len(ids) > _MAX_LIST:
            raise BadRequest(f"a {what} of {len(ids)} cards; at most {_MAX_LIST}")
        lists.append(ids)
    known = {c.id: c.copies for c in deck.cards}
    for card, used in Counter(c for ids in lists for c in ids).items():
        if card not in known:
            raise BadRequest(f"no card '{_shown(card)}' in deck '{deck.key}'{suggest(card, known)}")
        if used > known[card]:
            copies = f"{known[card]} cop{'y' if known[card] == 1 else 'ies'}"
            raise BadRequest(f"card '{card}' is on the table {used} times; deck '{deck.key}' has {copies}")
    return lists


def _shown(text: str) -> str:
    """Part of a request as a message shows it: printable, and short."""
    clean = "".join(c if c.isprintable() else "?" for c in text)
    return clean if len(clean) <= 40 else clean[:39] + "…"
