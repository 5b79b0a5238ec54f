"""Games and their hand rankings as data: reading and checking ``[game]`` files.

A game file lives beside its deck under ``decks/<system>/`` and has a
top-level ``[game]`` table.  It names the deck it is played with, the decks
(variants and modifiers) its odds are counted on, its rankings, and the
modifiers (spells, house rules) that change how cards count.  Every ranking
is an ordered list of categories, best first; a category is a combination of
the building blocks in ``BLOCKS``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..errors import display_path
from ..load import read_toml
from ..project import Project
from ..schema import Context, check_table, field, suggest

MAX_HAND = 7

GAME_TOP = {"game": field(dict, required=True), "decks": field(dict), "rankings": field(dict, required=True),
            "modifiers": field(dict)}
GAME_SPEC = {"id": field(str, required=True), "title": field(str, required=True), "deck": field(str, required=True),
             "description": field(str), "notes": field(list, item=str)}
DECK_CHOICE_SPEC = {"title": field(str), "variants": field(list, item=str), "modifiers": field(list, item=str),
                    "description": field(str)}
MODIFIER_SPEC = {"title": field(str, required=True), "description": field(str), "wild": field(list, item=dict),
                 "every_suit": field(list, item=dict)}
RANKING_SPEC = {"title": field(str), "hand_size": field(int, required=True), "ladder": field(str),
                "ace_low": field(dict), "tiebreak": field(list, item=str), "classes": field(list, item=dict),
                "categories": field(list, item=dict, required=True), "description": field(str)}
ACE_LOW_SPEC = {"rank": field(str, required=True), "below": field(str, required=True)}
SELECTOR_SPEC = {"card": field(str), "rank": field(str), "suit": field(str), "group": field(str),
                 "count": field(int), "max": field(int)}
CATEGORY_SPEC = {"name": field(str, required=True), "description": field(str), "example": field(list, item=str),
                 "printed": field(bool), "tiebreak": field(list, item=str)}
CLASS_SPEC = {"name": field(str, required=True), "description": field(str)}

# Building blocks: the key a category (or tie class) uses, and what it takes.
BLOCKS = {
    "groups": field(list, item=int),      # n of a kind: [3, 2] = three of one rank and two of another
    "straight": field(bool),               # all cards on consecutive steps of the rank ladder
    "flush": field(bool),                  # all cards share a suit
    "shared": field(dict),                 # { of = "suits"|attribute, count = n }: all cards share n values
    "each_once": field(str, list),         # "suits"|attribute (or a list): every value present exactly once
    "distinct": field(dict),               # { of, min, max }: how many different values are present
    "rectangle": field(dict),              # { ranks = n | [ids], suits = m }: n ranks, each in the same m suits
    "contains": field(list, item=dict),    # named cards, ranks, suits, groups: [{ rank = "ace", count = 1 }]
    "none": field(list, item=dict),        # contains no card of these
    "wild": field(dict),                   # { min, max }: wild cards held (printed categories only)
}
BLOCK_HELP = {
    "groups": "n of a kind, several groups: groups = [3, 2]",
    "straight": "consecutive ranks on the ladder: straight = true",
    "flush": "all cards share a suit: flush = true",
    "shared": "all cards share values: shared = { of = \"types\", count = 2 }",
    "each_once": "each suit or attribute value exactly once: each_once = \"suits\"",
    "distinct": "number of different values: distinct = { of = \"suits\", min = 3 }",
    "rectangle": "ranks in the same suits: rectangle = { ranks = 2, suits = 2 }",
    "contains": "named cards, ranks, groups: contains = [{ card = \"mage\" }, { rank = \"7\" }]",
    "none": "contains no such card: none = [{ rank = \"ww\" }]",
    "wild": "wild cards held, for printed categories: wild = { min = 2 }",
}
TIEBREAK_STEPS = ("classes", "no_wild", "ranks", "top", "suits")
LADDERS = ("deck", "values")


@dataclass(frozen=True)
class Selector:
    """Which cards a block means: by card id, rank, suit or group (one of them)."""
    kind: str  # card | rank | suit | group
    value: str
    count: int = 1
    max: int | None = None

    def describe(self) -> str:
        return f"{self.kind} '{self.value}'"


@dataclass(frozen=True)
class Category:
    name: str
    description: str
    example: tuple[str, ...] | None
    blocks: Mapping[str, Any]
    printed: bool = False
    path: tuple = ()
    tiebreak: tuple[str, ...] | None = None  # this category's own tie-break steps, if it has them


@dataclass(frozen=True)
class TieClass:
    name: str
    description: str
    blocks: Mapping[str, Any]
    path: tuple = ()


@dataclass(frozen=True)
class AceLow:
    rank: str
    below: str


@dataclass(frozen=True)
class Ranking:
    id: str
    title: str
    description: str
    hand_size: int
    ladder: str
    ace_low: AceLow | None
    tiebreak: tuple[str, ...]
    classes: tuple[TieClass, ...]
    categories: tuple[Category, ...]
    source: str
    data: str  # canonical JSON of the ranking's table, for cache keys

    def category(self, name: str) -> Category:
        for c in self.categories:
            if c.name == name:
                return c
        raise KeyError(name)


@dataclass(frozen=True)
class Modifier:
    id: str
    title: str
    description: str
    wild: tuple[Selector, ...] = ()
    every_suit: tuple[Selector, ...] = ()
    data: str = ""


@dataclass(frozen=True)
class DeckChoice:
    """A deck the game's odds are counted on: deck variants plus modifiers."""
    name: str
    title: str
    description: str
    variants: tuple[str, ...]
    modifiers: tuple[str, ...]


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    description: str
    deck_id: str
    source: str
    rankings: Mapping[str, Ranking]
    decks: Mapping[str, DeckChoice]
    modifiers: Mapping[str, Modifier]
    notes: tuple[str, ...] = ()

    @property
    def deck_variants(self) -> Mapping[str, DeckChoice]:
        """The game's decks by name, the default first (iterating gives the names)."""
        return self.decks

    @property
    def default_ranking(self) -> str:
        return next(iter(self.rankings))

    @property
    def default_deck(self) -> str:
        return next(iter(self.decks))


