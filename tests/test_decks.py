"""The seed decks, as data: counts, uniqueness and what each variant changes."""

from __future__ import annotations

from pathlib import Path

import pytest

EXPECTED = {"imperial": 36, "aetherial": 23, "decktet": 45, "dragons-gambit": 40, "pernese": 54}
VARIANT_COUNTS = {
    ("imperial", "standard"): 36,
    ("imperial", "ministry"): 36,
    ("imperial", "academy"): 36,
    ("imperial", "labelled"): 36,
    ("decktet", "basic"): 36,
    ("decktet", "extended"): 45,
    ("decktet", "no-excuse"): 44,
    ("pernese", "coloured"): 54,
    ("pernese", "colourless"): 54,
    ("pernese", "stripped"): 38,
    ("pernese", "red-star"): 49,
}


def test_every_seed_deck_is_present_with_its_count(definitions):
    assert {d: definitions[d].base.card_count for d in definitions if d in EXPECTED} == EXPECTED
    assert definitions["standard"].base.card_count == 52


@pytest.mark.parametrize("deck_id,variant", sorted(VARIANT_COUNTS))
def test_variant_counts(definitions, deck_id, variant):
    deck = definitions[deck_id].build([variant])
    assert deck.card_count == VARIANT_COUNTS[(deck_id, variant)]


def test_card_ids_and_names_unique_in_every_variant(definitions):
    for definition in definitions.values():
        for variants in [()] + [(v,) for v in definition.variant_specs]:
            deck = definition.build(variants)
            ids = [c.id for c in deck.cards]
            assert len(ids) == len(set(ids)), deck.key
            named = [(c.name, c.suits) for c in deck.cards if c.group != "egg"]
            assert len(named) == len(set(named)), deck.key


def test_imperial_numbers_print_in_base_eight(definitions):
    deck = definitions["imperial"].base
    numbered = [c for c in deck.cards if c.group == "numbered"]
    assert len(numbered) == 32
    labels = sorted({deck.rank(c.rank).label for c in numbered}, key=lambda label: int(label, 8))
    assert labels == ["1", "2", "3", "4", "5", "6", "7", "10"]
    for card in numbered:
        rank = deck.rank(card.rank)
        assert int(rank.label, 8) == rank.value  # the printed label is the value in base eight
        assert "8" not in rank.label and "9" not in rank.label
    assert deck.card("ect-houses").name == "Ect of Houses"
    # Founding labels are base eight too, above the ect
    for card in deck.cards:
        if card.group == "founding":
            assert int(deck.rank(card.rank).label, 8) == deck.rank(card.rank).value > 8


def test_founding_cards_belong_to_every_suit(definitions):
    deck = definitions["imperial"].base
    founding = [c for c in deck.cards if c.group == "founding"]
    assert [c.id for c in founding] == ["magist", "mage", "general", "emperor"]
    for card in founding:
        assert set(card.suits) == {s.id for s in deck.suits} == {"houses", "armies", "glyphs", "sails"}


@pytest.mark.parametrize(
    "variant,order",
    [
        ("standard", {"magist": 9, "mage": 10, "general": 11, "emperor": 12}),
        ("ministry", {"mage": 9, "magist": 10, "general": 11, "emperor": 12}),
        ("academy", {"magist": 9, "general": 10, "emperor": 11, "mage": 12}),
    ],
)
def test_founding_orders(definitions, variant, order):
    deck = definitions["imperial"].build([variant])
    assert {c.id: deck.rank(c.rank).value for c in deck.cards if c.group == "founding"} == order
    if variant == "academy":
        assert deck.card("mage").name == "The Metric"
    else:
        assert deck.card("mage").name == "The Mage"


def test_variants_compose(definitions):
    deck = definitions["imperial"].build(["academy", "labelled"])
    assert deck.style["labelled"] is True
    assert deck.card("mage").name == "The Metric"
    assert definitions["imperial"].build(["academy"]).style["labelled"] is False


