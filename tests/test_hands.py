"""The hand-ranking engine: source examples, textbook counts, properties, cache, command line."""

from __future__ import annotations

import itertools
import json
import random
import shutil
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.definitions import load_all
from generator.definitions.ids import id_from_name as slug
from generator.hands import load_games
from generator.hands import oddstables as odds_module
from tests.contexts import hands_of

from .conftest import ROOT, examples
from .lith_examples import EXAMPLES as LITH_EXAMPLES

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

ALL_TABLES = [
    ("poker", "poker", "full", ()),
    ("lith", "lith", "extended", ()),
    ("lith", "lith", "basic", ()),
    ("lith", "lith", "beggar", ()),
    ("lith", "lith", "imposter", ()),
    ("founders-flip", "standard", "standard", ()),
    ("founders-flip", "standard", "academy", ()),
    ("founders-flip", "sutet-rots", "standard", ()),
    ("founders-flip", "gage", "standard", ()),
    ("founders-flip", "standard", "standard", ("first-great-convocation",)),
    ("founders-flip", "standard", "standard", ("rainbow",)),
    ("dragon-poker", "dragon-poker", "full", ()),
    ("dragon-poker", "dragon-poker", "stripped", ()),
]


@pytest.fixture(scope="session")
def tables(project):
    return {spec: hands_of(project).odds_table(spec[0], spec[1], spec[2], spec[3]) for spec in ALL_TABLES}


def ids(names):
    return [slug(n) for n in names]


# --- the engine's own check: five-card poker -----------------------------------------


def test_poker_textbook_counts(tables):
    t = tables[("poker", "poker", "full", ())]
    assert t.total == 2_598_960
    assert {c.name: c.count for c in t.categories} == {
        "Straight Flush": 40,
        "Four of a Kind": 624,
        "Full House": 3_744,
        "Flush": 5_108,
        "Straight": 10_200,
        "Three of a Kind": 54_912,
        "Two Pair": 123_552,
        "One Pair": 1_098_240,
        "High Card": 1_302_540,
    }
    # a flush pattern includes the straight flushes; a straight pattern includes them too
    assert t.categories[3].pattern == 5_108 + 40 and t.categories[4].pattern == 10_200 + 40


def test_poker_ace_low_and_comparisons(project):
    wheel = ["ace-hearts", "2-clubs", "3-clubs", "4-clubs", "5-clubs"]
    six_high = ["6-hearts", "2-clubs", "3-clubs", "4-clubs", "5-clubs"]
    assert hands_of(project).classify("poker", wheel).name == "Straight"
    assert hands_of(project).compare("poker", six_high, wheel) == 1
    no_wrap = ["queen-hearts", "king-clubs", "ace-clubs", "2-clubs", "3-clubs"]
    assert hands_of(project).classify("poker", no_wrap).name == "High Card"
    assert (
        hands_of(project).compare(
            "poker",
            ["8-spades", "8-hearts", "8-clubs", "2-diamonds", "2-clubs"],
            ["7-spades", "7-hearts", "7-clubs", "ace-diamonds", "ace-clubs"],
        )
        == 1
    )


# --- Lith ----------------------------------------------------------------------------


@pytest.mark.parametrize("category,upper,lower", LITH_EXAMPLES, ids=[e[0] for e in LITH_EXAMPLES])
def test_lith_source_examples(project, category, upper, lower):
    for hand in [upper, lower]:
        if hand is None:
            continue
        got = hands_of(project).classify("lith", ids(hand))
        assert got.name == category, hand
        index = [c.name for c in hands_of(project).evaluator("lith").ranking.categories].index(category)
        assert got.fits_category(index)
    if lower is not None:
        assert hands_of(project).compare("lith", ids(upper), ids(lower)) == 1
        assert hands_of(project).compare("lith", ids(lower), ids(upper)) == -1


def test_lith_examples_in_order(project):
    """Each category's first example beats the first example of every category below it."""
    firsts = [ids(e[1]) for e in LITH_EXAMPLES]
    for a, b in itertools.pairwise(firsts):
        assert hands_of(project).compare("lith", a, b) == 1


