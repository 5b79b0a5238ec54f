"""Aetherpress's temporary files: one folder a run, removed when the run ends.

What a run writes for itself alone (the fonts renamed for the print renderer,
say) goes in a folder of the system's temporary folder made for the run,
``aetherpress-<process id>-<random>``: made by the command's own process
before its workers start (:func:`run_folder`), so every worker's files go in it
too, each worker's in a folder of its own (:func:`scratch_folder`).  The run's
folder is removed when the process that made it ends, however it ends short of
being killed; and the first run to make one removes those that runs killed
before they could (their process gone), and the ``aetherpress-fonts-*``
folders of older versions, a day after they were last written.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Callable
from functools import cache
from multiprocessing import util
from pathlib import Path

_RUN = re.compile(r"aetherpress-(\d+)-[A-Za-z0-9_]+")
_OLDER = re.compile(r"aetherpress-fonts-[A-Za-z0-9_]+")  # what versions before runs had folders left behind
_OLDER_AGE = 24 * 3600  # seconds since an older version's folder was written, after which it is stale


@cache
def run_folder() -> Path:
    """This run's folder: made on first use (stale ones swept away first) and removed when this process ends."""
    sweep(Path(tempfile.gettempdir()))
    folder = Path(tempfile.mkdtemp(prefix=f"aetherpress-{os.getpid()}-"))
    owner = os.getpid()

    def remove() -> None:
        if os.getpid() == owner:  # a forked worker leaves its command's folder to the command
            shutil.rmtree(folder, ignore_errors=True)

    atexit.register(remove)  # the command's own process, ending as Python ends
    util.Finalize(None, remove, exitpriority=0)  # a process of a pool, which ends without atexit
    return folder


def scratch_folder(purpose: str) -> Path:
    """A folder of this run for ``purpose`` (``fonts``), this process's own: no two workers write one file."""
    folder = run_folder() / f"{purpose}-{os.getpid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def shared_folder(purpose: str) -> Path:
    """A folder of this run for ``purpose`` that its workers share: for files named by their content, each written
    under a name of its writer's own and then renamed into place (:func:`put_once`), so a file one worker made is
    used by the others as it is."""
    folder = run_folder() / purpose
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def put_once(target: Path, write: Callable[[Path], None]) -> Path:
    """``target``, written by ``write`` (given a path to write) unless it is there: whole or not at all, whatever
    another process of the run does at the same time."""
    if not target.is_file():
        part = target.with_name(f".{target.name}.{os.getpid()}")
        write(part)
        os.replace(part, target)
    return target


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # no such process (or no number a process could have)
        return True
    except PermissionError:  # another user's process
        return False
    return False


def sweep(temporary: Path) -> list[Path]:
    """Remove the folders of ``temporary`` that runs of this user left behind (see the module's text); the
    folders removed.  Links and other users' folders are never followed nor removed."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(temporary))
    except OSError:
        return removed
    for entry in entries:
        run, older = _RUN.fullmatch(entry.name), _OLDER.fullmatch(entry.name)
        if not (run or older):
            continue
        try:
            found = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
            continue
        if (run and _gone(int(run.group(1)))) or (older and time.time() - found.st_mtime > _OLDER_AGE):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
    return removed
