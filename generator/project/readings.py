"""What one command has read of a project's files, kept while those files stay the same.

A value made from files of the project (its size and paper presets, its own
fonts, its icons, a card picture's check, the templates' environment) is
kept here by kind, under the stamps of the files it was read from (path,
size, time of change), the last few of each kind.  Each :class:`~.Project`
has its own, and a command makes one project (and one project context over
it, see :mod:`generator.pipeline.context`): what is kept lasts as long as the
command, and a long one (the preview, ``build --watch``) reads a file again
once its stamp changes.  This, the store on disk and the digests of files by
their identity are the only places that keep what a project's file says: no
function keeps a process-wide cache of it (``tests/test_architecture.py``
checks that).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
KEPT = 256  # values kept of each kind (a project has a few presets files, fonts and template folders, some icons)


class Readings:
    """The values made from a project's files, by kind and by the stamps of the files (see the module's text)."""

    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self._kinds: dict[str, OrderedDict[Hashable, Any]] = {}
        self._lock = threading.Lock()  # the preview's threads read the project side by side

    def get(self, kind: str, stamps: Hashable, make: Callable[[], T]) -> T:
        """The value of ``kind`` kept under ``stamps``, else ``make()``, kept (a failure keeps nothing)."""
        with self._lock:
            values = self._kinds.setdefault(kind, OrderedDict())
            if stamps in values:
                values.move_to_end(stamps)
                found: T = values[stamps]
                return found
        made = make()
        with self._lock:
            values[stamps] = made
            while len(values) > self.kept:
                values.popitem(last=False)
        return made

    def __len__(self) -> int:
        return sum(len(values) for values in self._kinds.values())

    def __getstate__(self) -> dict:
        """A project sent to another process starts with nothing read (its values need not pickle)."""
        return {"kept": self.kept}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["kept"])  # type: ignore[misc]
