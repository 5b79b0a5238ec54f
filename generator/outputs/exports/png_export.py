"""``aetherpress export png``: one RGB PNG per face and per back (see :func:`..cardfiles.export_png`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...definitions.model import Deck
from ...project import Project
from .exportkinds import Export, ExportJob, Option, bleed_option, greyscale_option, register, too_large


def _prepare(project: Project, decks: Sequence[Deck], options: Mapping[str, Any]) -> None:
    for deck in decks:  # every image within bounds before anything is drawn
        too_large(deck, options["bleed"], options["dpi"], f"--dpi {options['dpi']:g}")


def _write(job: ExportJob) -> list[Path]:
    from ..cardfiles import export_png  # the drawing modules load when the export runs, not for --help

    o = job.options
    return export_png(job.source, job.deck, job.folder, o["dpi"], o["bleed"], o["greyscale"], job.progress)


register(
    Export(
        "png",
        "one PNG per face and per back",
        "`<card>.png` a face, `back-<name>.png` a back (RGB, with bleed, at `--dpi`)",
        _write,
        (
            Option("--dpi", "resolution (default 300)", "number", 300, low=10, high=1200),
            bleed_option(),
            greyscale_option(),
        ),
        ("aetherpress export png my-game:small --dpi 600",),
        ("*.png",),
        _prepare,
    )
)
