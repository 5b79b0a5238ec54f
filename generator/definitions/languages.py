"""Languages: a deck's source language, the languages of its editions, and its texts in each of them.

A deck (game, rulebook) names the language its files are written in
(``language = "en"``, the default) and the languages it is published in
(``editions = ["de"]``).  Its translatable texts are the deck's title, the
names of its suits, ranks and cards and every card field declared as
``text``; each has a context (``deck|imperial|card|magist|name``) that says
where it is printed.  A translation comes from a column of the card list
(``name@de``, ``text@de``) or from the gettext catalogue of the deck's folder
(``translations/de.po``): an entry with the text's context whose ``msgid`` is
the source text as it is now.  An entry whose ``msgid`` is an older source
text (or that is marked fuzzy) is stale: it is not used, and ``translations
status`` names it.  A text with no translation is printed in the source
language (an error with ``--strict-lang``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import AetherpressError, Problem, display_path
from .cards import MAX_TEXT
from .model import Card, Deck, Origin, Rank, Suit, frozen_mapping
from .pofiles import made_from, read_catalog
from .schema import Context, KeyPath

TEMPLATE_WORDS = "template"  # the context of the texts card templates write themselves, {{ _("Twofold") }}
# the words a tuck box prints of its own, translated as the templates' own words are (see faces.templatewords)
BOX_COUNT = "{count} cards · {width} × {height} mm"
BOX_FRONT = "{count} cards"  # under the title on the box's front
BOX_CAPTION = (
    "Tuck box for {name}: {count} cards {thickness} mm thick; inside {width} x {height} x {depth} mm. "
    "Cut on the solid line, fold between the corners the cut makes, glue the narrow flap inside the front."
)
BOX_WORDS = (BOX_COUNT, BOX_FRONT, BOX_CAPTION)
TRANSLATIONS = "translations"  # the folder, beside a deck file, of its gettext catalogues
TEMPLATE_FILE = "messages.pot"
_DEFAULT_LANGUAGE = "en"
_CODE = re.compile(r"[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*")


@cache
def language_name(code: str) -> str:
    """``de`` -> ``German``: the language's name in English, for messages."""
    # babel loads only when a language is read or checked
    from babel import Locale

    return Locale.parse(code.replace("-", "_")).get_display_name("en") or code


def _known_language(code: str) -> bool:
    # babel loads only when a language is read or checked
    from babel import Locale, UnknownLocaleError

    if not _CODE.fullmatch(code):
        return False
    try:
        Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return False
    return True


def parse_languages(ctx: Context, head: Mapping[str, Any], path: KeyPath) -> tuple[str, tuple[str, ...]]:
    """(source language, edition languages) of a ``[deck]``, ``[game]`` or ``[rulebook]`` table."""
    language = head.get("language", _DEFAULT_LANGUAGE)
    if not _known_language(language):
        ctx.error(path + ("language",), f"'{language}' is not a language code Aetherpress knows (such as en, de, fr, ar, ja)")
        language = _DEFAULT_LANGUAGE
    editions: list[str] = []
    for i, code in enumerate(head.get("editions", [])):
        if not _known_language(code):
            ctx.error(path + ("editions", i), f"'{code}' is not a language code Aetherpress knows (such as en, de, fr, ar, ja)")
        elif code == language:
            ctx.error(path + ("editions", i), f"'{code}' is the source language; editions list the other languages")
        elif code in editions:
            ctx.error(path + ("editions", i), f"'{code}' is named twice")
        else:
            editions.append(code)
    return language, tuple(editions)


def described(deck: Deck, variants: bool = True) -> str:
    """How a deck is named in messages: ``deck 'imperial:academy'`` (``deck 'imperial'`` without its
    ``variants``), with its language for an edition: ``deck 'imperial' in German (de)``."""
    name = deck.key.partition("@")[0] if variants else deck.id
    if not deck.edition:
        return f"deck '{name}'"
    return f"deck '{name}' in {language_name(deck.edition)} ({deck.edition})"


