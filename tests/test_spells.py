"""The Aetherial spells as modifiers of Founder's Flip, each checked against an independent count.

The counts written straight from the rules are in :mod:`.flip_reference`; where a
spell needs readings of wild cards, they run on a smaller Imperial deck (fewer
numbered ranks), built the same way for the engine and for the reference.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from math import comb

import numpy as np
import pytest

from generator.cli import main
from generator.hands import load_games
from generator.hands.counting import count
from generator.hands.engine import Engine
from generator.hands.simulate import wilson
from generator.hands.values import count_by_hand
from tests.contexts import hands_of

from . import flip_reference as ref

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

GAME = "founders-flip"


@pytest.fixture(scope="module")
def game(project):
    return load_games(project)[GAME]


@pytest.fixture(scope="module")
def base(project):
    return hands_of(project).evaluator(GAME)


def small_engine(base, game, values, modifiers=(), ranking=None):
    """The engine on the Imperial deck cut down to these numbered values (and the Founding cards)."""
    names = {8: "ect"}
    keep = {f"{names.get(v, v)}-{s}" for v in values for s in ref.SUITS} | set(ref.FOUNDING)
    deck = replace(base.deck, cards=tuple(c for c in base.deck.cards if c.id in keep))
    mods = [game.modifiers[game.modifier_id(m)] for m in modifiers]
    return Engine(ranking or base.ranking, deck, mods, "test")


def engine_counts(engine) -> dict[str, int]:
    counts, _pattern, _sub, total, _ = count(engine)
    assert total == int(counts.sum())
    return {c.name: int(n) for c, n in zip(engine.ranking.categories, counts) if n}


def reference_counts(cards, value) -> dict[str, int]:
    return ref.tally(value(list(hand)) for hand in itertools.combinations(cards, 4))


# --- every hand-changing spell is a modifier named by its card -------------------------------------

HAND_CHANGING = [
    "the-naturalist-s-tumult",
    "the-convocation-of-the-gage",
    "the-first-great-convocation",
    "silphion-s-fallow",
    "the-dance-of-the-court",
    "a-rainbow-in-light-and-pigment",
    "in-legacy-life",
    "in-wrought-arcanum",
    "salvation-beckons-in-the-unknown-lands",
    "the-mournful-flight-of-the-lowlanders",
    "the-realmgirt-makes-landfall",
    "the-edicts-of-wani",
    "sutet-rots",
]


def test_spells_are_modifiers_named_by_card(game, definitions):
    spells = [c.id for c in definitions[game.spells].build(()).cards]
    assert set(HAND_CHANGING) <= set(game.modifiers)
    assert set(game.modifiers) <= set(spells)
    for mid in game.modifiers:
        title = next(c.name for c in definitions[game.spells].build(()).cards if c.id == mid)
        assert game.modifiers[mid].title == title
    assert game.modifier_id("rainbow") == "a-rainbow-in-light-and-pigment"
    assert game.modifier_id("first-great-convocation") == "the-first-great-convocation"


def test_full_deck_reference_agrees_with_the_deal(project):
    """The reference classifier itself, against the engine's table of the deal."""
    table = hands_of(project).odds_table(GAME)
    assert reference_counts(ref.deck(), ref.category) == {c.name: c.count for c in table.categories if c.count}


# --- spells that change categories, suits or dead cards: full deck, exact -----------------------------


def test_silphions_fallow(project):
    struck = {"ect-houses"} | {f"{v}-sails" for v in (1, 2, 3, 4, 5, 6, 7, "ect")}
    cards = [ref.Card(c.id, None, frozenset()) if c.id in struck else c for c in ref.deck()]
    table = hands_of(project).odds_table(GAME, modifiers=["silphion-s-fallow"])
    assert reference_counts(cards, ref.category) == {c.name: c.count for c in table.categories if c.count}
    assert table.category("Four of a Kind").count == 0
    assert "Four of a Kind" in table.audit()["unreachable"]
    # struck cards pair with nothing and break flushes; Founding cards keep their suits
    assert (
        hands_of(project).classify(GAME, ["ect-houses", "ect-armies", "2-glyphs", "5-glyphs"], modifiers=["fallow"]).name
        == "High Card"
    )
    assert hands_of(project).classify(GAME, ["mage", "1-glyphs", "4-glyphs", "6-glyphs"], modifiers=["fallow"]).name == "Flush"


