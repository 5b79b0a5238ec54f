"""Every side the decks draw, checked as ``validate`` checks it: each side drawn once for every check
(or taken from the cache, with the boxes its texts were fitted to, when a build drew it).

The checks that read a drawn side (what prints otherwise than shown, what comes near
the cut, what leaves the safe zone) share one drawing of it.  A side that
comes out as one already checked (the same template, SVG and fitted text
boxes: most backs of a deck, say) would only repeat its findings, each told
once per template, so it is not checked again: a deck of a thousand cards
with one back has its back checked once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from ..errors import AetherpressError, Problem
from ..faces.lint import print_problems, side_problems
from ..faces.safezone import zone_problems
from .context import ProjectContext


def check_drawn(context: ProjectContext, decks: Iterable) -> tuple[list[Problem], list[Problem], list[Problem]]:
    """(problems of the drawing and the cut, problems of the safe zones, what prints otherwise than shown: the
    warnings ``build`` gives too) in every face and back the decks draw."""
    drawing: list[Problem] = []
    zones: list[Problem] = []
    differs: list[Problem] = []
    told_drawing: set[tuple[str, str]] = set()
    told_zones: set[tuple[str, str]] = set()
    for deck in decks:
        # a build's sides, when it drew them (a check keeps nothing new)
        kept = context.sides(deck, keep=False)
        faces = kept.renderer
        checked: set[tuple[str, str]] = set()
        for card in deck.cards:
            for side in ("face", "back"):
                template = deck.template_for(card) if side == "face" else deck.back_for(card)
                try:
                    drawn = kept.side(card, "front" if side == "face" else "back")
                except AetherpressError as exc:  # a template that does not render, or a text that does not fit
                    drawing.extend(p for p in exc.problems if p not in drawing)
                    continue
                svg, boxes = drawn.svg, list(drawn.boxes)
                alike = (template, hashlib.sha256(f"{svg}\n{boxes!r}".encode()).hexdigest())
                if alike in checked:
                    continue
                checked.add(alike)
                what = f"card '{card.id}'" if side == "face" else f"the back of card '{card.id}'"
                drawing += side_problems(faces, template, what, svg, boxes, told_drawing)
                differs += print_problems(faces, template, what, svg, told_drawing, drawn.differs)
                zones += zone_problems(faces, card, side, template, svg, boxes, told_zones)
    return drawing, zones, differs


def print_differences(context: ProjectContext, deck) -> list[Problem]:
    """What the deck's sides draw that prints otherwise than a browser shows it, the first of each finding per
    template (as ``build`` warns of them); the sides a build drew are taken from the cache, others drawn and kept."""
    kept = context.sides(deck)
    told: set[tuple[str, str]] = set()
    found: list[Problem] = []
    for card in deck.cards:
        for side in ("front", "back"):
            template = deck.template_for(card) if side == "front" else deck.back_for(card)
            what = f"card '{card.id}'" if side == "front" else f"the back of card '{card.id}'"
            drawn = kept.side(card, side)
            found += print_problems(kept.renderer, template, what, drawn.svg, told, drawn.differs)
    return found
