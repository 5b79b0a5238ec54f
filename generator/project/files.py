"""Writing files safely: a temporary file in the target folder, renamed into place.

A failed or interrupted write leaves whatever was there before untouched.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def atomic_output(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text(target: Path, text: str) -> Path:
    with atomic_output(target) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return target


def write_bytes(target: Path, data: bytes) -> Path:
    with atomic_output(target) as tmp:
        tmp.write_bytes(data)
    return target
