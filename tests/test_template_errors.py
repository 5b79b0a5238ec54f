"""A name a template asks for and does not get: said in plain words, once per template line, with the cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import Problem, grouped, grouped_lines
from tests.served import edit


@pytest.fixture
def game(started) -> Path:
    return started


def _validate(game: Path, capsys, expression: str) -> list[str]:
    edit(game / "templates" / "g.svg.j2", "{{ name }}", "{{ name }}" + expression)
    capsys.readouterr()
    assert main(["validate"]) == 2
    return capsys.readouterr().err.splitlines()


def test_a_style_key_with_a_typo(game, capsys):
    (line,) = _validate(game, capsys, "{{ style.back_color }}")
    assert line.startswith("error: templates/g.svg.j2:19: style has no key 'back_color' (did you mean 'back_colour'?)")
    assert "12 cards of deck 'g' ('dawn', 'noon', 'blaze' and 9 more)" in line
    assert "mappingproxy" not in line


def test_an_unknown_card_field_lists_the_fields(game, capsys):
    (line,) = _validate(game, capsys, "{{ card.attributes.points_x }}")
    assert "card has no field 'points_x' (fields: text)" in line and "12 cards of deck 'g'" in line
    assert "dict object" not in line


def test_an_unknown_name_and_a_rank_field(game, capsys):
    (line,) = _validate(game, capsys, "{{ crad.id }}")
    assert "a template sees no 'crad' (did you mean 'card'?)" in line and "cycler" not in line
    edit(game / "templates" / "g.svg.j2", "{{ crad.id }}", "{{ card.rank.lable }}")
    assert main(["validate"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "rank has no 'lable' (did you mean 'label'?)" in line


def test_grouping_keeps_places_and_problems_apart():
    lines = [
        "t.svg.j2:3: boom (drawing card 'a' of deck 'd')",
        "t.svg.j2:3: boom (drawing card 'b' of deck 'd:v')",
        "t.svg.j2:3: other (drawing card 'a' of deck 'd')",
        "t.svg.j2:3: boom (drawing card 'a' of deck 'd:v')",
    ]
    assert grouped_lines(lines) == [
        "t.svg.j2:3: boom (drawing 2 cards of decks 'd', 'd:v' ('a', 'b'))",
        "t.svg.j2:3: other (drawing card 'a' of deck 'd')",
    ]
    problems = [
        Problem("t.svg.j2", "boom (drawing card 'a' of deck 'd')", 3),
        Problem("t.svg.j2", "boom (drawing card 'a' of deck 'd')", 4),
    ]
    assert grouped(problems) == problems  # another line is another problem