# --- reading -------------------------------------------------------------------

def is_game_file(path: Path) -> bool:
    from ..load import definition_kind
    return definition_kind(path) == "game"


def _selector(ctx: Context, raw: Any, path: tuple) -> Selector | None:
    good = check_table(ctx, raw, SELECTOR_SPEC, path, "card selector")
    kinds = [k for k in ("card", "rank", "suit", "group") if k in good]
    if len(kinds) != 1:
        if isinstance(raw, dict):
            ctx.error(path, "a card selector names exactly one of card, rank, suit or group")
        return None
    count = good.get("count", 1)
    if count < 1:
        ctx.error(path + ("count",), "count must be 1 or more")
    maximum = good.get("max")
    if maximum is not None and maximum < count:
        ctx.error(path + ("max",), "max must not be below count")
    return Selector(kinds[0], good[kinds[0]], count, maximum)


def _selectors(ctx: Context, raw: list, path: tuple) -> tuple[Selector, ...]:
    out = []
    for i, item in enumerate(raw):
        sel = _selector(ctx, item, path + (i,))
        if sel is not None:
            out.append(sel)
    return tuple(out)


def _blocks(ctx: Context, good: dict[str, Any], path: tuple, hand_size: int) -> dict[str, Any]:
    """Check and normalise the building blocks present in ``good``."""
    out: dict[str, Any] = {}
    for name, value in good.items():
        if name not in BLOCKS:
            continue
        p = path + (name,)
        if name == "groups":
            if not value or any(g < 1 for g in value) or sum(value) > hand_size:
                ctx.error(p, f"groups must be sizes of 1 or more that fit in a hand of {hand_size}")
                continue
            out[name] = tuple(sorted(value, reverse=True))
        elif name in ("straight", "flush"):
            if value:
                out[name] = True
        elif name == "shared":
            g = check_table(ctx, value, {"of": field(str, required=True), "count": field(int)}, p, "shared")
            if "of" in g:
                out[name] = (g["of"], g.get("count", 1))
        elif name == "each_once":
            items = [value] if isinstance(value, str) else value
            if not items or not all(isinstance(v, str) for v in items):
                ctx.error(p, "each_once must be \"suits\", an attribute name, or a list of them")
                continue
            out[name] = tuple(items)
        elif name == "distinct":
            g = check_table(ctx, value, {"of": field(str, required=True), "min": field(int), "max": field(int)}, p, "distinct")
            if "of" in g:
                out[name] = (g["of"], g.get("min", 0), g.get("max", 99))
        elif name == "rectangle":
            g = check_table(ctx, value, {"ranks": field(int, list, required=True), "suits": field(int, required=True)}, p, "rectangle")
            if "ranks" in g and "suits" in g:
                ranks = g["ranks"]
                if isinstance(ranks, list):
                    if not ranks or not all(isinstance(r, str) for r in ranks):
                        ctx.error(p + ("ranks",), "ranks must be a number or a list of rank ids")
                        continue
                    ranks = tuple(ranks)
                elif ranks < 1:
                    ctx.error(p + ("ranks",), "ranks must be 1 or more")
                    continue
                if g["suits"] < 1:
                    ctx.error(p + ("suits",), "suits must be 1 or more")
                    continue
                out[name] = (ranks, g["suits"])
        elif name in ("contains", "none"):
            sels = _selectors(ctx, value, p)
            if sels:
                out[name] = sels
        elif name == "wild":
            g = check_table(ctx, value, {"min": field(int), "max": field(int)}, p, "wild")
            out[name] = (g.get("min", 1), g.get("max", 99))
    return out


