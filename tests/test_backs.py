"""Backs that look the same turned half round, in every deck and variant: render, rotate, compare."""

from __future__ import annotations

import numpy as np
import pytest

from generator.pipeline.build import all_targets

from .cardimages import backs

DPI = 150.0
LEVELS = 48  # a pixel that changes by more than this (of 255) in some channel has visibly changed
MAX_CHANGED = 0.002  # the share of such pixels allowed (anti-aliasing along edges)


def changed_when_turned(image: np.ndarray) -> float:
    """The share of pixels that visibly change when the card is turned half round."""
    turned = image[::-1, ::-1]
    return float((np.abs(image - turned).max(axis=2) > LEVELS).mean())


@pytest.fixture(scope="module")
def every_back(project, definitions):
    out = {}
    for target in all_targets(definitions):
        for name, image in backs(project, target.deck, DPI).items():
            out[f"{target.deck.key} {name}"] = image
    return out


def test_every_back_looks_the_same_turned_half_round(every_back):
    assert len(every_back) >= 14
    changed = {key: round(changed_when_turned(image), 4) for key, image in every_back.items()}
    assert {k: v for k, v in changed.items() if v > MAX_CHANGED} == {}


def test_the_comparison_sees_a_back_that_is_not_symmetric(every_back):
    image = next(iter(every_back.values())).copy()
    h, w = image.shape[:2]
    image[h // 10 : h // 5, w // 3 : 2 * w // 3] = 0  # a dark bar near the top only
    assert changed_when_turned(image) > 10 * MAX_CHANGED


def test_every_back_shows_the_same_inside_its_trim_whatever_its_bleed(project, definitions):
    """The build draws a back with its style's bleed (3 mm), the print shops with theirs (1/8 in): what is inside the
    trim is the same, so the back a shop prints is the back the preview shows (stars scattered over the side with
    its bleed would move)."""
    seen = set()
    for target in all_targets(definitions):
        deck = target.deck
        if deck.id in seen:
            continue
        seen.add(deck.id)
        preview, shop = backs(project, deck, DPI, 3.0), backs(project, deck, DPI, 3.175)
        for name in preview:
            moved = float((np.abs(preview[name] - shop[name]).max(axis=2) > LEVELS).mean())
            assert moved < MAX_CHANGED, (deck.key, name, moved)
    assert len(seen) >= 5
