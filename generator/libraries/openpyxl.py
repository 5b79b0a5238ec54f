"""openpyxl's internals, the one place they are used: a worksheet's stored rows parsed as stored.

openpyxl's own ``iter_rows`` fills every gap with rows of empty cells (a
million of them for one cell at Excel's last row); its worksheet parser, a
private class, yields only the rows and cells the file holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from openpyxl import worksheet as _worksheets
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet import _reader
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

__all__ = ["PRIVATE_NAMES", "stored_rows"]

# (owner, name): every private member used below, checked against the installed openpyxl by a test
PRIVATE_NAMES: tuple[tuple[Any, str], ...] = (
    (_worksheets, "_reader"),
    (_worksheets, "_read_only"),
    (_reader, "WorkSheetParser"),
    (_reader, "FORMULA_TAG"),
    (ReadOnlyWorksheet, "_get_source"),
    (ReadOnlyWorksheet, "_shared_strings"),
    (Workbook, "_date_formats"),
    (Workbook, "_timedelta_formats"),
)


class _Parser(_reader.WorkSheetParser):
    """openpyxl's parser, noting a formula whose result the file does not hold (``"unsaved"``: the saved value is read)."""

    def parse_cell(self, element: Any) -> dict:
        cell = super().parse_cell(element)
        if cell["value"] is None and element.find(_reader.FORMULA_TAG) is not None:
            cell["unsaved"] = True
        return cell


def stored_rows(worksheet: Any) -> Iterator[tuple[int, list[dict]]]:
    """The rows a read-only worksheet's part stores, by their numbers, each as openpyxl's cell dictionaries."""
    book = worksheet.parent
    with worksheet._get_source() as source:
        parser = _Parser(
            source,
            worksheet._shared_strings,
            data_only=book.data_only,
            epoch=book.epoch,
            date_formats=book._date_formats,
            timedelta_formats=book._timedelta_formats,
        )
        yield from parser.parse()
