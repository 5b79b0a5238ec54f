"""Block kinds of card pictures: ``card:``, ``back:`` and ``hand:`` (the decks' own sides, see :mod:`..cardart`)."""

from __future__ import annotations

from reportlab.platypus import Flowable

from ..cardart import CardPicture, HandPicture
from .blockkinds import BlockKind, PictureRequest, register


def _deck_and_ids(request: PictureRequest):
    """The deck the address names (``DECK/IDS``, or ``DECK`` alone) and the text of its card ids."""
    spec, _, ids = request.path.rpartition("/")
    if not spec:
        spec, ids = ids, ""
    return request.library.deck(spec, request.source.file), ids


def _cards(request: PictureRequest) -> list:
    deck, ids = _deck_and_ids(request)
    where = request.source.file
    cards = [request.library.card(deck, i.strip(), where) for i in ids.split(",") if i.strip()]
    if not cards:
        raise request.source.error(request.block, f"image '{request.src}' names no card")
    return [request.library.art(deck, card) for card in cards]


def _card(request: PictureRequest) -> Flowable:
    arts = _cards(request)
    return CardPicture(arts[0], request.width) if len(arts) == 1 else HandPicture(arts, request.width, fan=False)


def _back(request: PictureRequest) -> Flowable:
    deck, ids = _deck_and_ids(request)
    card = request.library.card(deck, ids, request.source.file) if ids else None
    return CardPicture(request.library.art(deck, card, back=True), request.width)


def _hand(request: PictureRequest) -> Flowable:
    return HandPicture(_cards(request), request.width, fan=True)


register(
    BlockKind(
        "card",
        "card:DECK/CARD",
        "one card face, e.g. `card:imperial:academy/mage`; `?w=16` sets the width in mm",
        _card,
    )
)
register(BlockKind("back", "back:DECK[/CARD]", "the card's back", _back))
register(
    BlockKind(
        "hand",
        "hand:DECK/CARD,CARD,...",
        "cards fanned like a hand; `&stack` on every picture of a paragraph sets them one under another, each with its "
        'caption beside it (examples the text reads "each beating the one below it")',
        _hand,
    )
)
