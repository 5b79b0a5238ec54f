"""Editions in other languages: translations from card lists and catalogues, builds, checks and books per language."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .served import edit, new_game, run

# whole builds, rulebooks or long counts: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

NAME = "game"


def game(folder: Path, book: bool = False) -> Path:
    """A project by ``aetherpress new`` whose deck (and, with ``book``, rulebook) has a German edition."""
    root = new_game(folder, NAME)
    edit(root / "decks" / NAME / f"{NAME}.toml", '# editions = ["de"]', 'editions = ["de"]')
    if book:
        edit(root / "decks" / NAME / f"{NAME}.rulebook.toml", '# editions = ["de"]', 'editions = ["de"]')
    return root


def translate(root: Path, language: str, texts: dict[str, str]) -> None:
    """Fill in the catalogue of ``language`` as a translator would: each source text given its translation."""
    from babel.messages.pofile import read_po, write_po

    path = root / "decks" / NAME / "translations" / f"{language}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id in texts:
            message.string = texts[message.id]
            message.flags.discard("fuzzy")
    with path.open("wb") as handle:
        write_po(handle, catalog)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def catalogues(capsys, root: Path) -> None:
    assert run(capsys, root, "translations", "extract")[0] == 0
    assert run(capsys, root, "translations", "update")[0] == 0


def test_a_translated_field_changes_only_that_languages_output(tmp_path, capsys):
    root = game(tmp_path)
    catalogues(capsys, root)
    translate(root, "de", {"Draw a card.": "Ziehe eine Karte.", "Dawn": "Morgengrauen"})
    code, out, _ = run(capsys, root, "build", NAME, "--paper", "a4", "--out", str(tmp_path / "first"))
    assert code == 0 and f"{NAME}-de/{NAME}-de-sheets.pdf" in out
    first = snapshot(tmp_path / "first")
    assert first[f"{NAME}-de/faces/dawn.svg"] != first[f"{NAME}/faces/dawn.svg"]
    assert "Morgengrauen" in first[f"{NAME}-de/faces/dawn.svg"].decode()

    translate(root, "de", {"Draw a card.": "Nimm eine Karte vom Stapel."})
    assert run(capsys, root, "build", NAME, "--paper", "a4", "--out", str(tmp_path / "second"))[0] == 0
    second = snapshot(tmp_path / "second")
    changed = sorted(name for name in first if first[name] != second[name])
    assert changed == [f"{NAME}-de/faces/dawn.svg", f"{NAME}-de/{NAME}-de-sheets.pdf"]
    assert ">Stapel.<" in second[f"{NAME}-de/faces/dawn.svg"].decode()


def test_a_new_project_builds_both_editions_and_books_in_one_command(tmp_path, capsys):
    root = game(tmp_path, book=True)
    code, out, err = run(capsys, root, "build", "--paper", "a4", "--out", str(tmp_path / "out"))
    assert code == 0, err
    for made in (
        f"{NAME}/{NAME}-sheets.pdf",
        f"{NAME}-de/{NAME}-de-sheets.pdf",
        f"rulebooks/{NAME}.pdf",
        f"rulebooks/{NAME}-de.pdf",
    ):
        assert (tmp_path / "out" / made).is_file(), (made, out)


def test_the_source_language_builds_as_before_without_editions(tmp_path, capsys):
    (tmp_path / "plain").mkdir()
    (tmp_path / "edition").mkdir()
    plain, root = new_game(tmp_path / "plain", NAME), game(tmp_path / "edition")
    for project, out in ((plain, "a"), (root, "b")):
        assert run(capsys, project, "build", NAME, "--lang", "en", "--paper", "a4", "--out", str(tmp_path / out))[0] == 0
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_a_stale_translation_is_reported_after_its_source_changes(tmp_path, capsys):
    root = game(tmp_path)
    catalogues(capsys, root)
    translate(root, "de", {"Draw a card.": "Ziehe eine Karte."})
    code, out, _ = run(capsys, root, "translations", "status")
    assert code == 0
    found = re.search(r"de \(German\): (\d+) texts, 1 translated, (\d+) missing, 0 stale", out)
    assert found and int(found.group(2)) == int(found.group(1)) - 1, out
    edit(root / "decks" / NAME / "cards.csv", "Draw a card.", "Draw two cards.")
    out = run(capsys, root, "translations", "status")[1]
    assert (
        "1 stale" in out
        and '  stale: card \'dawn\' text: "Ziehe eine Karte." was made from "Draw a card."; now "Draw two cards."' in out
    ), out
    # merged, the old translation is kept, marked fuzzy, with the source it was made from; still stale
    assert run(capsys, root, "translations", "update")[0] == 0
    po = (root / "decks" / NAME / "translations" / "de.po").read_text(encoding="utf-8")
    assert '#| msgid "Draw a card."' in po and "#, fuzzy" in po
    assert "  stale: card 'dawn' text: \"Ziehe eine Karte.\" was made from" in run(capsys, root, "translations", "status")[1]
    # a stale translation is not printed: the card falls back to the source text
    run(capsys, root, "build", NAME, "--lang", "de", "--paper", "a4", "--out", str(tmp_path / "out"))
    face = (tmp_path / "out" / f"{NAME}-de" / "faces" / "dawn.svg").read_text(encoding="utf-8")
    assert "Draw two cards." in face and "Ziehe" not in face


def test_the_catalogue_template_is_the_same_file_for_the_same_texts(tmp_path, capsys):
    root = game(tmp_path)
    pot = root / "decks" / NAME / "translations" / "messages.pot"
    run(capsys, root, "translations", "extract")
    first = pot.read_bytes()
    run(capsys, root, "translations", "extract")
    assert pot.read_bytes() == first
    assert b'msgctxt "deck|game|card|dawn|text"\nmsgid "Draw a card."' in first


LONG = "Sieh dir die oberste Karte des Stapels an und lege sie verdeckt zurück, ohne ein Wort zu sagen. " * 14


def _with_column(root: Path, card: str, text: str) -> None:
    import csv

    path = root / "decks" / NAME / "cards.csv"
    rows = list(csv.reader(path.open(encoding="utf-8")))
    rows[0].append("text@de")
    name = rows[0].index("name")
    for row in rows[1:]:
        row.append(text if row[name] == card else "")
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)


def test_a_german_text_that_overflows_is_reported_for_german_only(tmp_path, capsys):
    root = game(tmp_path)
    _with_column(root, "Noon", LONG)
    code, _, err = run(capsys, root, "validate")
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and len(errors) == 1, err
    assert "/decks/game/cards.csv:3: deck 'game' in German (de), card 'noon': text does not fit" in errors[0]
    assert "Traceback" not in err
    # the same card in English fits, and builds
    code, _out, _ = run(capsys, root, "build", NAME, "--lang", "en", "--paper", "a4", "--out", str(tmp_path / "out"))
    assert code == 0
    # a draft of the German edition draws it in red and names the language
    code, _, err = run(capsys, root, "build", NAME, "--lang", "de", "--draft", "--paper", "a4", "--out", str(tmp_path / "out"))
    assert code == 0 and "deck 'game' in German (de), card 'noon': text does not fit (template 'game'): cut" in err


def test_missing_translations_are_warned_in_validate_and_refused_with_strict_lang(tmp_path, capsys):
    root = game(tmp_path)
    code, out, err = run(capsys, root, "validate")
    assert code == 0 and out.startswith("ok:")
    assert "/decks/game/cards.csv:2: deck 'game' in German (de), card 'dawn': name, text not translated" in err
    assert all(line.startswith("warning: ") for line in err.splitlines())
    code, _, err = run(capsys, root, "validate", "--strict-lang")
    assert code == 2 and "/decks/game/cards.csv:2: deck 'game' in German (de), card 'dawn'" in err
    assert all(line.startswith("error: ") for line in err.splitlines())
    code, _, err = run(capsys, root, "build", NAME, "--lang", "de", "--strict-lang", "--out", str(tmp_path / "out"))
    assert code == 2 and not (tmp_path / "out").exists()


def test_a_draft_marks_the_texts_left_in_the_source_language(tmp_path, capsys):
    root = game(tmp_path)
    _with_column(root, "Dawn", "Ziehe eine Karte.")
    run(capsys, root, "build", NAME, "--lang", "de", "--draft", "--paper", "a4", "--out", str(tmp_path / "out"))
    faces = tmp_path / "out" / f"{NAME}-de" / "faces"
    assert "not translated (de)" not in (faces / "dawn.svg").read_text(encoding="utf-8").split("Ziehe")[1]
    assert "not translated (de)" in (faces / "noon.svg").read_text(encoding="utf-8")


def test_a_translation_column_must_name_an_edition_and_a_text_field(tmp_path, capsys):
    root = game(tmp_path)
    edit(root / "decks" / NAME / "cards.csv", "name,rank,suits,text", "name,rank,suits,text,text@fr")
    code, _, err = run(capsys, root, "validate")
    assert code == 2
    assert "/decks/game/cards.csv:1: column F: column 'text@fr': 'fr' is not an edition of this deck (its editions: de)" in err
    assert len(err.strip().splitlines()) == 1


def pdf_text(path: Path, first: int = 1, last: int | None = None) -> str:
    args = ["pdftotext", "-f", str(first)] + (["-l", str(last)] if last else []) + [str(path), "-"]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


GERMAN_BOOK = """# Spielregeln

