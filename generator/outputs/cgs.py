"""Card Game Simulator: a custom game folder (and the ``.cgs.zip`` CGS imports), after its CardGameDef specification.

The folder, named after the game, holds what CGS reads from a game's folder
(https://github.com/finol-digital/Card-Game-Simulator, ``docs/schema/`` and
``UnityCardGame``): ``cgs.json`` (the game: its name, card size in inches,
card properties and their enums, the deck it starts with), ``AllCards.json``
(every card with its fields), ``AllSets.json`` (a set for the deck and one for
each variant that draws cards otherwise), ``sets/<set>/<card>.png`` (each
card's face, drawn from the same sides as the print files, cut to its trim),
``CardBack.png`` (and ``backs/<name>.png`` when the deck has several backs)
and ``decks/<deck>.txt``, the deck list of the deck and of each variant, one
``COUNT [ID] NAME`` line per card.  Nothing in it points outside the folder:
CGS loads it as it is.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..definitions.model import Card, Deck
from ..faces.drawn import SideSource
from ..project.files import write_bytes
from ..units import MM_PER_INCH
from .boxfile import deck_name
from .cardpictures import card_pictures, distinct_backs, dpi_width
from .showpictures import encoded

SPEC = "https://github.com/finol-digital/Card-Game-Simulator/tree/main/docs/schema"
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f]+')
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def game_name(deck: Deck) -> str:
    """The game's name in CGS (and its folder's): the deck's title, and its applied variants' titles."""
    name = deck_name(deck) + (f" [{deck.edition}]" if deck.edition else "")
    return _UNSAFE.sub("_", name).strip(" .") or deck.slug


def variant_decks(context: SideSource, deck: Deck) -> list[tuple[str, Deck]]:
    """(deck list's name, deck) for ``deck`` and each variant of its definition, the deck first."""
    edition = f"@{deck.edition}" if deck.edition else ""
    out = [(game_name(deck), deck)]
    for variant in deck.variants:
        if (variant.id,) != deck.applied:
            out.append((f"{deck.title} - {variant.title or variant.id}", context.deck(f"{deck.id}:{variant.id}{edition}")))
    return out


def _properties(deck: Deck) -> tuple[list[dict], list[dict]]:
    """The card properties CGS shows (rank, suit, group, the deck's own fields) and the enums naming ranks and suits."""
    props: list[dict] = []
    enums: list[dict] = []
    if deck.ranks:
        props.append({"name": "rank", "display": "Rank", "type": "stringEnum"})
        enums.append({"property": "rank", "values": {r.id: r.name for r in deck.ranks}})
    if deck.suits:
        props.append({"name": "suit", "display": "Suit", "type": "stringEnumList", "delimiter": ","})
        enums.append({"property": "suit", "values": {s.id: s.name for s in deck.suits}})
    props.append({"name": "group", "display": "Group", "type": "string"})
    for field, kind in deck.attribute_types.items():
        listed = kind == "list"
        props.append(
            {"name": field, "display": field.replace("_", " ").capitalize(), "type": "stringList" if listed else "string"}
            | ({"delimiter": ","} if listed else {})
        )
    return props, enums


def _card_entry(deck: Deck, card: Card, card_id: str, set_code: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": card_id, "name": card.name, "set": set_code, "group": card.group}
    if card.rank is not None:
        entry["rank"] = card.rank
    if card.suits:
        entry["suit"] = ",".join(card.suits)
    for field, kind in deck.attribute_types.items():
        value = card.get(field)
        if value is not None:
            entry[field] = ",".join(str(v) for v in value) if kind == "list" and isinstance(value, (list, tuple)) else str(value)
    return entry


def _start_hand(context: SideSource, deck: Deck) -> int | None:
    """The hand size of the first game played with ``deck`` that deals hands."""
    for game in context.games.values():
        if game.deck_id == deck.id and game.rankings:
            return int(next(iter(game.rankings.values())).hand_size)
    return None


def cgs_game(context: SideSource, deck: Deck, dpi: float) -> dict[str, bytes]:
    """Every file of the game folder, by its path inside the folder: the JSON documents, the pictures and deck lists."""
    files: dict[str, bytes] = {}
    cards: list[dict] = []
    sets: dict[str, str] = {deck.slug: deck.title}
    drawn: dict[str, str] = {}  # a face's drawn key -> its card's id in CGS
    backs = distinct_backs(deck)
    back_ids = {name: name for name, _ in backs}
    lists: dict[str, list[str]] = {}
    for list_name, shown in variant_decks(context, deck):
        sides = context.sides(shown)
        width = dpi_width(sides, dpi)
        lines = [f"# {list_name}"]
        new: list[tuple[Card, str, str]] = []
        for card in shown.cards:
            key = sides.key(card, "front")
            if key not in drawn:
                set_code = deck.slug if shown is deck else f"{deck.slug}-{shown.applied[0]}"
                taken = {c["id"] for c in cards} | {n[1] for n in new}
                card_id = card.id if card.id not in taken else f"{card.id}-{shown.applied[0]}"
                drawn[key] = card_id
                new.append((card, card_id, set_code))
                cards.append(_card_entry(shown, card, card_id, set_code))
                if len(backs) > 1:
                    cards[-1]["backs"] = [shown.back_for(card)]
                if set_code not in sets:
                    sets[set_code] = f"{deck.title} - {next(v.title for v in deck.variants if v.id == shown.applied[0])}"
            back = shown.back_for(card)
            suffix = f" <{back}>" if len(backs) > 1 and back in back_ids else ""
            lines.append(f"{card.copies} [{drawn[key]}] {card.name}{suffix}")
        for (_card, card_id, set_code), picture in zip(
            new, card_pictures(context, sides, [(c, "front") for c, _, _ in new], width)
        ):
            files[f"sets/{set_code}/{card_id}.png"] = encoded(picture, "png", dpi, True)
        lists[list_name] = lines
    deck_sides = context.sides(deck)
    back_pictures = card_pictures(context, deck_sides, [(card, "back") for _, card in backs], dpi_width(deck_sides, dpi))
    files["CardBack.png"] = encoded(back_pictures[0], "png", dpi, True)
    if len(backs) > 1:
        for (name, _), picture in zip(backs, back_pictures):
            files[f"backs/{name}.png"] = encoded(picture, "png", dpi, True)
    for list_name, lines in lists.items():
        files[f"decks/{_UNSAFE.sub('_', list_name)}.txt"] = ("\n".join(lines) + "\n").encode("utf-8")
    game = game_document(context, deck, list(lists), [name for name, _ in backs] if len(backs) > 1 else [])
    files["cgs.json"] = _json(game)
    files["AllCards.json"] = _json(cards)
    files["AllSets.json"] = _json([{"code": code, "name": name} for code, name in sets.items()])
    return files


def game_document(context: SideSource, deck: Deck, deck_lists: Sequence[str], backs: Sequence[str]) -> dict[str, Any]:
    """``cgs.json``: the game as CGS reads it."""
    props, enums = _properties(deck)
    game: dict[str, Any] = {
        "name": game_name(deck),
        "cardSize": {"x": round(deck.size.width / MM_PER_INCH, 4), "y": round(deck.size.height / MM_PER_INCH, 4)},
        "cardIdIdentifier": "id",
        "cardNameIdentifier": "name",
        "cardSetIdentifier": "set",
        "cardNameIsUnique": False,
        "deckFileTxtId": "id",
        "cardImageFileType": "png",
        "cardBackImageFileType": "png",
        "cardProperties": props,
        "cardPrimaryProperty": "text" if "text" in deck.attribute_types else "rank" if deck.ranks else "group",
        "enums": enums,
        "deckSharePreference": "share",
        "gameDefaultCardAction": "flip",
        "gamePlayDeckName": deck.title,
        "autoUpdate": -1,  # everything is in the folder: nothing to download
    }
    if backs:
        game["cardBackFaceImageUrls"] = [{"id": name} for name in backs]
    if deck.credits:
        game["copyright"] = deck.credits.line()
        if deck.credits.url:
            game["rulesUrl"] = deck.credits.url
    hand = _start_hand(context, deck)
    if hand:
        game["gameStartHandCount"] = hand
    return game


def _json(document: Any) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def zipped(name: str, files: Mapping[str, bytes]) -> bytes:
    """The folder ``name`` holding ``files`` as a zip CGS imports (``Import`` → ``.cgs.zip``), the same bytes every time."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(f"{name}/{path}", _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[path])
    return buffer.getvalue()


def export_cgs(context: SideSource, deck: Deck, folder: Path, dpi: float) -> list[Path]:
    """Write the game folder ``<folder>/<game name>/`` and ``<folder>/<game name>.cgs.zip``; everything is drawn
    before anything is written."""
    name = game_name(deck)
    files = cgs_game(context, deck, dpi)
    archive = zipped(name, files)
    written = [write_bytes(folder / name / path, data) for path, data in files.items()]
    written.append(write_bytes(folder / f"{name}.cgs.zip", archive))
    return written
