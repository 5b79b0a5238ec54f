"""Every loader error names the file and the place, and the command exits 2 with no traceback."""

from __future__ import annotations

import pytest

from generator.cli import main
from generator.definitions import load_definition
from generator.errors import AetherpressError

from .conftest import write_deck

GOOD = """\
[deck]
id = "test"
title = "Test deck"
csv = "cards.csv"

[deck.attributes]
text = "text"
power = "int"

[[suits]]
id = "red"
name = "Red"

[[suits]]
id = "blue"
name = "Blue"

[[ranks]]
id = "1"
name = "One"

[[ranks]]
id = "2"
name = "Two"

[[cards]]
name = "Wizard"
rank = "2"
suits = ["red"]
power = 3

[variants.small]
remove_cards = ["wizard"]
"""
GOOD_CSV = "name,rank,suits,text,power\nFox,1,red,Quick,1\nOwl,2,blue+red,Wise,2\n"


def _load(scratch, text, csv_text=GOOD_CSV):
    path = write_deck(scratch, text)
    if csv_text is not None:
        (path.parent / "cards.csv").write_text(csv_text, encoding="utf-8")
    return load_definition(path, scratch)


def _problems(scratch, text, csv_text=GOOD_CSV) -> list[str]:
    with pytest.raises(AetherpressError) as info:
        _load(scratch, text, csv_text)
    return [str(p) for p in info.value.problems]


def test_good_deck_loads(scratch):
    definition = _load(scratch, GOOD)
    assert [c.id for c in definition.base.cards] == ["fox", "owl", "wizard"]
    assert definition.base.card("owl").suits == ("blue", "red")
    assert definition.base.card("fox").attributes["power"] == 1
    assert definition.build(["small"]).card_count == 2


