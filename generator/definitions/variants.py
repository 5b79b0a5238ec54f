"""Variants: data that changes a deck (cards, ranks, suits, size, templates, style).

A variant removes or keeps cards, ranks, suits and groups, adds cards,
changes cards, ranks and suits by id, and changes the deck's size,
templates and style; ``extends`` applies other variants first.  Variants
compose on the command line, left to right.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..project import Project
from .cards import RANK_SPEC, SUIT_SPEC, Lookup, check_colour, check_symbol, check_unique, parse_card
from .model import Card, Deck, Rank, Suit, frozen_mapping
from .presets import card_size
from .schema import Context, Field, KeyPath, check_table, field, suggest
from .styles import override
from .templates import check_group_templates, check_template

VARIANT_SPEC = {
    "title": field(str),
    "description": field(str),
    "extends": field(str, list, item=str),
    "remove_cards": field(list, item=str),
    "remove_ranks": field(list, item=str),
    "remove_suits": field(list, item=str),
    "remove_groups": field(list, item=str),
    "keep_cards": field(list, item=str),
    "add_cards": field(list, item=dict),
    "cards": field(dict),
    "ranks": field(dict),
    "suits": field(dict),
    "deck": field(dict),
    "style": field(dict),
}
_VARIANT_DECK_SPEC = {
    "title": field(str),
    "template": field(str),
    "back": field(str),
    "backs": field(dict),
    "templates": field(dict),
    "size": field(str, dict),
}


def apply_variant(deck: Deck, spec: dict[str, Any], path: KeyPath, ctx: Context, project: Project) -> Deck:
    """``deck`` changed as variant ``spec`` says; problems go to ``ctx`` under ``path``."""
    cards, ranks, suits = _removed(deck, spec, path, ctx)
    ranks = _changed_ranks(deck, ranks, spec.get("ranks", {}), path, ctx)
    suits = _changed_suits(deck, suits, spec.get("suits", {}), path, ctx)
    cards = _changed_cards(deck, cards, Lookup(suits, ranks), spec, path, ctx)
    changes = _deck_changes(deck, spec.get("deck", {}), path, ctx, project)
    style = override(ctx, _thaw(deck.style), spec.get("style", {}), path + ("style",), project)
    return replace(deck, suits=tuple(suits), ranks=tuple(ranks), cards=tuple(cards), style=frozen_mapping(style), **changes)


def _removed(deck: Deck, spec: dict[str, Any], path: KeyPath, ctx: Context) -> tuple[list[Card], list[Rank], list[Suit]]:
    """The deck's cards, ranks and suits left once the variant's ``keep_cards`` and ``remove_*`` lists are applied."""
    suits = list(deck.suits)
    ranks = list(deck.ranks)
    cards = list(deck.cards)
    card_ids = {c.id for c in cards}

    def check_ids(key: str, ids: list[str], known: list[str], what: str) -> set[str]:
        found = set(known)
        for item in ids:
            if item not in found:
                ctx.error(path + (key,), f"{what} '{item}' does not exist in deck '{deck.id}'{suggest(item, known)}")
        return set(ids)

    keep = check_ids("keep_cards", spec.get("keep_cards", []), sorted(card_ids), "card")
    gone_ranks = check_ids("remove_ranks", spec.get("remove_ranks", []), [r.id for r in ranks], "rank")
    gone_suits = check_ids("remove_suits", spec.get("remove_suits", []), [s.id for s in suits], "suit")
    gone_cards = check_ids("remove_cards", spec.get("remove_cards", []), sorted(card_ids), "card")
    gone_groups = check_ids("remove_groups", spec.get("remove_groups", []), sorted({c.group for c in cards}), "card group")

    def removed(card: Card) -> bool:
        if card.id in keep:
            return False
        return (
            card.id in gone_cards
            or card.group in gone_groups
            or card.rank in gone_ranks
            or (bool(card.suits) and set(card.suits) <= gone_suits and len(card.suits) < len(suits))
        )

    cards = [c for c in cards if not removed(c)]
    cards = [replace(c, suits=tuple(s for s in c.suits if s not in gone_suits)) for c in cards]
    used_before = {c.rank for c in deck.cards}
    used_after = {c.rank for c in cards}
    # a rank leaves the ladder when it is removed, or when the variant removed all its cards
    ranks = [
        r
        for r in ranks
        if (r.id not in gone_ranks and (r.id in used_after or r.id not in used_before))
        or (r.id in gone_ranks and r.id in used_after)
    ]
    suits = [s for s in suits if s.id not in gone_suits]
    return cards, ranks, suits


def _changed_ranks(deck: Deck, ranks: list[Rank], changes: dict[str, Any], path: KeyPath, ctx: Context) -> list[Rank]:
    """``ranks`` with the variant's ``[ranks.ID]`` changes."""
    ranks = list(ranks)
    for rid, change in changes.items():
        index = next((i for i, r in enumerate(ranks) if r.id == rid), None)
        if index is None:
            ctx.error(
                path + ("ranks", rid), f"rank '{rid}' does not exist in deck '{deck.id}'{suggest(rid, (r.id for r in ranks))}"
            )
            continue
        good = check_table(ctx, change, _optional(RANK_SPEC), path + ("ranks", rid), f"rank '{rid}'")
        r = ranks[index]
        ranks[index] = replace(
            r,
            name=good.get("name", r.name),
            label=good.get("label", r.label),
            value=good.get("value", r.value),
            attributes=frozen_mapping({**r.attributes, **good.get("attributes", {})}),
        )
    return ranks


