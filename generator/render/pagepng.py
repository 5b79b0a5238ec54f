"""PDF pages to RGB PNG images of an exact pixel size, through pdfium.

Cards are rasterised from the same vector drawing as the print sheets (one
drawing path), page by page, each page stretched to exactly the asked pixel
size.  PNG files are written without timestamps, so they are reproducible.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from ..resources.cores import in_threads

if TYPE_CHECKING:
    from PIL import Image

Name = TypeVar("Name")


def render_pages(pdf: bytes, sizes: Sequence[tuple[int, int]] | tuple[int, int], inset: float = 0.0) -> Iterator[Image.Image]:
    """Each page of ``pdf`` as an RGB image of the given pixel size (one size for all, or one per page); with
    ``inset`` (points), the page less a band that wide on every side (a card's wider bleed cut to a narrower one:
    the cut falls between pixels wherever it lies, so it is drawn, not cropped from a larger picture)."""
    # pdfium loads only for rasters
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(pdf)
    try:
        for n in range(len(document)):
            w, h = sizes if isinstance(sizes[0], int) else sizes[n]  # type: ignore[misc]
            page = document[n]
            bitmap = pdfium.PdfBitmap.new_native(w, h, pdfium_c.FPDFBitmap_BGR)
            bitmap.fill_rect((255, 255, 255, 255), 0, 0, w, h)
            if inset:
                sx, sy = w / (page.get_width() - 2 * inset), h / (page.get_height() - 2 * inset)
                matrix = pdfium_c.FS_MATRIX(sx, 0, 0, sy, -inset * sx, -inset * sy)
                clip = pdfium_c.FS_RECTF(0, 0, w, h)
                pdfium_c.FPDF_RenderPageBitmapWithMatrix(bitmap.raw, page.raw, matrix, clip, pdfium_c.FPDF_ANNOT)
            else:
                pdfium_c.FPDF_RenderPageBitmap(bitmap.raw, page.raw, 0, 0, w, h, 0, pdfium_c.FPDF_ANNOT)
            image = bitmap.to_pil().convert("RGB")
            bitmap.close()
            page.close()
            yield image
    finally:
        document.close()


def png_bytes(image, dpi: float | None = None) -> bytes:
    """PNG bytes of an RGB image: no timestamps or text chunks, so the same image gives the same bytes."""
    buffer = io.BytesIO()
    options = {"format": "PNG", "compress_level": 6}
    if dpi:
        options["dpi"] = (dpi, dpi)
    image.convert("RGB").save(buffer, **options)
    return buffer.getvalue()


def png_files(images: Iterable[tuple[Name, Image.Image]], dpi: float | None = None) -> Iterator[tuple[Name, bytes]]:
    """(name, PNG bytes) of each named image, in order, the same bytes :func:`png_bytes` gives: zlib lets go of the
    interpreter while it compresses, so images are encoded on every core while the next are drawn."""
    return in_threads(lambda named: (named[0], png_bytes(named[1], dpi)), images)
