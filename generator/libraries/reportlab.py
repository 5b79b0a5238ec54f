"""reportlab's internals, the one place they are used.

- closing a form XObject with the canvas's whole state (``Canvas.endForm``
  leaves shadings and graphics states out of a form's resources);
- naming font subsets through ``ttfonts.SUBSETN``, swapped while a font adds
  its objects;
- a pass of ``BaseDocTemplate.multiBuild`` whose pages are not saved;
- the room a frame has, and the height and contents of a ``KeepTogether``
  and the rows of a ``Table``, as measured while laying a book out;
- ``Flowable.drawOn`` made to skip drawing on a sketch canvas while a
  sketch pass runs;
- the document a flowable is laid out in (``Flowable._doctemplateAttr``), for
  a ``DocIf`` whose condition is Python rather than text reportlab evaluates
  (its evaluator inspects the whole stack, 80 ms a call).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, KeepTogether, ListFlowable, ListItem, Table
from reportlab.platypus.flowables import DocIf

__all__ = [
    "PRIVATE_NAMES",
    "IfPage",
    "end_form",
    "frame_fill",
    "frame_height",
    "inner_flowables",
    "kept_content",
    "kept_height",
    "last_row_height",
    "line_texts",
    "share_frame",
    "subset_names",
    "table_cells",
    "table_rows",
    "undrawn_on",
    "unsaved_pass",
]

# (owner, name): every private member used below, each a member of its owner or set by its owner's code; a test
# checks them against the installed reportlab
PRIVATE_NAMES: tuple[tuple[Any, str], ...] = (
    *((Canvas, name) for name in ("_setColorSpace", "_setExtGState", "_setXObjects", "_restartAccumulators")),
    *((Canvas, name) for name in ("_formData", "_pagesize", "_pageCompression", "_preamble", "_code", "_doc")),
    *((Canvas, name) for name in ("_shadingUsed", "_colorsUsed")),
    (ttfonts, "SUBSETN"),
    *((BaseDocTemplate, name) for name in ("_indexingFlowables", "_doSave", "_multiBuildEdits")),
    *((Frame, name) for name in ("_y", "_y1", "_y2", "_height", "_topPadding", "_bottomPadding", "_frame")),
    (KeepTogether, "_content"),
    (KeepTogether, "_H"),
    (Table, "_cellvalues"),
    (ListFlowable, "_flowables"),
    (ListItem, "_flowables"),
    (Table, "_rowHeights"),
    (Flowable, "_doctemplateAttr"),
)


class IfPage(DocIf):
    """``block`` (flowables) set where it stands when ``test`` holds of the number of the page being laid out."""

    def __init__(self, test: Callable[[int], bool], block: list[Flowable]):
        super().__init__("", block)
        self.test = test

    def funcWrap(self, aW: float, aH: float) -> bool:
        return self.test(self._doctemplateAttr("page"))


class _CompleteForm(pdfdoc.PDFFormXObject):
    """A form whose resources include its shadings, colour spaces and graphics states."""

    ExtGState = None
    Resources = None
    _shadingUsed: dict = {}
    _colorsUsed: dict = {}

    def format(self, document):
        if not self.Resources:
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            if self.ExtGState:
                resources.ExtGState = self.ExtGState
            resources.setShading(self._shadingUsed)
            resources.setColorSpace(self._colorsUsed)
            self.Resources = resources
        return super().format(document)


def end_form(canvas: Canvas) -> None:
    """Like ``canvas.endForm()``, but the form keeps every resource it names.

    reportlab's ``endForm`` gives a form a resource dictionary with fonts and nested forms only.  A form that
    draws a gradient (a shading) or uses transparency (an ExtGState) then names resources it does not have:
    pdfium forgives that, but poppler, Acrobat's preflight and print-shop RIPs do not, and gradients or opacity
    silently vanish.  Here the form is closed with a full resource dictionary, exactly as reportlab does for a page.
    """
    name, lowerx, lowery, upperx, uppery = canvas._formData
    width, height = canvas._pagesize
    form = _CompleteForm(
        lowerx=lowerx, lowery=lowery, upperx=width if upperx is None else upperx, uppery=height if uppery is None else uppery
    )
    form.compression = canvas._pageCompression
    form.setStreamList([canvas._preamble] + canvas._code)
    canvas._setColorSpace(form)
    canvas._setExtGState(form)
    canvas._setXObjects(form)
    form._shadingUsed = dict(canvas._shadingUsed)
    canvas._doc.addForm(name, form)
    canvas._restartAccumulators()
    canvas.pop_state_stack()


_SUBSET_LOCK = threading.Lock()  # reportlab names subsets through a module function, swapped while a font adds its objects


@contextmanager
def subset_names(tags: list[bytes]) -> Iterator[None]:
    """While inside, reportlab names the n-th subset of a font ``tags[n]`` (in place of its ``AAAAAA`` count)."""
    with _SUBSET_LOCK:
        counted = ttfonts.SUBSETN
        ttfonts.SUBSETN = lambda n, *_: tags[n]
        try:
            yield
        finally:
            ttfonts.SUBSETN = counted


@contextmanager
def unsaved_pass(doc: BaseDocTemplate, story: list[Flowable]) -> Iterator[list[Flowable]]:
    """A pass of ``multiBuild`` made inside (``doc.build``), nothing saved; yields the story's indexing flowables.

    The marks the pass makes on the story (a flowable moved to the next frame) are undone on leaving."""
    doc._indexingFlowables = [f for f in story if f.isIndexing()]
    doc._doSave = 0
    edits: list = []
    doc._multiBuildEdits = edits.append
    yield doc._indexingFlowables
    for undo, *args in edits:
        undo(*args)


def frame_fill(frame: Frame) -> tuple[float, float]:
    """The height a frame has used so far and its whole height."""
    return frame._y2 - frame._y, frame._y2 - frame._y1


def frame_height(flowable: Flowable) -> float | None:
    """The inner height of the frame a flowable is being laid out in, or None outside a frame."""
    frame = getattr(flowable, "_frame", None)
    if frame is None:
        return None
    return frame._height - frame._topPadding - frame._bottomPadding


def kept_content(keep: KeepTogether) -> list[Flowable]:
    """The flowables a ``KeepTogether`` holds."""
    return list(keep._content)


def kept_height(keep: KeepTogether) -> float:
    """The height a ``KeepTogether`` measured at its last wrap."""
    return keep._H


def table_rows(table: Table) -> int:
    """The rows of a table (its header rows included)."""
    return len(table._cellvalues)


def table_cells(table: Table) -> list[list]:
    """A table's cell values, row by row."""
    return [list(row) for row in table._cellvalues]


