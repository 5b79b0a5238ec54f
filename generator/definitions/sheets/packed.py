"""Zipped spreadsheets (.xlsx, .ods) are checked from their zip index before anything is unpacked."""

from __future__ import annotations

import difflib
import zipfile
from pathlib import Path

from .table import MAX_PARTS, MAX_SPREADSHEET_BYTES, MAX_UNPACKED_BYTES, SheetError


def check_archive(path: Path, kind: str) -> None:
    """Refuse a file that is too large, not a zip archive, or would unpack to more than the limits."""
    if path.stat().st_size > MAX_SPREADSHEET_BYTES:
        raise SheetError(f"the file is larger than {MAX_SPREADSHEET_BYTES // 1_000_000} MB")
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise SheetError(
            f"not a .{kind} file: it is not a zip archive (a password-protected file cannot be read); "
            f"save it again as {'Excel Workbook (.xlsx)' if kind == 'xlsx' else 'OpenDocument Spreadsheet (.ods)'}"
        ) from None
    if len(parts) > MAX_PARTS:
        raise SheetError(
            f"the file holds {len(parts):,} files inside; a .{kind} file of cards needs far fewer (at most {MAX_PARTS:,})"
        )
    unpacked = sum(part.file_size for part in parts)
    if unpacked > MAX_UNPACKED_BYTES:
        raise SheetError(
            f"the file would unpack to {unpacked / 1_000_000:,.0f} MB; the limit is {MAX_UNPACKED_BYTES // 1_000_000} MB "
            "(delete unused sheets and pictures)"
        )
    _check_xml(path, [part.filename for part in parts if not part.is_dir()], kind)


# XML elements in all of a spreadsheet's parts, at most: a thousand cards hold a few tens of thousands, and the readers
# take about 10 microseconds an element (openpyxl) and 25 (odfpy)
_MAX_ELEMENTS = {"xlsx": 1_000_000, "ods": 400_000}
# ... and in proportion to the file: a card list saved by a spreadsheet program holds well under one element a byte
# of its zip (0.2 to 0.6 measured), where a few kilobytes can unpack to a million elements
_ELEMENTS_PER_BYTE = 10
_FEWEST_ELEMENTS = 50_000  # a small file may hold this many whatever its size
MAX_NESTING = 64  # elements inside each other (a cell's text spans in spans...)


def element_limit(size: int, kind: str) -> int:
    """How many elements a spreadsheet file of ``size`` bytes (an .xlsx or .ods: ``kind``) may hold in all its parts."""
    return min(_MAX_ELEMENTS[kind], max(_FEWEST_ELEMENTS, _ELEMENTS_PER_BYTE * size))


class _Counter:
    """A parser target that only counts elements and their depth (no tree is built), and stops at a limit."""

    def __init__(self, size: int, kind: str) -> None:
        self.count = 0
        self.depth = 0
        self.limit = element_limit(size, kind)
        self.size, self.kind = size, kind
        self.part = ""  # the part being counted, for messages

    def start(self, tag: str, attrib: dict) -> None:
        self.depth += 1
        self.count += 1
        if self.depth > MAX_NESTING:
            raise SheetError(
                f"the spreadsheet nests its contents more than {MAX_NESTING} deep (its part '{self.part[:200]}'); "
                "save a simpler copy (values only)"
            )
        if self.count > self.limit:
            raise SheetError(
                f"the spreadsheet holds more than {self.limit:,} elements (counted to its part '{self.part[:200]}')"
                f"{'' if self.limit == _MAX_ELEMENTS[self.kind] else f', far more than a card list of {self.size / 1000:,.0f} KB holds'}; "
                "save a simpler copy (values only)"
            )

    def end(self, tag: str) -> None:
        self.depth -= 1

    def close(self) -> None:
        return None


_NAMED_XML = (".xml", ".rels")


def _check_xml(path: Path, names: list[str], kind: str) -> None:
    """Count the elements of every part, and their depth, with a fast parser before the spreadsheet reader
    (slow, and for .ods recursive) builds its tree: a small file can hold millions of them, or nest them deep.

    Every part is counted whatever its name: a reader finds its parts by the package's content types and
    relationships, so a worksheet stored as ``sheet1.bin`` or shared strings as ``strings.txt`` are parsed
    all the same.  A part that is not XML (a picture, printer settings, ``mimetype``) stops the parser at
    its first bytes, as it would stop any reader; only a part named as XML must be well-formed."""
    # lxml loads only for zipped spreadsheets
    from lxml import etree

    counter = _Counter(path.stat().st_size, kind)
    name = ""
    try:
        with zipfile.ZipFile(path) as archive:
            for name in names:
                counter.depth, counter.part = 0, name
                parser = etree.XMLParser(target=counter, resolve_entities=False, no_network=True, huge_tree=False)
                try:
                    with archive.open(name) as part:
                        while chunk := part.read(1 << 16):
                            parser.feed(chunk)
                    parser.close()
                except etree.XMLSyntaxError:
                    if name.lower().endswith(_NAMED_XML):
                        raise  # the elements before the error are counted in either case
    except (zipfile.BadZipFile, etree.XMLSyntaxError, OSError, RuntimeError, ValueError) as exc:
        raise SheetError(
            f"the file cannot be read as a .{kind} spreadsheet ({type(exc).__name__} in its part '{name[:200]}'); save it again"
        ) from None


def choose_sheet(names: list[str], wanted: str | None, file_kind: str) -> str:
    """The sheet named ``wanted`` (exactly, else ignoring case), or the first sheet."""
    if not names:
        raise SheetError(f"the .{file_kind} file has no sheets")
    if wanted is None:
        return names[0]
    if wanted in names:
        return wanted
    folded = [n for n in names if n.casefold() == wanted.casefold()]
    if folded:
        return folded[0]
    close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    raise SheetError(f"no sheet named '{wanted}'{hint}; its sheets: {', '.join(repr(n) for n in names[:20])}")
