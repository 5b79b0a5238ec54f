"""Every file Aetherpress writes goes through here: confined to the chosen folders, written atomically.

A command names the folders it may write into (``writing_into``): the output
folder, the cache, a new project.  :func:`confine` refuses any path whose
folder, after resolving links, lies outside them, and any file name a file
system could misread.  Writes go to a temporary file beside the target and
are renamed into place, so a failed or interrupted write leaves whatever was
there before; a problem of the file system (no space, no permission) is one
line that names the file.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import os
import stat
import tempfile
from collections import OrderedDict
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import BinaryIO

from ..errors import AetherpressError, Problem, display_path
from ..locations import real
from .digests import note_written

_MAX_NAME_BYTES = 255
_FOLDERS_KEPT = 512


class _Roots:
    """The folders a command may write into, and the folders it wrote into with their links resolved, while each
    name still leads to the same directory (a cache writes a thousand files into one folder, and resolving is a
    system call per part of the path); a block inside another shares what the outer one resolved."""

    def __init__(self, roots: tuple[Path, ...], resolved: OrderedDict[tuple[str, int, int], Path] | None = None):
        self.roots = roots
        self.resolved: OrderedDict[tuple[str, int, int], Path] = OrderedDict() if resolved is None else resolved

    def resolve(self, folder: Path) -> Path:
        key = os.fspath(folder)
        try:
            st = os.stat(key)
        except OSError:
            return real(folder)
        identity = (key, st.st_dev, st.st_ino)
        found = self.resolved.get(identity)
        if found is None:
            found = self.resolved[identity] = real(folder)
            while len(self.resolved) > _FOLDERS_KEPT:
                self.resolved.popitem(last=False)
        return found


# where the command may write: a guard every writer consults, set by the command (not a memo of the project)
_ROOTS: ContextVar[_Roots | None] = ContextVar("aetherpress_write_roots", default=None)


@contextlib.contextmanager
def writing_into(*folders: Path) -> Iterator[None]:
    """Allow writes into ``folders`` (and below) for the duration of the block."""
    outer = _ROOTS.get()
    roots = tuple(real(folder) for folder in folders)
    token = _ROOTS.set(_Roots(roots, None) if outer is None else _Roots(outer.roots + roots, outer.resolved))
    try:
        yield
    finally:
        _ROOTS.reset(token)


class CannotWrite(AetherpressError):
    """The file system refused a write (no permission, no space, a file where a folder is needed)."""


def cannot_write(path: Path, exc: OSError) -> CannotWrite:
    """The one line for a file system problem while writing ``path``."""
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason = "no space left on the disk"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        reason = "not allowed to write there"
    elif exc.errno in (errno.ENOTDIR, errno.EEXIST):
        reason = "a file is in the way where a folder is needed"
    return CannotWrite(Problem(display_path(path), f"cannot write: {reason}"))


def confine(target: Path) -> Path:
    """``target`` if it may be written: its folder (links resolved) is inside an allowed folder."""
    return confined_folder(target.parent, target) / _file_name(target)


def confined_folder(folder: Path, target: Path | None = None) -> Path:
    """``folder`` with its links resolved, if files may be written in it (``target``: the file, for the message)."""
    allowed = _ROOTS.get()
    roots = allowed.roots if allowed is not None else ()
    if "\x00" in str(folder):
        raise AetherpressError(Problem(display_path(folder), "refusing to write into a folder of that name"))
    resolved = allowed.resolve(folder) if allowed is not None else real(folder)
    if not any(resolved == root or resolved.is_relative_to(root) for root in roots):
        where = ", ".join(display_path(r) for r in roots) or "no output folder"
        raise AetherpressError(Problem(display_path(target or folder), f"refusing to write outside the output folder ({where})"))
    return resolved


def _file_name(target: Path) -> str:
    name = target.name
    if not name or name in (".", "..") or "\x00" in name or len(name.encode("utf-8")) > _MAX_NAME_BYTES:
        raise AetherpressError(Problem(display_path(target.parent), f"refusing to write a file named '{name[:80]}'"))
    return name


def make_folder(folder: Path) -> Path:
    """Create ``folder`` (and its parents) inside an allowed folder."""
    confine(folder / "x")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(folder, exc) from None
    if not folder.is_dir():
        raise cannot_write(folder, OSError(errno.ENOTDIR, "not a folder"))
    return folder


def check_writable(folder: Path) -> Path:
    """``folder``, made (inside an allowed folder) if need be, once a file could be made in it; CannotWrite if not."""
    make_folder(folder)
    try:
        fd, name = tempfile.mkstemp(prefix=".aetherpress-probe.", dir=folder)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise cannot_write(folder, exc) from None
    return folder


@contextlib.contextmanager
def atomic_output(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target``."""
    target = confine(target)
    make_folder(target.parent)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name[:200]}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise cannot_write(target, exc) from None
    os.close(fd)
    tmp = Path(name)
    try:
        try:
            yield tmp
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        except OSError as exc:
            raise cannot_write(target, exc) from None
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text(target: Path, text: str) -> Path:
    with atomic_output(target) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return target


