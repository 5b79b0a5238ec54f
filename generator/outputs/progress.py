"""Progress of long jobs: a one-line bar on a terminal, nothing otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """A one-line bar on stderr, drawn only when stderr is a terminal (and not too often)."""

    def __init__(self, label: str, stream: TextIO | None = None):
        self.label = label
        self.stream = stream or sys.stderr
        self.active = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total <= 0:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = int(width * done / total)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r" + " " * (len(self.label) + 45) + "\r")
            self.stream.flush()
            self._drawn = False
