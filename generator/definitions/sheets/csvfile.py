"""CSV card lists: UTF-8 with or without a byte-order mark (or UTF-16 with one), the delimiter sniffed.

Spreadsheets save CSV with commas, or with semicolons where the comma is the
decimal sign, and "Unicode text" with tabs.  The delimiter is the one of the
three that splits the header into the most columns while the rows below agree.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from .table import MAX_CSV_BYTES, Collector, SheetError, Table

_DELIMITERS = (",", ";", "\t")
_SNIFF_ROWS = 50


def decode(raw: bytes) -> str:
    """The text of a CSV file; a file in another encoding is an error at the line of its first bad byte."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise SheetError("file is not UTF-16 text although it starts like it; save it as CSV UTF-8", 1) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SheetError("file is not UTF-8 text; save it as UTF-8", raw[: exc.start].count(b"\n") + 1) from None


def _records(text: str, delimiter: str) -> Any:
    """A csv reader over ``text`` (its ``line_num`` counts lines)."""
    return csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)


def sniff(text: str) -> str:
    """The delimiter that gives the most header columns with the rows below agreeing (comma when none splits)."""
    best, best_score = ",", (False, 0, 0)
    for delimiter in _DELIMITERS:
        try:
            rows = []
            for row in _records(text, delimiter):
                if any(cell.strip() for cell in row):
                    rows.append(row)
                if len(rows) > _SNIFF_ROWS:
                    break
        except csv.Error:
            continue
        if not rows:
            continue
        width = len(rows[0])
        agreeing = sum(len(row) == width for row in rows[1:])
        score = (width > 1, agreeing, width)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def read_csv(path: Path) -> Table:
    if path.stat().st_size > MAX_CSV_BYTES:
        raise SheetError(f"the file is larger than {MAX_CSV_BYTES // 1_000_000} MB")
    text = decode(path.read_bytes()).replace("\r\n", "\n").replace("\r", "\n")
    reader = _records(text, sniff(text))
    rows = Collector(trim=False)
    start = 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                rows.add(start, list(cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise SheetError(f"CSV syntax error: {exc}", reader.line_num) from None
    return Table(tuple(rows.rows))
