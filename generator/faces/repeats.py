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
"""

from __future__ import annotations

from lxml import etree

from .spread import MAX_STOPS, write_out_gradients
from .svgrefs import view_box
from .tiles import MAX_TILES, write_out_patterns

__all__ = ["MAX_STOPS", "MAX_TILES", "needs_writing_out", "write_out"]

_PREFIX = "ap-repeat-"  # the ids this step makes (longer, should a template's own ids start so)


def needs_writing_out(svg_text: str) -> bool:
    """Whether a drawn side may hold a repeat to write out (a cheap look before parsing)."""
    return "spreadMethod" in svg_text or "<pattern" in svg_text or ":pattern" in svg_text


def write_out(root: etree._Element) -> bool:
    """Write out the repeats of a parsed card SVG in place; whether anything changed."""
    by_id = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    prefix = _PREFIX
    while any(str(ident).startswith(prefix) for ident in by_id):
        prefix += "x-"
    changed = write_out_gradients(root, by_id, view_box(root))
    changed = write_out_patterns(root, by_id, prefix) or changed
    return changed
