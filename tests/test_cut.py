"""The cut check: nothing but background and bleed art within 3 mm of the trim, on every face and back."""

from __future__ import annotations

import io

import pytest

from generator.cli import main
from generator.faces.cut import CUT_TOLERANCE, check_cut, near_cut
from generator.faces.outline import element_boxes
from generator.faces.render import FaceRenderer
from generator.geometry import Box
from generator.pathpoints import path_points
from generator.pipeline.build import all_targets

from .conftest import write_deck

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

# a 60 x 80 mm card with 3 mm bleed: the trim runs from 3 to 63 across and 3 to 83 down
TRIM = Box(3.0, 3.0, 60.0, 80.0)
HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="66mm" height="86mm" viewBox="0 0 66 86">'


def _svg(body: str) -> str:
    return HEAD + '<rect x="0" y="0" width="66" height="86" fill="#eee"/>' + body + "</svg>"


@pytest.fixture(scope="module")
def drawn(project, definitions):
    """Every face and back of every deck and variant, once: (deck key, what, svg, trim, text boxes)."""
    out = []
    for target in all_targets(definitions):
        deck = target.deck
        faces = FaceRenderer(project, deck)
        backs = {}
        for card in deck.cards:
            out.append((deck.key, card.id, faces.face(card), faces.geometry.trim, list(faces.text_boxes)))
            backs.setdefault(deck.back_for(card), card)
        for name, card in backs.items():
            out.append((deck.key, f"back {name}", faces.back(card), faces.geometry.trim, list(faces.text_boxes)))
    return out


def test_every_face_and_back_keeps_3_mm_from_the_cut(drawn):
    assert len(drawn) > 500
    worst = [(key, what, near[0].message) for key, what, svg, trim, texts in drawn if (near := check_cut(svg, trim, texts))]
    assert worst == []


def test_inner_art_of_every_deck_keeps_at_least_3_mm(drawn):
    """Measured: the smallest distance from the trim of anything that does not run into the bleed."""
    for key, what, svg, trim, texts in drawn:
        gaps = []
        for _, b in list(element_boxes(svg)) + texts:
            if b.x > trim.x and b.y > trim.y and b.right < trim.right and b.bottom < trim.bottom:
                gaps.append(min(b.x - trim.x, b.y - trim.y, trim.right - b.right, trim.bottom - b.bottom))
        assert gaps and min(gaps) >= CUT_TOLERANCE - 0.005, (key, what, min(gaps))


@pytest.mark.parametrize(
    "body,expected",
    [
        (
            '<rect x="5" y="10" width="56" height="60" fill="none" stroke="#000" stroke-width="0.4"/>',
            [("left", 1.8), ("right", 1.8)],
        ),
        ('<circle cx="33" cy="43" r="38" fill="#f00"/>', [("top", 2.0), ("bottom", 2.0)]),  # crosses left and right
        ('<g transform="rotate(180 33 43)"><rect x="20" y="4.5" width="4" height="4"/></g>', [("bottom", 1.5)]),
        ('<path d="M20,20 C20,10 40,10 40,20 Z M10,40 a25,25 0 0,1 0,1"/>', []),  # the curve's top is 9.5 mm in
        ('<g transform="translate(0.5 0)"><line x1="10" y1="40" x2="61" y2="40" stroke="#000"/></g>', [("right", 1.0)]),
        ('<polygon points="33,84 40,80 26,80"/>', []),  # crosses the bottom trim: bleed art
        ('<rect x="-1" y="5" width="68" height="2"/>', [("top", 2.0)]),  # a band through the bleed, 2 mm in at the top
        ('<rect x="5" y="10" width="5" height="5" fill="none"/>', []),  # nothing painted
    ],
)
def test_elements_near_the_cut_are_found_with_their_side_and_distance(body, expected):
    found = check_cut(_svg(body), TRIM)
    assert [(f.side, round(f.distance, 2)) for f in found] == expected
    for f, (side, distance) in zip(found, expected, strict=True):
        assert f"{distance:.1f} mm inside the trim at the {side}" in f.message


