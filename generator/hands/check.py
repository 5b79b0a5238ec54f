"""Games checked against their decks: every ranking compiled on every deck, every example hand classified."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from ..definitions.deck import DeckDefinition
from ..definitions.discovery import Kinds, definition_kind, load_all, load_each
from ..definitions.schema import Context, suggest
from ..definitions.toml import read_toml
from ..errors import AetherpressError, Problem, display_path
from ..project import Project
from .arrangement import check_arrangement
from .engine import Engine
from .games import load_game
from .rankings import Game, Ranking


def resolve(
    game: Game, ranking: str | None = None, deck: str | None = None, modifiers: Sequence[str] = ()
) -> tuple[str, str, tuple[str, ...]]:
    """(ranking id, deck name, modifier ids) for a request: aliases become modifier ids, and a
    modifier that plays its own ranking (a spell that changes the hand size) chooses it."""
    if not game.rankings:
        raise AetherpressError(Problem(game.source, f"game '{game.id}' is a game of rows and has no hand rankings"))
    mods: list[str] = []
    for m in modifiers:
        mid = game.modifier_id(m)
        if mid not in game.modifiers:
            names = list(game.modifiers) + list(game.aliases)
            raise AetherpressError(
                Problem(
                    game.source,
                    f"game '{game.id}' has no modifier '{m}'{suggest(m, names)}; modifiers: {', '.join(game.modifiers) or 'none'}",
                )
            )
        if mid not in mods:
            mods.append(mid)
    did = deck or game.default_deck
    if did not in game.decks:
        raise AetherpressError(
            Problem(
                game.source, f"game '{game.id}' has no deck '{did}'{suggest(did, game.decks)}; decks: {', '.join(game.decks)}"
            )
        )
    forced = [(m, game.modifiers[m].ranking) for m in list(game.decks[did].modifiers) + mods if game.modifiers[m].ranking]
    rid = ranking or (forced[0][1] if forced else None) or game.default_ranking
    for m, r in forced:
        if r != rid:
            raise AetherpressError(Problem(game.source, f"modifier '{m}' plays ranking '{r}', not '{rid}'"))
    if rid not in game.rankings:
        raise AetherpressError(
            Problem(
                game.source,
                f"game '{game.id}' has no ranking '{rid}'{suggest(rid, game.rankings)}; rankings: {', '.join(game.rankings)}",
            )
        )
    return rid, did, tuple(mods)


def engines_for(
    game: Game,
    definitions: dict[str, DeckDefinition],
    ranking: str | None = None,
    deck: str | None = None,
    modifiers: Sequence[str] = (),
) -> Engine:
    rid, did, modifiers = resolve(game, ranking, deck, modifiers)
    if game.deck_id not in definitions:
        raise AetherpressError(
            Problem(game.source, f"unknown deck '{game.deck_id}'{suggest(game.deck_id, definitions)}", key="game.deck")
        )
    choice = game.decks[did]
    built = definitions[game.deck_id].build(choice.variants)
    mods = [game.modifiers[m] for m in choice.modifiers] + [game.modifiers[m] for m in modifiers if m not in choice.modifiers]
    base = definitions[game.deck_id].base
    base_ids = {"card": {c.id for c in base.cards}, "rank": {r.id for r in base.ranks}}
    return Engine(game.rankings[rid], built, mods, game.source, base_ids)


def _not_a_deck(path: Path, deck_id: str) -> str:
    """Why a file beside the game is not read as the deck (one named after it first, then any other
    with no definition table), when there is such a file."""
    beside = sorted(path.parent.glob("*.toml"), key=lambda p: (p.stem != deck_id, p.name))
    for other in beside:
        if other != path and other.is_file() and definition_kind(other) is None:
            empty = ": it is empty" if not other.read_bytes().strip() else ""
            return f" ({display_path(other)} has no [deck] table{empty})"
    return ""


def check_game(game: Game, definitions: dict[str, DeckDefinition], path: Path) -> None:
    """Compile every ranking on every deck of the game and check the example hands."""
    problems: list[Problem] = []
    ctx = Context(display_path(path), game.locator) if game.locator is not None else read_toml(path)[1]
    definition = _check_references(game, definitions, path, ctx)
    base_cards = [c.id for c in definition.base.cards]
    for rid, ranking in game.rankings.items():
        checked_examples: set[int] = set()
        if _check_on_decks(game, definitions, rid, ranking, ctx, problems, checked_examples):
            _check_unplayed_examples(game, ranking, ctx, checked_examples, base_cards)
    problems.extend(ctx.problems)
    if problems:
        raise AetherpressError(_dedupe(problems))


def _check_references(game: Game, definitions: dict[str, DeckDefinition], path: Path, ctx: Context) -> DeckDefinition:
    """The game's deck definition, once its deck, variants, arrangement and spells deck are found (else the errors)."""
    if game.deck_id not in definitions:
        ctx.error(
            ("game", "deck"),
            f"unknown deck '{game.deck_id}'{suggest(game.deck_id, definitions)}{_not_a_deck(path, game.deck_id)}",
        )
        ctx.raise_if_any()
    definition = definitions[game.deck_id]
    for name, choice in game.decks.items():
        for i, v in enumerate(choice.variants):
            if v not in definition.variant_specs:
                ctx.error(
                    ("decks", name, "variants", i),
                    f"deck '{game.deck_id}' has no variant '{v}'{suggest(v, definition.variant_specs)}",
                )
    if game.arrangement is not None:
        check_arrangement(ctx, game.arrangement, definition.build(()))
    if game.spells is not None and game.spells not in definitions:
        ctx.error(("game", "spells"), f"unknown deck '{game.spells}'{suggest(game.spells, definitions)}")
    ctx.raise_if_any()
    return definition


