"""What an edition changes besides its card data: the text a template writes itself (``{{ _("Score") }}``),
translated through the deck's catalogue, and its own changes to the style (``[edition.de.style]``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .served import edit, new_game, run

pytestmark = pytest.mark.slow  # whole builds

NAME = "game"


def project(folder: Path) -> Path:
    """A new project with a German edition whose template writes "Score" beneath each card's name."""
    root = new_game(folder, NAME)
    edit(root / "decks" / NAME / f"{NAME}.toml", '# editions = ["de"]', 'editions = ["de"]')
    template = root / "templates" / f"{NAME}.svg.j2"
    edit(
        template,
        "{{ name }}\n",
        '{{ name }}\n<text x="5" y="30" font-family="\'EB Garamond\'" font-size="3">{{ _("Score") }}</text>\n',
    )
    return root


def test_text_a_template_writes_is_extracted_and_translated(tmp_path, capsys):
    root = project(tmp_path)
    assert run(capsys, root, "translations", "extract")[0] == 0
    pot = (root / "decks" / NAME / "translations" / "messages.pot").read_text(encoding="utf-8")
    assert re.search(r'#: \S*templates/game\.svg\.j2:\d+\nmsgctxt "template"\nmsgid "Score"', pot), pot[-600:]
    assert run(capsys, root, "translations", "update")[0] == 0
    out = run(capsys, root, "translations", "status")[1]
    assert "template 'game': 'Score'" in out
    po = root / "decks" / NAME / "translations" / "de.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgid "Score"\nmsgstr ""', 'msgid "Score"\nmsgstr "Punkte"'), "utf-8")
    assert run(capsys, root, "build", NAME, "--paper", "a4", "--out", str(tmp_path / "out"))[0] == 0
    german = (tmp_path / "out" / f"{NAME}-de" / "faces" / "dawn.svg").read_text(encoding="utf-8")
    english = (tmp_path / "out" / NAME / "faces" / "dawn.svg").read_text(encoding="utf-8")
    assert ">Punkte</text>" in german and ">Score<" not in german
    assert ">Score</text>" in english and "Punkte" not in english


def test_an_edition_changes_the_style_for_its_own_cards_only(tmp_path, capsys):
    root = project(tmp_path)
    deck = root / "decks" / NAME / f"{NAME}.toml"
    assert run(capsys, root, "build", NAME, "--paper", "a4", "--out", str(tmp_path / "a"))[0] == 0
    deck.write_text(deck.read_text(encoding="utf-8") + '\n[edition.de.style]\nink = "#aa0000"\n', encoding="utf-8")
    assert run(capsys, root, "build", NAME, "--paper", "a4", "--out", str(tmp_path / "b"))[0] == 0
    for side in ("faces/dawn.svg",):
        assert (tmp_path / "a" / NAME / side).read_bytes() == (tmp_path / "b" / NAME / side).read_bytes()
        before = (tmp_path / "a" / f"{NAME}-de" / side).read_text(encoding="utf-8")
        after = (tmp_path / "b" / f"{NAME}-de" / side).read_text(encoding="utf-8")
        assert "#aa0000" in after and "#aa0000" not in before


@pytest.mark.parametrize(
    ("table", "told"),
    [
        ('[edition.fr.style]\nink = "#aa0000"', "edition.fr: 'fr' is not one of the deck's editions (de)"),
        ('[edition.de.style]\ninc = "#aa0000"', "edition.de.style.inc: unknown style key 'inc' (did you mean 'ink'?)"),
        ('[edition.de]\ncolour = "red"', "edition.de.colour: unknown key 'colour'; an edition's table holds its changes"),
    ],
)
def test_an_edition_style_that_cannot_apply_is_a_one_line_error(tmp_path, capsys, table, told):
    root = project(tmp_path)
    deck = root / "decks" / NAME / f"{NAME}.toml"
    deck.write_text(deck.read_text(encoding="utf-8") + "\n" + table + "\n", encoding="utf-8")
    code, _, err = run(capsys, root, "validate")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"error: {deck}:") and told in err, err


def test_the_built_in_german_edition_writes_its_games_line_and_names_in_its_own_style(tmp_path, capsys):
    root = Path(__file__).parents[1]
    out = tmp_path / "out"
    assert run(capsys, root, "build", "dragons-gambit", "--paper", "a4", "--out", str(out))[0] == 0
    german = (out / "dragons-gambit-de" / "faces" / "immaculate-fire.svg").read_text(encoding="utf-8")
    english = (out / "dragons-gambit" / "faces" / "immaculate-fire.svg").read_text(encoding="utf-8")
    assert ">Zweifach 2 · Fünffach 4</text>" in german and "Twofold" not in german
    assert ">Twofold 2 · Fivefold 4</text>" in english
    sizes = {
        f.name: re.findall(r'font-size="([\d.]+)"[^>]*font-weight="bold"[^>]*>(?!\d)', f.read_text(encoding="utf-8"))
        for f in (out / "dragons-gambit-de" / "faces").glob("*.svg")
    }
    assert {s for found in sizes.values() for s in found} == {"3.2"}  # every German name at the edition's size
