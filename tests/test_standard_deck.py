"""The standard 52-card deck as a built-in example should be: pips laid out as on playing cards, courts."""

from __future__ import annotations

import numpy as np
import pytest

from .cardimages import crop_mm, faces, grey

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

DPI = 100.0


def _blobs(mask: np.ndarray) -> int:
    """How many separate shapes (4-connected) a mask holds."""
    seen = np.zeros_like(mask, dtype=bool)
    count = 0
    for y, x in zip(*np.nonzero(mask), strict=True):
        if seen[y, x]:
            continue
        count += 1
        stack = [(y, x)]
        seen[y, x] = True
        while stack:
            cy, cx = stack.pop()
            for ny, nx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
                if 0 <= ny < mask.shape[0] and 0 <= nx < mask.shape[1] and mask[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    stack.append((ny, nx))
    return count


@pytest.fixture(scope="module")
def spades(project, definitions):
    deck = definitions["standard"].build(())
    return {card_id: image for card_id, image in faces(project, deck, DPI).items() if card_id.endswith("-spades")}


def test_number_cards_show_as_many_pips_as_their_rank(spades):
    for n in range(2, 11):
        # the middle of the card, between the index columns: only the pips are drawn there
        middle = crop_mm(spades[f"{n}-spades"], DPI, 12.5, 3.0, 38.5, 82.9)
        assert _blobs(grey(middle) < 100) == n, n


def test_the_ace_has_one_large_pip_and_the_courts_a_drawn_panel(spades):
    ace = crop_mm(spades["ace-spades"], DPI, 12.5, 3.0, 38.5, 82.9)
    dark = grey(ace) < 100
    assert dark.sum() / DPI**2 * 25.4**2 > 150  # mm² of ink: the Ace's pip is large
    for court in ("jack", "queen", "king"):
        middle = crop_mm(spades[f"{court}-spades"], DPI, 14.0, 6.0, 35.5, 76.9)
        tinted = (np.abs(middle - np.array([0xF6, 0xEF, 0xDC])).max(axis=2) < 8).mean()
        assert tinted > 0.25, court  # the court's panel
        # drawn two-way: the panel looks the same turned half round
        assert np.abs(middle - middle[::-1, ::-1]).max(axis=2).mean() < 12, court
    assert np.abs(spades["king-spades"] - spades["queen-spades"]).max(axis=2).mean() > 1.0
