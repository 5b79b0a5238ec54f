"""OpenDocument spreadsheets (.ods, LibreOffice and others) through odfpy, which parses with defusedxml.

A cell's value is read from its typed value where it has one (numbers as
stored, not as a locale shows them; dates; true/false), else from its text
paragraphs, one line each.  Repeated rows and cells (how a sheet stores runs
of empty cells) are counted, never spelt out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .packed import check_archive, choose_sheet
from .table import MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROWS, Collector, SheetError, Table, cell_text

_MAX_REPEAT = 1 << 24  # LibreOffice's largest sheets have 16,777,216 rows
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"


def _attr(element: Any, namespace: str, name: str) -> str | None:
    return element.attributes.get((namespace, name))


def _repeat(element: Any, name: str, number: int) -> int:
    text = _attr(element, _TABLE, name) or "1"
    try:
        count = int(text)
    except ValueError:
        raise SheetError(f"table:{name} is '{text[:20]}', not a number", number) from None
    if count < 1 or count > _MAX_REPEAT:
        raise SheetError(f"table:{name} is {count}", number)
    return count


def _text(element: Any, out: list[str], budget: list[int]) -> None:
    """The text of a paragraph with its spaces, tabs and line breaks, at most MAX_CELL_CHARS + 1 characters."""
    for child in element.childNodes:
        if budget[0] <= 0:
            return
        if child.nodeType == child.TEXT_NODE:
            piece = child.data[: budget[0]]
        elif child.qname == (_TEXT, "line-break"):
            piece = "\n"
        elif child.qname == (_TEXT, "tab"):
            piece = "\t"
        elif child.qname == (_TEXT, "s"):
            try:
                piece = " " * min(int(_attr(child, _TEXT, "c") or "1"), budget[0])
            except ValueError:
                piece = " "
        else:
            _text(child, out, budget)
            continue
        out.append(piece)
        budget[0] -= len(piece)


def _cell_value(cell: Any) -> str:
    kind = _attr(cell, _OFFICE, "value-type")
    if kind in ("float", "percentage", "currency"):
        value = _attr(cell, _OFFICE, "value") or ""
        try:
            return cell_text(float(value))
        except ValueError:
            return value
    if kind == "boolean":
        return "true" if (_attr(cell, _OFFICE, "boolean-value") or "").lower() == "true" else "false"
    if kind == "date":
        return (_attr(cell, _OFFICE, "date-value") or "").removesuffix("T00:00:00")
    lines = []
    budget = [MAX_CELL_CHARS + 1]
    for child in cell.childNodes:
        if child.nodeType == child.ELEMENT_NODE and child.qname == (_TEXT, "p"):
            out: list[str] = []
            _text(child, out, budget)
            lines.append("".join(out))
    return "\n".join(lines)


def _row_cells(row: Any, number: int) -> list[str]:
    cells: list[str] = []
    empty = 0  # empty cells not yet written: only spelt out when a value follows them
    for cell in row.childNodes:
        if cell.nodeType != cell.ELEMENT_NODE or cell.qname not in ((_TABLE, "table-cell"), (_TABLE, "covered-table-cell")):
            continue
        count = _repeat(cell, "number-columns-repeated", number)
        value = _cell_value(cell)
        if not value.strip():
            empty += count
            continue
        if len(cells) + empty + count > MAX_COLUMNS:
            raise SheetError(f"row {number} has more than {MAX_COLUMNS} columns", number, MAX_COLUMNS)
        cells += [""] * empty + [value] * count
        empty = 0
    return cells


def read_ods(path: Path, sheet: str | None) -> Table:
    check_archive(path, "ods")
    # odfpy loads only for .ods card lists
    from odf.opendocument import load
    from odf.table import Table as OdfTable
    from odf.table import TableRow

    try:
        document = load(str(path))
    except Exception as exc:  # odfpy raises many kinds for a damaged file
        raise SheetError(
            f"the file cannot be read as an OpenDocument spreadsheet ({type(exc).__name__}: {str(exc)[:120]}); save it again"
        ) from None
    tables = document.spreadsheet.getElementsByType(OdfTable) if document.spreadsheet is not None else []
    names = [_attr(t, _TABLE, "name") or f"Sheet{i + 1}" for i, t in enumerate(tables)]
    name = choose_sheet(names, sheet, "ods")
    table = tables[names.index(name)]
    try:
        return Table(_rows(table.getElementsByType(TableRow)), name)
    except SheetError as exc:
        exc.sheet = name
        raise


def _rows(table_rows: list) -> tuple:
    rows = Collector()
    number = 0
    for row in table_rows:
        count = _repeat(row, "number-rows-repeated", number + 1)
        cells = _row_cells(row, number + 1)
        if cells and count > MAX_ROWS:
            raise SheetError(f"a row is repeated {count:,} times", number + 1)
        for _ in range(count if cells else 0):
            number += 1
            rows.add(number, list(cells))
        if not cells:
            number += count  # empty rows are only counted, however many a sheet stores
    return tuple(rows.rows)