def test_aetherial_spells(definitions):
    deck = definitions["aetherial"].base
    assert len({c.name for c in deck.cards}) == 23
    for name in (
        "The Convocation of the Gage",
        "Sutet Rots",
        "The First Great Convocation",
        "Sledge-Mitt Margoz, Ruin of a Dynasty",
        "The Naturalist’s Tumult",
    ):
        assert any(c.name == name for c in deck.cards), name
    for card in deck.cards:
        assert len(card.get("text", "")) > 20, card.id
    with_flavour = {c.name for c in deck.cards if c.get("flavour")}
    assert {"The First Great Convocation", "Silphion’s Fallow", "A Rainbow in Light and Pigment"} <= with_flavour


def test_decktet_matches_reference(definitions, project):
    """The Decktet against the reference card list (a copy of shared/reference/decktet.csv, kept verbatim)."""
    import csv

    reference = Path(__file__).parent / "fixtures" / "decktet-reference.csv"
    deck = definitions["decktet"].base
    with open(reference, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == deck.card_count == 45
    for row in rows:
        card = next(c for c in deck.cards if c.name == row["name"])
        assert (deck.rank(card.rank).name if card.rank else "") == row["rank"]
        assert [deck.suit(s).name for s in card.suits] == [s for s in row["suits"].split("+") if s]
        assert list(card.get("types", ())) == [t for t in row["types"].split("+") if t]


def test_decktet_basic_loses_pawns_courts_and_excuse(definitions):
    full = definitions["decktet"].base
    basic = definitions["decktet"].build(["basic"])
    gone = {c.id for c in full.cards} - {c.id for c in basic.cards}
    assert len(gone) == 9 and "the-excuse" in gone
    assert {full.card(c).rank for c in gone} == {"pawn", "court", None}
    assert [r.id for r in basic.ranks] == ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "crown"]
    excuse = full.card("the-excuse")
    assert excuse.rank is None and excuse.suits == () and not excuse.get("types")


def test_dragons_gambit_points(definitions):
    deck = definitions["dragons-gambit"].base
    assert [s.name for s in deck.suits] == ["Earth", "Fire", "Water", "Wood", "Air"]
    by_name = {r.name: r for r in deck.ranks}
    assert [r.name for r in sorted(deck.ranks, key=lambda r: r.value)] == [
        "One",
        "Two",
        "Three",
        "Four",
        "Five",
        "Censor",
        "Immaculate",
        "Dragon",
    ]
    assert [by_name[n].attributes["twofold_points"] for n in ("One", "Five", "Censor", "Immaculate", "Dragon")] == [1, 1, 2, 2, 3]
    assert [by_name[n].attributes["fivefold_points"] for n in ("One", "Three", "Four", "Five", "Censor", "Dragon")] == [
        2,
        2,
        3,
        3,
        4,
        5,
    ]
    for suit in deck.suits:
        assert sum(1 for c in deck.cards if c.suits == (suit.id,)) == 8


def test_pernese_suits_and_variants(definitions):
    deck = definitions["pernese"].base
    suits = {s.id: s for s in deck.suits}
    assert [s.id for s in sorted(deck.suits, key=lambda s: -s.order)] == ["stones", "stars", "spindles", "sands"]
    assert {s: suits[s].symbol for s in suits} == {
        "stones": "circle",
        "stars": "star5",
        "spindles": "crown7",
        "sands": "hourglass",
    }
    assert {s: suits[s].attributes["family"] for s in suits} == {
        "stones": "Smooth",
        "sands": "Smooth",
        "stars": "Sharp",
        "spindles": "Sharp",
    }
    assert [c.id for c in deck.cards if c.group == "egg"] == ["egg-1", "egg-2"]
    colourless = definitions["pernese"].build(["colourless"])
    assert {s.colour for s in colourless.suits} == {"#000000"}
    assert len({s.colour for s in deck.suits}) == 4
    stripped = definitions["pernese"].build(["stripped"])
    assert not any(c.rank in {"2", "3", "4", "5"} for c in stripped.cards)
    assert [r.id for r in stripped.ranks][:2] == ["6", "7"]
    red = definitions["pernese"].build(["red-star"])
    assert [c.id for c in red.cards if c.rank == "ace"] == ["ace-stars"]
    assert not any(c.group == "egg" for c in red.cards)


def test_unknown_variant_is_an_error(definitions):
    from generator.errors import AetherpressError

    with pytest.raises(AetherpressError, match=r"has no variant 'ministy'.*did you mean 'ministry'"):
        definitions["imperial"].build(["ministy"])
