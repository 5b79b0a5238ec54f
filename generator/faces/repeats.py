"""Repeats drawn out: gradients that repeat or reflect, and ``<pattern>`` fills, as plain SVG that prints the same.

A browser repeats a gradient with ``spreadMethod="repeat"`` (or mirrors it,
``"reflect"``) and tiles a ``<pattern>`` over the shape it fills.  A PDF
gradient only pads, and PDF readers disagree on where a pattern's tiles
start, so the drawn side spells the repeats out before anyone draws it:

* a repeating or reflecting gradient becomes a padded one whose stops hold
  every repeat across the shapes it paints (its vector stretched to reach
  past them);
* a shape filled with a pattern becomes the shape's stroke over its tiles,
  each tile a ``<use>`` of the pattern's content, clipped to the tile and
  the whole clipped to the shape.

The preview shows the side written out, so screen and print draw the same
SVG.  What cannot be written out (a pattern on text or inherited from a
group, a gradient whose focus lies outside its circle, more than
:data:`MAX_TILES` tiles or :data:`MAX_STOPS` stops) is left as it is, and
the template check (:mod:`.lint`) says it prints differently.

The write-out is one budget with the allow-list's: every gradient and fill is
planned first, and what they will draw (the stops, and each fill's tiles
times what a tile draws, once every ``<use>`` is followed) is added to what
the side draws already; a side that would then draw more than
:data:`~.sanitise.MAX_DRAWN` elements is refused (:class:`TooMuchToDraw`)
before anything is written.  References and their users are found once, in
one walk each, and the work runs within the template's deadline.
"""

from __future__ import annotations

from lxml import etree

from .sanitise import MAX_DRAWN, drawn_counter
from .spread import MAX_STOPS, GradientPlan, plan_gradients
from .svgrefs import paint_users, view_box
from .tiles import MAX_TILES, TileFill, plan_fills, write_fills

__all__ = ["MAX_STOPS", "MAX_TILES", "TooMuchToDraw", "needs_writing_out", "write_out"]

_PREFIX = "ap-repeat-"  # the ids this step makes (longer, should a template's own ids start so)
TOO_MUCH = (
    f"its patterns and repeating gradients, spelt out as tiles and stops to print as shown, would draw more than "
    f"{MAX_DRAWN:,} elements; use larger tiles or fewer repeats, or fill fewer shapes with them"
)


class TooMuchToDraw(Exception):
    """A side whose write-out would draw more than the allow-list lets a card draw, at the output line of the
    fill or gradient that goes past it."""

    def __init__(self, line: int | None):
        super().__init__(TOO_MUCH)
        self.line = line


def needs_writing_out(svg_text: str) -> bool:
    """Whether a drawn side may hold a repeat to write out (a cheap look before parsing)."""
    return "spreadMethod" in svg_text or "<pattern" in svg_text or ":pattern" in svg_text


def write_out(root: etree._Element) -> bool:
    """Write out the repeats of a parsed card SVG in place; whether anything changed.  Raises
    :class:`TooMuchToDraw` when the written-out side would draw too much (as planned, before anything is
    written; or, should the plan have missed it, as the allow-list counts the side written out)."""
    by_id = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    prefix = _PREFIX
    while any(str(ident).startswith(prefix) for ident in by_id):
        prefix += "x-"
    count = drawn_counter(root)
    gradients = plan_gradients(root, by_id, paint_users(root), view_box(root))
    fills, patterns = plan_fills(root, by_id, count)
    planned: list[GradientPlan | TileFill] = [*gradients, *fills]
    _within_budget(count(root), planned)
    for plan in gradients:
        plan.write()
    changed = write_fills(root, fills, patterns, prefix) or bool(gradients)
    if changed and drawn_counter(root)(root) > MAX_DRAWN:  # as the allow-list reads the side written out
        raise TooMuchToDraw(min((item.line or 0 for item in planned), default=None) or None)
    return changed


def _within_budget(drawn: int, planned: list[GradientPlan | TileFill]) -> None:
    """Raise :class:`TooMuchToDraw` at the first fill or gradient, in the order of the side, past which the side
    would draw more than MAX_DRAWN elements."""
    total = drawn
    for item in sorted(planned, key=lambda item: item.line or 0):
        total += item.drawn
        if total > MAX_DRAWN:
            raise TooMuchToDraw(item.line)
