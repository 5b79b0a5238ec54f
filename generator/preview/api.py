"""What the pages read as JSON: the decks and their sides, and one side with its card's data.

Everything here is read from the current snapshot (see :mod:`.state`); no
value from a URL reaches the file system.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..faces.keys import plain
from .sides import FACE, Side
from .state import DeckEntry, Preview, side_json

_CARD_FIELDS = ("id", "name", "rank", "suits", "group", "copies")


def _deck_json(slug: str, entry: DeckEntry, editions: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A deck as the pages read it; ``editions``: the slug of the same deck (and variants) in each language."""
    deck, g = entry.deck, entry.geometry
    titles = {v.id: v.title for v in deck.variants}
    return {
        "slug": slug,
        "key": deck.key,
        "id": deck.id,
        "title": deck.title,
        "variant": " + ".join(titles.get(v, v) for v in deck.applied),
        "language": deck.edition or deck.language,
        "edition": deck.edition,  # "" for the source language
        "editions": dict(editions or {deck.edition or deck.language: slug}),
        "source": deck.source,
        "size": deck.size.name,
        "cards": deck.card_count,
        "geometry": {
            "trim_w": g.trim_w,
            "trim_h": g.trim_h,
            "bleed": g.bleed,
            "safe": g.safe,
            "radius": g.radius,
            "width": g.width,
            "height": g.height,
        },
    }


def label(side: Side) -> str:
    return side.card.name if side.kind == FACE and side.card is not None else f"back: {side.name}"


def editions_of(decks: Mapping[str, DeckEntry]) -> dict[str, dict[str, str]]:
    """For each deck's slug, the slugs of the same deck (with the same variants) by language, source first."""
    by_deck: dict[tuple[str, tuple[str, ...]], dict[str, str]] = {}
    for slug, entry in decks.items():
        deck = entry.deck
        by_deck.setdefault((deck.id, deck.applied), {})[deck.edition or deck.language] = slug
    return {slug: by_deck[(e.deck.id, e.deck.applied)] for slug, e in decks.items()}


def state_json(preview: Preview, project_name: str) -> dict[str, Any]:
    """Every deck with its sides (their versions and problems), and the problems of the moment."""
    snapshot = preview.snapshot
    editions = editions_of(snapshot.decks)
    decks = []
    for slug, entry in snapshot.decks.items():
        sides = [dict(side_json(side), label=label(side)) for side in entry.sides.values()]
        decks.append(dict(_deck_json(slug, entry, editions[slug]), sides=sides))
    return dict(preview.state(), project=project_name, decks=decks)


def _cell(value: Any) -> Any:
    """A value as the card list writes it: lists joined with ``+``."""
    value = plain(value)
    if isinstance(value, list):
        return "+".join(str(_cell(v)) for v in value)
    if isinstance(value, Mapping):
        return {k: _cell(v) for k, v in value.items()}
    return value


def side_detail(preview: Preview, slug: str, kind: str, name: str) -> dict[str, Any] | None:
    """One side: its deck, its card's data row and where it is defined, its template, problems and neighbours."""
    entry = preview.snapshot.entry(slug)
    side = entry.sides.get((kind, name)) if entry is not None else None
    if entry is None or side is None:
        return None
    deck, card = entry.deck, side.card
    same_kind = [n for k, n in entry.sides if k == kind]
    at = same_kind.index(name)
    if kind == FACE and card is not None:
        row = [[f, _cell(getattr(card, f))] for f in _CARD_FIELDS]
        declared = list(deck.attribute_types)
        row += [
            [k, _cell(card.attributes[k])]
            for k in sorted(card.attributes, key=lambda k: (k not in declared, declared.index(k) if k in declared else 0, k))
        ]
        template, origin, back = deck.template_for(card), str(card.origin) if card.origin else deck.source, deck.back_for(card)
    else:
        printed = sum(c.copies for c in deck.cards if deck.back_for(c) == name)
        row = [["back", name], ["cards printed with it", printed]]
        template, origin, back = name, deck.source, None
    return {
        "deck": _deck_json(slug, entry, editions_of(preview.snapshot.decks).get(slug)),
        "side": dict(side_json(side), label=label(side)),
        "key": side.key,
        "template": template,
        "origin": origin,
        "data": row,
        "back": back,
        "previous": same_kind[at - 1] if at > 0 else None,
        "next": same_kind[at + 1] if at + 1 < len(same_kind) else None,
        # what is wrong with this side: its drawing problems (the server adds its safe-zone findings)
        "findings": list(side.problems),
    }
