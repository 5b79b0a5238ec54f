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
from .languages import TEMPLATE_FILE, TRANSLATIONS, Catalogue, Text, catalogue_file, state

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
    # the writer (and babel) load only when a language is read or checked
    from .pofiles import catalog_bytes

    return catalog_bytes(catalog, include_previous)


def template_bytes(texts: Sequence[Text], project: str) -> bytes:
    """The catalogue template (POT) of ``texts``."""
    return _bytes(_catalog(texts, project))


def template_path(folder: Path) -> Path:
    return folder / TRANSLATIONS / TEMPLATE_FILE


def updated_bytes(texts: Sequence[Text], project: str, folder: Path, language: str) -> bytes:
    """``translations/LANGUAGE.po`` of ``folder`` merged with ``texts``: new texts added untranslated, a text whose
    source changed kept with its translation marked fuzzy (stale) and the source it was translated from noted,
    texts no longer printed kept as obsolete.  A catalogue that cannot be read whole is an error, never merged."""
    # the reader (and babel) load only when a language is read or checked
    from .pofiles import read_catalog

    template = _catalog(texts, project)
    path = catalogue_file(folder, language)
    if path.exists() or path.is_symlink():
        catalog = read_catalog(path, locale=language)
    else:
        catalog = _catalog([], project, language)
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=False, update_creation_date=False)
    catalog.revision_date = _FIXED_DATE
    return _bytes(catalog, include_previous=True)


@dataclass
class Progress:
    """How far one language of one folder has got."""

    folder: str
    language: str
    translated: list[Text] = field(default_factory=list)
    missing: list[Text] = field(default_factory=list)
    stale: list[Text] = field(default_factory=list)
    books: list[str] = field(default_factory=list)  # what is said of the rulebooks' sources

    def lines(self, name: str) -> list[str]:
        total = len(self.translated) + len(self.missing) + len(self.stale)
        out = [
            f"{self.folder} {self.language} ({name}): {total} texts, {len(self.translated)} translated, "
            f"{len(self.missing)} missing, {len(self.stale)} stale"
        ]
        for what, texts in (("missing", self.missing), ("stale", self.stale)):
            if texts:
                out.append(f"  {what}: " + "; ".join(_places(texts)))
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


def progress(folder: Path, texts: Sequence[Text], catalogue: Catalogue) -> Progress:
    found = Progress(display_path(folder), catalogue.language)
    for text in texts:
        getattr(found, state(text, catalogue)).append(text)
    return found
