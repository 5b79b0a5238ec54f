"""Filling a sheets file again when a few of its cards changed: the last fill of the same skeleton with
only the changed forms filled anew.

The sheets of a deck with one changed card have the same skeleton (the same
pages, marks and card places: see :class:`~generator.render.sheetpdf.Skeleton`)
as before; only the forms of the changed sides hold other pieces.  The last
file filled from that skeleton is opened, each unchanged form keeps what it
holds, and each changed one is filled as :mod:`.assemble` fills it, its
resources shared by fingerprint with those already in the file, the
unchanged forms' included.  The file is written by qpdf, which numbers the
objects as it reaches them from the file's root and leaves out those no longer
reached, so the bytes are those of a file filled whole.  A file any of whose
forms holds a resource that is not shared by its fingerprint alone is
filled whole instead.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pikepdf
from pikepdf import Object

from .assemble import Copier, Filled, Known, Place, Uses, card_forms, fill, fill_into


@dataclass(frozen=True)
class Forms:
    """A sheets file to fill: its ``skeleton`` (and the ``inputs`` it was drawn from), its card forms in the
    order they are filled, each form's piece key, and how to know and fetch a piece by its form's name."""

    skeleton: bytes
    inputs: list
    order: list[str]
    pieces: dict[str, str]
    known: Callable[[str], Known]
    piece: Callable[[str], bytes]


def fill_whole(forms: Forms) -> Filled:
    """Every form of ``forms`` filled (see :func:`~generator.render.assemble.fill`)."""
    return fill(forms.skeleton, forms.known, forms.piece, forms.order)


def refill(previous: Filled, forms: Forms, changed: Sequence[str]) -> Filled | None:
    """``previous`` (filled from the same skeleton) with the forms ``changed`` filled anew from ``forms``; None
    when it cannot be made alike (see the module's text): then fill it whole."""
    if not previous.exact:
        return None
    wanted = set(changed)
    with pikepdf.open(io.BytesIO(previous.pdf)) as pdf:
        found = card_forms(pdf)
        if set(found) != set(previous.uses) or set(found) != set(forms.order):
            return None
        copier = Copier(pdf)
        uses: Uses = {}
        for name in sorted(found):
            if name in wanted:
                continue
            used = uses[name] = [(tuple(place), key) for place, key in previous.uses[name]]
            resources = found[name].get("/Resources")
            for place, key in used:
                obj = _at(resources, place)
                if obj is None:
                    return None
                copier.by_content.setdefault(key, obj)
                below = [
                    (inner[len(place) :], k) for inner, k in used if len(inner) > len(place) and inner[: len(place)] == place
                ]
                copier.inside.setdefault(key, below)
        names = [name for name in forms.order if name in wanted]
        filled = fill_into(pdf, copier, found, names, forms.known, forms.piece, uses)
    return filled if filled.exact else None


def _at(resources: Object | None, place: Place) -> Object | None:
    """The indirect object at ``place`` in a form's ``resources``, or None when there is none."""
    obj = resources
    try:
        for step in place:
            obj = obj[step]  # type: ignore[index]
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return obj if isinstance(obj, Object) and obj.is_indirect else None