def _lith_reference(deck):
    """Lith's categories written straight from the rules, hand by hand (no engine)."""
    ladder = sorted({c.rank for c in deck.cards if c.rank}, key=lambda r: deck.rank(r).value)
    counts = {}
    sub = {}
    for hand in itertools.combinations([c for c in deck.cards if c.rank], 3):
        ranks = [c.rank for c in hand]
        suits = [s for c in hand for s in c.suits]
        types = [t for c in hand for t in c.get("types", ())]
        shared_suits = set(hand[0].suits) & set(hand[1].suits) & set(hand[2].suits)
        shared_types = set(hand[0].get("types", ())) & set(hand[1].get("types", ())) & set(hand[2].get("types", ()))
        pos = sorted(ladder.index(r) for r in ranks)
        run = pos[1] == pos[0] + 1 and pos[2] == pos[1] + 1
        totum = sorted(suits) == sorted(s.id for s in deck.suits)
        fortune = sorted(types) == ["Event", "Location", "Personality"]
        trio = len(set(ranks)) == 1
        pair = len(set(ranks)) <= 2
        kindred = len(shared_types) >= 1
        rules = [
            ("Doubly Kindred", len(shared_types) >= 2),
            ("Running Twin Flush", run and len(shared_suits) >= 2),
            ("Running Totum", run and totum),
            ("Pure Twin Flush", len(shared_suits) >= 2 and len(set(suits)) == 2),
            ("Full Spread Trio", trio and totum and fortune),
            ("Totum Trio", trio and totum),
            ("Full Spread Pair", pair and totum and fortune),
            ("Full Spread", totum and fortune),
            ("Impure Twin Flush", len(shared_suits) >= 2 and len(set(suits)) > 2),
            ("Totum Pair", pair and totum),
            ("Trio", trio),
            ("Totum", totum),
            ("Running Single Flush", run and shared_suits),
            ("Kindred Pair", pair and kindred and not shared_suits),
            ("Single Flush Pair", pair and shared_suits),
            ("Kindred Single Flush", shared_suits and kindred),
            ("Run", run),
            ("Fortune Single Flush", fortune and shared_suits),
            ("Fortune Pair", pair and fortune),
            ("Kindred", kindred),
            ("Fortune", fortune),
            ("Single Flush", shared_suits),
            ("Pair", pair),
            ("Void", True),
        ]
        name = next(n for n, ok in rules if ok)
        counts[name] = counts.get(name, 0) + 1
        cls = "kindred" if kindred else "fortune" if fortune else "neither"
        sub[(name, cls)] = sub.get((name, cls), 0) + 1
    return counts, sub


@pytest.mark.parametrize("deck", ["extended", "basic"])
def test_lith_counts_match_rules_written_out(project, tables, deck):
    table = tables[("lith", "lith", deck, ())]
    counts, sub = _lith_reference(hands_of(project).evaluator("lith", deck=deck).deck)
    assert {c.name: c.count for c in table.categories if c.count} == counts
    for c in table.categories:
        for cls, n in c.subcounts.items():
            assert n == sub.get((c.name, cls), 0)
    assert table.total == comb(44 if deck == "extended" else 36, 3)


def test_lith_kindred_flush_pairs_are_single_flush_pairs(project, tables):
    """A pair that shares a type and a suit is a Single Flush Pair of the kindred class, as the source counts it."""
    island = hands_of(project).classify("lith", ids(["The Island", "The Window", "The Desert"]))
    assert island.name == "Single Flush Pair"
    assert hands_of(project).evaluator("lith").ranking.category("Kindred Pair").blocks.get("flush") is False
    for deck in ("extended", "basic"):
        table = tables[("lith", "lith", deck, ())]
        cards = [c for c in hands_of(project).evaluator("lith", deck=deck).deck.cards if c.rank]
        both = 0  # hands that fit both descriptions, found by looking at every hand
        for hand in itertools.combinations(cards, 3):
            pair = len({c.rank for c in hand}) == 2
            types = set.intersection(*(set(c.get("types", ())) for c in hand))
            suits = set.intersection(*(set(c.suits) for c in hand))
            both += pair and len(types) == 1 and len(suits) == 1  # two shared types or suits rank higher
        sfp = next(c for c in table.categories if c.name == "Single Flush Pair")
        assert both > 0 or deck == "basic"  # the basic deck's pairs never share a suit
        assert sfp.subcounts["kindred"] == both, deck


def test_lith_json_shape(tables):
    data = tables[("lith", "lith", "extended", ())].to_json()
    assert list(data) == ["game", "ranking", "deck", "hand_size", "total", "method", "categories"]
    assert data["method"] == "exact"
    assert data["total"] == 13244 and data["hand_size"] == 3
    first = data["categories"][0]
    assert first == {
        "name": "Doubly Kindred",
        "count": 1,
        "pattern": 1,
        "probability": 7.55e-05,
        "fraction": [1, 13244],
        "subcounts": {"kindred": 1, "fortune": 0, "neither": 0},
    }
    assert sum(Fraction(*row["fraction"]) for row in data["categories"]) == 1  # every share exact


