"""Building decks into files: faces and backs as SVG, print sheets as PDF, and the rulebooks.

A build is a set of tasks (see :mod:`.tasks`) run by an executor (see
:mod:`.executor`) as futures, in stages per deck (see :meth:`DeckBuild.start`):
the sides not yet in the store are drawn, then the pieces not yet in the
store, then each sheets file is assembled (a side or piece that several
decks of the build print alike is drawn once, by the first to need it); the
SVG files are written meanwhile.  A deck whose inputs have not changed since its folder was
built, and whose files are intact, is not built at all; a deck with one
changed card draws one side and one piece and assembles its sheets again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..definitions.deck import DeckDefinition
from ..definitions.model import Card, Deck
from ..definitions.styles import dark_edges
from ..errors import AetherpressError, Problem
from ..faces.drawn import DrawnSide
from ..faces.keys import font_inputs
from ..faces.lint import print_problems
from ..faces.render import geometry
from ..imposition.grids import LayoutError
from ..imposition.layout import cards_per_page
from ..project import Project
from ..project.digests import digest
from ..project.files import confined_folder, make_folder, write_fresh
from ..render.pieces import Spec, spec
from ..render.sheetpdf import Progress, SheetOptions
from . import tasks
from .context import ProjectContext
from .executor import InProcess
from .keptpieces import KIND as PIECES
from .keptpieces import piece_key
from .keptsides import KIND as SIDES
from .runner import Runner, chunks
from .tasks import DeckTask, Where


@dataclass(frozen=True)
class BuildTarget:
    definition: DeckDefinition
    variants: tuple[str, ...]
    language: str = ""  # an edition's language ("": the source language)

    @property
    def deck(self) -> Deck:
        return self.definition.build(self.variants, self.language)


def all_targets(definitions: dict[str, DeckDefinition], languages: Sequence[str] | None = ("",)) -> list[BuildTarget]:
    """Every deck as itself (unless its file says ``build = false``) and in each of its variants, in each of
    ``languages`` it has ("": the source language; None: the source language and every edition)."""
    targets: list[BuildTarget] = []
    for definition in definitions.values():
        variants: list[tuple[str, ...]] = [(v,) for v in definition.variant_specs]
        if definition.build_full or not variants:
            variants.insert(0, ())
        for language in edition_choice(definition, languages):
            targets.extend(BuildTarget(definition, variant, language) for variant in variants)
    return targets


def edition_choice(definition: DeckDefinition, languages: Sequence[str] | None) -> list[str]:
    """Which of ``languages`` a deck is built in ("" for its source language), of those it has."""
    if languages is None:
        return ["", *definition.editions]
    source = definition.base.language
    return list(
        dict.fromkeys("" if code in ("", source) else code for code in languages if code in ("", source, *definition.editions))
    )


def check_fits(decks: Sequence[Deck], options: SheetOptions) -> None:
    """Raise a one-line error, before anything is written, if a deck's cards do not fit the layout."""
    for deck in decks:
        g = geometry(deck)
        try:
            cards_per_page(g.trim_w, g.trim_h, options.layout, g.bleed, dark_edges(deck.style))
        except LayoutError as exc:
            raise AetherpressError(
                Problem(deck.source, f"{exc}; choose larger paper (--paper) or a smaller card size", key="deck.size")
            ) from None


def _spec(card: Card | None, side: str) -> tuple[str | None, str]:
    return (card.id if card is not None else None, side)


def _taken_on(runner: Runner, kind: str, missing: dict[str, Any], task: Callable[[list], tuple]) -> Future:
    """A future done once the work of every key of ``missing`` is: the keys no other deck of the build has taken
    on are done here, in chunks, each chunk by the task ``task(chunk)`` gives as (function, arguments)."""
    mine = [key for key in missing if runner.once((kind, key)) is None]
    for part in chunks(mine, runner.workers):
        fn, args = task([missing[key] for key in part])
        runner.take_on([(kind, key) for key in part], runner.submit(fn, *args))
    return runner.all([future for key in missing if (future := runner.once((kind, key))) is not None])


