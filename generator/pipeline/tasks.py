"""The tasks of a build, as plain functions of plain values, so any process (or Dask worker) can run them.

A task names its project by folders (:class:`Where`) and its deck by key,
with a digest of the project's files: a process makes the project's context
(see :mod:`.context`) once per digest, so a worker that runs many tasks of
a build reads the files once, and one that outlives a change reads them
again.  Tasks write only into the store and the staging folders the build
chose, and return small values; the files are the same whichever process
ran them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..definitions.model import Card, Deck
from ..errors import AetherpressError
from ..faces.keys import font_inputs
from ..project import Project
from ..project.digests import folder_digest, known_digest
from ..project.files import confined_folder, make_folder, write_bytes, write_fresh, writing_into
from ..project.seal import adopt, secret
from ..render.pieces import Spec
from ..render.sheetpdf import SheetOptions
from .context import ProjectContext
from .keptpieces import Pieces, piece_key
from .keptsides import Sides
from .sheets import write_kept_job
from .sidefacts import SideFacts, facts_key, keep_facts, linked_facts
from .store import in_memory, keeping, remember


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
        return Project(Path(self.root) if self.root else None, Path(self.output), Path(self.cache), self.keeps)


def preload(books: bool) -> None:
    """Import what the tasks will use before the workers fork, so they share it instead of each importing
    it with its first task (numpy and the odds engine, the rulebook's Markdown and layout, svgwrite)."""
    import svgwrite.path  # noqa: F401  (every side with a path)

    if books:
        import numpy.random  # noqa: F401  (simulated tables)

        from ..hands import oddstables, simulate  # noqa: F401
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


def context_of(where: Where, inputs: str) -> ProjectContext:
    """The context of the project at ``where`` whose files have digest ``inputs``: made once per process (the
    process that planned the build hands its own to the workers it forks, see :func:`share`)."""
    return in_memory("context", (where, inputs), lambda: ProjectContext(where.project, check_games=False))


def share(where: Where, inputs: str, context: ProjectContext) -> None:
    """Hand ``context`` (whose games are checked) to the tasks this process and the workers it forks run."""
    remember("context", (where, inputs), context)


def load_deck(task: DeckTask) -> Deck:
    return context_of(task.where, task.inputs).deck(task.deck)


def deck_faces(task: DeckTask) -> Sides:
    return context_of(task.where, task.inputs).sides(load_deck(task), task.draft)


def _card(deck: Deck, card_id: str | None) -> Card | None:
    return deck.card(card_id) if card_id is not None else None


def deck_sides(
    task: DeckTask,
    items: Sequence[tuple[str | None, str, str]],
    greyscales: Sequence[bool],
    folder: str,
    previous: str | None,
    allowed: str,
) -> dict[str, SideFacts]:
    """The sides ``items``, each (card id or None, "front" or "back", the SVG file's path in ``folder``): each
    taken from the store or drawn and kept, its SVG file written (linked from the same file of ``previous``, the
    folder it replaces, when that holds the same bytes), its pieces (greys or not, by ``greyscales``) kept unless
    the store has them, told by its key with its facts (see :class:`SideFacts`)."""
    deck, faces = load_deck(task), deck_faces(task)
    fonts = font_inputs(faces.project)
    g = faces.renderer.geometry
    store = context_of(task.where, task.inputs).store
    pieces = {grey: Pieces(store, [faces], grey) for grey in greyscales}
    kept_piece = {grey: found.kept for grey, found in pieces.items()}
    pictures = faces.project.picture_folders()
    found: dict[str, SideFacts] = {}
    with writing_into(Path(allowed)):
        checked: dict[Path, Path] = {}
        for card_id, side, name in items:
            card = _card(deck, card_id)
            path = Path(folder) / name
            if path.parent not in checked:
                checked[path.parent] = confined_folder(make_folder(path.parent))
            side_key = faces.key(card, side)
            key = facts_key(side_key, fonts, (g.width, g.height), greyscales)
            if previous is not None:
                linked = linked_facts(store, key, path, Path(previous) / name, checked[path.parent], pictures, kept_piece)
                if linked is not None:
                    found[side_key] = linked
                    continue
            drawn = faces.side(card, side)
            write_fresh(path, drawn.svg, Path(previous) / name if previous is not None else None, checked[path.parent])
            keys = {grey: piece_key(fonts, drawn.svg, (g.width, g.height), grey) for grey in greyscales}
            for grey, piece in keys.items():
                pieces[grey].keep(0, card, side, drawn, piece)
            edges = {grey: pieces[grey].edge(0, card) for grey in greyscales} if side == "front" and card else {}
            facts = SideFacts(keys, dict(drawn.reads), tuple(drawn.overflows), tuple(drawn.differs), known_digest(path), edges)
            keep_facts(store, key, drawn.svg, facts)
            found[drawn.key] = facts
    return found


def write_sheets(
    tasks: tuple[DeckTask, ...],
    options: SheetOptions,
    target: str,
    allowed: str,
    side_of: Mapping[Spec, str],
    *told: Mapping[str, SideFacts],
) -> str:
    """Write a sheets PDF at ``target`` (inside the folder ``allowed``) from the pieces in the store: each card's
    side (by ``side_of``, its side's key) by the key of its piece its side's task ``told``."""
    facts = {key: found for part in told for key, found in part.items()}
    keys = {item: facts[key].pieces[options.greyscale] for item, key in side_of.items()}
    edges = {item: edge for item, key in side_of.items() if (edge := facts[key].edges.get(options.greyscale))}
    context = context_of(tasks[0].where, tasks[0].inputs)
    pieces = Pieces(context.store, [deck_faces(t) for t in tasks], options.greyscale, keys=keys, edges=edges)
    with writing_into(Path(allowed)):
        return str(write_kept_job(context, pieces.decks, Path(target), options, pieces=pieces))


def count_odds(where: Where, inputs: str, game: str, request: tuple[str | None, str | None, tuple[str, ...]]) -> bool:
    """Count one table of ``game`` into the store, ahead of the rulebook that may show it.

    False when it cannot be counted: the book says why, if it shows that table.
    """
    ranking, deck, modifiers = request
    try:
        context_of(where, inputs).hands.count_table(game, ranking, deck, modifiers)
    except AetherpressError:
        return False
    return True


def write_book(
    where: Where, inputs: str, book_id: str, folder: str, allowed: str, draft: bool = False, language: str = ""
) -> str:
    """Render one rulebook of the project at A5 into ``folder`` (inside ``allowed``), in ``language`` ("": its
    source language); a ``draft`` draws the card text that does not fit in red."""
    from ..rulebook import render_file
    from ..rulebook.definition import book_edition

    context = context_of(where, inputs)
    book = book_edition(context.books[book_id], language)
    name, data = render_file(context.book_context(draft), book)
    with writing_into(Path(allowed)):
        return str(write_bytes(Path(folder) / name, data))
