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


class InkJob:
    """Ghostscript rendering pages of a CMYK PDF as inks in a process of its own, started at once: the caller goes
    on with other work, then takes the pictures (:meth:`pages`) or gives them up (:meth:`close`)."""

    def __init__(self, pdf: bytes, pages: Sequence[int], size: tuple[int, int]):
        """The pages ``pages`` (1-based) of ``pdf``, each fitted to ``size`` pixels (as
        :func:`.pagepng.render_pages` draws an RGB page)."""
        program = ghostscript()
        if program is None:
            raise needs_ghostscript("a proof")
        self.asked = list(pages)
        self.drawn = sorted(set(self.asked))  # each page once, in the file's order: a deck's one back is drawn once
        self._folder = tempfile.TemporaryDirectory(dir=scratch_folder("inks"))  # in the run's folder, gone with it
        folder = Path(self._folder.name)
        source = folder / "print.pdf"
        source.write_bytes(pdf)
        command = [
            program, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-g{size[0]}x{size[1]}",
            "-dFIXEDMEDIA", "-dPDFFitPage",
            f"-sPageList={','.join(map(str, self.drawn))}", "-dGraphicsAlphaBits=4", "-dTextAlphaBits=4",
            f"-sOutputFile={folder / 'page-%d.tif'}", str(source),
        ]  # fmt: skip
        try:
            self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "GS_LIB": ""}
            )
        except OSError as exc:
            self.close()
            raise _failed(exc) from None

    def pages(self) -> list[Image.Image]:
        """The pages asked for, as CMYK images, in the order asked (waiting for Ghostscript to finish)."""
        process = self._process
        if process is None:
            raise ValueError("the ink job was closed")
        try:
            _, err = process.communicate(timeout=_TIMEOUT)
            if process.returncode != 0:
                raise subprocess.CalledProcessError(process.returncode, process.args, stderr=err)
            found: dict[int, Image.Image] = {}
            for n, page in enumerate(self.drawn, start=1):  # the files are numbered as the pages were drawn
                with Image.open(Path(self._folder.name) / f"page-{n}.tif") as image:
                    found[page] = image.convert("CMYK")
        except (OSError, subprocess.SubprocessError) as exc:
            raise _failed(exc) from None
        finally:
            self.close()
        return [found[page] for page in self.asked]

    def close(self) -> None:
        """Stop Ghostscript if it still runs and remove what it wrote."""
        process, self._process = getattr(self, "_process", None), None
        if process is not None and process.poll() is None:
            process.kill()
            process.communicate()
        self._folder.cleanup()


def _failed(exc: Exception) -> AetherpressError:
    return AetherpressError(Problem("command line", f"Ghostscript could not render the print file: {exc}"))


def ink_pages(pdf: bytes, pages: Sequence[int], size: tuple[int, int]) -> list[Image.Image]:
    """The pages ``pages`` (1-based) of the CMYK ``pdf`` as CMYK images of ``size`` pixels, each page fitted to it
    (as :func:`.pagepng.render_pages` draws an RGB page), in the order asked."""
    return InkJob(pdf, pages, size).pages()


__all__ = ["InkJob", "ghostscript", "ink_pages", "needs_ghostscript"]
