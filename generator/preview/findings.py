"""What lies out of place on one side: the safe-zone check's findings, as ``validate`` prints them."""

from __future__ import annotations

from ..definitions.model import Deck
from ..errors import AetherpressError
from ..faces.render import FaceRenderer
from ..faces.safezone import card_findings, finding_problem
from ..project import Project
from .sides import Side


def zone_findings(project: Project, deck: Deck, side: Side) -> list[str]:
    """Texts outside the safe zone and frames that stop in the bleed, one line each (drawing the side once more)."""
    faces = FaceRenderer(project, deck)  # a renderer of its own: the check reads the boxes of its own drawing
    try:
        found = card_findings(faces, side.card, side.kind)
    except AetherpressError:  # a side that cannot be drawn tells why among its problems
        return []
    return list(dict.fromkeys(f"error: {finding_problem(faces, side.card, side.kind, f)}" for f in found))
