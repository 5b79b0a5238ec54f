"""Art worth printing: a dragon of its own for each Pernese rank, kept inside its frame; art helpers."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from generator.art.layered import UnknownArt, art_layers, art_svg, shade
from generator.faces.outline import element_boxes
from generator.faces.render import FaceRenderer
from generator.faces.svg import parse_svg
from generator.render.pagepng import render_pages
from generator.render.vector import side_pdf

SVG = "{http://www.w3.org/2000/svg}"


def _silhouette(name: str, px: int = 120) -> np.ndarray:
    colours = {role: "#000000" for role, _ in art_layers(name)}
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm" viewBox="0 0 20 20">'
        f'<rect width="20" height="20" fill="#ffffff"/>{art_svg(name, 10, 10, 19, colours)}</svg>'
    )
    image = next(render_pages(side_pdf(svg, name), (px, px)))
    return np.asarray(image.convert("L")) < 128


def test_each_pernese_rank_has_a_dragon_of_its_own(definitions):
    deck = definitions["pernese"].build(("coloured",))
    arts = {r.id: r.attributes.get("dragon_art") for r in deck.ranks if r.attributes.get("dragon")}
    assert sorted(arts) == ["wl", "ws", "ww"] and len(set(arts.values())) == 3
    shapes = {rank: _silhouette(name) for rank, name in arts.items()}
    for a, b in itertools.combinations(shapes, 2):
        x, y = shapes[a], shapes[b]
        assert 1 - (x & y).sum() / (x | y).sum() >= 0.3, (a, b)  # told apart by their outline alone


def test_court_art_stays_inside_its_frame(project, definitions):
    """The review found the court cards' ring of pips crossing the frame."""
    deck = definitions["pernese"].build(("coloured",))
    faces = FaceRenderer(project, deck)
    for card in (c for c in deck.cards if c.rank in ("ws", "wl", "ww")):
        svg = faces.face(card)
        colour = deck.rank(card.rank).attributes["dragon_colour"]
        frames = [
            r
            for r in parse_svg(svg, "face").iter(f"{SVG}rect")
            if r.get("stroke") == colour and float(r.get("stroke-width")) >= 0.4
        ]
        assert len(frames) == 1, card.id
        f = frames[0]
        x, y, w, h = (float(f.get(k)) for k in ("x", "y", "width", "height"))
        inside = 0
        for _, b in element_boxes(svg):
            holds_frame = b.x <= x and b.y <= y and b.right >= x + w and b.bottom >= y + h  # the field, the frame
            if x < b.cx < x + w and y < b.cy < y + h and not holds_frame:
                assert x - 1e-6 <= b.x and b.right <= x + w + 1e-6 and y - 1e-6 <= b.y and b.bottom <= y + h + 1e-6, (card.id, b)
                inside += 1
        assert inside >= 8, card.id


def test_art_layers_take_their_roles_colours_and_leave_out_the_rest():
    svg = str(art_svg("dragon-flight", 10, 10, 20, {"body": "#123456", "wing": "#abcdef"}))
    assert svg.count("<path") == 2 and 'fill="#123456"' in svg and 'fill="#abcdef"' in svg
    flipped = str(art_svg("dragon-flight", 10, 10, 20, {"body": "#123456"}, flip=True))
    assert flipped != str(art_svg("dragon-flight", 10, 10, 20, {"body": "#123456"}))
    with pytest.raises(UnknownArt, match="did you mean 'dragon-queen'"):
        art_layers("dragon-quen")


def test_shade_mixes_towards_white_or_black_and_keeps_greys_grey():
    assert shade("#804020", 0.5) == "#c0a090"
    assert shade("#804020", -0.5) == "#402010"
    assert shade("#808080", 0.3) == "#a6a6a6"


def test_founding_cards_show_their_own_crest(project, definitions):
    deck = definitions["imperial"].build(("standard",))
    faces = FaceRenderer(project, deck)
    founding = [c for c in deck.cards if c.group == "founding"]
    crests = {c.id: c.attributes["crest"] for c in founding}
    assert len(set(crests.values())) == 4
    svgs = {c.id: faces.face(c) for c in founding}
    for card_id, svg in svgs.items():
        # the crest is drawn in several tones: the field's deep colour, gold, the paper and (some) a gem
        assert len({role for role, _ in art_layers(crests[card_id])}) >= 3
        assert deck.style["gold_dark"] in svg and deck.style["founding_fields"][card_id][0] in svg
    shapes = {name: _silhouette(name) for name in crests.values()}
    for a, b in itertools.combinations(shapes, 2):
        x, y = shapes[a], shapes[b]
        assert 1 - (x & y).sum() / (x | y).sum() >= 0.3, (a, b)


def test_symbol_names_are_the_drawn_symbols():
    """The names the definitions accept are exactly the symbols the library draws, in its order."""
    from generator.art.symbols import SYMBOLS
    from generator.resources.symbolnames import SYMBOL_NAMES

    assert tuple(SYMBOLS) == SYMBOL_NAMES
