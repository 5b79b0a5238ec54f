"""What every sheet reader shares: the :class:`Table` it makes, its :class:`SheetError`, and the limits.

A table holds its rows as text, each with the row number a person sees (the
line of a CSV file, the row of a spreadsheet), so every later message can name
the sheet, the row and the column letter.  Every reader keeps to the limits
below before it decodes anything large.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from ..printable import unprintable

MAX_CSV_BYTES = 2_000_000  # as every other definition file
MAX_SPREADSHEET_BYTES = 5_000_000  # a zipped .xlsx or .ods
MAX_UNPACKED_BYTES = 30_000_000  # the parts of a zipped spreadsheet, as their zip index declares them
MAX_PARTS = 2_000  # files inside a zipped spreadsheet
_MAX_CELLS = 1_000_000  # cells read, empty ones between values included
MAX_COLUMNS = 256
MAX_CELL_CHARS = 10_000  # as a card's text field
MAX_ROWS = 10_001  # a header and 10,000 cards


@dataclass(frozen=True)
class Row:
    number: int  # the row number in a spreadsheet, the line a record starts on in a CSV file
    cells: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """The rows of one sheet that hold anything, as text; ``sheet`` is None for a CSV file."""

    rows: tuple[Row, ...]
    sheet: str | None = None


class SheetError(Exception):
    """A problem with the file itself, at a row and column where there is one."""

    def __init__(self, message: str, row: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message, self.row, self.column = message, row, column
        self.sheet: str | None = None  # set once the sheet is known


def column_letter(index: int) -> str:
    """The spreadsheet name of the 0-based column ``index``: A, B, ... Z, AA, AB ..."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def cell_text(value: object) -> str:
    """A spreadsheet value as the text a person sees in its cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return format(value, ".15g")
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


class Collector:
    """Gathers the rows of a sheet while keeping to the limits."""

    def __init__(self, trim: bool = True) -> None:
        self.rows: list[Row] = []
        self.cells = 0
        self.trim = trim  # drop empty cells at the end of a row (spreadsheets; a CSV row keeps every cell)

    def add(self, number: int, cells: list[str]) -> None:
        while self.trim and cells and not cells[-1].strip():
            cells.pop()
        self.cells += len(cells)
        if self.cells > _MAX_CELLS:
            raise SheetError(f"the sheet holds more than {_MAX_CELLS:,} cells", number)
        if not cells:
            return
        if len(cells) > MAX_COLUMNS:
            raise SheetError(f"row {number} has more than {MAX_COLUMNS} columns", number, MAX_COLUMNS)
        for i, text in enumerate(cells):
            if len(text) > MAX_CELL_CHARS:
                raise SheetError(f"the cell holds {len(text):,} characters; the limit is {MAX_CELL_CHARS:,}", number, i)
            if (char := unprintable(text)) is not None:
                raise SheetError(f"the cell holds the control character {char}, which no card can print", number, i)
        if len(self.rows) >= MAX_ROWS:
            raise SheetError(f"more than {MAX_ROWS - 1:,} cards", number)
        self.rows.append(Row(number, tuple(cells)))
