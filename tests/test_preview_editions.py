"""The preview of a deck published in several languages: every edition is served, and the gallery and the card
page switch between them (Debian's chromium through Selenium, skipped without it as in test_preview_browser)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .fidelity import CHROMIUM, DRIVER, chrome
from .served import edit, new_game, wait_for

pytestmark = pytest.mark.slow  # servers and a browser

NAME = "game"


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """A new project with a German edition whose first card has its name translated in the card list."""
    root = new_game(tmp_path_factory.mktemp("editions"), NAME)
    edit(root / "decks" / NAME / f"{NAME}.toml", '# editions = ["de"]', 'editions = ["de"]')
    cards = root / "decks" / NAME / "cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    rows = [rows[0] + ",name@de", rows[1] + ",Morgengrauen", *(row + "," for row in rows[2:])]
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def test_every_edition_is_served_with_the_slugs_of_the_others(server):
    decks = {d["slug"]: d for d in server.settled()["decks"]}
    assert list(decks) == [NAME, f"{NAME}-de"]
    assert decks[NAME]["language"] == "en" and decks[f"{NAME}-de"]["language"] == "de"
    for deck in decks.values():
        assert deck["editions"] == {"en": NAME, "de": f"{NAME}-de"}
    names = {s["name"]: s["label"] for s in decks[f"{NAME}-de"]["sides"]}
    assert names["dawn"] == "Morgengrauen"
    side = json.loads(server.get(f"/api/side/{NAME}-de/face/dawn"))  # the card's page hears of the other editions too
    assert side["deck"]["editions"] == {"en": NAME, "de": f"{NAME}-de"}
    svg = server.get(f"/cards/{NAME}-de/dawn.svg?v={side['side']['v']}").decode()
    assert "Morgengrauen" in svg


REQUIRED = os.environ.get("AETHERPRESS_BROWSER_TESTS") == "required"


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER) and not REQUIRED:
        pytest.skip("chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")
    driver = chrome("--window-size=1400,1000")
    yield driver
    driver.quit()


def visible_names(browser) -> list[str]:
    return browser.execute_script(
        "return [...document.querySelectorAll('.variant:not([hidden]) .tile.face .name')].map(n => n.textContent)"
    )


def test_the_gallery_switches_between_editions(browser, server):
    from selenium.webdriver.common.by import By

    browser.get(server.url)
    browser.execute_script("localStorage.clear()")
    browser.get(server.url)
    wait_for(lambda: visible_names(browser), 10)
    buttons = browser.find_elements(By.CSS_SELECTOR, ".deck .languages button")
    assert [b.text for b in buttons] == ["en", "de"]
    assert [b.get_attribute("aria-pressed") for b in buttons] == ["true", "false"]
    assert visible_names(browser)[0] == "Dawn" and "Morgengrauen" not in visible_names(browser)
    buttons[1].click()
    assert wait_for(lambda: visible_names(browser)[0] == "Morgengrauen", 5)
    assert len(visible_names(browser)) == 12  # one edition at a time
    browser.refresh()  # the choice is kept
    assert wait_for(lambda: visible_names(browser) and visible_names(browser)[0] == "Morgengrauen", 10)
    assert browser.get_log("browser") == []


def test_the_card_page_links_the_same_card_in_each_edition(browser, server):
    from selenium.webdriver.common.by import By

    browser.get(server.url + f"card/{NAME}-de/dawn")
    links = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#panel .languages a"), 10)
    assert [(a.text, a.get_attribute("aria-pressed")) for a in links] == [("en", "false"), ("de", "true")]
    assert browser.find_element(By.CSS_SELECTOR, "#panel h1").text == "Morgengrauen"
    links[0].click()
    assert wait_for(
        lambda: (
            browser.find_elements(By.CSS_SELECTOR, "#panel h1")
            and browser.find_element(By.CSS_SELECTOR, "#panel h1").text == "Dawn"
        ),
        10,
    )
    assert browser.current_url.endswith(f"/card/{NAME}/dawn")
