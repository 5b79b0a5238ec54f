"""Building decks into files: faces and backs as SVG, print sheets as PDF."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .faces import FaceRenderer
from .load import DeckDefinition
from .model import Deck
from .pdf import SheetOptions, write_sheets
from .project import Project
from .writers import write_text


@dataclass(frozen=True)
class BuildTarget:
    definition: DeckDefinition
    variants: tuple[str, ...]

    @property
    def deck(self) -> Deck:
        return self.definition.build(self.variants)


def all_targets(definitions: dict[str, DeckDefinition]) -> list[BuildTarget]:
    """Every deck in every variant (the base deck when it has none)."""
    targets = []
    for definition in definitions.values():
        variants = list(definition.variant_specs) or [None]
        for variant in variants:
            targets.append(BuildTarget(definition, (variant,) if variant else ()))
    return targets


def build_deck(project: Project, deck: Deck, out: Path, options: SheetOptions | None = None,
               progress=None, extra_sheets: Sequence[tuple[str, SheetOptions]] = ()) -> list[Path]:
    """Write one deck's SVG faces and backs and its print-sheet PDF; return the paths.

    ``options`` chooses paper and layout (default: A4 duplex with crop marks);
    ``extra_sheets`` adds ``<slug>-sheets-<name>.pdf`` files with other options.

    Every face is rendered before anything is written, so a template error
    leaves the previous build of this deck as it was.
    """
    folder = out / deck.slug
    faces = FaceRenderer(project, deck)
    rendered: dict[Path, str] = {}
    for card in deck.cards:
        rendered[folder / "faces" / f"{card.id}.svg"] = faces.face(card)
    for card in deck.cards:
        name = deck.back_for(card)
        path = folder / "backs" / f"{name}.svg"
        if path not in rendered:
            rendered[path] = faces.back(card)
    if not deck.cards:
        rendered[folder / "backs" / f"{deck.back_template}.svg"] = faces.back()
    written = [write_sheets(project, deck, folder / f"{deck.slug}-sheets.pdf", options, progress=progress)]
    for name, extra in extra_sheets:
        written.append(write_sheets(project, deck, folder / f"{deck.slug}-sheets-{name}.pdf", extra))
    for path, text in rendered.items():
        written.append(write_text(path, text))
    return written
