"""Content digests of files, folders and of Aetherpress itself, each file hashed once per change.

A file's digest is the SHA-256 of its bytes, so a file saved again with the
same contents changes nothing.  Within a process (a build, or the preview
server that runs all day) digests are remembered by the file's identity
(path, size, modification time to the nanosecond, inode): a file that is
touched or rewritten is hashed again; one that is not is trusted, as
``make`` and ``git`` trust them.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from ..locations import PACKAGE_DIR, real

_KNOWN: dict[tuple, str] = {}
# the libraries whose versions change what Aetherpress draws
_DRAWING_LIBRARIES = ("reportlab", "svg2pdf-py", "jinja2", "svgwrite", "markdown", "pikepdf", "pillow", "pyphen", "numpy")


def digest(*parts: Any) -> str:
    """A SHA-256 of JSON-encodable ``parts`` (keys sorted, anything else by its ``repr``)."""
    text = json.dumps(parts, sort_keys=True, default=repr, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_MAX_DIGESTED_BYTES = 256_000_000


def file_digest(path: Path) -> str:
    """The SHA-256 of the file's bytes ("missing" when there is no such file; a device, a pipe or a folder
    is not read)."""
    try:
        st = path.stat()
    except OSError:
        return "missing"
    if not stat.S_ISREG(st.st_mode):
        return "not a file"
    if st.st_size > _MAX_DIGESTED_BYTES:  # known by its size and time, not read (a sparse file can claim terabytes)
        return f"large:{st.st_size}:{st.st_mtime_ns}"
    identity = (str(path), st.st_size, st.st_mtime_ns, st.st_ino)
    known = _KNOWN.get(identity)
    if known is None:
        sha = hashlib.sha256()
        try:
            with path.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    sha.update(block)
        except OSError:
            return "unreadable"
        known = _KNOWN[identity] = sha.hexdigest()
    return known


def digests_hold(reads: Any, folders: Sequence[Path]) -> bool:
    """Do the files a kept result was made with (``{path: digest}``) still have these digests?

    ``reads`` comes from a cache entry or an output folder's manifest, which whoever could write there may
    have made: it holds only when every file is inside one of ``folders`` (resolved)."""
    if not isinstance(reads, dict):
        return False
    for name, expected in reads.items():
        path = Path(str(name))
        if not isinstance(expected, str) or not path.is_absolute():
            return False
        if not any(real(path).is_relative_to(folder) for folder in folders) or file_digest(path) != expected:
            return False
    return True


Known = tuple[tuple[str, int, int, int], str]  # a file's identity (path, size, time, inode) and its digest


def note_written(path: Path, data: bytes) -> None:
    """Remember the digest of ``data``, just written at ``path``: a manifest need not read it back."""
    try:
        st = path.stat()
    except OSError:
        return
    if st.st_size == len(data):
        _KNOWN[(str(path), st.st_size, st.st_mtime_ns, st.st_ino)] = hashlib.sha256(data).hexdigest()


def known_digest(path: Path) -> Known | None:
    """The file's identity with its digest when this process knows it (wrote it, or read it whole), to hand to
    another process of the same build (see :func:`note_known`)."""
    try:
        st = path.stat()
    except OSError:
        return None
    identity = (str(path), st.st_size, st.st_mtime_ns, st.st_ino)
    found = _KNOWN.get(identity)
    return None if found is None else (identity, found)


def note_known(known: Known) -> None:
    """Remember the digest of a file another process of the build wrote (see :func:`known_digest`)."""
    identity, found = known
    _KNOWN[identity] = found


# Left out of a project's digest: what version control, Python and file browsers keep beside the files.
# Other hidden files count (a deck may name ".cards.csv", and a change to it must be seen).
_UNREAD = frozenset({".git", ".hg", ".svn", "__pycache__", ".DS_Store"})


def _walk(folder: Path, top: Path | None = None, seen: set[str] | None = None) -> Iterable[Path]:
    """Every file under ``folder``, sorted, following links that stay inside it, each folder once (links
    between folders could otherwise make the paths to walk grow exponentially)."""
    top = top or Path(os.path.realpath(folder))
    seen = set() if seen is None else seen
    real = os.path.realpath(folder)
    if real in seen or not Path(real).is_relative_to(top):
        return
    seen.add(real)
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name in _UNREAD:
            continue
        path = Path(entry.path)
        if entry.is_dir():
            yield from _walk(path, top, seen)
        elif entry.is_file() and (not entry.is_symlink() or Path(os.path.realpath(path)).is_relative_to(top)):
            yield path


def folder_digest(folders: Iterable[Path]) -> str:
    """One digest of every file under ``folders``: their paths and contents (version control and caches left out)."""
    sha = hashlib.sha256()
    for folder in folders:
        sha.update(f"[{folder}]\n".encode())
        for path in _walk(folder):
            sha.update(f"{path.relative_to(folder)}\0{file_digest(path)}\n".encode())
    return sha.hexdigest()


@cache
def code_digest() -> str:
    """Aetherpress's own code, fonts and profiles, and the versions of the libraries that draw."""
    versions: dict[str, str | None] = {}
    for name in _DRAWING_LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return digest(folder_digest([PACKAGE_DIR]), versions)
