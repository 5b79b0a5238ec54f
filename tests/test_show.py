"""``aetherpress show``: pictures of a game from its printed cards (a hand, a spread, a showcase, the box)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from generator.cli import main
from generator.cli.show import best_hand, picture_size
from generator.errors import AetherpressError
from generator.outputs.cardpictures import card_height, card_pictures
from generator.outputs.showpictures import MARGIN, fan_layout, fan_placements, grid_columns, perspective
from generator.pipeline.context import ProjectContext
from generator.project import Project

ROOT = Path(__file__).resolve().parents[1]


def test_sizes_are_the_presets_or_pixels_or_lengths_at_the_dpi():
    assert picture_size("banner", 144) == (1920, 1080)
    assert picture_size("social", 144) == (1200, 630)
    assert picture_size("square", 144) == (1080, 1080)
    assert picture_size("800x600", 72) == (800, 600)
    assert picture_size("150x100mm", 300) == (1772, 1181)
    assert picture_size("6x4in", 200) == (1200, 800)
    for bad in ("huge", "10x10", "100000x100000", "12x"):
        with pytest.raises(AetherpressError):
            picture_size(bad, 144)


def test_perspective_takes_each_corner_where_it_is_asked():
    source = ((0, 0), (100, 0), (100, 140), (0, 140))
    target = ((10, 20), (90, 35), (95, 150), (5, 170))
    a, b, c, d, e, f, g, h = perspective(source, target)
    for (x, y), (u, v) in zip(target, source):  # Pillow's map runs from the picture made back to the one drawn
        w = g * x + h * y + 1
        assert (a * x + b * y + c) / w == pytest.approx(u, abs=1e-6)
        assert (d * x + e * y + f) / w == pytest.approx(v, abs=1e-6)


def test_a_hand_is_fanned_symmetrically_left_to_right():
    layout = fan_layout(5, 1.4)
    angles = [a for _, _, a in layout]
    assert angles == sorted(angles) and angles[2] == 0 and angles[0] == -angles[4] < 0
    assert [x for x, _, _ in layout] == sorted(x for x, _, _ in layout)
    assert layout[0][1] == pytest.approx(layout[4][1]) and layout[0][1] > layout[2][1]  # the outer cards lower


def test_a_spread_takes_the_columns_that_show_the_cards_largest():
    assert grid_columns(1, 1.4, (1000, 1000)) == 1
    # 52 cards on a banner: 11 or 12 columns in 5 rows both make a card 147 px wide (the rows' height limits
    # it), 13 columns in 4 rows 137 px (the width does): the fewer columns, with the fewer empty places
    assert grid_columns(52, 1.4, (1920, 1080)) == 11
    assert grid_columns(10, 1.4, (2000, 300)) == 10  # a strip: one row


def test_the_best_hand_is_the_top_category_the_ranking_deals():
    context = ProjectContext(Project(ROOT))
    for key in ("standard", "imperial", "decktet"):
        deck = context.deck(key)
        hand = [c.id for c in best_hand(context, deck)]
        game = next(g for g in context.games.values() if g.deck_id == deck.id and g.rankings)
        engine = context.hands.evaluator(game.id)
        assert engine.evaluate(hand).category == engine.order[0], key  # the ranking's best, as counted
        assert len(hand) == engine.ranking.hand_size
    gambit = context.deck("dragons-gambit")  # a game of rows ranks no hands: the first cards
    assert best_hand(context, gambit) == list(gambit.cards[:5])


def _show(tmp_path: Path, *args: str) -> Image.Image:
    out = tmp_path / "picture.png"
    assert main(["show", *args, "--out", str(out)]) == 0
    return Image.open(out)


@pytest.mark.slow
def test_the_fanned_cards_are_the_printed_sides(tmp_path):
    """The middle card of a hand of three stands upright: what shows of it is the card's drawn side as the print
    files draw it, pixel for pixel."""
    context = ProjectContext(Project(ROOT))
    deck = context.deck("standard")
    sides = context.sides(deck)
    cards = ["5-hearts", "king-spades", "ace-clubs"]
    size = (900, 600)
    picture = _show(tmp_path, "hand", "standard", *cards, "--size", "900x600", "--transparent")
    assert picture.size == size and picture.mode == "RGBA"
    assert picture.getpixel((0, 0))[3] == 0  # transparent where no card is
    width, placements = fan_placements(3, card_height(sides, 1000) / 1000, size)
    cx, cy, angle = placements[1]
    assert angle == 0
    (card,) = card_pictures(context, sides, [(deck.card(cards[1]), "front")], width)
    left, top = round(cx - card.width / 2), round(cy - card.height / 2)
    shown = np.asarray(picture)[top : top + card.height, left : left + width // 5]  # its left fifth: not covered
    printed = np.asarray(card)[:, : width // 5]
    opaque = printed[:, :, 3] == 255
    assert opaque.sum() > 0.9 * opaque.size
    assert np.array_equal(shown[opaque], printed[opaque])
    other = card_pictures(context, sides, [(deck.card(cards[0]), "front")], width)[0]
    assert not np.array_equal(shown[opaque], np.asarray(other)[:, : width // 5][opaque])  # another card would differ


@pytest.mark.slow
def test_pictures_fill_the_size_on_their_ground_and_the_same_inputs_give_the_same_bytes(tmp_path):
    first = tmp_path / "a.webp"
    assert main(["show", "showcase", "pernese", "--size", "640x360", "--ground", "#203040", "--out", str(first)]) == 0
    again = tmp_path / "b.webp"
    assert main(["show", "showcase", "pernese", "--size", "640x360", "--ground", "#203040", "--out", str(again)]) == 0
    assert first.read_bytes() == again.read_bytes()
    picture = Image.open(first)
    assert picture.format == "WEBP" and picture.size == (640, 360)
    r, g, b = picture.convert("RGB").getpixel((3, 3))
    assert abs(r - 0x20) < 4 and abs(g - 0x30) < 4 and abs(b - 0x40) < 4
    spread = _show(tmp_path, "spread", "standard", "--size", "square", "--dpi", "300")
    assert spread.size == (1080, 1080) and spread.mode == "RGB" and spread.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    inner = int(MARGIN * 1080) - 4  # the margin is kept clear: nothing but ground there
    band = np.asarray(spread)[:inner]
    assert (np.abs(band.astype(int) - np.asarray(spread)[1, 1].astype(int)).max()) < 3


def test_the_box_shot_is_the_box_print_file_folded(tmp_path):
    picture = _show(tmp_path, "box", "imperial", "--size", "800x600", "--transparent")
    assert picture.size == (800, 600) and picture.getpixel((0, 0))[3] == 0
    alpha = np.asarray(picture)[:, :, 3]
    assert alpha[300, 400] == 255  # the box stands in the middle
    rgb = np.asarray(picture.convert("RGB")).astype(int)
    front = rgb[alpha == 255]
    assert front[:, 0].mean() > front[:, 2].mean() + 20  # the Imperial box is its back's deep red


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["hand", "standard", "joker"], "deck 'standard' has no card 'joker'"),
        (["hand", "nodeck"], "unknown deck 'nodeck'"),
        (["spread", "standard", "--ground", "chartreuse-ish"], "--ground 'chartreuse-ish' is not a colour"),
        (["showcase", "standard", "--size", "3x3"], "each side at least 64 px"),
        (["box", "standard", "ace-spades"], "show box takes no cards"),
        (["hand", "standard", "--out", "x.gif"], "name a .png or .webp file"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, capsys, args, says):
    out = [a if a != "x.gif" else str(tmp_path / "x.gif") for a in args]
    if "--out" not in out:
        out += ["--out", str(tmp_path / "p.png")]
    assert main(["show", *out]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_card_picture_is_its_trim_with_rounded_corners():
    context = ProjectContext(Project(ROOT))
    deck = context.deck("imperial")
    sides = context.sides(deck)
    (face,) = card_pictures(context, sides, [(deck.cards[0], "front")], 200)
    assert face.size == (200, card_height(sides, 200))
    assert face.getpixel((0, 0))[3] == 0 and face.getpixel((100, 100))[3] == 255
