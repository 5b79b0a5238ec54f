"""Game files: a game's rankings, the decks its odds are counted on, and its modifiers.

A game file lives beside its deck under ``decks/<system>/`` and has a
top-level ``[game]`` table.  It names the deck it is played with, the decks
(variants and modifiers) its odds are counted on, its rankings, and the
modifiers (spells, house rules) that change how cards count.  Every ranking
is an ordered list of categories, best first; a category is a combination of
the building blocks in :data:`~.blocks.BLOCKS`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..definitions.credits import parse_credits
from ..definitions.ids import check_id
from ..definitions.schema import Context, KeyPath, check_table, field, suggest
from ..definitions.toml import read_toml
from ..errors import display_path
from ..locations import real
from ..project import Project
from .arrangement import parse_arrangement
from .blocks import BLOCKS, parse_blocks
from .modifiers import check_modifiers, parse_modifier
from .rankings import LADDERS, MAX_HAND, TIEBREAK_STEPS, AceLow, Category, DeckChoice, Game, Modifier, Ranking, TieClass

_GAME_TOP = {
    "game": field(dict, required=True),
    "decks": field(dict),
    "rankings": field(dict),
    "modifiers": field(dict),
    "arrangement": field(dict),
}
_GAME_SPEC = {
    "id": field(str, required=True),
    "title": field(str, required=True),
    "deck": field(str, required=True),
    "description": field(str),
    "notes": field(list, item=str),
    "spells": field(str),
    "credits": field(dict),
}
_DECK_CHOICE_SPEC = {
    "title": field(str),
    "variants": field(list, item=str),
    "modifiers": field(list, item=str),
    "description": field(str),
}
_RANKING_SPEC = {
    "title": field(str),
    "hand_size": field(int, required=True),
    "ladder": field(str),
    "ace_low": field(dict),
    "tiebreak": field(list, item=str),
    "classes": field(list, item=dict),
    "categories": field(list, item=dict, required=True),
    "description": field(str),
}
_ACE_LOW_SPEC = {"rank": field(str, required=True), "below": field(str, required=True)}
_CATEGORY_SPEC = {
    "name": field(str, required=True),
    "description": field(str),
    "example": field(list, item=str),
    "printed": field(bool),
    "tiebreak": field(list, item=str),
}
_CLASS_SPEC = {"name": field(str, required=True), "description": field(str)}
BLOCK_SPECS = {name: block.spec for name, block in BLOCKS.items()}


def load_game(path: Path, project: Project | None = None) -> Game:
    data, ctx = read_toml(path)
    source = display_path(path)
    if project is not None and project.root is not None and real(path).is_relative_to(project.root):
        source = str(real(path).relative_to(project.root))  # the same wherever the command runs
    top = check_table(ctx, data, _GAME_TOP, (), "a game file")
    ctx.raise_if_any()
    head = check_table(ctx, top["game"], _GAME_SPEC, ("game",), "[game]")
    credits = parse_credits(ctx, head.get("credits"), ("game", "credits"))
    ctx.raise_if_any()

    modifiers: dict[str, Modifier] = {}
    for mid, raw in top.get("modifiers", {}).items():
        modifier = parse_modifier(ctx, mid, raw)
        if modifier is not None:
            modifiers[mid] = modifier
    aliases = check_modifiers(ctx, modifiers, top.get("rankings", {}))
    arrangement = parse_arrangement(ctx, top["arrangement"]) if "arrangement" in top else None

    decks: dict[str, DeckChoice] = {}
    for name, raw in (top.get("decks") or {"default": {}}).items():
        p = ("decks", name)
        g = check_table(ctx, raw, _DECK_CHOICE_SPEC, p, f"deck '{name}'")
        for i, m in enumerate(g.get("modifiers", [])):
            if aliases.get(m, m) not in modifiers:
                ctx.error(p + ("modifiers", i), f"unknown modifier '{m}'{suggest(m, modifiers)}")
        decks[name] = DeckChoice(
            name,
            g.get("title", name),
            g.get("description", ""),
            tuple(g.get("variants", [])),
            tuple(aliases.get(m, m) for m in g.get("modifiers", [])),
        )

    rankings: dict[str, Ranking] = {}
    for rid, raw in top.get("rankings", {}).items():
        ranking = _ranking(ctx, rid, raw, source)
        if ranking is not None:
            rankings[rid] = ranking
    if not top.get("rankings") and "arrangement" not in top:
        ctx.error(("rankings",), "a game needs at least one ranking (or an [arrangement] of rows)")
    check_id(ctx, head["id"], ("game", "id"), "game")
    for kind, table in (("ranking", rankings), ("deck", decks), ("modifier", modifiers)):
        for name in table:
            check_id(ctx, name, (kind + "s", name), kind)
    ctx.raise_if_any()
    return Game(
        head["id"],
        head["title"],
        head.get("description", ""),
        head["deck"],
        source,
        rankings,
        decks,
        modifiers,
        tuple(head.get("notes", [])),
        path,
        aliases,
        head.get("spells"),
        arrangement,
        credits,
        ctx.locator,
    )


def _ranking(ctx: Context, rid: str, raw: Any, source: str) -> Ranking | None:
    p = ("rankings", rid)
    g = check_table(ctx, raw, _RANKING_SPEC, p, f"ranking '{rid}'")
    if "hand_size" not in g or "categories" not in g:
        return None
    k = g["hand_size"]
    if not 1 <= k <= MAX_HAND:
        ctx.error(p + ("hand_size",), f"hand_size must be 1 to {MAX_HAND}")
        return None
    ladder = g.get("ladder", "deck")
    if ladder not in LADDERS:
        ctx.error(p + ("ladder",), f"ladder must be one of {', '.join(LADDERS)}{suggest(ladder, LADDERS)}")
    ace_low = None
    if "ace_low" in g:
        a = check_table(ctx, g["ace_low"], _ACE_LOW_SPEC, p + ("ace_low",), "ace_low")
        if "rank" in a and "below" in a:
            ace_low = AceLow(a["rank"], a["below"])
    tiebreak = _steps(ctx, g.get("tiebreak", ["ranks"]), p + ("tiebreak",))
    classes = _classes(ctx, g.get("classes", []), p, k)
    if classes and "classes" not in tiebreak:
        ctx.error(p + ("classes",), "tie classes are given but 'classes' is not a tiebreak step")
    categories = _categories(ctx, g["categories"], p, k)
    return Ranking(
        rid,
        g.get("title", rid),
        g.get("description", ""),
        k,
        ladder,
        ace_low,
        tiebreak,
        tuple(classes),
        tuple(categories),
        source,
        json.dumps(raw, sort_keys=True),
    )


def _classes(ctx: Context, raw: list, p: KeyPath, k: int) -> list[TieClass]:
    """A ranking's tie classes."""
    classes = []
    for i, craw in enumerate(raw):
        cp = p + ("classes", i)
        cg = check_table(ctx, craw, _CLASS_SPEC, cp, "tie class", extra=BLOCK_SPECS)
        if "name" in cg:
            classes.append(TieClass(cg["name"], cg.get("description", ""), parse_blocks(ctx, cg, cp, k), cp))
    return classes


