"""``aetherpress export tts``: Tabletop Simulator deck sheets, back image and deck object (see :mod:`..tts`)."""

from __future__ import annotations

from pathlib import Path

from .exportkinds import Export, ExportJob, Option, copies_option, greyscale_option, register


def _write(job: ExportJob) -> list[Path]:
    from ..tts import export_tts  # the drawing modules load when the export runs, not for --help

    o = job.options
    return export_tts(job.source, job.deck, job.folder, o["url_base"], o["copies"], o["greyscale"], job.progress, job.target)


register(
    Export(
        "tts",
        "Tabletop Simulator deck sheets, back image and deck object",
        "`<deck>-sheet-N.png` (faces, up to 10 x 7 a sheet), `<deck>-back.png` (or `<deck>-backs-N.png`) and "
        "`<deck>-tts.json` (a saved deck object)",
        _write,
        (
            copies_option("the deck object"),
            greyscale_option(),
            Option(
                "--url-base",
                "where the images will be uploaded (default: file:// links to the written files)",
                "text",
                metavar="URL",
            ),
        ),
        ("aetherpress export tts --url-base https://example.org/my-game/",),
        ("{slug}-sheet-*.png", "{slug}-back.png", "{slug}-backs-*.png", "{slug}-tts.json"),
    )
)
