"""``--watch``: run a command again after every save to the project's sources, until Ctrl-C."""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable

from ..definitions.schema import suggestions_afresh
from ..errors import AetherpressError, display_path
from ..preview.watcher import changes, sources_state
from ..project import Project
from . import print_problems


def rebuild_on_save(project: Project, build: Callable[[], int]) -> int:
    """Run ``build`` now and after every burst of saves; a problem is printed and watching goes on.

    Ctrl-C (or SIGTERM) ends it with status 130, quietly: a build it
    interrupts leaves its output folders as they were.
    """
    try:
        before = sources_state(project)  # a save during the first build is built after it
        _attempt(build)
        print("watching for changes (Ctrl-C stops)", file=sys.stderr, flush=True)
        for paths in changes(project, since=before):
            names = ", ".join(sorted(display_path(p) for p in paths)[:3]) + (" ..." if len(paths) > 3 else "")
            print(f"changed: {names}", file=sys.stderr, flush=True)
            _attempt(build)
    except KeyboardInterrupt:
        for child in multiprocessing.active_children():  # a build's workers, if it was stopped in the middle
            child.terminate()
        return 130
    return 0


def _attempt(build: Callable[[], int]) -> None:
    suggestions_afresh()  # each build its own count of "did you mean"
    try:
        build()
    except AetherpressError as exc:
        print_problems(exc)
    sys.stdout.flush()
