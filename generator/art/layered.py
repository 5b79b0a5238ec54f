"""Art in several colours: dragons and the Founding crests, drawn as layers of vector paths.

A piece of art is a list of layers, each a role and path data in the unit
box (filled non-zero: parts join, holes are drawn the other way round).
Templates draw it with ``art(name, cx, cy, size, colours)``, where
``colours`` maps each role (``body``, ``wing``, ``belly``, ``line``,
``light`` ...) to a fill; a role left out is not drawn, so the same art
serves a full-colour card and a black-and-white one.  ``shade(colour, k)``
lightens a colour towards white (k > 0) or darkens it towards black (k < 0),
for the tints of one dragon.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from markupsafe import Markup

from .crests import CRESTS
from .dragons import DRAGONS
from .pathdata import path_element, place

Layers = list[tuple[str, str]]
_ART: dict[str, Callable[[], Layers]] = {**DRAGONS, **CRESTS}


class UnknownArt(ValueError):
    """An art name the library does not have."""


@cache
def art_layers(name: str) -> tuple[tuple[str, str], ...]:
    if name not in _ART:
        close = difflib.get_close_matches(str(name), list(_ART), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise UnknownArt(f"unknown art '{name}'{hint}; art: {', '.join(_ART)}")
    return tuple(_ART[name]())


def art_svg(
    name: str, cx: float, cy: float, size: float, colours: Mapping[str, Any], rotate: float = 0.0, flip: bool = False
) -> Markup:
    """The layers of art ``name``, ``size`` mm across, centred at (cx, cy), turned ``rotate`` degrees
    (and mirrored left to right with ``flip``), each filled with its role's colour."""
    out = []
    for role, d in art_layers(name):
        colour = colours.get(role)
        if not colour or colour == "none":
            continue
        placed = place(d, cx, cy, size, rotate, bool(flip))
        out.append(path_element(placed, fill=str(colour), fill_rule="nonzero"))
    return Markup("<g>" + "".join(out) + "</g>")


def shade(colour: str, amount: float) -> str:
    """``colour`` (#rrggbb) mixed with white (``amount`` > 0) or black (< 0) by that share; greys stay grey."""
    text = str(colour).lstrip("#")
    rgb = [int(text[i : i + 2], 16) for i in (0, 2, 4)]
    k = max(-1.0, min(1.0, float(amount)))
    target = 255 if k > 0 else 0
    mixed = [round(v + (target - v) * abs(k)) for v in rgb]
    return "#" + "".join(f"{v:02x}" for v in mixed)
