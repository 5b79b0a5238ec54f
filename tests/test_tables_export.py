"""Virtual tables: the Card Game Simulator game folder and the Foundry card stack of every built-in deck, validated
against the published specifications kept in tests/fixtures/ (see cgs-schema/SOURCE.md)."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator, Draft202012Validator, FormatChecker
from PIL import Image

from generator.cli import main
from generator.definitions import load_all
from generator.outputs.cardpictures import dpi_width
from generator.outputs.cgs import cgs_game, game_name, zipped
from generator.pipeline.context import ProjectContext
from generator.project import Project

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "tests" / "fixtures" / "cgs-schema"
FOUNDRY = json.loads((ROOT / "tests" / "fixtures" / "foundry-cards.schema.json").read_text(encoding="utf-8"))
DECKS = list(load_all(Project(ROOT)))
DPI = 20  # small pictures: the files' shapes are what is checked here
_PLACEHOLDER = re.compile(r"^\$cgs\.json#?/properties/(\w+)$")


def _spec(name: str) -> dict:
    found: dict = json.loads((SPEC / f"{name}.json").read_text(encoding="utf-8"))
    return found


def _identifier(game: dict, key: str) -> str:
    """The key a game's ``key`` (``cardIdIdentifier`` ...) names: the game's own, else the specification's default."""
    return str(game.get(key, _spec("cgs")["properties"][key]["default"]))


def _property_schema(prop: dict, enums: dict[str, dict]) -> dict:
    """What a card's value of a declared card property may be, by its PropertyType."""
    kind = prop.get("type", "string")
    keys = [re.escape(k) for k in enums.get(prop["name"], {})]
    if kind == "stringEnum":
        return {"enum": [*enums.get(prop["name"], {}), ""]}
    if kind == "stringEnumList":
        one = f"(?:{'|'.join(keys)})"
        return {"type": "string", "pattern": f"^(?:{one}(?:{re.escape(prop.get('delimiter', ','))}{one})*)?$"}
    return {"integer": {"type": ["integer", "string"]}, "boolean": {"type": ["boolean", "string"]}}.get(kind, {"type": "string"})


def _resolved(items: dict, game: dict) -> dict:
    """An item schema of AllCards.json or AllSets.json with its keys named as ``game`` names them, and its other keys
    the game's card properties (see cgs-schema/SOURCE.md)."""
    out = {k: v for k, v in items.items() if k not in ("properties", "required", "additionalProperties")}

    def key(name: str) -> str:
        found = _PLACEHOLDER.match(name)
        return _identifier(game, found[1]) if found else name

    out["properties"] = {key(k): v for k, v in items["properties"].items()}
    out["required"] = [key(k) for k in items.get("required", [])]
    if items.get("additionalProperties") == {"$ref": "cgs.json#/properties/cardProperties"}:
        enums = {e["property"]: e["values"] for e in game.get("enums", [])}
        for prop in game.get("cardProperties", []):
            out["properties"].setdefault(prop["name"], _property_schema(prop, enums))
        out["additionalProperties"] = False
    for name, sub in list(out["properties"].items()):
        if sub == {"$ref": "AllCards.json"}:
            out["properties"][name] = {"type": "array", "items": _resolved(_spec("AllCards")["items"], game)}
    return out


