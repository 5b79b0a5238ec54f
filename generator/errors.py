"""Aetherpress's own error type: every problem a person can act on.

A problem names the file, the place in it (a line, a key path or both) and
what is wrong.  ``str(problem)`` is the one line the command prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .locations import display_path

__all__ = ["AetherpressError", "Problem", "display_path", "grouped_lines"]


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
        return _one_line(f"{place}: {self.message}")


def _one_line(text: str) -> str:
    """``text`` with line breaks and other control characters written out, so a problem is always one line."""
    return "".join(c if c >= " " or c == "\t" else c.encode("unicode_escape").decode("ascii") for c in text)


class AetherpressError(Exception):
    """One or more problems with the input; the command exits with status 2."""

    def __init__(self, problems: list[Problem] | Problem | str):
        items: list[Problem | str] = [problems] if isinstance(problems, (Problem, str)) else list(problems)
        problems = [p if isinstance(p, Problem) else Problem("aetherpress", p) for p in items]
        self.problems = list(dict.fromkeys(problems))  # the same problem found twice is told once
        super().__init__("\n".join(str(p) for p in self.problems))


# "drawing card 'fox' of deck 'cat'", "drawn for the back of card 'fox' of deck 'cat:small'", "drawn for card 'fox'"
_CARD = re.compile(
    r"(?:(?P<verb>drawing|drawn for) )?(?P<back>the back of |back of )?card '(?P<card>[^']*)'(?: of deck '(?P<deck>[^']*)')?"
)
# "deck 'cat:small', card 'fox': text does not fit ..." (a problem with one card's own data)
_OF_DECK = re.compile(r"^(?:[^']*: )?deck '(?P<deck>[^']*)'(?: in [A-Za-z ()_-]+)?, (?:card '[^']*'|the back): ")
_SHOWN_CARDS = 3  # a grouped problem names this many of its cards


def grouped_lines(lines: list[str]) -> list[str]:
    """``lines`` with those that differ only in the card (and deck or variant) they were drawn for said once,
    with how many cards hit it and the first few of them, in the order first found."""
    groups: dict[str, tuple[list[str], list[str]]] = {}
    for line in lines:
        of = _OF_DECK.search(line)
        if of is not None:  # one card of a deck and its variants
            key = line[: of.start("deck") - 1] + "\1" + line[of.end("deck") + 1 :]
            groups.setdefault(key, ([], []))[1].append(of.group("deck"))
            continue
        found = _CARD.search(line)
        if found is None:
            groups.setdefault(line, ([], []))
            continue
        verb = found.group("verb") + " " if found.group("verb") else ""
        key = line[: found.start()] + verb + (found.group("back") or "") + "\0" + line[found.end() :]
        cards, decks = groups.setdefault(key, ([], []))
        if found.group("card") not in cards:
            cards.append(found.group("card"))
        if found.group("deck") is not None and found.group("deck") not in decks:
            decks.append(found.group("deck"))
    out = []
    for key, (cards, decks) in groups.items():
        if "\1" in key:
            out.append(key.replace("deck \1", "deck" + ("s " if len(decks) > 1 else " ") + ", ".join(f"'{d}'" for d in decks)))
            continue
        if "\0" not in key:
            out.append(key)
            continue
        shown = ", ".join(f"'{c}'" for c in cards[:_SHOWN_CARDS]) + (
            f" and {len(cards) - _SHOWN_CARDS} more" if len(cards) > _SHOWN_CARDS else ""
        )
        in_decks = f" of deck{'s' if len(decks) > 1 else ''} " + ", ".join(f"'{d}'" for d in decks) if decks else ""
        what = f"card {shown}{in_decks}" if len(cards) == 1 else f"{len(cards)} cards{in_decks} ({shown})"
        out.append(key.replace("\0", what))
    return out


def grouped(problems: list[Problem]) -> list[Problem]:
    """``problems`` grouped as :func:`grouped_lines` groups them: one per place and problem, naming a few cards."""
    places: dict[tuple[str, int | None], list[str]] = {}
    for p in dict.fromkeys(problems):
        places.setdefault((p.file, p.line), []).append(f"{p.key}: {p.message}" if p.key else p.message)
    return [Problem(file, message, line) for (file, line), messages in places.items() for message in grouped_lines(messages)]
