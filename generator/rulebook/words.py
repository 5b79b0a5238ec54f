"""The language a book is set in: the words Aetherpress writes into it, its numbers, hyphenation and spacing.

A book is set in one language at a time (:func:`speaking`).  Every text
Aetherpress itself writes into a book (chart headings, "1 in N", contents,
the colophon) is looked up in the message catalogue shipped for that
language (``messages/LANGUAGE.po``, read with Babel); English is the text as
written in the code.  Numbers and percentages follow Babel's data for the
language (a decimal comma and a point between thousands in German); words
are hyphenated with Pyphen's dictionary for it; French puts a no-break space
before ``; ! ?`` and ``:``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

import pyphen

from ..definitions.languages import catalogue_file, category_context, read_catalogue

_MESSAGES = Path(__file__).parent / "messages"
_SOURCE = "en"
_LANGUAGE: ContextVar[str] = ContextVar("book_language", default=_SOURCE)
_HYPHENATION = {"en": "en_GB"}  # Pyphen's dictionary where it is not the language's own


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Set what is made inside the block in ``language`` (a code such as ``de``)."""
    token = _LANGUAGE.set(language or _SOURCE)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def language() -> str:
    return _LANGUAGE.get()


def supported() -> list[str]:
    """The languages whose words Aetherpress ships: English and those with a catalogue."""
    return [_SOURCE] + sorted(p.stem for p in _MESSAGES.glob("*.po"))


@cache
def _catalogue(code: str) -> dict[str, str]:
    # babel loads only when a language is read or checked
    from babel.messages.pofile import read_po

    path = _MESSAGES / f"{code}.po"
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle)
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.string, str) and m.string and not m.fuzzy}


def words(text: str, **values: object) -> str:
    """``text`` in the book's language (``{name}`` fields filled in from ``values``)."""
    code = language()
    if code != _SOURCE:
        text = _catalogue(code).get(text) or _catalogue(code.split("_")[0].split("-")[0]).get(text) or text
    return text.format(**values) if values else text


def _locale():
    # babel loads only when a language is read or checked
    from babel import Locale

    return Locale.parse(language().replace("-", "_"))


def per_cent(text: str) -> str:
    """A number as the book's language writes it (see :func:`number`) with the per cent sign where the language's
    CLDR pattern puts it: ``12.3 %`` in English (the book's house style), ``12,3 %`` in German, ``12.3%`` in Hebrew
    and Arabic, where a space would let the sign drift to the other side of a right-to-left line, ``%12,3`` in
    Turkish. A space between them is a no-break space: no line parts a number from its sign."""
    if language() == _SOURCE:
        return text + NBSP + "%"
    pattern = _locale().percent_formats[None]
    prefix, suffix = (
        part.replace("\u200e", "").replace("\u200f", "").replace("\xa0", " ") for part in (pattern.prefix[0], pattern.suffix[0])
    )
    return (prefix + text + suffix).replace(" ", NBSP)


def number(text: str) -> str:
    """A number written the English way (``1,234.5``) as the book's language writes it (``1.234,5`` in German)."""
    if language() == _SOURCE:
        return text
    # babel loads only when a language is read or checked
    from babel.numbers import get_decimal_symbol, get_group_symbol

    locale = _locale()
    group, decimal = get_group_symbol(locale), get_decimal_symbol(locale)
    group = group.replace("\u202f", "\u00a0")  # the book's serif has no narrow no-break space
    return "".join(group if c == "," else decimal if c == "." else c for c in text)


def hyphenation() -> str | None:
    """Pyphen's dictionary for the book's language, or None when Pyphen has none (the text is then not hyphenated)."""
    code = language()
    if code in _HYPHENATION:
        return _HYPHENATION[code]
    return pyphen.language_fallback(code.replace("-", "_"))


_FRENCH_HIGH = re.compile(r"(?<=\w|[»)\]’”])\s*([;!?])(?=\s|$|[»)])")
_FRENCH_COLON = re.compile(r"(?<=\w|[»)\]’”])\s*(:)(?=\s|$)")


