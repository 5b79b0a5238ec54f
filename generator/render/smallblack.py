"""Small dark type and thin dark strokes in process CMYK files: 100 % black ink, overprinting, instead of
four-colour rich black.

Dark text converted through a printer profile becomes a mix of all four inks
(rich black: well over 200 % on a card's indices).  On a press the four plates
never sit exactly on each other, so small letters printed that way get coloured
fringes.  Printers ask for small text in black ink alone, overprinting what
lies under it (so a miscut plate leaves no white halo).  While a page's colours
are converted (:mod:`.recolour`), :class:`SmallBlackText` follows the drawing
state (the current transformation, the text matrix, font size and rendering
mode, and the fill colour as designed) and, around every piece of text set
smaller than :data:`SMALL_TEXT_PT` in a colour the press prints mostly with
black ink (at least :data:`BLACK_INK` of it once converted: black, and the
near-blacks and dark browns that separate into four-colour rich black),
switches to ``0 0 0 1 k`` with an overprinting graphics state, and back after
it.  Shapes are treated alike: a dark filled shape no larger than
:data:`SMALL_SHAPE_PT` either way on the page (a pip, a suit sign in an index,
a line of art; a path of several shapes, such as a card's pips drawn as one, is
measured shape by shape) and a dark stroke no wider than :data:`THIN_STROKE_PT` print in
black ink alone, overprinting; a larger dark area keeps its rich black.  As a
path may not be interrupted by a colour, the switch is written before the
path's first point (see :attr:`SmallBlackText.insert`).

A form is measured in its own space (svg2pdf draws a card as one form at the
scale of the page).
"""

from __future__ import annotations

import math
from typing import Any

import pikepdf
from pikepdf import Dictionary, Name, Operator

SMALL_TEXT_PT = 24.0  # text smaller than this prints in black ink alone (a card's index, at about 15 pt, too)
SMALL_SHAPE_PT = 20 * 72 / 25.4  # a filled shape no larger than 20 mm either way prints in black ink alone (a pip)
THIN_STROKE_PT = 1.5  # a stroke no wider than this prints in black ink alone
BLACK_INK = 0.8  # a converted colour with this much black ink or more is printed as black ink alone
OVERPRINT = "/APBlackOverprint"  # the two graphics states added to a page's or form's resources
KNOCKOUT = "/APBlackKnockout"
_SHOW = {"Tj", "TJ", "'", '"'}
_FILLS = {"rg", "g", "k", "sc", "scn", "cs"}
_POINTS = {"m": 2, "l": 2, "c": 6, "v": 4, "y": 4}  # path operators: how many operands are coordinates
_FILLING = {"f", "F", "f*", "B", "B*", "b", "b*"}
_STROKING = {"S", "s", "B", "B*", "b", "b*"}
_PAINTS = _FILLING | _STROKING | {"n"}
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def is_black(cmyk: Any) -> bool:
    """Is this converted colour (CMYK components) one the press prints mostly with black ink?"""
    return cmyk is not None and len(cmyk) == 4 and float(cmyk[3]) >= BLACK_INK


def _matrix(operands: Any) -> Matrix:
    a, b, c, d, e, f = (float(v) for v in operands)
    return (a, b, c, d, e, f)


