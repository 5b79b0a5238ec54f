"""What lies out of place on one side: the safe-zone check's findings, as ``validate`` prints them."""

from __future__ import annotations

from ..errors import AetherpressError
from ..faces.drawn import DrawnSides
from ..faces.safezone import card_findings, finding_problem
from .sides import Side


def zone_findings(faces: DrawnSides, side: Side) -> list[str]:
    """Texts outside the safe zone and frames that stop in the bleed, one line each (from the side as kept, with
    the boxes its texts were fitted to)."""
    try:
        found = card_findings(faces, side.card, side.kind)
    except AetherpressError:  # a side that cannot be drawn tells why among its problems
        return []
    return list(dict.fromkeys(f"error: {finding_problem(faces.renderer, side.card, side.kind, f)}" for f in found))
