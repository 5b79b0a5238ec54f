"""Sheet defaults by the cards' edges, and shared-bleed sheets: 9 poker cards on A4."""

from __future__ import annotations

import argparse
import dataclasses
import io
import math
from itertools import pairwise

import numpy as np
import pikepdf
import pytest

from generator.cli import parser
from generator.cli.common import layout_from_args
from generator.definitions.presets import Paper
from generator.definitions.styles import DARK, dark_edges, luminance
from generator.imposition.grids import LayoutError
from generator.imposition.layout import DARK_GAPS, Layout, cards_per_page, layout
from generator.imposition.shapes import Item
from generator.pipeline.context import ProjectContext
from generator.pipeline.keptpieces import Pieces
from generator.render import edgecolour
from generator.render.pagepng import render_pages
from generator.render.sheetpdf import SheetOptions, _CardForms, layout_job
from generator.render.vector import side_pdf

A4 = Paper("A4", 210.0, 297.0)
POKER = (63.5, 88.9)
TAROT = (70.0, 120.0)


def test_a_deck_is_dark_at_its_edges_by_its_style(definitions):
    dark = {key for key, d in definitions.items() if dark_edges(d.base.style)}
    assert "aetherial" in dark
    assert not dark & {"imperial", "standard", "pernese"}
    assert dark_edges({"paper": "#101010"}) and not dark_edges({"paper": "#101010", "edge": "#f0f0f0"})


def test_dark_decks_keep_their_bleed_with_gaps_by_default_and_light_ones_are_trimmed():
    opts = Layout(A4, mode="grid", bleed=None, gap=None)
    items = [Item(i, *TAROT, 3.0, dark=i < 4) for i in range(8)]
    dark, light = (page.placements for page in layout(items, opts))
    assert {p.bleed for p in dark} == {3.0} and {p.bleed for p in light} == {0.0}
    gaps = {round(b.box.x - a.box.right, 6) for a, b in pairwise(dark) if abs(a.trim.y - b.trim.y) < 1e-6}
    assert gaps == {max(DARK_GAPS)}
    assert {round(b.trim.x - a.trim.right, 6) for a, b in pairwise(light) if abs(a.trim.y - b.trim.y) < 1e-6} == {0.0}
    # the gap never costs a card: poker cards with their bleed fill A4 as they would butted
    assert cards_per_page(*POKER, opts, 3.0, dark=True) == cards_per_page(*POKER, Layout(A4, bleed=math.inf), 3.0)


def test_the_build_chooses_by_deck_unless_told_and_says_so_in_its_help(project):
    cli = parser("build")
    told = layout_from_args(project, cli.parse_args(["build", "--bleed", "--gap", "1"]))
    assert (told.bleed, told.gap) == (math.inf, 1.0)
    default = layout_from_args(project, cli.parse_args(["build"]))
    assert (default.bleed, default.gap) == (None, None)
    (sub,) = [a for a in cli._actions if isinstance(a, argparse._SubParsersAction)]
    text = sub.choices["build"].format_help()
    assert "dark at their edges" in text and "--shared-bleed" in text


def test_shared_bleed_fits_nine_poker_cards_on_a4_portrait_each_cut_shared_and_marked():
    opts = Layout(A4, mode="duplex", shared=True)
    assert cards_per_page(*POKER, opts, 3.0) == 9
    assert cards_per_page(*POKER, Layout(A4, bleed=math.inf, gap=3), 3.0) == 4
    front, back = layout([Item(i, *POKER, 3.0, dark=True) for i in range(9)], opts)
    cards = front.placements
    assert len(cards) == 9 and {p.rotation for p in cards} == {0}
    xs = sorted({round(v, 6) for p in cards for v in (p.trim.x, p.trim.right)})
    ys = sorted({round(v, 6) for p in cards for v in (p.trim.y, p.trim.bottom)})
    assert len(xs) == 4 and len(ys) == 4  # 3 x 3 cards, one cut between neighbours
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            assert not a.box.overlaps(b.box)
        assert a.box.within(opts.printable)
    # bleed only on the block's outside: all round it, none between neighbours
    outside = [p for p in cards if p.edges is not None and any(p.edges)]
    assert len(outside) == 8 and cards[4].edges == (0.0, 0.0, 0.0, 0.0)
    assert cards[0].edges is not None and cards[0].edges[1] == 3.0 and 0 < cards[0].edges[0] <= 3.0
    marks = [line for line in front.lines if line.kind == "crop"]
    for x in xs:
        assert len([m for m in marks if abs(m.x1 - x) < 1e-6 and abs(m.x2 - x) < 1e-6]) == 2, x
    for y in ys:
        assert len([m for m in marks if abs(m.y1 - y) < 1e-6 and abs(m.y2 - y) < 1e-6]) == 2, y
    assert not any(m.touches(p.box) for m in marks for p in cards)
    # the backs keep the bleed on the same outside edges, mirrored
    assert sorted(p.box.w for p in back.placements) == sorted(p.box.w for p in cards)
    assert all(b.box.within(opts.printable) for b in back.placements)