def _categories(ctx: Context, raw: list, p: KeyPath, k: int) -> list[Category]:
    """A ranking's categories, best first: each named once, the last taking every other hand, at most 62."""
    categories: list[Category] = []
    names: set[str] = set()
    for i, craw in enumerate(raw):
        category = _category(ctx, craw, p + ("categories", i), k, names)
        if category is not None:
            categories.append(category)
    if not categories:
        ctx.error(p + ("categories",), "a ranking needs at least one category")
    elif categories[-1].blocks or categories[-1].printed:
        ctx.error(categories[-1].path, "the last category must take every other hand: give it no building blocks")
    if len(categories) > 62:
        ctx.error(p + ("categories",), "at most 62 categories")
    return categories


def _category(ctx: Context, craw: Any, cp: KeyPath, k: int, names: set[str]) -> Category | None:
    """One category of a ranking (None without a name); ``names``: the names of those before it."""
    for key in craw if isinstance(craw, dict) else ():
        if key not in _CATEGORY_SPEC and key not in BLOCKS:
            ctx.error(
                cp + (key,),
                f"unknown building block '{key}'{suggest(key, list(BLOCKS) + list(_CATEGORY_SPEC))}; blocks: {', '.join(BLOCKS)}",
            )
    known = {key: v for key, v in craw.items() if key in _CATEGORY_SPEC or key in BLOCKS} if isinstance(craw, dict) else craw
    cg = check_table(ctx, known, _CATEGORY_SPEC, cp, "category", extra=BLOCK_SPECS)
    if "name" not in cg:
        return None
    if cg["name"] in names:
        ctx.error(cp + ("name",), f"category '{cg['name']}' is named twice")
    names.add(cg["name"])
    example = tuple(cg["example"]) if "example" in cg else None
    blocks = parse_blocks(ctx, cg, cp, k)
    if blocks.get("wild") and not cg.get("printed"):
        ctx.error(cp + ("wild",), "the wild block needs printed = true (it looks at the printed cards)")
    steps = _steps(ctx, cg["tiebreak"], cp + ("tiebreak",)) if "tiebreak" in cg else None
    return Category(cg["name"], cg.get("description", ""), example, blocks, cg.get("printed", False), cp, steps)


def _steps(ctx: Context, steps: list, path: tuple) -> tuple[str, ...]:
    for i, step in enumerate(steps):
        if step not in TIEBREAK_STEPS:
            ctx.error(
                path + (i,), f"unknown tie-break step '{step}'{suggest(step, TIEBREAK_STEPS)}; steps: {', '.join(TIEBREAK_STEPS)}"
            )
    return tuple(steps)
