"""Rulebook definitions: a ``[rulebook]`` table in a TOML file under ``decks/``.

```toml
[rulebook]
id = "founders-flip"              # required
title = "Founder's Flip"          # required
subtitle = "..."                  # optional
games = ["founders-flip"]         # game ids this book is built for (default: [id])
decks = ["imperial", "aetherial"] # decks the book draws (for the record)
source = "founders-flip.md"       # the Markdown source, beside this file (default: <id>.md)
cover = ["card:imperial/emperor"] # optional: the cards fanned on the front cover (default: the best hand's example)
cover_layout = "fan"              # optional: "fan", "row" or "single" (one card, large)
isbn = "978-..."                  # optional: the book's ISBN, drawn as an EAN-13 barcode on the back cover
edition = "First edition"         # optional: the edition, printed on the title page and in the colophon
language = "en-GB"                # optional: the book's language (its PDF's Lang), default en-GB
title_lines = ["Dragon Poker", "& Red Star"]  # optional: the cover's title lines (default: balanced)
blurb = "..."                     # optional: the back cover's text, and what it says of the game:
players = "2 to 10"               #   players, playing_time, age (each printed only when given)

[rulebook.credits]                # optional: credits of the book's own source (see definitions/credits.py);
designer = "..."                  # the colophon also prints its games' and decks' credits

[rulebook.data]                   # optional free data the source reads as book.data
```
The deck loader skips these files: they have no ``[deck]`` table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from dataclasses import field as field_
from pathlib import Path
from typing import Any

from ..definitions.credits import Credits, parse_credits
from ..definitions.discovery import Kinds, definition_kind, load_each
from ..definitions.ids import check_id
from ..definitions.languages import Text, credits_texts, language_name, localise_credits, parse_languages, read_catalogue
from ..definitions.model import frozen_mapping
from ..definitions.schema import check_table, field
from ..definitions.toml import read_toml
from ..errors import AetherpressError, Problem, display_path
from ..project import Project, safe_join
from .isbn import IsbnError, isbn13

_SPEC = {
    "id": field(str, required=True),
    "title": field(str, required=True),
    "subtitle": field(str),
    "games": field(list, item=str),
    "decks": field(list, item=str),
    "source": field(str),
    "title_lines": field(list, item=str),
    "blurb": field(str),
    "players": field(str),
    "playing_time": field(str),
    "age": field(str),
    "cover": field(list, item=str),
    "cover_layout": field(str),
    "isbn": field(str),
    "edition": field(str),
    "credits": field(dict),
    "data": field(dict),
    "language": field(str),
    "editions": field(list, item=str),
}


@dataclass(frozen=True)
class RulebookDefinition:
    id: str
    title: str
    subtitle: str
    games: tuple[str, ...]
    decks: tuple[str, ...]
    source: Path
    cover: tuple[str, ...]
    file: Path
    data: Mapping[str, Any] = field_(default_factory=frozen_mapping)  # free data for the source's templates (``book.data``)
    edition: str = ""
    credits: Credits | None = None  # the book's own source, besides its games' and decks'
    cover_line: int | None = None  # where ``cover`` is written in the file
    language: str = "en"  # the language its source is written in
    editions: tuple[str, ...] = ()  # the languages it is published in besides
    speaks: str = ""  # the language of this edition of the book ("": the source language)
    translated: bool = True  # whether this edition has a source of its own (NAME.LANG.md)
    title_lines: tuple[str, ...] = ()  # the cover's lines of the title, when set by hand
    blurb: str = ""
    players: str = ""
    playing_time: str = ""
    age: str = ""
    cover_layout: str = "fan"
    isbn: str = ""  # the 13 digits of its ISBN, checked

    @property
    def name(self) -> str:
        """The book's file name without the paper: ``founders-flip``, ``founders-flip-de`` for an edition."""
        return self.id + (f"-{self.speaks}" if self.speaks else "")

    @property
    def language_set(self) -> str:
        """The language the book is set in."""
        return self.speaks or self.language


def book_edition(book: RulebookDefinition, language: str) -> RulebookDefinition:
    """``book`` in ``language``: its source ``NAME.LANGUAGE.md`` beside ``NAME.md`` (the source itself while there is
    none), its title, subtitle and edition from the catalogue of its folder."""
    if not language or language == book.language:
        return book
    if language not in book.editions:
        raise AetherpressError(
            Problem(
                display_path(book.file),
                f"rulebook '{book.id}' has no edition in '{language}'; its editions: {', '.join(book.editions) or 'none'}",
                key="rulebook.editions",
            )
        )
    own = book.source.with_name(f"{book.source.stem}.{language}{book.source.suffix}")
    catalogue = read_catalogue(book.file.parent, language)

    def one(context: str, value: str) -> str:
        return catalogue.get(context, value) or value if value else value

    texts: dict[str, Any] = {key: one(f"rulebook|{book.id}|{key}", getattr(book, key)) for key in BOOK_TEXTS}
    return replace(
        book,
        **texts,
        title_lines=book.title_lines if texts["title"] == book.title else (),  # lines of the source's title
        credits=localise_credits(f"rulebook|{book.id}", book.credits, one),
        source=own if own.is_file() else book.source,
        speaks=language,
        translated=own.is_file(),
    )


