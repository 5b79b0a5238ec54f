"""Paths a definition names, kept inside the folders it may read."""

from __future__ import annotations

from pathlib import Path

from ..locations import real


def inside(path: Path, *folders: Path) -> bool:
    """Is ``path`` (links resolved) inside one of ``folders``?"""
    resolved = real(path)
    return any(resolved.is_relative_to(real(folder)) for folder in folders)


def safe_join(base: Path, relative: str, *allowed: Path) -> Path | None:
    """``base / relative`` if it stays inside ``allowed`` (default: ``base``), else None.

    Absolute paths, drive letters, ``..`` escapes and links that lead outside are refused.
    """
    if not relative or "\x00" in relative or Path(relative).is_absolute() or relative.startswith(("/", "\\")) or ":" in relative:
        return None
    path = base / relative
    if ".." in Path(relative).parts or not inside(path, *(allowed or (base,))):
        return None
    return path
