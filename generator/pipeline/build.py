"""Building decks into files: faces and backs as SVG, print sheets as PDF, and the rulebooks.

A build is a graph of tasks (see :mod:`.tasks` and :mod:`.graph`) run by an
executor (see :mod:`.executor`), per deck (see :meth:`DeckBuild.plan`): the
tasks that have the sides (from the store, or drawn and kept) write their SVG
files, keep their pieces and tell the pieces' keys; then each sheets file is
assembled from the pieces those tasks told (a side that several decks of the
build print alike is drawn once, by the first to need it).  This process
never reads a side back.  A deck whose inputs have not changed since its folder was built, and
whose files are intact, is not built at all; a deck with one changed card
draws one side and one piece and assembles its sheets again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
from .graph import Graph, Ref, Results, chunks, run
from .keptsides import KIND as SIDES
from .sidefacts import SideFacts
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


class DeckBuild:
    """One deck's way from its definition to its folder: sides (with their SVG files and pieces), sheets."""

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
        self.differences: list[Problem] = []  # what its sides draw that prints otherwise than a browser shows it

    def plan(
        self,
        graph: Graph,
        results: Results,
        folder: Path,
        finish: Callable[[], None],
        previous: Path | None = None,
        allowed: Path | None = None,
    ) -> None:
        """Add the deck's tasks to ``graph``: its sides, each with its SVG file and its pieces, then its sheets
        files; then, in this process, what the sides' tasks told (see :meth:`told`) and ``finish``.  ``previous`` is
        the folder ``folder`` replaces: SVG files that come out the same are linked from it; ``allowed``: the folder
        the tasks may write in (default: ``folder``)."""
        sides = self._sides(graph, folder, previous, allowed or folder)
        sheets = [
            graph.add(
                tasks.write_sheets,
                (self.task,),
                options,
                str(folder / f"{self.deck.slug}-sheets{suffix}.pdf"),
                str(allowed or folder),
                self._side_of(),
                *sides,
            )
            for suffix, options in self.sheets
        ]

        def done() -> None:
            self.told([results[ref] for ref in sides])
            finish()

        graph.then([*sides, *sheets], done)

    def _side_of(self) -> dict[Spec, str]:
        """The key of every card's side on the sheets, by (deck index, card id, side): cards share a back's."""
        return {
            spec(0, card, side): self.faces.key(card, side)
            for card in self.deck.cards or [None]
            for side in (("front", "back") if card is not None else ("back",))
        }

    def _sides(self, graph: Graph, folder: Path, previous: Path | None, allowed: Path) -> list[Ref]:
        """The tasks of the deck's sides: each side from the store or drawn (a side another deck of the build draws
        alike, once, by whichever deck adds it first, and then taken from the store after that deck's task), with
        its SVG file written, its pieces kept and its facts told (the keys of its pieces among them) by the task
        that has it: this process never reads a side back."""
        items = {
            key: (*_spec(card, side), str(self.svg_path(folder, card, side).relative_to(folder)))
            for key, (card, side) in zip(self.side_keys, self.sides)
        }
        missing = {key for key in self.side_keys if not self.store.has(SIDES, key)}
        elsewhere = [key for key in self.side_keys if key in missing and graph.known((SIDES, key)) is not None]
        here = [key for key in self.side_keys if key not in elsewhere]
        before = str(previous) if previous is not None else None
        refs = []
        for part in chunks(here, graph.workers):
            arguments = (self.task, [items[k] for k in part], self.greyscales, str(folder), before, str(allowed))
            ref = graph.add(tasks.deck_sides, *arguments)
            for key in part:
                if key in missing:
                    graph.name((SIDES, key), ref)
            refs.append(ref)
        for part in chunks(elsewhere, graph.workers):
            needs = list(dict.fromkeys(found for key in part if (found := graph.known((SIDES, key))) is not None))
            arguments = (self.task, [items[k] for k in part], self.greyscales, str(folder), before, str(allowed))
            refs.append(graph.add(tasks.deck_sides, *arguments, needs=needs))
        return refs

    def told(self, found: Sequence[dict[str, SideFacts]]) -> None:
        """Take what the sides' tasks told: the pictures read, the SVG files written, what prints otherwise."""
        for part in found:
            self.facts.update(part)
        for key in self.side_keys:
            facts = self.facts[key]
            self.reads.update(facts.reads)
            if facts.written is not None:
                note_known(facts.written)
        self._differences()

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
    graph, results = Graph(), Results()
    build = DeckBuild(context, task, sheets, None)
    build.plan(graph, results, folder, lambda: None, allowed=folder)
    run(graph, InProcess(), results, progress)
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
