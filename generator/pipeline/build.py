"""Building decks into files: faces and backs as SVG, print sheets as PDF, and the rulebooks.

A build is a set of tasks (see :mod:`.tasks`) run by an executor (see
:mod:`.executor`) as futures, in stages per deck (see :meth:`DeckBuild.start`):
the tasks that have the sides (from the store, or drawn and kept) write their
SVG files and tell the keys of their pieces; then the pieces not yet in the
store are drawn; then each sheets file is assembled (a side or piece that
several decks of the build print alike is drawn once, by the first to need
it).  This process never reads a side back: it plans with the keys the tasks
tell.  A deck whose inputs have not changed since its folder was built, and
whose files are intact, is not built at all; a deck with one changed card
draws one side and one piece and assembles its sheets again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..definitions.deck import DeckDefinition
from ..definitions.model import Card, Deck
from ..definitions.styles import dark_edges
from ..errors import AetherpressError, Problem
from ..faces.lint import print_problems
from ..faces.render import geometry
from ..imposition.grids import LayoutError
from ..imposition.layout import cards_per_page
from ..project import Project
from ..project.digests import digest, note_known
from ..render.pieces import Spec, spec
from ..render.sheetpdf import Progress, SheetOptions
from . import tasks
from .context import ProjectContext
from .executor import InProcess
from .keptpieces import KIND as PIECES
from .keptsides import KIND as SIDES
from .runner import Runner, chunks
from .tasks import DeckTask, SideFacts, Where


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
    """One deck's way from its definition to its folder: sides (with their SVG files), pieces, sheets."""

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
        self.greyscales = sorted({o.greyscale for _, o in sheets})
        self.reads: dict[str, str] = {}  # the pictures the sides were drawn with (known once they are drawn)
        self.facts: dict[str, SideFacts] = {}  # each side's facts by its key, as the task that had the side told them
        self.piece_keys: dict[bool, dict[Spec, str]] = {}  # by colour mode (greyscale or not)
        self.differences: list[Problem] = []  # what its sides draw that prints otherwise than a browser shows it

    def start(
        self, runner: Runner, folder: Path, finish: Callable[[], None], previous: Path | None = None, allowed: Path | None = None
    ) -> Future:
        """Hand the deck's tasks to ``runner``: its sides and their SVG files, then its pieces, then its sheets,
        then ``finish`` (in this process).  ``previous`` is the folder ``folder`` replaces: SVG files that come out
        the same are linked from it; ``allowed``: the folder the tasks may write in (default: ``folder``)."""
        sides = self._sides(runner, folder, previous, allowed or folder)
        pieces = runner.after([sides], lambda: self._pieces(runner))
        sheets = runner.after([pieces], lambda: self._sheets(runner, folder, allowed or folder))
        return runner.after([sheets], finish)

    def _sides(self, runner: Runner, folder: Path, previous: Path | None, allowed: Path) -> Future:
        """Every side of the deck, each from the store or drawn (a side another deck of the build draws alike, once,
        by whichever deck takes it on first), with its SVG file written and its facts told, by the tasks that have
        the sides: the keys of its pieces are worked out where the side is, not by reading it back here."""
        items = {
            key: (*_spec(card, side), str(self.svg_path(folder, card, side).relative_to(folder)))
            for key, (card, side) in zip(self.side_keys, self.sides)
        }
        missing = {key for key in self.side_keys if not self.store.has(SIDES, key)}
        elsewhere = [key for key in self.side_keys if key in missing and runner.once((SIDES, key)) is not None]
        here = [key for key in self.side_keys if key not in elsewhere]
        before = str(previous) if previous is not None else None

        def task(part: list[str]) -> Future:
            return runner.submit(
                tasks.deck_sides, self.task, [items[k] for k in part], self.greyscales, str(folder), before, str(allowed)
            )

        futures = []
        for part in chunks(here, runner.workers):
            future = task(part)
            runner.take_on([(SIDES, key) for key in part if key in missing], future)  # drawn here: another deck waits
            futures.append(future)
        for part in chunks(elsewhere, runner.workers):  # drawn by another deck's task: taken from the store after it
            waits = [f for key in part if (f := runner.once((SIDES, key))) is not None]
            futures.append(runner.after(waits, partial(task, part)))
        return runner.after(futures, lambda: self._told([f.result() for f in futures]))

    def _told(self, results: list[dict[str, SideFacts]]) -> None:
        for found in results:
            self.facts.update(found)
        for key in self.side_keys:
            facts = self.facts[key]
            self.reads.update(facts.reads)
            if facts.written is not None:
                note_known(facts.written)
        self._differences()

    def _pieces(self, runner: Runner) -> Future:
        """The pieces missing from the store, drawn (a piece another deck of the build needs too, once)."""
        waits: list[Future] = []
        for greyscale in self.greyscales:
            keys = {
                spec(0, card, side): self.facts[key].pieces[greyscale] for key, (card, side) in zip(self.side_keys, self.sides)
            }
            # every card's sides for the sheets (cards that share a back share its piece), by the sides' keys
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

    def _sheets(self, runner: Runner, folder: Path, allowed: Path) -> Future:
        """The sheets files, assembled by the workers from the pieces in the store."""
        return runner.all([runner.submit(fn, *args) for fn, args in self._sheet_calls(folder, allowed)])

    def _sheet_calls(self, folder: Path, allowed: Path) -> list[tuple[Callable[..., Any], tuple]]:
        return [
            (
                tasks.write_sheets,
                (
                    (self.task,),
                    options,
                    str(folder / f"{self.deck.slug}-sheets{suffix}.pdf"),
                    str(allowed),
                    self.piece_keys[options.greyscale],
                ),
            )
            for suffix, options in self.sheets
        ]

    def _differences(self) -> None:
        """Each thing the deck's sides draw that prints otherwise than the preview shows it, once per template."""
        seen: set[tuple[str, str]] = set()
        for key, (card, side) in zip(self.side_keys, self.sides):
            if card is None:
                template, what = self.deck.back_template, "the back"
            elif side == "front":
                template, what = self.deck.template_for(card), f"card '{card.id}'"
            else:
                template, what = self.deck.back_for(card), f"the back of card '{card.id}'"
            self.differences += print_problems(self.faces.renderer, template, what, "", seen, self.facts[key].differs)

    def overflows(self) -> list[Problem]:
        """The texts of the deck's sides that do not fit (drafts draw them in red), as the sides' tasks told them."""
        found: list[Problem] = []
        for key in self.side_keys:
            found += [p for p in self.facts[key].overflows if p not in found] if key in self.facts else []
        return found

    def svg_path(self, folder: Path, card: Card | None, side: str) -> Path:
        if side == "front" and card is not None:
            return folder / "faces" / f"{card.id}.svg"
        return folder / "backs" / f"{self.deck.back_for(card) if card else self.deck.back_template}.svg"


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
    build.start(runner, folder, lambda: None, allowed=folder)
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
