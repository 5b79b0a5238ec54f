"""A deck with variants is built, validated and previewed as itself and as each variant, unless it opts out."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.definitions import load_all
from generator.pipeline.build import all_targets
from generator.project import Project
from tests.served import edit


@pytest.fixture
def game(started_with_variant) -> Path:
    """A new project whose deck has one variant, ``small``, without the 4s."""
    return started_with_variant


def test_a_deck_with_a_variant_is_a_target_as_itself_and_as_the_variant(game):
    targets = [t for t in all_targets(load_all(Project(game))) if t.definition.id == "g"]
    assert [t.deck.key for t in targets] == ["g", "g:small"]
    assert [t.deck.card_count for t in targets] == [12, 9]


def test_build_false_leaves_out_the_full_deck(game):
    edit(game / "decks" / "g" / "g.toml", 'title = "G"\n', 'title = "G"\nbuild = false\n')
    assert [t.deck.key for t in all_targets(load_all(Project(game))) if t.definition.id == "g"] == ["g:small"]


def test_build_false_without_variants_is_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "h"]) == 0
    edit(tmp_path / "h" / "decks" / "h" / "h.toml", 'title = "H"\n', 'title = "H"\nbuild = false\n')
    monkeypatch.chdir(tmp_path / "h")
    capsys.readouterr()
    assert main(["validate"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: decks/h/h.toml:") and "deck.build" in line and "no variants" in line


def test_the_built_in_decks_with_a_full_variant_build_it_once(definitions):
    keys = [t.deck.key for t in all_targets(definitions)]
    assert "imperial" not in keys and "imperial:standard" in keys
    assert "decktet" not in keys and "pernese" not in keys
    assert "dragons-gambit" in keys  # no variants: the deck itself


@pytest.mark.slow  # builds
def test_build_writes_the_full_deck_under_its_own_name_and_the_variant(game, capsys):
    assert main(["build", "--jobs", "1"]) == 0
    assert len(list((game / "output" / "g" / "faces").glob("*.svg"))) == 12
    assert len(list((game / "output" / "g-small" / "faces").glob("*.svg"))) == 9


def test_validate_checks_the_full_deck_and_every_variant_and_every_card(game, capsys):
    """A card the variant removes still fails validate; every failing card is told, grouped in one line."""
    edit(
        game / "templates" / "g.svg.j2",
        "{{ name }}",
        '{{ name }}{% if card.rank.id == "4" %}{{ card.attributes.points }}{% endif %}'
        '{% if card.id == "dawn" %}{{ style.badge_color }}{% endif %}',
    )
    capsys.readouterr()
    assert main(["validate"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    fours = next(line for line in lines if "'points'" in line)
    assert "3 cards of deck 'g' ('zenith', 'full-moon', 'harvest')" in fours  # the variant has no 4s
    dawn = next(line for line in lines if "badge_color" in line)
    assert "card 'dawn' of decks 'g', 'g:small'" in dawn


def test_serve_shows_the_full_deck_and_the_variant(game):
    from generator.cli.common import resolve_decks

    assert [d.key for d in resolve_decks(Project(game), [])] == ["g", "g:small"]
