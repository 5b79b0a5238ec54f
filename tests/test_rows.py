"""Fivefold Arrangement's rows, against every draw of the draw deck dealt out one by one."""

from __future__ import annotations

import itertools
import json
import random
import shutil
from dataclasses import replace
from fractions import Fraction

import pytest

from generator.cli import main
from generator.hands import load_games
from generator.hands.rows import SetupOdds
from tests.contexts import hands_of

from .conftest import ROOT

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

GAME = "fivefold-arrangement"


@pytest.fixture(scope="module")
def setups(project):
    return hands_of(project).row_table(GAME)


@pytest.fixture(scope="module")
def deck(definitions):
    return definitions["dragons-gambit"].build(())


def best_run(row, turned, points):
    """The rules, card by card: the largest sum of points of face-up neighbours."""
    best = run = 0
    for rank in row:
        run = run + points[rank] if rank in turned else 0
        best = max(best, run)
    return best


def every_draw(draw_deck, draws=5):
    """Every set of ``draws`` cards of the draw deck (cards of a rank told apart), as the ranks turned."""
    cards = [rank for rank, n in draw_deck.items() for _ in range(n)]
    for hand in itertools.combinations(range(len(cards)), draws):
        yield {cards[i] for i in hand}


def distribution(row, draw_deck, points):
    counts = {}
    for turned in every_draw(draw_deck):
        p = best_run(row, turned, points)
        counts[p] = counts.get(p, 0) + 1
    return counts


def sample_rows(setup: SetupOdds, n, seed):
    rng = random.Random(seed)
    kinds = setup.best(2) + setup.worst(2) + rng.sample(setup.all_rows, n)
    return [k.ranks for k in kinds]


@pytest.mark.parametrize("sid", ["twofold", "fivefold"])
def test_points_match_every_draw(setups, deck, sid):
    setup = setups[sid]
    points = {r.id: r.attributes[setup.setup.points] for r in deck.ranks}
    for row in sample_rows(setup, 8, sid == "twofold"):
        counts = distribution(row, setup.setup.draw_deck, points)
        kind = next(k for k in setup.all_rows if k.ranks == row)
        assert {p: n for p, n in enumerate(kind.counts) if n} == counts, row
        assert kind.total == sum(counts.values())
        assert kind.expected == Fraction(sum(p * n for p, n in counts.items()), kind.total)


def test_kinds_hold_rows_that_score_alike(setups):
    for setup in setups.values():
        assert sum(k.orders for k in setup.all_rows) == 8 * 7 * 6 * 5 * 4
        for members in setup.kinds.values():
            first = setup.counts[members[0]]
            assert all((setup.counts[i] == first).all() for i in members)
        expected = [k.expected for k in setup.all_rows]
        assert expected == sorted(expected, reverse=True)


def test_mirror_images_score_alike(setups):
    setup = setups["fivefold"]
    for kind in setup.all_rows[:20]:
        i, j = setup._row(kind.ranks), setup._row(kind.ranks[::-1])
        assert (setup.counts[i] == setup.counts[j]).all()


def test_head_to_head_with_shared_draws(setups, deck):
    """Twofold: both rows are turned by the same five cards."""
    setup = setups["twofold"]
    points = {r.id: r.attributes["twofold_points"] for r in deck.ranks}
    a, b = setup.best(1)[0].ranks, setup.worst(1)[0].ranks
    c = setup.best(3)[1].ranks
    for x, y in ((a, b), (a, c)):
        wins = ties = total = 0
        for turned in every_draw(setup.setup.draw_deck):
            sx, sy = best_run(x, turned, points), best_run(y, turned, points)
            wins += sx > sy
            ties += sx == sy
            total += 1
        assert setup.head_to_head(x, y) == (Fraction(wins, total), Fraction(ties, total), Fraction(total - wins - ties, total))
    assert setup.head_to_head(a, a) == (0, 1, 0)


def test_head_to_head_with_own_decks(setups, deck):
    """Fivefold: each player's cards come from a deck of their own, so points are independent."""
    setup = setups["fivefold"]
    points = {r.id: r.attributes["fivefold_points"] for r in deck.ranks}
    a, b = setup.best(1)[0].ranks, setup.worst(1)[0].ranks
    da = distribution(a, setup.setup.draw_deck, points)
    db = distribution(b, setup.setup.draw_deck, points)
    total = sum(da.values()) ** 2
    wins = sum(na * nb for pa, na in da.items() for pb, nb in db.items() if pa > pb)
    ties = sum(na * db.get(pa, 0) for pa, na in da.items())
    assert setup.head_to_head(a, b) == (Fraction(wins, total), Fraction(ties, total), 1 - Fraction(wins + ties, total))
    win, tie, lose = setup.head_to_head(a, a)
    assert win == lose and tie > 0


