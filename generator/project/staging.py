"""Folders written whole: built beside their target, then swapped in at once.

A build writes each deck's folder (and the rulebooks folder) into a staging
folder beside it.  Only when every folder of the job is complete are they
swapped in, each with one atomic exchange of names, so after any failure,
interrupt or kill a folder holds either its complete old or its complete new
contents.  Each folder keeps a manifest of the files Aetherpress wrote there:
files it wrote before and did not write this time (a renamed or removed
card) are left behind with the old folder; files it never wrote (a designer's
own notes, a print shop's proof) are carried into the new one.  What the
manifest says a folder was built from is believed only under the user's
seal (:mod:`.seal`): a folder that arrived with a project is built again.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .digests import digests_hold, file_digest
from .files import cannot_write, confine, make_folder, read_regular, write_text
from .seal import MAX_KEPT_JSON, opened_json, sealed_json

MANIFEST = ".aetherpress-manifest.json"
_STAGING_PREFIX = ".aetherpress-staging-"
_OLD_PREFIX = ".aetherpress-old-"
_UNVERIFIED = "unverified"  # where files of a folder without the user's seal are kept


def _exchange(a: Path, b: Path) -> bool:
    """Swap the names of two existing paths in one step (Linux renameat2); False where that is not possible."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return bool(result == 0)


def _manifest(folder: Path) -> dict:
    """The folder's manifest when it carries the user's seal (see :mod:`.seal`); otherwise an empty one:
    what it says cannot be told from what anyone could have written.  A manifest larger than any Aetherpress
    writes is refused by its size, before it is read, and its seal is checked over its bytes before they
    are parsed."""
    try:
        data = opened_json(read_regular(folder / MANIFEST, MAX_KEPT_JSON), MANIFEST)
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _read_manifest(folder: Path) -> set[str] | None:
    """The files Aetherpress wrote in ``folder``, as its sealed manifest lists them; None when it has none."""
    files = _manifest(folder).get("files")
    return {str(p) for p in files} if isinstance(files, list) else None


def read_key(folder: Path) -> str | None:
    """The key the folder was last built from, if it records one under the user's seal."""
    key = _manifest(folder).get("key")
    return key if isinstance(key, str) else None


def unchanged(target: Path, key: str, pictures: Sequence[Path]) -> list[str] | None:
    """The files of ``target`` when it was built from ``key`` and every file it was built with is intact
    (the pictures it was drawn with are believed only inside ``pictures``, the folders they may be in)."""
    data = _manifest(target)  # read once: what is checked is what was sealed
    digests, reads = data.get("sha256"), data.get("reads", {})
    if target.is_symlink() or data.get("key") != key or not isinstance(digests, dict) or not isinstance(reads, dict):
        return None
    for name, expected in digests.items():
        path = target / name
        if Path(name).is_absolute() or ".." in Path(name).parts or path.is_symlink() or file_digest(path) != expected:
            return None  # a manifest names only files inside its own folder
    if not digests_hold(reads, pictures):
        return None  # a picture the folder was drawn with has changed
    return sorted(digests)


def _remove(path: Path) -> None:
    """Remove a folder we made, or a link in its place (never what a link points to)."""
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.exists():
        _remove_tree(path)


def _entries(folder: Path) -> tuple[list[str], list[Path]]:
    """(every file or link under ``folder``, relative to it, sorted; every folder under it, outermost first),
    however deep (walked without recursion), links to folders not followed."""
    files: list[str] = []
    folders: list[Path] = []
    waiting = [folder]
    while waiting:
        current = waiting.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                folders.append(Path(entry.path))
                waiting.append(Path(entry.path))
            elif entry.is_symlink() or entry.is_file(follow_symlinks=False):
                files.append(str(Path(entry.path).relative_to(folder)))
    return sorted(files), folders


def _files(folder: Path) -> list[str]:
    return _entries(folder)[0]


def _remove_tree(folder: Path) -> None:
    """Remove ``folder`` and all under it, however deep (``shutil.rmtree`` recurses, and a thousand nested
    folders stop it); what cannot be removed is left."""
    files, folders = _entries(folder)
    for name in files:
        with contextlib.suppress(OSError):
            (folder / name).unlink()
    for inner in [*reversed(folders), folder]:
        with contextlib.suppress(OSError):
            inner.rmdir()