# --- the texts to translate ----------------------------------------------------


@dataclass(frozen=True)
class Text:
    """One translatable text: where it is printed (``context``), what it says, and how messages name it."""

    context: str
    source: str
    place: str  # card 'magist' name
    file: str = ""  # where the source text is written
    line: int | None = None
    columns: Mapping[str, str] = dc_field(default_factory=frozen_mapping)  # language -> translation in the card list


def _words_in(label: str) -> bool:
    return any(c.isalpha() for c in label)


def _translatable_fields(deck: Deck) -> list[str]:
    """The card fields that are translated: the name and every field declared as ``text``."""
    return ["name"] + [name for name, kind in deck.attribute_types.items() if kind == "text"]


def _card_context(deck_id: str, card_id: str, field: str) -> str:
    return f"deck|{deck_id}|card|{card_id}|{field}"


def deck_texts(deck: Deck) -> list[Text]:
    """Every translatable text of ``deck`` (with its variants applied), in the order a reader meets them."""
    texts = [Text(f"deck|{deck.id}|title", deck.title, "the deck's title", deck.source)]
    if deck.description.strip():
        texts.append(Text(f"deck|{deck.id}|description", deck.description, "the deck's description", deck.source))
    texts += [Text(f"deck|{deck.id}|suit|{s.id}|name", s.name, f"suit '{s.id}' name", deck.source) for s in deck.suits]
    texts += [Text(f"deck|{deck.id}|rank|{r.id}|name", r.name, f"rank '{r.id}' name", deck.source) for r in deck.ranks]
    texts += [  # a label of letters is a word's initial (C for Censor); a number stays as it is
        Text(f"deck|{deck.id}|rank|{r.id}|label", r.label, f"rank '{r.id}' label", deck.source)
        for r in deck.ranks
        if _words_in(r.label)
    ]
    fields = _translatable_fields(deck)
    for card in deck.cards:
        file, line = (card.origin.file, card.origin.line) if card.origin else (deck.source, None)
        for name in fields:
            value = card.name if name == "name" else card.attributes.get(name)
            if isinstance(value, str) and value.strip():
                context = _card_context(deck.id, card.id, name)
                texts.append(Text(context, value, f"card '{card.id}' {name}", file, line, _columns(card, name)))
    return texts + credits_texts(f"deck|{deck.id}", deck.credits, deck.source, "the deck's")


CREDIT_TEXTS = ("source", "unofficial", "changes")  # the credits' fields written in a language (besides notes)


def credits_texts(prefix: str, credits: Any, file: str, whose: str) -> list[Text]:
    """The translatable texts of a ``credits`` table: what its source is called, its notes, the unofficial notice
    and the changes of this edition (names, dates, links and a source's own notice stay as written)."""
    if credits is None:
        return []
    texts = [
        Text(f"{prefix}|credits|{key}", getattr(credits, key), f"{whose} credits {key}", file)
        for key in CREDIT_TEXTS
        if getattr(credits, key)
    ]
    texts += [
        Text(f"{prefix}|credits|note|{i}", note, f"{whose} credits note {i + 1}", file) for i, note in enumerate(credits.notes)
    ]
    return texts


def localise_credits(prefix: str, credits: Any, one: Any) -> Any:
    """``credits`` with each text of :func:`credits_texts` as ``one(context, source)`` gives it."""
    if credits is None:
        return None
    values = {key: one(f"{prefix}|credits|{key}", getattr(credits, key)) for key in CREDIT_TEXTS if getattr(credits, key)}
    notes = tuple(one(f"{prefix}|credits|note|{i}", note) for i, note in enumerate(credits.notes))
    return replace(credits, notes=notes, **values)


def _columns(card: Card, field: str) -> Mapping[str, str]:
    return frozen_mapping({code: texts[field] for code, texts in card.translations.items() if field in texts})


