"""Facts declared once: style defaults from the declared style keys, numbers and pixels from units.py."""

from __future__ import annotations

import pytest

from generator.definitions.styles import STYLE_KEYS, style_value
from generator.faces.render import geometry
from generator.units import MM_PER_INCH, decimal, format_mm, pixels


def test_a_style_without_a_key_reads_its_declared_default(definitions):
    deck = definitions["standard"].build(())
    bare = geometry(deck, style={})
    assert (bare.bleed, bare.safe, bare.radius) == tuple(STYLE_KEYS[key].default for key in ("bleed", "safe", "corner_radius"))
    assert style_value({}, "ink") == STYLE_KEYS["ink"].default
    assert style_value({"ink": "#000000"}, "ink") == "#000000"


def test_a_deck_style_holds_every_declared_key(definitions):
    for definition in definitions.values():
        assert set(STYLE_KEYS) <= set(definition.build(()).style)


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [(63.5, 3, "63.5"), (3.0, 3, "3"), (-0.0001, 3, "0"), (0.125, 2, "0.12"), (1 / 3, 6, "0.333333"), (-2.5, 4, "-2.5")],
)
def test_decimal(value, places, text):
    assert decimal(value, places) == text


def test_format_mm_is_decimal_until_absurd():
    assert format_mm(0.125) == decimal(0.125, 2) == "0.12"
    assert format_mm(1e24) == "1e+24"


def test_pixels_round_half_up_at_the_inch():
    assert pixels(2.75 * MM_PER_INCH, 300) == 825
    assert pixels(MM_PER_INCH / 600 * 2.5, 600) == 3  # exactly 2.5 px: up, not to even
