"""One card side as a one-page PDF: the piece print sheets are assembled from.

A side is drawn into its own small PDF once, and the sheets of every paper
(A4, Letter, a combined job) place that page as a form.  For the pieces to
share one copy of each font, every piece of a job embeds the same subset:
the fonts are seeded with the job's whole character set, sorted, before
anything is drawn, so each font's subset (its glyphs and their codes) is the
same in every piece, whichever process drew it.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable

from reportlab.graphics import renderPDF
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from .canvas import new_canvas
from .colour import colour_converter
from .drawing import svg_to_drawing

# Every piece's fonts hold these characters, so an edit that keeps to them never changes the pieces' fonts.
BASE_CHARS = "".join(chr(c) for c in range(0x20, 0x7F))
SUBSETS_KEPT = 16  # per font
COMPRESSED_KEPT = 32  # large streams compressed, per process
LARGE_STREAM = 4096  # bytes: font files; a card's own drawing is smaller and different every time
KEPT_STREAM = 1 << 20  # bytes: a larger stream (a picture) is compressed each time rather than kept


def job_charset(chars: Iterable[str]) -> str:
    """The characters every piece of a job seeds its fonts with: printable ASCII and every side's own."""
    return "".join(sorted(set(BASE_CHARS).union(*chars)))


class _Kept(dict):
    """Values made once each, at most ``limit`` of them (all let go when it is reached)."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def made(self, key, make):
        found = self.get(key)
        if found is None:
            if len(self) >= self.limit:
                self.clear()
            found = self[key] = make()
        return found


def _remember_subsets(font: TTFont) -> None:
    """Make each distinct subset of ``font`` once per process: every piece of a job embeds the same ones."""
    if getattr(font.face, "_aetherpress_subsets", None) is not None:
        return
    make = font.face.makeSubset
    kept = _Kept(SUBSETS_KEPT)
    font.face.makeSubset = lambda codes: kept.made(tuple(codes), lambda: make(codes))
    font.face._aetherpress_subsets = kept


def _seed_fonts(canvas, charset: str) -> None:
    """Give every registered TrueType font the same codes for ``charset`` in this document."""
    doc = canvas._doc
    for font in sorted(pdfmetrics._fonts.values(), key=lambda f: f.fontName):
        if isinstance(font, TTFont):
            _remember_subsets(font)
            font.splitString(charset, doc)


def _compress_once() -> None:
    """Make reportlab compress each distinct large stream once per process (the same bytes as ever):
    every piece of a job embeds the same font subsets."""
    flate = pdfdoc.PDFZCompress
    if getattr(flate, "_aetherpress_kept", None) is not None:
        return
    compress = flate.encode
    kept = _Kept(COMPRESSED_KEPT)

    def encode(text):
        data = text.encode("utf-8") if isinstance(text, str) else text
        if not LARGE_STREAM <= len(data) <= KEPT_STREAM:
            return compress(data)
        return kept.made(hashlib.sha256(data).digest(), lambda: compress(data))

    flate.encode = encode
    flate._aetherpress_kept = kept


def fragment_pdf(
    svg_text: str, source: str, place: str, size_mm: tuple[float, float], charset: str, greyscale: bool = False
) -> bytes:
    """The side as a one-page PDF of ``size_mm`` (trim plus bleed), its fonts seeded with ``charset``."""
    drawing = svg_to_drawing(svg_text, source, place, color_converter=colour_converter(greyscale))
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, size_mm, place)
    _seed_fonts(canvas, charset)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.showPage()
    _compress_once()
    canvas.save()
    return buffer.getvalue()
