"""Foundry Virtual Tabletop: a card stack (a ``Cards`` document of type ``deck``) and its pictures, for *Import Data*.

The JSON follows Foundry's documented data model of a stack of cards
(``CardsData``, ``CardData`` and ``CardFaceData`` in its API documentation,
https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.CardsData.html):
every printed card is one card of the stack (copies repeated), with its face
and the deck's back as pictures, its name, suit, rank value and fields.
Pictures are named by their path inside Foundry's user data folder,
``aetherpress/<deck>/...``: copy the export's ``aetherpress`` folder there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..definitions.model import Card, Deck
from ..faces.drawn import SideSource
from ..project.files import write_bytes
from ..units import MM_PER_INCH
from .cardpictures import card_pictures, distinct_backs, dpi_width
from .showpictures import encoded

FOLDER = "aetherpress"  # in Foundry's user data (Data/), where the pictures are copied
DOCS = "https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.CardsData.html"


def _description(card: Card, deck: Deck) -> str:
    """The card's own text fields, as Foundry shows a card's description (HTML paragraphs)."""
    texts = [str(card.get(f)) for f, kind in deck.attribute_types.items() if kind == "text" and card.get(f)]
    return "".join(f"<p>{_escaped(t)}</p>" for t in texts)


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def stack_document(deck: Deck, images: dict[str, str], backs: dict[str, str]) -> dict[str, Any]:
    """The ``Cards`` document: ``images`` gives each card id's face picture path, ``backs`` each back's (by name)."""
    ranks = {r.id: r for r in deck.ranks}
    size = (round(deck.size.width / MM_PER_INCH, 3), round(deck.size.height / MM_PER_INCH, 3))
    cards: list[dict[str, Any]] = []
    for card in deck.cards:
        fields = {k: v if isinstance(v, (str, int, float, bool)) else list(v) for k, v in card.attributes.items()}
        for copy in range(card.copies):
            cards.append(
                {
                    "name": card.name,
                    "type": "base",
                    "description": _description(card, deck),
                    "suit": ",".join(card.suits),
                    "value": ranks[card.rank].value if card.rank in ranks else None,
                    "back": {"name": deck.title, "text": "", "img": backs[deck.back_for(card)]},
                    "faces": [{"name": card.name, "text": "", "img": images[card.id]}],
                    "face": None,
                    "drawn": False,
                    "width": size[0],
                    "height": size[1],
                    "rotation": 0,
                    "sort": len(cards) * 10,
                    "system": {},
                    "flags": {
                        "aetherpress": {"id": card.id, "copy": copy + 1, "rank": card.rank, "group": card.group, "fields": fields}
                    },
                }
            )
    return {
        "name": deck.title,
        "type": "deck",
        "description": f"<p>{_escaped(deck.description)}</p>"
        + (f"<p>{_escaped(deck.credits.line())}</p>" if deck.credits else ""),
        "img": next(iter(backs.values())),
        "cards": cards,
        "width": size[0],
        "height": size[1],
        "rotation": 0,
        "displayCount": True,
        "system": {},
        "flags": {"aetherpress": {"deck": deck.key}},
    }


def export_foundry(context: SideSource, deck: Deck, folder: Path, dpi: float) -> list[Path]:
    """Write ``<folder>/<slug>-foundry.json`` and the pictures under ``<folder>/aetherpress/<slug>/``; everything is
    drawn before anything is written."""
    sides = context.sides(deck)
    width = dpi_width(sides, dpi)
    base = f"{FOLDER}/{deck.slug}"
    backs = distinct_backs(deck)
    pictures = card_pictures(context, sides, [(c, "front") for c in deck.cards] + [(c, "back") for _, c in backs], width)
    faces = {f"{base}/{card.id}.png": picture for card, picture in zip(deck.cards, pictures)}
    back_paths = {name: f"{base}/back-{name}.png" for name, _ in backs}
    faces.update(zip(back_paths.values(), pictures[len(deck.cards) :]))
    files = {path: encoded(picture, "png", dpi, True) for path, picture in faces.items()}
    document = stack_document(deck, {c.id: f"{base}/{c.id}.png" for c in deck.cards}, back_paths)
    files[f"{deck.slug}-foundry.json"] = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return [write_bytes(folder / path, data) for path, data in files.items()]