def _changed_suits(deck: Deck, suits: list[Suit], changes: dict[str, Any], path: KeyPath, ctx: Context) -> list[Suit]:
    """``suits`` with the variant's ``[suits.ID]`` changes."""
    suits = list(suits)
    for sid, change in changes.items():
        index = next((i for i, s in enumerate(suits) if s.id == sid), None)
        if index is None:
            ctx.error(
                path + ("suits", sid), f"suit '{sid}' does not exist in deck '{deck.id}'{suggest(sid, (s.id for s in suits))}"
            )
            continue
        good = check_table(ctx, change, _optional(SUIT_SPEC), path + ("suits", sid), f"suit '{sid}'")
        s = suits[index]
        colour = check_colour(ctx, good["colour"], path + ("suits", sid, "colour")) if "colour" in good else s.colour
        suits[index] = replace(
            s,
            name=good.get("name", s.name),
            symbol=check_symbol(ctx, good["symbol"], path + ("suits", sid, "symbol")) if "symbol" in good else s.symbol,
            colour=colour,
            order=good.get("order", s.order),
            attributes=frozen_mapping({**s.attributes, **good.get("attributes", {})}),
        )
    return suits


def _changed_cards(
    deck: Deck, cards: list[Card], lookup: Lookup, spec: dict[str, Any], path: KeyPath, ctx: Context
) -> list[Card]:
    """``cards`` with the variant's ``[cards.ID]`` changes and its ``add_cards``, ids checked unique."""
    attributes = dict(deck.attribute_types)
    cards = list(cards)
    for cid, change in spec.get("cards", {}).items():
        index = next((i for i, c in enumerate(cards) if c.id == cid), None)
        if index is None:
            ctx.error(
                path + ("cards", cid), f"card '{cid}' does not exist in deck '{deck.id}'{suggest(cid, (c.id for c in cards))}"
            )
            continue
        if not isinstance(change, dict):
            ctx.error(path + ("cards", cid), "must be a table of changes")
            continue
        old = cards[index]
        merged = {
            "id": old.id,
            "name": old.name,
            "rank": old.rank or "",
            "suits": list(old.suits),
            "group": old.group,
            "copies": old.copies,
            **old.attributes,
        }
        merged.update(change)
        if "id" in change:
            ctx.error(path + ("cards", cid, "id"), "a variant cannot change a card's id; remove it and add a new card")
        new = parse_card(ctx, merged, path + ("cards", cid), lookup, attributes)
        if new:
            cards[index] = replace(new, id=old.id, origin=old.origin)
    for i, raw in enumerate(spec.get("add_cards", [])):
        card = parse_card(ctx, raw, path + ("add_cards", i), lookup, attributes)
        if card:
            cards.append(card)
    check_unique(ctx, cards, path + ("add_cards",))
    return cards


def _deck_changes(deck: Deck, raw: Any, path: KeyPath, ctx: Context, project: Project) -> dict[str, Any]:
    """The deck's fields the variant's ``[deck]`` table changes (title, templates, size), checked."""
    changes: dict[str, Any] = {}
    head = check_table(ctx, raw, _VARIANT_DECK_SPEC, path + ("deck",), "a variant's [deck] changes")
    if "title" in head:
        changes["title"] = head["title"]
    if "template" in head:
        changes["template"] = check_template(ctx, head["template"], path + ("deck", "template"), project)
    if "back" in head:
        changes["back_template"] = check_template(ctx, head["back"], path + ("deck", "back"), project)
    for key in ("backs", "templates"):
        if key in head:
            changes[key] = frozen_mapping(
                {**getattr(deck, key), **check_group_templates(ctx, head[key], path + ("deck", key), project)}
            )
    if "size" in head:
        changes["size"] = card_size(ctx, head["size"], path + ("deck", "size"), project)
    return changes


def _optional(spec: dict[str, Field]) -> dict[str, Field]:
    """A variant's changes to a suit or rank: every field optional, the id fixed."""
    return {k: replace(v, required=False) for k, v in spec.items() if k != "id"}


def _thaw(value: Any) -> Any:
    if hasattr(value, "items"):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value
