"""``aetherpress export svg``: one SVG per face and per back (see :func:`..cardfiles.export_svg`)."""

from __future__ import annotations

from pathlib import Path

from .exportkinds import Export, ExportJob, bleed_option, register


def _write(job: ExportJob) -> list[Path]:
    from ..cardfiles import export_svg  # the drawing modules load when the export runs, not for --help

    return export_svg(job.source, job.deck, job.folder, job.options["bleed"])


register(
    Export(
        "svg",
        "one SVG per face and per back",
        "`<card>.svg` a face, `back-<name>.svg` a back (with bleed; the SVG the preview shows)",
        _write,
        (bleed_option(),),
        ("aetherpress export svg --bleed 0",),
        ("*.svg",),
    )
)
