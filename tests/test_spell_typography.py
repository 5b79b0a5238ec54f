"""Spell cards: one title size per deck, every rule ranged left and centred in its space, the lower third never
empty, and each spell's odds line worded from the counted odds."""

from __future__ import annotations

import pytest

from generator.faces.render import FaceRenderer
from generator.faces.svg import parse_svg
from generator.faces.textfit import fit_lines
from generator.geometry import Box
from generator.pipeline.context import ProjectContext
from generator.rulebook.oddsline import change_line, with_odds_lines


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


def test_every_spells_rules_are_ranged_left(spell_faces, definitions):
    """One alignment rule for rules text: every line of every spell's effect is ranged left."""
    ink = definitions["aetherial"].base.style["ink"]
    for card, texts in spell_faces:
        rules = [t for t in texts if "Garamond" in (t.get("font-family") or "") and t.get("fill") == ink]
        assert rules and {t.get("text-anchor") for t in rules} <= {None, "start"}, card


@pytest.fixture(scope="module")
def spells_with_odds(project):
    """The Aetherial deck as the build draws it (each spell with its odds line), its renderer and the games."""
    context = ProjectContext(project)
    deck = with_odds_lines(context.definitions["aetherial"].build(()), context.hands)
    return deck, FaceRenderer(project, deck), context.hands


def test_no_spell_leaves_its_lower_third_empty_and_its_effect_sits_in_the_middle(spells_with_odds):
    deck, faces, _ = spells_with_odds
    safe = faces.geometry.safe_box
    for card in deck.cards:
        faces.face(card)
        boxes = dict(faces.text_boxes)
        lowest = max(b.bottom for field, b in faces.text_boxes if field in ("text", "odds", "flavour"))
        assert lowest > safe.y + safe.h * 2 / 3, card.id  # some of the card's words reach into its lower third
        below = min([b.y - 5 for field, b in faces.text_boxes if field in ("odds", "flavour")] + [safe.bottom - 2.5])
        above = boxes["title"].bottom + 2.4 + 18.5 + 17  # the effect's space begins under the sigil
        effect = boxes["text"]
        assert abs((effect.y - above) - (below - effect.bottom)) < 3.5, card.id  # centred (ascent/descent aside)


def test_each_spell_prints_its_odds_line_from_the_counted_odds(spells_with_odds):
    deck, faces, hands = spells_with_odds
    game = hands.games["founders-flip"]
    deal = hands.odds_table("founders-flip")
    worded = 0
    for card in deck.cards:
        svg = faces.face(card)
        fields = {field for field, _ in faces.text_boxes}
        if card.id in game.modifiers and hands.counted("founders-flip", (card.id,)):
            line = change_line(hands.odds_table("founders-flip", modifiers=(card.id,)), deal)
            assert card.attributes["odds"] == line and "odds" in fields, card.id
            assert all(word in svg for word in line.replace("\u00a0", " ").split()[:3]), card.id
            worded += 1
        else:
            assert "odds" not in card.attributes and "odds" not in fields, card.id
    assert worded >= 10
    # the words follow the figures: the rainbow makes a Flush 6.8 times likelier, said "seven times likelier"
    rainbow = hands.odds_table("founders-flip", modifiers=("a-rainbow-in-light-and-pigment",))
    flush = next(c.probability for c in rainbow.categories if c.name == "Flush")
    dealt = next(c.probability for c in deal.categories if c.name == "Flush")
    assert 6.5 <= flush / dealt < 7.5
    assert deck.card("a-rainbow-in-light-and-pigment").attributes["odds"] == "A Flush becomes seven times likelier"


def test_a_title_is_tracked_tighter_before_it_is_set_smaller():
    frame = Box(0, 0, 30, 12)
    text = "The Naturalist’s Tumult"
    loose = fit_lines(text, frame, "Cinzel", 5.0, 3.0, weight="bold", max_lines=2)
    tight = fit_lines(text, frame, "Cinzel", 5.0, 3.0, weight="bold", max_lines=2, tracking=-0.05)
    assert loose.size < 5.0 and loose.tracking == 0
    assert tight.size > loose.size and -0.05 <= tight.tracking < 0
    assert f'letter-spacing="{tight.tracking * tight.size:g}"' in str(tight.svg())
    assert frame.contains(tight.box)
