"""Font subsets tagged from their own characters: random-looking, distinct, and the same for the same input."""

from __future__ import annotations

import io
import re

import pikepdf
from reportlab.pdfgen.canvas import Canvas

from generator.resources.fonts import register_fonts
from generator.resources.subsettags import subset_tag


def _pdf(*lines: str) -> bytes:
    register_fonts()
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1, initialFontName="EBGaramond-Regular")
    canvas.setFont("EBGaramond-Regular", 9)
    for i, line in enumerate(lines):
        canvas.drawString(72, 700 - 14 * i, line)
    canvas.setFont("Cinzel-Bold", 9)
    canvas.drawString(72, 500, lines[0])
    canvas.save()
    return out.getvalue()


def _names(pdf: bytes) -> list[str]:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return sorted(str(o.BaseFont)[1:] for o in doc.objects if isinstance(o, pikepdf.Dictionary) and "/BaseFont" in o)


def test_subset_tags_are_drawn_from_the_subset():
    # reportlab's first subset of a font always holds the ASCII characters: the others tell texts apart
    a, b = _names(_pdf("Founder’s Flip")), _names(_pdf("Fivefold — “rows”"))
    for name in a + b:
        assert re.fullmatch(r"[A-Z]{6}\+[A-Za-z0-9-]+", name), name
        assert not name.startswith("AAAAAA+"), name
    fonts = {"EBGaramond-Regular", "Cinzel-Bold"}
    assert {n.split("+")[1] for n in a} == {n.split("+")[1] for n in b} == fonts
    for font in fonts:  # each font's subset of the curly quotes and dashes differs, and so does its tag
        assert {n for n in a if n.endswith(font)} - set(b), font
    assert len({n.split("+")[0] for n in a}) == len(a)  # no two subsets share a tag
    assert _names(_pdf("Four of a Kind")) == _names(_pdf("Two Pair"))  # ASCII only: the same subsets, the same tags


def test_the_same_text_gives_the_same_bytes():
    assert _pdf("The Imperial", "beats every hand") == _pdf("The Imperial", "beats every hand")


def test_tag_is_six_letters_of_a_digest():
    assert subset_tag("Cinzel-Bold", [65, 66]) == subset_tag("Cinzel-Bold", [65, 66])
    assert subset_tag("Cinzel-Bold", [65, 66]) != subset_tag("Cinzel-Bold", [66, 65])
    assert re.fullmatch(r"[A-Z]{6}", subset_tag("x", []))