def game_texts(game: Any) -> list[Text]:
    """A game's translatable texts: the names and descriptions of its hand categories, as its charts print them."""
    file = display_path(game.path) if game.path else ""
    texts = []
    for ranking in game.rankings.values():
        for category in ranking.categories:
            place = f"game '{game.id}' category '{category.name}'"
            texts.append(Text(category_context(game.id, category.name), category.name, place + " name", file))
            if category.description:
                context = category_context(game.id, category.name, "description")
                texts.append(Text(context, category.description, place + " description", file))
    return texts + credits_texts(f"game|{game.id}", getattr(game, "credits", None), file, f"game '{game.id}'")


def category_context(game_id: str, name: str, field: str = "name") -> str:
    return f"game|{game_id}|category|{name}|{field}"


# --- catalogues ----------------------------------------------------------------


@dataclass(frozen=True)
class Catalogue:
    """The translations of one language in one folder: (context, source text) -> translation."""

    language: str
    file: str = ""  # as shown in messages; "" when there is no catalogue file
    entries: Mapping[tuple[str, str], str] = dc_field(default_factory=lambda: MappingProxyType({}))
    # context -> (the source translated, now changed, and its translation): kept to show the translator
    stale: Mapping[str, tuple[str, str]] = dc_field(default_factory=frozen_mapping)
    # where each translation is written (context, source) -> line of the catalogue
    lines: Mapping[tuple[str, str], int] = dc_field(default_factory=lambda: MappingProxyType({}))

    def get(self, context: str, source: str) -> str | None:
        return self.entries.get((context, source))

    @cached_property
    def _by_context(self) -> dict[str, tuple[str, str]]:
        return {context: (source, found) for (context, source), found in self.entries.items()}

    def earlier(self, context: str) -> tuple[str, str] | None:
        """(the source text, its translation) of the entry for ``context`` made from another source text, if any:
        what a stale text was translated from.  The templates' own words share one context, so none of them is
        the earlier form of another."""
        if context == TEMPLATE_WORDS:
            return None
        return self.stale.get(context) or self._by_context.get(context)


def catalogue_file(folder: Path, language: str) -> Path:
    return folder / TRANSLATIONS / f"{language}.po"


def read_catalogue(folder: Path, language: str) -> Catalogue:
    """The catalogue ``translations/LANGUAGE.po`` of ``folder`` (empty when there is none); a broken file is
    a one-line error naming it and its line (see :mod:`.pofiles`)."""
    path = catalogue_file(folder, language)
    if not path.is_file() and not path.is_symlink() and not path.exists():
        return Catalogue(language)
    catalog = read_catalog(path, locale=language)
    entries: dict[tuple[str, str], str] = {}
    lines: dict[tuple[str, str], int] = {}
    stale: dict[str, tuple[str, str]] = {}
    for message in catalog:
        if not message.id or not message.context or isinstance(message.id, tuple):
            continue
        translated = message.string if isinstance(message.string, str) else ""
        if message.fuzzy:
            stale[message.context] = (made_from(message), translated)
        elif translated:
            if len(translated) > MAX_TEXT and (message.context.startswith("deck|") or message.context == TEMPLATE_WORDS):
                problem = f"the translation is {len(translated):,} characters long; a card's text is at most {MAX_TEXT:,}"
                raise AetherpressError(Problem(display_path(path), problem, message.lineno))
            entries[(message.context, str(message.id))] = translated
            lines[(message.context, str(message.id))] = message.lineno
    for message in catalog.obsolete.values():
        if message.context and isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            stale.setdefault(message.context, (message.id, message.string))
    return Catalogue(language, display_path(path), MappingProxyType(entries), frozen_mapping(stale), MappingProxyType(lines))


def translation(text: Text, catalogue: Catalogue) -> str | None:
    """The translation of ``text`` into the catalogue's language: the card list's column first, then the catalogue."""
    return text.columns.get(catalogue.language) or catalogue.get(text.context, text.source)