Jeder Spieler hält drei Karten; die beste Hand gewinnt.

## Die Hände

![chart](chart:game)
"""


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_numbers_in_a_german_book_use_a_decimal_comma(tmp_path, capsys):
    root = game(tmp_path, book=True)
    (root / "decks" / NAME / f"{NAME}.de.md").write_text(GERMAN_BOOK, encoding="utf-8")
    catalogues(capsys, root)
    translate(root, "de", {"Three of a Kind": "Drilling"})  # a hand's name, from the game file
    out = tmp_path / "books"
    assert run(capsys, root, "rulebook", NAME, "--out", str(out))[0] == 0
    assert run(capsys, root, "rulebook", NAME, "--lang", "de", "--out", str(out))[0] == 0
    english, german = pdf_text(out / f"{NAME}.pdf"), pdf_text(out / f"{NAME}-de.pdf")
    assert re.search(r"\d\.\d+ %", english) and not re.search(r"\d,\d+ %", english)
    assert re.search(r"\d,\d+ %", german) and not re.search(r"\d\.\d+ %", german)
    assert "Inhalt" in german and "Contents" not in german
    assert re.search(r"1 von \d+,\d", german) and "Alle Hände" in german
    assert "Spielregeln" in german
    assert "Drilling" in german and "Three of a Kind" not in german
    assert "Three of a Kind" in english and "Drilling" not in english


SCRIPTS = Path(__file__).parent / "fixtures" / "scripts"
# Noto Sans Hebrew has no full stop (it is set beside a Latin font), so the texts end without one
HEBREW_CARDS = [("שחר", "שלוף קלף אחד"), ("ירח", "החלף קלף עם השחקן משמאלך"), ("זרע", "הנח קלף מידך מתחת לחפיסה")]
JAPANESE_CARDS = [("夜明け", "カードを一枚引く。"), ("満月", "全員が手札を左に渡す。"), ("種", "手札を一枚山札の下に置く。")]


def script_deck(folder: Path, language: str, font: str, family: str, cards: list[tuple[str, str]]) -> Path:
    """A three-card deck written in ``language``, set in a test font of the project's own."""
    root = new_game(folder, NAME)
    shutil.copy(SCRIPTS / font, root / "fonts" / font)
    deck = root / "decks" / NAME
    edit(deck / f"{NAME}.toml", 'language = "en"', f'language = "{language}"')
    rows = ["id,name,rank,suits,text"] + [f"c{i},{name},{i + 1},suns,{text}" for i, (name, text) in enumerate(cards)]
    (deck / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    style = root / "styles" / f"{NAME}.toml"
    edit(style, 'title_font = "Cinzel"', f'title_font = "{family}"')
    edit(style, 'text_font = "EB Garamond"', f'text_font = "{family}"')
    return root


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_right_to_left_card_text_reads_in_order(tmp_path, capsys):
    root = script_deck(tmp_path, "he", "NotoSansHebrew-Subset.ttf", "Noto Sans Hebrew", HEBREW_CARDS)
    code, _, err = run(capsys, root, "build", NAME, "--paper", "a4", "--out", str(tmp_path / "out"))
    assert code == 0, err
    text = pdf_text(tmp_path / "out" / NAME / f"{NAME}-sheets.pdf", 1, 1)
    # pdftotext wraps each right-to-left line in embedding marks; the characters between them are in reading order
    text = re.sub("[\u202a-\u202e\u2066-\u2069]", "", text)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    running = " ".join(line for line in lines if line)
    for name, rule in HEBREW_CARDS:
        assert name in lines, (name, lines)
        assert rule in running, (rule, running)  # the first word first, each word's letters right to left
        assert rule[::-1] not in running


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_cjk_card_text_is_set_and_extracted(tmp_path, capsys):
    root = script_deck(tmp_path, "ja", "NotoSansCJKjp-Subset.ttf", "Noto Sans CJK JP", JAPANESE_CARDS)
    code, _, err = run(capsys, root, "build", NAME, "--paper", "a4", "--out", str(tmp_path / "out"))
    assert code == 0, err
    text = "".join(pdf_text(tmp_path / "out" / NAME / f"{NAME}-sheets.pdf", 1, 1).split())
    for name, rule in JAPANESE_CARDS:
        assert name in text and rule in text, (name, rule, text)
    # a line breaks between Japanese characters (never before 。), so the longest rule wraps at full size
    face = (tmp_path / "out" / NAME / "faces" / "c2.svg").read_text(encoding="utf-8")
    lines = re.findall(r'<text [^>]*font-size="([0-9.]+)"[^>]*>([^<]*[\u3040-\u9fff][^<]*)</text>', face)
    rule_lines = [(size, line) for size, line in lines if line != JAPANESE_CARDS[2][0]]
    assert len(rule_lines) == 2 and {size for size, _ in rule_lines} == {"3.4"}, rule_lines
    assert "".join(line for _, line in rule_lines) == JAPANESE_CARDS[2][1]
    assert not rule_lines[1][1].startswith("。")


def test_a_missing_glyph_is_a_one_line_error(tmp_path, capsys):
    root = game(tmp_path)
    _with_column(root, "Dawn", "Ziehe eine Karte: שחר.")
    code, _, err = run(capsys, root, "build", NAME, "--lang", "de", "--out", str(tmp_path / "out"))
    assert code == 2 and not (tmp_path / "out").exists()
    assert err.count("\n") == 1, err
    assert err.startswith("error: ")
    assert "/decks/game/cards.csv:2: deck 'game' in German (de), card 'dawn': text has characters" in err
    assert "'ש' (U+05E9), 'ח' (U+05D7), 'ר' (U+05E8)" in err and "EB Garamond" in err


def test_a_book_speaks_its_language():
    from generator.rulebook.bookodds import format_count, format_interval, format_one_in, format_points, format_probability
    from generator.rulebook.words import hyphenation, spaced, speaking, words

    assert (format_probability(0.000136), format_one_in(10.66), format_count(1234567)) == (
        "0.0136\u00a0%",
        "1\u00a0in\u00a010.7",
        "1,234,567",
    )
    assert hyphenation() == "en_GB" and spaced("Note: this!") == "Note: this!"
    with speaking("de"):
        assert (format_probability(0.000136), format_one_in(1234.4), format_count(1234567)) == (
            "0,0136\u00a0%",
            "1\u00a0von\u00a01.234",
            "1.234.567",
        )
        assert format_points(2.5) == "2,50" and format_interval((0.01312, 0.01318), 0.01315) == "1,31\u00a0% bis 1,32\u00a0%"
        assert words("Contents") == "Inhalt" and words("{count} cards", count=40) == "40 Karten"
        assert hyphenation() == "de"
    with speaking("fr"):
        assert spaced("Attention : voici la règle! Et puis? Oui; non. http://x.y") == (
            "Attention\u00a0: voici la règle\u00a0! Et puis\u00a0? Oui\u00a0; non. http://x.y"
        )
        assert words("Contents") == "Sommaire" and words("1 in {n}", n="4,5") == "1 sur 4,5"
        assert format_count(1234567) == "1\u00a0234\u00a0567"


def test_language_codes_and_catalogues_are_checked_in_one_line_each(tmp_path, capsys):
    root = game(tmp_path)
    deck = root / "decks" / NAME / f"{NAME}.toml"
    edit(deck, 'editions = ["de"]', 'editions = ["de", "de", "en", "qq"]')
    code, _, err = run(capsys, root, "validate")
    assert code == 2 and "Traceback" not in err
    assert err.splitlines() == [
        f"error: {deck}:12: deck.editions[2]: 'de' is named twice",
        f"error: {deck}:12: deck.editions[3]: 'en' is the source language; editions list the other languages",
        f"error: {deck}:12: deck.editions[4]: 'qq' is not a language code Aetherpress knows (such as en, de, fr, ar, ja)",
    ]
    edit(deck, 'editions = ["de", "de", "en", "qq"]', 'editions = ["de"]')
    po = root / "decks" / NAME / "translations" / "de.po"
    po.parent.mkdir()
    po.write_text('msgid ""\nmsgstr ""\n\nthis is no keyword\nmsgid "Dawn"\nmsgstr "Morgengrauen"\n', encoding="utf-8")
    code, _, err = run(capsys, root, "build", NAME, "--out", str(tmp_path / "out"))
    assert code == 2 and not (tmp_path / "out").exists()
    assert err == f"error: {po}:4: unknown or misformatted keyword\n"


def test_a_book_with_characters_its_fonts_lack_is_a_one_line_error(tmp_path, capsys):
    root = game(tmp_path, book=True)
    source = root / "decks" / NAME / f"{NAME}.de.md"
    source.write_text("# Regeln\n\nZiehe eine Karte.\n\nDas Wort खेल heißt Spiel.\n", encoding="utf-8")
    code, _, err = run(capsys, root, "rulebook", NAME, "--lang", "de", "--out", str(tmp_path / "books"))
    assert code == 2 and not (tmp_path / "books").exists()
    assert err == (
        f"error: {source}:5: the book in German (de) has characters none of its fonts (EB Garamond, Source Sans 3, "
        "Noto Serif Hebrew, Noto Naskh Arabic, Noto Sans CJK JP, Noto Sans CJK SC, Noto Sans CJK KR) has: "
        "'ख' (U+0916), 'े' (U+0947), 'ल' (U+0932)\n"
    )