class DeckBuild:
    """One deck's way from its definition to its folder: sides, pieces, sheets, SVG files."""

    def __init__(self, context: ProjectContext, task: DeckTask, sheets: Sequence[tuple[str, SheetOptions]], extras: Any):
        self.project = context.project
        self.store = context.store
        self.task = task
        self.deck = tasks.load_deck(task)
        self.sheets = sheets
        self.faces = tasks.deck_faces(task)
        self.sides: list[tuple[Card | None, str]] = []
        self.side_keys: list[str] = []
        for card in self.deck.cards or [None]:
            for side in ("front", "back") if card is not None else ("back",):
                key = self.faces.key(card, side)
                if key not in self.side_keys:
                    self.side_keys.append(key)
                    self.sides.append((card, side))
        options = [(suffix, repr(o)) for suffix, o in sheets]
        self.key = digest("deck folder", self.side_keys, options, extras)
        self.reads: dict[str, str] = {}  # the pictures the sides were drawn with (known once they are drawn)
        self.previous: Path | None = None
        self.piece_keys: dict[bool, dict[Spec, str]] = {}  # by colour mode (greyscale or not)
        self.differences: list[Problem] = []  # what its sides draw that prints otherwise than a browser shows it
        self.drawn: list[DrawnSide] = []  # its sides as drawn, from the pieces' stage until the SVG files are written

    def start(self, runner: Runner, folder: Path, finish: Callable[[], None], previous: Path | None = None) -> Future:
        """Hand the deck's tasks to ``runner``: its sides, then its pieces, then its sheets and SVG files, then
        ``finish`` (in this process).  ``previous`` is the folder ``folder`` replaces: SVG files that come out the
        same are linked from it."""
        self.previous = previous
        sides = self._sides(runner)
        pieces = runner.after([sides], lambda: self._pieces(runner))
        sheets = runner.after([pieces], lambda: self._sheets(runner, folder))
        return runner.after([sheets], finish)

    def _sides(self, runner: Runner) -> Future:
        """The sides missing from the store, drawn (a side another deck of the build draws alike, once)."""
        missing = {key: _spec(*item) for key, item in zip(self.side_keys, self.sides) if not self.store.has(SIDES, key)}
        return _taken_on(runner, SIDES, missing, lambda part: (tasks.draw_sides, (self.task, part)))

    def _pieces(self, runner: Runner) -> Future:
        """The pieces missing from the store, drawn (a piece another deck of the build needs too, once)."""
        drawn = self.drawn = [self.faces.side(card, side) for card, side in self.sides]
        for side in drawn:
            self.reads.update(side.reads)
        self._differences(drawn)
        g = self.faces.renderer.geometry
        fonts = font_inputs(self.project)
        waits: list[Future] = []
        for greyscale in sorted({o.greyscale for _, o in self.sheets}):
            keys = {
                spec(0, card, side): piece_key(fonts, d.svg, (g.width, g.height), greyscale)
                for (card, side), d in zip(self.sides, drawn)
            }
            # every card's sides for the sheets (cards that share a back share its piece), by the sides drawn
            by_side = {side_key: keys[spec(0, *item)] for side_key, item in zip(self.side_keys, self.sides)}
            self.piece_keys[greyscale] = {
                spec(0, card, side): by_side[self.faces.key(card, side)]
                for card in self.deck.cards or [None]
                for side in (("front", "back") if card is not None else ("back",))
            }
            missing = {key: item for item, key in keys.items() if not self.store.has(PIECES, key, binary=True)}

            def task(part: list[Spec], greyscale: bool = greyscale, keys: dict[Spec, str] = keys) -> tuple:
                return tasks.draw_pieces, ((self.task,), greyscale, part, {item: keys[item] for item in part})

            waits.append(_taken_on(runner, PIECES, missing, task))
        return runner.all(waits)

    def _sheets(self, runner: Runner, folder: Path) -> Future:
        """The sheets go to the workers, and the SVG files are written here while they assemble them.

        In this process (``--jobs 1``) the SVG files come first, so the drawn sides are let go before the
        sheets are assembled: the build's peak memory is the larger of the two, not their sum.
        """
        if isinstance(runner.executor, InProcess):
            self._write_svgs(folder, self.drawn)
        sheets = [runner.submit(fn, *args) for fn, args in self._sheet_calls(folder)]
        if not isinstance(runner.executor, InProcess):
            self._write_svgs(folder, self.drawn)
        self.drawn = []
        return runner.all(sheets)

    def _sheet_calls(self, folder: Path) -> list[tuple[Callable[..., Any], tuple]]:
        return [
            (
                tasks.write_sheets,
                (
                    (self.task,),
                    options,
                    str(folder / f"{self.deck.slug}-sheets{suffix}.pdf"),
                    str(folder),
                    self.piece_keys[options.greyscale],
                ),
            )
            for suffix, options in self.sheets
        ]

    def _differences(self, drawn: Sequence[DrawnSide]) -> None:
        """Each thing the deck's sides draw that prints otherwise than the preview shows it, once per template."""
        seen: set[tuple[str, str]] = set()
        for (card, side), d in zip(self.sides, drawn):
            if card is None:
                template, what = self.deck.back_template, "the back"
            elif side == "front":
                template, what = self.deck.template_for(card), f"card '{card.id}'"
            else:
                template, what = self.deck.back_for(card), f"the back of card '{card.id}'"
            self.differences += print_problems(self.faces.renderer, template, what, d.svg, seen, d.differs)

    def overflows(self) -> list[Problem]:
        """The texts of the deck's sides that do not fit (drafts draw them in red), read back from the cache."""
        found: list[Problem] = []
        for card, side in self.sides:
            found += [p for p in self.faces.side(card, side).overflows if p not in found]
        return found

    def svg_path(self, folder: Path, card: Card | None, side: str) -> Path:
        if side == "front" and card is not None:
            return folder / "faces" / f"{card.id}.svg"
        return folder / "backs" / f"{self.deck.back_for(card) if card else self.deck.back_template}.svg"

    def _write_svgs(self, folder: Path, drawn: list) -> None:
        paths = [self.svg_path(folder, card, side) for card, side in self.sides]
        checked = {parent: confined_folder(make_folder(parent)) for parent in dict.fromkeys(path.parent for path in paths)}
        for path, side_drawn in zip(paths, drawn):
            before = self.previous / path.relative_to(folder) if self.previous is not None else None
            write_fresh(path, side_drawn.svg, before, checked[path.parent])


