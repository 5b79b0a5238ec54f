"""Card lists beside a deck file: a CSV file or a sheet of a spreadsheet, a header row and a row per card.

The header names card fields (``id``, ``name``, ``rank``, ``suits``, ``group``,
``copies``) and declared attributes, matched without regard to case, spaces,
dashes or underscores (``Flavour Text`` is ``flavour_text``).  Every message
names the file and the place: ``cards.csv:4: column E (power): ...`` for a CSV
file, ``cards.xlsx: sheet 'Cards', row 4, column E (power): ...`` for a sheet.
"""

from __future__ import annotations

import re
import stat
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import Problem, display_path
from ..project import safe_join
from .cards import CARD_SPEC, MAX_CARDS, Lookup, parse_card
from .model import Card, Origin, frozen_mapping
from .schema import Context, KeyPath, suggest
from .sheets import REFUSED, SheetError, Table, read_table, sheet_format, split_reference
from .sheets.table import column_letter


def _folded(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name).casefold()


class _Places:
    """How a place in one card list is named in messages."""

    def __init__(self, file: str, table: Table | None, columns: dict[str, int] | None = None):
        self.file, self.sheet = file, table.sheet if table else None
        self.columns = columns or {}

    def problem(self, message: str, row: int | None = None, column: int | None = None, field: str | None = None) -> Problem:
        where = []
        if column is not None:
            where.append(f"column {column_letter(column)}" + (f" ({field})" if field else ""))
        if self.sheet is None:
            return Problem(self.file, ", ".join(where) + (": " if where else "") + message, row)
        head = [f"sheet '{self.sheet}'"] + ([f"row {row}"] if row is not None else []) + where
        return Problem(self.file, ", ".join(head) + ": " + message)


def card_list(
    ctx: Context,
    reference: str,
    key: KeyPath,
    folder: Path,
    lookup: Lookup,
    attributes: dict[str, str],
    editions: tuple[str, ...] = (),
) -> list[Card]:
    """The cards of the card list ``reference`` (``cards.csv``, ``game.xlsx#Cards``), problems into ``ctx``;
    a column ``FIELD@LANGUAGE`` (``text@de``) holds the field's translation into an edition's language."""
    relative, sheet = split_reference(reference)
    kind = sheet_format(Path(relative))
    noun = "card list" if kind in ("xlsx", "ods") else "CSV"
    target = safe_join(folder, relative)
    if target is None:
        ctx.error(key, f"{noun} path '{relative}' must stay inside the deck's folder")
        return []
    if Path(relative).suffix.lower() in REFUSED:
        ctx.error(key, f"'{relative}': {REFUSED[Path(relative).suffix.lower()]}")
        return []
    if kind is None:
        ctx.error(key, f"card list '{relative}' must be a .csv, .xlsx or .ods file")
        return []
    kind_problem = _not_a_file(target)
    if kind_problem:
        ctx.error(key, f"{noun} file '{relative}' {kind_problem}")
        return []
    name = display_path(target)
    try:
        table = read_table(target, kind, sheet)
    except SheetError as exc:
        places = _Places(name, Table((), exc.sheet))
        ctx.problems.append(places.problem(exc.message, exc.row, exc.column))
        return []
    return _cards(ctx, table, name, folder, lookup, attributes, editions)


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a card list (missing, a folder, a pipe or device), or None."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return "not found beside the deck file"
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if not stat.S_ISREG(mode):
        return "is not a regular file (a pipe, socket or device is not read)"
    return None


def _translation_column(label: str, attributes: dict[str, str], editions: tuple[str, ...]) -> tuple[str | None, str]:
    """(``FIELD@LANGUAGE``, "") for a translation column's header, or (None, what is wrong with it)."""
    base, _, language = label.rpartition("@")
    translatable = ["name"] + [f for f, kind in attributes.items() if kind == "text"]
    found = next((f for f in translatable if _folded(f) == _folded(base)), None)
    if found is None:
        return None, f"'{base}' is not a field to translate (the name or a field declared as text: {', '.join(translatable)})"
    if language.strip() not in editions:
        return None, f"'{language}' is not an edition of this deck (its editions: {', '.join(editions) or 'none'})"
    return f"{found}@{language.strip()}", ""


