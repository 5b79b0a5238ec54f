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


def write_far_xlsx(path: Path, rows: dict[int, list[Any]]) -> Path:
    """A workbook whose sheet 'Cards' stores only ``rows`` (row number -> values): a gap between them is not stored."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for number, values in rows.items():
        for column, value in enumerate(values, start=1):
            sheet.cell(row=number, column=column, value=value)
    book.save(path)
    return path


def write_far_ods(path: Path, header: list[str], far: list[str], gap: int, width: int = 1 << 14) -> Path:
    """A sheet with ``header``, ``gap`` empty rows stored as one repeated row of ``width`` repeated empty cells, then ``far``."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name="Cards")
    for values in (header, None, far):
        if values is None:
            row = TableRow(numberrowsrepeated=gap)
            row.addElement(TableCell(numbercolumnsrepeated=width))
        else:
            row = TableRow()
            for value in values:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=value))
                row.addElement(cell)
                row.addElement(TableCell(numbercolumnsrepeated=width))
        table.addElement(row)
    document.spreadsheet.addElement(table)
    document.save(str(path))
    return path


def parts_xlsx(path: Path, sheet_part: str, sheet: bytes, strings_part: str, strings: bytes) -> Path:
    """A workbook of one sheet 'Cards' written by hand, its worksheet and shared strings stored under the part names given."""
    import zipfile

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    office = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr(
            "[Content_Types].xml",
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{office}.sheet.main+xml"/>'
            f'<Override PartName="/{sheet_part}" ContentType="{office}.worksheet+xml"/>'
            f'<Override PartName="/{strings_part}" ContentType="{office}.sharedStrings+xml"/></Types>',
        )
        out.writestr(
            "_rels/.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        out.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets><sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        out.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="/{sheet_part}"/>'
            f'<Relationship Id="rId2" Type="{rel}/sharedStrings" Target="/{strings_part}"/></Relationships>',
        )
        out.writestr(sheet_part, sheet)
        out.writestr(strings_part, strings)
    return path


def worksheet_part(rows: int, cells: int = 1, shared: bool = False) -> bytes:
    """A worksheet part of ``rows`` rows of ``cells`` strings each (inline, or shared string 0): small zipped, large parsed."""
    cell = b'<c t="s"><v>0</v></c>' if shared else b'<c t="inlineStr"><is><t>x</t></is></c>'
    header = b'<row r="1"><c t="inlineStr"><is><t>name</t></is></c></row>'
    body = b"".join(b'<row r="%d">%s</row>' % (n + 2, cell * cells) for n in range(rows))
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        + header
        + body
        + b"</sheetData></worksheet>"
    )


def strings_part(strings: int) -> bytes:
    """A shared-strings part of ``strings`` strings."""
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d">'
        % strings
        + b"<si><t>x</t></si>" * strings
        + b"</sst>"
    )
