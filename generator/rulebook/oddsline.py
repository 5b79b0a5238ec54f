"""What a spell or house rule does to the odds, in one line a player reads at the table.

The line is worked out from two of the engine's tables, the deal's and the one under the
rule: the hand whose share of the deals moves the most says it ("A Flush becomes seven
times likelier").  Nothing here is typed in: the figures are the counted (or simulated)
chances, rounded the way a player would say them.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..definitions.model import Deck, frozen_mapping
from .bookodds import format_one_in, format_probability
from .words import NO_GAMES, GameWords, category_words, game_words, language, number, speaking, words

ODDS_FIELD = "odds"  # the card attribute a spell card's odds line is given in (``card.odds`` in a template)

SAME = 1e-9  # chances closer than this are the same
SMALL_NUMBERS = ("", "", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
NO_ARTICLE = ("one ", "two ", "three ", "four ", "five ", "six ", "high ")  # hand names read without "a"


def _hand(name: str) -> str:
    """A hand's name as the subject of a sentence: 'A Flush', 'An Imperial', 'Two Pair'."""
    if language() != "en" or name.lower().startswith(NO_ARTICLE):
        return name
    return ("An " if name[0].lower() in "aeiou" else "A ") + name


def _spoken(n: int) -> str:
    """'seven', '40': a whole number as a player says it."""
    if language() == "en" and n < len(SMALL_NUMBERS):
        return SMALL_NUMBERS[n]
    return number(f"{n:,}")


def _whole(x: float) -> int:
    """``x`` rounded to the nearest whole number, halves up."""
    return math.floor(x + 0.5)


def _moved(name: str, p: float, q: float) -> str:
    """How the chance of hand ``name`` moved from ``q`` in the deal to ``p``, in words true to their rounding:
    a change of less than double (or half) in whole percent ("44 % rarer" for 0.558 of the deal's chance), a
    larger one in whole multiples ("seven times likelier" for 6.79); "twice" and "half" only where the
    percent or the multiple rounds to them."""
    hand = _hand(name)
    if p == 0:
        return words("{hand} can no longer be made", hand=hand)
    ratio = p / q
    if ratio > 1:
        times, share = _whole(ratio), _whole((ratio - 1) * 100)
        if ratio < 2 and share < 100:
            return words("{hand} becomes {share} % likelier", hand=hand, share=share)
        if times == 2:
            return words("{hand} becomes twice as likely", hand=hand)
        return words("{hand} becomes {n} times likelier", hand=hand, n=_spoken(times))
    times, share = _whole(1 / ratio), _whole((1 - ratio) * 100)
    if ratio > 0.5 and share < 50:
        return words("{hand} becomes {share} % rarer", hand=hand, share=share)
    if times == 2:
        return words("{hand} becomes half as likely", hand=hand)
    return words("{hand} becomes {n} times rarer", hand=hand, n=_spoken(times))


def change_line(table: Any, deal: Any, names: GameWords = NO_GAMES) -> str:
    """The biggest change a rule makes to the deal's odds, as one sentence (no full stop), the hands named from
    ``names`` in the book's language."""

    def named(category: Any) -> str:
        return category_words(table, category, names)[0]

    before = {c.name: c for c in deal.categories}
    if table.ranking != deal.ranking:
        common = max(table.categories, key=lambda c: c.probability)
        return words(
            "Hands of {size} cards with a ranking of their own; the commonest is {hand} ({chance})",
            size=_spoken(round(table.hand_size)),
            hand=named(common),
            chance=format_probability(common.probability),
        )
    best: tuple[float, str] | None = None
    for category in table.categories:
        was = before.get(category.name)
        p, q = category.probability, (was.probability if was else 0.0)
        if abs(p - q) <= SAME:
            continue
        if was is None and category.name == getattr(table, "losing", None):
            line = words("{one_in} hands cannot win", one_in=format_one_in(category.one_in))
        elif was is None:
            line = words("{one_in} hands are {hand}, a new hand", hand=named(category), one_in=format_one_in(category.one_in))
        else:
            line = _moved(named(category), p, q)
        score = abs(p - q) * (1 + abs(math.log(p / q))) if p and q else 2 * abs(p - q)
        if best is None or score > best[0]:
            best = (score, line)
    if best is not None:
        return best[1]
    order = table.categories
    for index, (now, then) in enumerate(zip(order, deal.categories)):
        if now.name != then.name and index:
            return words(
                "Every hand keeps its chance from the deal, but {hand} now comes right after {above}",
                hand=named(now),
                above=named(order[index - 1]),
            )
    return words("Every hand keeps its chance from the deal")


def with_odds_lines(deck: Deck, hands: Any) -> Deck:
    """``deck`` with each card that is a spell of a game (the game's ``spells`` deck, the spell named by the
    card's id) given its odds line, :func:`change_line` of the game's table under the spell against the deal's,
    in the deck's language, as the card attribute :data:`ODDS_FIELD`.  Only tables counted exactly are worded on
    a card: a simulated one (In Wrought Arcanum) would cost minutes the first time a deck is drawn."""
    games = [g for g in hands.games.values() if g.spells == deck.id and g.arrangement is None]
    if not games:
        return deck
    lines: dict[str, str] = {}
    names = game_words(hands.games)
    with speaking(deck.edition):
        for game in games:
            deal = None
            for card in deck.cards:
                if card.id in lines or card.id not in game.modifiers or not hands.counted(game.id, (card.id,)):
                    continue
                deal = deal or hands.odds_table(game.id)
                lines[card.id] = change_line(hands.odds_table(game.id, modifiers=(card.id,)), deal, names)
    if not lines:
        return deck
    cards = tuple(
        dataclasses.replace(c, attributes=frozen_mapping({**c.attributes, ODDS_FIELD: lines[c.id]})) if c.id in lines else c
        for c in deck.cards
    )
    return dataclasses.replace(deck, cards=cards)
