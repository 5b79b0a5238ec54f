"""Checking definition data against small declarative schemas, with places.

``Context`` collects the problems of one file, each with its key path and,
through a locator (``toml.TomlLocator``), its line.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..errors import AetherpressError, Problem
from ..project.readings import Readings

KeyPath = tuple  # of str | int


def format_path(path: Iterable) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        else:
            part = str(part)
            if not re.fullmatch(r"[A-Za-z0-9_-]+", part):
                part = '"' + part + '"'
            out += ("." if out else "") + part
    return out


class _Locator(Protocol):
    def line(self, path: KeyPath) -> int | None: ...


class Context:
    """Collects the problems of one input file."""

    def __init__(self, file: str, locator: _Locator | None = None):
        self.file = file
        self.locator = locator
        self.problems: list[Problem] = []
        self.folder: Path | None = None  # the folder relative paths in this file start from
        self.readings: Readings | None = None  # what the command has read of the project's files (pictures checked)

    def error(self, path: KeyPath | None, message: str, line: int | None = None) -> None:
        if line is None and path is not None and self.locator is not None:
            line = self.locator.line(path)
        key = format_path(path) if path else None
        self.problems.append(Problem(self.file, message, line, key))

    def raise_if_any(self) -> None:
        if self.problems:
            raise AetherpressError(self.problems)


@dataclass(frozen=True)
class Field:
    types: tuple[type, ...]
    required: bool = False
    item: type | None = None  # element type for lists

    def describe(self) -> str:
        names = {
            str: "a string",
            int: "a whole number",
            float: "a number",
            bool: "true or false",
            list: "a list",
            dict: "a table",
        }
        text = " or ".join(names[t] for t in self.types if t in names)
        if self.item is not None and list in self.types:
            text += f" (of {names[self.item].split(' ', 1)[1]}s)"
        return text


def field(*types: type, required: bool = False, item: type | None = None) -> Field:
    return Field(tuple(types), required, item)


def type_ok(value: Any, types: tuple[type, ...]) -> bool:
    for t in types:
        if t is bool:
            if isinstance(value, bool):
                return True
        elif t is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return True
        elif t is float:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return True
        elif isinstance(value, t):
            return True
    return False


_MAX_NUMBER = 1_000_000_000
_SUGGEST_LOOK = 2_000  # choices looked at for one unknown name
SUGGEST_FROM = 200  # of those, compared at most (after a cheap filter by length)
SUGGESTIONS = 50  # unknown names given a suggestion in one run; those after them get none


def number_problem(value: Any) -> str | None:
    """Why a number read from a file cannot be used (NaN, infinity, absurdly large), or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return f"must be a finite number, not {value}"
    if abs(value) > _MAX_NUMBER:
        return f"{value:g} is out of range (at most {_MAX_NUMBER:,} either way)"
    return None


class _Suggestions:
    """This run's suggestions so far, by the unknown name and the first choices it was looked up among."""

    made: dict[tuple[str, tuple[str, ...]], str] = {}


def suggestions_afresh() -> None:
    """Start a run's count of suggestions (a command, or the preview reading the definitions again)."""
    _Suggestions.made = {}


def suggest(name: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, if one is close.

    One name costs at most ``_SUGGEST_LOOK`` choices looked at and ``SUGGEST_FROM`` compared, and a run
    works out at most ``SUGGESTIONS`` of them (the same name met again, as when a file is read once per
    variant, gets the same answer without the work): with ``choices`` passed lazily (a generator), twenty
    thousand unknown names among twenty thousand choices cost a constant, not their product.
    """
    name = str(name)
    if not name or len(name) > 64:
        return ""
    choices = iter(choices)
    first = tuple(itertools.islice(choices, 8))
    key = (name, first)
    if key not in _Suggestions.made:
        if len(_Suggestions.made) >= SUGGESTIONS:
            return ""
        # difflib's ratio is at most 2 * shorter / (both lengths): a choice whose length is far off can never reach 0.6
        looked = itertools.islice(itertools.chain(first, choices), _SUGGEST_LOOK)
        near = [c for c in looked if 0.42 * max(len(c), len(name)) <= min(len(c), len(name))][:SUGGEST_FROM]
        close = difflib.get_close_matches(name, near, n=1, cutoff=0.6)
        _Suggestions.made[key] = f" (did you mean '{close[0]}'?)" if close else ""
    return _Suggestions.made[key]


def check_table(
    ctx: Context, data: Any, spec: dict[str, Field], path: KeyPath, what: str, extra: dict[str, Field] | None = None
) -> dict[str, Any]:
    """Check ``data`` against ``spec``; return only the keys that passed."""
    if not isinstance(data, dict):
        ctx.error(path, f"{what} must be a table")
        return {}
    allowed = dict(spec)
    allowed.update(extra or {})
    good: dict[str, Any] = {}
    suggested: set[str] = set()  # a required key a misspelt one was taken for is not told missing as well
    for key, value in data.items():
        if key not in allowed:
            hint = suggest(key, allowed)
            suggested.add(hint.partition("'")[2].rpartition("'")[0])
            ctx.error(path + (key,), f"unknown key '{key}' in {what}{hint}")
            continue
        rule = allowed[key]
        if not type_ok(value, rule.types):
            ctx.error(path + (key,), f"must be {rule.describe()}, not {type_name(value)}")
            continue
        problem = number_problem(value)
        if problem:
            ctx.error(path + (key,), problem)
            continue
        if isinstance(value, list) and rule.item is not None:
            bad = [i for i, v in enumerate(value) if not type_ok(v, (rule.item,)) or number_problem(v)]
            if bad:
                ctx.error(path + (key, bad[0]), f"must be {rule.describe()}, not {type_name(value[bad[0]])}")
                continue
        good[key] = value
    for key, rule in spec.items():
        if rule.required and key not in data and key not in suggested:
            ctx.error(path, f"missing required key '{key}' in {what}")
    return good


def type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    return {str: "a string", int: "a whole number", float: "a number", list: "a list", dict: "a table"}.get(
        type(value), type(value).__name__
    )
