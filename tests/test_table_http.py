"""The playtest table's and the deck statistics' API over HTTP: deals, what hands are worth, counts, text room.

Every figure the server gives is checked against the counting engine asked directly (``Hands``), and every
request the API does not take is answered in one line, with the server serving on.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from generator.faces.render import FaceRenderer
from generator.pipeline.context import ProjectContext
from generator.project import Project

from .served import Server, edit, new_game

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

FLIP = "founders-flip"
SENTENCE = "Look at the top card of the deck."
LONG = " ".join([SENTENCE] * 23)  # a text that nearly fills the box of the new project's face at its smallest size
TOO_LONG = " ".join([SENTENCE] * 25)  # one that does not fit


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """A new project whose cards have a cost (numbers) and a kind (words), and one card with a long text."""
    root = new_game(tmp_path_factory.mktemp("table"))
    cards = root / "decks" / "game" / "cards.csv"
    lines = cards.read_text(encoding="utf-8").splitlines()
    costs = [1, 2, 2, 3, 0, 1, 4, 6, 2, 3, 3, 5]
    kinds = ["action", "action", "attack", "action", "trick", "action", "trick", "trick", "action", "action", "combo", "score"]
    rows = [lines[0] + ",cost,kind"] + [f"{line},{c},{k}" for line, c, k in zip(lines[1:], costs, kinds)]
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    edit(cards, "Noon,2,suns,Look at the top card of the deck.", f"Noon,2,suns,{LONG}")
    edit(cards, "Blaze,3,suns,Each other player discards a card.", f"Blaze,3,suns,{TOO_LONG}")
    edit(root / "decks" / "game" / "game.toml", 'text = "text"', 'text = "text"\ncost = "int"\nkind = "str"')
    return root


@pytest.fixture(scope="module")
def served_decks() -> tuple[str, ...]:
    return ("game", "imperial:standard", "aetherial", "dragons-gambit")


def get(server: Server, path: str) -> dict:
    return json.loads(server.get(path))


def expected(game_hands, cards: list[str], modifiers: tuple[str, ...] = ()) -> tuple[str, Fraction, Fraction]:
    """(category, chance of it or better, chance of a lower one), from the engine and its odds table."""
    result = game_hands.classify(FLIP, cards, None, "standard", modifiers)
    table = game_hands.odds_table(FLIP, None, "standard", modifiers)
    names = [c.name for c in table.categories]
    place = names.index(result.name)
    at_least = sum((Fraction(c.count, table.total) for c in table.categories[: place + 1]), Fraction(0))
    return result.name, at_least, 1 - at_least


def test_the_table_knows_the_game_its_decks_and_spells(server, game_hands):
    data = get(server, "/api/table/imperial-standard")
    (flip,) = data["games"]
    assert (flip["id"], flip["kind"], [r["id"] for r in flip["rules"]]) == (FLIP, "hands", ["standard"])
    assert flip["rules"][0]["hand_size"] == 4 and flip["spells"]["deck"] == "aetherial"
    spells = {c["id"]: c["modifier"] for c in flip["spells"]["cards"]}
    assert len(spells) == 23 and {c for c, m in spells.items() if m} == set(game_hands.game(FLIP).modifiers)
    assert [c["id"] for c in data["cards"]][:2] == ["1-houses", "2-houses"] and len(data["cards"]) == 36
    assert get(server, "/api/table/aetherial")["games"] == []  # the spells are no game's deck
    rows = get(server, "/api/table/dragons-gambit")["games"]
    assert [(g["id"], g["kind"], [r["id"] for r in g["rules"]]) for g in rows] == [
        ("fivefold-arrangement", "rows", ["twofold", "fivefold"])
    ]


def test_a_seed_deals_the_same_cards_again(server):
    first = get(server, f"/api/deal/imperial-standard?seed=1234&seats=5&game={FLIP}")
    assert first == get(server, f"/api/deal/imperial-standard?seed=1234&seats=5&game={FLIP}")
    other = get(server, f"/api/deal/imperial-standard?seed=1235&seats=5&game={FLIP}")
    assert other["hands"] != first["hands"]
    assert [len(h) for h in first["hands"]] == [4] * 5 and len(first["pile"]) == 36 - 20
    deck = [c["id"] for c in get(server, "/api/table/imperial-standard")["cards"]]
    assert sorted([*itertools.chain(*first["hands"]), *first["pile"]]) == sorted(deck)  # every card once
    assert sorted(first["spells"]) == sorted(c["id"] for c in get(server, "/api/table/aetherial")["cards"])
    wide = get(server, "/api/deal/game?seed=9&seats=3&cards=4")  # a deck no game is played with deals what is asked
    assert [len(h) for h in wide["hands"]] == [4, 4, 4] and "spells" not in wide


def test_each_hand_is_valued_by_the_counting_engine(server, game_hands):
    deal = get(server, f"/api/deal/imperial-standard?seed=77&seats=6&game={FLIP}")
    seats = deal["hands"]
    for modifiers in ((), ("the-naturalist-s-tumult",), ("the-first-great-convocation",), ("in-legacy-life",)):
        query = "&".join(f"seat={','.join(s)}" for s in seats) + (f"&spell={modifiers[0]}" if modifiers else "")
        data = get(server, f"/api/hands/imperial-standard?game={FLIP}&{query}")
        table = game_hands.odds_table(FLIP, None, "standard", modifiers)
        assert [c["name"] for c in data["rules"]["categories"]] == [c.name for c in table.categories]
        for cards, seat in zip(seats, data["seats"]):
            category, at_least, beats = expected(game_hands, cards, modifiers)
            assert seat["category"] == category and seat["exact"]
            assert Fraction(*seat["at_least"]) == at_least and Fraction(*seat["beats"]) == beats
            assert seat["line"].startswith(category + " · 1\u00a0in\u00a0")  # the figures bound, as the book binds them


def test_a_spell_changes_the_figures(server, game_hands):
    cards = ["1-houses", "1-armies", "2-houses", "2-armies"]  # a Convocation
    plain = get(server, f"/api/hands/imperial-standard?game={FLIP}&seat={','.join(cards)}")["seats"][0]
    tumult = get(server, f"/api/hands/imperial-standard?game={FLIP}&spell=tumult&seat={','.join(cards)}")["seats"][0]
    assert plain["category"] == tumult["category"] == "Convocation"
    assert Fraction(*plain["at_least"]) < Fraction(1, 100) < Fraction(99, 100) < Fraction(*tumult["at_least"])
    _, at_least, beats = expected(game_hands, cards)
    said = f"Convocation · 1 in {round(1 / at_least)} · beats {float(beats) * 100:.1f} % of hands"
    assert plain["line"].replace("\u00a0", " ") == said


def test_hands_made_with_shared_cards(server, game_hands):
    own, edicts = ["1-houses", "4-armies", "6-glyphs", "7-sails"], ["1-armies", "4-sails"]
    data = get(server, f"/api/hands/imperial-standard?game={FLIP}&spell=edicts&seat={','.join(own)}&shared={','.join(edicts)}")
    seat = data["seats"][0]
    assert data["rules"]["own"] == 4 and data["rules"]["shared"] == 2
    best = max(
        (game_hands.classify(FLIP, list(h), None, "standard", ("the-edicts-of-wani",)).key, h)
        for h in itertools.combinations(own + edicts, 4)
        if set(h) & set(edicts)
    )
    assert seat["category"] == "Two Pair" and set(seat["cards"]) == set(best[1])
    short = get(server, f"/api/hands/imperial-standard?game={FLIP}&spell=edicts&seat={','.join(own)}&shared=1-armies")
    assert short["seats"][0] == {"needs": "the shared row holds 2 cards: 1 more"}
    gage = get(server, f"/api/hands/imperial-standard?game={FLIP}&spell=gage&seat={','.join(own)}")
    assert gage["seats"][0] == {"needs": "a hand is 6 cards: 2 more"}


def test_a_row_is_valued_in_its_setup(server, game_hands):
    row = ["one-wood", "two-wood", "three-wood", "dragon-wood", "censor-wood"]
    data = get(server, f"/api/hands/dragons-gambit?game=fivefold-arrangement&seat={','.join(row)}&shared=dragon-fire,three-earth")
    setup = game_hands.row_table("fivefold-arrangement")["twofold"]
    kind = setup.row_kind(["one", "two", "three", "dragon", "censor"])
    seat = data["seats"][0]
    assert seat["category"] == setup.row_label(kind) and Fraction(*seat["expected"]) == kind.expected
    assert Fraction(*seat["beats"]) == kind.win and seat["points"] == 1 + 3  # the Three and the Dragon, side by side
    fivefold = get(server, f"/api/hands/dragons-gambit?game=fivefold-arrangement&rules=fivefold&seat={','.join(row)}")
    assert fivefold["seats"][0]["points"] == 0 and fivefold["seats"][0]["expected"] != seat["expected"]
    deal = get(server, "/api/deal/dragons-gambit?seed=3&seats=2&game=fivefold-arrangement")
    suits = [{c.split("-")[1] for c in hand} for hand in deal["hands"]]
    assert suits == [{"wood"}, {"water"}] and len(deal["pile"]) == 20  # the usual suits; the Twofold draw deck
    assert Counter(c.split("-")[0] for c in deal["pile"]) == {
        "dragon": 1,
        "immaculate": 2,
        "censor": 2,
        "five": 3,
        "four": 3,
        "three": 3,
        "two": 3,
        "one": 3,
    }


BAD = [
    ("/api/hands/imperial-standard?game=founders-flip&seat=nope", 400, "no card 'nope' in deck 'imperial:standard'"),
    ("/api/hands/imperial-standard?game=founders-flip&seat=1-sails&seat=1-sails,2-sails", 400, "is on the table 2 times"),
    ("/api/hands/imperial-standard?game=poker&seat=1-sails", 400, "is not played in a game 'poker'"),
    ("/api/hands/imperial-standard?seat=1-sails", 400, "'game' is missing"),
    ("/api/hands/imperial-standard?game=founders-flip&spell=zzz", 400, "has no spell or rule 'zzz'"),
    ("/api/hands/imperial-standard?game=founders-flip&spell=tumult&spell=gage", 400, "'spell' is given 2 times"),
    ("/api/hands/imperial-standard?game=founders-flip&rules=nope", 400, "no deck of the game 'nope'"),
    ("/api/hands/imperial-standard?game=founders-flip&path=/etc/passwd", 400, "unknown parameter 'path'"),
    ("/api/hands/imperial-standard?game=founders-flip" + "&seat=" * 7, 400, "7 seats; at most 6"),
    ("/api/hands/imperial-standard?game=founders-flip&seat=" + ",".join(["1-sails"] * 65), 400, "at most 64"),
    ("/api/hands/imperial-standard?" + "a=1&" * 30, 400, "not name=value pairs"),
    ("/api/hands/imperial-standard?game=" + "x" * 5000, 400, "at most 4,096"),
    ("/api/hands/imperial-standard?game=%ff%fe", 400, "in UTF-8"),
    ("/api/hands/dragons-gambit?game=fivefold-arrangement&spell=tumult", 400, "a game of rows: it has no spells"),
    ("/api/deal/imperial-standard?seed=-1", 400, "'seed' must be a whole number from 0 to 9,007,199,254,740,991"),
    ("/api/deal/imperial-standard?seed=1e9", 400, "'seed' must be a whole number"),
    ("/api/deal/imperial-standard?seed=99999999999999999999999", 400, "'seed' must be a whole number"),
    ("/api/deal/imperial-standard", 400, "'seed' is missing"),
    ("/api/deal/imperial-standard?seed=%D9%A3", 400, "'seed' must be a whole number"),  # an Arabic-Indic 3: a digit to isdigit()
    ("/api/deal/imperial-standard?seed=1&cards=%EF%BC%95", 400, "'cards' must be a whole number from 1 to 20"),  # a full-width 5
    ("/api/deal/imperial-standard?seed=1&seats=7", 400, "'seats' must be a whole number from 2 to 6"),
    ("/api/deal/imperial-standard?seed=1&seats=6&cards=20", 400, "6 hands of 20 cards need 120 cards"),
    ("/api/deal/dragons-gambit?seed=1&seats=6&game=fivefold-arrangement", 400, "at most 4 seats"),
    ("/api/deal/nodeck?seed=1", 404, "not found"),
    ("/api/stats/imperial-standard?x=1", 400, "unknown parameter 'x'; this address takes: none"),
    ("/api/textroom/..%2f..%2fetc", 404, "not found"),
    ("/api/hands/../../etc/passwd", 404, "not found"),
    ("/table/nodeck", 404, "not found"),
    ("/deck/nodeck", 404, "not found"),
]


@pytest.mark.parametrize(("path", "status", "says"), BAD, ids=[b[2][:40] for b in BAD])
def test_a_request_the_table_does_not_take_is_answered_in_one_line(server, path, status, says):
    response = server.request(path)
    body = response.body.decode("utf-8")
    assert response.status == status and says in body, (path, body)
    assert body.count("\n") == 1 and "Traceback" not in body and "root:" not in body
    assert response.getheader("Content-Type").startswith("text/plain")
    assert server.request("/api/state").status == 200  # still serving


def test_the_deck_statistics_count_every_field(server, game_hands):
    stats = get(server, "/api/stats/game")
    assert stats["printed"] == 12 and [(s["name"], s["count"]) for s in stats["suits"]] == [
        ("Suns", 4),
        ("Moons", 4),
        ("Leaves", 4),
    ]
    assert [r["count"] for r in stats["ranks"]] == [3, 3, 3, 3]
    fields = {f["name"]: f for f in stats["fields"]}
    cost = fields["cost"]
    assert cost["bars"] == [[0, 0, 1], [1, 1, 2], [2, 2, 3], [3, 3, 3], [4, 4, 1], [5, 5, 1], [6, 6, 1]]
    assert cost["mean"] == pytest.approx(32 / 12)
    assert fields["kind"]["values"][0] == ["action", 6] and sum(n for _, n in fields["kind"]["values"]) == 12
    assert fields["text"]["length"]["longest"] == len(TOO_LONG)
    (odds,) = stats["games"]
    table = game_hands.odds_table("game")
    assert [(c["name"], c["probability"]) for c in odds["categories"]] == [(c.name, c.probability) for c in table.categories]
    imperial = get(server, "/api/stats/imperial-standard")
    assert [(s["name"], s["count"]) for s in imperial["suits"]][:4] == [(n, 12) for n in ("Houses", "Armies", "Glyphs", "Sails")]
    assert imperial["suits"][-1] == {"id": "", "name": "every suit", "colour": "", "count": 4}
    rows = get(server, "/api/stats/dragons-gambit")["games"][0]
    assert [s["title"] for s in rows["setups"]] == ["Twofold", "Fivefold"]
    assert all(sum(p for _, p in s["points"]) == pytest.approx(1) for s in rows["setups"])


def test_the_fullest_text_comes_first_measured_as_the_text_fitting_measures(server, game):
    texts = get(server, "/api/textroom/game")["texts"]
    assert texts == sorted(texts, key=lambda t: -t["full"])
    over, near = texts[0], texts[1]
    project = Project(game)
    deck = ProjectContext(project).deck("game")
    # a text that does not fit: as many characters to cut as the draft says
    draft = FaceRenderer(project, deck, draft=True)
    draft.face(deck.card("blaze"))
    assert (over["card"], over["field"]) == ("blaze", "text") and over["room"] == -draft.overflows[0].characters < 0
    # one that fits: that many more of its own letters still draw, a few more do not
    assert (near["card"], near["field"]) == ("noon", "text") and 0 < near["room"] < 60
    noon = deck.card("noon")
    more = (" " + LONG) * 2

    def with_text(text: str):
        return dataclasses.replace(noon, attributes={**noon.attributes, "text": text})

    FaceRenderer(project, deck).face(with_text(LONG + more[: near["room"]]))
    with pytest.raises(Exception, match="does not fit"):
        FaceRenderer(project, deck).face(with_text(LONG + more[: near["room"] + 3]))
