"""Sheets PDFs written from kept pieces: the render stage's :func:`~generator.render.sheetpdf.write_job` with
its pieces and its pages without cards taken from the store (or drawn and kept)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from ..definitions.model import Deck
from ..imposition.layout import Layout
from ..render.assemble import Filled
from ..render.refill import ToFill, fill_whole, refill
from ..render.sheetpdf import Progress, SheetOptions, Skeleton, write_job
from .context import ProjectContext
from .keptpieces import Pieces
from .store import Store

SKELETONS = "skeletons"
FILLS = "fills"


def kept_skeleton(store: Store) -> Callable[[Skeleton], bytes]:
    """How a job's pages without cards are made: from the store, or drawn and kept."""

    def skeleton_of(skeleton: Skeleton) -> bytes:
        return store.memo_bytes(SKELETONS, skeleton.inputs, skeleton.draw)

    return skeleton_of


def kept_fill(store: Store) -> Callable[[ToFill], bytes]:
    """How a job's card forms are filled: the last file filled from the same skeleton, as it is when it holds the
    same pieces, with only the changed forms filled anew when a few changed (see :mod:`..render.refill`), or
    every form filled; the file kept as the last fill of its skeleton."""

    def fill_of(forms: ToFill) -> bytes:
        key = store.key(FILLS, forms.inputs)
        last = _last_fill(store, key)
        if last is not None and last[0] == forms.pieces:
            return last[1].pdf
        filled = None
        if last is not None:
            changed = [name for name in forms.order if last[0].get(name) != forms.pieces[name]]
            if len(changed) * 2 <= len(forms.order):
                filled = refill(last[1], forms, changed)
        filled = filled or fill_whole(forms)
        head = {"pieces": forms.pieces, "uses": filled.uses, "exact": filled.exact}
        store.put_parts(FILLS, key, json.dumps(head, sort_keys=True).encode(), filled.pdf)
        return filled.pdf

    return fill_of


def _last_fill(store: Store, key: str) -> tuple[dict[str, str], Filled] | None:
    """The pieces and the file of the last fill kept under ``key``; None when there is none (or it is damaged)."""
    found = store.get_parts(FILLS, key)
    if found is None:
        return None
    head, pdf = found
    try:
        data = json.loads(head)
        pieces, uses, exact = data["pieces"], data["uses"], data["exact"]
        if not (isinstance(pieces, dict) and isinstance(exact, bool) and _uses(uses)):
            return None
    except (ValueError, KeyError, TypeError):
        return None
    return pieces, Filled(pdf, {name: [(tuple(place), key) for place, key in used] for name, used in uses.items()}, exact)


def _uses(data: object) -> bool:
    """Are ``data`` each form's shared objects by place, as :class:`~generator.render.assemble.Filled` has them?"""
    return isinstance(data, dict) and all(
        isinstance(used, list)
        and all(
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], list)
            and all(isinstance(step, (str, int)) for step in item[0])
            and isinstance(item[1], str)
            for item in used
        )
        for used in data.values()
    )


def write_kept_job(
    context: ProjectContext,
    decks: Sequence[Deck],
    target: Path,
    options: SheetOptions,
    progress: Progress | None = None,
    title: str | None = None,
    pieces: Pieces | None = None,
) -> Path:
    """Write print sheets for several decks in one PDF (see :func:`~generator.render.sheetpdf.write_job`)."""
    pieces = pieces or Pieces(context.store, [context.sides(d, options.draft) for d in decks], options.greyscale)
    store = context.store
    return write_job(decks, target, options, pieces, progress, title, kept_skeleton(store), kept_fill(store))


def write_sheets(
    context: ProjectContext,
    deck: Deck,
    target: Path,
    layout: Layout | SheetOptions,
    *,
    copies: int = 1,
    greyscale: bool = False,
    progress: Progress | None = None,
) -> Path:
    """Write one deck's print sheets with ``layout`` (paper, duplex, marks...)."""
    options = layout if isinstance(layout, SheetOptions) else SheetOptions(layout, copies, greyscale)
    return write_kept_job(context, [deck], target, options, progress)