def marriage(hand) -> bool:
    return any("houses" in a.suits and b.suits - {"houses"} for a, b in itertools.permutations(hand, 2))


def test_dance_of_the_court(project):
    table = hands_of(project).odds_table(GAME, modifiers=["the-dance-of-the-court"])
    expected = reference_counts(ref.deck(), lambda h: ref.category(h) if marriage(h) else "Cannot win")
    assert expected == {c.name: c.count for c in table.categories if c.count}
    assert table.categories[-1].name == "Cannot win"
    # no Houses card at all: C(24, 4) hands of Armies, Glyphs and Sails; all Houses: C(8, 4)
    assert table.category("Cannot win").count == comb(24, 4) + comb(8, 4)
    assert hands_of(project).classify(GAME, ["magist", "1-houses", "2-houses", "3-houses"], modifiers=["dance"]).name == "Flush"
    assert (
        hands_of(project).classify(GAME, ["4-houses", "1-houses", "2-houses", "3-houses"], modifiers=["dance"]).name
        == "Cannot win"
    )


def test_in_legacy_life(project):
    def legacy(hand):
        suits = [s for c in hand for s in c.suits]
        if sorted(suits) == sorted(ref.SUITS) and not any(c.founding for c in hand):
            return "Legacy" if ref.category(hand) != "Imperial" else "Imperial"
        return ref.category(hand)

    table = hands_of(project).odds_table(GAME, modifiers=["in-legacy-life"])
    assert [c.name for c in table.categories][:3] == ["Imperial", "Legacy", "Four of a Kind"]
    assert reference_counts(ref.deck(), legacy) == {c.name: c.count for c in table.categories if c.count}
    assert table.category("Legacy").count == 8**4


def test_rainbow_glyphs_of_every_suit(project):
    cards = [replace(c, suits=frozenset(ref.SUITS)) if c.id.endswith("-glyphs") else c for c in ref.deck()]
    table = hands_of(project).odds_table(GAME, modifiers=["rainbow"])
    assert reference_counts(cards, ref.category) == {c.name: c.count for c in table.categories if c.count}


def test_naturalists_tumult_reverses_all_but_the_imperial(project):
    plain = hands_of(project).odds_table(GAME)
    table = hands_of(project).odds_table(GAME, modifiers=["the-naturalist-s-tumult"])
    assert [c.name for c in table.categories] == ["Imperial"] + [c.name for c in plain.categories][:0:-1]
    assert {c.name: c.count for c in table.categories} == {c.name: c.count for c in plain.categories}
    tumult = ["tumult"]
    pair = ["4-houses", "4-armies", "1-glyphs", "7-sails"]
    two_pair = ["2-glyphs", "2-houses", "6-armies", "6-sails"]
    high = ["emperor", "6-houses", "3-armies", "1-glyphs"]
    imperial = ["magist", "mage", "general", "emperor"]
    assert (
        hands_of(project).compare(GAME, two_pair, pair) == 1
        and hands_of(project).compare(GAME, two_pair, pair, modifiers=tumult) == -1
    )
    assert hands_of(project).compare(GAME, high, pair, modifiers=tumult) == 1
    assert hands_of(project).compare(GAME, imperial, high, modifiers=tumult) == 1
    # within a category the lower hand wins
    low_pair = ["2-houses", "2-armies", "1-glyphs", "7-sails"]
    assert (
        hands_of(project).compare(GAME, pair, low_pair) == 1
        and hands_of(project).compare(GAME, pair, low_pair, modifiers=tumult) == -1
    )
    found = table.audit()
    assert ("High Card", 31764, "One Pair", 21792) in found["inverted"]


# --- wild cards: a smaller deck, every reading ------------------------------------------------------


VALUES = (1, 2, 3, 4)


def test_mournful_flight_every_reading(base, game):
    engine = small_engine(base, game, VALUES, ["the-mournful-flight-of-the-lowlanders"])
    cards = ref.deck(VALUES)

    def value(hand):
        low = min(c.value for c in hand)
        return min(
            (ref.best_reading(hand, [c], cards) for c in hand if c.value == low),
            key=ref.CATEGORIES.index,
        )

    assert engine_counts(engine) == reference_counts(cards, value)


