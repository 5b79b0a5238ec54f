"""``aetherpress export png``: one RGB PNG per face and per back (see :func:`..cardfiles.export_png`)."""

from __future__ import annotations

from pathlib import Path

from .exportkinds import Export, ExportJob, bleed_option, dpi_option, greyscale_option, pictures_fit, register


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
            dpi_option(300),
            bleed_option(),
            greyscale_option(),
        ),
        ("aetherpress export png my-game:small --dpi 600",),
        ("*.png",),
        pictures_fit,
    )
)