def validate_game(game: dict, cards: list, sets: list) -> list[str]:
    """Every way the three documents break the specification, one line each (none: valid)."""
    problems = []
    for label, schema, document in (
        ("cgs.json", _spec("cgs"), game),
        ("AllCards.json", {**_spec("AllCards"), "items": _resolved(_spec("AllCards")["items"], game)}, cards),
        ("AllSets.json", {**_spec("AllSets"), "items": _resolved(_spec("AllSets")["items"], game)}, sets),
    ):
        validator = Draft4Validator(schema, format_checker=FormatChecker())
        problems += [f"{label}: {'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
    return problems


def test_the_resolved_specification_takes_card_game_simulators_own_standard_game():
    folder = SPEC / "standard-game"
    game, cards, sets = (json.loads((folder / f"{n}.json").read_text(encoding="utf-8")) for n in ("cgs", "AllCards", "AllSets"))
    assert validate_game(game, cards, sets) == []


def test_the_resolved_specification_refuses_what_cgs_would_not_read():
    folder = SPEC / "standard-game"
    game, cards = (json.loads((folder / f"{n}.json").read_text(encoding="utf-8")) for n in ("cgs", "AllCards"))
    broken_cards = [dict(cards[0], suit="cups"), {k: v for k, v in cards[1].items() if k != "id"}, dict(cards[2], flavour="x")]
    problems = validate_game({**game, "cardSize": {"x": "2.5"}, "deckFileType": "pdf"}, broken_cards, [{"name": "no code"}])
    assert any(p.startswith("cgs.json: cardSize") for p in problems)
    assert any(p.startswith("cgs.json: deckFileType") for p in problems)
    assert any("AllCards.json: 0/suit" in p for p in problems)
    assert any("AllCards.json: 1: 'id' is a required property" in p for p in problems)
    assert any("AllCards.json: 2: Additional properties" in p for p in problems)
    assert any("AllSets.json: 0: 'code' is a required property" in p for p in problems)


def _check_game(context: ProjectContext, key: str, files: dict[str, bytes], dpi: float = DPI) -> None:
    deck = context.deck(key)
    game, cards, sets = (json.loads(files[f"{n}.json"]) for n in ("cgs", "AllCards", "AllSets"))
    assert validate_game(game, cards, sets) == []
    assert game["name"] == game_name(deck)
    assert (game["cardSize"]["x"], game["cardSize"]["y"]) == (round(deck.size.width / 25.4, 4), round(deck.size.height / 25.4, 4))
    ids = {c["id"] for c in cards}
    assert len(ids) == len(cards)  # every card once
    width = dpi_width(context.sides(deck), dpi)
    for card in cards:  # every card's picture where CGS looks for it: sets/<set>/<id>.png
        picture = Image.open(io.BytesIO(files[f"sets/{card['set']}/{card['id']}.png"]))
        assert picture.mode == "RGBA" and picture.width == width
    assert {s["code"] for s in sets} == {c["set"] for c in cards}
    lists = {p: files[p].decode("utf-8").splitlines() for p in files if p.startswith("decks/")}
    assert len(lists) == 1 + sum(1 for v in deck.variants if (v.id,) != deck.applied)  # the deck's, and each variant's
    for path, lines in lists.items():
        for line in lines[1:]:
            _count, card_id = re.match(r"^(\d+) \[([^\]]+)\] ", line).groups()  # type: ignore[union-attr]
            assert card_id in ids, (path, line)
    first = lists[f"decks/{game_name(deck)}.txt"]
    assert sum(int(line.split()[0]) for line in first[1:]) == deck.card_count
    assert Image.open(io.BytesIO(files["CardBack.png"])).width == width


@pytest.mark.slow
@pytest.mark.parametrize("key", DECKS)
def test_every_built_in_deck_exports_a_valid_card_game_simulator_game(project, key):
    context = ProjectContext(project)
    files = cgs_game(context, context.deck(key), DPI)
    _check_game(context, key, files)
    assert cgs_game(ProjectContext(project), context.deck(key), DPI) == files  # the same bytes again


@pytest.mark.slow
def test_export_cgs_writes_the_folder_and_the_zip_cgs_imports(tmp_path):
    assert main(["export", "cgs", "standard", "--dpi", "12", "--out", str(tmp_path)]) == 0
    folder = tmp_path / "standard" / "cgs"
    name = "The Standard Deck"
    written = {p.relative_to(folder / name).as_posix(): p.read_bytes() for p in (folder / name).rglob("*") if p.is_file()}
    context = ProjectContext(Project(ROOT))
    _check_game(context, "standard", written, 12)
    archive = zipfile.ZipFile(folder / f"{name}.cgs.zip")
    assert {i.filename: archive.read(i) for i in archive.infolist()} == {f"{name}/{k}": v for k, v in written.items()}
    assert (folder / f"{name}.cgs.zip").read_bytes() == zipped(name, written)


@pytest.mark.slow
@pytest.mark.parametrize("key", DECKS)
def test_every_built_in_deck_exports_a_valid_foundry_card_stack(tmp_path, key):
    assert main(["export", "foundry", key, "--dpi", str(DPI), "--out", str(tmp_path)]) == 0
    context = ProjectContext(Project(ROOT))
    deck = context.deck(key)
    folder = tmp_path / deck.slug / "foundry"
    stack: dict[str, Any] = json.loads((folder / f"{deck.slug}-foundry.json").read_text(encoding="utf-8"))
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in Draft202012Validator(FOUNDRY).iter_errors(stack)]
    assert errors == []
    assert len(stack["cards"]) == deck.card_count  # every printed card, copies and all
    for card in stack["cards"]:
        for path in (card["faces"][0]["img"], card["back"]["img"]):
            assert (folder / path).is_file(), path
    values = {c["flags"]["aetherpress"]["id"]: c["value"] for c in stack["cards"]}
    assert all(values[c.id] == deck.rank(c.rank).value for c in deck.cards if c.rank)


def test_the_foundry_schema_refuses_a_card_foundry_would_not_read():
    card = {"name": "x", "faces": [{"img": "a.png", "colour": "red"}], "value": "high"}
    errors = list(Draft202012Validator(FOUNDRY).iter_errors({"name": "d", "type": "stack", "cards": [card]}))
    messages = " ".join(e.message for e in errors)
    assert "'stack' is not one of" in messages and "'high' is not of type" in messages and "'colour' was unexpected" in messages
