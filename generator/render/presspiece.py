"""Card sides for the press: process CMYK that shows what the browser showed, transparency flattened as it blends.

A browser composites a card in sRGB: a soft-edged picture over its
background, a drop shadow, a ``screen`` or ``overlay`` blend, a gradient
fading out.  A CMYK file left with live transparency composites in ink, which
mixes otherwise (``screen`` changes hue), and PDF/X-1a allows no transparency
at all.  So a side that paints anything transparent (see
:mod:`.transparency`) is flattened here, in the colour space it was designed
in, before it becomes CMYK:

1. the side is drawn by the same renderer as every other output (svg2pdf),
   without its texts that can stay text (:mod:`.textlayer`),
2. rasterised by pdfium in sRGB, over the paper's white, at the press's
   resolution (at least :data:`FLATTEN_DPI`; filters are drawn at the shop's
   own resolution, which a blur needs no more than),
3. separated into CMYK through the printer's profile within its ink limit,
   as every picture is (:class:`~.colour.ProcessColour`), and
4. the texts set over it as vectors in process CMYK, sharp at any resolution.

A side with nothing transparent stays vector, its colours converted
(:mod:`.recolour`).  Either way the side has no transparency left, so the
same pieces make PDF/X-4 and both PDF/X-1a versions, and what the shop
prints is what ``export png`` draws, separated.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pikepdf
from pikepdf import Name
from PIL import Image

from .colour import ProcessColour
from .pagepng import render_pages
from .recolour import recolour
from .textlayer import split_text
from .transparency import is_transparent
from .vector import side_pdf

FLATTEN_DPI = 600  # the least a press file's transparency is flattened at
_LOOK_DPI = 10.0  # filters drawn only to see whether a side is transparent
_PICTURE = "/AetherpressFlat"


@dataclass(frozen=True)
class Press:
    """How sides are drawn for a print shop's file: colour through ``process``, flattened at ``dpi``, filters drawn
    at ``filter_dpi``."""

    process: ProcessColour
    dpi: float = FLATTEN_DPI
    filter_dpi: float = 300.0


def press_piece(
    svg: str,
    source: str,
    place: str | None,
    fonts: Iterable[str],
    press: Press,
    designed: Callable[[], bytes] | None = None,
) -> bytes:
    """The side ``svg`` as a one-page PDF in process CMYK with nothing transparent (see the module's words);
    ``designed`` gives the side as designed with its filters at the press's ``filter_dpi``, when it is kept."""
    fonts = tuple(fonts)

    def whole() -> bytes:  # the side as designed, its filters drawn at the press's resolution
        return designed() if designed is not None else side_pdf(svg, source, place, fonts, None, press.filter_dpi)

    # a side with a filter is transparent whatever its filter draws: look at it with the filter drawn coarse
    filtered = "filter" in svg
    drawn = side_pdf(svg, source, place, fonts, None, _LOOK_DPI) if filtered else whole()
    if not is_transparent(drawn):  # (an opaque filter, a flood under a blend, draws an opaque picture)
        return recolour(whole() if filtered else drawn, press.process)
    layers = split_text(svg)
    if layers is None:
        under = whole() if filtered else drawn  # drawn whole, at the press's resolution
    else:
        under = side_pdf(layers[0], source, place, fonts, None, press.filter_dpi)
    over = recolour(side_pdf(layers[1], source, place, fonts, None, press.filter_dpi), press.process) if layers else None
    return _over_picture(over or _blank(drawn), press.process.picture(_flattened(under, press.dpi)))


def _size_pt(pdf: bytes) -> tuple[float, float]:
    with pikepdf.open(io.BytesIO(pdf)) as document:
        box = [float(v) for v in document.pages[0].mediabox]
    return box[2] - box[0], box[3] - box[1]


def _flattened(pdf: bytes, dpi: float) -> Image.Image:
    """The one-page ``pdf`` rasterised in sRGB over white at ``dpi``."""
    w, h = _size_pt(pdf)
    size = (max(1, round(w / 72 * dpi)), max(1, round(h / 72 * dpi)))
    return next(iter(render_pages(pdf, size)))


def _blank(pdf: bytes) -> bytes:
    """An empty page of the size of ``pdf``'s."""
    w, h = _size_pt(pdf)
    document = pikepdf.new()
    document.add_blank_page(page_size=(w, h))
    out = io.BytesIO()
    document.save(out, deterministic_id=True)
    return out.getvalue()


def _over_picture(page_pdf: bytes, picture: Image.Image) -> bytes:
    """``page_pdf`` (one page) drawn over ``picture`` (CMYK or grey), which fills the page."""
    with pikepdf.open(io.BytesIO(page_pdf)) as document:
        page = document.pages[0]
        box = [float(v) for v in page.mediabox]
        image = document.make_stream(
            zlib.compress(picture.tobytes(), 6),
            Type=Name.XObject,
            Subtype=Name.Image,
            Width=picture.width,
            Height=picture.height,
            ColorSpace=Name.DeviceCMYK if picture.mode == "CMYK" else Name.DeviceGray,
            BitsPerComponent=8,
            Filter=Name.FlateDecode,
        )
        page.add_resource(image, Name.XObject, Name(_PICTURE))
        w, h = box[2] - box[0], box[3] - box[1]
        page.contents_add(f"q {w:.4f} 0 0 {h:.4f} {box[0]:.4f} {box[1]:.4f} cm {_PICTURE} Do Q\n".encode(), prepend=True)
        out = io.BytesIO()
        document.save(out, deterministic_id=True)
        return out.getvalue()


__all__ = ["FLATTEN_DPI", "Press", "press_piece"]
