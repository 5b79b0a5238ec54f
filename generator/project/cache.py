"""Derived data kept between runs (counted odds, found example hands), trusted only when it checks out.

Each entry is a file named by the key of what it was derived from, and
carries that key and the user's seal on its kind, key and content (see
:mod:`.seal`).  An entry that is missing, unreadable, of another key,
altered, sealed by someone else, or inconsistent by the caller's own check
is ignored (and, with ``--verbose``, said so); the caller derives the data
again and the entry is rewritten.

When the cache folder cannot be written (a read-only project, a file in its
place), nothing is kept: every command still works, doing the work each
time, and with ``--verbose`` says so once, with the way to choose a cache
folder it may write (``AETHERPRESS_CACHE_DIR``).
"""

from __future__ import annotations

import errno
import json
import logging
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

from ..locations import real
from .files import CannotWrite, check_writable, open_regular, read_regular, write_bytes, write_text, writing_into
from .project import Project
from .seal import holds, opened_json, seal, sealed_json

log = logging.getLogger("aetherpress")
HEADER_BYTES = 4096  # a binary entry's header lines (a key and a seal) are read at most this long


def keeping(project: Project) -> bool:
    """Can entries be kept in the project's cache?  Found out once, by making the folder and a file in it."""
    if project.keeps is None:
        folder = project.cache_dir
        try:
            with writing_into(folder):
                check_writable(folder)
        except CannotWrite as exc:
            _stop_keeping(project, exc)
        else:
            project.keeps = True
    return bool(project.keeps)


def _stop_keeping(project: Project, exc: CannotWrite) -> None:
    project.keeps = False
    log.info("%s; nothing is kept for later runs (choose a cache folder with AETHERPRESS_CACHE_DIR)", exc.problems[0])


def keep(project: Project, write: Callable[[Path], object]) -> None:
    """``write(cache folder)``, if the cache can be written; once it cannot, nothing more is kept."""
    if not keeping(project):
        return
    try:
        with writing_into(project.cache_dir):
            write(project.cache_dir)
    except CannotWrite as exc:
        _stop_keeping(project, exc)


def _inside(project: Project, path: Path) -> Path:
    """``path`` when it lies in the cache folder and is no link (a kind's folder linked elsewhere is not read)."""
    if not _folder_inside(path.parent, project.cache_dir):
        raise OSError(errno.EXDEV, "a link out of the cache folder", str(path))
    if path.is_symlink():
        raise OSError(errno.ELOOP, "a link in the cache folder", str(path))
    return path


@lru_cache(maxsize=64)
def _folder_inside(folder: Path, cache: Path) -> bool:
    """Does ``folder``, links resolved, lie in ``cache``?  (Worked out once per process for each kind's folder:
    an entry read through a folder linked later still has to carry the user's seal.)"""
    return real(folder).is_relative_to(real(cache))


def read_cached(project: Project, kind: str, key: str, valid: Callable[[Any], bool]) -> Any | None:
    """The cached data of ``kind``/``key`` if it is intact and ``valid``; None otherwise."""
    path = project.cache_dir / kind / f"{key}.json"
    try:
        entry = opened_json(read_regular(_inside(project, path)), kind, key)  # the seal first, over the bytes
        intact = entry is not None and entry["key"] == key and valid(entry["data"])
    except (FileNotFoundError, NotADirectoryError):  # no entry (a file where a folder of the cache would be)
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError):
        intact = False
    if not intact:
        log.info("the cached %s entry %s is damaged or out of date; working it out again", kind, key)
        return None
    return entry["data"] if entry is not None else None


def write_cached(project: Project, kind: str, key: str, data: Any) -> None:
    def write(cache: Path) -> None:
        write_text(cache / kind / f"{key}.json", sealed_json({"data": data, "key": key}, kind, key))

    keep(project, write)


def _read_entry(project: Project, kind: str, key: str, take: Callable[[str, dict, BinaryIO], bytes | None]) -> bytes | None:
    """What ``take`` reads of the entry after its header (None when that does not check out); None, and
    (with ``--verbose``) a word, when the entry is missing, of another key or damaged."""
    path = project.cache_dir / kind / f"{key}.bin"
    try:
        with open_regular(_inside(project, path)) as handle:
            header = json.loads(handle.readline(HEADER_BYTES))
            found = take(kind, header, handle) if header["key"] == key else None
    except (FileNotFoundError, NotADirectoryError):  # no entry (a file where a folder of the cache would be)
        return None
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        found = None
    if found is None:
        log.info("the cached %s entry %s is damaged; making it again", kind, key)
    return found


def read_cached_bytes(project: Project, kind: str, key: str) -> bytes | None:
    """The cached bytes of ``kind``/``key`` if the entry is intact; None otherwise."""
    return _read_entry(project, kind, key, _whole)


def _whole(kind: str, header: dict, handle: BinaryIO) -> bytes | None:
    data = handle.read()
    return data if holds(header["seal"], kind, header["key"], data) else None


def write_cached_bytes(project: Project, kind: str, key: str, data: bytes) -> None:
    def write(cache: Path) -> None:
        header = json.dumps({"key": key, "seal": seal(kind, key, data)}).encode() + b"\n"
        write_bytes(cache / kind / f"{key}.bin", header + data)

    keep(project, write)


def write_cached_parts(project: Project, kind: str, key: str, head: bytes, tail: bytes) -> None:
    """An entry of two parts: ``head`` (small) can be read alone, checked by a seal of its own."""
    part = json.dumps({"length": len(head), "seal": seal(kind, key, "head", head)}).encode() + b"\n"
    write_cached_bytes(project, kind, key, part + head + tail)


def read_cached_head(project: Project, kind: str, key: str) -> bytes | None:
    """The head of an entry written by :func:`write_cached_parts`, read and checked without its tail."""
    return _read_entry(project, kind, key, _head)


def _head(kind: str, header: dict, handle: BinaryIO) -> bytes | None:
    part = json.loads(handle.readline(HEADER_BYTES))
    head = handle.read(part["length"])
    return head if holds(part["seal"], kind, header["key"], "head", head) else None


def split_parts(data: bytes) -> tuple[bytes, bytes]:
    """(head, tail) of an entry's data as :func:`read_cached_bytes` returns it (checked whole)."""
    line, _, rest = data.partition(b"\n")
    length = json.loads(line)["length"]
    return rest[:length], rest[length:]
