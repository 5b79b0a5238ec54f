"""A whole edition, as a publisher makes one: a new project declares German, translates its cards, back, box and book,
builds every output in German and reads every word back; a changed English section is stale; a broken catalogue
is refused in one line and left as it was; a renamed card keeps its translation, marked stale."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .served import edit, new_game, run

# whole builds and books: left out of the quick run (pytest -m 'not slow')
pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")]

NAME = "game"
GERMAN = {
    "Game": "Spiel",
    "Night Market": "Nachtmarkt",
    "Suns": "Sonnen",
    "Moons": "Monde",
    "Leaves": "Blätter",
    "One": "Eins",
    "Two": "Zwei",
    "Three": "Drei",
    "Four": "Vier",
    "Dawn": "Morgengrauen",
    "Noon": "Mittag",
    "Blaze": "Glut",
    "Zenith": "Zenit",
    "New Moon": "Neumond",
    "Crescent": "Sichel",
    "Half Moon": "Halbmond",
    "Full Moon": "Vollmond",
    "Seed": "Samen",
    "Sprout": "Spross",
    "Bloom": "Blüte",
    "Harvest": "Ernte",
    "Draw a card.": "Ziehe eine Karte.",
    "Look at the top card of the deck.": "Sieh dir die oberste Karte des Stapels an.",
    "Each other player discards a card.": "Alle anderen werfen eine Karte ab.",
    "Take another turn after this one.": "Mache danach noch einen Zug.",
    "Swap a card with the player on your left.": "Tausche eine Karte mit deiner linken Nachbarin.",
    "Draw two cards and discard one.": "Ziehe zwei Karten und wirf eine ab.",
    "Return a card from the discard pile to your hand.": "Nimm eine Karte vom Ablagestapel auf die Hand.",
    "All players pass their hands to the left.": "Alle geben ihre Handkarten nach links weiter.",
    "Put a card from your hand under the deck.": "Lege eine Handkarte unter den Stapel.",
    "Draw a card for each Leaf you hold.": "Ziehe eine Karte für jedes Blatt auf deiner Hand.",
    "Play this with any other card as a pair.": "Spiele sie mit einer beliebigen Karte als Paar.",
    "Score one point for each card in your hand.": "Werte einen Punkt für jede Karte auf deiner Hand.",
    "Three of a Kind": "Drilling",
    "three cards of the same rank": "drei Karten gleichen Rangs",
    "Run of a Suit": "Farbfolge",
    "three ranks in a row, all of one suit": "drei Ränge in Folge, alle einer Farbe",
    "Suit": "Farbe",
    "three cards of one suit": "drei Karten einer Farbe",
    "Run": "Folge",
    "three ranks in a row": "drei Ränge in Folge",
    "High Card": "Höchste Karte",
    "anything else (a pair is not rarer than three cards that make nothing, so it is no hand of its own)": "alles "
    "andere (ein Paar ist nicht seltener als drei Karten, die nichts ergeben, und darum keine eigene Hand)",
    "{count} cards · {width} × {height} mm": "{count} Karten · {width} × {height} mm",
    "{count} cards": "{count} Karten",
    "Tuck box for {name}: {count} cards {thickness} mm thick; inside {width} x {height} x {depth} mm. Cut on the solid "
    "line, fold between the corners the cut makes, glue the narrow flap inside the front.": "Faltschachtel für {name}: "
    "{count} Karten, {thickness} mm dick; innen {width} × {height} × {depth} mm. Auf der Linie schneiden, an den Ecken "
    "falten, die schmale Lasche innen an die Vorderseite kleben.",
}
GERMAN_BOOK = """# Spielregeln

Jede Person hält drei Karten; die beste Hand gewinnt.

## Die Karten

{% set d = deck('game') %}
Das Deck hat {{ d.card_count }} Karten in {{ d.suits|length }} Farben.

| Karte | Rang | Farbe | Text |
| --- | ---: | --- | --- |
{% for card in d.cards %}| {{ card.name|cell }} | {{ d.rank(card.rank).label if card.rank else "" }} | {% for s in card.suits %}{{ d.suit(s).name }}{{ ", " if not loop.last }}{% endfor %} | {{ card.attributes.get("text", "")|cell }} |
{% endfor %}

## Die Hände

Jede Person hält drei Karten; die beste Hand gewinnt.