def load_game(path: Path, project: Project | None = None) -> Game:
    data, ctx = read_toml(path, project)
    source = display_path(path)
    if project is not None:
        try:
            source = str(path.resolve().relative_to(project.root.resolve()))
        except ValueError:
            pass
    top = check_table(ctx, data, GAME_TOP, (), "a game file")
    ctx.raise_if_any()
    head = check_table(ctx, top["game"], GAME_SPEC, ("game",), "[game]")
    ctx.raise_if_any()

    modifiers: dict[str, Modifier] = {}
    for mid, raw in top.get("modifiers", {}).items():
        p = ("modifiers", mid)
        g = check_table(ctx, raw, MODIFIER_SPEC, p, f"modifier '{mid}'")
        if "title" not in g:
            continue
        modifiers[mid] = Modifier(mid, g["title"], g.get("description", ""),
                                  _selectors(ctx, g.get("wild", []), p + ("wild",)),
                                  _selectors(ctx, g.get("every_suit", []), p + ("every_suit",)),
                                  json.dumps(raw, sort_keys=True))

    decks: dict[str, DeckChoice] = {}
    for name, raw in (top.get("decks") or {"default": {}}).items():
        p = ("decks", name)
        g = check_table(ctx, raw, DECK_CHOICE_SPEC, p, f"deck '{name}'")
        for i, m in enumerate(g.get("modifiers", [])):
            if m not in modifiers:
                ctx.error(p + ("modifiers", i), f"unknown modifier '{m}'{suggest(m, modifiers)}")
        decks[name] = DeckChoice(name, g.get("title", name), g.get("description", ""),
                                 tuple(g.get("variants", [])), tuple(g.get("modifiers", [])))

    rankings: dict[str, Ranking] = {}
    for rid, raw in top["rankings"].items():
        ranking = _ranking(ctx, rid, raw, source)
        if ranking is not None:
            rankings[rid] = ranking
    if not top["rankings"]:
        ctx.error(("rankings",), "a game needs at least one ranking")
    ctx.raise_if_any()
    return Game(head["id"], head["title"], head.get("description", ""), head["deck"], source,
                rankings, decks, modifiers, tuple(head.get("notes", [])))


