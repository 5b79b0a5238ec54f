"""The playtest table and a deck's statistics in a real browser (Debian's chromium through Selenium).

A seeded Founder's Flip table is dealt; each hand's category and odds are checked against the counting
engine asked directly; a spell is turned and the figures change; cards are dragged and the categories
follow; a hand is hidden; the log is downloaded.  Skipped without chromium and chromium-driver, except
where ``AETHERPRESS_BROWSER_TESTS=required`` (CI).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from fractions import Fraction
from pathlib import Path

import pytest

from .fidelity import CHROMIUM, DRIVER, chrome
from .served import new_game, wait_for

REQUIRED = os.environ.get("AETHERPRESS_BROWSER_TESTS") == "required"
if not (CHROMIUM and DRIVER) and not REQUIRED:
    pytest.skip(
        "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)", allow_module_level=True
    )

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

FLIP = "founders-flip"
SEATS = 4
QUICK_SPELLS = {  # spells whose tables are counted in a moment (a fresh cache counts them while the test waits)
    "the-naturalist-s-tumult",
    "a-rainbow-in-light-and-pigment",
    "in-legacy-life",
    "silphion-s-fallow",
    "the-dance-of-the-court",
}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return new_game(tmp_path_factory.mktemp("table-browser"))


@pytest.fixture(scope="module")
def served_decks() -> tuple[str, ...]:
    return ("imperial:standard", "aetherial", "dragons-gambit")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chrome("--window-size=1400,1100", "--force-device-scale-factor=1")
    downloads = tmp_path_factory.mktemp("downloads")
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.downloads = downloads
    yield driver
    driver.quit()


def a_seed_whose_first_spell_is_quick(server) -> tuple[int, str]:
    """A seed whose spell pile turns a quickly counted spell first (found by asking the server to deal)."""
    for seed in range(1000):
        deal = json.loads(server.get(f"/api/deal/imperial-standard?seed={seed}&seats={SEATS}&game={FLIP}"))
        if deal["spells"][0] in QUICK_SPELLS:
            return seed, deal["spells"][0]
    raise AssertionError("no seed below 1000 turns a quick spell first")


def seats(browser) -> list[dict]:
    """Each seat as the page shows it, read at once (the page redraws its seats after every move): its
    cards, the line under them, its category and its exact chance (a/b) of that category or better."""
    return browser.execute_script(
        """return [...document.querySelectorAll('.seat')].map((seat) => {
          const line = seat.querySelector('.value');
          return { cards: [...seat.querySelectorAll('.zone.hand .card')].map((c) => c.dataset.card),
                   line: line.innerText, category: line.dataset.category || null, atLeast: line.dataset.atLeast || null };
        });"""
    )


def text_of(browser, selector: str) -> str:
    """The text of the element ``selector`` finds, read at once (the odds panel is drawn anew with each answer)."""
    return browser.execute_script("const n = document.querySelector(arguments[0]); return n ? n.innerText : ''", selector)


def seat_cards(browser, seat: int) -> list[str]:
    return seats(browser)[seat]["cards"]


def seat_text(browser, seat: int) -> str:
    return seats(browser)[seat]["line"]


def shown(browser) -> list[tuple[list[str], str, str | None]]:
    return [(s["cards"], s["line"], s["atLeast"]) for s in seats(browser)]


def check_against_the_engine(game_hands, seats, modifiers: tuple[str, ...] = ()) -> None:
    """Each line names the engine's category, with its chance of that category or better ("1 in N") and of a
    lower one ("beats P %") as the engine's odds table gives them, to the figures printed."""
    table = game_hands.odds_table(FLIP, None, "standard", modifiers)
    names = [c.name for c in table.categories]
    for cards, bound, at_least_text in seats:
        line = bound.replace("\u00a0", " ")  # a figure and its sign or words are bound by no-break spaces
        category = game_hands.classify(FLIP, cards, None, "standard", modifiers).name
        place = names.index(category)
        at_least = sum((Fraction(c.count, table.total) for c in table.categories[: place + 1]), Fraction(0))
        assert line.startswith(category + " · "), (cards, line)
        assert Fraction(at_least_text) == at_least, (cards, line)
        found = re.search(r"1 in ([\d,.]+) · beats ([\d.]+) % of hands", line)
        assert found, line
        one_in, beats = float(found.group(1).replace(",", "")), float(found.group(2))
        assert one_in == pytest.approx(float(1 / at_least), rel=0.01, abs=0.051)
        assert beats == pytest.approx(float(1 - at_least) * 100, rel=0.005, abs=0.0051)