def test_lith_imposter_counts_agree_with_single_hands(project, tables):
    """Every hand holding the imposter, classified one by one over its readings,
    adds up to the difference between the imposter table and the 44-card table."""
    with_excuse = tables[("lith", "lith", "imposter", ())]
    without = tables[("lith", "lith", "extended", ())]
    ev = hands_of(project).evaluator("lith", deck="imposter")
    cards = [c.id for c in ev.deck.cards if c.id != "the-excuse"]
    tally = {}
    for pair in itertools.combinations(cards, 2):
        name = ev.evaluate(list(pair) + ["the-excuse"]).name
        tally[name] = tally.get(name, 0) + 1
    for a, b in zip(with_excuse.categories, without.categories):
        assert a.count - b.count == tally.get(a.name, 0)


def test_lith_beggar_loses_to_any_card(project):
    beggar = ["the-excuse", "the-pact", "the-painter"]
    assert hands_of(project).compare("lith", ["ace-of-knots", "the-pact", "the-painter"], beggar, deck="beggar") == 1


# --- Founder's Flip --------------------------------------------------------------------


def test_founding_cards_never_pair_and_join_straights(project):
    assert hands_of(project).classify("founders-flip", ["magist", "mage", "1-houses", "3-armies"]).name == "High Card"
    assert hands_of(project).classify("founders-flip", ["6-houses", "7-houses", "ect-houses", "magist"]).name == "Straight Flush"
    assert hands_of(project).classify("founders-flip", ["ect-houses", "magist", "mage", "general"]).name == "Straight Flush"


def test_founding_order_changes_straights(project):
    # Founding cards belong to every suit, so with one numbered card they are a flush at least
    hand = ["ect-sails", "magist", "general", "emperor"]  # 8, 9, 11, 12 in the standard order
    assert hands_of(project).classify("founders-flip", hand, deck="standard").name == "Flush"
    assert hands_of(project).classify("founders-flip", hand, deck="academy").name == "Straight Flush"  # 8, 9, 10, 11
    hand = ["7-sails", "ect-sails", "mage"]  # the Mage is 9 in the Ministry order, 10 in the standard one
    assert hands_of(project).classify("founders-flip", hand, ranking="sutet-rots", deck="ministry").name == "Straight Flush"
    assert hands_of(project).classify("founders-flip", hand, ranking="sutet-rots", deck="standard").name == "Flush"


def test_spells_change_hands(project, tables):
    convocation = ["2-glyphs", "2-houses", "6-glyphs", "6-armies"]
    assert hands_of(project).classify("founders-flip", convocation).name == "Two Pair"
    assert hands_of(project).classify("founders-flip", convocation, modifiers=["rainbow"]).name == "Convocation"
    wild = ["ect-houses", "5-glyphs", "5-sails", "5-armies"]
    assert hands_of(project).classify("founders-flip", wild).name == "Three of a Kind"
    assert hands_of(project).classify("founders-flip", wild, modifiers=["first-great-convocation"]).name == "Four of a Kind"
    plain = tables[("founders-flip", "standard", "standard", ())]
    for mod in ("first-great-convocation", "rainbow"):
        other = tables[("founders-flip", "standard", "standard", (mod,))]
        assert other.total == plain.total == comb(36, 4)
        assert [c.count for c in other.categories] != [c.count for c in plain.categories]


def test_gage_examples_from_the_source(project):
    g = lambda hand: hands_of(project).classify("founders-flip", hand, ranking="gage").name
    assert g(["3-houses", "4-armies", "5-glyphs", "6-sails", "7-houses", "ect-armies"]) == "Straight"
    assert g(["3-glyphs", "4-glyphs", "5-glyphs", "6-glyphs", "7-glyphs", "ect-glyphs"]) == "Straight Flush"
    assert g(["2-glyphs", "3-glyphs", "6-glyphs", "2-sails", "3-sails", "6-sails"]) == "Ministry"
    assert g(["2-glyphs", "6-glyphs", "2-sails", "6-sails", "2-armies", "6-armies"]) == "Academy"
    assert g(["magist", "mage", "general", "emperor", "7-houses", "ect-sails"]) == "Imperial Succession"
    assert g(["magist", "mage", "general", "emperor", "7-houses", "ect-houses"]) == "Dynasty"
    assert g(["2-houses", "2-armies", "4-glyphs", "4-sails", "5-houses", "5-glyphs"]) == "Three Pair"