def test_realmgirt_makes_landfall_every_reading(base, game):
    engine = small_engine(base, game, VALUES, ["the-realmgirt-makes-landfall"])
    cards = ref.deck(VALUES)

    def value(hand):
        wild = [c for c in hand if c.founding]
        best = ref.CATEGORIES.index(ref.best_reading(hand, wild, cards))
        return ref.CATEGORIES[max(best - len(wild), 0)]

    assert engine_counts(engine) == reference_counts(cards, value)


def test_first_great_convocation_two_methods(project, game, base):
    """The weighted count of natural cards and the hand-by-hand values agree."""
    engine = hands_of(project).evaluator(GAME, modifiers=["first-great-convocation"])
    weighted = count(engine)
    by_hand = count_by_hand(engine)
    assert list(weighted[0]) == list(by_hand[0]) and list(weighted[1]) == list(by_hand[1])
    small = small_engine(base, game, VALUES, ["first-great-convocation"], base.ranking)
    cards = ref.deck(VALUES)
    # no ect in the small deck: nothing is wild, the counts are the plain ones
    assert engine_counts(small) == reference_counts(cards, ref.category)


def test_tumult_with_wild_ects_reads_for_the_reversed_order(base, game):
    """Two spells at once (as The Capitol Migration allows): a wild ect is read to make the
    hand best in the reversed order, so it seeks the lowest category."""
    values = (5, 6, 7, 8)
    engine = small_engine(base, game, values, ["tumult", "first-great-convocation"])
    cards = ref.deck(values)
    order = ["Imperial"] + ref.CATEGORIES[:0:-1]

    def value(hand):
        return ref.best_reading(hand, [c for c in hand if c.value == 8], cards, order)

    assert engine_counts(engine) == reference_counts(cards, value)


def test_single_hands_under_wild_spells(project):
    landfall = ["landfall"]
    assert hands_of(project).classify(GAME, ["magist", "5-houses", "5-armies", "5-glyphs"], modifiers=landfall).name == "Imperial"
    assert hands_of(project).classify(GAME, ["magist", "1-houses", "3-armies", "6-glyphs"], modifiers=landfall).name == "Flush"
    low = ["the-mournful-flight-of-the-lowlanders"]
    assert (
        hands_of(project).classify(GAME, ["1-houses", "5-armies", "5-glyphs", "5-sails"], modifiers=low).name == "Four of a Kind"
    )
    assert hands_of(project).classify(GAME, ["magist", "mage", "general", "1-houses"], modifiers=low).name == "Imperial"


def test_hand_by_hand_counts_agree_with_single_hands(project):
    """Hands spread over the whole deck, classified on their own, against the table's hand values."""
    from generator.hands.bits import subsets
    from generator.hands.values import hand_values

    for mods in (["lowlanders"], ["landfall"], ["tumult", "first-great-convocation"]):
        engine = hands_of(project).evaluator(GAME, modifiers=mods)
        value, _fits = hand_values(engine)
        combos = subsets(engine.n, engine.k)
        for row in range(0, len(combos), 37):
            hand = [engine.universe[int(c)].id for c in combos[row]]
            got = engine.evaluate(hand)
            assert engine.order[int(value[row])] == got.category, (mods, hand)


# --- hands from shared cards --------------------------------------------------------------------------


def shared_reference(cards, own, shared, min_shared):
    """Every deal of own and shared cards, the best four-card hand using enough shared cards."""
    value = {frozenset(h): ref.category(list(h)) for h in itertools.combinations(cards, 4)}
    out: dict[str, int] = {}
    for mine in itertools.combinations(cards, own):
        rest = [c for c in cards if c not in mine]
        for middle in itertools.combinations(rest, shared):
            best = min(
                (
                    value[frozenset(h)]
                    for h in itertools.combinations(mine + middle, 4)
                    if len(set(h) & set(middle)) >= min_shared
                ),
                key=ref.CATEGORIES.index,
            )
            out[best] = out.get(best, 0) + 1
    return out


def test_edicts_of_wani_every_deal_on_a_small_deck(base, game):
    from generator.hands.spells import shared_exact

    engine = small_engine(base, game, (1, 2), ["the-edicts-of-wani"])
    raw = shared_exact(engine, game.modifiers["the-edicts-of-wani"].shared)
    got = {c.name: n for c, n in zip(engine.ranking.categories, raw["counts"]) if n}
    assert got == shared_reference(ref.deck((1, 2)), 4, 2, 1)
    assert raw["total"] == comb(12, 4) * comb(8, 2)