def build_deck(
    project: Project, deck: Deck, folder: Path, sheets: Sequence[tuple[str, SheetOptions]], progress: Progress | None = None
) -> list[Path]:
    """Write one deck's SVG faces and backs and its print sheets into ``folder``, in this process; return the paths.

    ``sheets`` gives each sheets PDF as (suffix, options): ``<slug>-sheets<suffix>.pdf``.
    """
    draft = any(options.draft for _, options in sheets)
    task = DeckTask(Where.of(project), deck.key, tasks.inputs_digest(project), draft)
    context = ProjectContext(project)
    context.adopt(deck)
    tasks.share(task.where, task.inputs, context)
    runner = Runner(InProcess(), 1, progress)
    build = DeckBuild(context, task, sheets, None)
    build.start(runner, folder, lambda: None)
    runner.run()
    pdfs = [folder / f"{deck.slug}-sheets{suffix}.pdf" for suffix, _ in sheets]
    return pdfs + [build.svg_path(folder, card, side) for card, side in build.sides]


def deck_report(
    deck: Deck, target: Path, files: Sequence[str], show: Callable[[Path], str], suffixes: Sequence[str]
) -> list[str]:
    """What the command line says about a deck's folder: its sheets (in the order of ``suffixes``), its SVG
    files, then its other PDFs."""
    sheets = [f"{deck.slug}-sheets{suffix}.pdf" for suffix in suffixes]
    lines = [f"{deck.key}: {show(target / f)}" for f in sheets if f in files]
    lines.append(f"{deck.key}: {sum(1 for f in files if f.endswith('.svg'))} SVG files in {show(target)}")
    others = sorted(f for f in files if "/" not in f and f.endswith((".pdf", ".png")) and f not in sheets)
    return lines + [f"{deck.key}: {show(target / f)}" for f in others]
