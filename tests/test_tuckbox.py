"""Tuck boxes: the net folds into a box that holds the deck (pure geometry), and the sheet draws it."""

from __future__ import annotations

import io
import math
import subprocess
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageStat
from pypdf import PdfReader

from generator.cli import main
from generator.definitions.presets import Paper
from generator.faces.render import geometry
from generator.imposition.boxnet import PLAY, place_box, tuck_box
from generator.imposition.grids import LayoutError
from generator.pipeline.context import ProjectContext

from .conftest import examples

A4 = Paper("A4", 210, 297)


def area(points) -> float:
    """Shoelace area of a closed polygon."""
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))) / 2


def crosses(p1, p2, q1, q2) -> bool:
    """True when segments p and q cross at a point inside both (touching ends do not count)."""

    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2, d3, d4 = side(q1, q2, p1), side(q1, q2, p2), side(p1, p2, q1), side(p1, p2, q2)
    return d1 * d2 < -1e-9 and d3 * d4 < -1e-9


def on_outline(point, outline, tol=1e-5) -> bool:
    for a, b in zip(outline, outline[1:] + outline[:1]):
        length = math.dist(a, b)
        if length and abs(math.dist(a, point) + math.dist(point, b) - length) < tol:
            return True
    return False


def check_folds_into_a_box(card_w: float, card_h: float, cards: int, thickness: float) -> None:
    box = tuck_box(card_w, card_h, cards, thickness)
    p = box.panels
    # the body wraps round the deck: front, side, back, side make the W x D cross-section's perimeter
    assert p["front"].w == p["back"].w == box.width >= card_w + PLAY - 1e-9
    assert p["side-1"].w == p["side-2"].w == box.depth >= cards * thickness
    assert sum(p[n].w for n in ("front", "side-1", "back", "side-2")) == pytest.approx(2 * (box.width + box.depth))
    assert all(p[n].h == box.height >= card_h for n in ("front", "side-1", "back", "side-2", "glue"))
    for n in ("front", "side-1", "back", "side-2", "glue"):  # one strip, each panel meeting the next at a fold
        assert p[n].y == p["front"].y
    assert [p[n].x for n in ("front", "side-1", "back", "side-2", "glue")] == pytest.approx(
        [0, box.width, box.width + box.depth, 2 * box.width + box.depth, 2 * (box.width + box.depth)]
    )
    # lid and bottom close the W x D opening exactly; the tuck flaps slide inside the front
    for lid, tuck in (("lid", "tuck"), ("bottom", "bottom-tuck")):
        assert (p[lid].w, p[lid].h) == pytest.approx((box.width, box.depth))
        assert p[tuck].w < box.width and p[tuck].h < box.height / 2
        assert p[tuck].cx == pytest.approx(p[lid].cx)
    assert p["tuck"].bottom == pytest.approx(p["lid"].y) and p["lid"].bottom == pytest.approx(p["back"].y)
    assert p["bottom"].y == pytest.approx(p["back"].bottom) and p["bottom-tuck"].y == pytest.approx(p["bottom"].bottom)
    # dust flaps fold in across the opening from both sides without overlapping
    for n in ("dust-1", "dust-2", "bottom-dust-1", "bottom-dust-2"):
        assert p[n].w == pytest.approx(box.depth) and 2 * p[n].h <= box.width
    # the glue flap is glued inside the front, clear of the thumb notch
    assert p["glue"].w < box.width / 2 - box.notch
    assert box.notch < box.width / 4
    # the cut outline is one simple closed polygon round all the panels
    outline = list(box.outline)
    edges = list(zip(outline, outline[1:] + outline[:1]))
    for i, (a, b) in enumerate(edges):
        for j, (c, d) in enumerate(edges):
            if abs(i - j) > 1 and {i, j} != {0, len(edges) - 1}:
                assert not crosses(a, b, c, d), (i, j)
    chamfers = box.dust * min(2.0, box.depth / 4) * 4 + box.glue * min(box.glue, box.height / 8)
    notch = math.pi * box.notch**2 / 2
    r = min(box.tuck / 2, (box.width - 2 * box.inset) / 4)
    corners = 4 * (r * r - math.pi * r * r / 4)
    panels = sum(b.w * b.h for b in p.values())
    assert area(outline) == pytest.approx(panels - chamfers - notch - corners, rel=2e-3)
    # every fold joins two points of the outline, along a panel edge
    for f in box.folds:
        assert on_outline((f.x1, f.y1), outline) and on_outline((f.x2, f.y2), outline)
        assert f.x1 == f.x2 or f.y1 == f.y2


@pytest.mark.parametrize(
    ("w", "h", "n"),
    [(63.5, 88.9, 54), (69.85, 120.65, 78), (44.45, 63.5, 12), (63.5, 88.9, 0), (88.9, 88.9, 200)],
)
def test_nets_fold_into_boxes_that_hold_the_deck(w, h, n):
    check_folds_into_a_box(w, h, n, 0.3)


