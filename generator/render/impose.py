"""Booklet imposition: a PDF's pages placed two to a side of landscape sheets, in booklet order."""

from __future__ import annotations

import io

from ..imposition.booklet import booklet_order, creep_shifts
from ..units import pt


def impose(pdf_bytes: bytes, sheet: tuple[float, float], thickness: float = 0.0) -> bytes:
    """The pages of ``pdf_bytes`` imposed 2-up on landscape sheets of ``sheet`` (points, portrait); with a paper
    ``thickness`` (mm), the pages of inner sheets move towards the fold by their creep (:func:`creep_shifts`)."""
    from pypdf import PdfReader, PdfWriter, Transformation  # pypdf is loaded only for booklets

    from ..libraries.pypdf import without_id  # with pypdf

    reader = PdfReader(io.BytesIO(pdf_bytes))
    pages = list(reader.pages)
    sheet_w, sheet_h = max(sheet), min(sheet)
    writer = PdfWriter()
    for (left, right), shifts in zip(booklet_order(len(pages)), creep_shifts(len(pages), thickness), strict=True):
        side = writer.add_blank_page(sheet_w, sheet_h)
        for slot, index in enumerate((left, right)):
            if index is None:
                continue
            page = pages[index]
            pw, ph = float(page.mediabox.width), float(page.mediabox.height)
            scale = min((sheet_w / 2) / pw, sheet_h / ph)
            x = slot * sheet_w / 2 + (sheet_w / 2 - pw * scale) / 2 + pt(shifts[slot])
            y = (sheet_h - ph * scale) / 2
            side.merge_transformed_page(page, Transformation().scale(scale, scale).translate(x, y))
    title = reader.metadata.get("/Title", "") if reader.metadata else ""
    writer.add_metadata({"/Producer": "Aetherpress", "/Title": str(title)})
    without_id(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
