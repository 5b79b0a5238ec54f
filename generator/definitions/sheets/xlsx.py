"""Excel workbooks (.xlsx) through openpyxl, read-only, values as last saved (formulas give their results)."""

from __future__ import annotations

import warnings
from pathlib import Path

from . import MAX_COLUMNS, Collector, SheetError, Table, cell_text
from .packed import check_archive, choose_sheet

MAX_ROW_NUMBER = 1_048_576  # Excel's last row


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
        worksheet.reset_dimensions()  # the file's own claim of its size is not trusted
        rows = Collector()
        number = 0
        try:
            for number, values in enumerate(worksheet.iter_rows(max_col=MAX_COLUMNS + 1, values_only=True), start=1):
                if number > MAX_ROW_NUMBER:
                    raise SheetError(f"the sheet has more than {MAX_ROW_NUMBER:,} rows", number)
                rows.add(number, [cell_text(v) for v in values])
        except SheetError as exc:
            exc.sheet = name
            raise
        except Exception as exc:
            raise SheetError(f"cannot be read past row {number} ({type(exc).__name__}: {str(exc)[:120]})", number) from None
        return Table(tuple(rows.rows), name)
    finally:
        book.close()