def _check_on_decks(
    game: Game,
    definitions: dict[str, DeckDefinition],
    rid: str,
    ranking: Ranking,
    ctx: Context,
    problems: list[Problem],
    checked_examples: set[int],
) -> bool:
    """Compile ranking ``rid`` on each of the game's decks (the default deck also under each modifier) and check
    the examples each deck can deal; False when it does not compile on one of them."""
    compiled = True
    for did in game.decks:
        combos: list[tuple[str, ...]] = [()]
        if did == game.default_deck:
            combos += [
                (m,)
                for m, modifier in game.modifiers.items()
                if m not in game.decks[did].modifiers and modifier.ranking in (None, rid)
            ]
        for mods in combos:
            try:
                engine = engines_for(game, definitions, rid, did, mods)
            except AetherpressError as exc:
                compiled = False
                for p in exc.problems:
                    line = ctx.locator.line(_key_path(p.key)) if p.key and ctx.locator else None
                    problems.append(Problem(p.file, p.message, line, p.key))
                continue
            if mods:
                _check_inserted(ctx, engine, game.modifiers[mods[0]])
            else:
                _check_examples(ctx, engine, ranking, checked_examples)
    return compiled


def _check_examples(ctx: Context, engine: Engine, ranking: Ranking, checked_examples: set[int]) -> None:
    """Each category's example hand not yet checked that the engine's deck can deal is a hand of that category."""
    ids = {c.id for c in engine.deck.cards}
    for i, cat in enumerate(ranking.categories):
        if cat.example is None or i in checked_examples or not set(cat.example) <= ids:
            continue
        checked_examples.add(i)
        try:
            got = engine.evaluate(cat.example)
        except AetherpressError as exc:
            ctx.error(cat.path + ("example",), exc.problems[0].message)
            continue
        if not got.fits_category(i):
            ctx.error(cat.path + ("example",), f"the example hand does not fit {cat.name} (it is a {got.name})")
        elif got.category != i and not cat.printed:
            ctx.error(cat.path + ("example",), f"the example hand is a {got.name}, not a {cat.name}")


def _check_unplayed_examples(
    game: Game, ranking: Ranking, ctx: Context, checked_examples: set[int], base_cards: list[str]
) -> None:
    """An example hand no deck of the game could deal: an unknown card, or cards of no one deck."""
    for i, cat in enumerate(ranking.categories):
        if cat.example is None or i in checked_examples:
            continue
        unknown = [c for c in cat.example if c not in base_cards]
        if unknown:
            ctx.error(
                cat.path + ("example",),
                f"unknown card '{unknown[0]}' in deck '{game.deck_id}'{suggest(unknown[0], base_cards)}",
            )
        else:
            ctx.error(cat.path + ("example",), "the example hand is not a hand of any of the game's decks")


def _check_inserted(ctx, engine: Engine, modifier) -> None:
    """The example of a category a modifier adds must be a hand of that category."""
    if modifier.insert is None or modifier.insert[1].example is None:
        return
    cat = modifier.insert[1]
    if len(cat.example) != engine.k or not set(cat.example) <= {c.id for c in engine.deck.cards}:
        return
    try:
        got = engine.evaluate(cat.example)
    except AetherpressError as exc:
        ctx.error(cat.path + ("example",), exc.problems[0].message)
        return
    if got.name != cat.name:
        ctx.error(cat.path + ("example",), f"the example hand is a {got.name}, not a {cat.name}")


def _key_path(key: str) -> tuple:
    out: list = []
    for part in re.findall(r'"[^"]*"|[A-Za-z0-9_-]+|\[\d+\]', key):
        if part.startswith("["):
            out.append(int(part[1:-1]) - 1)
        else:
            out.append(part.strip('"'))
    return tuple(out)


def _dedupe(problems: list[Problem]) -> list[Problem]:
    out = []
    for p in problems:
        if p not in out:
            out.append(p)
    return out


def load_games(
    project: Project,
    definitions: dict[str, DeckDefinition] | None = None,
    check: bool = True,
    read: Callable[[Path], Game] | None = None,
    kind_of: Kinds = definition_kind,
) -> dict[str, Game]:
    """Every game of the project and the built-in data: ``{game_id: Game}``, checked against its deck
    (``definitions``: the project's deck definitions, when they are read already) unless ``check`` is False.
    ``read`` reads one game file (by default :func:`~.games.load_game`); ``kind_of`` tells a file's kind."""

    def load_checked(path: Path) -> Game:
        nonlocal definitions
        game = read(path) if read is not None else load_game(path, project)
        if not check:
            return game
        if definitions is None:
            definitions = load_all(project)
        check_game(game, definitions, path)
        return game

    return load_each(project, "game", load_checked, kind_of)