def state(text: Text, catalogue: Catalogue) -> str:
    """``translated``, ``stale`` (translated from a source text that has since changed) or ``missing``."""
    if translation(text, catalogue) is not None:
        return "translated"
    if catalogue.earlier(text.context) is not None:
        return "stale"
    return "missing"


def localise(deck: Deck, language: str, catalogue: Catalogue) -> Deck:
    """``deck`` in ``language``: each text translated where a translation is found, else in the source language
    (the card keeps the names of its untranslated fields, for drafts and ``validate``)."""

    def one(context: str, source: str) -> str:
        return translation(Text(context, source, ""), catalogue) or source

    suits = tuple(
        Suit(s.id, one(f"deck|{deck.id}|suit|{s.id}|name", s.name), s.symbol, s.colour, s.order, s.attributes) for s in deck.suits
    )
    ranks = tuple(
        Rank(
            r.id,
            one(f"deck|{deck.id}|rank|{r.id}|name", r.name),
            one(f"deck|{deck.id}|rank|{r.id}|label", r.label) if _words_in(r.label) else r.label,
            r.value,
            r.attributes,
        )
        for r in deck.ranks
    )
    fields = _translatable_fields(deck)
    cards = []
    for card in deck.cards:
        values: dict[str, Any] = {"name": card.name, **card.attributes}
        missing = []
        written_at: dict[str, Origin] = {}
        for name in fields:
            value = values.get(name)
            if not isinstance(value, str) or not value.strip():
                continue
            columns = _columns(card, name)
            context = _card_context(deck.id, card.id, name)
            found = translation(Text(context, value, "", columns=columns), catalogue)
            if found is None:
                missing.append(name)
                continue
            values[name] = found
            if catalogue.language not in columns and (context, value) in catalogue.lines:
                written_at[name] = Origin(catalogue.file, catalogue.lines[(context, value)])
        name = values.pop("name")
        cards.append(
            replace(
                card,
                name=name,
                attributes=frozen_mapping(values),
                untranslated=tuple(missing),
                written_at=frozen_mapping(written_at),
            )
        )
    return replace(
        deck,
        title=one(f"deck|{deck.id}|title", deck.title),
        description=one(f"deck|{deck.id}|description", deck.description) if deck.description else deck.description,
        suits=suits,
        ranks=ranks,
        cards=tuple(cards),
        credits=localise_credits(f"deck|{deck.id}", deck.credits, one),
        edition=language,
        template_words=frozen_mapping({text: found for (c, text), found in catalogue.entries.items() if c == TEMPLATE_WORDS}),
    )


def untranslated(deck: Deck) -> list[Problem]:
    """Each card text of an edition printed in the source language, as a problem naming the card and language."""
    if not deck.edition:
        return []
    out = []
    for card in deck.cards:
        if card.untranslated:
            file, line = (card.origin.file, card.origin.line) if card.origin else (deck.source, None)
            fields = ", ".join(card.untranslated)
            out.append(
                Problem(
                    file,
                    f"{described(deck)}, card '{card.id}': {fields} not translated; printed in the source language",
                    line,
                )
            )
    return out


def say(deck: Deck, text: str, **values: Any) -> str:
    """``text`` (one of the words Aetherpress prints on its own, such as :data:`BOX_COUNT`) in the deck's edition's
    language, from its catalogue, ``{name}`` fields filled in (numbers as the language writes them)."""
    found = deck.template_words.get(text, text)
    language = deck.edition or deck.language
    return found.format(**{k: local_number(v, language) if isinstance(v, (int, float)) else v for k, v in values.items()})


def local_number(value: float, language: str) -> str:
    """``value`` as ``language`` writes a number (``63,5`` in German), through Babel's CLDR data."""
    if language in ("", "en"):
        return f"{value:g}"
    # babel loads only when a language is read or checked
    from babel.numbers import format_decimal

    return format_decimal(value, locale=language.replace("-", "_"), group_separator=False).replace("\u202f", "\u00a0")
