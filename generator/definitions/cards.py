"""The pieces of a deck file: suits, ranks, single cards, card grids and their attributes.

Each function checks one kind of entry, reports problems to the file's
context with their key paths, and returns the model values that passed.
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Any

from ..errors import Problem
from ..resources.symbolnames import SYMBOL_NAMES
from .colours import colour_value
from .ids import MAX_ID, check_id, id_from_name
from .images import image_ok
from .model import Card, Origin, Rank, Suit, frozen_mapping
from .schema import Context, Field, KeyPath, check_table, field, number_problem, suggest, type_name, type_ok

MAX_CARDS = 10_000
MAX_TEXT = 10_000  # characters of one text of a card (and of its translation)

_ATTRIBUTE_TYPES: dict[str, Field] = {
    "str": field(str),
    "text": field(str),
    "int": field(int),
    "float": field(float),
    "bool": field(bool),
    "list": field(list, item=str),
    "image": field(str),
}
SUIT_SPEC = {
    "id": field(str, required=True),
    "name": field(str, required=True),
    "symbol": field(str),
    "colour": field(str),
    "order": field(int),
    "attributes": field(dict),
}
RANK_SPEC = {
    "id": field(str, required=True),
    "name": field(str, required=True),
    "label": field(str),
    "value": field(int),
    "attributes": field(dict),
}
GRID_SPEC = {
    "suits": field(str, list, item=str),
    "ranks": field(list, item=str),
    "id": field(str),
    "name": field(str),
    "group": field(str),
    "copies": field(int),
    "attributes": field(dict),
}
CARD_SPEC = {
    "id": field(str),
    "name": field(str, required=True),
    "rank": field(str),
    "suits": field(str, list, item=str),
    "group": field(str),
    "copies": field(int),
}
_GRID_FIELDS = ("rank", "suit", "rank_name", "rank_label", "suit_name")


class Lookup:
    """Finds suits and ranks by id, name (or label), case-insensitively after an exact id; the first in
    the deck's order wins, and each look-up costs the same however many suits and ranks there are."""

    def __init__(self, suits: list[Suit], ranks: list[Rank]):
        self.suits = suits
        self.ranks = ranks
        self._rank_ids: dict[str, Rank] = {}
        self._ranks: dict[str, Rank] = {}
        self._suits: dict[str, Suit] = {}
        for r in ranks:
            self._rank_ids.setdefault(r.id, r)
        for r in ranks:
            for text in (r.id, r.name, r.label):
                self._ranks.setdefault(text.lower(), r)
        for s in suits:
            for text in (s.id, s.name):
                self._suits.setdefault(text.lower(), s)

    def rank(self, text: str) -> Rank | None:
        return self._rank_ids.get(text) or self._ranks.get(text.lower())

    def suit(self, text: str) -> Suit | None:
        return self._suits.get(text.lower())


def parse_attribute_types(ctx: Context, raw: dict[str, Any]) -> dict[str, str]:
    out = {}
    for name, kind in raw.items():
        if name in CARD_SPEC:
            ctx.error(("deck", "attributes", name), f"'{name}' is a built-in card field and cannot be declared as an attribute")
        elif not isinstance(kind, str) or kind not in _ATTRIBUTE_TYPES:
            ctx.error(
                ("deck", "attributes", name),
                f"unknown attribute type '{kind}'{suggest(str(kind), _ATTRIBUTE_TYPES)}; use one of {', '.join(_ATTRIBUTE_TYPES)}",
            )
        else:
            out[name] = kind
    return out


def _free_attributes(ctx: Context, raw: Any, path: tuple) -> dict[str, Any]:
    if not isinstance(raw, dict):
        ctx.error(path, "must be a table")
        return {}
    for key, value in raw.items():
        if isinstance(value, dict):
            ctx.error(path + (key,), "attribute values must be text, numbers, true/false or lists")
    return raw


def parse_suits(ctx: Context, raw: list[dict]) -> list[Suit]:
    suits: list[Suit] = []
    for i, entry in enumerate(raw):
        good = check_table(ctx, entry, SUIT_SPEC, ("suits", i), "a suit")
        if "id" not in good or "name" not in good or not check_id(ctx, good["id"], ("suits", i, "id"), "suit"):
            continue
        suits.append(
            Suit(
                good["id"],
                good["name"],
                check_symbol(ctx, good.get("symbol", "diamond"), ("suits", i, "symbol")),
                check_colour(ctx, good.get("colour", "#000000"), ("suits", i, "colour")),
                good.get("order", len(raw) - i),
                frozen_mapping(_free_attributes(ctx, good.get("attributes", {}), ("suits", i, "attributes"))),
            )
        )
    check_unique(ctx, suits, ("suits",), "suit")
    return suits


