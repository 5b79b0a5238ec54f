"""Booklet imposition for saddle-stitch printing.

Pages are padded with blanks to a multiple of four and placed two to a side
of a landscape sheet, in the order that makes a booklet once the sheets are
printed double-sided (flip on the short edge), stacked, folded and stapled.
"""
from __future__ import annotations

import io


def padded_count(pages: int) -> int:
    return max(4, -(-pages // 4) * 4)


def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """Sides in print order as (left, right) page indexes (0-based); None is a blank.

    Sheet ``s`` (of n/4) carries n-1-2s | 2s on its front and 2s+1 | n-2-2s on its back.
    """
    n = padded_count(pages)
    sides: list[tuple[int | None, int | None]] = []
    for s in range(n // 4):
        sides.append((n - 1 - 2 * s, 2 * s))
        sides.append((2 * s + 1, n - 2 - 2 * s))
    return [tuple(p if p is not None and p < pages else None for p in side) for side in sides]  # type: ignore[misc]


def impose(pdf_bytes: bytes, sheet: tuple[float, float]) -> bytes:
    """The pages of ``pdf_bytes`` imposed 2-up on landscape sheets of ``sheet`` (points, portrait)."""
    from pypdf import PdfReader, PdfWriter, Transformation

    reader = PdfReader(io.BytesIO(pdf_bytes))
    pages = list(reader.pages)
    sheet_w, sheet_h = max(sheet), min(sheet)
    writer = PdfWriter()
    for left, right in booklet_order(len(pages)):
        side = writer.add_blank_page(sheet_w, sheet_h)
        for slot, index in enumerate((left, right)):
            if index is None:
                continue
            page = pages[index]
            pw, ph = float(page.mediabox.width), float(page.mediabox.height)
            scale = min((sheet_w / 2) / pw, sheet_h / ph)
            x = slot * sheet_w / 2 + (sheet_w / 2 - pw * scale) / 2
            y = (sheet_h - ph * scale) / 2
            side.merge_transformed_page(page, Transformation().scale(scale, scale).translate(x, y))
    writer.add_metadata({"/Producer": "Aetherpress", "/Title": str((reader.metadata or {}).get("/Title", ""))})
    writer._ID = None  # type: ignore[attr-defined]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
