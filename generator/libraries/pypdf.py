"""pypdf's internals, the one place they are used: a written file without the random ``/ID`` pypdf gives it."""

from __future__ import annotations

from typing import Any

from pypdf import PdfWriter

__all__ = ["PRIVATE_NAMES", "without_id"]

# (owner, name): every private member used below, checked against the installed pypdf by a test
PRIVATE_NAMES: tuple[tuple[Any, str], ...] = ((PdfWriter, "_ID"),)


def without_id(writer: PdfWriter) -> None:
    """The file ``writer`` writes carries no ``/ID`` (pypdf makes one up from the time: the same pages, other bytes)."""
    writer._ID = None
