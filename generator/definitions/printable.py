"""Characters no card, sheet or book can hold: the control characters that XML, and so SVG, forbids."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that no card can print, as ``U+0000``; None when there is none."""
    found = UNPRINTABLE.search(text)
    return f"U+{ord(found.group()):04X}" if found else None


def unprintable_values(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(key path, character) of every string in ``data`` (tables, lists, keys) holding a character no card can print."""
    if isinstance(data, str):
        if (char := unprintable(data)) is not None:
            yield path, char
    elif isinstance(data, dict):
        for key, value in data.items():
            if (char := unprintable(str(key))) is not None:
                yield (*path, key), char
            yield from unprintable_values(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from unprintable_values(value, (*path, index))
