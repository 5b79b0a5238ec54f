"""Card lists as tables: CSV (comma, semicolon or tab), .xlsx and .ods, one reader per format.

Each reader turns a file into a :class:`~.table.Table` (see :mod:`.table` for
what the readers share and the limits they keep); this face picks the reader.
"""

from __future__ import annotations

import re
from pathlib import Path

from .table import SheetError, Table

__all__ = ["FORMATS", "REFUSED", "SheetError", "Table", "read_table", "sheet_format", "split_reference"]

FORMATS = {".csv": "csv", ".tsv": "csv", ".txt": "csv", ".xlsx": "xlsx", ".ods": "ods"}
REFUSED = {
    ".xls": "an old Excel .xls file cannot be read; save it as .xlsx (Excel Workbook)",
    ".xlsm": "a macro workbook (.xlsm) is not read; save it as .xlsx (Excel Workbook)",
    ".xlsb": "a binary workbook (.xlsb) cannot be read; save it as .xlsx (Excel Workbook)",
    ".numbers": "a Numbers file cannot be read; export it as .xlsx or CSV",
    ".fods": "a flat OpenDocument file (.fods) is not read; save it as .ods",
}


def split_reference(value: str) -> tuple[str, str | None]:
    """``"game.xlsx#Cards"`` -> ``("game.xlsx", "Cards")``; a reference without a sheet gives None."""
    match = re.fullmatch(r"(.+?\.(?:xlsx|ods|csv|tsv|txt))#(.*)", value, re.IGNORECASE)
    if match:
        return match.group(1), match.group(2)
    return value, None


def sheet_format(path: Path) -> str | None:
    return FORMATS.get(path.suffix.lower())


def read_table(path: Path, kind: str, sheet: str | None) -> Table:
    """The table in ``path`` (a file already confined to the deck's folder), read by its format."""
    if kind == "csv":
        # each reader, and its library, loads only for its format
        from .csvfile import read_csv

        if sheet is not None:
            raise SheetError("a CSV file has no sheets; remove the '#' and what follows it")
        return read_csv(path)
    if kind == "xlsx":
        # each reader, and its library, loads only for its format
        from .xlsx import read_xlsx

        return read_xlsx(path, sheet)
    # each reader, and its library, loads only for its format
    from .ods import read_ods

    return read_ods(path, sheet)
