"""The store: everything Aetherpress keeps between runs, and the one place that keeps anything.

A stage is a function of values; the pipeline asks the store for what a
stage makes: ``store.memo(kind, inputs, make)`` returns the kept value of
``kind`` for ``inputs`` when there is one that checks out, and otherwise
calls ``make()`` and keeps what it returns.  The key is always derived the
same way, from the kind, a digest of the inputs and the digest of
Aetherpress's own code (with the versions of the libraries that draw), so no
version is bumped by hand and no stage knows that anything is kept.

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

import copy
import errno
import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Generic, TypeVar

from ..locations import real
from ..project import Project
from ..project.digests import code_digest, digest
from ..project.files import (
    CannotWrite,
    check_writable,
    confined_folder,
    make_folder,
    open_regular,
    read_regular,
    replace_in,
    write_bytes,
    writing_into,
)
from ..project.seal import holds, opened_json, seal, sealed_json

log = logging.getLogger("aetherpress")
T = TypeVar("T")
DAMAGED = (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError)  # what a codec's load raises
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
    folder, cache = path.parent, project.cache_dir
    if not project.readings.get("cache folders", (folder, cache), lambda: _folder_inside(folder, cache)):
        raise OSError(errno.EXDEV, "a link out of the cache folder", str(path))
    if path.is_symlink():
        raise OSError(errno.ELOOP, "a link in the cache folder", str(path))
    return path


def _folder_inside(folder: Path, cache: Path) -> bool:
    """Does ``folder``, links resolved, lie in ``cache``?  (Worked out once per command for each kind's folder:
    an entry read through a folder linked later still has to carry the user's seal.)"""
    return real(folder).is_relative_to(real(cache))


def read_cached(project: Project, kind: str, key: str, load: Callable[[Any], T]) -> T | None:
    """``load`` of the data kept for ``kind``/``key`` if the entry is intact and ``load`` takes it; None otherwise."""
    path = project.cache_dir / kind / f"{key}.json"
    try:
        entry = opened_json(read_regular(_inside(project, path)), kind, key)  # the seal first, over the bytes
        if entry is not None and entry["key"] == key:
            return load(entry["data"])
    except (FileNotFoundError, NotADirectoryError):  # no entry (a file where a folder of the cache would be)
        return None
    except (OSError, *DAMAGED):
        pass
    log.info("the cached %s entry %s is damaged or out of date; working it out again", kind, key)
    return None


def _put(project: Project, kind: str, name: str, data: bytes) -> None:
    """Keep ``data`` as the entry ``name`` of ``kind``, whole or not at all.  Each kind's folder is made and
    confined (links resolved, inside the cache) once per command, as it is read (see :func:`_inside`); a
    folder gone since is made again, and a cache that cannot be written keeps nothing more (see :func:`keep`)."""
    if not keeping(project):
        return
    try:
        folder = project.readings.get("cache kind folders", (project.cache_dir, kind), lambda: _kind_folder(project, kind))
        replace_in(folder, name, data)
    except CannotWrite:
        keep(project, lambda cache: write_bytes(cache / kind / name, data))


def _kind_folder(project: Project, kind: str) -> Path:
    with writing_into(project.cache_dir):
        return confined_folder(make_folder(project.cache_dir / kind))


def write_cached(project: Project, kind: str, key: str, data: Any) -> None:
    _put(project, kind, f"{key}.json", sealed_json({"data": data, "key": key}, kind, key).encode("utf-8"))


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
    except (OSError, ValueError, KeyError, TypeError, RecursionError, OverflowError):
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
    header = json.dumps({"key": key, "seal": seal(kind, key, data)}).encode() + b"\n"
    _put(project, kind, f"{key}.bin", header + data)


def write_cached_parts(project: Project, kind: str, key: str, head: bytes, tail: bytes) -> None:
    """An entry of two parts: ``head`` (small) can be read alone, checked by a seal of its own; its length by
    another, checked before it says how much to read."""
    length = len(head)
    sealed = {"length": length, "length_seal": seal(kind, key, "head length", str(length)), "seal": seal(kind, key, "head", head)}
    write_cached_bytes(project, kind, key, json.dumps(sealed).encode() + b"\n" + head + tail)


def read_cached_head(project: Project, kind: str, key: str) -> bytes | None:
    """The head of an entry written by :func:`write_cached_parts`, read and checked without its tail."""
    return _read_entry(project, kind, key, _head)


def _head(kind: str, header: dict, handle: BinaryIO) -> bytes | None:
    """The head, once the seal on its length holds: nothing unsealed says how much is read (only the two header
    lines, each at most HEADER_BYTES, are read before a seal is checked)."""
    part = json.loads(handle.readline(HEADER_BYTES))
    length = part["length"]
    if type(length) is not int or not holds(part["length_seal"], kind, header["key"], "head length", str(length)):
        return None
    head = handle.read(length)
    return head if holds(part["seal"], kind, header["key"], "head", head) else None


def split_parts(data: bytes) -> tuple[bytes, bytes]:
    """(head, tail) of an entry's data as :func:`read_cached_bytes` returns it (checked whole)."""
    line, _, rest = data.partition(b"\n")
    length = json.loads(line)["length"]
    return rest[:length], rest[length:]


@dataclass(frozen=True)
class Codec(Generic[T]):
    """How the values of a kind are kept: ``dump`` makes JSON-ready data of a value, ``load`` the value of
    kept data (raising ValueError, KeyError or TypeError when the data is not one, or no longer current)."""

    dump: Callable[[T], Any]
    load: Callable[[Any], T]


def _same(value: Any) -> Any:
    return value


JSON: Codec[Any] = Codec(_same, _same)


class Store:
    """A project's store (see the module's text).  ``keep=False``: read what is kept, keep nothing new."""

    def __init__(self, project: Project, keep: bool = True):
        self.project = project
        self.keep = keep

    def reader(self) -> Store:
        """This store as one that reads what is kept and keeps nothing new (a check)."""
        found = copy.copy(self)
        found.keep = False
        return found

    @staticmethod
    def key(kind: str, inputs: Any) -> str:
        """The key of ``kind`` for ``inputs`` (JSON-ready data): the same inputs with the same code, the same key."""
        return digest(kind, code_digest(), inputs)

    def has(self, kind: str, key: str, binary: bool = False) -> bool:
        """Is an entry of ``kind`` kept under ``key``?  (Not yet checked: reading it does that.)"""
        return (self.project.cache_dir / kind / f"{key}.{'bin' if binary else 'json'}").is_file()

    def memo(self, kind: str, inputs: Any, make: Callable[[], T], codec: Codec[T] = JSON) -> T:
        """The kept value of ``kind`` for ``inputs`` if one checks out; else ``make()``, kept."""
        return self.memo_key(kind, self.key(kind, inputs), make, codec)

    def memo_key(self, kind: str, key: str, make: Callable[[], T], codec: Codec[T] = JSON) -> T:
        """:meth:`memo` for a key the caller made with :meth:`key` (to plan with it first)."""
        found = self.get(kind, key, codec)
        if found is None:
            found = make()
            self.put(kind, key, found, codec)
        return found

    def get(self, kind: str, key: str, codec: Codec[T] = JSON) -> T | None:
        return read_cached(self.project, kind, key, codec.load)

    def put(self, kind: str, key: str, value: T, codec: Codec[T] = JSON) -> None:
        if self.keep:
            write_cached(self.project, kind, key, codec.dump(value))

    def memo_bytes(self, kind: str, inputs: Any, make: Callable[[], bytes]) -> bytes:
        """:meth:`memo` for a value of bytes."""
        key = self.key(kind, inputs)
        found = read_cached_bytes(self.project, kind, key)
        if found is None:
            found = make()
            if self.keep:
                write_cached_bytes(self.project, kind, key, found)
        return found

    def get_parts(self, kind: str, key: str) -> tuple[bytes, bytes] | None:
        """The (head, tail) of an entry :meth:`put_parts` kept, checked whole; None when there is none."""
        found = read_cached_bytes(self.project, kind, key)
        try:
            return None if found is None else split_parts(found)
        except DAMAGED:
            return None

    def get_head(self, kind: str, key: str) -> bytes | None:
        """The head of an entry :meth:`put_parts` kept, read and checked without its tail."""
        return read_cached_head(self.project, kind, key)

    def put_parts(self, kind: str, key: str, head: bytes, tail: bytes) -> None:
        if self.keep:
            write_cached_parts(self.project, kind, key, head, tail)


IN_MEMORY = 4  # values a process keeps in memory (a worker's project contexts: one per build it has served)
_MEMORY: OrderedDict[tuple[str, Hashable], Any] = OrderedDict()  # the one thing a process keeps in memory


def in_memory(kind: str, key: Hashable, make: Callable[[], T]) -> T:
    """The value this process keeps for ``kind``/``key``, else ``make()``, kept (the last :data:`IN_MEMORY`).

    The only process-wide keeping: a build's worker keeps the project's context here between its tasks.
    """
    found = _MEMORY.get((kind, key))
    if found is None:
        return remember(kind, key, make())
    _MEMORY.move_to_end((kind, key))
    return found


def remember(kind: str, key: Hashable, value: T) -> T:
    """Keep ``value`` in this process's memory for ``kind``/``key`` (see :func:`in_memory`), in place of any other."""
    _MEMORY[(kind, key)] = value
    _MEMORY.move_to_end((kind, key))
    while len(_MEMORY) > IN_MEMORY:
        _MEMORY.popitem(last=False)
    return value
