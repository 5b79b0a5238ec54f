"""Card lists in CSV beside a deck file: a header of card fields and attributes, a row per card."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from ..errors import Problem, display_path
from ..project import safe_join
from .cards import CARD_SPEC, MAX_CARDS, Lookup, parse_card
from .model import Card, Origin
from .schema import Context, KeyPath, suggest
from .toml import MAX_FILE_BYTES


def csv_cards(ctx: Context, relative: str, folder: Path, lookup: Lookup, attributes: dict[str, str]) -> list[Card]:
    target = safe_join(folder, relative)
    if target is None:
        ctx.error(("deck", "csv"), f"CSV path '{relative}' must stay inside the deck's folder")
        return []
    name = display_path(target)
    if not target.is_file():
        ctx.error(("deck", "csv"), f"CSV file '{relative}' not found beside the deck file")
        return []
    if target.stat().st_size > MAX_FILE_BYTES:
        ctx.error(("deck", "csv"), f"CSV file '{relative}' is larger than {MAX_FILE_BYTES // 1_000_000} MB")
        return []
    raw = target.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        ctx.problems.append(Problem(name, "file is not UTF-8 text; save it as UTF-8", raw[: exc.start].count(b"\n") + 1))
        return []
    reader = csv.reader(io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n"), newline=""))
    csv_ctx = Context(name)
    csv_ctx.folder = folder
    cards: list[Card] = []
    try:
        header = next(reader, None)
        if not header:
            csv_ctx.error(None, "CSV file is empty; it needs a header row", line=1)
        else:
            header = [h.strip() for h in header]
            for h in header:
                if h not in CARD_SPEC and h not in attributes:
                    csv_ctx.error(
                        None,
                        f"unknown column '{h}'{suggest(h, list(CARD_SPEC) + list(attributes))}; declare custom columns under [deck.attributes]",
                        line=1,
                    )
            if "name" not in header:
                csv_ctx.error(None, "missing required column 'name'", line=1)
            if not csv_ctx.problems:
                for row in reader:
                    line = reader.line_num
                    if not any(cell.strip() for cell in row):
                        continue
                    if len(row) != len(header):
                        csv_ctx.error(None, f"expected {len(header)} columns ({', '.join(header)}), found {len(row)}", line=line)
                        continue
                    if len(cards) >= MAX_CARDS:
                        csv_ctx.error(None, f"more than {MAX_CARDS:,} cards", line=line)
                        break
                    values = _csv_values(csv_ctx, dict(zip(header, row)), line, attributes)
                    row_ctx = _RowContext(csv_ctx, line)
                    card = parse_card(row_ctx, values, (), lookup, attributes, origin=Origin(name, line))
                    if card:
                        cards.append(card)
    except csv.Error as exc:
        csv_ctx.error(None, f"CSV syntax error: {exc}", line=reader.line_num)
    ctx.problems.extend(csv_ctx.problems)
    return cards


class _RowContext(Context):
    """Reports a CSV row's problems by line and column name."""

    def __init__(self, parent: Context, line: int):
        super().__init__(parent.file)
        self.parent, self.row_line = parent, line
        self.folder = parent.folder

    def error(self, path: KeyPath | None, message: str, line: int | None = None) -> None:
        column = next((p for p in (path or ()) if isinstance(p, str)), None)
        self.parent.error(None, (f"column '{column}': " if column else "") + message, line=self.row_line)


def _csv_values(ctx: Context, row: dict[str, str], line: int, attributes: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, text in row.items():
        text = text.strip()
        if key == "copies":
            if text:
                try:
                    out[key] = int(text)
                except ValueError:
                    ctx.error(None, f"column 'copies': '{text}' is not a whole number", line=line)
            continue
        kind = attributes.get(key)
        if kind is None:
            if text:
                out[key] = text
            continue
        if text == "":
            continue
        if kind == "int":
            try:
                out[key] = int(text)
            except ValueError:
                ctx.error(None, f"column '{key}': '{text}' is not a whole number", line=line)
        elif kind == "float":
            try:
                out[key] = float(text)
            except ValueError:
                ctx.error(None, f"column '{key}': '{text}' is not a number", line=line)
        elif kind == "bool":
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                ctx.error(None, f"column '{key}': '{text}' is not true or false", line=line)
            else:
                out[key] = text.lower() in ("true", "yes", "1")
        elif kind == "list":
            out[key] = [v.strip() for v in text.split("+") if v.strip()]
        else:
            out[key] = text.replace("\\n", "\n")
    return out
