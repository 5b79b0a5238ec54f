"""Transparency flattened in a finished RGB PDF (a book's pages), as the browser and pdfium blend it, before CMYK.

Cards go to the press through :mod:`.presspiece`, side by side from their SVG.  A
book arrives as pages already drawn, where transparency comes from the card
pictures it shows (each a form of its own) and, rarely, from the page itself.
:func:`flatten_pages` rasterises each card picture that paints anything
transparent (a form whose name starts :data:`CARD_FORM`, in a placed page) as a
whole, over white, at ``dpi`` (its own size taken as points), and draws the
picture in its form's place; other forms are searched for card pictures, and
a form or page that still paints anything transparent after that becomes one
picture.  A card picture is never taken apart: the groups the print renderer
makes inside it (one that blends, one that is filtered) are transparent only
against the card under them, and one rasterised alone over white would blend
with white.  The book's own text stays text wherever its page has
no transparency of its own.  Pictures are RGB: the colour conversion that
follows turns them into CMYK as it turns every picture.
"""

from __future__ import annotations

import io
import zlib
from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name

from .pagepng import render_pages
from .transparency import transparency_of

CARD_FORM = "card-"  # the start of the name of a form a book draws a card picture in (after reportlab's own prefix)
MAX_PIXELS = 40_000_000  # a flattened picture: a poker card at 600 dpi is 3.7 million, a letter page 34


def _picture(document: pikepdf.Pdf, image: Any) -> pikepdf.Stream:
    return document.make_stream(
        zlib.compress(image.tobytes(), 6),
        Type=Name.XObject,
        Subtype=Name.Image,
        Width=image.width,
        Height=image.height,
        ColorSpace=Name.DeviceRGB,
        BitsPerComponent=8,
        Filter=Name.FlateDecode,
    )


def _pixels(width_pt: float, height_pt: float, dpi: float) -> tuple[int, int]:
    scale = dpi / 72
    while width_pt * scale * height_pt * scale > MAX_PIXELS:
        scale *= 0.8
    return max(1, round(width_pt * scale)), max(1, round(height_pt * scale))


def _rasterised_form(form: Any, dpi: float) -> Any:
    """The form ``form`` drawn alone over white at ``dpi`` (its units taken as points): an RGB image."""
    x0, y0, x1, y1 = (float(v) for v in form.BBox)
    alone = pikepdf.new()
    page = alone.add_blank_page(page_size=(x1 - x0, y1 - y0))
    page.add_resource(alone.copy_foreign(form), Name.XObject, Name("/F"))
    page.contents_add(alone.make_stream(f"q 1 0 0 1 {-x0:.4f} {-y0:.4f} cm /F Do Q".encode()))
    out = io.BytesIO()
    alone.save(out)
    return next(iter(render_pages(out.getvalue(), _pixels(x1 - x0, y1 - y0, dpi))))


def _flatten_form(document: pikepdf.Pdf, form: Any, dpi: float) -> None:
    x0, y0, x1, y1 = (float(v) for v in form.BBox)
    image = _picture(document, _rasterised_form(form, dpi))
    form.write(f"q {x1 - x0:.4f} 0 0 {y1 - y0:.4f} {x0:.4f} {y0:.4f} cm /Flat Do Q".encode())
    form.Resources = Dictionary(XObject=Dictionary(Flat=image))
    if "/Group" in form:
        del form["/Group"]


def _flatten_page(document: pikepdf.Pdf, n: int, dpi: float) -> None:
    page = document.pages[n]
    x0, y0, x1, y1 = (float(v) for v in page.mediabox)
    single = pikepdf.new()
    single.pages.append(page)
    out = io.BytesIO()
    single.save(out)
    image = next(iter(render_pages(out.getvalue(), _pixels(x1 - x0, y1 - y0, dpi))))
    page.obj.Resources = Dictionary(XObject=Dictionary(Flat=_picture(document, image)))
    page.obj.Contents = document.make_stream(f"q {x1 - x0:.4f} 0 0 {y1 - y0:.4f} {x0:.4f} {y0:.4f} cm /Flat Do Q".encode())
    if "/Group" in page.obj:
        del page.obj["/Group"]


def _flatten_within(document: pikepdf.Pdf, holder: Any, dpi: float, done: set[tuple[int, int]], depth: int = 0) -> None:
    """Every form ``holder`` uses that is transparent: a card picture as a whole; another, the forms inside it
    first, then the form itself if it is still transparent (its own content is)."""
    for name, form in (holder.get("/Resources", Dictionary()).get("/XObject") or Dictionary()).items():
        if form.get("/Subtype") != Name.Form or form.objgen in done or not isinstance(form.get("/BBox"), Array):
            continue
        done.add(form.objgen)
        if not transparency_of(form):
            continue
        if depth < 16 and not _card_picture(name):
            _flatten_within(document, form, dpi, done, depth + 1)
        if transparency_of(form):
            _flatten_form(document, form, dpi)


def _card_picture(name: str) -> bool:
    """Is the form of resource name ``name`` a card picture (``/FormXob.card-...``)?"""
    return str(name).lstrip("/").split(".", 1)[-1].startswith(CARD_FORM)


def flatten_pages(pdf: bytes, dpi: float) -> bytes:
    """``pdf`` with nothing transparent left: the innermost transparent forms, then pages, rasterised at ``dpi``."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        if not any(transparency_of(page.obj) for page in document.pages):
            return pdf
        done: set[tuple[int, int]] = set()
        for n, page in enumerate(document.pages):
            if transparency_of(page.obj):
                _flatten_within(document, page.obj, dpi, done)
            if transparency_of(page.obj):
                _flatten_page(document, n, dpi)
        out = io.BytesIO()
        document.save(out, deterministic_id=True)
        return out.getvalue()


__all__ = ["CARD_FORM", "MAX_PIXELS", "flatten_pages"]
