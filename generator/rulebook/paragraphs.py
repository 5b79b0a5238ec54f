"""Paragraphs that break into lines the same way however often they are laid out.

reportlab's ``Paragraph.breakLines`` replaces the paragraph's fragments with the
words it has split (hyphenated, or broken at a hyphen of the text), so breaking
it again starts from those: a word once broken at its own hyphen comes back
without it ("Attribution-NonCommercial" set as "AttributionNonCommercial").
Here every breaking starts from the fragments as given, and the lines for a
width are kept: a book is laid out twice (the sketch that finds its contents,
then the drawn pass), and a table wraps its cells many times over.
"""

from __future__ import annotations

from typing import Any

from reportlab.platypus import paragraph


class Paragraph(paragraph.Paragraph):
    def breakLines(self, width: Any) -> Any:
        state = self.__dict__  # reportlab's attributes, untyped
        given = state.setdefault("_given_frags", state["frags"])
        broken: dict[tuple, tuple] = state.setdefault("_broken_lines", {})
        key = tuple(width) if isinstance(width, (list, tuple)) else (width,)
        if key not in broken:
            state["frags"] = given
            lines = super().breakLines(width)
            broken[key] = (lines, state["frags"], state["_width_max"])
        lines, state["frags"], state["_width_max"] = broken[key]
        return lines