def test_sutet_rots(project):
    s = lambda hand: hands_of(project).classify("founders-flip", hand, ranking="sutet-rots").name
    assert s(["magist", "mage", "emperor"]) == "Imperial"
    assert s(["3-glyphs", "4-glyphs", "5-glyphs"]) == "Straight Flush"


# --- Dragon Poker ---------------------------------------------------------------------


def test_dragon_poker_source_examples(project):
    d = lambda hand: hands_of(project).classify("dragon-poker", hand).name
    assert d(["2-sands", "3-sands", "4-sands", "5-sands", "6-sands"]) == "Straight Flush"
    assert d(["7-stones", "7-stars", "7-spindles", "7-sands", "2-stars"]) == "Four of a Kind"
    assert d(["8-stones", "8-stars", "8-sands", "9-stars", "9-spindles"]) == "Full House"
    assert d(["2-stones", "7-stones", "5-stones", "3-stones", "10-stones"]) == "Flush"
    assert d(["3-stones", "4-sands", "5-stars", "6-stars", "7-spindles"]) == "Straight"
    assert d(["ace-stones", "ww-stones", "wl-stones", "ws-stones", "10-stones"]) == "Weyr Council"
    assert d(["egg-1", "egg-2", "ww-stones", "3-sands", "9-stars"]) == "Three of a Kind"
    assert d(["ace-stars", "ace-sands", "4-stars", "4-sands", "9-stones"]) == "Two Pair"


def test_dragon_poker_ties(project):
    c = lambda a, b: hands_of(project).compare("dragon-poker", a, b)
    # same category: the hand without an Egg wins, even with lower cards
    assert (
        c(
            ["3-stones", "3-sands", "7-stars", "9-spindles", "10-sands"],
            ["egg-1", "ace-sands", "7-spindles", "9-stars", "10-stones"],
        )
        == 1
    )
    # equal values: the suit of the highest card decides
    assert (
        c(["3-stones", "4-sands", "5-stars", "6-stars", "7-stones"], ["3-stars", "4-stones", "5-spindles", "6-sands", "7-stars"])
        == 1
    )
    # an Egg never makes five of a kind
    assert (
        hands_of(project).classify("dragon-poker", ["egg-1", "9-stones", "9-stars", "9-spindles", "9-sands"]).name
        == "Four of a Kind"
    )


@pytest.mark.parametrize("seed", range(4))
def test_dragon_poker_wild_is_best_reading(project, seed):
    ev = hands_of(project).evaluator("dragon-poker")
    real = [c.id for c in ev.universe]
    rng = random.Random(seed)
    eggs = ["egg-1"] if seed < 3 else ["egg-1", "egg-2"]
    natural = rng.sample(real, 5 - len(eggs))
    best = min(
        ev.evaluate(natural + list(x)).category for x in itertools.combinations([c for c in real if c not in natural], len(eggs))
    )
    assert ev.evaluate(natural + eggs).category == best


def test_dragon_poker_hatching_unreachable_but_counted(tables):
    for deck in ("full", "stripped"):
        t = tables[("dragon-poker", "dragon-poker", deck, ())]
        hatching = next(c for c in t.categories if c.name == "Hatching")
        assert hatching.count == 0 and hatching.pattern > 0
        assert "Hatching" in t.audit()["unreachable"]
    assert tables[("dragon-poker", "dragon-poker", "full", ())].total == 3_162_510


# --- properties -----------------------------------------------------------------------


def test_counts_sum_to_all_hands(tables):
    for spec, t in tables.items():
        assert sum(c.count for c in t.categories) == t.total, spec
        assert t.total == comb(t.cards, t.hand_size), spec
        for c in t.categories:
            assert c.count <= c.pattern <= t.total
        assert t.categories[-1].pattern == t.total