def write_fresh(target: Path, text: str, previous: Path | None = None, folder: Path | None = None) -> Path:
    """Write ``text`` into a folder no one reads yet (a staging folder, swapped in whole): no temporary file.

    When ``previous`` (the same file in the folder this one replaces) holds the same bytes, it is
    linked instead: a new name for data already on the disk, which the old folder's removal keeps.
    ``folder``: ``target``'s folder as :func:`confined_folder` gave it, when many files are written there.
    """
    data = text.encode("utf-8")
    same = previous if previous is not None and _same_file_bytes(previous, data) else None
    return _write_new(target, data, same, folder)


def link_same(target: Path, previous: Path, sha256: str, length: int, folder: Path | None = None) -> bool:
    """Give ``target`` (in a folder no one reads yet) the bytes of ``previous`` when they have this digest and
    length, linked as :func:`write_fresh` links them (or written); False, and nothing written, when they have not."""
    try:
        if previous.is_symlink() or previous.stat().st_size != length:
            return False
        data = previous.read_bytes()
    except OSError:
        return False
    if hashlib.sha256(data).hexdigest() != sha256:
        return False
    _write_new(target, data, previous, folder)
    return True


def _write_new(target: Path, data: bytes, same: Path | None, folder: Path | None) -> Path:
    """Write ``data`` at ``target``, linked from ``same`` (a file known to hold these bytes) where links work."""
    named = target
    target = confine(target) if folder is None else folder / _file_name(target)
    if same is not None:
        try:
            os.link(same, target, follow_symlinks=False)
            note_written(named, data)
            return target
        except OSError:
            pass  # no links here (another disk, another file system): write it
    try:
        target.write_bytes(data)
    except OSError as exc:
        raise cannot_write(target, exc) from None
    note_written(named, data)
    return target


def _same_file_bytes(path: Path, data: bytes) -> bool:
    try:
        return not path.is_symlink() and path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def write_bytes(target: Path, data: bytes) -> Path:
    with atomic_output(target) as tmp:
        tmp.write_bytes(data)
    return target


_PARTS = itertools.count()


def replace_in(folder: Path, name: str, data: bytes) -> None:
    """Write ``data`` as ``name`` in ``folder``, whole or not at all, as :func:`atomic_output` writes: for a folder
    that :func:`confined_folder` gave and :func:`make_folder` made already (the store writes thousands of entries
    into a few folders, each confined once per command), so the folder is not resolved again for every file."""
    name = _file_name(Path(name))
    part = folder / f".{name[:200]}.{os.getpid()}.{next(_PARTS)}.part"
    try:
        handle = os.open(
            part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0), 0o644
        )
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(handle, 0o644)  # as atomic_output leaves a file, whatever the umask
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view) :]
        finally:
            os.close(handle)
        os.replace(part, folder / name)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise cannot_write(folder / name, exc) from None


_MAX_KEPT_BYTES = 200_000_000  # a cache entry or manifest larger than this is not one of ours


def open_regular(path: Path, limit: int = _MAX_KEPT_BYTES) -> BinaryIO:
    """``path`` opened for reading when it is a regular file (links followed) of at most ``limit`` bytes;
    OSError otherwise.  Kept files (cache entries, manifests) may have been put there by anyone: a FIFO
    would keep the reader waiting and a device might never end."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, and is then refused
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > limit:
            raise OSError(errno.EINVAL, "not a regular file of a sensible size", str(path))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path, limit: int = _MAX_KEPT_BYTES) -> bytes:
    """The bytes of ``path`` (see :func:`open_regular`)."""
    with open_regular(path, limit) as handle:
        return handle.read(limit + 1)