def parse_ranks(ctx: Context, raw: list[dict]) -> list[Rank]:
    ranks: list[Rank] = []
    for i, entry in enumerate(raw):
        good = check_table(ctx, entry, RANK_SPEC, ("ranks", i), "a rank")
        if "id" not in good or "name" not in good or not check_id(ctx, good["id"], ("ranks", i, "id"), "rank"):
            continue
        ranks.append(
            Rank(
                good["id"],
                good["name"],
                good.get("label", good["name"]),
                good.get("value", i + 1),
                frozen_mapping(_free_attributes(ctx, good.get("attributes", {}), ("ranks", i, "attributes"))),
            )
        )
    check_unique(ctx, ranks, ("ranks",), "rank")
    return ranks


def check_symbol(ctx: Context, value: str, path: KeyPath) -> str:
    """A symbol of the library (suits, emblems, elements ...)."""
    if value not in SYMBOL_NAMES:
        ctx.error(path, f"unknown symbol '{value}'{suggest(value, SYMBOL_NAMES)}")
        return "diamond"
    return value


def check_colour(ctx: Context, value: str, path: tuple) -> str:
    """A colour as ``#rrggbb``: written so, as ``#rgb`` or as a CSS colour name."""
    colour, problem = colour_value(value)
    if colour is None:
        ctx.error(path, problem or "not a colour")
        return "#000000"
    return colour


def check_unique(
    ctx: Context, items: list, path: KeyPath, what: str = "card", places: list[KeyPath | None] | None = None
) -> None:
    """Ids must differ, and (since they become file names) differ in more than letter case."""
    exact: set[str] = set()
    folded: dict[str, str] = {}
    for i, item in enumerate(items):
        first = folded.setdefault(item.id.lower(), item.id)
        if item.id in exact:
            message = f"duplicate {what} id '{item.id}'"
        elif first != item.id:
            message = f"{what} id '{item.id}' differs from '{first}' only in letter case; ids become file names"
        else:
            exact.add(item.id)
            continue
        origin = getattr(item, "origin", None)
        if origin is not None:
            ctx.problems.append(Problem(origin.file, message, origin.line))
        else:
            ctx.error(places[i] if places and places[i] else path + (i,), message)


def _suit_list(ctx: Context, value: Any, path: tuple, lookup: Lookup) -> tuple[str, ...]:
    if isinstance(value, str):
        if value.strip() == "*":
            return tuple(s.id for s in lookup.suits)
        value = [v for v in value.split("+") if v.strip()]
    out = []
    for _i, name in enumerate(value):
        suit = lookup.suit(name.strip())
        if suit is None:
            ctx.error(
                path,
                f"unknown suit '{name.strip()}'{suggest(name.strip(), chain((s.id for s in lookup.suits), (s.name for s in lookup.suits)))}",
            )
        elif suit.id in out:
            ctx.error(path, f"suit '{suit.id}' is listed twice")
        else:
            out.append(suit.id)
    return tuple(out)


def _card_attributes(ctx: Context, raw: dict[str, Any], path: tuple, attributes: dict[str, str]) -> dict[str, Any]:
    out = {}
    for key, value in raw.items():
        if key in CARD_SPEC:
            continue
        if key not in attributes:
            ctx.error(
                path + (key,),
                f"unknown key '{key}' in a card{suggest(key, chain(CARD_SPEC, attributes))}; declare custom fields under [deck.attributes]",
            )
            continue
        rule = _ATTRIBUTE_TYPES[attributes[key]]
        if not _value_ok(value, rule):
            ctx.error(path + (key,), f"must be {rule.describe()}, not {type_name(value)}")
            continue
        problem = number_problem(value)
        if problem:
            ctx.error(path + (key,), problem)
            continue
        if isinstance(value, str) and len(value) > MAX_TEXT:
            ctx.error(path + (key,), f"text is {len(value):,} characters long; the limit is {MAX_TEXT:,}")
            continue
        if attributes[key] == "image" and not image_ok(ctx, value, path + (key,)):
            continue
        out[key] = value
    return out


def _value_ok(value: Any, rule: Field) -> bool:
    if not type_ok(value, rule.types):
        return False
    if isinstance(value, list) and rule.item is not None:
        return all(type_ok(v, (rule.item,)) for v in value)
    return True


