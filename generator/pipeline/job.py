"""A whole ``build``: the chosen decks and, for a full build, the rulebooks, run as tasks on one executor.

Each deck's folder and the rulebooks folder is rebuilt in a staging folder
and swapped in whole (see :mod:`generator.project.staging`); a folder whose
inputs are unchanged since it was built, with its files intact, is left as
it is and only reported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..definitions.model import Deck
from ..errors import AetherpressError, Problem
from ..locations import RULEBOOKS
from ..outputs.progress import ProgressBar
from ..project.digests import code_digest, digest
from ..project.files import writing_into
from ..project.staging import Staged, stage, staged_folders, unchanged
from ..render.sheetpdf import SheetOptions
from ..resources.fonts import register_fonts
from . import tasks
from .build import DeckBuild, deck_report
from .context import ProjectContext
from .executor import executor
from .graph import Graph, Results, run
from .tasks import DeckTask, Where


@dataclass(frozen=True)
class BuildRequest:
    """What ``aetherpress build`` was asked for."""

    out: Path
    sheets: Sequence[tuple[str, SheetOptions]]
    proof: bool = False
    box: bool = False
    card_thickness: float = 0.3
    books: bool = False
    jobs: int | None = None
    dask: str | None = None
    draft: bool = False  # text that does not fit is drawn in red and listed, instead of stopping the build
    languages: tuple[str, ...] | None = None  # the editions to make (None: the source and every edition)
    strict_lang: bool = False  # an edition's text with no translation is an error

    @property
    def greyscale(self) -> bool:
        return any(options.greyscale for _, options in self.sheets)


def _extras(request: BuildRequest) -> dict:
    """What, beyond its sheets, changes a deck's folder."""
    return {
        "proof": request.proof,
        "box": request.box and request.card_thickness,
        "greyscale": request.greyscale,
        "draft": request.draft,
    }


def run_build(
    context: ProjectContext,
    decks: Sequence[Deck],
    request: BuildRequest,
    show: Callable[[Path], str],
    overflows: list[Problem] | None = None,
    differences: list[Problem] | None = None,
) -> list[str]:
    """Build ``decks`` (and the rulebooks when asked) into ``request.out``; return what to tell the user.

    In a draft, every text that does not fit (drawn in red) is added to ``overflows``; what the decks drawn
    draw that prints otherwise than a browser shows it, to ``differences``.
    """
    project = context.project
    where = Where.of(project)
    inputs = tasks.inputs_digest(project)
    deck_tasks = [DeckTask(where, deck.key, inputs, request.draft) for deck in decks]
    for deck in decks:
        context.adopt(deck)
    tasks.share(where, inputs, context)  # the workers forked below start with it
    reports: dict[str, list[str]] = {}
    register_fonts()  # before the workers fork, so none of them reads the font files again
    tasks.preload(request.books)
    if request.books:  # read and checked before the workers fork, so they start with them and check nothing again
        _ = context.games, context.books
    builds: list[DeckBuild] = []
    bar = ProgressBar("building")
    try:
        # the workers are done (or stopped) before the folders are swapped in or removed: a worker still
        # writing would otherwise make a staging folder again after a failure elsewhere had removed it
        with writing_into(request.out), staged_folders() as stages, executor(request.jobs, request.dask) as (ex, workers):
            graph, results = Graph(workers), Results()
            if request.books:  # the longest tasks go first, so no worker waits for one at the end
                reports["rulebooks"] = _books(context, where, inputs, request, stages, graph, show)
            # the decks' sides keyed while the workers count the books' tables
            builds += [DeckBuild(context, task, request.sheets, _extras(request)) for task in deck_tasks]
            for deck, build in zip(decks, builds):
                target = request.out / deck.slug
                files = unchanged(target, build.key, project.picture_folders())
                if files is not None:
                    reports[deck.key] = deck_report(deck, target, files, show, [suffix for suffix, _ in request.sheets])
                    continue
                folder = stage(stages, target)
                stages[target].key = build.key
                finish = _finisher(context, deck, target, folder, request, reports, show, stages[target], build)
                build.plan(graph, results, folder, finish, previous=target, allowed=request.out)
            run(graph, ex, results, bar)
    finally:
        bar.close()
    if request.draft and overflows is not None:
        for build in builds:
            overflows.extend(p for p in build.overflows() if p not in overflows)
    if differences is not None:
        for build in builds:
            differences.extend(p for p in build.differences if p not in differences)
    return [line for deck in decks for line in reports[deck.key]] + reports.get("rulebooks", [])


def _finisher(
    context: ProjectContext,
    deck: Deck,
    target: Path,
    folder: Path,
    request: BuildRequest,
    reports: dict[str, list[str]],
    show: Callable[[Path], str],
    staged: Staged,
    build: DeckBuild,
) -> Callable[[], None]:
    """What is done here once a deck's sheets and SVG files are written: its proof and box, and its report."""

    def finish() -> None:
        staged.reads = build.reads
        if request.proof:
            from ..outputs.proof import write_proof  # loaded only by the builds that ask for it

            write_proof(context, deck, folder, greyscale=request.greyscale, draft=request.draft)
        for suffix, options in request.sheets if request.box else ():
            from ..outputs.boxfile import write_box

            write_box(
                context,
                deck,
                folder / f"{deck.slug}-box{suffix}.pdf",
                options.layout.paper,
                request.card_thickness,
                request.greyscale,
            )
        files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
        reports[deck.key] = deck_report(deck, target, files, show, [suffix for suffix, _ in request.sheets])

    return finish


def _books(
    context: ProjectContext,
    where: Where,
    inputs: str,
    request: BuildRequest,
    stages: dict,
    graph: Graph,
    show: Callable[[Path], str],
) -> list[str]:
    """Add every rulebook of the project to ``graph``, each after the odds tables it shows, each table counted
    once (unless none of the project's files changed)."""
    from ..hands.oddstables import table_requests  # loaded only by the builds that make books (with numpy)
    from ..rulebook.definition import book_edition, book_languages
    from ..rulebook.sections import edition_problems

    project = context.project
    target = request.out / RULEBOOKS
    books = [b for b in context.books.values() if project.layer_of(b.file) is project.own]
    editions = [(book, code) for book in books for code in book_languages(book, request.languages)]
    if request.strict_lang:
        problems = [p for book, code in editions if code for p in edition_problems(book, book_edition(book, code))]
        if problems:
            raise AetherpressError(problems)
    lines = [f"rulebook: {show(target / f'{book_edition(book, code).name}.pdf')}" for book, code in editions]
    key = digest("rulebooks", code_digest(), inputs, [(b.id, code) for b, code in editions], request.draft)
    if unchanged(target, key, project.picture_folders()) is not None:
        return lines
    folder = stage(stages, target)
    stages[target].key = key
    games = context.games  # every game checked against its deck (a task trusts that it was), every problem told at once
    out = str(request.out)

    for book, code in editions:  # each book starts once the tables of its games are counted, side by side
        needed = [
            graph.add(tasks.count_odds, where, inputs, game, table, key=("odds", game, table))
            for game in book.games
            if game in games
            for table in table_requests(games[game])
        ]
        graph.add(tasks.write_book, where, inputs, book.id, str(folder), out, request.draft, code, needs=needed)
    return lines
