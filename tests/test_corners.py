"""Every card identifiable from its corner, in every deck and variant, in colour and in grey.

A fanned hand shows each card's top-left corner (and, held the other way up,
its bottom-right one).  The test cuts that corner, 13 x 24 mm from the trim
corner, out of every face rendered at 100 dpi and checks that it is not
blank and that any two cards a player must tell apart (a different rank,
suits or name) show different corners, also in greyscale.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from generator.faces.render import FaceRenderer
from generator.faces.svg import parse_svg
from generator.pipeline.build import all_targets

from .cardimages import crop_mm, faces, grey

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

DPI = 100.0
CORNER = (0.0, 0.0, 13.0, 24.0)  # mm from the top-left trim corner: what a fan leaves in sight
INK = 60  # grey levels from the corner's own background that count as something drawn
MIN_INK_PX = 60  # at 100 dpi, about 4 mm² of ink
MIN_DIFFERENT_PX = 25  # pixels that must differ between two cards' corners (about 1.6 mm²)


@pytest.fixture(scope="module")
def corners(project, definitions):
    """deck key -> {card id: (colour corner, grey corner, bottom-right corner turned upright)}."""
    out = {}
    for target in all_targets(definitions):
        deck = target.deck
        out[deck.key] = (deck, {})
        for card_id, image in faces(project, deck, DPI).items():
            corner = crop_mm(image, DPI, *CORNER)
            turned = crop_mm(image[::-1, ::-1], DPI, *CORNER)
            out[deck.key][1][card_id] = (corner, grey(corner), grey(turned))
    return out


def _identity(deck, card_id):
    card = deck.card(card_id)
    return (card.rank, tuple(sorted(card.suits)), card.name)


def test_no_corner_is_blank(corners):
    blank = []
    for key, (_, cards) in corners.items():
        for card_id, (_, g, turned) in cards.items():
            for part in (g, turned):
                background = np.median(part)
                if (np.abs(part - background) > INK).sum() < MIN_INK_PX:
                    blank.append(f"{key}/{card_id}")
    assert blank == []


def test_different_cards_show_different_corners_in_colour_and_in_grey(corners):
    same = []
    pairs = 0
    for key, (deck, cards) in corners.items():
        for a, b in itertools.combinations(cards, 2):
            if _identity(deck, a) == _identity(deck, b):  # the two Eggs: the same card twice
                continue
            pairs += 1
            colour = (np.abs(cards[a][0] - cards[b][0]).max(axis=2) > INK).sum()
            greys = (np.abs(cards[a][1] - cards[b][1]) > INK).sum()
            if min(colour, greys) < MIN_DIFFERENT_PX:
                same.append(f"{key}: {a} / {b} ({colour} px in colour, {greys} in grey)")
    assert pairs > 5000
    assert same == []


def test_the_founding_cards_eggs_and_excuse_have_corner_marks(corners):
    """The review found these corners blank; each now carries a mark both ways up."""
    for key, card_id in [
        ("imperial:standard", "magist"),
        ("imperial:academy", "emperor"),
        ("pernese:coloured", "egg-1"),
        ("decktet:extended", "the-excuse"),
    ]:
        _, g, turned = corners[key][1][card_id]
        assert (np.abs(g - np.median(g)) > INK).sum() >= MIN_INK_PX * 3, (key, card_id)
        assert np.abs(g - turned).mean() < 2.0, (key, card_id)  # the bottom-right corner shows the same


def _corner_texts(svg: str, limit_x: float, limit_y: float) -> list[str]:
    """Texts whose first baseline lies in the top-left corner (mm from the bleed corner)."""
    found = []
    for text in parse_svg(svg, "face").iter("{http://www.w3.org/2000/svg}text"):
        if (
            float(text.get("x")) < limit_x
            and float(text.get("y")) < limit_y
            and not re.search(r"rotate", str(text.getparent().get("transform")))
        ):
            found.append("".join(text.itertext()))
    return found


def test_labelled_founding_cards_print_name_and_rank_in_the_corners(project, definitions):
    deck = definitions["imperial"].build(("academy", "labelled"))
    renderer = FaceRenderer(project, deck)
    bleed = renderer.geometry.bleed
    for card in (c for c in deck.cards if c.group == "founding"):
        words = " ".join(_corner_texts(renderer.face(card), bleed + CORNER[2], bleed + CORNER[3]))
        assert deck.rank(card.rank).label in words, card.id
        assert card.name.split()[-1].upper() in words.upper(), (card.id, words)
    plain = definitions["imperial"].build(("academy",))
    assert _corner_texts(FaceRenderer(project, plain).face(plain.card("mage")), 99, 99) == []


def test_each_spell_has_an_icon_of_its_own(definitions):
    """Twenty-three spells, twenty-three icons: the review found eight sigils shared among them."""
    from generator.art.symbols import SYMBOLS, symbol_path

    deck = definitions["aetherial"].build(())
    icons = {card.id: deck.style["sigils"][card.id] for card in deck.cards}
    assert len(icons) == len(set(icons.values())) == 23
    assert all(icon in SYMBOLS for icon in icons.values())
    assert len({symbol_path(icon) for icon in icons.values()}) == 23
