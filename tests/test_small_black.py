"""Small dark text in process CMYK files prints in black ink alone, overprinting; the rest keeps its colours."""

from __future__ import annotations

import io

import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.render.colour import ProcessColour
from generator.render.icc import shipped_profile
from generator.render.recolour import recolour
from generator.render.smallblack import BLACK_INK, KNOCKOUT, OVERPRINT, SMALL_TEXT_PT, is_black
from generator.resources.fonts import register_fonts

DARK = (0.24, 0.1, 0.05)  # a dark brown, as on the Pernese indices: rich black once separated


def _page(scale: float = 1.0) -> bytes:
    """Four lines of text: small dark, large dark, small red, small dark again (scaled by ``scale``)."""
    register_fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(200, 200), invariant=1, initialFontName="EBGaramond-Regular")
    canvas.scale(scale, scale)
    for y, size, colour in ((20, 8, DARK), (60, 20, DARK), (100, 8, (0.8, 0.1, 0.1)), (140, 9, DARK)):
        canvas.setFillColorRGB(*colour)
        canvas.setFont("EBGaramond-Regular", size)
        canvas.drawString(10, y, "Aa")
    canvas.save()
    return out.getvalue()


def _shown(pdf: bytes) -> tuple[list[tuple[float, tuple, bool]], pikepdf.Pdf]:
    """Each piece of text: (font size in points, the fill colour it is shown in, overprinting?)."""
    doc = pikepdf.open(io.BytesIO(pdf))
    fill: tuple = ()
    overprint, size, scale = False, 0.0, 1.0
    shown = []
    for instruction in pikepdf.parse_content_stream(doc.pages[0].obj):
        op = str(instruction.operator)
        operands = [str(v) if isinstance(v, (pikepdf.Name, pikepdf.String)) else float(v) for v in instruction.operands]
        if op in ("k", "rg", "g"):
            fill = tuple(operands)
        elif op == "gs":
            overprint = operands[0] == OVERPRINT
        elif op == "cm":
            scale *= operands[0]
        elif op == "Tf":
            size = operands[1]
        elif op == "Tj":
            shown.append((size * scale, fill, overprint))
    return shown, doc


@pytest.fixture(scope="module")
def process():
    return ProcessColour(shipped_profile("coated"), 3.0)


def test_small_dark_text_is_black_ink_overprinting(process):
    shown, doc = _shown(recolour(_page(), process))
    (small, large, red, small_again) = shown
    assert small == (8, (0, 0, 0, 1), True) and small_again == (9, (0, 0, 0, 1), True)
    assert large[0] == 20 and not large[2] and sum(large[1]) > 1.5  # large text keeps its rich black
    assert not red[2] and red[1][1] > 0.5  # coloured text keeps its colour
    states = doc.pages[0].obj.Resources.ExtGState
    assert states[OVERPRINT].OP and states[OVERPRINT].op and int(states[OVERPRINT].OPM) == 1
    assert not states[KNOCKOUT].OP and not states[KNOCKOUT].op


def test_size_is_measured_on_the_page(process):
    """Text set at 8 and 9 under a scale of 2 is 16 and 18 points on the page: not small."""
    shown, _ = _shown(recolour(_page(2.0), process))
    assert all(not overprint for _, _, overprint in shown)
    assert min(size for size, _, _ in shown) > SMALL_TEXT_PT


def test_greys_and_unchanged_pages_need_no_overprint():
    grey = ProcessColour(shipped_profile("coated"), 3.0, greyscale=True)
    shown, doc = _shown(recolour(_page(), grey))
    assert not any(overprint for _, _, overprint in shown)
    assert "/ExtGState" not in doc.pages[0].obj.Resources


def test_black_is_what_the_press_prints_mostly_in_black(process):
    dark = process(type("C", (), {"red": DARK[0], "green": DARK[1], "blue": DARK[2]})())
    assert is_black([dark.cyan, dark.magenta, dark.yellow, dark.black]) and dark.black >= BLACK_INK
    assert dark.cyan + dark.magenta + dark.yellow + dark.black > 2  # rich black before
    assert is_black([0, 0, 0, 1]) and not is_black([0, 0.9, 0.8, 0.2]) and not is_black(None)


def test_same_page_same_bytes(process):
    assert recolour(_page(), process) == recolour(_page(), process)
