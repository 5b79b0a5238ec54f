"""Modifiers (spells and house rules) read from a game file, and what they do to a ranking.

A modifier changes what cards are (``wild``, ``every_suit``, ``dead``,
``lowest_wild``), what hands are worth (``rise``, ``reverse``, ``insert``,
``require``), which ranking is played (``ranking``), or what a player's hand
is made of (``shared`` cards in the middle, a ``grid`` of lines).  Parsing is
here; the engine (:mod:`.engine`) and the table builders (:mod:`.values`,
:mod:`.spells`) carry the effects out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from ..definitions.schema import Context, KeyPath, check_table, field, suggest
from .blocks import BLOCKS, parse_blocks
from .blocks.selectors import parse_selectors
from .rankings import MAX_HAND, Category, Grid, Modifier, Ranking, SharedCards

_MODIFIER_SPEC = {
    "title": field(str, required=True),
    "description": field(str),
    "aliases": field(list, item=str),
    "wild": field(list, item=dict),
    "every_suit": field(list, item=dict),
    "dead": field(list, item=dict),
    "lowest_wild": field(bool),
    "rise": field(list, item=dict),
    "reverse": field(dict),
    "insert": field(dict),
    "require": field(dict),
    "shared": field(dict),
    "grid": field(dict),
    "ranking": field(str),
}
_REVERSE_SPEC = {"keep": field(list, item=str)}
_NEW_CATEGORY_SPEC = {
    "name": field(str, required=True),
    "description": field(str),
    "example": field(list, item=str),
}
_INSERT_SPEC = dict(_NEW_CATEGORY_SPEC, below=field(str, required=True))
_SHARED_SPEC = {
    "cards": field(int, required=True),
    "own": field(int, required=True),
    "min": field(int),
    "max": field(int),
}
GRID_SPEC = {"size": field(int, required=True), "own": field(int, required=True)}
BLOCK_SPECS = {name: block.spec for name, block in BLOCKS.items()}


def parse_modifier(ctx: Context, mid: str, raw: Any) -> Modifier | None:
    """One ``[modifiers.ID]`` table; problems go to ``ctx``."""
    p: KeyPath = ("modifiers", mid)
    g = check_table(ctx, raw, _MODIFIER_SPEC, p, f"modifier '{mid}'")
    if "title" not in g:
        return None
    reverse = None
    if "reverse" in g:
        reverse = tuple(check_table(ctx, g["reverse"], _REVERSE_SPEC, p + ("reverse",), "reverse").get("keep", []))
    insert = None
    if "insert" in g:
        cat = _category(ctx, g["insert"], p + ("insert",), _INSERT_SPEC, needs_blocks=True)
        if cat is not None:
            insert = (g["insert"]["below"], cat)
    require = _category(ctx, g["require"], p + ("require",), _NEW_CATEGORY_SPEC, needs_blocks=True) if "require" in g else None
    shared = None
    if "shared" in g:
        s = check_table(ctx, g["shared"], _SHARED_SPEC, p + ("shared",), "shared")
        if "cards" in s and "own" in s:
            shared = SharedCards(s["cards"], s["own"], s.get("min", 0), s.get("max", s["cards"]))
            if not (1 <= shared.cards <= 9 and 0 <= shared.own <= MAX_HAND and 0 <= shared.min <= shared.max <= shared.cards):
                ctx.error(p + ("shared",), "shared needs 1 to 9 cards, 0 to 7 own cards, and 0 <= min <= max <= cards")
                shared = None
    grid = None
    if "grid" in g:
        s = check_table(ctx, g["grid"], GRID_SPEC, p + ("grid",), "grid")
        if "size" in s and "own" in s:
            grid = Grid(s["size"], s["own"])
            if not (2 <= grid.size <= 5 and 0 <= grid.own <= MAX_HAND - grid.size):
                ctx.error(p + ("grid",), "a grid is 2 to 5 cards a side, and own cards and a line make at most 7")
                grid = None
    if shared is not None and grid is not None:
        ctx.error(p, "a modifier has shared cards or a grid, not both")
    return Modifier(
        mid,
        g["title"],
        g.get("description", ""),
        parse_selectors(ctx, g.get("wild", []), p + ("wild",)),
        parse_selectors(ctx, g.get("every_suit", []), p + ("every_suit",)),
        json.dumps(raw, sort_keys=True),
        tuple(g.get("aliases", [])),
        parse_selectors(ctx, g.get("dead", []), p + ("dead",)),
        g.get("lowest_wild", False),
        parse_selectors(ctx, g.get("rise", []), p + ("rise",)),
        reverse,
        insert,
        require,
        shared,
        grid,
        g.get("ranking"),
        p,
    )


def _category(ctx: Context, raw: Any, path: KeyPath, spec: dict, needs_blocks: bool) -> Category | None:
    g = check_table(ctx, raw, spec, path, "category", extra=BLOCK_SPECS)
    if "name" not in g:
        return None
    blocks = parse_blocks(ctx, g, path, MAX_HAND)
    if needs_blocks and not blocks:
        ctx.error(path, "give the category at least one building block")
        return None
    if blocks.get("wild"):
        ctx.error(path + ("wild",), "the wild block is not available here")
        return None
    example = tuple(g["example"]) if "example" in g else None
    return Category(g["name"], g.get("description", ""), example, blocks, False, path)


def check_modifiers(ctx: Context, modifiers: dict[str, Modifier], rankings: Iterable[str]) -> dict[str, str]:
    """Aliases and ranking names of a game's modifiers; returns ``{alias: modifier id}``."""
    aliases: dict[str, str] = {}
    known = list(rankings)
    for mid, m in modifiers.items():
        for i, alias in enumerate(m.aliases):
            if alias in modifiers or alias in aliases:
                ctx.error(m.path + ("aliases", i), f"the alias '{alias}' is already the name of a modifier")
            aliases[alias] = mid
        if m.ranking is not None and m.ranking not in known:
            ctx.error(m.path + ("ranking",), f"unknown ranking '{m.ranking}'{suggest(m.ranking, known)}")
    return aliases