def test_variant_counts_change_with_cards(project, tables):
    # looks only: same cards, same cache key, same counts
    a = hands_of(project).evaluator("dragon-poker", deck="full")
    ev = odds_module.engines_for(load_games(project)["dragon-poker"], load_all(project), None, "full", ())
    assert odds_module.table_inputs(a) == odds_module.table_inputs(ev)
    full, stripped = (
        tables[("dragon-poker", "dragon-poker", "full", ())],
        tables[("dragon-poker", "dragon-poker", "stripped", ())],
    )
    assert [c.count for c in full.categories] != [c.count for c in stripped.categories]
    ext, basic = tables[("lith", "lith", "extended", ())], tables[("lith", "lith", "basic", ())]
    assert [c.count for c in ext.categories] != [c.count for c in basic.categories]


def test_every_category_has_description_and_checked_example(project, tables):
    for (gid, rid, did, mods), t in tables.items():
        ev = hands_of(project).evaluator(gid, rid, did, mods)
        for i, c in enumerate(t.categories):
            assert c.description
            if c.count:
                assert c.example is not None, (gid, c.name)
                assert set(c.example) <= {x.id for x in ev.deck.cards}, (gid, did, c.name)
                assert ev.evaluate(c.example).category == i, (gid, c.name, c.example)
            elif c.example is not None:
                assert ev.evaluate(c.example).fits_category(i)


def _hand_strategy(project, game):
    ev = hands_of(project).evaluator(game)
    cards = sorted({c.id for c in ev.deck.cards})
    return st.lists(st.sampled_from(cards), min_size=ev.k, max_size=ev.k, unique=True)


@pytest.mark.parametrize("game", ["poker", "lith", "dragon-poker"])
def test_comparison_is_a_total_order(project, game):
    hands = _hand_strategy(project, game)

    @settings(max_examples=examples(40), deadline=None)
    @given(hands, hands, hands)
    def check(a, b, c):
        ka, kb, _kc = (hands_of(project).classify(game, h) for h in (a, b, c))
        ab, ba = hands_of(project).compare(game, a, b), hands_of(project).compare(game, b, a)
        assert ab == -ba
        if ka.category < kb.category:
            assert ab == 1
        if ab >= 0 and hands_of(project).compare(game, b, c) >= 0:
            assert hands_of(project).compare(game, a, c) >= 0
        assert hands_of(project).compare(game, a, a) == 0

    check()


# --- cache, command line, checks -------------------------------------------------------


@pytest.fixture
def small_project(tmp_path, monkeypatch):
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    shutil.copytree(ROOT / "decks" / "decktet", tmp_path / "decks" / "decktet")
    from generator.project import Project

    return Project(tmp_path)


def test_odds_cached_on_disk(small_project, monkeypatch):
    first = hands_of(small_project).odds_table("lith", deck="basic")
    files = list((small_project.cache_dir / "odds").glob("*.json"))
    assert len(files) == 1

    def refuse(engine):
        raise AssertionError("counted again")

    monkeypatch.setattr(odds_module, "count_raw", refuse)
    again = hands_of(small_project, fresh=True).odds_table("lith", deck="basic")  # another command: from the store
    assert again.to_json() == first.to_json()