![Tabelle](chart:game)
"""
# the words a German edition may print that English prints too: names the publisher keeps, and words both languages
# write alike
KEPT = {"aetherpress", "garamond", "cinzel", "source", "sans", "mm"} | {"hand", "chance", "deck", "in", "text"}


def words_of(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]{2,}", text)}


def pdf_words(path: Path) -> set[str]:
    # in the order the text is drawn: a word of a card fanned at an angle (a cover) stays whole
    return words_of(subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout)


def svg_words(folder: Path) -> set[str]:
    found: set[str] = set()
    for path in folder.rglob("*.svg"):
        text = path.read_text(encoding="utf-8")
        found |= words_of(" ".join(re.findall(r">([^<>]+)</(?:text|tspan)>", text)))
    return found


def translate(po: Path, table: dict[str, str]) -> None:
    from babel.messages.pofile import read_po, write_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if isinstance(message.id, str) and message.id in table:
            message.string = table[message.id]
    with po.open("wb") as handle:
        write_po(handle, catalog)


def outputs(capsys, root: Path, out: Path, *lang: str) -> set[str]:
    """Every word of the deck's faces and backs, its sheets, its tuck box and its book in the language asked."""
    for command in (("build", NAME), ("box", NAME), ("rulebook", NAME)):
        code, _, err = run(capsys, root, *command, *lang, "--paper", "a4", "--out", str(out))
        assert code == 0, err
    suffix = f"-{lang[1]}" if lang else ""
    folder = out / f"{NAME}{suffix}"
    found = svg_words(folder) | pdf_words(folder / f"{NAME}{suffix}-sheets.pdf") | pdf_words(folder / f"{NAME}{suffix}-box.pdf")
    books = [p for p in out.rglob(f"{NAME}{suffix}*.pdf") if "sheets" not in p.name and "box" not in p.name]
    assert books, sorted(out.rglob("*.pdf"))
    return found | pdf_words(books[0])


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    """A new project with a German edition of its deck and book, every text translated."""
    tmp = tmp_path_factory.mktemp("edition")
    root = new_game(tmp, NAME)
    deck = root / "decks" / NAME
    edit(deck / f"{NAME}.toml", '# editions = ["de"]', 'editions = ["de"]')
    edit(deck / f"{NAME}.rulebook.toml", '# editions = ["de"]', 'editions = ["de"]')
    edit(root / "styles" / f"{NAME}.toml", 'back_title = ""', 'back_title = "Night Market"')
    (deck / f"{NAME}.de.md").write_text(GERMAN_BOOK, encoding="utf-8")
    return root


def test_a_whole_german_edition_prints_no_english_word(edition, tmp_path, capsys):
    root, po = edition, edition / "decks" / NAME / "translations" / "de.po"
    assert run(capsys, root, "translations", "extract")[0] == 0
    assert run(capsys, root, "translations", "update")[0] == 0
    translate(po, GERMAN)
    code, out, _ = run(capsys, root, "translations", "status")
    assert code == 0 and re.search(r"de \(German\): (\d+) texts, \1 translated, 0 missing, 0 stale", out), out
    assert "rulebook 'game': 3 sections, 3 current, 0 stale, 0 missing" in out, out
    english = outputs(capsys, root, tmp_path / "en")
    german = outputs(capsys, root, tmp_path / "de", "--lang", "de")
    assert {"morgengrauen", "karten", "faltschachtel", "inhalt", "drilling"} <= german
    assert "nachtmarkt" in german  # the back's title, through _() and the catalogue
    left = sorted((german & english) - KEPT)
    assert left == [], left


def test_a_changed_section_is_stale_exactly_there(edition, capsys):
    root = edition
    assert run(capsys, root, "translations", "update")[0] == 0
    source = root / "decks" / NAME / f"{NAME}.md"
    edit(source, "the best hand wins.", "the best hand wins the pot.")
    code, out, _ = run(capsys, root, "translations", "status")
    assert code == 0
    assert "rulebook 'game': 3 sections, 2 current, 1 stale, 0 missing" in out, out
    stale = [line for line in out.splitlines() if line.strip().startswith("stale: section")]
    assert len(stale) == 1 and "section 'how-to-play/hands' (translated as 'Die Hände')" in stale[0], out
    assert "      -Each player holds three cards; the best hand wins.\n" in out
    assert "      +Each player holds three cards; the best hand wins the pot.\n" in out
    # a draft tags it, --strict-lang refuses it, review clears it
    code, _, err = run(capsys, root, "rulebook", NAME, "--lang", "de", "--out", str(root / "output"))
    assert code == 0
    code, _, err = run(capsys, root, "validate", "--strict-lang")
    assert code == 2 and "section 'how-to-play/hands' is stale" in err and f"{NAME}.de.md:15:" in err, err
    code, out, _ = run(capsys, root, "translations", "review", "--lang", "de", "--section", "how-to-play/hands")
    assert code == 0 and "reviewed:" in out
    assert "3 sections, 3 current, 0 stale" in run(capsys, root, "translations", "status")[1]
    edit(source, "the best hand wins the pot.", "the best hand wins.")
    assert run(capsys, root, "translations", "review", "--section", "all")[0] == 0


