"""``aetherpress eject``: a built-in template, back, style or size copied into the project, the deck line printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.locations import builtin_root


@pytest.fixture
def game(started) -> Path:
    return started


@pytest.mark.slow  # builds
def test_eject_the_back_copies_it_and_names_the_deck_line(game, capsys):
    capsys.readouterr()
    assert main(["eject", "back"]) == 0
    out = capsys.readouterr().out.splitlines()
    copy = game / "templates" / "back.svg.j2"
    assert copy.read_bytes() == (builtin_root() / "templates" / "cards" / "back.svg.j2").read_bytes()
    assert out[0] == "wrote templates/back.svg.j2: a copy of the built-in back template 'back'"
    assert out[1].startswith('decks/g/g.toml:8: back = "back" already names it')
    copy.write_text(copy.read_text().replace("</svg>", '<circle cx="1" cy="1" r="1" fill="#123456"/></svg>'))
    assert main(["build", "--jobs", "1"]) == 0
    assert "#123456" in next((game / "output" / "g" / "backs").glob("*.svg")).read_text()


def test_eject_under_another_name_says_what_to_change(game, capsys):
    capsys.readouterr()
    assert main(["eject", "template", "plain", "--as", "face"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (game / "templates" / "face.svg.j2").is_file()
    assert out[1] == 'decks/g/g.toml:7: change to template = "face" to use it'


def test_eject_a_size_adds_its_table(game, capsys):
    assert main(["eject", "size", "tarot", "--as", "big"]) == 0
    text = (game / "templates" / "sizes.toml").read_text()
    assert "[sizes.big]\nwidth = 69.85\nheight = 120.65\n" in text
    assert main(["eject", "size", "poker"]) == 0
    assert "[sizes.big]" in (game / "templates" / "sizes.toml").read_text()
    assert main(["validate"]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eject", "style", "imperal"], "error: command line: there is no built-in style 'imperal' (did you mean 'imperial'?)"),
        (["eject", "template"], "error: command line: name the built-in card face template to copy: "),
        (["eject", "template", "plain", "--as", "../x"], "error: command line: --as: "),
    ],
)
def test_eject_refuses_bad_names(game, capsys, argv, message):
    capsys.readouterr()
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(message)


def test_eject_never_overwrites(game, capsys):
    (game / "styles" / "imperial.toml").write_text("# mine\n")
    capsys.readouterr()
    assert main(["eject", "style", "imperial"]) == 2
    assert (
        capsys.readouterr().err
        == "error: styles/imperial.toml: exists already; remove it first, or choose another name with --as\n"
    )
    assert (game / "styles" / "imperial.toml").read_text() == "# mine\n"
    assert main(["eject", "size", "poker"]) == 0
    assert main(["eject", "size", "poker"]) == 2
    assert "[sizes.poker] exists already" in capsys.readouterr().err


def test_eject_outside_a_project(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["eject", "back"]) == 2
    assert "run it in a project's folder" in capsys.readouterr().err
