"""Finding the definitions of a project: deck, game and rulebook files under ``decks/``.

The project's own files come first and override built-in files of the same
id; the built-in decks, games and books stay reachable.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..errors import AetherpressError, Problem, display_path
from ..project import Project
from ..project.files import read_regular
from .deck import DeckDefinition, load_definition

_DEFINITION_KINDS = ("deck", "game", "rulebook")
T = TypeVar("T")


def definition_kind(path: Path) -> str | None:
    """Which kind of definition a TOML file under decks/ holds, by its top-level table.

    Decks have a ``[deck]`` table; games (rankings) and rulebooks live beside them
    with ``[game]`` and ``[rulebook]`` tables.
    """
    try:
        text = read_regular(path, 64_000_000).decode("utf-8-sig", errors="replace")
    except OSError:
        return None  # not a regular file (a FIFO or a device is never read), or unreadable
    match = re.search(r"^\s*\[(" + "|".join(_DEFINITION_KINDS) + r")\]\s*(#.*)?$", text, re.M)
    return match.group(1) if match else None


def is_deck_file(path: Path) -> bool:
    return definition_kind(path) == "deck"


Kinds = Callable[[Path], "str | None"]  # the kind of definition a file holds (see :func:`definition_kind`)


def load_each(project: Project, kind: str, load: Callable[[Path], T], kind_of: Kinds = definition_kind) -> dict[str, T]:
    """Load every ``kind`` file ("deck", "game", "rulebook") of the project, by id (``kind_of`` tells each
    file's kind: by default, read from the file).

    Every file is read even when an earlier one fails, so one run reports all
    problems.  An id used twice in one layer is a problem of the second file;
    a project's file overrides a built-in one with the same id.
    """
    found: dict[str, Any] = {}
    places: dict[str, tuple[str, str]] = {}
    problems: list[Problem] = []
    for path in project.deck_files():
        if kind_of(path) != kind:
            continue
        layer = project.layer_of(path).kind
        try:
            item = load(path)
        except AetherpressError as exc:
            problems.extend(exc.problems)
            continue
        if item.id in found:  # type: ignore[attr-defined]
            first_layer, first_place = places[item.id]  # type: ignore[attr-defined]
            if first_layer == layer:
                problems.append(
                    Problem(
                        display_path(path),
                        f"{kind} id '{item.id}' is already used by {first_place}",  # type: ignore[attr-defined]
                        key=f"{kind}.id",
                    )
                )
            continue
        found[item.id] = item  # type: ignore[attr-defined]
        places[item.id] = (layer, display_path(path))  # type: ignore[attr-defined]
    if problems:
        raise AetherpressError(problems)
    return found


def load_all(
    project: Project, load: Callable[[Path], DeckDefinition] | None = None, kind_of: Kinds = definition_kind
) -> dict[str, DeckDefinition]:
    """Every deck definition of the project and the built-in data, by deck id (``load`` reads one file: by
    default, :func:`~.deck.load_definition`)."""
    return load_each(project, "deck", load or (lambda path: load_definition(path, project)), kind_of)


def own_ids(project: Project, definitions: dict[str, Any]) -> list[str]:
    """The ids among ``definitions`` that belong to the project itself (all of them without a project)."""
    return [key for key, item in definitions.items() if project.layer_of(_path_of(item)) is project.own]


def _path_of(item: Any) -> Path:
    return Path(getattr(item, "path", None) or item.file)


def parse_deck_spec(text: str) -> tuple[str, tuple[str, ...]]:
    """``imperial:ministry+labelled`` -> ("imperial", ("ministry", "labelled")); an edition (``@de``) aside."""
    deck, _, variants = text.partition("@")[0].partition(":")
    return deck, tuple(v for v in variants.split("+") if v)


def deck_language(text: str) -> str:
    """The edition a deck key names (``imperial:ministry@de`` -> ``de``), or "" for the source language."""
    return text.partition("@")[2]
