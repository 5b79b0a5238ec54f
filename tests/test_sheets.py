"""Sheet layout math: property tests over random paper, card, margin, gap and bleed sizes."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.definitions.presets import Paper, parse_paper
from generator.geometry import Box
from generator.imposition.grids import EPS, LayoutError, fit, grid_in
from generator.imposition.layout import Layout, cards_per_page, layout
from generator.imposition.mirror import mirror_rect
from generator.imposition.shapes import Item, Placement

from .conftest import examples

A4 = Paper("A4", 210.0, 297.0)
LETTER = Paper("Letter", 215.9, 279.4)
PRESETS = {"a4": A4, "letter": LETTER}

lengths = st.floats(min_value=20.0, max_value=200.0, allow_nan=False)
papers = st.builds(lambda w, h: Paper("test", w, h), st.floats(80.0, 500.0), st.floats(80.0, 500.0))
margins = st.floats(min_value=0.0, max_value=20.0)
gaps = st.sampled_from([0.0]) | st.floats(min_value=0.0, max_value=12.0)
bleeds = st.sampled_from([0.0, 3.0, 3.175]) | st.floats(min_value=0.0, max_value=5.0)
offsets = st.tuples(st.floats(-5.0, 5.0), st.floats(-5.0, 5.0))


@st.composite
def jobs(draw):
    paper = draw(papers)
    sizes = draw(st.lists(st.tuples(st.floats(20.0, 130.0), st.floats(20.0, 130.0)), min_size=1, max_size=3))
    card_bleed = draw(st.sampled_from([0.0, 3.0, 3.175]))
    radius = draw(st.sampled_from([0.0, 3.0]))
    items = []
    for w, h in sizes:
        dark = draw(st.booleans())
        for _ in range(draw(st.integers(1, 25))):
            items.append(Item(len(items), w, h, card_bleed, radius, dark))
    shared = draw(st.booleans())
    opts = Layout(
        paper,
        mode=draw(st.sampled_from(["grid", "duplex", "gutterfold"])),
        flip=draw(st.sampled_from(["long", "short"])),
        margin=draw(margins),
        gap=0.0 if shared else draw(gaps | st.none()),
        bleed=0.0 if shared else draw(bleeds | st.none()),
        shared=shared,
        offset=draw(offsets),
        rotate=draw(st.sampled_from(["auto", "never", "always"])),
        crop_marks=True,
        cut_lines=draw(st.booleans()),
        registration=draw(st.booleans()),
    )
    return items, opts


def laid_out(items, opts):
    try:
        return layout(items, opts)
    except LayoutError:
        assume(False)


def card_to_page(p: Placement, u: float, v: float) -> tuple[float, float]:
    """Where the point (u, v) of the card (mm from its own top-left trim corner) lands on the page."""
    w, h = (p.trim.h, p.trim.w) if p.rotation in (90, 270) else (p.trim.w, p.trim.h)
    cu, cv = u - w / 2, v - h / 2  # from the card's centre
    turns = {0: (cu, cv), 90: (-cv, cu), 180: (-cu, -cv), 270: (cv, -cu)}  # clockwise, y down
    du, dv = turns[p.rotation]
    return p.trim.x + p.trim.w / 2 + du, p.trim.y + p.trim.h / 2 + dv


SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@SETTINGS
@given(jobs())
def test_no_overlap_inside_printable_and_crop_marks_clear(job):
    items, opts = job
    pages = laid_out(items, opts)
    printable = opts.printable
    for page in pages:
        boxes = [p.box for p in page.placements]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not a.overlaps(b), (a, b)
        for p in page.placements:
            if page.side == "back":
                # backs are mirrored fronts moved by the printer offset
                unshifted = p.box.shift(-opts.offset[0], -opts.offset[1])
                assert unshifted.within(printable)
            else:
                assert p.box.within(printable), (p.box, printable)
        for line in page.lines:
            if line.kind == "crop":
                for p in page.placements:
                    assert not line.touches(p.box), (line, p.box)
                # crop marks stay inside the printable area (on backs, moved by the printer offset)
                area = printable if page.side != "back" else printable.shift(*opts.offset)
                assert Box(line.x1, line.y1, 0, 0).within(area) and Box(line.x2, line.y2, 0, 0).within(area)
            if line.kind == "fold":
                assert not any(line.touches(p.box) for p in page.placements)
        # cut outlines, when asked for, are exactly the trims
        assert [(o.rect, o.radius) for o in page.outlines] == (
            [(p.trim, items[p.item].radius) for p in page.placements] if opts.cut_lines else []
        )
        for target in page.targets:
            assert not any(target.box.overlaps(p.box) for p in page.placements)
            assert not any(line.touches(target.box) for line in page.lines if line.kind == "crop")


@SETTINGS
@given(jobs())
def test_every_card_placed_once_per_side(job):
    items, opts = job
    pages = laid_out(items, opts)
    fronts = [p.item for page in pages for p in page.placements if p.side == "front"]
    backs = [p.item for page in pages for p in page.placements if p.side == "back"]
    assert sorted(fronts) == list(range(len(items)))
    assert sorted(backs) == (list(range(len(items))) if opts.mode != "grid" else [])
    for page in pages:
        for p in page.placements:
            item = items[p.item]
            w, h = (item.height, item.width) if p.rotation in (90, 270) else (item.width, item.height)
            assert p.trim.w == pytest.approx(w) and p.trim.h == pytest.approx(h)
            if opts.shared:  # the card's own bleed, kept only on edges without a neighbour
                assert p.bleed == item.bleed and p.edges is not None
                assert all(0.0 <= e <= item.bleed for e in p.edges)
            else:
                kept = opts.bleed if opts.bleed is not None else (math.inf if item.dark else 0.0)
                assert p.bleed == pytest.approx(min(kept, item.bleed))


@SETTINGS
@given(jobs())
def test_backs_mirror_their_fronts_with_the_offset(job):
    items, opts = job
    assume(opts.mode != "grid")
    pages = laid_out(items, opts)
    W, H = opts.paper.width, opts.paper.height
    pairs = []
    if opts.mode == "duplex":
        for n, page in enumerate(pages):
            if page.side == "back":
                front = pages[page.front_page]
                assert page.front_page == n - 1  # a backs page right after its fronts page
                pairs += [(f, b, opts.mirrors_x(), opts.offset) for f, b in zip(front.placements, page.placements)]
    else:
        for page in pages:
            fold = next(line for line in page.lines if line.kind == "fold")
            half = len(page.placements) // 2
            pairs += [(f, b, fold.x1 == fold.x2, (0.0, 0.0)) for f, b in zip(page.placements[:half], page.placements[half:])]
    assert pairs
    for front, back, mirror_x, offset in pairs:
        assert front.item == back.item and front.side == "front" and back.side == "back"
        expected = mirror_rect(front.trim, W, H, mirror_x).shift(*offset)
        for a, b in ((back.trim.x, expected.x), (back.trim.y, expected.y), (back.trim.w, expected.w), (back.trim.h, expected.h)):
            assert abs(a - b) < 0.01
        # physically: the back point behind the front's card point (u, v) is the back's (w - u, v)
        item = items[front.item]
        for u, v in ((0, 0), (item.width, 0), (0, item.height), (item.width / 3, item.height / 4)):
            fx, fy = card_to_page(front, u, v)
            mx, my = (W - fx, fy) if mirror_x else (fx, H - fy)
            bx, by = card_to_page(back, item.width - u, v)
            assert abs(bx - offset[0] - mx) < 0.01 and abs(by - offset[1] - my) < 0.01


@settings(max_examples=examples(300), deadline=None)
@given(st.floats(20, 400), st.floats(20, 400), st.floats(15, 150), st.floats(15, 150), gaps, bleeds)
def test_grid_is_the_most_that_fits(area_w, area_h, w, h, gap, bleed):
    grid = grid_in(Box(0, 0, area_w, area_h), w, h, bleed, gap)
    best = 0
    for cw, ch in ((w, h), (h, w)):
        cw, ch = cw + 2 * bleed, ch + 2 * bleed
        cols = fit(area_w, cw, gap)
        rows = fit(area_h, ch, gap)
        # fit() is maximal: one more cell in either direction does not fit
        assert (cols + 1) * cw + cols * gap > area_w + EPS
        assert (rows + 1) * ch + rows * gap > area_h + EPS
        best = max(best, cols * rows)
    assert (grid.capacity if grid else 0) == best


def test_known_sheets():
    poker = (63.5, 88.9)
    assert cards_per_page(*poker, Layout(A4)) == 9
    # Letter: three rows of poker cards leave 6.35 mm above and below, no room for printable crop marks
    # (the review found them 1.4 mm from the edge); turned cards fit 2 x 4 with room for marks
    assert cards_per_page(*poker, Layout(LETTER)) == 8
    assert cards_per_page(*poker, Layout(LETTER, crop_marks=False)) == 9
    assert cards_per_page(*poker, Layout(A4.oriented(True))) == 9  # turned: 3 x 3
    assert cards_per_page(*poker, Layout(A4.oriented(True), rotate="never")) == 8
    assert cards_per_page(69.85, 120.65, Layout(A4)) == 4  # tarot
    assert cards_per_page(44.45, 63.5, Layout(A4)) == 18  # mini, turned: 3 x 6 beats 4 x 4
    # a wide card turns to fit more: 88.9 x 63.5 on A4 portrait fits 2 x 4 = 8 upright, 3 x 3 = 9 turned
    pages = layout([Item(0, 88.9, 63.5)], Layout(A4))
    assert pages[0].placements[0].rotation == 90
    assert cards_per_page(88.9, 63.5, Layout(A4, rotate="never")) == 8
    # a 5 mm gap costs a column on A4: 3 x 63.5 + 2 x 5 > 200; turned cards then fit 2 x 4
    assert cards_per_page(*poker, Layout(A4, gap=5, rotate="never")) == 6
    assert cards_per_page(*poker, Layout(A4, gap=5)) == 8
    # a 2 mm gap leaves 15.5 mm across, less than two margins with crop marks (2 x 9 mm)
    assert cards_per_page(*poker, Layout(A4, gap=2)) == 8
    assert cards_per_page(*poker, Layout(A4, gap=2, crop_marks=False)) == 9
    # gutterfold on A4 portrait: fold across, two rows of turned cards... 4 cards a page
    assert cards_per_page(*poker, Layout(A4, mode="gutterfold")) == 4


def test_a4_duplex_sheet_in_numbers():
    pages = layout([Item(i, 63.5, 88.9) for i in range(12)], Layout(A4))
    assert [p.side for p in pages] == ["front", "back", "front", "back"]
    first = pages[0].placements[0].trim
    assert (first.x, first.y) == pytest.approx(((210 - 3 * 63.5) / 2, (297 - 3 * 88.9) / 2))
    # long-edge flip on portrait paper: the first card's back is at the far right of the same row
    back = pages[1].placements[0].trim
    assert back.x == pytest.approx(210 - first.x - 63.5) and back.y == pytest.approx(first.y)
    # crop marks: 4 cut positions each way, marks on both ends of each -> 16 on a full page
    assert len([line for line in pages[0].lines if line.kind == "crop"]) == 16
    # short-edge flip: the back is mirrored top to bottom and turned half round
    short = layout([Item(0, 63.5, 88.9)], Layout(A4, flip="short", offset=(1.0, -2.0)))
    b = short[1].placements[0]
    assert b.rotation == 180
    assert (b.trim.x, b.trim.y) == pytest.approx((first.x + 1.0, 297 - first.y - 88.9 - 2.0))


def test_mixed_sizes_are_packed_size_by_size():
    items = [Item(i, 63.5, 88.9) for i in range(10)] + [Item(10 + i, 69.85, 120.65) for i in range(5)]
    items.insert(3, Item(99, 69.85, 120.65))  # order of first appearance decides the order of sizes
    pages = layout(items, Layout(A4, mode="grid"))
    sizes = [{(round(p.trim.w, 2), round(p.trim.h, 2)) for p in page.placements} for page in pages]
    assert all(len(s) == 1 for s in sizes)
    assert [len(page.placements) for page in pages] == [9, 1, 4, 2]


def test_bleed_kept_separates_cuts():
    pages = layout([Item(i, 63.5, 88.9, 3.0) for i in range(4)], Layout(A4, mode="grid", bleed=3.0, rotate="never"))
    xs = sorted({round(v, 6) for p in pages[0].placements for v in (p.trim.x, p.trim.right)})
    assert len(xs) == 2 * 2  # 69.5 mm cells: two columns, two cuts each, none shared
    for a in pages[0].placements:
        assert a.box.w == pytest.approx(63.5 + 6)
    assert xs[2] - xs[1] == pytest.approx(6.0)  # the two bleeds between neighbours


def test_errors_are_one_line():
    with pytest.raises(LayoutError, match="does not fit on a page of A4"):
        layout([Item(0, 250, 250)], Layout(A4))
    with pytest.raises(LayoutError, match="unknown layout"):
        Layout(A4, mode="tiled")
    with pytest.raises(LayoutError, match="margins"):
        Layout(Paper("tiny", 50, 50), margin=30)


def test_parse_paper():
    assert parse_paper("A4", PRESETS) == A4
    assert parse_paper("letter:landscape", PRESETS) == Paper("Letter landscape", 279.4, 215.9)
    assert parse_paper("8.5x14in", PRESETS) == Paper("215.9x355.6mm", 215.9, 355.6)
    assert parse_paper("100x150", PRESETS).width == 100
    assert parse_paper("150x100mm:portrait", PRESETS) == Paper("150x100mm", 100, 150)
    with pytest.raises(ValueError, match="unknown paper 'A9'"):
        parse_paper("A9", PRESETS)
    with pytest.raises(ValueError, match="orientation"):
        parse_paper("a4:sideways", PRESETS)


@pytest.mark.parametrize("mode", ["duplex", "gutterfold"])
def test_crop_marks_stay_6_mm_from_the_edge_of_every_paper_and_mark_every_cut(project, mode):
    """Most printers cannot print the outer 5-6 mm; every mark is printable and every cut is marked at both ends."""
    from generator.definitions.presets import load_papers

    papers = load_papers(project)
    assert len(papers) >= 7
    for paper in papers.values():
        for turned in (False, True):
            opts = Layout(paper.oriented(turned), mode=mode)
            for w, h in [(63.5, 88.9), (69.85, 120.65), (44.45, 63.5)]:
                try:
                    pages = layout([Item(i, w, h) for i in range(30)], opts)
                except LayoutError:
                    continue
                page = pages[0]
                marks = [line for line in page.lines if line.kind == "crop"]
                W, H = page.width, page.height
                for m in marks:
                    edge = min(m.x1, m.x2, m.y1, m.y2, W - max(m.x1, m.x2), H - max(m.y1, m.y2))
                    assert edge >= 6.0 - 1e-9, (paper.name, turned, (w, h), m)
                    assert m.length >= 2.0 - 1e-9
                fronts = [p for p in page.placements if p.side == "front"]
                for x in {round(v, 6) for p in fronts for v in (p.trim.x, p.trim.right)}:
                    ends = [m for m in marks if abs(m.x1 - x) < 1e-6 and abs(m.x2 - x) < 1e-6]
                    assert len(ends) >= 2 if mode == "duplex" else ends, (paper.name, x)
                for y in {round(v, 6) for p in fronts for v in (p.trim.y, p.trim.bottom)}:
                    assert len([m for m in marks if abs(m.y1 - y) < 1e-6 and abs(m.y2 - y) < 1e-6]) >= 2, (paper.name, y)
