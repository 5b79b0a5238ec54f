"""Reading TOML definition files, with the line of every key for messages."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from ..errors import AetherpressError, Problem, display_path
from ..project.files import read_regular
from .printable import unprintable_values
from .schema import Context, KeyPath

_MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 16  # tables and lists inside each other
# a key of more parts than that (a.b.c...): the TOML reader's time and memory grow with the square of them
_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')[ \t]*\.[ \t]*"""
_DEEP_KEY = re.compile(r"^[ \t]*\[{0,2}[ \t]*(?:" + _PART + "){" + str(MAX_DEPTH) + "}", re.M)

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*=")


def _split_dotted(text: str) -> list[str]:
    parts = re.findall(r"\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+", text)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


class _TomlLocator:
    """Maps key paths to line numbers in a TOML document (best effort)."""

    def __init__(self, text: str):
        self.lines: dict[KeyPath, int] = {}
        counters: dict[KeyPath, int] = {}
        table: KeyPath = ()
        for number, line in enumerate(text.splitlines(), start=1):
            header = _HEADER.match(line)
            if header and not _KEY.match(line):
                names = _split_dotted(header.group(2))
                path = self._resolve(names, counters)
                if header.group(1) == "[[":
                    index = counters.get(path, -1) + 1
                    counters[path] = index
                    path = path + (index,)
                table = path
                self._place(table, number)
                continue
            key = _KEY.match(line)
            if key:
                self._place(table + tuple(_split_dotted(key.group(1))), number)

    def _place(self, path: KeyPath, number: int) -> None:
        """``path`` and the tables it opens on the way (``[edition.fr.style]`` opens ``edition.fr``) at line
        ``number``, unless they were placed earlier."""
        for end in range(len(path), 0, -1):
            if self.lines.setdefault(path[:end], number) != number:
                break

    def _resolve(self, names: list[str], counters: dict[KeyPath, int]) -> KeyPath:
        path: KeyPath = ()
        for name in names:
            path = path + (name,)
            if path in counters and name is not names[-1]:
                path = path + (counters[path],)
        return path

    def line(self, path: KeyPath) -> int | None:
        path = tuple(path)
        while path:
            for candidate in (path, path + (0,)):
                if candidate in self.lines:
                    return self.lines[candidate]
            path = path[:-1]
        return None


def read_toml(path: Path) -> tuple[dict[str, Any], Context]:
    """The data of a TOML file and a context that places its keys; problems name the file."""
    name = display_path(path)
    try:
        if path.stat().st_size > _MAX_FILE_BYTES:
            raise AetherpressError(
                Problem(name, f"file is larger than {_MAX_FILE_BYTES // 1_000_000} MB; split it or shorten its texts")
            )
        raw = read_regular(path, _MAX_FILE_BYTES)  # a FIFO or a device is refused, not read
    except OSError as exc:
        raise AetherpressError(Problem(name, f"cannot read file ({exc.strerror})")) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise AetherpressError(Problem(name, "file is not UTF-8 text; save it as UTF-8", line)) from None
    deep = _DEEP_KEY.search(text)
    if deep:
        line = text.count("\n", 0, deep.start()) + 1
        raise AetherpressError(
            Problem(name, f"a key of more than {MAX_DEPTH} dotted parts; tables nest at most {MAX_DEPTH} deep", line)
        )
    deepest = _deep_brackets(text)
    if deepest is not None:
        raise AetherpressError(Problem(name, f"tables and lists are nested more than {MAX_DEPTH} deep", deepest))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        at = int(match.group(1)) if match else None
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        if match:
            message += f" at column {match.group(2)}"
        if message.startswith("Illegal character '\\n'"):
            message += ' (a string not closed on its line? every "..." needs its closing quote)'
        raise AetherpressError(Problem(name, f"TOML syntax error: {message}", at)) from None
    except RecursionError:
        raise AetherpressError(Problem(name, f"tables and lists are nested more than {MAX_DEPTH} deep")) from None
    if _depth(data) > MAX_DEPTH:
        raise AetherpressError(Problem(name, f"tables and lists are nested more than {MAX_DEPTH} deep"))
    context = Context(name, _TomlLocator(text))
    for key, char in unprintable_values(data):
        context.error(key, f"holds the control character {char}, which no card or page can print")
    context.raise_if_any()
    return data, context


def _depth(value: Any, level: int = 0) -> int:
    """How deeply tables and lists nest in ``value`` (stops counting past the limit)."""
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def _deep_brackets(text: str) -> int | None:
    """The line where lists and inline tables first nest more than MAX_DEPTH deep (strings and comments
    skipped), found in one pass before the parser recurses into them; None when they never do."""
    depth, line, at, end = 0, 1, 0, len(text)
    while at < end:
        char = text[at]
        if char == "\n":
            line += 1
        elif char == "#":  # a comment, to the end of its line
            at = text.find("\n", at)
            if at < 0:
                return None
            continue
        elif char in "\"'":
            quote = char * 3 if text.startswith(char * 3, at) else char
            at += len(quote)
            while at < end and not text.startswith(quote, at):
                if text[at] == "\\" and char == '"':
                    at += 1  # an escaped character, whatever it is
                elif text[at] == "\n":
                    if len(quote) == 1:
                        break  # a one-line string ends with its line (the parser says what is wrong)
                    line += 1
                at += 1
            at += len(quote)
            continue
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH + 2:  # a table header's own [[ ]] may sit on top
                return line
        elif char in "]}":
            depth = max(0, depth - 1)
        at += 1
    return None
