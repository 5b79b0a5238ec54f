"""The cut check: nothing but background and bleed art within 3 mm of the trim.

Guillotines and die cutters are commonly off by a millimetre or two.  A frame
drawn 2 mm inside the trim then comes out 0.5 mm from one edge and 3.5 mm from
the other, and every player sees it.  So on every face and back, each drawn
element must either stay at least :data:`CUT_TOLERANCE` inside the trim, or
run out past the trim into the bleed (a background field, a border colour, a
pattern the cut goes through): then a shifted cut moves the edge of the card
over the art, and nothing the eye measures changes.

The test is made per side of the trim on each element's bounding box (its
stroke included, every transform applied), so a band running off the left
edge may still not stop 1 mm short of the top one.  Texts are checked with
the boxes their glyphs cover, as the text fitter measured them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..geometry import Box
from .outline import element_boxes

CUT_TOLERANCE = 3.0  # mm: how far a cut may wander
EPSILON = 0.005  # mm: rounding of coordinates written with three decimals


@dataclass(frozen=True)
class _NearCut:
    """An element that stops within the cut tolerance of the trim on one side."""

    what: str  # "<rect>", "text 'name'"
    side: str  # left, top, right, bottom
    distance: float  # mm inside the trim (0 on the trim line)
    line: int | None = None

    @property
    def message(self) -> str:
        return (
            f"{self.what} stops {self.distance:.1f} mm inside the trim at the {self.side}, within the "
            f"{CUT_TOLERANCE:g} mm a cut may wander: keep it {CUT_TOLERANCE:g} mm inside the trim "
            "or run it out into the bleed"
        )


def near_cut(box: Box, trim: Box, what: str, line: int | None = None) -> list[_NearCut]:
    """The sides on which ``box`` stops within the tolerance inside ``trim`` without crossing it."""
    inside = {
        "left": box.x - trim.x,
        "top": box.y - trim.y,
        "right": trim.right - box.right,
        "bottom": trim.bottom - box.bottom,
    }
    return [_NearCut(what, side, max(d, 0.0), line) for side, d in inside.items() if -EPSILON < d < CUT_TOLERANCE - EPSILON]


def check_cut(svg_text: str, trim: Box, texts: Iterable[tuple[str, Box]] = ()) -> list[_NearCut]:
    """Every element and text of one drawn card that stops within the cut tolerance of ``trim``."""
    found: list[_NearCut] = []
    for tag, box in element_boxes(svg_text):
        found += near_cut(box, trim, tag)
    for field, box in texts:
        found += near_cut(box, trim, f"text '{field}'")
    return found
