"""Credits: who made a deck or a game, where it comes from, and under which licence.

A deck's ``[deck.credits]`` or a game's ``[game.credits]`` table::

    [game.credits]
    designer = "Mycake"                 # who designed the game or deck, as the source says
    author = ""                         # who wrote or signed the source text, when that is said apart
    source = "Lith"                     # the source text or work the data comes from
    url = ""                            # where the source is published, when known
    date = ""                           # the date of the source, when it gives one
    notice = "..."                      # a notice the source prints, quoted exactly
    unofficial = "..."                  # where the setting belongs to someone else: an unofficial fan work
    changes = "..."                     # what this edition changed from the source (licences such as CC BY ask)
    notes = ["..."]                     # further credit lines
    [game.credits.licence]
    name = "Creative Commons Attribution-NonCommercial-ShareAlike 3.0"
    short = "CC BY-NC-SA 3.0"
    url = "https://creativecommons.org/licenses/by-nc-sa/3.0/"
    terms = "..."                       # what the licence permits and asks, in plain words

Every field is text and every one is optional; they are printed as given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .schema import Context, KeyPath, check_table, field

_LICENCE_SPEC = {
    "name": field(str, required=True),
    "short": field(str),
    "url": field(str),
    "terms": field(str),
}
_CREDITS_SPEC = {
    "designer": field(str),
    "author": field(str),
    "source": field(str),
    "url": field(str),
    "date": field(str),
    "notice": field(str),
    "unofficial": field(str),
    "changes": field(str),
    "notes": field(list, item=str),
    "licence": field(dict),
}
_URL_SCHEMES = ("http://", "https://")


@dataclass(frozen=True)
class Licence:
    name: str
    short: str = ""
    url: str = ""
    terms: str = ""

    @property
    def share_alike(self) -> bool:
        """Whether the licence asks that adaptations be shared under the same licence."""
        return "sharealike" in self.name.replace("-", "").replace(" ", "").lower() or "-SA" in self.short.upper()

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in (("name", self.name), ("short", self.short), ("url", self.url), ("terms", self.terms)) if v}


@dataclass(frozen=True)
class Credits:
    designer: str = ""
    author: str = ""
    source: str = ""
    url: str = ""
    date: str = ""
    notice: str = ""
    notes: tuple[str, ...] = ()
    licence: Licence | None = None
    unofficial: str = ""
    changes: str = ""

    def to_json(self) -> dict[str, Any]:
        """The credits as plain data (only the fields given), for ``list --json`` and exports."""
        out: dict[str, Any] = {}
        for key in ("designer", "author", "source", "url", "date", "notice", "unofficial", "changes"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.notes:
            out["notes"] = list(self.notes)
        if self.licence is not None:
            out["licence"] = self.licence.to_json()
        return out

    def line(self, say: Callable[..., str] | None = None) -> str:
        """One line of credit, for places with room for little: 'Lith, designed by Mycake (CC BY-NC-SA 3.0)';
        ``say`` gives its words in another language (as a book's :func:`~generator.rulebook.words.words` does)."""
        say = say or _english
        parts = [self.source] if self.source else []
        if self.designer:
            parts.append(say("designed by {name}", name=self.designer))
        if self.author and self.author != self.designer:
            parts.append(say("text by {name}", name=self.author))
        text = ", ".join(parts)
        if self.licence is not None:
            text += f" ({self.licence.short or self.licence.name})"
        return text

    def text_lines(self) -> list[str]:
        """The credits as plain lines of text, every field given (for files with no layout, like a TTS save)."""
        lines = [self.line()] if self.line() else []
        lines += [f"Source: {self.url}"] if self.url else []
        lines += [f"Date of the source: {self.date}"] if self.date else []
        lines += [f"“{self.notice}”"] if self.notice else []
        lines += [self.unofficial] if self.unofficial else []
        lines += list(self.notes)
        lines += [f"Changes in this edition: {self.changes}"] if self.changes else []
        if self.licence is not None:
            lic = self.licence
            lines.append(f"Licence: {lic.name}" + (f" ({lic.short})" if lic.short else "") + (f", {lic.url}" if lic.url else ""))
            lines += [lic.terms] if lic.terms else []
        return lines


def _english(text: str, **values: object) -> str:
    return text.format(**values)


def parse_credits(ctx: Context, raw: Any, path: KeyPath) -> Credits | None:
    """A credits table, checked; problems go to ``ctx``."""
    if raw is None:
        return None
    table = check_table(ctx, raw, _CREDITS_SPEC, path, "credits")
    licence = None
    if "licence" in table:
        lic = check_table(ctx, table["licence"], _LICENCE_SPEC, path + ("licence",), "licence")
        if "name" in lic:
            licence = Licence(lic["name"], lic.get("short", ""), lic.get("url", ""), lic.get("terms", ""))
            if licence.url and not licence.url.startswith(_URL_SCHEMES):
                ctx.error(path + ("licence", "url"), f"'{licence.url}' is not a web address (http:// or https://)")
    url = table.get("url", "")
    if url and not url.startswith(_URL_SCHEMES):
        ctx.error(path + ("url",), f"'{url}' is not a web address (http:// or https://)")
    return Credits(
        table.get("designer", ""),
        table.get("author", ""),
        table.get("source", ""),
        url,
        table.get("date", ""),
        table.get("notice", ""),
        tuple(table.get("notes", [])),
        licence,
        table.get("unofficial", ""),
        table.get("changes", ""),
    )
