"""What a book's covers show, chosen from its data with no choice made: the deck's colours, face and back, the
game's best cards, the blurb and facts, the credits and the ISBN.

The front's cards are the rulebook file's ``cover`` picks when it gives them,
else the example of the best hand of the book's first game with a ranking,
else the deck's highest cards; the back's spread is a card of each suit (or
the deck's cards in even steps), none of them on the front.
"""

from __future__ import annotations

from typing import Any

from ..definitions.styles import style_value
from ..errors import AetherpressError, Problem, display_path
from ..resources.fonts import font_book
from .coverart import CoverDesign
from .words import words

_FAN = 5  # cards at most in the front's hand
_SPREAD = 6  # cards at most in the back's spread


def _card_picks(book, library, where: str) -> list[tuple[Any, Any]]:
    """(deck, card) of each ``card:DECK/CARD`` of the book's ``cover`` list."""
    picks = []
    for spec in book.cover:
        scheme, _, rest = spec.partition(":")
        path = rest.partition("?")[0]
        deck_spec, _, card_id = path.rpartition("/")
        if scheme != "card" or not deck_spec:
            raise AetherpressError(
                Problem(
                    display_path(book.file),
                    f"'{spec}' is no card: name cover cards as card:DECK/CARD",
                    book.cover_line,
                    "rulebook.cover",
                )
            )
        deck = library.deck(deck_spec, where)
        try:
            picks.append((deck, library.card(deck, card_id, where)))
        except AetherpressError as exc:
            raise AetherpressError(
                [Problem(display_path(book.file), p.message, book.cover_line, "rulebook.cover") for p in exc.problems]
            ) from None
    return picks


def _best_hand(book, odds, library, deck, where: str) -> list:
    """The cards of the example of the best category some hand takes, in the book's first game with a ranking."""
    games = odds.games(where)
    for game_id in book.games:
        game = games.get(game_id)
        if game is None or not getattr(game, "rankings", None):
            continue
        try:
            table = odds.table(game_id, None, None, where)
        except AetherpressError:
            continue
        ids = {c.id for c in deck.cards}
        for category in table.categories:
            example = category.example or ()
            if category.count and example and all(i in ids for i in example):
                return [deck.card(i) for i in example]
    return []


def _highest(deck, count: int, skip: set[str]) -> list:
    """The deck's highest cards by rank, one of each suit first."""
    ranks = {r.id: r.value for r in deck.ranks}
    order = sorted((c for c in deck.cards if c.id not in skip), key=lambda c: (-ranks.get(c.rank or "", 0), c.id))
    picked: list = []
    suits: set[str] = set()
    for card in order:
        if not set(card.suits) & suits:
            picked.append(card)
            suits.update(card.suits)
        if len(picked) == count:
            break
    return picked or order[:count]


def _spread(deck, skip: set[str]) -> list:
    """A card of each suit, in even steps through the deck, none of the front's."""
    cards = [c for c in deck.cards if c.id not in skip]
    if not cards:
        return []
    step = max(1, len(cards) // _SPREAD)
    chosen = cards[step // 2 :: step][:_SPREAD]
    return chosen


def cover_design(context, book, credits: list, by: str, facts: list[tuple[str, str]]) -> CoverDesign:
    """The covers of ``book``: see the module's description."""
    where = display_path(book.source)
    library = context.library
    deck = library.deck(book.decks[0], where) if book.decks else None
    picks = _card_picks(book, library, where)
    if deck is None and picks:
        deck = picks[0][0]
    style = deck.style if deck is not None else {}
    fonts = font_book(context.project)
    fonts.activate()

    def face(key: str, weight: str, italic: str) -> str:
        family = str(style_value(style, key))
        try:
            return fonts.name(family, weight, italic)
        except KeyError:
            return fonts.name("Cinzel" if key == "title_font" else "EB Garamond", weight, italic)

    fan, spread = [], []
    if deck is not None:
        cards = [card for _, card in picks] or _best_hand(book, context.odds, library, deck, where) or _highest(deck, 4, set())
        decks = [d for d, _ in picks] or [deck] * len(cards)
        fan = [library.art(d, c) for d, c in zip(decks, cards)][:_FAN]
        spread = [library.art(deck, c) for c in _spread(deck, {c.id for c in cards})]
    icons = {words("Players"): "person", words("Time"): "hourglass", words("Age"): "age"}
    return CoverDesign(
        title=book.title,
        title_lines=tuple(book.title_lines),
        subtitle=book.subtitle,
        by=words("by {name}", name=by) if by else "",
        edition=book.edition,
        blurb=book.blurb,
        facts=tuple((icons.get(label, "circle"), label, value) for label, value in facts),
        credits=tuple(credits),
        isbn=book.isbn,
        ground=str(style_value(style, "back_colour")),
        ground_light=str(style_value(style, "back_colour_light")),
        accent=str(style_value(style, "back_accent")),
        paper=str(style_value(style, "paper")),
        ink=str(style_value(style, "ink")),
        title_font=face("title_font", "bold", "normal"),
        text_font=face("text_font", "normal", "italic"),
        back=library.art(deck, None, back=True) if deck is not None else None,
        fan=tuple(fan),
        spread=tuple(spread),
        layout=book.cover_layout,
        emblem=str(style_value(style, "back_emblem")),
    )
