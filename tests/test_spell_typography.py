"""Spell cards: one title size per deck, rules hung under the sigil, long rules ranged left."""

from __future__ import annotations

import pytest

from generator.faces.render import FaceRenderer
from generator.faces.svg import parse_svg
from generator.faces.textfit import fit_lines
from generator.geometry import Box


@pytest.fixture(scope="module")
def spell_faces(project, definitions):
    """(card id, the face's <text> elements) for every Aetherial card, as drawn."""
    deck = definitions["aetherial"].build(())
    faces = FaceRenderer(project, deck)
    return [(card.id, list(parse_svg(faces.face(card), "test").iter("{*}text"))) for card in deck.cards]


def _sizes(texts, family, **attributes):
    return {
        float(t.get("font-size"))
        for t in texts
        if family in (t.get("font-family") or "") and all(t.get(k) == v for k, v in attributes.items())
    }


def test_every_spell_title_has_the_one_size_and_none_is_smaller_than_its_rules(spell_faces):
    titles = {card: _sizes(texts, "Cinzel", **{"font-weight": "bold"}) for card, texts in spell_faces}
    rules = {card: _sizes(texts, "Garamond", **{"font-style": None}) for card, texts in spell_faces}
    assert set().union(*titles.values()) == {max(set().union(*titles.values()))}, titles
    for card, _ in spell_faces:
        assert titles[card] and rules[card]
        assert min(titles[card]) >= max(rules[card]), card


def test_rules_hang_from_one_line_under_the_sigil_and_long_rules_are_ranged_left(spell_faces):
    firsts, anchors = set(), {}
    for card, texts in spell_faces:
        rules = [t for t in texts if "Garamond" in (t.get("font-family") or "") and t.get("font-style") is None]
        size = float(rules[0].get("font-size"))
        firsts.add(round(min(float(t.get("y")) for t in rules) - size, 1))  # about the top of the first line
        anchors[card] = ({t.get("text-anchor") for t in rules}, len({t.get("y") for t in rules}))
    assert len(firsts) == 1, firsts
    assert all(anchor == {None} for anchor, lines in anchors.values() if lines > 3), anchors
    assert any(anchor == {"middle"} for anchor, lines in anchors.values() if lines <= 3), anchors


def test_a_title_is_tracked_tighter_before_it_is_set_smaller():
    frame = Box(0, 0, 30, 12)
    text = "The Naturalist’s Tumult"
    loose = fit_lines(text, frame, "Cinzel", 5.0, 3.0, weight="bold", max_lines=2)
    tight = fit_lines(text, frame, "Cinzel", 5.0, 3.0, weight="bold", max_lines=2, tracking=-0.05)
    assert loose.size < 5.0 and loose.tracking == 0
    assert tight.size > loose.size and -0.05 <= tight.tracking < 0
    assert f'letter-spacing="{tight.tracking * tight.size:g}"' in str(tight.svg())
    assert frame.contains(tight.box)