def check_together(modifiers: Sequence[Modifier], error: Callable[[KeyPath, str], None]) -> None:
    """Modifiers that cannot be in force at once: two requirements, two ways of making
    hands from shared cards, or two different rankings."""
    clashes = [
        [m for m in modifiers if m.require is not None],
        [m for m in modifiers if m.builds_hands],
    ]
    rankings = [m for m in modifiers if m.ranking is not None]
    if len({m.ranking for m in rankings}) > 1:
        clashes.append(rankings)
    for having in clashes:
        if len(having) > 1:
            error(having[1].path, f"modifiers '{having[0].id}' and '{having[1].id}' cannot be in force together")


def derive_ranking(ranking: Ranking, modifiers: Sequence[Modifier], error: Callable[[KeyPath, str], None]) -> Ranking:
    """The ranking as the modifiers in force leave it: inserted categories, and a last
    category for hands that do not meet a requirement."""
    cats = list(ranking.categories)
    changed = False
    for m in modifiers:
        if m.insert is not None:
            below, cat = m.insert
            names = [c.name for c in cats]
            if below not in names:
                error(m.path + ("insert", "below"), f"ranking '{ranking.id}' has no category '{below}'{suggest(below, names)}")
                continue
            if cat.name in names:
                error(m.path + ("insert", "name"), f"ranking '{ranking.id}' already has a category '{cat.name}'")
                continue
            cats.insert(names.index(below) + 1, cat)
            changed = True
        if m.require is not None:
            if m.require.name in [c.name for c in cats]:
                error(m.path + ("require", "name"), f"ranking '{ranking.id}' already has a category '{m.require.name}'")
                continue
            cats.append(replace(m.require, blocks={}, example=None))
            changed = True
    if len(cats) > 62:
        error((), "at most 62 categories")
    return replace(ranking, categories=tuple(cats)) if changed else ranking


def category_order(ranking: Ranking, modifiers: Sequence[Modifier], error: Callable[[KeyPath, str], None]) -> list[int]:
    """The categories' indices, best first, once the modifiers have reordered them.

    A reversal keeps its named categories at the top; a requirement's category
    (hands that cannot win) stays at the bottom."""
    order = list(range(len(ranking.categories)))
    names = [c.name for c in ranking.categories]
    bottom = [names.index(m.require.name) for m in modifiers if m.require is not None and m.require.name in names]
    for m in modifiers:
        if m.reverse is None:
            continue
        keep = []
        for i, name in enumerate(m.reverse):
            if name not in names:
                error(m.path + ("reverse", "keep", i), f"ranking '{ranking.id}' has no category '{name}'{suggest(name, names)}")
            else:
                keep.append(names.index(name))
        middle = [c for c in order if c not in keep and c not in bottom]
        order = [c for c in order if c in keep] + middle[::-1] + [c for c in order if c in bottom]
    return order