def _ranking(ctx: Context, rid: str, raw: Any, source: str) -> Ranking | None:
    p = ("rankings", rid)
    g = check_table(ctx, raw, RANKING_SPEC, p, f"ranking '{rid}'")
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
        a = check_table(ctx, g["ace_low"], ACE_LOW_SPEC, p + ("ace_low",), "ace_low")
        if "rank" in a and "below" in a:
            ace_low = AceLow(a["rank"], a["below"])
    tiebreak = _steps(ctx, g.get("tiebreak", ["ranks"]), p + ("tiebreak",))
    classes = []
    for i, craw in enumerate(g.get("classes", [])):
        cp = p + ("classes", i)
        cg = check_table(ctx, craw, CLASS_SPEC, cp, "tie class", extra=BLOCKS)
        if "name" in cg:
            classes.append(TieClass(cg["name"], cg.get("description", ""), _blocks(ctx, cg, cp, k), cp))
    if classes and "classes" not in tiebreak:
        ctx.error(p + ("classes",), "tie classes are given but 'classes' is not a tiebreak step")
    categories = []
    names = set()
    for i, craw in enumerate(g["categories"]):
        cp = p + ("categories", i)
        for key in craw if isinstance(craw, dict) else ():
            if key not in CATEGORY_SPEC and key not in BLOCKS:
                ctx.error(cp + (key,), f"unknown building block '{key}'{suggest(key, list(BLOCKS) + list(CATEGORY_SPEC))}; "
                          f"blocks: {', '.join(BLOCKS)}")
        known = {k: v for k, v in craw.items() if k in CATEGORY_SPEC or k in BLOCKS} if isinstance(craw, dict) else craw
        cg = check_table(ctx, known, CATEGORY_SPEC, cp, "category", extra=BLOCKS)
        if "name" not in cg:
            continue
        if cg["name"] in names:
            ctx.error(cp + ("name",), f"category '{cg['name']}' is named twice")
        names.add(cg["name"])
        example = tuple(cg["example"]) if "example" in cg else None
        blocks = _blocks(ctx, cg, cp, k)
        if blocks.get("wild") and not cg.get("printed"):
            ctx.error(cp + ("wild",), "the wild block needs printed = true (it looks at the printed cards)")
        steps = _steps(ctx, cg["tiebreak"], cp + ("tiebreak",)) if "tiebreak" in cg else None
        categories.append(Category(cg["name"], cg.get("description", ""), example, blocks, cg.get("printed", False), cp, steps))
    if not categories:
        ctx.error(p + ("categories",), "a ranking needs at least one category")
    elif categories[-1].blocks or categories[-1].printed:
        ctx.error(categories[-1].path, "the last category must take every other hand: give it no building blocks")
    if len(categories) > 62:
        ctx.error(p + ("categories",), "at most 62 categories")
    return Ranking(rid, g.get("title", rid), g.get("description", ""), k, ladder, ace_low, tiebreak, tuple(classes),
                   tuple(categories), source, json.dumps(raw, sort_keys=True))


def _steps(ctx: Context, steps: list, path: tuple) -> tuple[str, ...]:
    for i, step in enumerate(steps):
        if step not in TIEBREAK_STEPS:
            ctx.error(path + (i,), f"unknown tie-break step '{step}'{suggest(step, TIEBREAK_STEPS)}; steps: {', '.join(TIEBREAK_STEPS)}")
    return tuple(steps)


def game_files(project: Project) -> list[Path]:
    return [p for p in project.deck_files() if is_game_file(p)]


def load_games(project: Project) -> dict[str, Game]:
    """Every game under ``decks/``: ``{game_id: Game}``, checked against its deck."""
    from ..load import load_all, load_each
    from .engine import check_game

    definitions: dict | None = None

    def load_checked(path: Path) -> Game:
        nonlocal definitions
        game = load_game(path, project)
        if definitions is None:
            definitions = load_all(project)
        check_game(game, definitions, path)
        return game

    return load_each(project, "game", load_checked)