def _running(name: str) -> bool:
    """Does the build that made this staging folder still run?  (Its process id is in the name.)"""
    try:
        pid = int(name.rsplit("-", 2)[1])
        os.kill(pid, 0)
    except (ValueError, IndexError, OverflowError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def _recover(parent: Path) -> None:
    """Put back a folder whose swap was cut short, and remove staging folders a killed build left."""
    if not parent.is_dir():
        return
    for entry in parent.iterdir():
        if entry.name.startswith(_OLD_PREFIX) and (entry / MANIFEST).exists():
            name = entry.name[len(_OLD_PREFIX) :].rsplit("-", 1)[0]
            target = parent / name
            if not target.exists() and not target.is_symlink():
                os.replace(entry, target)
            else:
                _remove(entry)
        elif entry.name.startswith(_STAGING_PREFIX) and not _running(entry.name):
            _remove(entry)


class Staged:
    """One folder being rebuilt: written into ``self.folder``, swapped in by :meth:`commit`."""

    def __init__(self, target: Path, keeps: Callable[[str], bool] | None = None):
        """``keeps``: which of the files Aetherpress wrote in the old folder stay in the new one when they are not
        written again (another print shop's files, when an export makes one shop's)."""
        self.target = target
        self.keeps = keeps or (lambda name: False)
        self.key: str | None = None  # what the folder is built from, when the builder knows it (see unchanged)
        self.reads: dict[str, str] = {}  # files it was built from beyond what the key covers, with their digests
        missing = [f for f in (target, *target.parents) if not f.exists() and not f.is_symlink()]
        self.created = missing[-1] if missing else None  # the outermost folder this stage makes
        make_folder(target.parent)
        _recover(target.parent)
        self.folder = confine(target.parent / f"{_STAGING_PREFIX}{target.name}-{os.getpid()}-{secrets.token_hex(4)}")
        make_folder(self.folder)

    def _carry_over(self) -> list[str]:
        """Files in the old folder that Aetherpress did not write go into the new one, and those it wrote that
        ``keeps`` names (returned: they are still Aetherpress's).

        Which those are, only a manifest under the user's seal can say.  A folder without one (made by
        another user, elsewhere, or by a version before the seal) may hold files put there to pass for
        ours: its files that this build does not write again are kept, but in ``unverified/``, never
        under the names Aetherpress writes.
        A link in place of the old folder is not followed: whatever it points to is not ours to read.
        """
        if self.target.is_symlink() or not self.target.is_dir():
            return []
        listed = _read_manifest(self.target)
        ours = listed or set()
        still_ours = []
        for name in _files(self.target):
            if name == MANIFEST or (self.folder / name).exists() or (name in ours and not self.keeps(name)):
                continue
            kept = name if listed is not None or name.startswith(_UNVERIFIED + "/") else f"{_UNVERIFIED}/{name}"
            source, copy = self.target / name, self.folder / kept
            copy.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(source, copy, follow_symlinks=False)
            except OSError:
                shutil.copy2(source, copy, follow_symlinks=False)
            if name in ours:
                still_ours.append(name)
        return still_ours

    def commit(self) -> None:
        written = _files(self.folder)
        try:
            written = sorted({*written, *self._carry_over()})
            manifest: dict = {"files": written}
            if self.key is not None:
                manifest["key"] = self.key
                manifest["sha256"] = {name: file_digest(self.folder / name) for name in written}
                manifest["reads"] = dict(sorted(self.reads.items()))
            write_text(self.folder / MANIFEST, sealed_json(manifest, MANIFEST))
            if (self.target.is_dir() or self.target.is_symlink()) and _exchange(self.folder, self.target):
                _remove(self.folder)  # now the old contents (or the link that stood there)
                return
            if self.target.exists() or self.target.is_symlink():
                old = self.target.parent / f"{_OLD_PREFIX}{self.target.name}-{secrets.token_hex(4)}"
                os.replace(self.target, old)
                os.replace(self.folder, self.target)
                _remove(old)
            else:
                os.replace(self.folder, self.target)
        except OSError as exc:
            self.abort()
            raise cannot_write(self.target, exc) from None

    def abort(self) -> None:
        _remove(self.folder)
        if self.created is not None and self.created.is_dir() and not _files(self.created):
            _remove_tree(self.created)  # leave no empty folders behind


@contextmanager
def staged_folders() -> Iterator[dict[Path, Staged]]:
    """Stage any number of folders; all are swapped in when the block ends well, none otherwise."""
    stages: dict[Path, Staged] = {}
    try:
        yield stages
    except BaseException:
        for stage in stages.values():
            stage.abort()
        raise
    for stage in stages.values():
        stage.commit()


def stage(stages: dict[Path, Staged], target: Path, keeps: Callable[[str], bool] | None = None) -> Path:
    """The staging folder standing in for ``target`` (made on first use; ``keeps``: see :class:`Staged`)."""
    if target not in stages:
        stages[target] = Staged(target, keeps)
    return stages[target].folder
