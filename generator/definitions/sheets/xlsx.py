"""Excel workbooks (.xlsx) through openpyxl, read-only, values as last saved (formulas give their results)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .packed import check_archive, choose_sheet
from .table import MAX_COLUMNS, Collector, SheetError, Table, cell_text

_MAX_ROW_NUMBER = 1_048_576  # Excel's last row


def read_xlsx(path: Path, sheet: str | None) -> Table:
    check_archive(path, "xlsx")
    import openpyxl  # loaded only for workbooks; it parses with defusedxml when that is installed

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "unknown extension", "no default style": nothing a designer can act on
            book = openpyxl.load_workbook(path, read_only=True, data_only=True, keep_links=False)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise SheetError(
            f"the file cannot be read as an Excel workbook ({type(exc).__name__}: {str(exc)[:120]}); save it again"
        ) from None
    try:
        name = choose_sheet(list(book.sheetnames), sheet, "xlsx")
        worksheet = book[name]
        if not hasattr(worksheet, "iter_rows"):
            raise SheetError(f"sheet '{name}' is a chart, not a table of cards")
        rows = Collector()
        number = 0
        try:
            for number, cells in _stored_rows(worksheet):
                if number > _MAX_ROW_NUMBER:
                    raise SheetError(f"the sheet has more than {_MAX_ROW_NUMBER:,} rows", number)
                if any(text.strip() for text in cells):
                    rows.add(number, cells)
        except SheetError as exc:
            exc.sheet = name
            raise
        except Exception as exc:
            raise SheetError(f"cannot be read past row {number} ({type(exc).__name__}: {str(exc)[:120]})", number) from None
        return Table(tuple(rows.rows), name)
    finally:
        book.close()


def _stored_rows(worksheet: Any) -> Iterator[tuple[int, list[str]]]:
    """The rows the worksheet part stores, by their numbers, each as the text of its cells up to its last value
    (at most one past MAX_COLUMNS, so a wider row is refused).  Rows and cells the part does not store are not
    spelt out: openpyxl's own ``iter_rows`` fills every gap with rows of empty cells, a million of them for one
    cell at Excel's last row."""
    from ...libraries.openpyxl import stored_rows  # loaded only for workbooks, as openpyxl is

    for number, stored in stored_rows(worksheet):
        values: dict[int, str] = {}
        for cell in stored:
            if cell.get("unsaved") and cell["column"] <= MAX_COLUMNS:
                raise SheetError(
                    "a formula whose result the file does not hold (the program that wrote it does not "
                    "calculate): open the file in a spreadsheet program and save it, or type the value in",
                    number,
                    cell["column"] - 1,
                )
            if cell["value"] is None:
                continue
            text = cell_text(cell["value"])
            if cell["column"] <= MAX_COLUMNS:
                values[cell["column"]] = text
            elif text.strip():
                values[MAX_COLUMNS + 1] = text  # a value past the last column the row may have
        width = max(values, default=0)
        yield number, [values.get(column, "") for column in range(1, width + 1)]
