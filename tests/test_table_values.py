"""The table's pieces without a server: the strict query, the seeded shuffle, what a hand on the table is worth."""

from __future__ import annotations

import itertools
import random
import re
from fractions import Fraction

import pytest

from generator.hands.standing import Standing, Unfinished, played_as, standing
from generator.pipeline.context import ProjectContext
from generator.preview.play import shuffled
from generator.preview.query import BadRequest, Query, card_lists

FLIP = "founders-flip"


@pytest.fixture(scope="module")
def context(project):
    return ProjectContext(project)


class _OnlyRandom(random.Random):
    """A generator whose only numbers are ``random()``'s: the ones Python keeps the same for a seed."""

    def getrandbits(self, k: int) -> int:
        raise AssertionError("the shuffle must use random() only")


def test_a_seed_shuffles_the_same_way_and_only_with_random():
    cards = [f"c{i}" for i in range(36)]
    first = shuffled(cards, _OnlyRandom(7))
    assert first == shuffled(cards, _OnlyRandom(7)) and sorted(first) == sorted(cards)
    assert first != shuffled(cards, _OnlyRandom(8)) and first != cards
    # every card lands in every place about equally often over many seeds (a fair shuffle, not a rotation)
    places = [0] * 6
    for seed in range(3000):
        places[shuffled(["a", "b", "c", "d", "e", "f"], random.Random(seed)).index("a")] += 1
    assert all(400 < n < 600 for n in places), places


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("seat=a&gmae=b", "unknown parameter 'gmae' (did you mean 'game'?)"),
        ("game=a&game=b", "'game' is given 2 times"),
        ("seed=12a", "'seed' must be a whole number"),
        ("seed=%EF%BC%91", "'seed' must be a whole number"),  # a full-width digit is not one
        ("x" * 5000, "at most 4,096"),
        ("&".join(["seat=a"] * 30), "not name=value pairs (at most 24)"),
    ],
)
def test_a_query_is_read_strictly(text, says):
    with pytest.raises(BadRequest) as caught:
        query = Query(text, ("seat", "game", "seed"))
        query.one("game")
        query.whole("seed", 0, 10**6)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_card_ids_are_looked_up_among_the_decks_cards(context):
    deck = context.deck("imperial:standard")
    assert card_lists(["1-houses,2-houses", "", "mage"], deck, "hand") == [["1-houses", "2-houses"], [], ["mage"]]
    with pytest.raises(BadRequest, match=re.escape("no card '../../etc/passwd' in deck 'imperial:standard'")):
        card_lists(["../../etc/passwd"], deck, "hand")
    with pytest.raises(BadRequest, match="card 'mage' is on the table 2 times; deck 'imperial:standard' has 1 copy"):
        card_lists(["mage", "1-sails,mage"], deck, "hand")


def test_a_deck_is_played_as_the_game_decks_it_counts_as(context):
    games = context.games
    flip, lith = games[FLIP], games["lith"]
    assert played_as(context.definitions, flip, context.deck("imperial:academy")) == ["academy"]
    assert played_as(context.definitions, flip, context.deck("imperial:labelled")) == ["standard"]  # looks only
    assert played_as(context.definitions, lith, context.deck("decktet:extended")) == ["beggar", "imposter"]
    assert played_as(context.definitions, flip, context.deck("aetherial")) == []
    assert played_as(context.definitions, games["dragon-poker"], context.deck("pernese:red-star")) == []


def test_a_hand_stands_where_its_category_falls_in_the_order_in_force(context):
    hands = context.hands
    cards = ["2-glyphs", "6-glyphs", "2-sails", "6-sails"]  # the rulebook's Convocation
    for modifiers in ((), ("the-naturalist-s-tumult",)):
        value = standing(hands, FLIP, "standard", modifiers, cards)
        assert isinstance(value, Standing) and value.category == "Convocation"
        table = hands.odds_table(FLIP, None, "standard", modifiers)
        above = list(itertools.takewhile(lambda c: c.name != "Convocation", table.categories))
        assert value.place == len(above) and value.at_least + value.beats == 1
        assert value.at_least == sum((c.fraction for c in above), table.category("Convocation").fraction)


def test_a_hand_made_with_shared_cards_is_the_best_the_rules_allow(context):
    hands = context.hands
    own, edicts = ["7-houses", "2-glyphs", "ect-sails", "4-armies"], ["7-sails", "ect-glyphs"]
    value = standing(hands, FLIP, "standard", ("the-edicts-of-wani",), own, edicts)
    engine = hands.evaluator(FLIP, None, "standard", ("the-edicts-of-wani",))
    allowed = [h for h in itertools.combinations(own + edicts, 4) if set(h) & set(edicts)]  # at least one Edict
    best = max((engine.evaluate(h) for h in allowed), key=lambda r: r.key)
    assert isinstance(value, Standing) and value.category == best.name == "Two Pair" and value.exact
    assert set(value.cards) == {"7-houses", "ect-sails", "7-sails", "ect-glyphs"}  # both Edicts, not just one
    assert 0 < value.at_least < 1 and value.at_least + value.beats == Fraction(1)


@pytest.mark.parametrize(
    ("modifiers", "own", "shared", "needs"),
    [
        ((), ["1-houses"], [], "a hand is 4 cards: 3 more"),
        (("sutet-rots",), ["1-houses", "2-houses", "3-houses", "4-houses"], [], "a hand is 3 cards: 1 too many"),
        (("the-edicts-of-wani",), ["1-houses", "2-houses", "3-houses", "4-houses"], [], "the shared row holds 2 cards: 2 more"),
        (
            ("salvation-beckons-in-the-unknown-lands",),
            ["1-houses", "2-houses"],
            ["mage"],
            "a hand is 3 cards of your own and 1 shared: 1 more",
        ),
        (("in-wrought-arcanum",), ["1-houses"], ["2-houses"], "the grid is 3 × 3 cards in the shared row: 8 more"),
    ],
)
def test_a_hand_that_cannot_be_valued_yet_says_what_it_lacks(context, modifiers, own, shared, needs):
    assert standing(context.hands, FLIP, "standard", modifiers, own, shared) == Unfinished(needs)