def _times(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF row-vector order: the matrix of ``m`` x ``n``)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _extent(points: list[tuple[float, float]]) -> float:
    """The larger side of the box around ``points``."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return max(max(xs) - min(xs), max(ys) - min(ys))


def _instruction(operands: list, operator: str) -> Any:
    return pikepdf.ContentStreamInstruction(operands, Operator(operator))


class SmallBlackText:
    """The state of one content stream, and the instructions to add before each of its instructions."""

    def __init__(self, matrix: Matrix = IDENTITY) -> None:
        self.ctm = matrix
        self.tm = IDENTITY
        self.size = 0.0
        self.mode = 0
        self.fill_set: Any = None  # the instruction that set the fill colour, as written out
        self.stroke_set: Any = None  # the instruction that set the stroke colour, as written out
        self.width = 1.0  # the line width, in the current space
        self.path_at: int | None = None  # where in the output the path being built began
        self.corners: list[list[tuple[float, float]]] = []  # each subpath's points (and control points) on the page
        self.insert: tuple[int, list] | None = None  # instructions the caller puts in at an earlier place
        self.painted = False  # was the last path painted in black ink alone?
        self.black = False  # is black-ink overprinting in force in the output at this point?
        self.used = False
        self.saved: list[tuple] = []

    def fill(self, written: Any) -> None:
        """The fill colour was just set, by the instruction ``written`` (as written out)."""
        self.fill_set = written

    def stroke(self, written: Any) -> None:
        """The stroke colour was just set, by the instruction ``written`` (as written out)."""
        self.stroke_set = written

    def fill_cmyk(self) -> Any:
        written = self.fill_set
        return list(written.operands) if written is not None and str(written.operator) == "k" else None

    def stroke_cmyk(self) -> Any:
        written = self.stroke_set
        return list(written.operands) if written is not None and str(written.operator) == "K" else None

    def _scale(self) -> float:
        a, b, c, d, _, _ = self.ctm
        return math.sqrt(abs(a * d - b * c))

    def _point(self, x: float, y: float) -> None:
        a, b, c, d, e, f = self.ctm
        self.corners[-1].append((a * x + c * y + e, b * x + d * y + f))

    def _build(self, op: str, operands: list, at: int) -> None:
        """A path operator: the points it adds, and where the path began."""
        if self.path_at is None:
            self.path_at = at
        numbers = [float(v) for v in operands]
        if op in ("m", "re") or not self.corners:
            self.corners.append([])  # a subpath begins
        if op == "re" and len(numbers) == 4:
            x, y, w, h = numbers
            for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
                self._point(px, py)
        elif len(numbers) == _POINTS.get(op, -1):
            for i in range(0, len(numbers), 2):
                self._point(numbers[i], numbers[i + 1])

    def _paint(self, op: str) -> None:
        """The path is painted by ``op``: in black ink alone when it is a small dark shape or a thin dark line
        (the switch put in before its first point, through :attr:`insert`)."""
        at, corners = self.path_at, self.corners
        self.path_at, self.corners = None, []
        if at is None or not any(corners) or self.black:
            return
        small = max(_extent(points) for points in corners if points) <= SMALL_SHAPE_PT  # each shape of the path
        fill = op in _FILLING and small and is_black(self.fill_cmyk())
        stroke = op in _STROKING and self.width * self._scale() <= THIN_STROKE_PT and is_black(self.stroke_cmyk())
        filled_otherwise = op in _FILLING and not fill
        stroked_otherwise = op in _STROKING and not stroke
        if not (fill or stroke) or filled_otherwise or stroked_otherwise:
            return  # one paint of two kinds: as designed
        switch = [_instruction([Name(OVERPRINT)], "gs")]
        switch += [_instruction([0, 0, 0, 1], "k")] if fill else []
        switch += [_instruction([0, 0, 0, 1], "K")] if stroke else []
        self.insert = (at, switch)
        self.painted = self.used = True

    def _after_paint(self) -> list:
        """Back to the colours as designed after a path painted in black ink alone."""
        self.painted = False
        back = [_instruction([Name(KNOCKOUT)], "gs")]
        return back + [w for w in (self.fill_set, self.stroke_set) if w is not None]

    def small_dark(self) -> bool:
        a, b, c, d, _, _ = _times(self.tm, self.ctm)
        size = abs(self.size) * math.sqrt(abs(a * d - b * c))
        return self.mode in (0, 4) and 0 < size < SMALL_TEXT_PT and is_black(self.fill_cmyk())

    def before(self, op: str, operands: list, at: int = 0) -> list:
        """Instructions to write before ``op`` (and the state it leaves); ``at``: where ``op`` goes in the output."""
        out: list = self._after_paint() if self.painted else []
        if op in _POINTS or op == "re":
            self._build(op, operands, at + len(out))
        elif op in _PAINTS:
            self._paint(op)
        elif op == "w" and operands:
            self.width = float(operands[0])
        elif not self._state(op, operands):
            out += self._text(op)
        return out

    def _state(self, op: str, operands: list) -> bool:
        """Follow the graphics and text state ``op`` sets; whether it was such an operator."""
        if op == "q":
            self.saved.append((self.ctm, self.size, self.mode, self.fill_set, self.stroke_set, self.width, self.black))
        elif op == "Q" and self.saved:
            self.ctm, self.size, self.mode, self.fill_set, self.stroke_set, self.width, self.black = self.saved.pop()
        elif op == "cm" and len(operands) == 6:
            self.ctm = _times(_matrix(operands), self.ctm)
        elif op == "BT":
            self.tm = IDENTITY
        elif op == "Tm" and len(operands) == 6:
            self.tm = _matrix(operands)
        elif op in ("Td", "TD") and len(operands) == 2:
            self.tm = _times((1.0, 0.0, 0.0, 1.0, float(operands[0]), float(operands[1])), self.tm)
        elif op == "Tf" and len(operands) == 2:
            self.size = float(operands[1])
        elif op == "Tr" and operands:
            self.mode = int(operands[0])
        else:
            return False
        return True

    def _text(self, op: str) -> list:
        """The switches to and from black ink around text shown by ``op``."""
        if op in _FILLS and self.black:
            self.black = False
            return [_instruction([Name(KNOCKOUT)], "gs")]  # the new colour follows
        if op in _SHOW:
            wanted = self.small_dark()
            if wanted and not self.black:
                self.black = self.used = True
                return [_instruction([Name(OVERPRINT)], "gs"), _instruction([0, 0, 0, 1], "k")]
            if not wanted and self.black:
                return self._back()
        elif op == "ET" and self.black:
            return self._back()
        return []

    def _back(self) -> list:
        self.black = False
        back = [_instruction([Name(KNOCKOUT)], "gs")]
        return back + ([self.fill_set] if self.fill_set is not None else [])

    def add_states(self, resources: Any) -> None:
        """The two graphics states, in ``resources`` (when some text needed them)."""
        if not self.used or not isinstance(resources, Dictionary):
            return
        states = resources.get("/ExtGState")
        if not isinstance(states, Dictionary):
            states = resources.ExtGState = Dictionary()
        states[OVERPRINT] = Dictionary(Type=Name.ExtGState, OP=True, op=True, OPM=1)
        states[KNOCKOUT] = Dictionary(Type=Name.ExtGState, OP=False, op=False, OPM=0)
