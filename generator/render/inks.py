"""A CMYK print file's pages as the inks a press lays down: Ghostscript's own rendering, separations and overprint.

A proof must be drawn from the file that ships, not from the design it was
made of.  Ghostscript renders each page of the PDF to CMYK (``tiff32nc``),
with black that overprints printed over what lies beneath, as a press prints
it; the profile then shows those inks on the paper (a soft proof).  Ghostscript
is needed only here: the press files themselves are made without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PIL import Image

from ..errors import AetherpressError, Problem
from ..project.scratch import scratch_folder

_TIMEOUT = 600  # s


def ghostscript() -> str | None:
    """The Ghostscript program, or None when it is not installed."""
    return shutil.which("gs")


def needs_ghostscript(what: str) -> AetherpressError:
    """The one-line error for ``what`` without Ghostscript."""
    return AetherpressError(
        Problem(
            "command line",
            f"{what} needs Ghostscript ('gs') to render the print file as its inks; install it (Debian: apt-get install ghostscript)",
        )
    )


def ink_pages(pdf: bytes, pages: Sequence[int], size: tuple[int, int]) -> list[Image.Image]:
    """The pages ``pages`` (1-based) of the CMYK ``pdf`` as CMYK images of ``size`` pixels, each page fitted to it
    (as :func:`.pagepng.render_pages` draws an RGB page), in the order asked."""
    program = ghostscript()
    if program is None:
        raise needs_ghostscript("a proof")
    wanted = sorted(set(pages))
    found: dict[int, Image.Image] = {}
    with tempfile.TemporaryDirectory(dir=scratch_folder("inks")) as folder:  # in the run's folder, gone with it
        source = Path(folder) / "print.pdf"
        source.write_bytes(pdf)
        first, last = wanted[0], wanted[-1]
        command = [
            program, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-g{size[0]}x{size[1]}",
            "-dFIXEDMEDIA", "-dPDFFitPage",
            f"-dFirstPage={first}", f"-dLastPage={last}", "-dGraphicsAlphaBits=4", "-dTextAlphaBits=4",
            f"-sOutputFile={Path(folder) / 'page-%d.tif'}", str(source),
        ]  # fmt: skip
        try:
            subprocess.run(command, capture_output=True, check=True, timeout=_TIMEOUT, env={**os.environ, "GS_LIB": ""})
        except (OSError, subprocess.SubprocessError) as exc:
            raise AetherpressError(Problem("command line", f"Ghostscript could not render the print file: {exc}")) from None
        for page in wanted:
            with Image.open(Path(folder) / f"page-{page - first + 1}.tif") as image:
                found[page] = image.convert("CMYK")
    return [found[page] for page in pages]


__all__ = ["ghostscript", "ink_pages", "needs_ghostscript"]