NBSP = "\u00a0"
# a number and the unit or sign after it (49.4 %, 3 mm, 10 pt, 90°), a sign before a number (£ 5), and the
# words of a "1 in 58,905": the space between them never breaks a line
_UNIT_AFTER = re.compile(r"(?<=\d)[ \t]+(?=(?:%|‰|‱|°|mm|cm|m|km|pt|px|dpi|in|g|kg|min|h|s|×)(?![\w]))")
_SIGN_BEFORE = re.compile(r"(?<=[£$€¥×±~≈<>≤≥])[ \t]+(?=\d)")
_ONE_IN = re.compile(r"(?<=\b1)[ \t]+(in|sur|zu|su|en)[ \t]+(?=\d)")


def bound_figures(text: str) -> str:
    """``text`` with a no-break space between a number and its unit or sign, and in "1 in N", so that no line
    ever parts them ("(49.4" at a line's end and "%)" at the next's start)."""
    text = _ONE_IN.sub(lambda m: f"{NBSP}{m.group(1)}{NBSP}", text)
    text = _UNIT_AFTER.sub(NBSP, text)
    return _SIGN_BEFORE.sub(NBSP, text)


def spaced(text: str) -> str:
    """Running text with the language's spacing: numbers bound to their units and signs (:func:`bound_figures`);
    French puts a no-break space before ``; ! ?`` and ``:`` (a full one: the book's serif, EB Garamond, has no
    narrow no-break space)."""
    text = bound_figures(text)
    if language().split("_")[0].split("-")[0] != "fr":
        return text
    text = _FRENCH_HIGH.sub("\u00a0\\1", text)
    return _FRENCH_COLON.sub("\u00a0\\1", text)


class GameWords:
    """The games of a book by id, each with the folder of its file, whose catalogues translate its texts, and the
    catalogues read meanwhile (each once per book while its file is unchanged): made for one book and handed to
    what names its hands and credits (see :func:`game_words`)."""

    def __init__(self, folders: dict[str, Path]):
        self.folders = folders
        self.catalogues: dict[tuple[str, str, int], Any] = {}

    def catalogue(self, folder: Path, code: str) -> Any:
        path = catalogue_file(folder, code)
        stamp = (str(folder), code, path.stat().st_mtime_ns if path.is_file() else 0)
        if stamp not in self.catalogues:
            self.catalogues[stamp] = read_catalogue(folder, code)
        return self.catalogues[stamp]


def game_words(games: Mapping[str, Any]) -> GameWords:
    """The words of ``games`` (by id): their hand names and credits are looked up in the catalogues beside their
    files."""
    return GameWords({game_id: Path(game.path).parent for game_id, game in games.items() if getattr(game, "path", None)})


NO_GAMES = GameWords({})  # no game's catalogue: names as the game files write them


def category_words(table: object, category: object, games: GameWords = NO_GAMES) -> tuple[str, str]:
    """A hand category's name and description in the book's language (from its game's catalogue), as the chart
    prints them (from ``games``); in the source language, or without a translation, as the game file writes them."""
    name, description = str(getattr(category, "name", "")), str(getattr(category, "description", "") or "")
    folder = games.folders.get(str(getattr(table, "game", "")))
    if language() == _SOURCE or folder is None:
        return name, description

    catalogue = games.catalogue(folder, language())
    game = str(getattr(table, "game", ""))
    translated = catalogue.get(category_context(game, name), name) or name
    if description:
        description = catalogue.get(category_context(game, name, "description"), description) or description
    return translated, description


def game_credits(game: object, games: GameWords) -> object:
    """A game's credits in the book's language, from the catalogue beside its file among ``games`` (as written
    without one)."""
    credits = getattr(game, "credits", None)
    folder = games.folders.get(str(getattr(game, "id", "")))
    if credits is None or language() == _SOURCE or folder is None:
        return credits
    from ..definitions.languages import localise_credits

    catalogue = games.catalogue(folder, language())
    return localise_credits(f"game|{getattr(game, 'id', '')}", credits, lambda c, v: catalogue.get(c, v) or v)
