"""``aetherpress export cgs``: a Card Game Simulator custom game, its folder and the ``.cgs.zip`` CGS imports
(see :mod:`..cgs`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...definitions.model import Deck
from ...project import Project
from .exportkinds import Export, ExportJob, Option, register, too_large

DPI = 300


def dpi_option(default: int) -> Option:
    return Option("--dpi", f"resolution of the card pictures (default {default})", "number", default, low=10, high=1200)


def check_sizes(project: Project, decks: Sequence[Deck], options: Mapping[str, Any]) -> None:
    """Every card picture within bounds before anything is drawn (the pictures are cut to the trim: no bleed)."""
    for deck in decks:
        too_large(deck, 0.0, options["dpi"], f"--dpi {options['dpi']:g}")


def _write(job: ExportJob) -> list[Path]:
    from ..cgs import export_cgs  # the drawing modules load when the export runs, not for --help

    return export_cgs(job.source, job.deck, job.folder, job.options["dpi"])


register(
    Export(
        "cgs",
        "a Card Game Simulator custom game: its folder and the .cgs.zip to import",
        "`<game>/` (`cgs.json`, `AllCards.json`, `AllSets.json`, `sets/<set>/<card>.png`, `CardBack.png`, "
        "`decks/<list>.txt`: the game's CardGameDef) and `<game>.cgs.zip`, the same folder to import",
        _write,
        (dpi_option(DPI),),
        ("aetherpress export cgs my-game     # then Import the .cgs.zip in Card Game Simulator",),
        (
            "*/cgs.json",
            "*/AllCards.json",
            "*/AllSets.json",
            "*/sets/*/*.png",
            "*/CardBack.png",
            "*/backs/*.png",
            "*/decks/*.txt",
            "*.cgs.zip",
        ),
        check_sizes,
    )
)
