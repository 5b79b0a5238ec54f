"""A new game's rulebook: icons in its text, its edition on the title page, credits said once, no notice of
sources for a game of one's own; and the starter's book, ranking and face as a new game needs them."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli import main
from generator.pipeline.context import ProjectContext
from tests.served import edit

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow


@pytest.fixture
def game(started) -> Path:
    return started


def pages(game: Path) -> list[str]:
    assert main(["rulebook"]) == 0
    reader = PdfReader(BytesIO((game / "output" / "rulebooks" / "g.pdf").read_bytes()))
    return [page.extract_text() for page in reader.pages]


def test_icons_in_the_text_are_drawn(game, capsys):
    book = game / "decks" / "g" / "g.md"
    edit(book, "Each player holds three cards;", "Each player holds three cards :sun: :moon:;")
    text = "\n".join(pages(game))
    assert "three cards" in text and ":sun:" not in text and ":moon:" not in text
    data = (game / "output" / "rulebooks" / "g.pdf").read_bytes()
    assert len(re.findall(rb"/Subtype\s*/Form", data)) >= 2  # the two icons, drawn as shapes
    edit(book, ":sun:", ":sunn:")
    capsys.readouterr()
    assert main(["rulebook"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: decks/g/g.md:") and "unknown icon ':sunn:' (did you mean ':sun:'?)" in line


def test_the_edition_is_on_the_title_page(game):
    edit(game / "decks" / "g" / "g.rulebook.toml", "[rulebook]\n", '[rulebook]\nedition = "Second printing"\n')
    title = pages(game)[0]
    assert "Second printing" in title and "Aetherpress edition" not in title


def test_a_game_of_ones_own_credits_its_designer_once_and_retells_nothing(game):
    for file, table in (("g.toml", "deck"), ("g.game.toml", "game"), ("g.rulebook.toml", "rulebook")):
        with (game / "decks" / "g" / file).open("a", encoding="utf-8") as f:
            f.write(f'\n[{table}.credits]\ndesigner = "Ada Quill"\n')
    colophon = pages(game)[3]  # the title page's back
    assert colophon.count("Ada Quill") == 1
    assert "retold" not in colophon and "carry no date" not in colophon


def test_the_starter_book_counts_copies(game):
    cards = game / "decks" / "g" / "cards.csv"
    rows = cards.read_text().splitlines()
    rows = [rows[0] + ",copies"] + [row + (",2" if i == 0 else ",1") for i, row in enumerate(rows[1:])]
    cards.write_text("\n".join(rows) + "\n")
    text = "\n".join(pages(game))
    assert "The deck has 13 cards in 3 suits" in text


def test_the_starter_ranking_passes_its_own_audit_and_its_face_is_its_own(game, capsys):
    capsys.readouterr()
    assert main(["odds", "--audit"]) == 0
    out = capsys.readouterr().out
    assert "g / three / default:\n  nothing to report" in out and "lith" not in out
    face = (game / "templates" / "g.svg.j2").read_text().lower()
    assert "fivefold" not in face and "twofold" not in face


def test_a_hand_picture_is_fanned(game):
    """``hand:`` cards are turned about a point below them, each further than the last; a chart's example
    hands stay in a row."""
    from generator.rulebook.cardart import FAN_DEGREES, HandPicture

    edit(
        game / "decks" / "g" / "g.md", "![Dawn](card:g/dawn)", "![A hand](hand:g/dawn,noon,blaze,zenith)\n\n![Dawn](card:g/dawn)"
    )
    pages(game)
    reader = PdfReader(BytesIO((game / "output" / "rulebooks" / "g.pdf").read_bytes()))
    streams = b"".join(page.get_contents().get_data() for page in reader.pages if page.get_contents() is not None)
    turned = rb"\.983255 -?0?\.182236 -?0?\.182236 \.983255 [-.\d]+ [-.\d]+ cm"  # the outer cards: 1.5 x 7 degrees
    assert len(re.findall(turned, streams)) == 2
    from generator.definitions import load_all
    from generator.project import Project
    from generator.rulebook.cardart import CardLibrary

    project = Project(game)
    library = CardLibrary(project, load_all(project), ProjectContext(project).sides)
    deck = library.deck("g")
    arts = [library.art(deck, deck.card(c)) for c in ("dawn", "noon", "blaze", "zenith")]
    fanned, row = HandPicture(arts, 20.0, fan=True), HandPicture(arts, 20.0)
    assert fanned.angles == [-1.5 * FAN_DEGREES, -0.5 * FAN_DEGREES, 0.5 * FAN_DEGREES, 1.5 * FAN_DEGREES]
    width, height = fanned.wrap(1e6, 1e6)
    assert height > row.wrap(1e6, 1e6)[1]  # the outer cards turn up and out
    assert width < 4 * row.card_w
