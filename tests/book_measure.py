"""Measuring printed books from their PDF: lines of body text, page fill, chapter starts.

Everything here reads the PDF as a reader's eye would (pdfium's text layer and
rendered pixels), not the layout engine's own idea of what it did.
"""

from __future__ import annotations

import ctypes
import io
import itertools
from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from pypdf import PdfReader


@dataclass
class Line:
    page: int  # 1-based
    text: str
    size: float  # font size, points
    left: float
    right: float


def body_lines(data: bytes, body_size: float) -> list[Line]:
    """Every line of text set at ``body_size`` points, page by page, top to bottom."""
    pdf = pdfium.PdfDocument(data)
    lines: list[Line] = []
    for index in range(len(pdf)):
        text_page = pdf[index].get_textpage()
        rows: dict[int, list[tuple[float, float, str]]] = {}
        for i in range(text_page.count_chars()):
            size = pdfium_c.FPDFText_GetFontSize(text_page.raw, i)
            if abs(size - body_size) > 0.05:
                continue
            char = chr(pdfium_c.FPDFText_GetUnicode(text_page.raw, i))
            left, bottom, right, top = (ctypes.c_double() for _ in range(4))
            pdfium_c.FPDFText_GetCharBox(text_page.raw, i, left, right, bottom, top)
            origin_x, origin_y = ctypes.c_double(), ctypes.c_double()
            pdfium_c.FPDFText_GetCharOrigin(text_page.raw, i, origin_x, origin_y)
            if char in "\r\n":
                continue
            rows.setdefault(round(origin_y.value), []).append((origin_x.value, right.value, char))
        for y in sorted(rows, reverse=True):
            chars = sorted(rows[y])
            text = "".join(c for _, _, c in chars)
            lines.append(Line(index + 1, text, body_size, chars[0][0], max(r for _, r, _ in chars)))
    return lines


def full_lines(lines: list[Line], measure: float, share: float = 0.97) -> list[Line]:
    """Lines that run the whole measure (justified lines, not the last of a paragraph)."""
    return [ln for ln in lines if ln.right - ln.left >= measure * share and len(ln.text.split()) > 3]


def characters(line: Line) -> int:
    """Characters of a line as a reader counts them: letters, punctuation and single spaces."""
    return len(" ".join(line.text.split()))


def page_fill(data: bytes, margins: tuple[float, float, float, float], dpi: int = 36) -> list[float]:
    """How far down its text area each page is printed, from 0 (empty) to 1 (full).

    ``margins`` are (inner, outer, top, bottom) in points; the footer, below the
    bottom margin, is not counted.
    """
    _inner, _outer, top, bottom = margins
    pdf = pdfium.PdfDocument(data)
    fills = []
    scale = dpi / 72
    for index in range(len(pdf)):
        page = pdf[index]
        image = np.asarray(page.render(scale=scale, grayscale=True).to_pil().convert("L"))
        h = image.shape[0]
        y0, y1 = int(top * scale), h - int(bottom * scale)
        area = image[y0:y1, :]
        inked = np.where((area < 200).any(axis=1))[0]
        fills.append(0.0 if inked.size == 0 else (inked[-1] + 1) / area.shape[0])
    return fills


def chapter_pages(data: bytes) -> list[int]:
    """The 1-based pages where a chapter (a top-level heading) begins."""
    reader = PdfReader(io.BytesIO(data))
    return sorted({reader.get_destination_page_number(item) + 1 for item in reader.outline if not isinstance(item, list)})


def hyphenated_breaks(lines: list[Line], words: set[str]) -> list[str]:
    """Words broken across two lines by hyphenation: a line ends in 'xx-' and the next begins 'yy', and 'xxyy' is a word."""
    found = []
    for a, b in itertools.pairwise(lines):
        head = a.text.rstrip().replace("\x02", "-").replace("\u00ad", "-")  # pdfium reports a line-end hyphen as 0x02
        if a.page != b.page or not head.endswith("-") or not b.text.strip():
            continue
        left = head.split()[-1][:-1].strip("“‘(")
        right = b.text.split()[0].rstrip(".,;:!?’”)")
        if left.isalpha() and right.isalpha() and (left + right).lower() in words:
            found.append(f"{left}-{right}")
    return found
