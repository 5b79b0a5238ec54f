"""Small dark text, small dark shapes and thin dark lines in process CMYK files print in black ink alone,
overprinting; the rest keeps its colours."""

from __future__ import annotations

import dataclasses
import io
import shutil

import numpy
import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.outputs.cardfiles import PodOptions, export_pod
from generator.pipeline.context import ProjectContext
from generator.render.colour import ProcessColour
from generator.render.icc import shipped_profile
from generator.render.inks import ink_pages
from generator.render.recolour import recolour
from generator.render.smallblack import BLACK_INK, KNOCKOUT, OVERPRINT, SMALL_SHAPE_PT, SMALL_TEXT_PT, THIN_STROKE_PT, is_black
from generator.resources.fonts import register_fonts

DARK = (0.24, 0.1, 0.05)  # a dark brown, as on the Pernese indices: rich black once separated


def _page(scale: float = 1.0) -> bytes:
    """Four lines of text: small dark, large dark, small red, small dark again (scaled by ``scale``)."""
    register_fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(200, 200), invariant=1, initialFontName="EBGaramond-Regular")
    canvas.scale(scale, scale)
    for y, size, colour in ((20, 8, DARK), (60, 30, DARK), (100, 8, (0.8, 0.1, 0.1)), (140, 14, DARK)):
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
    assert small == (8, (0, 0, 0, 1), True) and small_again == (14, (0, 0, 0, 1), True)  # a card's index, too
    assert large[0] == 30 and not large[2] and sum(large[1]) > 1.5  # large text keeps its rich black
    assert not red[2] and red[1][1] > 0.5  # coloured text keeps its colour
    states = doc.pages[0].obj.Resources.ExtGState
    assert states[OVERPRINT].OP and states[OVERPRINT].op and int(states[OVERPRINT].OPM) == 1
    assert not states[KNOCKOUT].OP and not states[KNOCKOUT].op


def test_size_is_measured_on_the_page(process):
    """Text set at 8 and 14 under a scale of 3.5 is 28 and 49 points on the page: not small."""
    shown, _ = _shown(recolour(_page(3.5), process))
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


def _shapes() -> bytes:
    """Dark shapes: a small filled one (a pip), a large filled one, a thin line and a thick line; a small red one."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(400, 400), invariant=1)
    canvas.setFillColorRGB(*DARK)
    canvas.setStrokeColorRGB(*DARK)
    canvas.rect(10, 10, SMALL_SHAPE_PT - 2, SMALL_SHAPE_PT - 2, stroke=0, fill=1)
    canvas.rect(100, 10, 200, 200, stroke=0, fill=1)
    canvas.setLineWidth(THIN_STROKE_PT / 2)
    canvas.line(10, 300, 380, 300)
    canvas.setLineWidth(THIN_STROKE_PT * 3)
    canvas.line(10, 350, 380, 350)
    canvas.setFillColorRGB(0.8, 0.1, 0.1)
    canvas.rect(10, 100, 20, 20, stroke=0, fill=1)
    canvas.save()
    return out.getvalue()


def _painted(pdf: bytes) -> list[tuple[str, tuple, tuple, bool]]:
    """Each painted path: (its paint operator, the fill and stroke colours it is painted in, overprinting?)."""
    doc = pikepdf.open(io.BytesIO(pdf))
    fill: tuple = ()
    stroke: tuple = ()
    overprint = False
    painted = []
    for instruction in pikepdf.parse_content_stream(doc.pages[0].obj):
        op = str(instruction.operator)
        operands = [str(v) if isinstance(v, pikepdf.Name) else float(v) for v in instruction.operands]
        if op == "k":
            fill = tuple(operands)
        elif op == "K":
            stroke = tuple(operands)
        elif op == "gs":
            overprint = operands[0] == OVERPRINT
        elif op in ("f", "f*", "S", "B"):
            painted.append((op, fill, stroke, overprint))
    return painted


def test_small_dark_shapes_and_thin_dark_lines_are_black_ink(process):
    pip, area, thin, thick, red = _painted(recolour(_shapes(), process))
    assert pip[0] in ("f", "f*") and pip[1] == (0, 0, 0, 1) and pip[3]
    assert area[0] in ("f", "f*") and sum(area[1]) > 2 and not area[3]  # a large dark area keeps its rich black
    assert thin[0] == "S" and thin[2] == (0, 0, 0, 1) and thin[3]
    assert thick[0] == "S" and sum(thick[2]) > 2 and not thick[3]
    assert red[0] in ("f", "f*") and red[1][1] > 0.5 and not red[3]


def test_a_shape_is_measured_on_the_page(process):
    """The pip under a scale of 2 is larger than a small shape: it keeps its rich black."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(400, 400), invariant=1)
    canvas.scale(2, 2)
    canvas.setFillColorRGB(*DARK)
    canvas.rect(10, 10, SMALL_SHAPE_PT - 2, SMALL_SHAPE_PT - 2, stroke=0, fill=1)
    canvas.save()
    ((_, fill, _, overprint),) = _painted(recolour(out.getvalue(), process))
    assert sum(fill) > 2 and not overprint


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (Debian ghostscript) is not installed")
@pytest.mark.parametrize("deck_id", ["standard", "imperial", "decktet", "pernese", "dragons-gambit", "aetherial"])
def test_every_decks_small_type_and_pips_print_in_black_ink_alone(tmp_path, project, definitions, deck_id):
    """Ghostscript's separations of each deck's first face (and the standard ten of spades, ten pips) in its
    DriveThruCards file: where black ink is laid down at 90 % or more (indices, pips, small text), no cyan and
    magenta of a rich black.  (A large dark area, such as the ace's one big pip, keeps its rich black.)"""
    deck = definitions[deck_id].build(())
    cards = deck.cards[:1] + tuple(c for c in deck.cards if deck_id == "standard" and c.id == "10-spades")
    deck = dataclasses.replace(deck, cards=cards)
    files = export_pod(ProjectContext(project), deck, tmp_path, PodOptions(shops=("drivethrucards",)))
    (pdf,) = [f for f in files if f.suffix == ".pdf"]
    faces = [2 * n + 2 for n in range(len(cards))]  # back, face, back, face...
    for page, picture in zip(faces, ink_pages(pdf.read_bytes(), faces, (300, 420))):
        inks = numpy.asarray(picture).astype(float) / 255
        black = inks[..., 3] >= 0.9
        rich = black & (inks[..., 0] >= 0.3) & (inks[..., 1] >= 0.3)
        assert black.sum() > 100 or deck_id == "imperial", (deck_id, page)  # there is dark type to look at
        assert rich.sum() == 0, (deck_id, page, int(rich.sum()))