def line_texts(paragraph: Flowable) -> list[str]:
    """The text of each line a wrapped paragraph was broken into (no lines before it is wrapped)."""
    lines = getattr(paragraph.__dict__.get("blPara"), "lines", None) or []
    out = []
    for line in lines:
        if isinstance(line, tuple):  # a paragraph of one face: (extra space, words)
            out.append(" ".join(line[1]))
        else:  # fragments of several faces, each with its text (icons have none)
            out.append("".join(getattr(f, "text", "") or "" for f in getattr(line, "words", ())))
    return [" ".join(word for word in text.split(" ") if word) for text in out]


def inner_flowables(flowable: Flowable) -> list:
    """The flowables a list, list item, keep-together or table cell holds (none for a plain flowable)."""
    for name in ("_flowables", "_content", "flowables", "_cellvalues"):
        held = getattr(flowable, name, None)
        if isinstance(held, (list, tuple)):
            return list(_flat(held))
    content = getattr(flowable, "content", None)
    return [content] if isinstance(content, Flowable) else []


def _flat(held) -> Iterator[Flowable]:
    """The flowables of nested lists and tuples (a table's rows of cells, a cell's flowables)."""
    for item in held:
        if isinstance(item, (list, tuple)):
            yield from _flat(item)
        elif isinstance(item, Flowable):
            yield item


def last_row_height(table: Table) -> float:
    """The height of a wrapped table's last row."""
    return float(table._rowHeights[-1])


def share_frame(flowable: Flowable, keep: Flowable) -> None:
    """Lay ``flowable`` out in the frame ``keep`` is being laid out in."""
    flowable._frame = keep._frame


_UNDRAWN_LOCK = threading.Lock()
_undrawn_users = 0


def _drawn_unless(canvas_type: type, draw_on: Callable) -> Callable:
    @functools.wraps(draw_on)
    def drawOn(self, canvas, x, y, _sW=0):
        if isinstance(canvas, canvas_type):
            return None
        return draw_on(self, canvas, x, y, _sW)

    return drawOn


@contextmanager
def undrawn_on(canvas_type: type) -> Iterator[None]:
    """While inside, a flowable is placed but not drawn on a canvas of ``canvas_type`` (any other canvas draws).

    ``Flowable.drawOn`` is shared by the whole process: it is swapped when the first user enters and put back when
    the last leaves, so passes in other threads see the same method throughout."""
    global _undrawn_users
    with _UNDRAWN_LOCK:
        if _undrawn_users == 0:
            assert not hasattr(Flowable.drawOn, "__wrapped__"), "Flowable.drawOn is already swapped"
            Flowable.drawOn = _drawn_unless(canvas_type, Flowable.drawOn)
        _undrawn_users += 1
    try:
        yield
    finally:
        with _UNDRAWN_LOCK:
            _undrawn_users -= 1
            if _undrawn_users == 0:
                Flowable.drawOn = Flowable.drawOn.__wrapped__
