"""A print file's pages as inks: the pages asked for, in the order asked, each drawn once."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfgen import canvas

from generator.render.inks import InkJob, ghostscript, ink_pages

pytestmark = pytest.mark.skipif(ghostscript() is None, reason="needs Ghostscript")

COLOURS = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)]  # each page a colour of its own


def _pages() -> bytes:
    buffer = io.BytesIO()
    drawing = canvas.Canvas(buffer, pagesize=(72, 72))
    for colour in COLOURS:
        drawing.setFillColorRGB(*colour)
        drawing.rect(0, 0, 72, 72, fill=1, stroke=0)
        drawing.showPage()
    drawing.save()
    return buffer.getvalue()


def _rgb(picture) -> tuple[int, int, int]:
    r, g, b = picture.convert("RGB").getpixel((4, 4))
    return round(r / 255), round(g / 255), round(b / 255)


def test_pages_come_in_the_order_asked_and_a_page_asked_twice_is_drawn_once():
    asked = [3, 1, 3, 4]
    job = InkJob(_pages(), asked, (8, 8))
    assert job.drawn == [1, 3, 4]  # the page between them, and the repeat, are not drawn
    pictures = job.pages()
    assert [_rgb(p) for p in pictures] == [COLOURS[n - 1] for n in asked]


def test_a_single_page_from_the_middle():
    (picture,) = ink_pages(_pages(), [2], (8, 8))
    assert _rgb(picture) == COLOURS[1]
