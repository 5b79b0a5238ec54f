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