def drag(browser, card, target) -> None:
    """Drag ``card`` with the mouse and drop it at the right end of ``target`` (after its last card)."""
    right = target.size["width"] // 2 - 8
    ActionChains(browser).click_and_hold(card).move_by_offset(12, 12).move_to_element_with_offset(
        target, right, 0
    ).release().perform()


def valued(browser) -> bool:
    shown_now = seats(browser)
    return len(shown_now) == SEATS and all(s["category"] for s in shown_now)


def test_a_seeded_founders_flip_table(browser, server, game_hands):
    seed, spell = a_seed_whose_first_spell_is_quick(server)
    browser.get(server.url + f"table/imperial-standard?seed={seed}&seats={SEATS}")
    wait_for(lambda: valued(browser), 30)
    assert browser.find_element(By.ID, "seed").get_attribute("value") == str(seed)
    deal = json.loads(server.get(f"/api/deal/imperial-standard?seed={seed}&seats={SEATS}&game={FLIP}"))
    before = shown(browser)
    assert [cards for cards, _, _ in before] == deal["hands"]  # the seed's deal, as the server deals it
    check_against_the_engine(game_hands, before)
    table = text_of(browser, "#odds-table")
    assert all(c.name in table for c in game_hands.odds_table(FLIP).categories)

    # the same seed typed again deals the same cards
    browser.find_element(By.ID, "reshuffle").click()
    wait_for(lambda: browser.find_element(By.ID, "seed").get_attribute("value") != str(seed), 10)
    box = browser.find_element(By.ID, "seed")
    box.clear()
    box.send_keys(str(seed))
    browser.find_element(By.ID, "deal").click()
    wait_for(lambda: [seat_cards(browser, i) for i in range(SEATS)] == deal["hands"] and valued(browser), 20)

    # a spell turned: its figures, from the engine under it
    browser.find_element(By.ID, "turn-spell").click()
    wait_for(
        lambda: browser.execute_script("const s = document.getElementById('spell-now'); return s && s.dataset.card") == spell, 10
    )
    wait_for(lambda: valued(browser) and [line for _, line, _ in shown(browser)] != [line for _, line, _ in before], 60)
    under = shown(browser)
    check_against_the_engine(game_hands, under, (spell,))
    title = game_hands.game(FLIP).modifiers[spell].title
    assert "Under " + title in text_of(browser, "#odds")

    # a card dragged from the first seat to the second: both wait for a hand of four, then a card goes back
    moved = browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='0'] .zone.hand .card")
    moved_id = moved.get_attribute("data-card")
    drag(browser, moved, browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='1'] .zone.hand"))
    wait_for(lambda: moved_id in seat_cards(browser, 1) and "1 more" in seat_text(browser, 0), 10)
    assert "1 too many" in seat_text(browser, 1)
    back = browser.find_elements(By.CSS_SELECTOR, ".seat[data-seat='1'] .zone.hand .card")[0]
    back_id = back.get_attribute("data-card")
    drag(browser, back, browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='0'] .zone.hand"))
    wait_for(lambda: back_id in seat_cards(browser, 0) and valued(browser), 10)
    after = shown(browser)
    assert after[0][0] == [*under[0][0][1:], back_id] and moved_id in after[1][0]
    check_against_the_engine(game_hands, after, (spell,))

    # undo puts the card back where it was
    browser.find_element(By.ID, "undo").click()
    wait_for(lambda: seat_cards(browser, 1)[-1] == moved_id and "1 more" in seat_text(browser, 0), 10)

    # hidden while another player looks: backs, no category, and the log names none of its cards
    browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='2'] button.hide").click()
    wait_for(lambda: seat_text(browser, 2) == "hand hidden", 5)
    hidden = browser.find_elements(By.CSS_SELECTOR, ".seat[data-seat='2'] .zone.hand .card")
    assert hidden and all("down" in c.get_attribute("class") for c in hidden)
    browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='2'] button.hide").click()

    # the log, as CSV: the deal, each hand dealt with the engine's category, the spell, the moves
    browser.find_element(By.ID, "download").click()
    path = wait_for(lambda: next(iter(browser.downloads.glob("*.csv")), None), 10)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert path.name == f"table-imperial-standard-seed-{seed}.csv"
    assert [r["seed"] for r in rows if r["action"] == "deal"][-1] == str(seed)
    dealt = [r for r in rows if r["action"] == "dealt hand"][-SEATS:]
    for row, cards in zip(dealt, deal["hands"]):
        assert row["cards"].split() == cards and row["category"] == game_hands.classify(FLIP, cards).name
        table = game_hands.odds_table(FLIP)
        assert float(row["chance of the category"]) == pytest.approx(table.category(row["category"]).probability)
    assert any(r["action"] == "spell" and r["card"] == spell for r in rows)
    assert any(r["action"] == "move" and r["card"] == moved_id and r["to"] == "Seat 2" for r in rows)
    summary = [r for r in rows if r["action"] == "summary"]  # hands dealt by category, against the exact odds
    deals = sum(1 for r in rows if r["action"] == "dealt hand")
    assert sum(int(r["dealt"]) for r in summary) == deals
    assert sum(float(r["expected"]) for r in summary) == pytest.approx(deals, abs=0.01)
    assert browser.get_log("browser") == []