@pytest.mark.parametrize(
    "broken, message",
    [
        ('msgstr "Morgengrauen', 'unterminated string (every "..." needs its closing quote on its line)'),
        ("msgstr Morgengrauen", 'msgstr needs its text in quotes: msgstr "..."'),
        ('msgstr "Morgen"grauen"', 'text after the closing quote (a quote inside a text is written \\")'),
    ],
)
def test_a_broken_catalogue_is_one_line_and_left_as_it_was(edition, capsys, broken, message):
    root, po = edition, edition / "decks" / NAME / "translations" / "de.po"
    kept = po.read_bytes()
    try:
        text = kept.decode("utf-8")
        assert 'msgstr "Morgengrauen"' in text
        po.write_text(text.replace('msgstr "Morgengrauen"', broken, 1), encoding="utf-8")
        before = po.read_bytes()
        line = po.read_text(encoding="utf-8").splitlines().index(broken) + 1
        for command in (("translations", "update"), ("translations", "status"), ("validate",)):
            code, _, err = run(capsys, root, *command)
            assert code == 2 and "Traceback" not in err
            assert err == f"error: {po}:{line}: {message}\n", err
            assert po.read_bytes() == before  # update wrote nothing over a catalogue it could not read
    finally:
        po.write_bytes(kept)


def test_a_renamed_card_keeps_its_translation_stale(edition, capsys):
    root = edition
    cards = root / "decks" / NAME / "cards.csv"
    kept = cards.read_bytes()
    try:
        edit(cards, "dawn,Dawn,", "dawn,Daybreak,")
        code, out, _ = run(capsys, root, "translations", "status")
        assert code == 0
        assert '  stale: card \'dawn\' name: "Morgengrauen" was made from "Dawn"; now "Daybreak"' in out, out
        assert "card 'dawn' (name" not in out  # not missing
    finally:
        cards.write_bytes(kept)


def test_a_card_renamed_without_an_id_column_is_followed_by_its_text(tmp_path, capsys):
    root = new_game(tmp_path, NAME)
    deck = root / "decks" / NAME
    edit(deck / f"{NAME}.toml", '# editions = ["de"]', 'editions = ["de"]')
    cards = deck / "cards.csv"
    cards.write_text("\n".join(line.split(",", 1)[1] for line in cards.read_text().splitlines()) + "\n")
    run(capsys, root, "translations", "update")
    translate(deck / "translations" / "de.po", {"Dawn": "Morgengrauen", "Draw a card.": "Ziehe eine Karte."})
    edit(cards, "Dawn,", "Daybreak,")
    code, out, _ = run(capsys, root, "translations", "update")
    assert code == 0
    assert "card 'daybreak' is card 'dawn' renamed (matched by its text); its translations follow it" in out, out
    out = run(capsys, root, "translations", "status")[1]
    assert '  stale: card \'daybreak\' name: "Morgengrauen" was made from "Dawn"; now "Daybreak"' in out, out
    assert "card 'daybreak' (text)" not in out and "card 'daybreak' (name" not in out


def test_ids_from_names_are_transliterated():
    from generator.definitions.ids import id_from_name

    assert id_from_name("Müller's Dock") == "muellers-dock"
    assert id_from_name("Straße") == "strasse"
    assert id_from_name("Ωμέγα") == "omega" and id_from_name("Москва") == "moskva"
    assert id_from_name("夜明け") == "yemingke"
    long = id_from_name("三国志の英雄たちが集う夜明けの城")
    assert len(long) <= 24 and long == id_from_name("三国志の英雄たちが集う夜明けの城")
    assert long != id_from_name("三国志の英雄たちが集う夜明けの塔")