def _header(
    table: Table, places: _Places, attributes: dict[str, str], editions: tuple[str, ...] = ()
) -> tuple[dict[int, str], list[Problem]]:
    """Column index -> field for every named column, and the header's problems."""
    fields = list(CARD_SPEC) + list(attributes)
    by_folded: dict[str, str] = {}
    for f in fields:
        by_folded.setdefault(_folded(f), f)
    row = table.rows[0]
    columns: dict[int, str] = {}
    problems: list[Problem] = []
    first: dict[str, int] = {}
    for i, text in enumerate(row.cells):
        label = text.strip()
        if not label:
            continue
        found = label if label in fields else by_folded.get(_folded(label))
        if "@" in label:
            found, wrong = _translation_column(label, attributes, editions)
            if found is None:
                problems.append(places.problem(f"column '{label}': {wrong}", row.number, i))
                continue
        if found is None:
            close = re.search(r"'(.*)'", suggest(_folded(label), list(by_folded)))
            hint = f" (did you mean '{by_folded[close.group(1)]}'?)" if close else ""
            problems.append(
                places.problem(f"unknown column '{label}'{hint}; declare custom columns under [deck.attributes]", row.number, i)
            )
        elif found in first:
            problems.append(
                places.problem(f"'{label}' names '{found}' again (column {column_letter(first[found])})", row.number, i)
            )
        else:
            first[found] = i
            columns[i] = found
    if "name" not in first:
        problems.append(places.problem("missing required column 'name'", row.number))
    return columns, problems


def _cards(
    ctx: Context, table: Table, name: str, folder: Path, lookup: Lookup, attributes: dict[str, str], editions: tuple[str, ...]
) -> list[Card]:
    places = _Places(name, table)
    if not table.rows:
        ctx.problems.append(
            places.problem(("CSV file" if table.sheet is None else "the sheet") + " is empty; it needs a header row", 1)
        )
        return []
    columns, problems = _header(table, places, attributes, editions)
    if problems:
        ctx.problems.extend(problems)
        return []
    places.columns = {f: i for i, f in columns.items()}
    header = table.rows[0]
    if len(table.rows) == 1:
        ctx.problems.append(places.problem("no cards: the card list has its header row and nothing under it", header.number))
        return []
    cards: list[Card] = []
    for row in table.rows[1:]:
        if table.sheet is None and len(row.cells) != len(header.cells):
            labels = ", ".join(c.strip() for c in header.cells)
            ctx.problems.append(
                places.problem(f"expected {len(header.cells)} columns ({labels}), found {len(row.cells)}", row.number)
            )
            continue
        stray = next((i for i, text in enumerate(row.cells) if text.strip() and i not in columns), None)
        if stray is not None:
            ctx.problems.append(
                places.problem("a value in a column with no header; name the column or clear it", row.number, stray)
            )
            continue
        if len(cards) >= MAX_CARDS:
            ctx.problems.append(places.problem(f"more than {MAX_CARDS:,} cards", row.number))
            break
        row_ctx = _RowContext(ctx, places, row.number)
        cells = {columns[i]: text for i, text in enumerate(row.cells) if i in columns}
        translated: dict[str, dict[str, str]] = {}
        for column in [c for c in cells if "@" in c]:
            field, _, language = column.partition("@")
            text = cells.pop(column).strip().replace("\\n", "\n")
            if text:
                translated.setdefault(language, {})[field] = text
        values = _values(row_ctx, cells, attributes)
        card = parse_card(row_ctx, values, (), lookup, attributes, origin=Origin(name, row.number, table.sheet))
        if card:
            cards.append(replace(card, translations=frozen_mapping(translated)) if translated else card)
    return cards


class _RowContext(Context):
    """Reports a row's problems by its row and the column of the field concerned."""

    def __init__(self, parent: Context, places: _Places, row: int):
        super().__init__(places.file)
        self.parent, self.places, self.row = parent, places, row
        self.folder = parent.folder
        self.readings = parent.readings

    def error(self, path: KeyPath | None, message: str, line: int | None = None) -> None:
        field = next((p for p in (path or ()) if isinstance(p, str)), None)
        if field == "id" and "id" not in self.places.columns:
            field = "name"  # the id was made from the name
        column = self.places.columns.get(field) if field else None
        self.parent.problems.append(self.places.problem(message, self.row, column, field))


def _values(ctx: _RowContext, row: dict[str, str], attributes: dict[str, str]) -> dict[str, Any]:
    """The row's cells as the values of their fields: numbers, true/false and lists by the declared types."""
    out: dict[str, Any] = {}
    for key, text in row.items():
        text = text.strip()
        kind = "int" if key == "copies" else attributes.get(key)
        if text == "":
            continue
        if kind is None:
            out[key] = text
        elif kind == "int":
            try:
                out[key] = int(text)
            except ValueError:
                ctx.error((key,), f"'{text}' is not a whole number")
        elif kind == "float":
            try:  # a decimal comma, as semicolon CSV files from much of Europe write numbers, is accepted
                out[key] = float(text.replace(",", ".") if re.fullmatch(r"[-+]?\d*,\d+", text) else text)
            except ValueError:
                ctx.error((key,), f"'{text}' is not a number")
        elif kind == "bool":
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                ctx.error((key,), f"'{text}' is not true or false")
            else:
                out[key] = text.lower() in ("true", "yes", "1")
        elif kind == "list":
            out[key] = [v.strip() for v in text.split("+") if v.strip()]
        else:
            out[key] = text.replace("\\n", "\n")
    return out
