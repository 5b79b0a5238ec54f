"""Which files are a project's sources, and their changes as they are saved (through ``watchfiles``).

The sources are every layer's decks (with their card lists and pictures),
templates, styles, presets, fonts and icons.  The project folder is
watched as a whole, so a folder made after the start (``icons/``) is seen
too; the output folder and the cache, hidden files and editors' temporary
files are left out, so a build writing its output never wakes the watcher.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import watchfiles

from ..project import Project

_DEBOUNCE_MS = 400  # at most this long to gather one burst of saves (an editor writing several files)
_QUIET_MS = 30  # a burst ends after this long without changes
_LISTENING_MS = 500  # the watcher wakes this often even without changes, to see whether it should stop
_EDITOR_LEFTOVERS = ("~", ".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload")


def _source_folders(project: Project) -> list[Path]:
    """The folders whose files a deck may be drawn from, every layer's, resolved."""
    folders: list[Path] = []
    for layer in project.layers:
        root = layer.root
        folders += [layer.decks, layer.templates, layer.styles, layer.presets, layer.fonts, root / "icons"]
    return list(dict.fromkeys(Path(os.path.realpath(f)) for f in folders))


def watch_roots(project: Project) -> list[Path]:
    """What to hand the watcher: the project folder, and the built-in folders outside it; only those that exist."""
    candidates = ([Path(os.path.realpath(project.root))] if project.root is not None else []) + _source_folders(project)
    roots: list[Path] = []
    for folder in candidates:
        if folder.is_dir() and not any(folder == r or folder.is_relative_to(r) for r in roots):
            roots = [r for r in roots if not r.is_relative_to(folder)] + [folder]
    return roots


class SourceFilter:
    """A ``watchfiles`` filter: changes to a project's sources, nothing written by Aetherpress or an editor's scratch."""

    def __init__(self, project: Project):
        self.sources = _source_folders(project)
        self.ignored = [Path(os.path.realpath(project.output_dir)), Path(os.path.realpath(project.cache_dir))]

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        return self.wanted(Path(path))

    def wanted(self, path: Path) -> bool:
        name = path.name
        if name.endswith(_EDITOR_LEFTOVERS) or name == "4913" or name.startswith((".#", "#")):
            return False
        if any(path == f or path.is_relative_to(f) for f in self.ignored):
            return False
        for folder in self.sources:
            if path == folder or path.is_relative_to(folder):
                inside = path.relative_to(folder).parts
                return not any(part.startswith(".") or part == "__pycache__" for part in inside)
        return False


def sources_state(project: Project) -> dict[Path, tuple[int, int]]:
    """Each source file's modification time and size, as they are now: what a save would change."""
    wanted = SourceFilter(project).wanted
    state: dict[Path, tuple[int, int]] = {}
    for folder in _source_folders(project):
        for directory, folders, files in os.walk(folder):
            here = Path(directory)
            folders[:] = sorted(f for f in folders if wanted(here / f))
            for name in files:
                path = here / name
                if wanted(path):
                    try:
                        status = path.stat()
                    except OSError:
                        continue
                    state[path] = (status.st_mtime_ns, status.st_size)
    return state


def _changed_since(project: Project, before: dict[Path, tuple[int, int]]) -> set[Path]:
    """The source files saved, made or removed since ``before`` was taken."""
    now = sources_state(project)
    return {path for path in before.keys() | now.keys() if before.get(path) != now.get(path)}


def changes(
    project: Project, stop: threading.Event | None = None, since: dict[Path, tuple[int, int]] | None = None
) -> Iterator[set[Path]]:
    """The paths of each burst of saves to the project's sources, until ``stop`` is set (or Ctrl-C).

    The watcher only hears saves made once it is listening.  Given ``since``
    (``sources_state`` taken earlier, before a first build), the saves made
    between then and the moment it listens come as the first burst.
    """
    roots = watch_roots(project)
    for batch in watchfiles.watch(
        *roots,
        watch_filter=SourceFilter(project),
        debounce=_DEBOUNCE_MS,
        step=_QUIET_MS,
        stop_event=stop,
        rust_timeout=_LISTENING_MS,
        yield_on_timeout=True,
    ):
        if since is not None:  # listening now: anything saved before it started is caught up here
            missed = _changed_since(project, since) - {Path(path) for _, path in batch}
            since = None
            if missed:
                yield missed
        if batch:
            yield {Path(path) for _, path in batch}