def test_cli_odds_json_and_table(capsys, project):
    assert main(["--project", str(project.root), "odds", "lith", "--deck", "basic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deck"] == "basic" and data["total"] == comb(36, 3)
    assert main(["--project", str(project.root), "odds", "poker"]) == 0
    out = capsys.readouterr().out
    assert "Straight Flush" in out and "2,598,960" in out and "64,974.0" in out


def test_cli_odds_unknown_game(capsys, project):
    assert main(["--project", str(project.root), "odds", "liht"]) == 2
    assert "unknown game 'liht' (did you mean 'lith'?)" in capsys.readouterr().err


def test_cli_audit(capsys, project):
    assert main(["--project", str(project.root), "odds", "dragon-poker", "--audit"]) == 0
    out = capsys.readouterr().out
    assert "unreachable: Hatching" in out
    # Three of a Kind above Two Pair with the unreachable Hatching between them: every pair is compared
    assert "out of order: Three of a Kind (204,384) ranks above but is more common than Two Pair (114,048)" in out


def test_audit_compares_every_pair_of_categories(project):
    table = hands_of(project).odds_table("dragon-poker")
    found = {(hi, lo) for hi, _, lo, _ in table.audit()["inverted"]}
    cats = [c for c in table.categories if c.count]
    expected = {(a.name, b.name) for i, a in enumerate(cats) for b in cats[i + 1 :] if a.fraction > b.fraction}
    assert found == expected and ("Three of a Kind", "Two Pair") in found
    names = [c.name for c in table.categories]
    assert names.index("Two Pair") - names.index("Three of a Kind") > 1  # not neighbours


def test_validate_reports_unknown_block(small_project, capsys):
    path = small_project.decks_dir / "decktet" / "lith.toml"
    text = path.read_text(encoding="utf-8").replace('name = "Trio"\n', 'name = "Trio"\ngroupz = [3]\n', 1)
    path.write_text(text, encoding="utf-8")
    assert main(["--project", str(small_project.root), "validate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    line = text.splitlines().index("groupz = [3]") + 1
    assert len(err) == 1
    assert f"decks/decktet/lith.toml:{line}: rankings.lith.categories[11].groupz: " in err[0]
    assert "unknown building block 'groupz' (did you mean 'groups'?); blocks: groups, straight," in err[0]


def test_validate_reports_wrong_example(small_project, capsys):
    path = small_project.decks_dir / "decktet" / "lith.toml"
    text = path.read_text(encoding="utf-8").replace(
        'example = ["the-end", "the-calamity", "the-windfall"]', 'example = ["the-end", "the-calamity", "the-pact"]'
    )
    path.write_text(text, encoding="utf-8")
    assert main(["--project", str(small_project.root), "validate"]) == 2
    err = capsys.readouterr().err
    assert "rankings.lith.categories[11].example: the example hand does not fit Trio" in err


@settings(max_examples=examples(25), deadline=None)
@given(st.data())
def test_counts_change_exactly_when_the_cards_do(data):
    """Take cards out of the 44-card Lith deck, and shuffle the definition order:
    the counts still add up, and they change when, and only when, cards were removed."""
    from dataclasses import replace

    from generator.hands.counting import count
    from generator.hands.engine import Engine
    from generator.project import Project

    project = Project(ROOT)
    base = hands_of(project).evaluator("lith")
    deck = base.deck
    removed = data.draw(st.sets(st.sampled_from([c.id for c in deck.cards]), max_size=6))
    order = data.draw(st.permutations(list(deck.cards)))
    cards = tuple(c for c in order if c.id not in removed)
    engine = Engine(base.ranking, replace(deck, cards=cards), base.modifiers, "test")
    counts, _pattern, _sub, total, _ = count(engine)
    assert total == comb(len(cards), 3) == int(counts.sum())
    full, *_ = count(base)
    assert (list(counts) == list(full)) == (not removed)
    assert (odds_module.table_inputs(engine) == odds_module.table_inputs(base)) == (
        not removed and list(order) == list(deck.cards)
    )


def test_first_great_convocation_counts_by_readings(project, tables):
    """Recount the First Great Convocation by hand: every real hand classified once,
    then each printed hand worth the best real hand that holds its natural cards
    (an ect may stand for any card not in the hand, itself included)."""
    import numpy as np

    from generator.hands.bits import lowbit as _lowbit

    plain = hands_of(project).evaluator("founders-flip")
    hands = np.array(list(itertools.combinations(range(plain.n), 4)), np.int64)
    best = _lowbit(plain.masks(plain.features(hands), 4, len(hands), printed=False))
    ids = [c.id for c in plain.universe]
    value = {frozenset(ids[i] for i in h): int(b) for h, b in zip(hands, best)}
    ects = [c for c in ids if c.startswith("ect-")]
    others = [c for c in ids if c not in ects]
    tally = [0] * len(plain.ranking.categories)
    for w in range(0, 5):
        for natural in itertools.combinations(others, 4 - w):
            rest = [c for c in ids if c not in natural]
            reach = min(value[frozenset(natural + extra)] for extra in itertools.combinations(rest, w))
            tally[reach] += comb(4, w)  # which w of the four ects are held does not matter
    counted = tables[("founders-flip", "standard", "standard", ("first-great-convocation",))]
    assert tally == [c.count for c in counted.categories]
    assert sum(tally) == comb(36, 4)


def test_dragon_poker_flush_ties_on_the_highest_card_then_suit(project):
    c = lambda a, b: hands_of(project).compare("dragon-poker", a, b)
    # the same highest card: the higher suit wins, whatever the lower cards
    assert (
        c(["10-stones", "7-stones", "5-stones", "3-stones", "2-stones"], ["10-stars", "9-stars", "8-stars", "6-stars", "4-stars"])
        == 1
    )
    # other categories compare every card before the suit
    assert (
        c(["9-stones", "9-stars", "8-stones", "7-stones", "2-stones"], ["9-spindles", "9-sands", "8-stars", "7-stars", "3-stars"])
        == -1
    )
