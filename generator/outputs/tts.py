"""Tabletop Simulator: deck sheet images, the back image and the deck object that loads them.

A sheet is a grid of trimmed card faces, at most 10 x 7 cells and 4096 px on
each side (Tabletop Simulator's limits); a larger deck takes several sheets.
Hidden cards show the back (``BackIsHidden``), so all 70 cells hold cards.
Several copies of a card share one cell: copies repeat its ``CardID``.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..definitions.model import Card, Deck
from ..faces.drawn import DrawnSides, SideSource
from ..locations import real
from ..project.files import write_bytes, write_text
from ..render.canvas import new_canvas
from ..render.colour import colour_converter
from ..render.forms import Forms
from ..render.pagepng import png_bytes, render_pages
from ..render.sheetpdf import Progress, place

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096


@dataclass(frozen=True)
class SheetGrid:
    cols: int
    rows: int
    cell_w: int  # px
    cell_h: int

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell_w, self.rows * self.cell_h


def cell_size(trim_w: float, trim_h: float) -> tuple[int, int]:
    """The largest cell with the card's proportions that lets 10 x 7 cells fit 4096 px."""
    max_w, max_h = MAX_PX // MAX_COLS, MAX_PX // MAX_ROWS
    w = min(max_w, math.floor(max_h * trim_w / trim_h))
    h = min(max_h, round(w * trim_h / trim_w))
    return w, h


def sheet_grids(count: int, trim_w: float, trim_h: float) -> list[tuple[SheetGrid, int]]:
    """(grid, number of cards) for each sheet needed by ``count`` distinct cards."""
    w, h = cell_size(trim_w, trim_h)
    out = []
    remaining = max(count, 1)
    while remaining > 0:
        n = min(remaining, MAX_COLS * MAX_ROWS)
        cols = min(MAX_COLS, n)
        rows = math.ceil(n / cols)
        out.append((SheetGrid(cols, rows, w, h), n))
        remaining -= n
    return out


def _sheet_png(deck: Deck, faces: DrawnSides, cards: Sequence[Card], grid: SheetGrid, side: str, greyscale: bool) -> bytes:
    """Draw the trimmed cards in the grid on one PDF page, then rasterise it to the sheet's pixels."""
    g = faces.renderer.geometry
    page_w, page_h = grid.cols * g.trim_w, grid.rows * g.trim_h
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (page_w, page_h), f"{deck.title} - Tabletop Simulator sheet")
    forms = Forms(canvas, [faces], colour_converter(greyscale))
    canvas.setFillColorRGB(1, 1, 1)
    for n, card in enumerate(cards):
        x, y = (n % grid.cols) * g.trim_w, (n // grid.cols) * g.trim_h
        key = forms.side(0, card, side)
        place(
            canvas,
            page_h,
            (x, y, g.trim_w, g.trim_h),
            (x, y, g.trim_w, g.trim_h),
            (g.width, g.height),
            0,
            partial(forms.draw, key, card),
        )
    canvas.showPage()
    canvas.save()
    image = next(render_pages(forms.filled(buffer.getvalue()), grid.size))
    return png_bytes(image)


def deck_object(
    deck: Deck, sheets: Sequence[tuple[SheetGrid, list[Card], str, str]], copies: dict[str, int], unique_back: bool
) -> dict:
    """The saved-object JSON of a custom deck: one CustomDeck entry per sheet, cards by CardID."""
    custom, contained, ids = {}, [], []
    for number, (grid, cards, face_url, back_url) in enumerate(sheets, start=1):
        custom[str(number)] = {
            "FaceURL": face_url,
            "BackURL": back_url,
            "NumWidth": grid.cols,
            "NumHeight": grid.rows,
            "BackIsHidden": True,
            "UniqueBack": unique_back,
            "Type": 0,
        }
        for n, card in enumerate(cards):
            card_id = number * 100 + n
            for _ in range(copies[card.id]):
                ids.append(card_id)
                contained.append(
                    {
                        "Name": "Card",
                        "Nickname": card.name,
                        "Description": "",
                        "CardID": card_id,
                        "CustomDeck": {str(number): custom[str(number)]},
                        "Transform": _transform(),
                    }
                )
    deck_obj: dict[str, Any] = {
        "Name": "DeckCustom" if len(ids) > 1 else "Card",
        "Nickname": deck.title,
        "Description": deck.key + (f"\n{deck.credits.line()}" if deck.credits else ""),
        "Transform": _transform(),
        "DeckIDs": ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
    }
    if len(ids) == 1:
        deck_obj = {**contained[0], "Nickname": contained[0]["Nickname"], "Transform": _transform()}
    return {
        "SaveName": "",
        "GameMode": "",
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "\n".join(deck.credits.text_lines()) if deck.credits else "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": [deck_obj],
        "TabStates": {},
        "VersionNumber": "",
    }


def _transform() -> dict:
    return {
        "posX": 0.0,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def export_tts(
    source: SideSource,
    deck: Deck,
    folder: Path,
    url_base: str | None = None,
    copies: int = 1,
    greyscale: bool = False,
    progress: Progress | None = None,
    final_folder: Path | None = None,
) -> list[Path]:
    """Write ``<slug>-sheet-N.png``, the back image(s) and ``<slug>-tts.json`` into ``folder``.

    Image URLs in the JSON are ``url_base`` + file name (default: ``file://`` URIs
    of the files where they end up, ``final_folder`` when ``folder`` is a staging
    folder); upload the images and set ``--url-base`` to share the deck.
    """
    faces = source.sides(deck)  # drawn as the preview draws it, bleed and all, and cut to the trim
    g = faces.renderer.geometry
    cards = list(deck.cards)
    backs = {deck.back_for(c) for c in cards} or {deck.back_template}
    unique_back = len(backs) > 1

    def url(path: Path) -> str:
        return (url_base.rstrip("/") + "/" + path.name) if url_base else real((final_folder or folder) / path.name).as_uri()

    images: dict[Path, bytes] = {}
    sheets = []
    start = 0
    plan = sheet_grids(len(cards), g.trim_w, g.trim_h)
    for number, (grid, n) in enumerate(plan, start=1):
        chunk = cards[start : start + n]
        start += n
        face_path = folder / f"{deck.slug}-sheet-{number}.png"
        images[face_path] = _sheet_png(deck, faces, chunk, grid, "front", greyscale)
        if unique_back:
            back_path = folder / f"{deck.slug}-backs-{number}.png"
            images[back_path] = _sheet_png(deck, faces, chunk, grid, "back", greyscale)
        else:
            back_path = folder / f"{deck.slug}-back.png"
            if back_path not in images:
                single = SheetGrid(1, 1, grid.cell_w, grid.cell_h)
                images[back_path] = _sheet_png(deck, faces, chunk[:1], single, "back", greyscale) if chunk else b""
        sheets.append((grid, chunk, url(face_path), url(back_path)))
        if progress:
            progress(number, len(plan))
    counts = {c.id: c.copies * copies for c in cards}
    written = [write_bytes(path, data) for path, data in images.items() if data]
    document = deck_object(deck, sheets, counts, unique_back)
    written.append(write_text(folder / f"{deck.slug}-tts.json", json.dumps(document, indent=2, ensure_ascii=False) + "\n"))
    return written
