"""Building decks into files: faces and backs as SVG, print sheets as PDF."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..definitions.deck import DeckDefinition
from ..definitions.model import Deck
from ..errors import AetherpressError, Problem
from ..faces.render import FaceRenderer, geometry
from ..imposition.grids import LayoutError
from ..imposition.layout import cards_per_page
from ..project import Project
from ..project.files import write_text
from ..render.sheetpdf import Progress, SheetOptions, write_sheets


@dataclass(frozen=True)
class BuildTarget:
    definition: DeckDefinition
    variants: tuple[str, ...]

    @property
    def deck(self) -> Deck:
        return self.definition.build(self.variants)


def all_targets(definitions: dict[str, DeckDefinition]) -> list[BuildTarget]:
    """Every deck in every variant (the base deck when it has none)."""
    targets: list[BuildTarget] = []
    for definition in definitions.values():
        variants: list[tuple[str, ...]] = [(v,) for v in definition.variant_specs] or [()]
        targets.extend(BuildTarget(definition, variant) for variant in variants)
    return targets


def check_fits(decks: Sequence[Deck], options: SheetOptions) -> None:
    """Raise a one-line error, before anything is written, if a deck's cards do not fit the layout."""
    for deck in decks:
        g = geometry(deck)
        try:
            cards_per_page(g.trim_w, g.trim_h, options.layout, g.bleed)
        except LayoutError as exc:
            raise AetherpressError(
                Problem(deck.source, f"{exc}; choose larger paper (--paper) or a smaller card size", key="deck.size")
            ) from None


def build_deck(
    project: Project,
    deck: Deck,
    folder: Path,
    sheets: Sequence[tuple[str, SheetOptions]],
    progress: Progress | None = None,
    overflows: list[Problem] | None = None,
) -> list[Path]:
    """Write one deck's SVG faces and backs and its print-sheet PDFs into ``folder``; return the paths.

    ``sheets`` gives each sheets PDF as (suffix, options): ``<slug>-sheets<suffix>.pdf``
    with the paper and layout of the options.  In a draft (the options' ``draft``),
    a text that does not fit is drawn in red and reported into ``overflows``.

    Every face is rendered before anything is written, so a template error
    leaves the previous build of this deck as it was.
    """
    faces = FaceRenderer(project, deck, draft=any(options.draft for _, options in sheets))
    rendered: dict[Path, str] = {}
    found: list[Problem] = []
    for card in deck.cards:
        rendered[folder / "faces" / f"{card.id}.svg"] = faces.face(card)
        found += faces.overflow_problems()
    for card in deck.cards:
        name = deck.back_for(card)
        path = folder / "backs" / f"{name}.svg"
        if path not in rendered:
            rendered[path] = faces.back(card)
            found += faces.overflow_problems()
    if overflows is not None:
        overflows.extend(p for p in found if p not in overflows)
    if not deck.cards:
        rendered[folder / "backs" / f"{deck.back_template}.svg"] = faces.back()
    written = [
        write_sheets(project, deck, folder / f"{deck.slug}-sheets{suffix}.pdf", options, progress=progress if n == 0 else None)
        for n, (suffix, options) in enumerate(sheets)
    ]
    for path, text in rendered.items():
        written.append(write_text(path, text))
    return written
