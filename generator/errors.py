"""Aetherpress's own error type: every problem a person can act on.

A problem names the file, the place in it (a line, a key path or both) and
what is wrong.  ``str(problem)`` is the one line the command prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from .locations import display_path

__all__ = ["AetherpressError", "Problem", "display_path"]


@dataclass(frozen=True)
class Problem:
    file: str
    message: str
    line: int | None = None
    key: str | None = None

    def __str__(self) -> str:
        place = self.file
        if self.line is not None:
            place += f":{self.line}"
        if self.key:
            place += f": {self.key}"
        return one_line(f"{place}: {self.message}")


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters written out, so a problem is always one line."""
    return "".join(c if c >= " " or c == "\t" else c.encode("unicode_escape").decode("ascii") for c in text)


class AetherpressError(Exception):
    """One or more problems with the input; the command exits with status 2."""

    def __init__(self, problems: list[Problem] | Problem | str):
        items: list[Problem | str] = [problems] if isinstance(problems, (Problem, str)) else list(problems)
        problems = [p if isinstance(p, Problem) else Problem("aetherpress", p) for p in items]
        self.problems = list(dict.fromkeys(problems))  # the same problem found twice is told once
        super().__init__("\n".join(str(p) for p in self.problems))