@pytest.mark.parametrize(
    "text,csv_text,expected",
    [
        # TOML syntax error: file and line
        (GOOD.replace('title = "Test deck"', 'title = "Test deck'), GOOD_CSV, r"decks/test/test.toml:3: TOML syntax error"),
        # unknown key, with a suggestion
        (
            GOOD.replace('title = "Test deck"', 'title = "Test deck"\ntitel = "x"'),
            GOOD_CSV,
            r"decks/test/test.toml:4: deck.titel: unknown key 'titel' in \[deck\] \(did you mean 'title'\?\)",
        ),
        # missing required field
        (GOOD.replace('title = "Test deck"\n', ""), GOOD_CSV, r"decks/test/test.toml:1: deck: missing required key 'title'"),
        # wrong type
        (
            GOOD.replace("power = 3", 'power = "three"'),
            GOOD_CSV,
            r"decks/test/test.toml:\d+: cards\[1\].power: must be a whole number, not a string",
        ),
        (
            GOOD.replace('id = "red"\nname = "Red"', 'id = "red"\nname = 7'),
            GOOD_CSV,
            r"decks/test/test.toml:12: suits\[1\].name: must be a string, not a whole number",
        ),
        # duplicate card id (TOML card clashing with a CSV card)
        (
            GOOD.replace('name = "Wizard"', 'name = "Fox"'),
            GOOD_CSV,
            r"decks/test/test.toml:\d+: cards\[1\]: duplicate card id 'fox'",
        ),
        # duplicate card id inside the CSV: the CSV file and its line
        (GOOD, GOOD_CSV + "Fox,2,blue,Again,3\n", r"decks/test/cards.csv:4: duplicate card id 'fox'"),
        # unknown suit and rank
        (
            GOOD.replace('suits = ["red"]', 'suits = ["green"]'),
            GOOD_CSV,
            r"decks/test/test.toml:\d+: cards\[1\].suits: unknown suit 'green'",
        ),
        (GOOD.replace('rank = "2"', 'rank = "9"'), GOOD_CSV, r"decks/test/test.toml:\d+: cards\[1\].rank: unknown rank '9'"),
        # unknown suit in the CSV: CSV file, line and column
        (
            GOOD,
            GOOD_CSV.replace("blue+red", "blue+rde"),
            r"decks/test/cards.csv:3: column C \(suits\): unknown suit 'rde' \(did you mean 'red'\?\)",
        ),
        # CSV row with the wrong number of columns
        (
            GOOD,
            GOOD_CSV + "Cat,1,red,Sly\n",
            r"decks/test/cards.csv:4: expected 5 columns \(name, rank, suits, text, power\), found 4",
        ),
        (GOOD, GOOD_CSV + "Cat,1,red,Sly,1,extra\n", r"decks/test/cards.csv:4: expected 5 columns .*found 6"),
        # a bad number in the CSV
        (
            GOOD,
            GOOD_CSV.replace("Wise,2", "Wise,two"),
            r"decks/test/cards.csv:3: column E \(power\): 'two' is not a whole number",
        ),
        # unknown CSV column
        (
            GOOD,
            GOOD_CSV.replace("text,power", "txt,power"),
            r"decks/test/cards.csv:1: column D: unknown column 'txt' \(did you mean 'text'\?\)",
        ),
        # a variant removing a card that does not exist
        (
            GOOD.replace('remove_cards = ["wizard"]', 'remove_cards = ["wizzard"]'),
            GOOD_CSV,
            r"decks/test/test.toml:\d+: variants.small.remove_cards: card 'wizzard' does not exist in deck 'test' \(did you mean 'wizard'\?\)",
        ),
        # a template that does not exist
        (
            GOOD.replace('csv = "cards.csv"', 'csv = "cards.csv"\ntemplate = "plane"'),
            GOOD_CSV,
            r"decks/test/test.toml:5: deck.template: template 'plane' not found in templates/ or the built-in templates \(did you mean 'plain'\?\)",
        ),
        # a size that does not exist, and a negative one
        (
            GOOD.replace('csv = "cards.csv"', 'csv = "cards.csv"\nsize = "pokr"'),
            GOOD_CSV,
            r"deck.size: unknown card size 'pokr' \(did you mean 'poker'\?\)",
        ),
        (
            GOOD.replace('csv = "cards.csv"', 'csv = "cards.csv"\nsize = { width = -63, height = 88 }'),
            GOOD_CSV,
            r"deck.size: card width and height must be greater than zero",
        ),
        # a CSV path that escapes the deck folder
        (
            GOOD.replace('csv = "cards.csv"', 'csv = "../../cards.csv"'),
            GOOD_CSV,
            r"decks/test/test.toml:4: deck.csv: CSV path '../../cards.csv' must stay inside the deck's folder",
        ),
    ],
)
def test_loader_errors_name_file_and_place(scratch, text, csv_text, expected):
    problems = _problems(scratch, text, csv_text)
    assert any(__import__("re").search(expected, p) for p in problems), problems


def test_several_problems_are_all_reported(scratch):
    text = GOOD.replace("power = 3", 'power = "x"').replace('suits = ["red"]', 'suits = ["green"]')
    problems = _problems(scratch, text)
    assert len(problems) == 2


def test_cli_validate_exits_2_without_traceback(scratch, capsys):
    write_deck(scratch, GOOD.replace('rank = "2"', 'rank = "9"'))
    (scratch.decks_dir / "test" / "cards.csv").write_text(GOOD_CSV, encoding="utf-8")
    code = main(["--project", str(scratch.root), "validate"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    assert lines == ["error: decks/test/test.toml:38: cards[1].rank: unknown rank '9' (did you mean '1'?)"] or (
        len(lines) == 1 and "unknown rank '9'" in lines[0] and "test.toml" in lines[0]
    )


def test_cli_validate_ok(scratch, capsys):
    write_deck(scratch, GOOD)
    (scratch.decks_dir / "test" / "cards.csv").write_text(GOOD_CSV, encoding="utf-8")
    assert main(["--project", str(scratch.root), "validate"]) == 0
    assert "1 deck file checked" in capsys.readouterr().out