def test_background_and_bleed_art_pass():
    body = (
        '<path d="M-10,-10 L80,100 M80,-10 L-10,100" stroke="#c90" stroke-width="0.3"/>'  # a lattice to the bleed
        '<circle cx="33" cy="43" r="45" fill="none" stroke="#000"/>'  # a ring the cut goes through
        '<rect x="6.1" y="6.1" width="53.8" height="73.8" fill="none" stroke="#000" stroke-width="0.2"/>'  # 3 mm in
        '<defs><clipPath id="c"><rect x="8" y="8" width="50" height="70"/></clipPath></defs>'
        '<g clip-path="url(#c)"><circle cx="33" cy="43" r="38" fill="none" stroke="#000"/></g>'  # clipped inside
    )
    assert check_cut(_svg(body), TRIM) == []


def test_texts_are_checked_with_their_glyph_boxes():
    assert [f.what for f in check_cut(_svg(""), TRIM, [("name", Box(4.0, 10.0, 20.0, 5.0))])] == ["text 'name'"]
    assert near_cut(Box(6.0, 6.0, 10.0, 10.0), TRIM, "x") == []


def test_outline_follows_curves_and_arcs_closely():
    # a cubic's extreme lies between its control points; an arc's at its top
    points = path_points("M0,0 C0,-10 10,-10 10,0")
    assert points[:, 1].min() == pytest.approx(-7.5, abs=0.01)
    points = path_points("M-5,0 A5,5 0 0,1 5,0")
    assert points[:, 1].min() == pytest.approx(-5.0, abs=0.02)
    points = path_points("m1,1 h4 v4 l-2,2 q-2,0 -2,-2 t0,-4 z")
    assert points[:, 0].max() == pytest.approx(5.0) and points[:, 1].max() == pytest.approx(7.0)


def test_outline_agrees_with_svgelements(drawn):
    """An independent SVG geometry library finds the same boxes, to a few hundredths of a millimetre."""
    svgelements = pytest.importorskip("svgelements")
    checked = 0
    for key, what, svg, _, _ in drawn[::25]:
        if "clip-path" in svg:
            continue
        ours = [b for _, b in element_boxes(svg)]
        document = svgelements.SVG.parse(io.StringIO(svg), ppi=25.4, reify=True)
        theirs = []
        for e in document.elements():
            if isinstance(e, svgelements.Shape):
                painted = (e.fill is not None and e.fill.value is not None) or (
                    e.stroke is not None and e.stroke.value is not None
                )
                if painted and (bbox := e.bbox(with_stroke=True)) is not None:
                    theirs.append(bbox)
        assert len(ours) == len(theirs), (key, what)
        for b, (x0, y0, x1, y1) in zip(ours, theirs, strict=True):
            assert (b.x, b.y, b.right, b.bottom) == pytest.approx((x0, y0, x1, y1), abs=0.03), (key, what)
        checked += 1
    assert checked >= 10


def test_validate_reports_a_frame_too_close_to_the_cut(scratch, capsys):
    write_deck(scratch, '[deck]\nid = "t"\ntitle = "T"\n\n[[cards]]\nid = "a"\nname = "A"\n')
    bad = scratch.own.templates / "plain.svg.j2"
    bad.parent.mkdir()
    source = (scratch.builtin.templates / "plain.svg.j2").read_text(encoding="utf-8")
    bad.write_text(source.replace("{% set frame = safe.inset(0.3) %}", "{% set frame = safe.inset(-1.25) %}"), encoding="utf-8")
    assert main(["--project", str(scratch.root), "validate"]) == 2
    err = capsys.readouterr().err
    assert "templates/plain.svg.j2: <rect> stops 1.6 mm inside the trim at the left" in err
    assert "card 'a' of deck 't'" in err
    bad.write_text(source, encoding="utf-8")
    assert main(["--project", str(scratch.root), "validate"]) == 0
