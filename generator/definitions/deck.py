"""Deck files: a ``[deck]`` table with suits, ranks, grids, cards (or a card list) and variants.

``load_definition`` reads and checks one file into a :class:`DeckDefinition`;
``DeckDefinition.build`` applies variants and returns a :class:`~.model.Deck`.
Every problem found is reported with its file and place; nothing half-checked
escapes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from pathlib import Path
from typing import Any

from ..errors import AetherpressError, Problem, display_path
from ..locations import real
from ..project import Project
from .cards import MAX_CARDS, Lookup, check_unique, parse_attribute_types, parse_card, parse_grid, parse_ranks, parse_suits
from .credits import parse_credits
from .csvcards import card_list
from .ids import check_id
from .languages import Catalogue, described, localise, parse_languages, read_catalogue
from .model import Card, Deck, Variant, frozen_mapping
from .presets import card_size
from .schema import Context, KeyPath, check_table, field, suggest, type_name
from .styles import DEFAULT_STYLE, load_style, override
from .templates import check_group_templates, check_template
from .toml import read_toml
from .variants import VARIANT_SPEC, _thaw, apply_variant

_DECK_SPEC = {
    "id": field(str, required=True),
    "title": field(str, required=True),
    "description": field(str),
    "size": field(str, dict),
    "template": field(str),
    "back": field(str),
    "backs": field(dict),
    "templates": field(dict),
    "style": field(str),
    "cards": field(str),
    "csv": field(str),  # the old name of "cards"
    "attributes": field(dict),
    "credits": field(dict),
    "language": field(str),
    "editions": field(list, item=str),
    "build": field(bool),  # false: with variants, only the variants are built by default, not the full deck
}
_MAX_EXTENDS = 16
_TOP_SPEC = {
    "deck": field(dict, required=True),
    "style": field(dict),
    "suits": field(list, item=dict),
    "ranks": field(list, item=dict),
    "grid": field(list, item=dict),
    "cards": field(list, item=dict),
    "variants": field(dict),
    "edition": field(dict),  # [edition.de.style]: an edition's changes to the style
}


@dataclass
class DeckDefinition:
    """A checked deck file: the base deck and its variants, not yet applied."""

    path: Path
    project: Project
    base: Deck
    variant_specs: dict[str, dict[str, Any]]
    style_name: str
    ctx: Context = dc_field(repr=False)
    catalogues: dict[str, Catalogue] = dc_field(default_factory=dict, repr=False)  # edition language -> its texts
    build_full: bool = True  # ``[deck] build``: whether a plain build covers the full deck besides its variants
    edition_styles: dict[str, dict[str, Any]] = dc_field(default_factory=dict, repr=False)  # language -> style changes

    @property
    def id(self) -> str:
        return self.base.id

    @property
    def editions(self) -> tuple[str, ...]:
        return self.base.editions

    def build(self, variants: list[str] | tuple[str, ...] = (), language: str = "") -> Deck:
        """The deck with ``variants`` applied, in ``language`` (default: the source language)."""
        deck = self._variants(variants)
        if not language or language == self.base.language:
            return deck
        if language not in self.base.editions:
            editions = ", ".join(self.base.editions) or "none"
            raise AetherpressError(
                Problem(
                    display_path(self.path),
                    f"{described(deck)} has no edition in '{language}'; its editions: {editions}",
                    key="deck.editions",
                )
            )
        deck = localise(deck, language, self.catalogues[language])
        changes = self.edition_styles.get(language)
        if changes:  # checked as the file was read
            style = override(self._context(), _thaw(deck.style), changes, ("edition", language, "style"), self.project)
            deck = replace(deck, style=frozen_mapping(style))
        return deck

    def _variants(self, variants: list[str] | tuple[str, ...]) -> Deck:
        deck = self.base
        named: set[str] = set()
        twice = None
        for v in variants:
            if v in named:
                twice = v
                break
            named.add(v)
        if twice is not None:  # applied again, it would find its own changes made (its cards already removed)
            raise AetherpressError(
                Problem(
                    display_path(self.path),
                    f"'{self.id}:{'+'.join(variants)}' names variant '{twice}' twice; each variant applies once",
                )
            )
        for variant_id in variants:
            if variant_id not in self.variant_specs:
                raise AetherpressError(
                    Problem(
                        display_path(self.path),
                        f"deck '{self.id}' has no variant '{variant_id}'{suggest(variant_id, self.variant_specs)}; it has: {', '.join(self.variant_specs) or 'none'}",
                    )
                )
            ctx = self._context()
            deck = self._apply(deck, variant_id, ctx, seen=(), done=set())
            ctx.raise_if_any()
        return replace(deck, applied=tuple(variants))

    def _context(self) -> Context:
        ctx = Context(self.ctx.file, self.ctx.locator)
        ctx.folder = self.path.parent
        ctx.readings = self.project.readings
        return ctx

    def _apply(self, deck: Deck, variant_id: str, ctx: Context, seen: tuple[str, ...], done: set[str]) -> Deck:
        """``deck`` with ``variant_id`` applied after the variants it extends; each variant at most once."""
        spec = self.variant_specs[variant_id]
        path: KeyPath = ("variants", variant_id)
        if variant_id in seen:
            ctx.error(path + ("extends",), f"variant '{variant_id}' extends itself through {' -> '.join(seen)}")
            return deck
        if len(seen) >= _MAX_EXTENDS:  # reported once by _extends_too_deep
            return deck
        if variant_id in done:
            return deck
        done.add(variant_id)
        extends = spec.get("extends", [])
        for parent in [extends] if isinstance(extends, str) else extends:
            if parent not in self.variant_specs:
                ctx.error(path + ("extends",), f"unknown variant '{parent}'{suggest(parent, self.variant_specs)}")
            else:
                deck = self._apply(deck, parent, ctx, seen + (variant_id,), done)
        return apply_variant(deck, spec, path, ctx, self.project)


def _extends_too_deep(specs: dict[str, dict[str, Any]]) -> str | None:
    """The first variant whose chain of ``extends`` is longer than :data:`_MAX_EXTENDS`, if any."""
    depth: dict[str, int] = {}

    def chain(vid: str, stack: tuple[str, ...]) -> int:
        if vid in depth or vid in stack or vid not in specs or len(stack) > _MAX_EXTENDS:
            return depth.get(vid, 0)
        parents = specs[vid].get("extends", [])
        parents = [parents] if isinstance(parents, str) else parents
        depth[vid] = 1 + max((chain(p, stack + (vid,)) for p in parents), default=0)
        return depth[vid]

    return next((vid for vid in specs if chain(vid, ()) > _MAX_EXTENDS), None)


def load_definition(path: Path, project: Project | None = None) -> DeckDefinition:
    project = project or Project.find(path.parent)
    data, ctx = read_toml(path)
    ctx.folder = path.parent
    ctx.readings = project.readings
    if "deck" not in data and ("game" in data or "rulebook" in data):
        raise AetherpressError(Problem(ctx.file, "this is not a deck definition (it has no [deck] table)"))
    top = check_table(ctx, data, _TOP_SPEC, (), "a deck file")
    head = check_table(ctx, top.get("deck", {}), _DECK_SPEC, ("deck",), "[deck]")
    ctx.raise_if_any()

    check_id(ctx, head["id"], ("deck", "id"), "deck")
    attributes = parse_attribute_types(ctx, head.get("attributes", {}))
    language, editions = parse_languages(ctx, head, ("deck",))
    credits = parse_credits(ctx, head.get("credits"), ("deck", "credits"))
    suits = parse_suits(ctx, top.get("suits", []))
    ranks = parse_ranks(ctx, top.get("ranks", []))
    size = card_size(ctx, head.get("size", "poker"), ("deck", "size"), project)
    style_name = head.get("style", DEFAULT_STYLE)
    style = override(ctx, load_style(ctx, project, style_name), top.get("style", {}), ("style",), project)
    template = check_template(ctx, head.get("template", "plain"), ("deck", "template"), project)
    back = check_template(ctx, head.get("back", "back"), ("deck", "back"), project)
    backs = check_group_templates(ctx, head.get("backs", {}), ("deck", "backs"), project)
    face_templates = check_group_templates(ctx, head.get("templates", {}), ("deck", "templates"), project)
    ctx.raise_if_any()

    lookup = Lookup(suits, ranks)
    cards: list[Card] = []
    places: list[KeyPath | None] = []  # where each card was defined, for duplicate reports
    for i, grid in enumerate(top.get("grid", [])):
        made = parse_grid(ctx, grid, ("grid", i), lookup, attributes)
        cards.extend(made)
        places.extend([("grid", i)] * len(made))
    if "cards" in head and "csv" in head:
        ctx.error(("deck", "csv"), "give the card list once: 'cards' (or its old name 'csv'), not both")
    elif "cards" in head or "csv" in head:
        key = "cards" if "cards" in head else "csv"
        made = card_list(ctx, head[key], ("deck", key), path.parent, lookup, attributes, editions)
        cards.extend(made)
        places.extend([None] * len(made))
    for i, raw in enumerate(top.get("cards", [])):
        card = parse_card(ctx, raw, ("cards", i), lookup, attributes)
        if card:
            cards.append(card)
            places.append(("cards", i))
    check_unique(ctx, cards, ("cards",), places=places)
    if sum(c.copies for c in cards) > MAX_CARDS:
        ctx.error(("cards",), f"a deck may hold at most {MAX_CARDS:,} cards, this one has {sum(c.copies for c in cards):,}")

    variant_specs: dict[str, dict[str, Any]] = {}
    for vid, spec in top.get("variants", {}).items():
        if not check_id(ctx, vid, ("variants", vid), "variant"):
            continue
        good = check_table(ctx, spec, VARIANT_SPEC, ("variants", vid), f"variant '{vid}'")
        variant_specs[vid] = good
    ctx.raise_if_any()

    base = Deck(
        id=head["id"],
        title=head["title"],
        description=head.get("description", ""),
        source=display_path(path),
        suits=tuple(suits),
        ranks=tuple(ranks),
        cards=tuple(cards),
        size=size,
        template=template,
        back_template=back,
        backs=frozen_mapping(backs),
        templates=frozen_mapping(face_templates),
        style=frozen_mapping(style),
        variants=tuple(Variant(v, s.get("title", v), s.get("description", "")) for v, s in variant_specs.items()),
        attribute_types=frozen_mapping(attributes),
        folder=str(real(path.parent)),
        credits=credits,
        language=language,
        editions=editions,
    )
    deepest = _extends_too_deep(variant_specs)
    if deepest is not None:
        ctx.error(("variants", deepest, "extends"), f"variants extend each other more than {_MAX_EXTENDS} deep")
        ctx.raise_if_any()
    catalogues = {}
    for code in editions:
        try:
            catalogues[code] = read_catalogue(path.parent, code)
        except AetherpressError as exc:
            ctx.problems.extend(exc.problems)
    ctx.raise_if_any()
    if head.get("build") is False and not variant_specs:
        ctx.error(("deck", "build"), "build = false leaves nothing to build: the deck has no variants")
        ctx.raise_if_any()
    edition_styles = _edition_styles(ctx, top.get("edition", {}), editions, style, project)
    ctx.raise_if_any()
    definition = DeckDefinition(
        path, project, base, variant_specs, style_name, ctx, catalogues, head.get("build", True), edition_styles
    )
    for vid in variant_specs:  # every variant must apply cleanly on its own
        vctx = definition._context()
        definition._apply(base, vid, vctx, seen=(), done=set())
        ctx.problems.extend(vctx.problems)
    ctx.raise_if_any()
    return definition


def _edition_styles(
    ctx: Context, tables: dict[str, Any], editions: tuple[str, ...], style: dict[str, Any], project: Project
) -> dict[str, dict[str, Any]]:
    """The ``[edition.LANG.style]`` tables of a deck file: each edition's changes to the style (a smaller title
    for German's long words), checked against the deck's style."""
    out: dict[str, dict[str, Any]] = {}
    for code, table in tables.items():
        place: KeyPath = ("edition", code)
        if code not in editions:
            ctx.error(place, f"'{code}' is not one of the deck's editions ({', '.join(editions) or 'none'})")
            continue
        if not isinstance(table, dict):
            ctx.error(place, f"must be a table ([edition.{code}.style]), not {type_name(table)}")
            continue
        for key in table:
            if key != "style":
                ctx.error(place + (key,), f"unknown key '{key}'; an edition's table holds its changes to the style")
        if isinstance(table.get("style"), dict):
            override(ctx, style, table["style"], place + ("style",), project)
            out[code] = table["style"]
        elif "style" in table:
            ctx.error(place + ("style",), f"must be a table of style keys, not {type_name(table['style'])}")
    return out
