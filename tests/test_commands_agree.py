"""Every command names decks alike (``DECK``, ``DECK:VARIANT``) and defaults to the project's decks or only game."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from tests.served import edit


@pytest.fixture
def game(started_with_variant) -> Path:
    """A new project whose deck has one variant, ``small``, without the 4s."""
    return started_with_variant


@pytest.mark.slow  # builds or checks whole decks
def test_validate_takes_deck_ids_and_variants(game, capsys):
    """The 4s fail; the small variant has none, so it passes on its own while the deck does not."""
    edit(game / "templates" / "g.svg.j2", "{{ name }}", '{{ name }}{% if card.rank.id == "4" %}{{ card.nope }}{% endif %}')
    capsys.readouterr()
    assert main(["validate", "g:small"]) == 0
    assert capsys.readouterr().out.startswith("ok: 1 deck file checked")
    assert main(["validate", "g"]) == 2
    assert "card has no field 'nope'" in capsys.readouterr().err
    assert main(["validate", "decks/g/g.toml"]) == 2  # a path still works
    capsys.readouterr()
    assert main(["validate", "gg"]) == 2
    assert capsys.readouterr().err.startswith("error: command line: unknown deck 'gg' (did you mean 'g'?)")
    assert main(["validate", "g:smal"]) == 2
    assert "has no variant 'smal' (did you mean 'small'?)" in capsys.readouterr().err


@pytest.mark.slow  # builds
def test_rulebook_and_odds_default_to_the_projects_game(game, capsys):
    capsys.readouterr()
    assert main(["rulebook"]) == 0
    assert capsys.readouterr().out == "rulebook g: output/rulebooks/g.pdf\n"
    assert (game / "output" / "rulebooks" / "g.pdf").is_file()
    assert main(["odds"]) == 0
    assert "220 hands in all" in capsys.readouterr().out


@pytest.mark.slow  # builds
def test_export_and_box_default_to_the_projects_decks_and_variants(game, capsys):
    capsys.readouterr()
    assert main(["export", "svg"]) == 0
    out = capsys.readouterr().out
    assert "output/g/svg" in out and "output/g-small/svg" in out


def _parsers():
    from tests.test_readme import commands

    return {name: p for name, p in commands().items() if name != "(global)"}


@pytest.mark.parametrize("command", sorted(_parsers()))
def test_every_commands_help_has_an_example(command):
    text = _parsers()[command].format_help()
    assert "\nexamples:\n  aetherpress " in text


def test_export_pod_help_names_the_shops():
    text = _parsers()["export pod"].format_help()
    for shop in ("drivethrucards", "thegamecrafter", "makeplayingcards"):
        assert shop in text


@pytest.mark.slow  # builds
def test_sheets_on_other_paper_say_so_in_their_name(game, capsys):
    assert main(["build", "g:small", "--paper", "letter", "--jobs", "1"]) == 0
    names = sorted(p.name for p in (game / "output" / "g-small").glob("*.pdf"))
    assert names == ["g-small-sheets-letter.pdf"]
    assert main(["build", "g:small", "--paper", "a4", "--jobs", "1"]) == 0
    assert sorted(p.name for p in (game / "output" / "g-small").glob("*.pdf")) == ["g-small-sheets.pdf"]
