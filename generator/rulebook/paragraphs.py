"""Paragraphs that break into lines the same way however often they are laid out.

reportlab's ``Paragraph.breakLines`` replaces the paragraph's fragments with the
words it has split (hyphenated, or broken at a hyphen of the text), so breaking
it again starts from those: a word once broken at its own hyphen comes back
without it ("Attribution-NonCommercial" set as "AttributionNonCommercial").
Here every breaking starts from the fragments as given, and the lines for a
width are kept: a book is laid out twice (the sketch that finds its contents,
then the drawn pass), and a table wraps its cells many times over.

Straight quotes are set as typographers' quotes, whether the text came from
the rulebook's source or from a deck's or a game's data: ‘ ’ “ ” and the
apostrophe ’, chosen by the character before (across bold and italic too).
"""

from __future__ import annotations

from typing import Any

from reportlab.platypus import paragraph

from .inlineicons import drawing_icons, place_icons
from .scripts import split_frags, visual_order

_OPENS_AFTER = " \t\n([{\u2014\u2013/“‘-"  # a quote after these (or at the start) opens; any other closes


def curl(text: str, before: str = " ") -> str:
    """``text`` with straight quotes curled; ``before`` is the character that precedes it."""
    out = []
    for char in text:
        if char == "'":
            char = "‘" if before in _OPENS_AFTER else "’"
        elif char == '"':
            char = "“" if before in _OPENS_AFTER else "”"
        out.append(char)
        before = char
    return "".join(out)


class Paragraph(paragraph.Paragraph):
    def __init__(self, text: Any, style: Any = None, *args: Any, **kwargs: Any):
        super().__init__(text, style, *args, **kwargs)
        self._icons = False
        self._base = 1 if getattr(self.__dict__.get("style"), "rightToLeft", False) else 0
        if text is None and kwargs.get("frags") is not None:
            return  # a part of a paragraph split over pages: its fragments are made already (see split)
        before = " "
        for frag in self.__dict__.get("frags") or ():
            piece = getattr(frag, "text", None)
            if isinstance(piece, str) and piece:
                if "'" in piece or '"' in piece:
                    frag.text = curl(piece, before)
                before = frag.text[-1]
        self._icons = place_icons(self.__dict__.get("frags"))
        frags = self.__dict__.get("frags")
        if frags:
            self.frags, rtl = split_frags(frags)
            given: Any = self.__dict__["style"]
            if rtl or self._base:
                self.style = given.clone(given.name, shaping=1)

    def draw(self) -> None:
        if not self._icons:
            return self._draw_lines()
        with drawing_icons(self.canv):
            return self._draw_lines()

    def _draw_lines(self) -> None:
        """Draw the broken lines; a shaped paragraph's lines in the order their words are drawn, for this drawing
        only (a paragraph split over pages is made again from its lines in reading order)."""
        lines = [line for line in getattr(self.__dict__.get("blPara"), "lines", ()) if hasattr(line, "words")]
        if not self.style.shaping or not lines:
            return super().draw()
        kept = [line.words for line in lines]
        for line in lines:
            visual_order(line, self._base)
        try:
            return super().draw()
        finally:
            for line, words in zip(lines, kept):
                line.words = words

    def split(self, availWidth: Any, availHeight: Any) -> Any:
        """reportlab's split, the part after the break handed the lines it was already broken into: otherwise each
        page of a long paragraph would break (and shape, and order) all the rest of it again."""
        parts = super().split(availWidth, availHeight)
        for part in parts:
            if part is not self and isinstance(part, Paragraph):
                part._icons = self._icons  # placed already: each part draws them as the whole would
        if len(parts) == 2 and isinstance(parts[0], Paragraph) and isinstance(parts[1], Paragraph):
            _hand_on(self.__dict__, *parts)
        return parts

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


def _hand_on(whole: dict[str, Any], first: Paragraph, rest: Paragraph) -> None:
    """Give the two parts of a paragraph split over pages (``whole``, its state) the lines it was broken into:
    ``first`` its first lines, for the widths ``whole`` was broken for (it is laid out again at them); ``rest``
    the others, for the width its later lines have, which is the width ``rest`` is broken for on a page as wide
    (its first line no longer indented).  A shaped paragraph's lines say where they start among the
    paragraph's shaped words: ``rest`` keeps all of those words, so no line is copied to say it anew."""
    widths = whole.get("_wrapWidths")
    broken = whole.get("blPara")
    if not widths or broken is None or broken.kind not in (0, 1):
        return
    kept, most = len(first.blPara.lines), whole.get("_width_max", 0)
    first.__dict__["_broken_lines"] = {tuple(widths): (broken.clone(lines=broken.lines[:kept]), first.__dict__["frags"], most)}
    frags = whole["frags"] if broken.kind == 1 else rest.__dict__["frags"]
    rest.__dict__["_broken_lines"] = {(widths[-1], widths[-1]): (broken.clone(lines=broken.lines[kept:]), frags, most)}