def test_salvation_is_the_deal_for_one_player(project):
    deal = hands_of(project).odds_table(GAME)
    table = hands_of(project).odds_table(GAME, modifiers=["salvation"])
    assert table.method == "exact" and table.total == comb(36, 3) * 33
    assert [c.count for c in table.categories] == [4 * c.count for c in deal.categories]


def test_simulation_brackets_the_exact_count(project):
    """The Edicts simulated with the default trials and seed: every exact share lies inside its interval."""
    exact = hands_of(project).odds_table(GAME, modifiers=["the-edicts-of-wani"])
    simulated = hands_of(project).odds_table(GAME, modifiers=["the-edicts-of-wani"], simulate=True, trials=200_000)
    assert exact.method == "exact" and simulated.method == "simulation"
    assert simulated.total == 200_000 and simulated.seed == 1
    for e, s in zip(exact.categories, simulated.categories):
        assert e.name == s.name
        assert s.interval is not None and s.interval[0] <= e.probability <= s.interval[1], e.name
    data = simulated.to_json()
    assert data["method"] == "simulation" and data["trials"] == 200_000 and data["confidence"] == 0.999
    assert all("interval" in row for row in data["categories"])


def test_intervals_cover_the_exact_values(project):
    """Over many seeds, about 95 % of the Wilson intervals at 95 % hold the exact share: not fewer
    (a biased deal or too narrow an interval), not nearly all (too wide an interval); and the tables' own
    intervals, at 99.9 %, all but never miss."""
    from statistics import NormalDist

    z95 = NormalDist().inv_cdf(0.975)
    inside = printed = tried = 0
    for spell in ("the-edicts-of-wani", "salvation-beckons-in-the-unknown-lands"):
        exact = hands_of(project).odds_table(GAME, modifiers=[spell])
        for seed in range(20):
            simulated = hands_of(project).odds_table(GAME, modifiers=[spell], simulate=True, trials=8_000, seed=100 + seed)
            for e, s in zip(exact.categories, simulated.categories):
                assert s.interval is not None and simulated.trials == 8_000
                lo, hi = wilson(s.count, simulated.trials, z95)
                inside += lo <= e.probability <= hi
                printed += s.interval[0] <= e.probability <= s.interval[1]
                tried += 1
    assert 0.9 <= inside / tried <= 0.99, inside / tried
    assert printed / tried >= 0.99, printed / tried


def test_grid_simulation_against_every_grid_of_a_small_deck(base, game):
    """A 2 x 2 grid and one kept card, three-card hands (the same code as In Wrought Arcanum),
    simulated, against every deal counted from the rules."""
    from generator.hands.rankings import Grid
    from generator.hands.spells import grid_lines, grid_simulated

    assert len(grid_lines(3)) == 8 and (0, 4, 8) in grid_lines(3) and (2, 4, 6) in grid_lines(3)
    sutet = load_games_ranking(base, game, "sutet-rots")
    engine = small_engine(base, game, (1, 2), ranking=sutet)
    raw = grid_simulated(engine, Grid(2, 1), 40_000, 3)
    cards = [c.id for c in engine.deck.cards]
    value = {frozenset(h): engine.evaluate(list(h)).category for h in itertools.combinations(cards, 3)}
    exact = [0] * len(engine.ranking.categories)
    total = 0
    for kept in cards:
        rest = [c for c in cards if c != kept]
        for cells in itertools.permutations(rest, 4):
            best = min(value[frozenset((kept, cells[a], cells[b]))] for a, b in grid_lines(2))
            exact[best] += 1
            total += 1
    from generator.hands.simulate import wilson

    for i, hits in enumerate(raw["counts"]):
        lo, hi = wilson(hits, raw["total"])
        assert lo <= exact[i] / total <= hi, engine.ranking.categories[i].name


def load_games_ranking(base, game, rid):
    return game.rankings[rid]


def test_arcanum_is_simulated_and_reproducible(project):
    a = hands_of(project).odds_table(GAME, modifiers=["in-wrought-arcanum"], trials=20_000, seed=5)
    b = hands_of(project).odds_table(GAME, modifiers=["in-wrought-arcanum"], trials=20_000, seed=5, use_cache=False)
    c = hands_of(project).odds_table(GAME, modifiers=["in-wrought-arcanum"], trials=20_000, seed=6, use_cache=False)
    assert a.simulated and a.to_json() == b.to_json()
    assert [x.count for x in a.categories] != [x.count for x in c.categories]
    assert a.total == 20_000 and sum(sum(counts) for counts in a.kept.values()) == 20_000