def test_the_deck_statistics_page(browser, server, game_hands):
    browser.get(server.url + "deck/imperial-standard")
    # read at once: the page draws itself again when the cards' texts are measured
    labels = "return [...document.querySelectorAll('.game-odds .bar-row')].map((row) => row.dataset.label)"
    chart = wait_for(lambda: browser.execute_script(labels), 20)
    assert chart == [c.name for c in game_hands.odds_table(FLIP).categories]
    wait_for(lambda: browser.execute_script("return document.querySelectorAll('#room tbody tr').length"), 30)
    suits = browser.execute_script("return document.querySelector('.stats-grid').innerText")
    assert "Houses" in suits and "12 · 33 %" in suits
    assert browser.find_element(By.ID, "table-link").get_attribute("href").endswith("/table/imperial-standard")
    assert browser.get_log("browser") == []


def test_a_game_can_be_left_out(browser, server):
    browser.get(server.url + "table/aetherial?seed=3&seats=2")
    wait_for(lambda: [len(s["cards"]) for s in seats(browser)] == [5, 5], 20)  # no game is played with the spells: five each
    assert "No game" in text_of(browser, "#odds")
    assert Select(browser.find_element(By.ID, "game")).first_selected_option.text == "no game (cards only)"
    assert browser.get_log("browser") == []


def test_a_row_shows_its_kind_as_it_is_laid(browser, server, game_hands):
    browser.get(server.url + "table/dragons-gambit?seed=3&seats=2")
    wait_for(lambda: len(seats(browser)) == 2 and len(seats(browser)[0]["cards"]) == 8, 20)
    laid = []
    for left in range(5, 0, -1):  # the page draws its seats anew after each move: each element is found again
        card = browser.find_elements(By.CSS_SELECTOR, ".seat[data-seat='0'] .zone.hand .card")[-1]  # the Dragon first
        laid.append(card.get_attribute("data-card"))
        drag(browser, card, browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='0'] .zone.row"))
        if left > 1:
            wait_for(lambda left=left: seat_text(browser, 0) == f"a row is 5 cards: {left - 1} more", 10)
    wait_for(lambda: seats(browser)[0]["category"], 10)
    setup = game_hands.row_table("fivefold-arrangement")["twofold"]
    ranks = [card.split("-")[0] for card in laid]
    kind = setup.row_kind(ranks)
    line = seat_text(browser, 0).replace("\u00a0", " ")
    assert line.startswith(f"{setup.row_label(kind)} · {float(kind.expected):.2f} points expected · beats ")
    for _ in range(3):
        browser.find_element(By.ID, "turn").click()
    turned = wait_for(
        lambda: (
            len(
                found := browser.execute_script(
                    "return [...document.querySelectorAll('.zone.shared .card')].map((c) => c.dataset.card)"
                )
            )
            == 3
            and found
        ),
        10,
    )
    now = setup.points_now(ranks, {card.split("-")[0] for card in turned})
    wait_for(lambda: seat_text(browser, 0).endswith(f"now {now} point{'' if now == 1 else 's'}"), 10)
    assert browser.get_log("browser") == []
