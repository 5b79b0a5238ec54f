"""Card pictures as they are printed: decoded once, no larger than their place on the card needs.

A designer's art is often a photograph of thousands of pixels a side; on a
card it fills a few centimetres.  A picture is given to the card at most
:data:`PRINT_DPI` over the box it is drawn in (the whole card when the
template does not say), so sheets, pieces and caches carry what prints and
no more, and each picture is decoded and scaled once per process.
"""

from __future__ import annotations

import base64
import io
from functools import lru_cache
from pathlib import Path

from PIL import Image

from ..project.digests import file_digest

PRINT_DPI = 600  # finer than a card press resolves
MM_PER_INCH = 25.4


def _pixels(mm: float) -> int:
    return max(1, round(mm / MM_PER_INCH * PRINT_DPI))


@lru_cache(maxsize=256)
def _scaled(path: str, digest: str, width_px: int, height_px: int, data: bytes, kind: str) -> bytes:
    with Image.open(io.BytesIO(data)) as image:
        scale = max(width_px / image.width, height_px / image.height)  # covers the box, whatever the fit
        if scale >= 1:
            return data  # already no finer than the print needs: kept as it is
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        smaller = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
        smaller = smaller.resize(size, Image.Resampling.LANCZOS)
        out = io.BytesIO()
        if kind == "jpeg":
            smaller.convert("RGB").save(out, "JPEG", quality=92, optimize=False, progressive=False)
        else:
            smaller.save(out, "PNG", compress_level=6, optimize=False)
        return out.getvalue()


def picture_uri(path: Path, data: bytes, kind: str, box_mm: tuple[float, float]) -> str:
    """The picture as a ``data:`` URI, scaled down to :data:`PRINT_DPI` over ``box_mm`` when it is finer."""
    scaled = _scaled(str(path), file_digest(path), _pixels(box_mm[0]), _pixels(box_mm[1]), data, kind)
    return f"data:image/{kind};base64," + base64.b64encode(scaled).decode("ascii")
