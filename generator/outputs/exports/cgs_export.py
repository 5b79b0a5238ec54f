"""``aetherpress export cgs``: a Card Game Simulator custom game, its folder and the ``.cgs.zip`` CGS imports
(see :mod:`..cgs`)."""

from __future__ import annotations

from pathlib import Path

from .exportkinds import Export, ExportJob, dpi_option, pictures_fit, register

DPI = 300


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
        (dpi_option(DPI, "resolution of the card pictures"),),
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
        pictures_fit,
    )
)
