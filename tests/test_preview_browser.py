"""The preview in a real browser (Debian's chromium through Selenium): gallery, card, guides, hand, live edits.

One browser for the whole session and one server for this module keep it quick.  Without chromium
and chromium-driver these tests are skipped, except where ``AETHERPRESS_BROWSER_TESTS=required``
(as ``.ci/run`` sets it), so CI never passes by skipping them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .fidelity import CHROMIUM, DRIVER, chrome
from .served import edit, new_game, wait_for

REQUIRED = os.environ.get("AETHERPRESS_BROWSER_TESTS") == "required"
if not (CHROMIUM and DRIVER) and not REQUIRED:
    pytest.skip(
        "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)", allow_module_level=True
    )

from selenium.webdriver.common.by import By  # noqa: E402

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

NASTY = "<img src=x onerror=alert(1)>"  # a card name that must stay text
MM = 96 / 25.4  # CSS pixels per millimetre


@pytest.fixture(scope="session")
def browser():
    driver = chrome("--window-size=1400,1000", "--force-device-scale-factor=1")
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    root = new_game(tmp_path_factory.mktemp("browser"))
    edit(root / "styles" / "game.toml", 'text_font = "EB Garamond"', 'text_font = "Source Sans 3"')  # a name CSS wants quoted
    with (root / "decks" / "game" / "cards.csv").open("a", encoding="utf-8") as csv:
        csv.write(f',"{NASTY}",1,moons,"<b id=""bold"">not bold</b>"\n')
    return root


def open_page(browser, server, path: str) -> None:
    browser.get(server.url + path.lstrip("/"))
    browser.execute_script("window.notReloaded = true")


def art_text(browser, side: str) -> str | None:
    """The text of a side's art as the page shows it (inside its shadow root), None before it is drawn."""
    return browser.execute_script(
        "const n = document.querySelector(`[data-side='${arguments[0]}'] .art`);"
        "return n && n.shadowRoot && n.shadowRoot.querySelector('svg') ? n.shadowRoot.textContent : null;",
        side,
    )


def test_the_gallery_shows_every_face_and_back_with_its_id(browser, server):
    open_page(browser, server, "/")
    tiles = wait_for(lambda: len(found := browser.find_elements(By.CSS_SELECTOR, ".tile")) == 14 and found, 10)
    ids = [tile.find_element(By.CSS_SELECTOR, ".id").text for tile in tiles]
    assert ids[:3] == ["dawn", "noon", "blaze"] and ids[-1] == "back" and "img-src-x-onerror-alert-1" in ids
    wait_for(lambda: all(art_text(browser, t.get_attribute("data-side")) is not None for t in tiles), 10)
    assert "Draw a card." in art_text(browser, "game|face|dawn")
    heading = browser.find_element(By.CSS_SELECTOR, ".variant-head").text
    assert "game" in heading and "12 cards" not in heading and "13 cards" in heading
    # hostile text stays text: no element was made from it, no script ran
    assert browser.find_elements(By.CSS_SELECTOR, "main img") == [] and browser.execute_script("return document.title").endswith(
        "Aetherpress preview"
    )
    assert NASTY in browser.find_element(By.CSS_SELECTOR, "[data-side$='img-src-x-onerror-alert-1'] .name").text
    assert browser.get_log("browser") == []


def test_a_card_at_real_size_with_its_guides(browser, server):
    open_page(browser, server, "/card/game/dawn")
    wait_for(lambda: browser.execute_script("const n = document.getElementById('card-art'); return n && n.dataset.shown"), 10)
    real = browser.find_element(By.ID, "real")
    assert real.size["width"] == pytest.approx(69.5 * MM, abs=1) and real.size["height"] == pytest.approx(94.9 * MM, abs=1)
    for guide in ("guide-trim-line", "guide-safe-line", "guide-bleed-area"):
        assert browser.find_elements(By.ID, guide), guide
    trim = browser.find_element(By.ID, "guide-trim-line").rect
    assert trim["width"] == pytest.approx(63.5 * MM, abs=2)
    families = browser.execute_script(
        "return [...document.getElementById('card-art').shadowRoot.querySelectorAll('text')]"
        ".map(t => [t.textContent, getComputedStyle(t).fontFamily, getComputedStyle(t).fontWeight])"
    )
    assert ["Draw a card.", '"Source Sans 3"', "400"] in families and ["Dawn", "Cinzel", "700"] in families
    assert wait_for(
        lambda: browser.execute_script(
            "return document.fonts.check('700 10px \"Cinzel\"') && document.fonts.check('400 10px \"Source Sans 3\"')"
        ),
        5,
    )  # set in the shipped fonts, as in print
    panel = browser.find_element(By.ID, "panel").text
    assert "decks/game/cards.csv:2" in panel and "Draw a card." in panel and "Nothing to report" in panel

    browser.find_element(By.CSS_SELECTOR, "label[title^='the cut']").click()
    assert not browser.find_elements(By.ID, "guide-trim-line")
    browser.find_element(By.CSS_SELECTOR, "label[title^='where text']").click()
    assert not browser.find_elements(By.ID, "guide-safe-line")
    browser.find_element(By.CSS_SELECTOR, "label[title^='art past']").click()
    assert not browser.find_elements(By.ID, "guide-bleed-area")
    assert "inset(" in browser.find_element(By.ID, "card-art").value_of_css_property("clip-path")  # cut at the trim
    for label in ("the cut", "where text", "art past"):  # the guides back on for the next visit
        browser.find_element(By.CSS_SELECTOR, f"label[title^='{label}']").click()

    browser.find_element(By.CSS_SELECTOR, "#view button[data-value=png]").click()
    width = wait_for(
        lambda: browser.execute_script("const i = document.getElementById('card-image'); return i && i.naturalWidth"), 10
    )
    assert width == 821  # 69.5 mm at 300 dpi
    browser.find_element(By.CSS_SELECTOR, "#view button[data-value=svg]").click()
    assert browser.get_log("browser") == []