def parse_card(
    ctx: Context, raw: dict[str, Any], path: tuple, lookup: Lookup, attributes: dict[str, str], origin: Origin | None = None
) -> Card | None:
    good = check_table(ctx, raw, CARD_SPEC, path, "a card", extra={k: field(object) for k in raw if k not in CARD_SPEC})
    attrs = _card_attributes(ctx, {k: v for k, v in raw.items() if k not in CARD_SPEC}, path, attributes)
    if "name" not in good:
        return None
    rank_id = None
    if good.get("rank"):
        rank = lookup.rank(good["rank"])
        if rank is None:
            ctx.error(
                path + ("rank",),
                f"unknown rank '{good['rank']}'{suggest(good['rank'], chain((r.id for r in lookup.ranks), (r.name for r in lookup.ranks)))}",
            )
        else:
            rank_id = rank.id
    suits = _suit_list(ctx, good.get("suits", []), path + ("suits",), lookup)
    copies = good.get("copies", 1)
    if copies < 1:
        ctx.error(path + ("copies",), "copies must be at least 1")
        copies = 1
    elif copies > MAX_CARDS:
        ctx.error(path + ("copies",), f"a card may be printed at most {MAX_CARDS:,} times")
        copies = 1
    card_id = good.get("id") or id_from_name(good["name"])
    if "id" not in good and len(card_id) > MAX_ID:  # the id is made from the name: say so
        ctx.error(
            path + ("name",),
            f"the card id made from this name is {len(card_id)} characters long; the limit is {MAX_ID} "
            "(shorten the name, or give the card an id of its own)",
        )
        return None
    if not check_id(ctx, card_id, path + ("id",), "card"):
        return None
    return Card(card_id, good["name"], rank_id, suits, good.get("group", "default"), copies, frozen_mapping(attrs), origin)


def parse_grid(ctx: Context, raw: dict[str, Any], path: tuple, lookup: Lookup, attributes: dict[str, str]) -> list[Card]:
    good = check_table(ctx, raw, GRID_SPEC, path, "a card grid")
    suits = _suit_list(ctx, good.get("suits", "*"), path + ("suits",), lookup)
    rank_ids = []
    for name in good.get("ranks", [r.id for r in lookup.ranks]):
        rank = lookup.rank(name)
        if rank is None:
            ctx.error(path + ("ranks",), f"unknown rank '{name}'{suggest(name, (r.id for r in lookup.ranks))}")
        else:
            rank_ids.append(rank.id)
    attrs = _card_attributes(ctx, good.get("attributes", {}), path + ("attributes",), attributes)
    id_format = good.get("id", "{rank}-{suit}")
    name_format = good.get("name", "{rank_name} of {suit_name}")
    for key, pattern in (("id", id_format), ("name", name_format)):
        for placeholder in re.findall(r"\{([^{}]*)\}", pattern):
            if placeholder not in _GRID_FIELDS:
                ctx.error(
                    path + (key,),
                    f"unknown placeholder '{{{placeholder}}}'{suggest(placeholder, _GRID_FIELDS)}; use {', '.join('{' + f + '}' for f in _GRID_FIELDS)}",
                )
                return []
    copies = good.get("copies", 1)
    if copies < 1:
        ctx.error(path + ("copies",), "copies must be at least 1")
        return []
    if len(suits) * len(rank_ids) * copies > MAX_CARDS:
        ctx.error(path, f"this grid makes {len(suits) * len(rank_ids) * copies:,} cards; a deck may hold at most {MAX_CARDS:,}")
        return []
    cards = []
    for suit_id in suits:
        suit = lookup.suit(suit_id)
        for rank_id in rank_ids:
            rank = lookup.rank(rank_id)
            assert suit is not None and rank is not None  # ids checked above
            fields = {"rank": rank.id, "suit": suit.id, "rank_name": rank.name, "rank_label": rank.label, "suit_name": suit.name}
            card_id = _substitute(id_format, fields)
            if not check_id(ctx, card_id, path + ("id",), "card"):
                return []
            name = _substitute(name_format, fields)
            cards.append(Card(card_id, name, rank.id, (suit.id,), good.get("group", "default"), copies, frozen_mapping(attrs)))
    return cards


def _substitute(pattern: str, fields: dict[str, str]) -> str:
    """Fill ``{name}`` placeholders (checked beforehand); nothing else is interpreted."""
    return re.sub(r"\{([^{}]*)\}", lambda m: fields[m.group(1)], pattern)