@settings(max_examples=examples(40), deadline=None)
@given(st.floats(30, 130), st.floats(30, 160), st.integers(0, 300), st.floats(0.15, 1.0))
def test_any_deck_gets_a_box_that_folds(w, h, n, t):
    check_folds_into_a_box(w, h, n, t)


def test_depth_follows_the_card_count_and_thickness():
    assert tuck_box(63.5, 88.9, 54, 0.3).depth == pytest.approx(54 * 0.3 + PLAY)
    assert tuck_box(63.5, 88.9, 54, 0.5).depth == pytest.approx(54 * 0.5 + PLAY)


def test_placing_on_paper():
    box = tuck_box(63.5, 88.9, 54)
    sheet = place_box(box, A4)
    w, h = box.size
    assert not sheet.turned and sheet.paper == A4
    assert sheet.x == pytest.approx((210 - w) / 2) and sheet.y == pytest.approx((297 - h) / 2)
    wide = tuck_box(88.9, 63.5, 20)  # landscape cards: the net is wider than A4, so it is turned a quarter
    assert wide.size[0] > 200 and place_box(wide, A4).turned and place_box(wide, A4).paper == A4
    with pytest.raises(LayoutError, match=r"does not fit on A4 .* choose larger paper"):
        place_box(tuck_box(150, 200, 100), A4)


@pytest.fixture(scope="module")
def pernese_box(tmp_path_factory):
    out = tmp_path_factory.mktemp("box")
    assert main(["box", "pernese:coloured", "--out", str(out)]) == 0
    return out / "pernese-coloured" / "pernese-coloured-box.pdf"


def render(pdf, dpi=50) -> Image.Image:
    """The page as poppler draws it."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", str(pdf), f"{tmp}/page"], check=True)
        with Image.open(f"{tmp}/page.png") as image:
            return image.convert("RGB")


def test_box_sheet_is_one_a4_page_with_the_decks_art_and_title(pernese_box, project, definitions):
    reader = PdfReader(str(pernese_box))
    assert len(reader.pages) == 1
    assert [round(float(v) / 72 * 25.4) for v in reader.pages[0].mediabox[2:]] == [210, 297]
    text = "".join(reader.pages[0].extract_text().split()).lower()
    assert "thepernesedeck" in text and "54cards" in text
    caption = next(line for line in reader.pages[0].extract_text().splitlines() if "Tuck box for" in line)
    assert "pernese:coloured" not in caption and "(Coloured deck)" in caption, caption  # names, not ids
    image = render(pernese_box)
    deck = definitions["pernese"].build(["coloured"])
    box = tuck_box(63.5, 88.9, 54)
    sheet = place_box(box, A4)
    px = 50 / 25.4

    def at(x, y):
        return image.getpixel((round((sheet.x + x) * px), round((sheet.y + y) * px)))

    field = tuple(int(deck.style["back_colour"][i : i + 2], 16) for i in (1, 3, 5))
    for name in ("glue", "dust-1", "tuck"):  # plain panels carry the back's colour
        b = box.panels[name]
        assert max(abs(a - e) for a, e in zip(at(b.cx, b.cy), field)) < 12, name
    assert at(-5, -5) == (255, 255, 255)  # nothing outside the net's bleed
    # front and back carry the back's art, gold on the field, at the middle of the emblem's box
    for name, (art, _plate) in painter(project, deck, box).composition().items():
        x, y = sheet.x + art.cx - art.w * 0.15, sheet.y + art.cy - art.w * 0.15
        middle = ImageStat.Stat(image.crop(tuple(round(v * px) for v in (x, y, x + art.w * 0.3, y + art.w * 0.3)))).mean
        assert max(abs(m - f) for m, f in zip(middle, field)) > 20, name  # art, not the plain field


def painter(project, deck, box):
    """The painter of ``deck``'s box, on a canvas of its own (for where it puts things)."""
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.boxpdf import BoxPainter

    return BoxPainter(Canvas(io.BytesIO()), ProjectContext(project), deck, box)


def _decks(definitions):
    """Every built-in deck, and each variant of it, as built."""
    return [d.build(v) for d in definitions.values() for v in ([()] + [[name] for name in d.variant_specs])]


def test_title_plates_never_cover_the_emblem(project, definitions):
    from generator.outputs.boxfile import plan_box

    for deck in _decks(definitions):
        box, _sheet = plan_box(deck, A4)
        composed = painter(project, deck, box).composition()
        assert set(composed) == {"front", "back"}
        art, plate = composed["back"]
        panel = box.panels["back"]
        assert not art.overlaps(plate) and panel.contains(art) and panel.contains(plate), deck.key
        assert art.h >= 0.3 * panel.h, deck.key  # the art is still the panel's picture
        g = geometry(deck)
        assert art.w / art.h == pytest.approx(g.trim_w / g.trim_h, rel=1e-6)  # the whole back, not a crop
        # the front: the back's middle enlarged over the whole panel (no card's edge on it), the plate at its foot,
        # below the middle where the emblem is
        art, plate = composed["front"]
        panel = box.panels["front"]
        assert art == panel and panel.contains(plate) and plate.y > panel.cy + 0.15 * panel.h, deck.key