def test_a_partial_last_row_keeps_the_bleed_where_no_card_is_beside_it():
    pages = layout([Item(i, *POKER, 3.0) for i in range(7)], Layout(A4, mode="grid", shared=True))
    cards = pages[0].placements
    assert cards[5].edges == (0.0, 0.0, cards[5].edges[2], 3.0)  # the cell below is empty
    assert cards[6].edges is not None and cards[6].edges[2] == 3.0  # and so is the one right of the last card
    assert cards[4].edges == (0.0, 0.0, 0.0, 0.0)  # the last card's bleed takes the corner below it


def test_shared_bleed_with_bleed_or_gap_is_refused():
    with pytest.raises(LayoutError, match="shared bleed"):
        Layout(A4, shared=True, gap=2.0)
    with pytest.raises(LayoutError, match="shared bleed"):
        Layout(A4, shared=True, bleed=math.inf)


def _subset(definitions, deck_id: str, ids: list[str]):
    deck = definitions[deck_id].build(())
    return dataclasses.replace(deck, cards=tuple(c for c in deck.cards if c.id in ids))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("deck_id", "ids", "colours"),
    [
        ("imperial", ["1-houses", "2-houses", "magist", "3-houses", "mage"], 3),  # dark Founding cards among cream
        ("dragons-gambit", ["one-earth", "one-fire", "two-earth", "one-water", "two-fire"], 3),  # a border a suit
        ("standard", ["2-spades", "3-hearts", "king-clubs", "ace-diamonds"], 1),  # all cream: cuts shared
        ("aetherial", ["an-imperial-decree", "sutet-rots"], 1),  # dark borders alike: the style's own gaps
    ],
)
def test_no_two_neighbours_whose_edges_differ_share_a_cut(project, definitions, deck_id, ids, colours):
    """The sheets read each card's front edge as drawn: a card dark at its edge keeps its bleed with a gap; light
    cards whose edges differ are never neighbours (each edge colour its own pages), and light cards alike are
    butted."""
    deck = _subset(definitions, deck_id, ids)
    context = ProjectContext(project)
    pieces = Pieces(context.store, [context.sides(deck)])
    forms = _CardForms(pieces)
    options = SheetOptions(Layout(A4, mode="grid", bleed=None, gap=None))
    cards, pages = layout_job([deck], [f.renderer for f in pieces.faces], options, forms.edge)
    edge = {p.item: forms.edge(0, cards[p.item].card) for page in pages for p in page.placements}
    assert len(set(edge.values())) >= colours and sum(len(page.placements) for page in pages) == len(ids)
    for page in pages:
        placed = page.placements
        rows = [(a, b) for a, b in pairwise(placed) if abs(a.trim.y - b.trim.y) < 1e-6]
        cols = [(a, b) for a in placed for b in placed if abs(a.trim.x - b.trim.x) < 1e-6 and b.trim.y > a.trim.y]
        for p in placed:
            dark = luminance("#{:02x}{:02x}{:02x}".format(*edge[p.item])) < DARK
            assert (p.bleed > 0) == dark, cards[p.item].card.id  # dark edges keep their bleed; light ones butt
        for a, b in rows + cols:  # neighbours: of one edge colour, or apart with their bleed
            apart = a.bleed > 0 and b.bleed > 0 and not a.box.overlaps(b.box)
            assert edge[a.item] == edge[b.item] or apart, (cards[a.item].card.id, cards[b.item].card.id)
    if deck_id == "imperial":  # the Founding cards on a page of their own, apart, each with its bleed
        (founding,) = [page for page in pages if any(cards[p.item].card.group == "founding" for p in page.placements)]
        assert {cards[p.item].card.group for p in founding.placements} == {"founding"}
        (a, b) = founding.placements
        assert a.bleed == b.bleed == 3.0 and round(b.trim.x - a.trim.right, 6) >= 6.0


@pytest.mark.parametrize(("deck_id", "ids"), [("imperial", ["1-houses", "magist"]), ("dragons-gambit", ["one-earth"])])
def test_an_edge_is_read_alike_whether_the_piece_is_opened_or_not(project, definitions, deck_id, ids):
    """A piece's sRGB profiles are named device RGB in place (no PDF library opens it) where it is written as the
    renderer writes it: the file is as valid, and the side is drawn as the library's rewrite draws it."""
    deck = _subset(definitions, deck_id, ids)
    sides = ProjectContext(project).sides(deck)
    for card in deck.cards:
        piece = side_pdf(sides.side(card, "front").svg, deck.source)
        named = edgecolour._named_in_place(piece)
        assert named is not None and len(named) == len(piece) and b"/DeviceRGB" in named
        with pikepdf.open(io.BytesIO(named)) as document:
            assert document.check_pdf_syntax() == []
            spaces = document.pages[0].Resources.ColorSpace
            assert all(spaces[name] == pikepdf.Name.DeviceRGB for name in list(spaces))
        with pikepdf.open(io.BytesIO(piece)) as document:  # the library's rewrite, for comparison
            for name in list(document.pages[0].Resources.ColorSpace):
                document.pages[0].Resources.ColorSpace[name] = pikepdf.Name.DeviceRGB
            rewritten = io.BytesIO()
            document.save(rewritten)
        one, other = (np.asarray(next(render_pages(pdf, (70, 95)))) for pdf in (named, rewritten.getvalue()))
        assert (one == other).all()
    assert edgecolour._named_in_place(b"%PDF-1.7\n%not a piece\n") is None  # anything else is left to the library
