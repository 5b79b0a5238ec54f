"""Reading deck definitions (TOML, with card lists in CSV) into the model.

``load_definition`` reads and checks one file; ``DeckDefinition.build`` applies
variants and returns a :class:`~generator.model.Deck`.  Every problem found is
reported with its file and place; nothing half-checked escapes.
"""
from __future__ import annotations

import copy
import csv
import io
import re
import tomllib
from dataclasses import dataclass, field as dc_field, replace
from pathlib import Path
from typing import Any, Callable

from .errors import AetherpressError, Problem, display_path
from .model import Card, CardSize, Deck, Rank, Suit, Variant, frozen_mapping
from .project import Project, safe_join
from .schema import Context, Field, TomlLocator, check_table, field, suggest, type_name

MAX_CARDS = 10_000
MAX_FILE_BYTES = 2_000_000
MAX_TEXT = 10_000

ATTRIBUTE_TYPES: dict[str, Field] = {
    "str": field(str), "text": field(str), "int": field(int), "float": field(float),
    "bool": field(bool), "list": field(list, item=str), "image": field(str),
}
IMAGE_MAGIC = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg"}
MAX_IMAGE_BYTES = 5_000_000

DECK_SPEC = {
    "id": field(str, required=True), "title": field(str, required=True),
    "description": field(str), "size": field(str, dict), "template": field(str),
    "back": field(str), "backs": field(dict), "templates": field(dict), "style": field(str),
    "csv": field(str), "attributes": field(dict),
}
SIZE_SPEC = {"width": field(float, required=True), "height": field(float, required=True),
             "unit": field(str)}
SUIT_SPEC = {"id": field(str, required=True), "name": field(str, required=True),
             "symbol": field(str), "colour": field(str), "order": field(int),
             "attributes": field(dict)}
RANK_SPEC = {"id": field(str, required=True), "name": field(str, required=True),
             "label": field(str), "value": field(int), "attributes": field(dict)}
GRID_SPEC = {"suits": field(str, list, item=str), "ranks": field(list, item=str),
             "id": field(str), "name": field(str), "group": field(str), "copies": field(int),
             "attributes": field(dict)}
CARD_SPEC = {"id": field(str), "name": field(str, required=True), "rank": field(str),
             "suits": field(str, list, item=str), "group": field(str), "copies": field(int)}
VARIANT_SPEC = {
    "title": field(str), "description": field(str), "extends": field(str, list, item=str),
    "remove_cards": field(list, item=str), "remove_ranks": field(list, item=str),
    "remove_suits": field(list, item=str), "remove_groups": field(list, item=str),
    "keep_cards": field(list, item=str), "add_cards": field(list, item=dict),
    "cards": field(dict), "ranks": field(dict), "suits": field(dict),
    "deck": field(dict), "style": field(dict),
}
VARIANT_DECK_SPEC = {"title": field(str), "template": field(str), "back": field(str),
                     "backs": field(dict), "templates": field(dict), "size": field(str, dict)}
TOP_SPEC = {"deck": field(dict, required=True), "style": field(dict), "suits": field(list, item=dict),
            "ranks": field(list, item=dict), "grid": field(list, item=dict),
            "cards": field(list, item=dict), "variants": field(dict)}
