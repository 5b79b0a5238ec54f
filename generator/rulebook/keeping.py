"""Keeping things together without leaving pages half empty.

- :class:`KeepWithStart` is the document's keep-with-next: a heading or an
  introduction stays with what follows it, but only with its *start* (two rows
  of a table, the first lines of a paragraph) when the whole will not fit, so a
  long table never leaves the page before it half empty.
- :class:`Whole` keeps a table or a row of pictures in one piece, unless
  moving it would leave the page less than two thirds full; a table of
  :data:`SHORT_TABLE` rows or fewer is never broken.
- :class:`BreakOut` lets a chart or a wide table use the whole frame, wider
  than the measure of the running text.
- :class:`Stack` draws a few flowables as one (a row of pictures and captions).
- :class:`BookTable` is a table or chart of the text: its parts know what they
  are, and a chart never leaves a single row at a page's foot.
"""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether, Table

from ..libraries.reportlab import frame_height, kept_content, kept_height, last_row_height, share_frame, table_rows

FULL = 2 / 3  # a page is filled at least this far, unless a new chapter starts on the next
INTRODUCTION = 0.25  # text under a heading shorter than this share of a page introduces the table after it
SHORT_TABLE = 12  # rows (besides its header) of a table that is never broken over two pages
MIN_ROWS = 2  # rows of a table that must go with its introduction, or start a chart at a page's foot


def _space(f: Flowable) -> float:
    return f.getSpaceBefore() + f.getSpaceAfter()


def _body_rows(part: Flowable) -> int:
    """Rows of a table part beyond its repeated header (any other flowable counts as enough)."""
    inner = unwrapped(part)
    if isinstance(inner, Table):
        return table_rows(inner) - inner.repeatRows
    return MIN_ROWS


def unwrapped(flowable: Flowable) -> Flowable:
    """The table or picture a :class:`Whole` or :class:`BreakOut` holds (any other flowable itself)."""
    while isinstance(flowable, (BreakOut, Whole)):
        flowable = flowable.content
    return flowable


class BookTable(Table):
    """A table of the text (``kind`` "table") or a hand chart ("chart").

    Its parts, when it breaks over pages, carry its kind and their place (``part``, from 0).  It
    refuses to break after fewer than :data:`MIN_ROWS` rows, so it never starts with a lone row at
    a page's foot, and a table breaks a row or two earlier rather than leave only its last
    :data:`MIN_ROWS` rows overleaf."""

    kind = "table"
    part = 0
    whole_rows = -1  # rows (beyond the header) of the whole table its parts come from (-1: not split yet)

    def split(self, aW, aH):
        parts = super().split(aW, aH)
        for _ in range(MIN_ROWS):  # a table's last row or two never go overleaf alone: it breaks a row earlier
            if len(parts) < 2 or self.kind != "table" or _body_rows(parts[-1]) > MIN_ROWS:
                break
            parts[0].wrap(aW, aH)
            aH -= last_row_height(parts[0])
            parts = super().split(aW, aH)
        if len(parts) >= 2 and _body_rows(parts[0]) < MIN_ROWS:
            return []  # no lone row at a page's foot
        for index, piece in enumerate(parts):
            piece.kind = self.kind
            piece.part = self.part + index
            piece.whole_rows = self.all_rows
        return parts

    @property
    def all_rows(self) -> int:
        """Rows beyond the header of the whole table this is (a part of)."""
        return self.whole_rows if self.whole_rows >= 0 else self.body_rows

    @property
    def body_rows(self) -> int:
        return table_rows(self) - self.repeatRows


class KeepWithStart(KeepTogether):
    """Keep-with-next that splits the last flowable when only its start fits."""

    def split(self, aW, aH):
        content = kept_content(self)
        frame_h = frame_height(self)
        if len(content) >= 2 and frame_h:
            self.wrap(aW, aH)
            if aH < kept_height(self):
                # the canvas goes with every wrap and split: some flowables (the contents) measure on it
                canv = self.canv
                head, last = content[:-1], content[-1]
                used = sum(f.wrapOn(canv, aW, aH)[1] + _space(f) for f in head) + 2.0
                room = aH - used - last.getSpaceBefore()
                if isinstance(last, Whole) and not last.unbroken and aH >= frame_h * (1 - FULL):
                    last = last.content  # moving the group would leave the page too empty: the whole may split
                share_frame(last, self)  # it is laid out in this group's frame
                if room > 0:
                    parts = last.splitOn(canv, aW, room)
                    if len(parts) >= 2 and parts[0].wrapOn(canv, aW, room)[1] <= room and _body_rows(parts[0]) >= MIN_ROWS:
                        return head + parts
        return super().split(aW, aH)


class Whole(Flowable):
    """A flowable kept in one piece unless that would leave the page less than two thirds full; an ``unbroken``
    one (a table of :data:`SHORT_TABLE` rows or fewer) is never broken, unless it is taller than a page."""

    def __init__(self, content: Flowable, unbroken: bool = False):
        super().__init__()
        self.content = content
        self.unbroken = unbroken
        self.hAlign = getattr(content, "hAlign", "LEFT")

    def wrap(self, aW, aH):
        self.width, self.height = self.content.wrap(aW, aH)
        return self.width, self.height

    def split(self, aW, aH):
        frame_h = frame_height(self)
        if frame_h is None or aH < frame_h * (1 - FULL):
            return []  # the page is full enough: move the whole to the next page
        if self.unbroken and self.content.wrap(aW, frame_h)[1] <= frame_h:
            return []  # it fits a page: it goes whole to the next
        parts = self.content.split(aW, aH)
        return parts if len(parts) >= 2 else []

    def getSpaceBefore(self):
        return self.content.getSpaceBefore()

    def getSpaceAfter(self):
        return self.content.getSpaceAfter()

    def draw(self):
        self.content.drawOn(self.canv, 0, 0)


class BreakOut(Flowable):
    """A flowable that uses ``extra`` points more on each side than the text measure."""

    def __init__(self, content: Flowable, extra: float):
        super().__init__()
        self.content = content
        self.extra = extra
        self._content_w = 0.0

    def wrap(self, aW, aH):
        self._content_w, self.height = self.content.wrap(aW + 2 * self.extra, aH)
        self.width = aW
        return self.width, self.height

    def split(self, aW, aH):
        return [BreakOut(p, self.extra) for p in self.content.split(aW + 2 * self.extra, aH)]

    def getSpaceBefore(self):
        return self.content.getSpaceBefore()

    def getSpaceAfter(self):
        return self.content.getSpaceAfter()

    def draw(self):
        full = self.width + 2 * self.extra
        align = getattr(self.content, "hAlign", "LEFT")
        x = (full - self._content_w) / 2 if align in ("CENTER", "CENTRE") else 0.0
        self.content.drawOn(self.canv, x - self.extra, 0)


class Stack(Flowable):
    """Flowables drawn one under the other as a single unbreakable flowable."""

    def __init__(self, flowables: list[Flowable], hAlign: str = "CENTER"):
        super().__init__()
        self.flowables = flowables
        self.hAlign = hAlign
        self.sizes: list[tuple[float, float]] = []

    def wrap(self, aW, aH):
        self.sizes = [f.wrap(aW, aH) for f in self.flowables]
        self.width = max([w for w, _ in self.sizes] + [0])
        self.height = sum(h for _, h in self.sizes)
        return self.width, self.height

    def draw(self):
        y = self.height
        for f, (w, h) in zip(self.flowables, self.sizes):
            y -= h
            f.drawOn(self.canv, (self.width - w) / 2, y)
