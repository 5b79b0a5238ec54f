"""The crests of the four Founding cards (drawn below)."""

from __future__ import annotations

from collections.abc import Callable

Layers = list[tuple[str, str]]
CRESTS: dict[str, Callable[[], Layers]] = {}
