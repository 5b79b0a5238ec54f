"""A name a template asks for and does not get, said in a designer's words.

Jinja says ``'mappingproxy object' has no attribute 'badge_color'``; this
says ``style has no key 'badge_color' (did you mean 'badge_colour'?)`` or
``card has no field 'points_x' (fields: points, art, text)``, by finding the
value the template looked the name up in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import jinja2
from jinja2.defaults import DEFAULT_NAMESPACE
from jinja2.utils import missing

from ..definitions.model import Rank, Suit
from ..definitions.schema import suggest
from ..libraries.jinja2 import looked_up

_SHOWN_NAMES = 8  # a list of the names there are stops after this many


def _names(names: Iterable[str]) -> str:
    names = list(names)
    if not names:
        return "none"
    return ", ".join(names[:_SHOWN_NAMES]) + (" …" if len(names) > _SHOWN_NAMES else "")


class NamedUndefined(jinja2.StrictUndefined):
    """Jinja's strict undefined value, whose error keeps it, so the error can say what was looked up where."""

    __slots__ = ()

    def __init__(self, hint: str | None = None, obj: Any = missing, name: str | None = None, exc: Any = jinja2.UndefinedError):
        def error(message: str | None = None) -> BaseException:
            made = exc(message)
            made.undefined = self
            return made

        super().__init__(hint, obj, name, error)  # type: ignore[arg-type]  # Jinja only calls it


def _undefined(exc: BaseException) -> jinja2.Undefined | None:
    """The undefined value whose use raised ``exc``."""
    found = getattr(exc, "undefined", None)
    return found if isinstance(found, jinja2.Undefined) else None


def explain(exc: jinja2.UndefinedError, card: Any, style: Mapping[str, Any], seen: Iterable[str]) -> str | None:
    """What ``exc`` means, in plain words, or None when it is not a missing name of a known value.

    ``card`` is the card the template sees (or None), ``style`` the deck's style and ``seen`` the names a
    template sees at its top level.
    """
    value = _undefined(exc)
    if value is None:
        return None
    hint, owner, name = looked_up(value)
    if hint is not None:
        return None
    if not isinstance(name, str):
        return None
    if owner is missing:
        seen = sorted(n for n in set(seen) if n[:1].islower() and n not in DEFAULT_NAMESPACE)
        return f"a template sees no '{name}'{suggest(name, seen)} (it sees: {_names(seen)})"
    if owner is style:
        keys = sorted(style)
        return f"style has no key '{name}'{suggest(name, keys)}; add it to the style or the deck's [style] table"
    if card is not None and (owner is card or owner is getattr(card, "attributes", None)):
        fields = list(card.attributes)
        builtin = ["id", "name", "rank", "suits", "group", "copies"]
        hint = suggest(name, fields + builtin) if owner is card else suggest(name, fields)
        return f"card has no field '{name}'{hint} (fields: {_names(fields)}); declare it under [deck.attributes] and give the cards a value"
    if isinstance(owner, (Rank, Suit)):
        what = "rank" if isinstance(owner, Rank) else "suit"
        fields = [f for f in ("id", "name", "label", "value", "symbol", "colour", "attributes") if hasattr(owner, f)]
        return f"{what} has no '{name}'{suggest(name, fields)} (it has: {_names(fields)})"
    if isinstance(owner, Mapping):
        keys = [str(k) for k in owner]
        return f"there is no key '{name}'{suggest(name, keys)} (keys: {_names(keys)})"
    return None
