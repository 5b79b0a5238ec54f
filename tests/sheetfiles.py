"""Spreadsheet files for tests, written with the same libraries that read them."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def write_xlsx(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def write_ods(path: Path, sheets: dict[str, list[list[Any]]], repeat: dict[int, int] | None = None) -> Path:
    """``repeat`` maps a row index to how many times that row is stored (an empty row repeated is a gap)."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for i, values in enumerate(rows):
            count = (repeat or {}).get(i, 1)
            row = TableRow(numberrowsrepeated=count) if count > 1 else TableRow()
            for value in values:
                if isinstance(value, bool):
                    cell = TableCell(valuetype="boolean", booleanvalue=str(value).lower())
                    cell.addElement(P(text="TRUE" if value else "FALSE"))
                elif isinstance(value, (int, float)):
                    cell = TableCell(valuetype="float", value=value)
                    cell.addElement(P(text=str(value).replace(".", ",")))  # as a German sheet shows it
                elif value is None or value == "":
                    cell = TableCell()
                else:
                    cell = TableCell(valuetype="string")
                    for line in str(value).split("\n"):
                        cell.addElement(P(text=line))
                row.addElement(cell)
            row.addElement(TableCell(numbercolumnsrepeated=1000))  # how spreadsheets store the empty rest of a row
            table.addElement(row)
        table.addElement(TableRow(numberrowsrepeated=1_000_000))
        document.spreadsheet.addElement(table)
    document.save(str(path))
    return path
