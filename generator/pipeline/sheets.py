"""Sheets PDFs written from kept pieces: the render stage's :func:`~generator.render.sheetpdf.write_job` with
its pieces and its pages without cards taken from the store (or drawn and kept)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ..definitions.model import Deck
from ..imposition.layout import Layout
from ..render.sheetpdf import Progress, SheetOptions, Skeleton, write_job
from .context import ProjectContext
from .keptpieces import Pieces
from .store import Store

SKELETONS = "skeletons"


def kept_skeleton(store: Store) -> Callable[[Skeleton], bytes]:
    """How a job's pages without cards are made: from the store, or drawn and kept."""

    def skeleton_of(skeleton: Skeleton) -> bytes:
        return store.memo_bytes(SKELETONS, skeleton.inputs, skeleton.draw)

    return skeleton_of


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
    return write_job(decks, target, options, pieces, progress, title, skeleton_of=kept_skeleton(context.store))


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
