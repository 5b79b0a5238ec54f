"""Suits a colour-blind player can tell apart: by colour under simulation, and by shape alone.

Colour: every two different suit colours of a deck stay at least
:data:`MIN_DELTA_E` apart in CIEDE2000, for normal vision and for full
protanopia, deuteranopia and tritanopia as simulated by Machado, Oliveira and
Fernandes (2009, severity 1.0), and for tritanopia once more by Brettel,
Viénot and Mollon (1997), the model usually preferred for tritans.  15 is
well past "noticeably different" (about 2): two marks that far apart are
told apart at a glance, at the size of a corner index.

Shape: every two suit symbols of a deck, drawn black on white through the
print path, differ in at least :data:`MIN_SHAPE_DIFFERENCE` of their combined
area (1 - intersection / union), also when either is turned half round, as
the pips in the lower half of a card are (an upturned Shield read as a
House; a Fire pip was a Water drop).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from coloraide import Color

from generator.art.symbols import SYMBOLS, symbol_svg
from generator.pipeline.build import all_targets
from generator.render.pagepng import render_pages
from generator.render.vector import side_pdf

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

MIN_DELTA_E = 15.0
MIN_SHAPE_DIFFERENCE = 0.25
VISION = [
    ("normal vision", None, None),
    ("protanopia", "protan", "machado"),
    ("deuteranopia", "deutan", "machado"),
    ("tritanopia", "tritan", "machado"),
    ("tritanopia (Brettel)", "tritan", "brettel"),
]


def seen(colour: str, kind: str | None, method: str | None) -> Color:
    c = Color(colour)
    return c if kind is None else c.filter(kind, method=method).clip()


def closest_pair(colours: dict[str, str], kind: str | None, method: str | None) -> tuple[float, str, str]:
    s = {name: seen(c, kind, method) for name, c in colours.items()}
    return min((s[a].delta_e(s[b], method="2000"), a, b) for a, b in itertools.combinations(colours, 2))


@pytest.fixture(scope="module")
def decks(definitions):
    return [t.deck for t in all_targets(definitions)]


def test_suit_colours_stay_apart_for_colour_blind_players(decks):
    measured = {}
    for deck in decks:
        by_colour: dict[str, str] = {}
        for suit in deck.suits:
            by_colour.setdefault(suit.colour.lower(), suit.id)
        if len(deck.suits) < 2:  # the spells have no suits
            continue
        if len(by_colour) == 1:  # the colourless Pernese deck: one ink, told apart by shape alone
            assert deck.style.get("monochrome"), deck.key
            continue
        colours = {name: colour for colour, name in by_colour.items()}
        for label, kind, method in VISION:
            distance, a, b = closest_pair(colours, kind, method)
            measured[(deck.key, label)] = distance
            assert distance >= MIN_DELTA_E, f"{deck.key}: {a} and {b} are {distance:.1f} apart in {label}"
    assert {key for key, _ in measured} >= {
        "imperial:standard",
        "decktet:extended",
        "dragons-gambit",
        "pernese:coloured",
        "standard",
    }


def test_the_measure_finds_the_colours_that_collapsed():
    """The palettes the review rejected fail here: the test can tell."""
    old_gambit = {"earth": "#6b5a2b", "fire": "#b8321e", "water": "#1f5c99", "wood": "#2e6b34", "air": "#5d7286"}
    assert closest_pair(old_gambit, "deutan", "machado")[0] < 5
    old_imperial = {"houses": "#8e1b1b", "armies": "#2f5a2f", "glyphs": "#23407a", "sails": "#9a6a12"}
    assert set(closest_pair(old_imperial, "deutan", "machado")[1:]) == {"armies", "houses"}


def _mask(name: str, turn: float = 0.0, px: int = 96) -> np.ndarray:
    """A symbol (by name, or path data in the unit box) black on white, 18 mm across."""
    if name in SYMBOLS:
        shape = symbol_svg(name, 10, 10, 18, "#000000", rotate=turn)
    else:
        shape = f'<path transform="translate(10 10) rotate({turn}) scale(9)" fill-rule="evenodd" d="{name}"/>'
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm" viewBox="0 0 20 20">'
        f'<rect width="20" height="20" fill="#ffffff"/>{shape}</svg>'
    )
    pdf = side_pdf(svg, "symbol")
    return np.asarray(next(render_pages(pdf, (px, px))).convert("L")) < 128


def shape_difference(a: str, b: str) -> float:
    """The smallest 1 - IoU of the two silhouettes, either one turned half round."""
    pairs = [(_mask(a), _mask(b)), (_mask(a, 180), _mask(b)), (_mask(a), _mask(b, 180))]
    return min(1 - (x & y).sum() / (x | y).sum() for x, y in pairs)


def test_suits_are_told_apart_by_shape_alone(decks):
    symbols_by_deck = {deck.id: sorted({s.symbol for s in deck.suits}) for deck in decks}
    assert all(len(names) == len(deck.suits) for deck in decks for names in [symbols_by_deck[deck.id]])
    for deck_id, names in symbols_by_deck.items():
        for a, b in itertools.combinations(names, 2):
            difference = shape_difference(a, b)
            assert difference >= MIN_SHAPE_DIFFERENCE, f"{deck_id}: {a} and {b} differ in only {difference:.0%}"


# the symbols the review found confusing, as they were drawn before
OLD_HOUSE = "M0,-1 L0.95,-0.15 L0.7,-0.15 L0.7,0.95 L-0.7,0.95 L-0.7,-0.15 L-0.95,-0.15 Z"
OLD_SHIELD = "M-0.85,-0.95 L0.85,-0.95 L0.85,0.05 C0.85,0.55 0.4,0.8 0,1 C-0.4,0.8 -0.85,0.55 -0.85,0.05 Z"
OLD_FIRE = (
    "M0,-1 C0.2,-0.5 0.85,-0.2 0.75,0.35 C0.7,0.8 0.35,1 0,1 C-0.35,1 -0.7,0.8 -0.75,0.35 "
    "C-0.8,-0.05 -0.35,-0.2 -0.3,-0.55 C-0.05,-0.35 0,-0.6 0,-1 Z"
)
OLD_WATER = (
    "M0,-1 C0.3,-0.5 0.75,-0.05 0.75,0.35 C0.75,0.75 0.4,1 0,1 C-0.4,1 -0.75,0.75 -0.75,0.35 C-0.75,-0.05 -0.3,-0.5 0,-1 Z"
)


def test_the_shape_measure_finds_the_look_alikes_the_review_found():
    assert shape_difference("leaf", "leaf") == 0
    assert shape_difference(OLD_HOUSE, OLD_SHIELD) < MIN_SHAPE_DIFFERENCE  # an upturned Shield reads as a House
    assert shape_difference(OLD_FIRE, OLD_WATER) < MIN_SHAPE_DIFFERENCE  # both drops
    assert shape_difference("house", "shield") >= MIN_SHAPE_DIFFERENCE
    assert shape_difference("fire", "water") >= MIN_SHAPE_DIFFERENCE