def test_an_edited_cell_changes_the_face_without_a_reload(browser, server, game):
    open_page(browser, server, "/")
    wait_for(lambda: art_text(browser, "game|face|noon"), 10)
    csv = game / "decks" / "game" / "cards.csv"
    edit(csv, "Look at the top card of the deck.", "Look at the top two cards.")
    try:
        wait_for(lambda: "top two cards" in (art_text(browser, "game|face|noon") or ""), 5)
        assert browser.execute_script("return window.notReloaded") is True
    finally:
        edit(csv, "Look at the top two cards.", "Look at the top card of the deck.")
    wait_for(lambda: "top card of the" in (art_text(browser, "game|face|noon") or ""), 5)


def test_a_broken_deck_file_shows_its_error_until_it_is_fixed(browser, server, game):
    open_page(browser, server, "/")
    banner = browser.find_element(By.ID, "problems")
    wait_for(lambda: art_text(browser, "game|face|dawn"), 10)
    assert not banner.is_displayed()
    toml = game / "decks" / "game" / "game.toml"
    edit(toml, 'title = "Game"', 'title = "Game')
    try:
        wait_for(banner.is_displayed, 5)
        assert "error: decks/game/game.toml:5: TOML syntax error" in banner.text
        assert len(browser.find_elements(By.CSS_SELECTOR, ".tile")) == 14  # the last good cards stay
    finally:
        edit(toml, 'title = "Game', 'title = "Game"')
    wait_for(lambda: not banner.is_displayed(), 5)
    assert browser.execute_script("return window.notReloaded") is True


def test_a_hand_keeps_every_corner_index_readable(browser, server):
    cards = ["dawn", "noon", "blaze", "zenith", "new-moon"]
    open_page(browser, server, "/hand/game?cards=" + ",".join(cards))
    held = wait_for(lambda: len(found := browser.find_elements(By.CSS_SELECTOR, ".held")) == 5 and found, 10)
    assert [h.get_attribute("data-card") for h in held] == cards
    wait_for(
        lambda: browser.execute_script("return [...document.querySelectorAll('.held .art')].every(n => n.dataset.shown)"), 10
    )
    # the top-left index (the first text of each face) is the topmost thing where it is drawn
    covered = browser.execute_script(
        """
        return [...document.querySelectorAll('.held')].map((held) => {
          const index = held.querySelector('.art').shadowRoot.querySelector('text');
          const box = index.getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return [index.textContent, held.contains(top)];
        });
        """
    )
    assert covered == [["1", True], ["2", True], ["3", True], ["4", True], ["1", True]]
    angles = {h.value_of_css_property("transform") for h in held}
    assert len(angles) == 5  # each card turned its own way
    picker = browser.find_elements(By.CSS_SELECTOR, ".picker .tile")
    assert len(picker) == 13 and len(browser.find_elements(By.CSS_SELECTOR, ".picker .tile.chosen")) == 5
    picker[5].click()  # crescent joins the hand
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, ".held")) == 6, 5)
    assert browser.current_url.endswith("?cards=" + ",".join([*cards, "crescent"]))


def test_a_hand_starts_empty_and_holds_what_is_picked(browser, server):
    """Without ?cards= nothing is held, so picking five cards makes a hand of five."""
    open_page(browser, server, "/hand/game")
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, ".picker .tile")) == 13, 10)
    assert browser.find_elements(By.CSS_SELECTOR, ".held") == []
    assert browser.find_elements(By.CSS_SELECTOR, ".picker .tile.chosen") == []
    for i in range(5):  # the picker is drawn anew after each pick
        browser.find_elements(By.CSS_SELECTOR, ".picker .tile")[i].click()
        wait_for(lambda i=i: len(browser.find_elements(By.CSS_SELECTOR, ".held")) == i + 1, 5)
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, ".held")) == 5, 5)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".picker .tile.chosen")) == 5


def test_unknown_pages_are_not_found_in_the_browser(browser, server):
    for path in ("/card/game/nosuch", "/hand/nodeck", "/static/../server.py"):
        browser.get(server.url + path.lstrip("/"))
        assert browser.find_element(By.TAG_NAME, "body").text == "not found", path