@pytest.mark.parametrize("sid", ["twofold", "fivefold"])
def test_against_a_random_row_is_the_average_head_to_head(setups, sid):
    setup = setups[sid]
    for kind in (setup.best(1)[0], setup.worst(1)[0]):
        results = [setup.head_to_head(kind.ranks, [setup.ranks[j] for j in row]) for row in setup.rows]
        assert kind.win == sum(r[0] for r in results) / len(results)
        assert kind.tie == sum(r[1] for r in results) / len(results)


def test_with_replacement_reading(project, deck, setups):
    """The other reading of 'the same card drawn more than once': every card goes back before the next."""
    arrangement = replace(load_games(project)[GAME].arrangement, replacement=True)
    setup = arrangement.setups["twofold"]
    odds = SetupOdds(arrangement, setup, deck)
    points = {r.id: r.attributes["twofold_points"] for r in deck.ranks}
    ranks = list(setup.draw_deck)
    row = odds.best(1)[0].ranks
    counts: dict[int, int] = {}
    for seq in itertools.product(ranks, repeat=5):  # rank sequences, each as many ways as its cards
        ways = 1
        for r in seq:
            ways *= setup.draw_deck[r]
        p = best_run(row, set(seq), points)
        counts[p] = counts.get(p, 0) + ways
    kind = odds.best(1)[0]
    assert kind.total == 20**5
    assert {p: n for p, n in enumerate(kind.counts) if n} == counts
    assert odds.best(1)[0].expected != setups["twofold"].best(1)[0].expected


def test_traditional_suits_leave_the_draw_deck(setups, deck):
    t = setups["twofold"].setup.traditional
    kept = [c for c in deck.cards if set(c.suits) & set(t["draw"]) and c.id not in t["remove"]]
    assert len(kept) == 20 and sorted(set(t["players"]) | set(t["draw"])) == sorted(s.id for s in deck.suits)


@pytest.fixture
def rows_project(tmp_path, monkeypatch):
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    shutil.copytree(ROOT / "decks" / "dragons-gambit", tmp_path / "decks" / "dragons-gambit")
    from generator.project import Project

    return Project(tmp_path)


@pytest.mark.parametrize(
    "old,new,message",
    [
        ('"dragon-fire", ', "", "the traditional suits leave 2 censor, 2 dragon"),
        ('points = "fivefold_points"', 'points = "fivefold_pts"', "has no whole-number attribute 'fivefold_pts'"),
        (
            "draw_deck = { dragon = 1, immaculate = 2, censor = 2, five = 3, four = 3, three = 4",
            "draw_deck = { dragn = 1, immaculate = 2, censor = 2, five = 3, four = 3, three = 4",
            "unknown rank 'dragn' in deck 'dragons-gambit' (did you mean 'dragon'?)",
        ),
    ],
)
def test_bad_setups_are_reported(rows_project, capsys, old, new, message):
    path = rows_project.decks_dir / "dragons-gambit" / "fivefold-arrangement.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert main(["--project", str(rows_project.root), "validate"]) == 2
    err = capsys.readouterr().err
    assert message in err and "fivefold-arrangement.toml:" in err and "Traceback" not in err


def test_cli_rows(capsys, project, setups):
    root = str(project.root)
    assert main(["--project", root, "odds", GAME, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "exact" and [s["setup"] for s in data["setups"]] == ["twofold", "fivefold"]
    first = data["setups"][0]
    assert first["draws"] == setups["twofold"].total
    assert sum(r["orders"] for r in first["rows"]) == 6720
    assert first["rows"][0]["expected"] == float(setups["twofold"].best(1)[0].expected)
    assert main(["--project", root, "odds", GAME]) == 0
    out = capsys.readouterr().out
    assert "Twofold:" in out and "Fivefold:" in out and "head to head" in out
    assert main(["--project", root, "odds", GAME, "--modifier", "x"]) == 2
    assert "is a game of rows: --modifier does not apply" in capsys.readouterr().err