def test_fold_ticks_mark_every_fold_outside_the_net_on_the_paper_margin(pernese_box, definitions):
    """Every fold has a short tick in line with it outside the net and its bleed, on the paper (for cutting and
    scoring at home); the shop's die line stays in its layer (below)."""
    dpi = 200
    image = render(pernese_box, dpi)
    box = tuck_box(63.5, 88.9, 54)
    sheet = place_box(box, A4)
    w, h = box.size
    px = dpi / 25.4
    from generator.render.boxpdf import BLEED, TICK_GAP

    def dark(x, y):  # a thin line at (x, y): the darkest pixel within one of it
        cx, cy = round((sheet.x + x) * px), round((sheet.y + y) * px)
        return min(max(image.getpixel((cx + i, cy + j))) for i in (-1, 0, 1) for j in (-1, 0, 1)) < 110

    out = BLEED + TICK_GAP + 2  # the middle of a tick
    for fold in box.folds:
        if abs(fold.x1 - fold.x2) < 1e-6:
            assert dark(fold.x1, -out) and dark(fold.x1, h + out), fold
            assert not dark(fold.x1 + 1.5, -out)  # a tick, not a bar
        else:
            assert dark(-out, fold.y1) and dark(w + out, fold.y1), fold
    assert sheet.x - out >= 0 and sheet.x + w + out <= A4.width  # on the paper


def test_no_fold_line_prints_on_a_face(pernese_box, definitions):
    """Along every fold, a millimetre and a half from its ends (the cut's corners), the page shows the field: no
    fold line; the folds are in the die line's layer, off and never printed, one line per fold."""
    import pikepdf

    dpi = 200
    image = render(pernese_box, dpi)
    deck = definitions["pernese"].build(["coloured"])
    box = tuck_box(63.5, 88.9, 54)
    sheet = place_box(box, A4)
    assert not sheet.turned
    field = tuple(int(deck.style["back_colour"][i : i + 2], 16) for i in (1, 3, 5))
    px = dpi / 25.4
    front = box.panels["front"]
    for fold in box.folds:
        if abs(fold.x1 - fold.x2) < 1e-6 and fold.x1 in (front.x, front.right):
            continue  # the front's art runs to its folds: the lines drawn are checked below, in the page's content
        steps = int((fold.length - 3) / 0.25)
        for k in range(steps + 1):
            t = (1.5 + 0.25 * k) / fold.length
            x, y = fold.x1 + t * (fold.x2 - fold.x1), fold.y1 + t * (fold.y2 - fold.y1)
            pixel = image.getpixel((round((sheet.x + x) * px), round((sheet.y + y) * px)))
            assert max(abs(a - b) for a, b in zip(pixel, field)) < 12, (fold, x, y, pixel)
    from generator.render.boxpdf import DIE_LAYER, DIE_TAG

    with pikepdf.open(pernese_box) as pdf:
        properties = pdf.Root.OCProperties
        (group,) = properties.OCGs
        assert str(group.Name) == DIE_LAYER and group.Usage.Print.PrintState == "/OFF"
        assert list(properties.D.OFF) == [group]
        assert pdf.pages[0].Resources.Properties[f"/{DIE_TAG}"] == group
        marked, lines = False, 0
        for operands, operator in pikepdf.parse_content_stream(pdf.pages[0]):
            if str(operator) == "BDC" and operands[1] == f"/{DIE_TAG}":
                marked = True
            elif str(operator) == "EMC":
                marked = False
            elif marked and str(operator) == "l":
                lines += 1
    assert lines == len(box.folds)


@pytest.mark.slow  # builds or checks whole decks
def test_build_box_and_greyscale(tmp_path):
    assert main(["build", "standard", "--box", "--greyscale", "--card-thickness", "0.5", "--out", str(tmp_path)]) == 0
    a4, letter = tmp_path / "standard" / "standard-box.pdf", tmp_path / "standard" / "standard-box-letter.pdf"
    assert a4.is_file() and letter.is_file()
    assert "0.5 mm thick" in PdfReader(str(a4)).pages[0].extract_text()
    image = render(a4, 30)
    assert all(abs(r - g) <= 2 and abs(g - b) <= 2 for r, g, b in image.get_flattened_data())


def test_a_box_that_does_not_fit_is_a_one_line_error(tmp_path, capsys):
    code = main(["box", "aetherial", "--paper", "100x100mm", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "does not fit on 100x100mm" in err[0] and "deck.size" in err[0]
    assert not any(tmp_path.iterdir())
