"""``aetherpress export foundry``: a Foundry Virtual Tabletop card stack to import, and its pictures
(see :mod:`..foundry`)."""

from __future__ import annotations

from pathlib import Path

from .exportkinds import Export, ExportJob, dpi_option, pictures_fit, register

DPI = 200


def _write(job: ExportJob) -> list[Path]:
    from ..foundry import export_foundry  # the drawing modules load when the export runs, not for --help

    return export_foundry(job.source, job.deck, job.folder, job.options["dpi"])


register(
    Export(
        "foundry",
        "a Foundry Virtual Tabletop card stack (Import Data) and its pictures",
        "`<deck>-foundry.json` (a Cards document: Import Data on a new card stack) and "
        "`aetherpress/<deck>/<card>.png`, `back-<name>.png` (to copy into Foundry's `Data/` folder)",
        _write,
        (dpi_option(DPI, "resolution of the card pictures"),),
        ("aetherpress export foundry my-game --dpi 150",),
        ("{slug}-foundry.json", "aetherpress/{slug}/*.png"),
        pictures_fit,
    )
)