UNITS = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def read_toml(path: Path, project: Project | None = None) -> tuple[dict[str, Any], Context]:
    name = display_path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise AetherpressError(Problem(name, f"file is larger than {MAX_FILE_BYTES // 1_000_000} MB; split it or shorten its texts"))
        raw = path.read_bytes()
    except OSError as exc:
        raise AetherpressError(Problem(name, f"cannot read file ({exc.strerror})")) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise AetherpressError(Problem(name, "file is not UTF-8 text; save it as UTF-8", line)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else None
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        if match:
            message += f" at column {match.group(2)}"
        raise AetherpressError(Problem(name, f"TOML syntax error: {message}", line)) from None
    return data, Context(name, TomlLocator(text))


@dataclass
class DeckDefinition:
    """A checked deck file: the base deck and its variants, not yet applied."""
    path: Path
    project: Project
    base: Deck
    variant_specs: dict[str, dict[str, Any]]
    style_name: str
    ctx: Context = dc_field(repr=False)

    @property
    def id(self) -> str:
        return self.base.id

    def build(self, variants: list[str] | tuple[str, ...] = ()) -> Deck:
        deck = self.base
        for variant_id in variants:
            if variant_id not in self.variant_specs:
                raise AetherpressError(Problem(display_path(self.path), f"deck '{self.id}' has no variant '{variant_id}'{suggest(variant_id, self.variant_specs)}; it has: {', '.join(self.variant_specs) or 'none'}"))
            ctx = Context(self.ctx.file, self.ctx.locator)
            ctx.folder = self.path.parent
            deck = self._apply(deck, variant_id, ctx, seen=())
            ctx.raise_if_any()
        return replace(deck, applied=tuple(variants))

    def _apply(self, deck: Deck, variant_id: str, ctx: Context, seen: tuple[str, ...]) -> Deck:
        spec = self.variant_specs[variant_id]
        path = ("variants", variant_id)
        if variant_id in seen:
            ctx.error(path + ("extends",), f"variant '{variant_id}' extends itself through {' -> '.join(seen)}")
            return deck
        extends = spec.get("extends", [])
        for parent in [extends] if isinstance(extends, str) else extends:
            if parent not in self.variant_specs:
                ctx.error(path + ("extends",), f"unknown variant '{parent}'{suggest(parent, self.variant_specs)}")
            else:
                deck = self._apply(deck, parent, ctx, seen + (variant_id,))
        return apply_variant(deck, spec, path, ctx, self.project, self.path.parent)


def load_definition(path: Path, project: Project | None = None) -> DeckDefinition:
    project = project or Project.find(path.parent)
    data, ctx = read_toml(path, project)
    ctx.folder = path.parent
    if "deck" not in data and ("game" in data or "rulebook" in data):
        raise AetherpressError(Problem(ctx.file, "this is not a deck definition (it has no [deck] table)"))
    top = check_table(ctx, data, TOP_SPEC, (), "a deck file")
    head = check_table(ctx, top.get("deck", {}), DECK_SPEC, ("deck",), "[deck]")
    ctx.raise_if_any()

    attributes = _attribute_types(ctx, head.get("attributes", {}))
    suits = _suits(ctx, top.get("suits", []))
    ranks = _ranks(ctx, top.get("ranks", []))
    size = _size(ctx, head.get("size", "poker"), ("deck", "size"), project)
    style_name = head.get("style", "default")
    style = _style(ctx, style_name, top.get("style", {}), project)
    template = _template(ctx, head.get("template", "plain"), ("deck", "template"), project)
    back = _template(ctx, head.get("back", "back"), ("deck", "back"), project)
    backs = _group_templates(ctx, head.get("backs", {}), ("deck", "backs"), project)
    face_templates = _group_templates(ctx, head.get("templates", {}), ("deck", "templates"), project)
    ctx.raise_if_any()

    lookup = _Lookup(suits, ranks)
    cards: list[Card] = []
    places: list[tuple] = []  # where each card was defined, for duplicate reports
    for i, grid in enumerate(top.get("grid", [])):
        made = _grid(ctx, grid, ("grid", i), lookup, attributes)
        cards.extend(made)
        places.extend([("grid", i)] * len(made))
    if "csv" in head:
        made = _csv_cards(ctx, head["csv"], path.parent, lookup, attributes)
        cards.extend(made)
        places.extend([None] * len(made))
    for i, raw in enumerate(top.get("cards", [])):
        card = _card(ctx, raw, ("cards", i), lookup, attributes)
        if card:
            cards.append(card)
            places.append(("cards", i))
    _check_unique(ctx, cards, ("cards",), places=places)
    if sum(c.copies for c in cards) > MAX_CARDS:
        ctx.error(("cards",), f"a deck may hold at most {MAX_CARDS:,} cards, this one has {sum(c.copies for c in cards):,}")

    variant_specs: dict[str, dict[str, Any]] = {}
    for vid, spec in top.get("variants", {}).items():
        good = check_table(ctx, spec, VARIANT_SPEC, ("variants", vid), f"variant '{vid}'")
        variant_specs[vid] = good
    ctx.raise_if_any()

    base = Deck(
        id=head["id"], title=head["title"], description=head.get("description", ""),
        source=display_path(path), suits=tuple(suits), ranks=tuple(ranks), cards=tuple(cards),
        size=size, template=template, back_template=back, backs=frozen_mapping(backs),
        templates=frozen_mapping(face_templates),
        style=frozen_mapping(style),
        variants=tuple(Variant(v, s.get("title", v), s.get("description", "")) for v, s in variant_specs.items()),
        attributes=frozen_mapping({"attribute_types": attributes, "folder": str(path.parent.resolve())}),
    )
    definition = DeckDefinition(path, project, base, variant_specs, style_name, ctx)
    for vid in variant_specs:  # every variant must apply cleanly on its own
        vctx = Context(ctx.file, ctx.locator)
        vctx.folder = path.parent
        definition._apply(base, vid, vctx, seen=())
        ctx.problems.extend(vctx.problems)
    ctx.raise_if_any()
    return definition


# --- pieces -----------------------------------------------------------------

class _Lookup:
    def __init__(self, suits: list[Suit], ranks: list[Rank]):
        self.suits = suits
        self.ranks = ranks

    def rank(self, text: str) -> Rank | None:
        for r in self.ranks:
            if text == r.id:
                return r
        low = text.lower()
        for r in self.ranks:
            if low in (r.id.lower(), r.name.lower(), r.label.lower()):
                return r
        return None

    def suit(self, text: str) -> Suit | None:
        low = text.lower()
        for s in self.suits:
            if low in (s.id.lower(), s.name.lower()):
                return s
        return None


def _attribute_types(ctx: Context, raw: dict[str, Any]) -> dict[str, str]:
    out = {}
    for name, kind in raw.items():
        if name in CARD_SPEC:
            ctx.error(("deck", "attributes", name), f"'{name}' is a built-in card field and cannot be declared as an attribute")
        elif not isinstance(kind, str) or kind not in ATTRIBUTE_TYPES:
            ctx.error(("deck", "attributes", name), f"unknown attribute type '{kind}'{suggest(str(kind), ATTRIBUTE_TYPES)}; use one of {', '.join(ATTRIBUTE_TYPES)}")
        else:
            out[name] = kind
    return out


def _free_attributes(ctx: Context, raw: Any, path: tuple) -> dict[str, Any]:
    if not isinstance(raw, dict):
        ctx.error(path, "must be a table")
        return {}
    for key, value in raw.items():
        if isinstance(value, dict):
            ctx.error(path + (key,), "attribute values must be text, numbers, true/false or lists")
    return raw


def _suits(ctx: Context, raw: list[dict]) -> list[Suit]:
    suits: list[Suit] = []
    for i, entry in enumerate(raw):
        good = check_table(ctx, entry, SUIT_SPEC, ("suits", i), "a suit")
        if "id" not in good or "name" not in good:
            continue
        suits.append(Suit(good["id"], good["name"], good.get("symbol", ""), _colour(ctx, good.get("colour", "#000000"), ("suits", i, "colour")),
                          good.get("order", len(raw) - i), frozen_mapping(_free_attributes(ctx, good.get("attributes", {}), ("suits", i, "attributes")))))
    _check_unique(ctx, suits, ("suits",), "suit")
    return suits


def _ranks(ctx: Context, raw: list[dict]) -> list[Rank]:
    ranks: list[Rank] = []
    for i, entry in enumerate(raw):
        good = check_table(ctx, entry, RANK_SPEC, ("ranks", i), "a rank")
        if "id" not in good or "name" not in good:
            continue
        ranks.append(Rank(good["id"], good["name"], good.get("label", good["name"]), good.get("value", i + 1),
                          frozen_mapping(_free_attributes(ctx, good.get("attributes", {}), ("ranks", i, "attributes")))))
    _check_unique(ctx, ranks, ("ranks",), "rank")
    return ranks


def _colour(ctx: Context, value: str, path: tuple) -> str:
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        ctx.error(path, f"colour '{value}' must be written #rrggbb")
        return "#000000"
    return value.lower()


def _check_unique(ctx: Context, items: list, path: tuple, what: str = "card",
                  places: list[tuple | None] | None = None) -> None:
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        if item.id in seen:
            message = f"duplicate {what} id '{item.id}'"
            origin = item.attributes.get("_origin") if what == "card" else None
            if origin:
                file, _, line = origin.rpartition(":")
                ctx.problems.append(Problem(file, message, int(line)))
            else:
                ctx.error(places[i] if places and places[i] else path + (i,), message)
        seen[item.id] = i


def load_sizes(project: Project) -> dict[str, CardSize]:
    path = project.templates_dir / "sizes.toml"
    data, ctx = read_toml(path, project)
    sizes = {}
    for name, entry in data.get("sizes", {}).items():
        good = check_table(ctx, entry, SIZE_SPEC, ("sizes", name), f"size '{name}'")
        if "width" in good and "height" in good:
            unit = UNITS.get(good.get("unit", "mm"))
            if unit is None:
                ctx.error(("sizes", name, "unit"), f"unknown unit; use one of {', '.join(UNITS)}")
                continue
            sizes[name] = CardSize(name, round(good["width"] * unit, 4), round(good["height"] * unit, 4))
    ctx.raise_if_any()
    return sizes


def _size(ctx: Context, value: Any, path: tuple, project: Project) -> CardSize:
    fallback = CardSize("poker", 63.5, 88.9)
    if isinstance(value, str):
        sizes = load_sizes(project)
        if value not in sizes:
            ctx.error(path, f"unknown card size '{value}'{suggest(value, sizes)}; presets: {', '.join(sizes)}")
            return fallback
        return sizes[value]
    good = check_table(ctx, value, SIZE_SPEC, path, "a card size")
    if "width" not in good or "height" not in good:
        return fallback
    unit = good.get("unit", "mm")
    if unit not in UNITS:
        ctx.error(path + ("unit",), f"unknown unit '{unit}'; use one of {', '.join(UNITS)}")
        return fallback
    width, height = good["width"] * UNITS[unit], good["height"] * UNITS[unit]
    if width <= 0 or height <= 0:
        ctx.error(path, "card width and height must be greater than zero")
        return fallback
    if width > 500 or height > 500:
        ctx.error(path, "card is larger than 500 mm; check the unit")
        return fallback
    return CardSize("custom", round(width, 4), round(height, 4))


def _template(ctx: Context, name: str, path: tuple, project: Project) -> str:
    folder = project.templates_dir / "cards"
    target = safe_join(folder, name + ".svg.j2", project.templates_dir)
    if target is None:
        ctx.error(path, f"template name '{name}' must be a plain name inside templates/cards/")
    elif not target.is_file():
        known = sorted(p.name[:-7] for p in folder.glob("*.svg.j2"))
        ctx.error(path, f"template '{name}' not found in templates/cards/{suggest(name, known)}")
    return name


def _group_templates(ctx: Context, raw: dict[str, Any], path: tuple, project: Project) -> dict[str, str]:
    out = {}
    for group, name in raw.items():
        if not isinstance(name, str):
            ctx.error(path + (group,), f"must be a template name, not {type_name(name)}")
        else:
            out[group] = _template(ctx, name, path + (group,), project)
    return out


def _style(ctx: Context, name: str, overrides: dict[str, Any], project: Project) -> dict[str, Any]:
    folder = project.templates_dir / "styles"
    target = safe_join(folder, name + ".toml", project.templates_dir)
    if target is None or not target.is_file():
        known = sorted(p.stem for p in folder.glob("*.toml"))
        ctx.error(("deck", "style"), f"style '{name}' not found in templates/styles/{suggest(name, known)}")
        return dict(overrides)
    data, _ = read_toml(target, project)
    style = deep_merge(data, overrides)
    _check_fonts(ctx, style, ("style",))
    return style


def _check_fonts(ctx: Context, style: dict[str, Any], path: tuple) -> None:
    """Every ``*_font`` style setting must name a font family shipped with Aetherpress."""
    from .fonts import FAMILIES
    for key, value in style.items():
        if key.endswith("_font") and value not in FAMILIES:
            ctx.error(path + (key,), f"font '{value}' is not shipped with Aetherpress{suggest(str(value), FAMILIES)}; fonts: {', '.join(FAMILIES)}")


def deep_merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(dict(base))
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _suit_list(ctx: Context, value: Any, path: tuple, lookup: _Lookup) -> tuple[str, ...]:
    if isinstance(value, str):
        if value.strip() == "*":
            return tuple(s.id for s in lookup.suits)
        value = [v for v in value.split("+") if v.strip()]
    out = []
    for i, name in enumerate(value):
        suit = lookup.suit(name.strip())
        if suit is None:
            ctx.error(path, f"unknown suit '{name.strip()}'{suggest(name.strip(), [s.id for s in lookup.suits] + [s.name for s in lookup.suits])}")
        elif suit.id in out:
            ctx.error(path, f"suit '{suit.id}' is listed twice")
        else:
            out.append(suit.id)
    return tuple(out)


def _card_attrs(ctx: Context, raw: dict[str, Any], path: tuple, attributes: dict[str, str]) -> dict[str, Any]:
    out = {}
    for key, value in raw.items():
        if key in CARD_SPEC:
            continue
        if key not in attributes:
            ctx.error(path + (key,), f"unknown key '{key}' in a card{suggest(key, list(CARD_SPEC) + list(attributes))}; declare custom fields under [deck.attributes]")
            continue
        rule = ATTRIBUTE_TYPES[attributes[key]]
        if not _value_ok(value, rule):
            ctx.error(path + (key,), f"must be {rule.describe()}, not {type_name(value)}")
            continue
        if isinstance(value, str) and len(value) > MAX_TEXT:
            ctx.error(path + (key,), f"text is {len(value):,} characters long; the limit is {MAX_TEXT:,}")
            continue
        if attributes[key] == "image" and not _image_ok(ctx, value, path + (key,)):
            continue
        out[key] = value
    return out


def _image_ok(ctx: Context, value: str, path: tuple) -> bool:
    """An image is a PNG or JPEG file inside the deck's folder."""
    folder = getattr(ctx, "folder", None)
    if folder is None:
        return True
    target = safe_join(folder, value)
    if target is None:
        ctx.error(path, f"image path '{value}' must be a relative path inside the deck's folder")
        return False
    if not target.is_file():
        ctx.error(path, f"image '{value}' not found in {display_path(folder)}")
        return False
    if target.stat().st_size > MAX_IMAGE_BYTES:
        ctx.error(path, f"image '{value}' is larger than {MAX_IMAGE_BYTES // 1_000_000} MB")
        return False
    with open(target, "rb") as f:
        head = f.read(8)
    if not any(head.startswith(magic) for magic in IMAGE_MAGIC):
        ctx.error(path, f"image '{value}' is not a PNG or JPEG file")
        return False
    return True


def _value_ok(value: Any, rule: Field) -> bool:
    from .schema import type_ok
    if not type_ok(value, rule.types):
        return False
    if isinstance(value, list) and rule.item is not None:
        return all(type_ok(v, (rule.item,)) for v in value)
    return True


def _card(ctx: Context, raw: dict[str, Any], path: tuple, lookup: _Lookup, attributes: dict[str, str],
          origin: str | None = None) -> Card | None:
    good = check_table(ctx, raw, CARD_SPEC, path, "a card", extra={k: field(object) for k in raw if k not in CARD_SPEC})
    attrs = _card_attrs(ctx, {k: v for k, v in raw.items() if k not in CARD_SPEC}, path, attributes)
    if "name" not in good:
        return None
    rank_id = None
    if good.get("rank"):
        rank = lookup.rank(good["rank"])
        if rank is None:
            ctx.error(path + ("rank",), f"unknown rank '{good['rank']}'{suggest(good['rank'], [r.id for r in lookup.ranks] + [r.name for r in lookup.ranks])}")
        else:
            rank_id = rank.id
    suits = _suit_list(ctx, good.get("suits", []), path + ("suits",), lookup)
    copies = good.get("copies", 1)
    if copies < 1:
        ctx.error(path + ("copies",), "copies must be at least 1")
        copies = 1
    elif copies > MAX_CARDS:
        ctx.error(path + ("copies",), f"a card may be printed at most {MAX_CARDS:,} times")
        copies = 1
    card_id = good.get("id") or slug(good["name"])
    if not card_id:
        ctx.error(path + ("id",), "card id is empty")
    if origin:
        attrs["_origin"] = origin
    return Card(card_id, good["name"], rank_id, suits, good.get("group", "default"), copies, frozen_mapping(attrs))


def _grid(ctx: Context, raw: dict[str, Any], path: tuple, lookup: _Lookup, attributes: dict[str, str]) -> list[Card]:
    good = check_table(ctx, raw, GRID_SPEC, path, "a card grid")
    suits = _suit_list(ctx, good.get("suits", "*"), path + ("suits",), lookup)
    rank_ids = []
    for name in good.get("ranks", [r.id for r in lookup.ranks]):
        rank = lookup.rank(name)
        if rank is None:
            ctx.error(path + ("ranks",), f"unknown rank '{name}'{suggest(name, [r.id for r in lookup.ranks])}")
        else:
            rank_ids.append(rank.id)
    attrs = _card_attrs(ctx, good.get("attributes", {}), path + ("attributes",), attributes)
    id_format = good.get("id", "{rank}-{suit}")
    name_format = good.get("name", "{rank_name} of {suit_name}")
    for key, pattern in (("id", id_format), ("name", name_format)):
        for placeholder in re.findall(r"\{([^{}]*)\}", pattern):
            if placeholder not in GRID_FIELDS:
                ctx.error(path + (key,), f"unknown placeholder '{{{placeholder}}}'{suggest(placeholder, GRID_FIELDS)}; use {', '.join('{' + f + '}' for f in GRID_FIELDS)}")
                return []
    copies = good.get("copies", 1)
    if copies < 1:
        ctx.error(path + ("copies",), "copies must be at least 1")
        return []
    if len(suits) * len(rank_ids) * copies > MAX_CARDS:
        ctx.error(path, f"this grid makes {len(suits) * len(rank_ids) * copies:,} cards; a deck may hold at most {MAX_CARDS:,}")
        return []
    cards = []
    for suit_id in suits:
        suit = lookup.suit(suit_id)
        for rank_id in rank_ids:
            rank = lookup.rank(rank_id)
            fields = {"rank": rank.id, "suit": suit.id, "rank_name": rank.name, "rank_label": rank.label,
                      "suit_name": suit.name}
            card_id = _substitute(id_format, fields)
            name = _substitute(name_format, fields)
            cards.append(Card(card_id, name, rank.id, (suit.id,), good.get("group", "default"),
                              copies, frozen_mapping(attrs)))
    return cards


GRID_FIELDS = ("rank", "suit", "rank_name", "rank_label", "suit_name")


def _substitute(pattern: str, fields: dict[str, str]) -> str:
    """Fill ``{name}`` placeholders (checked beforehand); nothing else is interpreted."""
    return re.sub(r"\{([^{}]*)\}", lambda m: fields[m.group(1)], pattern)


def _csv_cards(ctx: Context, relative: str, folder: Path, lookup: _Lookup, attributes: dict[str, str]) -> list[Card]:
    target = safe_join(folder, relative)
    if target is None:
        ctx.error(("deck", "csv"), f"CSV path '{relative}' must stay inside the deck's folder")
        return []
    name = display_path(target)
    if not target.is_file():
        ctx.error(("deck", "csv"), f"CSV file '{relative}' not found beside the deck file")
        return []
    if target.stat().st_size > MAX_FILE_BYTES:
        ctx.error(("deck", "csv"), f"CSV file '{relative}' is larger than {MAX_FILE_BYTES // 1_000_000} MB")
        return []
    raw = target.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        ctx.problems.append(Problem(name, "file is not UTF-8 text; save it as UTF-8", raw[: exc.start].count(b"\n") + 1))
        return []
    reader = csv.reader(io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n"), newline=""))
    csv_ctx = Context(name)
    csv_ctx.folder = folder
    cards: list[Card] = []
    try:
        header = next(reader, None)
        if not header:
            csv_ctx.error(None, "CSV file is empty; it needs a header row", line=1)
        else:
            header = [h.strip() for h in header]
            for h in header:
                if h not in CARD_SPEC and h not in attributes:
                    csv_ctx.error(None, f"unknown column '{h}'{suggest(h, list(CARD_SPEC) + list(attributes))}; declare custom columns under [deck.attributes]", line=1)
            if "name" not in header:
                csv_ctx.error(None, "missing required column 'name'", line=1)
            if not csv_ctx.problems:
                for row in reader:
                    line = reader.line_num
                    if not any(cell.strip() for cell in row):
                        continue
                    if len(row) != len(header):
                        csv_ctx.error(None, f"expected {len(header)} columns ({', '.join(header)}), found {len(row)}", line=line)
                        continue
                    if len(cards) >= MAX_CARDS:
                        csv_ctx.error(None, f"more than {MAX_CARDS:,} cards", line=line)
                        break
                    values = _csv_values(csv_ctx, dict(zip(header, row)), line, attributes)
                    row_ctx = _RowContext(csv_ctx, line)
                    card = _card(row_ctx, values, (), lookup, attributes, origin=f"{name}:{line}")
                    if card:
                        cards.append(card)
    except csv.Error as exc:
        csv_ctx.error(None, f"CSV syntax error: {exc}", line=reader.line_num)
    ctx.problems.extend(csv_ctx.problems)
    return cards


class _RowContext(Context):
    """Reports a CSV row's problems by line and column name."""

    def __init__(self, parent: Context, line: int):
        super().__init__(parent.file)
        self.parent, self.row_line = parent, line
        self.folder = getattr(parent, "folder", None)

    def error(self, path, message, line=None):
        column = next((p for p in (path or ()) if isinstance(p, str)), None)
        self.parent.error(None, (f"column '{column}': " if column else "") + message, line=self.row_line)


def _csv_values(ctx: Context, row: dict[str, str], line: int, attributes: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, text in row.items():
        text = text.strip()
        if key == "copies":
            if text:
                try:
                    out[key] = int(text)
                except ValueError:
                    ctx.error(None, f"column 'copies': '{text}' is not a whole number", line=line)
            continue
        kind = attributes.get(key)
        if kind is None:
            if text:
                out[key] = text
            continue
        if text == "":
            continue
        if kind == "int":
            try:
                out[key] = int(text)
            except ValueError:
                ctx.error(None, f"column '{key}': '{text}' is not a whole number", line=line)
        elif kind == "float":
            try:
                out[key] = float(text)
            except ValueError:
                ctx.error(None, f"column '{key}': '{text}' is not a number", line=line)
        elif kind == "bool":
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                ctx.error(None, f"column '{key}': '{text}' is not true or false", line=line)
            else:
                out[key] = text.lower() in ("true", "yes", "1")
        elif kind == "list":
            out[key] = [v.strip() for v in text.split("+") if v.strip()]
        else:
            out[key] = text.replace("\\n", "\n")
    return out


# --- variants ----------------------------------------------------------------

def apply_variant(deck: Deck, spec: dict[str, Any], path: tuple, ctx: Context, project: Project,
                  folder: Path) -> Deck:
    attributes = dict(deck.attributes.get("attribute_types", {}))
    suits = list(deck.suits)
    ranks = list(deck.ranks)
    cards = list(deck.cards)
    card_ids = {c.id for c in cards}

    def check_ids(key: str, ids: list[str], known: list[str], what: str) -> set[str]:
        for i, item in enumerate(ids):
            if item not in known:
                ctx.error(path + (key,), f"{what} '{item}' does not exist in deck '{deck.id}'{suggest(item, known)}")
        return set(ids)

    keep = check_ids("keep_cards", spec.get("keep_cards", []), sorted(card_ids), "card")
    gone_ranks = check_ids("remove_ranks", spec.get("remove_ranks", []), [r.id for r in ranks], "rank")
    gone_suits = check_ids("remove_suits", spec.get("remove_suits", []), [s.id for s in suits], "suit")
    gone_cards = check_ids("remove_cards", spec.get("remove_cards", []), sorted(card_ids), "card")
    gone_groups = check_ids("remove_groups", spec.get("remove_groups", []), sorted({c.group for c in cards}), "card group")

    def removed(card: Card) -> bool:
        if card.id in keep:
            return False
        return (card.id in gone_cards or card.group in gone_groups or card.rank in gone_ranks
                or (bool(card.suits) and set(card.suits) <= gone_suits and len(card.suits) < len(suits)))

    cards = [c for c in cards if not removed(c)]
    cards = [replace(c, suits=tuple(s for s in c.suits if s not in gone_suits)) for c in cards]
    used_before = {c.rank for c in deck.cards}
    used_after = {c.rank for c in cards}
    # a rank leaves the ladder when it is removed, or when the variant removed all its cards
    ranks = [r for r in ranks if (r.id not in gone_ranks and (r.id in used_after or r.id not in used_before))
             or (r.id in gone_ranks and r.id in used_after)]
    suits = [s for s in suits if s.id not in gone_suits]

    for rid, change in spec.get("ranks", {}).items():
        index = next((i for i, r in enumerate(ranks) if r.id == rid), None)
        if index is None:
            ctx.error(path + ("ranks", rid), f"rank '{rid}' does not exist in deck '{deck.id}'{suggest(rid, [r.id for r in ranks])}")
            continue
        good = check_table(ctx, change, _optional(RANK_SPEC), path + ("ranks", rid), f"rank '{rid}'")
        r = ranks[index]
        ranks[index] = replace(r, name=good.get("name", r.name), label=good.get("label", r.label),
                               value=good.get("value", r.value),
                               attributes=frozen_mapping({**r.attributes, **good.get("attributes", {})}))
    for sid, change in spec.get("suits", {}).items():
        index = next((i for i, s in enumerate(suits) if s.id == sid), None)
        if index is None:
            ctx.error(path + ("suits", sid), f"suit '{sid}' does not exist in deck '{deck.id}'{suggest(sid, [s.id for s in suits])}")
            continue
        good = check_table(ctx, change, _optional(SUIT_SPEC), path + ("suits", sid), f"suit '{sid}'")
        s = suits[index]
        colour = _colour(ctx, good["colour"], path + ("suits", sid, "colour")) if "colour" in good else s.colour
        suits[index] = replace(s, name=good.get("name", s.name), symbol=good.get("symbol", s.symbol), colour=colour,
                               order=good.get("order", s.order),
                               attributes=frozen_mapping({**s.attributes, **good.get("attributes", {})}))

    lookup = _Lookup(suits, ranks)
    for cid, change in spec.get("cards", {}).items():
        index = next((i for i, c in enumerate(cards) if c.id == cid), None)
        if index is None:
            ctx.error(path + ("cards", cid), f"card '{cid}' does not exist in deck '{deck.id}'{suggest(cid, [c.id for c in cards])}")
            continue
        if not isinstance(change, dict):
            ctx.error(path + ("cards", cid), "must be a table of changes")
            continue
        old = cards[index]
        merged = {"id": old.id, "name": old.name, "rank": old.rank or "", "suits": list(old.suits),
                  "group": old.group, "copies": old.copies, **{k: v for k, v in old.attributes.items() if not k.startswith("_")}}
        merged.update(change)
        if "id" in change:
            ctx.error(path + ("cards", cid, "id"), "a variant cannot change a card's id; remove it and add a new card")
        new = _card(ctx, merged, path + ("cards", cid), lookup, attributes)
        if new:
            cards[index] = replace(new, id=old.id)
    for i, raw in enumerate(spec.get("add_cards", [])):
        card = _card(ctx, raw, path + ("add_cards", i), lookup, attributes)
        if card:
            cards.append(card)
    _check_unique(ctx, cards, path + ("add_cards",))

    changes: dict[str, Any] = {}
    head = check_table(ctx, spec.get("deck", {}), VARIANT_DECK_SPEC, path + ("deck",), "a variant's [deck] changes")
    if "title" in head:
        changes["title"] = head["title"]
    if "template" in head:
        changes["template"] = _template(ctx, head["template"], path + ("deck", "template"), project)
    if "back" in head:
        changes["back_template"] = _template(ctx, head["back"], path + ("deck", "back"), project)
    for key in ("backs", "templates"):
        if key in head:
            changes[key] = frozen_mapping({**getattr(deck, key), **_group_templates(ctx, head[key], path + ("deck", key), project)})
    if "size" in head:
        changes["size"] = _size(ctx, head["size"], path + ("deck", "size"), project)
    style = deep_merge(_thaw(deck.style), spec.get("style", {}))
    _check_fonts(ctx, spec.get("style", {}), path + ("style",))
    return replace(deck, suits=tuple(suits), ranks=tuple(ranks), cards=tuple(cards),
                   style=frozen_mapping(style), **changes)


def _optional(spec: dict[str, Field]) -> dict[str, Field]:
    """A variant's changes to a suit or rank: every field optional, the id fixed."""
    return {k: replace(v, required=False) for k, v in spec.items() if k != "id"}


def _thaw(value: Any) -> Any:
    if hasattr(value, "items"):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


# --- the whole project ---------------------------------------------------------

DEFINITION_KINDS = ("deck", "game", "rulebook")


def definition_kind(path: Path) -> str | None:
    """Which kind of definition a TOML file under decks/ holds, by its top-level table.

    Decks have a ``[deck]`` table; games (rankings) and rulebooks live beside them
    with ``[game]`` and ``[rulebook]`` tables.
    """
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return None
    match = re.search(r"^\s*\[(" + "|".join(DEFINITION_KINDS) + r")\]\s*(#.*)?$", text, re.M)
    return match.group(1) if match else None


def is_deck_file(path: Path) -> bool:
    return definition_kind(path) == "deck"


def load_each(project: Project, kind: str, load: Callable[[Path], Any]) -> dict[str, Any]:
    """Load every ``kind`` file ("deck", "game", "rulebook") under decks/, by id.

    Every file is read even when an earlier one fails, so one run reports all
    problems; an id used twice is a problem of the second file.
    """
    found: dict[str, Any] = {}
    places: dict[str, str] = {}
    problems: list[Problem] = []
    for path in project.deck_files():
        if definition_kind(path) != kind:
            continue
        try:
            item = load(path)
        except AetherpressError as exc:
            problems.extend(exc.problems)
            continue
        if item.id in found:
            problems.append(Problem(display_path(path), f"{kind} id '{item.id}' is already used by {places[item.id]}", key=f"{kind}.id"))
            continue
        found[item.id] = item
        places[item.id] = display_path(path)
    if problems:
        raise AetherpressError(problems)
    return found


def load_all(project: Project) -> dict[str, DeckDefinition]:
    """Every deck definition of the project, by deck id."""
    return load_each(project, "deck", lambda path: load_definition(path, project))


def parse_deck_spec(text: str) -> tuple[str, tuple[str, ...]]:
    """``imperial:ministry+labelled`` -> ("imperial", ("ministry", "labelled"))."""
    deck, _, variants = text.partition(":")
    return deck, tuple(v for v in variants.split("+") if v)