def test_arcanum_by_the_card_kept(project):
    table = hands_of(project).odds_table(GAME, modifiers=["arcanum"], trials=30_000, seed=2)
    assert table.kept is not None and list(table.kept) == ["1", "2", "3", "4", "5", "6", "7", "ect", *ref.FOUNDING]
    simulated = [(sum(col), c) for col, c in zip(zip(*table.kept.values()), table.categories) if not c.exact]
    assert simulated and all(n == c.count for n, c in simulated)
    names = [c.name for c in table.categories]
    for founding in ref.FOUNDING:  # a Founding card never pairs: no hand of two pairs or four alike with it
        for name in ("Four of a Kind", "Convocation", "Two Pair"):
            assert table.kept[founding][names.index(name)] == 0, (founding, name)
    share, (lo, hi) = table.kept_share("4", "Straight")
    assert lo <= share <= hi and share == sum(table.kept["4"][: names.index("Straight") + 1]) / sum(table.kept["4"])
    rows = table.to_json()["by_kept_card"]
    assert [r["rank"] for r in rows] == list(table.kept) and sum(r["trials"] for r in rows) == 30_000


def test_wilson_interval_textbook_value():
    from generator.hands.simulate import wilson

    lo, hi = wilson(50, 100, 1.959963984540054)  # at 95 %
    assert abs(lo - 0.4038) < 5e-4 and abs(hi - 0.5962) < 5e-4
    lo, hi = wilson(0, 1000, 1.959963984540054)
    assert lo == 0 and 0.003 < hi < 0.004
    lo, hi = wilson(50, 100)  # at 99.9 %: z = 3.2905
    assert abs(lo - 0.3437) < 5e-4 and abs(hi - 0.6563) < 5e-4


# --- command line -------------------------------------------------------------------------------------


def test_cli_spell_by_card_id(capsys, project):
    root = str(project.root)
    assert main(["--project", root, "odds", GAME, "--modifier", "the-mournful-flight-of-the-lowlanders", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["modifiers"] == ["the-mournful-flight-of-the-lowlanders"] and data["method"] == "exact"
    assert main(["--project", root, "odds", GAME, "--modifier", "gage", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ranking"] == "gage" and data["hand_size"] == 6
    assert main(["--project", root, "odds", GAME, "--modifier", "arcanum", "--trials", "5000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "5,000 simulated deals (seed 3)" in out and "99.9 % interval" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (["--modifier", "lowlander"], "has no modifier 'lowlander' (did you mean 'lowlanders'?)"),
        (["--modifier", "gage", "--ranking", "standard"], "plays ranking 'gage', not 'standard'"),
        (["--modifier", "arcanum", "--trials", "0"], "trials must be 1 to 100,000,000"),
        (["--modifier", "edicts", "--modifier", "salvation"], "cannot be in force together"),
    ],
)
def test_cli_spell_errors(capsys, project, args, message):
    assert main(["--project", str(project.root), "odds", GAME, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_audit_reports_per_spell(capsys, project):
    assert main(["--project", str(project.root), "odds", GAME, "--audit", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_spell = {tuple(r["modifiers"]): r for r in rows if r["modifiers"]}
    assert {(m,) for m in HAND_CHANGING} <= set(by_spell)
    assert by_spell[("silphion-s-fallow",)]["new_unreachable"] == ["Four of a Kind"]
    assert by_spell[("the-mournful-flight-of-the-lowlanders",)]["new_unreachable"] == ["High Card"]
    assert any(i["higher"] == "High Card" for i in by_spell[("the-naturalist-s-tumult",)]["new_inverted"])
    assert by_spell[("in-wrought-arcanum",)]["method"] == "simulation"
    assert by_spell[("salvation-beckons-in-the-unknown-lands",)]["new_inverted"] == []
    assert np.all([r["game"] == GAME for r in rows])


def test_lex_indices_agree_with_lex_index_hand_by_hand():
    import itertools

    import numpy as np

    from generator.hands.bits import subset_rows
    from generator.hands.values import lex_index, lex_indices

    rows = np.concatenate(list(subset_rows(12, 6)))
    hands = list(itertools.combinations(range(6), 4))
    for hand, found in zip(hands, lex_indices(rows, hands, 12)):
        assert np.array_equal(found, lex_index(rows[:, list(hand)], 12))
    assert lex_indices(rows, [], 12) == []
