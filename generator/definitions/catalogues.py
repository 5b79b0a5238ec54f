"""Catalogue files: the template (``translations/messages.pot``) of every translatable text of a folder of
decks, its merge into each language's ``translations/LANG.po``, and how far each language has got.

Written with Babel, with fixed dates, so the same texts give the same files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..errors import display_path
from .languages import TEMPLATE_FILE, TEMPLATE_WORDS, TRANSLATIONS, Catalogue, Text, catalogue_file, state
from .pofiles import catalog_bytes, made_from, read_catalog

_FIXED_DATE = datetime(2000, 1, 1, tzinfo=UTC)  # catalogues carry no date: the same texts, the same file


def _catalog(texts: Sequence[Text], project: str, locale: str | None = None):
    # babel loads only when a language is read or checked
    from babel.messages.catalog import Catalog

    catalog = Catalog(
        locale=locale,
        project=project,
        version="1",
        creation_date=_FIXED_DATE,
        revision_date=_FIXED_DATE,
        fuzzy=False,
        charset="utf-8",
    )
    for text in texts:
        if (text.source, text.context) in catalog:
            continue
        catalog.add(
            text.source,
            locations=[(text.file, text.line or 0)] if text.file else [],
            auto_comments=[text.place],
            context=text.context,
        )
    return catalog


def _bytes(catalog, include_previous: bool = False) -> bytes:
    return catalog_bytes(catalog, include_previous)


def template_bytes(texts: Sequence[Text], project: str) -> bytes:
    """The catalogue template (POT) of ``texts``."""
    return _bytes(_catalog(texts, project))


def template_path(folder: Path) -> Path:
    return folder / TRANSLATIONS / TEMPLATE_FILE


def updated_bytes(
    texts: Sequence[Text], project: str, folder: Path, language: str, records: Sequence[tuple[Text, str]] = ()
) -> tuple[bytes, list[str]]:
    """``translations/LANGUAGE.po`` of ``folder`` merged with ``texts``, and what the merge has to tell.

    New texts come in untranslated; a text whose source changed keeps its translation, marked fuzzy (stale) with
    the source it was made from (``#| msgid``), found by its place (its context), never by a look-alike text
    elsewhere; a card renamed in a card list without an ``id`` column (so its id changed with its name) is
    matched by its other texts, and said so; texts no longer printed are kept as obsolete.  ``records``: texts the
    catalogue records rather than translates (a rulebook's sections, see :mod:`..rulebook.sections`), each with
    the value it is first recorded with ("" while it has none).  A catalogue that cannot be read whole is an
    error, never merged."""

    template = _catalog([*texts, *(text for text, _ in records)], project)
    path = catalogue_file(folder, language)
    if path.exists() or path.is_symlink():
        catalog = read_catalog(path, locale=language)
    else:
        catalog = _catalog([], project, language)
    earlier = _translations_by_context(catalog)
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False)
    told = _follow_renamed_cards(catalog, earlier)
    _keep_earlier_translations(catalog, earlier)
    for text, value in records:
        message = catalog.get(text.source, text.context)
        if message is not None and value and not message.string:
            message.string = value
    catalog.revision_date = _FIXED_DATE
    return _bytes(catalog, include_previous=True), told


def _translations_by_context(catalog) -> dict[str, tuple[str, str]]:
    """context -> (source text, translation) of every translated entry, current or obsolete."""
    found: dict[str, tuple[str, str]] = {}
    for message in [*catalog.obsolete.values(), *catalog]:
        if message.context == TEMPLATE_WORDS:
            continue  # one context for all the templates' words: none is another's earlier form
        if message.context and isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            found[message.context] = (made_from(message), message.string)
    return found


def _keep_earlier_translations(catalog, earlier: dict[str, tuple[str, str]]) -> None:
    """Each untranslated entry whose place had a translation of another source text gets it back, marked fuzzy
    with that source; a fuzzy entry's ``#| msgid`` is kept as its previous source."""
    for message in catalog:
        if not message.id or not isinstance(message.id, str):
            continue
        if message.fuzzy and not message.previous_id:
            message.previous_id = [made_from(message)]
        message.user_comments = [c for c in message.user_comments if not c.startswith(("| msgid ", '| "', "| msgctxt "))]
        if message.string or message.context not in earlier:
            continue
        source, translated = earlier[message.context]
        message.string = translated
        if source != message.id:
            message.flags.add("fuzzy")
            message.previous_id = [source]
        catalog.obsolete.pop((source, message.context), None)


def _card_of(context: str | None) -> tuple[str, str, str] | None:
    """(deck id, card id, field) of a card's context ``deck|D|card|C|FIELD``."""
    parts = (context or "").split("|")
    if len(parts) == 5 and parts[0] == "deck" and parts[2] == "card":
        return parts[1], parts[3], parts[4]
    return None


def _follow_renamed_cards(catalog, earlier: dict[str, tuple[str, str]]) -> list[str]:
    """Cards whose id changed with their name (no ``id`` column): each new card with no translation at all is
    matched to the one card gone from the same deck whose other texts are the same; its translations move to the
    new id (``earlier`` changed in place).  Returns a line for each card so matched."""
    new: dict[tuple[str, str], dict[str, str]] = {}
    for message in catalog:
        found = _card_of(message.context)
        if found and isinstance(message.id, str):
            new.setdefault(found[:2], {})[found[2]] = message.id
    gone: dict[tuple[str, str], dict[str, str]] = {}
    for context, (source, _) in earlier.items():
        found = _card_of(context)
        if found and found[:2] not in new:
            gone.setdefault(found[:2], {})[found[2]] = source
    told = []
    for (deck, card), fields in new.items():
        if any(f"deck|{deck}|card|{card}|{name}" in earlier for name in fields):
            continue  # it has translations of its own
        others = {name: text for name, text in fields.items() if name != "name"}
        matches = [
            old
            for (old_deck, old), was in gone.items()
            if old_deck == deck and others and all(was.get(name) == text for name, text in others.items())
        ]
        if len(matches) != 1:
            continue
        old = matches[0]
        for name in gone.pop((deck, old)):
            source, translated = earlier.pop(f"deck|{deck}|card|{old}|{name}")
            catalog.obsolete.pop((source, f"deck|{deck}|card|{old}|{name}"), None)
            earlier[f"deck|{deck}|card|{card}|{name}"] = (source, translated)
        told.append(
            f"deck '{deck}': card '{card}' is card '{old}' renamed (matched by its {', '.join(sorted(others))}); "
            "its translations follow it (give the card list an id column to keep ids when names change)"
        )
    return told


@dataclass
class Progress:
    """How far one language of one folder has got."""

    folder: str
    language: str
    translated: list[Text] = field(default_factory=list)
    missing: list[Text] = field(default_factory=list)
    stale: list[Text] = field(default_factory=list)
    books: list[str] = field(default_factory=list)  # what is said of the rulebooks' sources
    earlier: dict[str, tuple[str, str]] = field(default_factory=dict)  # a stale text's context -> (source, translation)

    def lines(self, name: str) -> list[str]:
        total = len(self.translated) + len(self.missing) + len(self.stale)
        out = [
            f"{self.folder} {self.language} ({name}): {total} texts, {len(self.translated)} translated, "
            f"{len(self.missing)} missing, {len(self.stale)} stale"
        ]
        if self.missing:
            out.append("  missing: " + "; ".join(_places(self.missing)))
        for text in self.stale:
            source, translated = self.earlier.get(text.context, ("", ""))
            out.append(
                f"  stale: {text.place}: {_quoted(translated)} was made from {_quoted(source)}; now {_quoted(text.source)}"
            )
        out += [f"  {line}" for line in self.books]
        return out


def _places(texts: Sequence[Text]) -> list[str]:
    """``card 'magist' (name, text)``: the fields of a thing named by its id together, other texts by their place."""
    grouped: dict[str, list[str]] = {}
    for text in texts:
        head, _, field_name = text.place.rpartition(" ")
        if head.endswith("'"):  # a card, suit, rank or hand: its fields together
            grouped.setdefault(head, []).append(field_name)
        else:
            grouped.setdefault(text.place, [])
    return [f"{head} ({', '.join(fields)})" if fields else head for head, fields in grouped.items()]


def _quoted(text: str, most: int = 60) -> str:
    """``text`` in quotes, cut to ``most`` characters, on one line."""
    text = " ".join(text.split())
    return '"' + (text if len(text) <= most else text[: most - 1] + "…") + '"'


def progress(folder: Path, texts: Sequence[Text], catalogue: Catalogue) -> Progress:
    found = Progress(display_path(folder), catalogue.language)
    for text in texts:
        kind = state(text, catalogue)
        getattr(found, kind).append(text)
        if kind == "stale":
            found.earlier[text.context] = catalogue.earlier(text.context) or ("", "")
    return found


def reviewed_bytes(folder: Path, language: str, records: Sequence[tuple[Text, str]]) -> bytes:
    """``translations/LANGUAGE.po`` of ``folder`` with each of ``records`` (a section of a rulebook's source, with
    the heading its translation gives it) recorded as translated from the text it has now: its translation was
    reviewed against it.  Read whole first, like every catalogue written back."""
    catalog = read_catalog(catalogue_file(folder, language), locale=language)
    for text, heading in records:
        for message in [m for m in [*catalog, *catalog.obsolete.values()] if m.context == text.context]:
            catalog.delete(message.id, message.context)
            catalog.obsolete.pop((message.id, message.context), None)
        catalog.add(
            text.source, heading, locations=[(text.file, text.line or 0)], auto_comments=[text.place], context=text.context
        )
    catalog.revision_date = _FIXED_DATE
    return _bytes(catalog, include_previous=True)
