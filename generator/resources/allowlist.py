"""The allow-list as data: ``allowlist.toml`` read once, for the sanitiser, the cleaner and the tests' matrix.

Every element, attribute, CSS property and picture a card may hold is listed
there once, each with the specimen the fidelity matrix draws to prove it
prints as the browser shows it (or the entry whose specimen shows it too).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

_FILE = Path(__file__).with_name("allowlist.toml")


@dataclass(frozen=True)
class Entry:
    """One allowed thing: ``kind`` (element, attribute, property, extra) and ``name``, and how the matrix shows it."""

    kind: str
    name: str
    specimen: str | None
    shown_by: str | None
    presentation: bool = True  # a property that is also a presentation attribute
    shows: tuple[str, ...] = ()  # an extra specimen: the entries it shows

    @property
    def key(self) -> str:
        return f"{self.kind}.{self.name}"


@dataclass(frozen=True)
class AllowList:
    entries: tuple[Entry, ...]
    inert_properties: frozenset[str]
    inert_elements: frozenset[str]
    initial: dict[str, tuple[str, ...]]  # property -> the values at which it draws as if absent
    formats: dict[str, tuple[str, ...]]  # picture format -> its magic numbers (hex, "." any digit)
    modes: dict[str, dict[str, Any]]  # picture mode -> its description

    def names(self, kind: str) -> frozenset[str]:
        return frozenset(e.name for e in self.entries if e.kind == kind)

    @property
    def elements(self) -> frozenset[str]:
        return self.names("element")

    @property
    def properties(self) -> frozenset[str]:
        return self.names("property")

    @property
    def presentation(self) -> frozenset[str]:
        return frozenset(e.name for e in self.entries if e.kind == "property" and e.presentation)

    @property
    def attributes(self) -> frozenset[str]:
        return self.names("attribute") | self.presentation

    def entry(self, key: str) -> Entry:
        return next(e for e in self.entries if e.key == key)


def _values(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else (str(value),)


@cache
def allow_list() -> AllowList:
    """The shipped allow-list (a file of the package: read once per process)."""
    with _FILE.open("rb") as handle:
        data = tomllib.load(handle)
    entries = []
    for kind in ("element", "attribute", "property", "extra"):
        for name, spec in data.get(kind, {}).items():
            entries.append(
                Entry(
                    kind,
                    name,
                    spec.get("specimen"),
                    spec.get("shown-by"),
                    bool(spec.get("presentation", True)),
                    tuple(spec.get("shows", ())),
                )
            )
    inert = data.get("inert", {})
    return AllowList(
        tuple(entries),
        frozenset(inert.get("properties", ())),
        frozenset(inert.get("elements", ())),
        {name: tuple(v.lower() for v in _values(value)) for name, value in inert.get("initial", {}).items()},
        {name: tuple(spec.get("magic", ())) for name, spec in data.get("picture-format", {}).items()},
        dict(data.get("picture-mode", {})),
    )


__all__ = ["AllowList", "Entry", "allow_list"]
