"""A spreadsheet card list: a formula the file holds no result for is told at its cell, and every place in a
sheet is written as the sheet shows it (sheet, row, column), never as a line of a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from tests.served import edit
from tests.sheetfiles import write_xlsx


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A new project whose card list is a workbook (as a script writes one: formulas without results)."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "g"]) == 0
    game = tmp_path / "g"
    rows = [line.split(",", 4) for line in (game / "decks" / "g" / "cards.csv").read_text().splitlines()]
    write_xlsx(game / "decks" / "g" / "cards.xlsx", {"Cards": rows})
    edit(game / "decks" / "g" / "g.toml", 'cards = "cards.csv"', 'cards = "cards.xlsx"')
    monkeypatch.chdir(game)
    return game


def test_a_formula_without_a_saved_result_is_told_at_its_cell(game, capsys):
    rows = [line.split(",", 4) for line in (game / "decks" / "g" / "cards.csv").read_text().splitlines()]
    rows[3][2] = "=1+2"  # row 4, column C (rank)
    write_xlsx(game / "decks" / "g" / "cards.xlsx", {"Cards": rows})
    capsys.readouterr()
    assert main(["validate"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: decks/g/cards.xlsx: sheet 'Cards', row 4, column C: a formula whose result")


@pytest.mark.slow  # builds
def test_a_card_of_a_sheet_is_placed_by_sheet_and_row(game, capsys):
    assert main(["validate"]) == 0
    rows = [line.split(",", 4) for line in (game / "decks" / "g" / "cards.csv").read_text().splitlines()]
    rows[2][4] = "Look again. " * 150  # row 3: Noon
    write_xlsx(game / "decks" / "g" / "cards.xlsx", {"Cards": rows})
    capsys.readouterr()
    assert main(["build", "g", "--jobs", "1"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: decks/g/cards.xlsx: sheet 'Cards', row 3: deck 'g', card 'noon': text does not fit")
