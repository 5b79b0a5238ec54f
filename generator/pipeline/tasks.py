"""The tasks of a build, as plain functions of plain values, so any process (or Dask worker) can run them.

A task names its project by folders (:class:`Where`) and its deck by key,
with a digest of the project's files: a process reads the definitions once
per digest and keeps them, so a worker that runs many tasks of a build reads
them once, and one that outlives a change reads them again.  Tasks write
only into the cache and the staging folders the build chose, and return
small values; the files are the same whichever process ran them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..definitions import deck_language, load_all, parse_deck_spec
from ..definitions.model import Card, Deck
from ..errors import AetherpressError
from ..faces.cached import CachedFaces
from ..faces.render import FaceRenderer
from ..project import Project
from ..project.cache import keeping
from ..project.digests import folder_digest
from ..project.files import write_bytes, writing_into
from ..project.seal import adopt, secret
from ..render.pieces import Pieces, Spec
from ..render.sheetpdf import SheetOptions, write_job


@dataclass(frozen=True)
class Where:
    """A project by its folders: its root (None for the built-in data alone), output and cache (and whether
    the cache can be written: found out once, by the process that plans the build); with the secret that
    seals the cache (see :mod:`..project.seal`), so every worker of the build keeps entries the others believe."""

    root: str | None
    output: str
    cache: str
    secret: str = field(default="", repr=False, compare=False)
    keeps: bool = True

    @classmethod
    def of(cls, project: Project) -> Where:
        root = str(project.root) if project.root else None
        return cls(root, str(project.output_path), str(project.cache_dir), secret().hex(), keeping(project))

    @property
    def project(self) -> Project:
        if self.secret:
            adopt(bytes.fromhex(self.secret))
        return _project(self)


@lru_cache(maxsize=8)
def _project(where: Where) -> Project:
    return Project(Path(where.root) if where.root else None, Path(where.output), Path(where.cache), where.keeps)


def preload(books: bool) -> None:
    """Import what the tasks will use before the workers fork, so they share it instead of each importing
    it with its first task (numpy and the odds engine, the rulebook's Markdown and layout, svgwrite)."""
    import svgwrite.path  # noqa: F401  (every side with a path)

    if books:
        import numpy.random  # noqa: F401  (simulated tables)

        from ..hands import odds, simulate  # noqa: F401
        from ..rulebook import charts, document, flow, style  # noqa: F401


def inputs_digest(project: Project) -> str:
    """A digest of every file a build of ``project`` reads."""
    return folder_digest(project.input_folders())


@dataclass(frozen=True)
class DeckTask:
    """One deck (``id`` or ``id:variant+variant``) of a project whose files have digest ``inputs``."""

    where: Where
    deck: str
    inputs: str
    draft: bool = False  # text that does not fit is drawn in red (build --draft)


_DEFINITIONS: dict[tuple[Where, str], dict] = {}
_KEPT = 4


def remember(task: DeckTask, definitions: dict) -> None:
    """Keep definitions this process has already read (a pool's forked workers start with them)."""
    _DEFINITIONS[(task.where, task.inputs)] = definitions


def _definitions(where: Where, inputs: str) -> dict:
    found = _DEFINITIONS.get((where, inputs))
    if found is None:
        if len(_DEFINITIONS) >= _KEPT:
            _DEFINITIONS.pop(next(iter(_DEFINITIONS)))
        found = _DEFINITIONS[(where, inputs)] = load_all(where.project)
    return found


_DECKS: dict[DeckTask, Deck] = {}


def remember_deck(task: DeckTask, deck: Deck) -> None:
    """Keep a deck this process has already built from its definition."""
    if len(_DECKS) >= 64:
        _DECKS.pop(next(iter(_DECKS)))
    _DECKS[task] = deck


def load_deck(task: DeckTask) -> Deck:
    found = _DECKS.get(task)
    if found is None:
        deck_id, variants = parse_deck_spec(task.deck)
        found = _definitions(task.where, task.inputs)[deck_id].build(variants, deck_language(task.deck))
        remember_deck(task, found)
    return found


@lru_cache(maxsize=16)
def deck_faces(task: DeckTask) -> CachedFaces:
    deck = load_deck(task)
    return CachedFaces(task.where.project, deck, FaceRenderer(task.where.project, deck, draft=task.draft))


def _card(deck: Deck, card_id: str | None) -> Card | None:
    return deck.card(card_id) if card_id is not None else None


def draw_sides(task: DeckTask, sides: Sequence[tuple[str | None, str]]) -> int:
    """Draw the sides, each (card id or None, "front" or "back"), into the cache."""
    deck, faces = load_deck(task), deck_faces(task)
    for card_id, side in sides:
        faces.side(_card(deck, card_id), side)
    return len(sides)


def _pieces(tasks: Sequence[DeckTask], greyscale: bool, keys: Mapping[Spec, str]) -> Pieces:
    decks, faces = [load_deck(t) for t in tasks], [deck_faces(t) for t in tasks]
    return Pieces(tasks[0].where.project, decks, greyscale, draft=tasks[0].draft, faces=faces, keys=keys)


def draw_pieces(tasks: tuple[DeckTask, ...], greyscale: bool, items: Sequence[Spec], keys: Mapping[Spec, str]) -> int:
    """Draw the pieces ``items`` (with their ``keys``), each (deck index, card id or None, side), into the cache."""
    pieces = _pieces(tasks, greyscale, keys)
    for d, card_id, side in items:
        pieces.known(d, _card(pieces.decks[d], card_id), side)
    return len(items)


def write_sheets(tasks: tuple[DeckTask, ...], options: SheetOptions, target: str, allowed: str, keys: Mapping[Spec, str]) -> str:
    """Write a sheets PDF at ``target`` (inside the folder ``allowed``) from the pieces in the cache (by ``keys``)."""
    pieces = _pieces(tasks, options.greyscale, keys)
    with writing_into(Path(allowed)):
        return str(write_job(pieces.project, pieces.decks, Path(target), options, pieces=pieces))


_ODDS_READ: dict[Where, str] = {}  # the inputs digest of the games this process's odds module has read


def fresh_odds(where: Where, inputs: str, checked: bool = False) -> None:
    """Make the odds module read the project's games again if its files changed since it last did.

    ``checked``: the process that planned the build has checked the games of these files (a task
    is handed out only then), so they are read here without checking them again.
    """
    from ..hands.odds import forget  # loaded only by the builds that make books (with numpy)

    if _ODDS_READ.get(where) != inputs:
        forget(where.project, _definitions(where, inputs), checked)
        _ODDS_READ[where] = inputs


def count_odds(where: Where, inputs: str, game: str, request: tuple[str | None, str | None, tuple[str, ...]]) -> bool:
    """Count one table of ``game`` into the cache, ahead of the rulebook that may show it.

    False when it cannot be counted: the book says why, if it shows that table.
    """
    from ..hands.odds import count_table

    fresh_odds(where, inputs, checked=True)
    ranking, deck, modifiers = request
    try:
        count_table(where.project, game, ranking, deck, modifiers)
    except AetherpressError:
        return False
    return True


def write_book(
    where: Where, inputs: str, book_id: str, folder: str, allowed: str, draft: bool = False, language: str = ""
) -> str:
    """Render one rulebook of the project at A5 into ``folder`` (inside ``allowed``), in ``language`` ("": its
    source language); a ``draft`` draws the card text that does not fit in red."""
    from ..rulebook import render_file
    from ..rulebook.definition import book_edition, load_rulebooks

    fresh_odds(where, inputs, checked=True)
    project = where.project
    book = book_edition(load_rulebooks(project)[book_id], language)
    name, data = render_file(_book_context(where, inputs, draft), book)
    with writing_into(Path(allowed)):
        return str(write_bytes(Path(folder) / name, data))


@lru_cache(maxsize=2)
def _book_context(where: Where, inputs: str, draft: bool):
    from ..rulebook import BuildContext

    return BuildContext.create(where.project, _definitions(where, inputs), draft)
