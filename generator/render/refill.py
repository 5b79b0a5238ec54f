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

So that a file written again writes its streams alike, the skeleton is
settled (:func:`settled`) and every stream of a file to be filled again is
compressed by Flate here, not by qpdf as it writes (qpdf puts the filter it
adds last in the stream's dictionary, where a file read back has it in order).
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pikepdf
from pikepdf import Name, Object, Pdf, Stream

from .assemble import (
    A85_OVER_FLATE,
    Copier,
    Filled,
    Known,
    Place,
    Uses,
    card_forms,
    fill,
    fill_into,
    filters_of,
    flate_alone,
    written,
)


@dataclass(frozen=True)
class ToFill:
    """A sheets file to fill: its ``skeleton`` (and the ``inputs`` it was drawn from), its card forms in the
    order they are filled, each form's piece key, and how to know and fetch a piece by its form's name."""

    skeleton: bytes
    inputs: list
    order: list[str]
    pieces: dict[str, str]
    known: Callable[[str], Known]
    piece: Callable[[str], bytes]


def fill_whole(forms: ToFill) -> Filled:
    """Every form of ``forms`` filled (see :func:`~generator.render.assemble.fill`)."""
    return fill(forms.skeleton, forms.known, forms.piece, forms.order, refillable)


def refill(previous: Filled, forms: ToFill, changed: Sequence[str]) -> Filled | None:
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
        filled = fill_into(pdf, copier, found, names, forms.known, forms.piece, uses, refillable)
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


# filters whose data qpdf writes as it is read (it decodes the others, and compresses what has no filter, when it
# writes a file: then the stream's dictionary is written in another order the next time)
_KEPT_FILTERS = frozenset({"/FlateDecode", "/DCTDecode", "/JPXDecode", "/CCITTFaxDecode", "/JBIG2Decode"})


def _compressed(pdf: Pdf) -> bool:
    """Compress by Flate each stream of ``pdf`` that has no filter (as qpdf would when it writes the file, but
    with the filter in its place in the dictionary); whether qpdf then writes every stream as it is, so that the
    file written again writes it alike."""
    alike = True
    for obj in pdf.objects:
        if not isinstance(obj, Stream):
            continue
        understood, filters = filters_of(obj.get("/Filter"))
        if understood and filters is None and "/DecodeParms" not in obj:
            obj.write(zlib.compress(obj.read_raw_bytes()), filter=Name.FlateDecode)
            continue
        if isinstance(filters, list) and len(filters) == 1:
            filters = filters[0]
        alike = alike and understood and isinstance(filters, str) and filters in _KEPT_FILTERS
    return alike


def refillable(pdf: Pdf) -> tuple[bytes, bool]:
    """A sheets file written to be filled again (see :func:`_saved`), and whether its streams allow it."""
    alike = _compressed(pdf)
    return _saved(pdf), alike


def _saved(pdf: Pdf) -> bytes:
    """``pdf`` as a reproducible file whose bytes follow from its objects alone, however they were made.

    qpdf numbers the objects it writes as it reaches them from the file's root, except that it numbers those it
    packs into one object stream in the order of their numbers as read; so the file is first written without
    object streams (every object numbered as it is reached), then read back and written with them.
    """
    with pikepdf.open(io.BytesIO(written(pdf, pikepdf.ObjectStreamMode.disable))) as numbered:
        return written(numbered, pikepdf.ObjectStreamMode.generate)


def settled(data: bytes) -> bytes:
    """A PDF (made by reportlab) with every stream compressed by Flate alone (reportlab's ASCII85 layer dropped),
    so that qpdf has nothing to decode or compress in it, and a file filled from it and a file filled from that
    file write it alike (see the module's text)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, Stream) and "/DecodeParms" not in obj:
                understood, filters = filters_of(obj.get("/Filter"))
                if understood and filters == A85_OVER_FLATE:
                    obj.write(flate_alone(obj.read_raw_bytes(), filters)[0], filter=Name.FlateDecode)
        _compressed(pdf)
        return written(pdf, pikepdf.ObjectStreamMode.disable)