def book_languages(book: RulebookDefinition, languages: tuple[str, ...] | list[str] | None) -> list[str]:
    """Which of ``languages`` the book is made in ("" for its source language; None: the source and every edition)."""
    if languages is None:
        return ["", *book.editions]
    chosen = ("" if code in ("", book.language) else code for code in languages)
    return list(dict.fromkeys(code for code in chosen if code in ("", *book.editions)))


def untranslated_book(book: RulebookDefinition) -> Problem:
    """An edition of a book whose source has no translation (``NAME.LANG.md``), told as a problem."""
    wanted = book.source.with_name(f"{book.source.stem}.{book.speaks}{book.source.suffix}")
    return Problem(
        display_path(book.file),
        f"rulebook '{book.id}' in {language_name(book.speaks)} ({book.speaks}): no {wanted.name} beside {book.source.name}; "
        "set from the source language",
    )


COVER_LAYOUTS = ("fan", "row", "single")  # how the front cover shows its cards
BOOK_TEXTS = ("title", "subtitle", "edition", "blurb", "players", "playing_time", "age")  # translated in editions


def book_texts(book: RulebookDefinition) -> list[Text]:
    """The book's own translatable texts: its title, subtitle, edition, the back cover's blurb and facts and its
    credits (its source is translated as a file)."""
    where = display_path(book.file)
    texts = [
        Text(f"rulebook|{book.id}|{key}", getattr(book, key), f"the rulebook's {key}", where)
        for key in BOOK_TEXTS
        if getattr(book, key)
    ]
    return texts + credits_texts(f"rulebook|{book.id}", book.credits, where, "the rulebook's")


def load_rulebook(path: Path, project: Project) -> RulebookDefinition:
    data, ctx = read_toml(path)
    raw = data.get("rulebook")
    if not isinstance(raw, dict):
        raise AetherpressError(Problem(display_path(path), "no [rulebook] table"))
    checked = check_table(ctx, raw, _SPEC, ("rulebook",), "rulebook")
    credits = parse_credits(ctx, checked.get("credits"), ("rulebook", "credits"))
    if "title_lines" in checked and " ".join(checked["title_lines"]).split() != checked["title"].split():
        ctx.error(("rulebook", "title_lines"), "the title's lines must hold the title's words, in order")
    language, editions = parse_languages(ctx, checked, ("rulebook",))
    if checked.get("cover_layout", "fan") not in COVER_LAYOUTS:
        ctx.error(("rulebook", "cover_layout"), f"must be one of {', '.join(COVER_LAYOUTS)}, not '{checked['cover_layout']}'")
    isbn = ""
    if checked.get("isbn"):
        try:
            isbn = isbn13(checked["isbn"])
        except IsbnError as exc:
            ctx.error(("rulebook", "isbn"), str(exc))
    ctx.raise_if_any()
    book_id = checked["id"]
    if not check_id(ctx, book_id, ("rulebook", "id"), "rulebook"):
        ctx.raise_if_any()
    source_name = checked.get("source", f"{book_id}.md")
    source = safe_join(path.parent, source_name, project.layer_of(path).decks)
    if source is None:
        ctx.error(("rulebook", "source"), f"'{source_name}' must be a file beside the rulebook, inside decks/")
    elif not source.is_file():
        ctx.error(("rulebook", "source"), f"no such file '{source_name}' beside {path.name}")
    ctx.raise_if_any()
    assert source is not None
    return RulebookDefinition(
        book_id,
        checked["title"],
        checked.get("subtitle", ""),
        tuple(checked.get("games", [book_id])),
        tuple(checked.get("decks", [])),
        source,
        tuple(checked.get("cover", [])),
        path,
        frozen_mapping(checked.get("data", {})),
        checked.get("edition", ""),
        credits,
        ctx.locator.line(("rulebook", "cover")) if ctx.locator else None,
        language,
        editions,
        title_lines=tuple(checked.get("title_lines", [])),
        blurb=checked.get("blurb", ""),
        players=checked.get("players", ""),
        playing_time=checked.get("playing_time", ""),
        age=checked.get("age", ""),
        cover_layout=checked.get("cover_layout", "fan"),
        isbn=isbn,
    )


def load_rulebooks(project: Project, kind_of: Kinds = definition_kind) -> dict[str, RulebookDefinition]:
    """Every rulebook of the project, by book id (``kind_of`` tells each file's kind: by default, read from it)."""
    return load_each(project, "rulebook", lambda path: load_rulebook(path, project), kind_of)


def book_for(books: dict[str, RulebookDefinition], name: str) -> RulebookDefinition | None:
    """The book with id ``name``, or the book built for game ``name``."""
    if name in books:
        return books[name]
    for book in books.values():
        if name in book.games:
            return book
    return None
