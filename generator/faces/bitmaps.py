"""Card pictures as they are printed: decoded once, into the same sRGB pixels for every reader.

A browser showing the preview and the renderer printing the card would each
read a PNG or JPEG their own way: EXIF orientation, embedded ICC profiles,
CMYK JPEGs (and Adobe's inverted ones), 16-bit and palette PNGs.  So a card
never carries a picture's file as it is.  It is decoded here by Pillow, turned
upright by its EXIF orientation, converted to 8-bit sRGB (through its own ICC
profile, relative colorimetric with black-point compensation; a CMYK picture
that names none through the shipped coated-paper profile) and encoded again
without EXIF, ICC profile or any other metadata: a picture with transparency
as PNG with alpha, an opaque one as it came (JPEG, quality 92, baseline, or
PNG).  The same file gives the same bytes on every run.

A picture is given to the card at most :data:`_PRINT_DPI` over the box it is
drawn in (the whole card when the template does not say), so sheets, pieces
and caches carry what prints and no more, and each picture is decoded and
scaled once per process.
"""

from __future__ import annotations

import base64
import io
import re
import warnings
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageCms, ImageFile, ImageOps

from ..definitions.images import DAMAGED, MAX_IMAGE_PIXELS, picture_reader
from ..iccprofiles import shipped_profile_data
from ..units import pixels

_PRINT_DPI = 600  # finer than a card press resolves
_JPEG_QUALITY = 92
_UNTAGGED_CMYK = "coated"  # the stock whose profile reads a CMYK picture that names no profile
_PROFILE_SPACES = {"L": "GRAY", "RGB": "RGB", "CMYK": "CMYK"}  # the profile colour space each working mode needs
_WIDE = ("I;16", "I;16L", "I;16B", "I;16N", "I")  # 16-bit greys, as Pillow versions read them
_PACKED_GREYS = {"L;2": 3, "L;4": 15}  # PNG greys of 2 and 4 bits: Pillow scales their pixels, not their tRNS


class PictureError(ValueError):
    """A picture that cannot be decoded (its message says so as the deck check does)."""


def _pixels(mm: float) -> int:
    return max(1, pixels(mm, _PRINT_DPI))


@lru_cache(maxsize=256)
def _normalised(width_px: int, height_px: int, data: bytes, kind: str) -> tuple[bytes, str]:
    """The picture ``data`` (a ``kind`` file) upright, in 8-bit sRGB, no finer than the box needs, encoded: (bytes, kind);
    a function of the bytes given, kept for the pictures drawn last (a deck shows one on many cards)."""
    try:
        with warnings.catch_warnings():  # Pillow's words on damaged metadata, naming its files: said as DAMAGED or not at all
            warnings.simplefilter("ignore")
            with picture_reader(kind)(io.BytesIO(data)) as image:
                rawmode = _rawmode(image)
                image.load()
                info = dict(image.info)
                upright = _upright(image)
        colour, alpha = _working(upright, info, rawmode)
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise PictureError(DAMAGED) from None
    scale = max(width_px / colour.width, height_px / colour.height)  # covers the box, whatever the fit
    if scale < 1:
        size = (max(1, round(colour.width * scale)), max(1, round(colour.height * scale)))
        colour, alpha = _resized(colour, alpha, size)
    picture = _to_srgb(colour, info.get("icc_profile"))
    if alpha is not None:
        picture.putalpha(alpha)
    picture.info.clear()  # nothing but the pixels is written
    out = io.BytesIO()
    if alpha is None and kind == "jpeg":
        picture.save(out, "JPEG", quality=_JPEG_QUALITY, optimize=False, progressive=False, subsampling="4:2:0")
        return out.getvalue(), "jpeg"
    picture.save(out, "PNG", compress_level=6, optimize=False)
    return out.getvalue(), "png"


def _rawmode(image: ImageFile.ImageFile) -> str | None:
    """How the file stores its pixels, as Pillow names it (``L;2``, ``RGB;16B``, ``CMYK;I`` ...), before it is decoded."""
    if not image.tile:
        return None
    args = image.tile[0].args
    return args if isinstance(args, str) else args[0] if args and isinstance(args[0], str) else None


def _upright(image: Image.Image) -> Image.Image:
    """The picture turned as its EXIF orientation says; EXIF a reader cannot make sense of is ignored, as browsers do."""
    try:
        return ImageOps.exif_transpose(image)
    except Exception:  # any fault in the metadata: the pixels as they are stored
        return image.copy()


def _working(image: Image.Image, info: dict, rawmode: str | None) -> tuple[Image.Image, Image.Image | None]:
    """The picture as 8-bit colour (mode L, RGB or CMYK) and its alpha (mode L, None when it is opaque)."""
    import numpy as np  # loaded by the builds that draw pictures

    mode, transparency = image.mode, info.get("transparency")
    alpha: Image.Image | None = None
    if mode in _WIDE:  # Pillow's own conversion would clip everything above 255 to white
        values = np.asarray(image).astype(np.int64)
        colour = Image.fromarray(np.clip(np.rint(values / 257.0), 0, 255).astype(np.uint8))
        if isinstance(transparency, int):
            alpha = Image.fromarray(np.where(values == transparency, 0, 255).astype(np.uint8))
        return colour, _opaque_is_none(alpha)
    if mode == "1":
        image, mode = image.convert("L"), "L"  # its tRNS is read as 0 or 255 already
    elif mode in ("P", "PA"):
        image, mode = image.convert("RGBA"), "RGBA"  # transparent palette entries become alpha
    elif mode == "CMYK" and rawmode == "CMYK;I" and "adobe" not in info:
        # Pillow reads every CMYK JPEG as Adobe's inverted CMYK; without the Adobe marker it is plain CMYK
        image = Image.merge("CMYK", [band.point(lambda v: 255 - v) for band in image.split()])
    if mode in ("LA", "RGBA"):
        alpha = image.getchannel("A")
        image = image.convert(mode[:-1])
    elif mode in ("L", "RGB") and transparency is not None:
        alpha = _keyed_alpha(image, transparency, rawmode)
    elif mode not in ("L", "RGB", "CMYK"):
        image = image.convert("RGB")
    return image, _opaque_is_none(alpha)


def _keyed_alpha(image: Image.Image, transparency: object, rawmode: str | None) -> Image.Image | None:
    """The alpha of a grey or RGB PNG whose tRNS names one colour transparent."""
    import numpy as np  # loaded by the builds that draw pictures

    pixels = np.asarray(image)
    wide = rawmode is not None and "16" in rawmode  # a 16-bit key, its picture read as 8 bits (the high bytes)
    if image.mode == "L" and isinstance(transparency, int):
        if rawmode in _PACKED_GREYS:
            transparency = transparency * 255 // _PACKED_GREYS[rawmode]
        elif wide:
            transparency >>= 8
        return Image.fromarray(np.where(pixels == transparency, 0, 255).astype(np.uint8))
    if image.mode == "RGB" and isinstance(transparency, tuple) and len(transparency) == 3:
        key = np.array([v >> 8 if wide else v for v in transparency], dtype=np.int64)
        return Image.fromarray(np.where((pixels == key).all(axis=-1), 0, 255).astype(np.uint8))
    return None


def _opaque_is_none(alpha: Image.Image | None) -> Image.Image | None:
    return None if alpha is None or alpha.getextrema() == (255, 255) else alpha


def _resized(colour: Image.Image, alpha: Image.Image | None, size: tuple[int, int]) -> tuple[Image.Image, Image.Image | None]:
    """Both scaled down; with alpha, as one LA or RGBA picture (Pillow weighs colours by their alpha)."""
    if alpha is None:
        return colour.resize(size, Image.Resampling.LANCZOS), None
    both = colour.copy()
    both.putalpha(alpha)
    both = both.resize(size, Image.Resampling.LANCZOS)
    return both.convert(colour.mode), both.getchannel("A")


def _to_srgb(colour: Image.Image, icc: bytes | None) -> Image.Image:
    """8-bit L, RGB or CMYK pixels as sRGB (mode RGB)."""
    transform = _transform(icc, colour.mode)
    if transform is None and colour.mode == "CMYK":
        transform = _transform(shipped_profile_data(_UNTAGGED_CMYK), "CMYK")
    if transform is None:
        return colour.convert("RGB")  # no profile of its own: its numbers are sRGB already
    return transform.apply(colour)


@cache
def _srgb() -> ImageCms.ImageCmsProfile:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


@lru_cache(maxsize=16)
def _transform(icc: bytes | None, mode: str) -> ImageCms.ImageCmsTransform | None:
    """A transform from the profile ``icc`` to sRGB for pixels of ``mode``; None without a usable profile for them
    (a profile that does not parse, or is of another colour space, is ignored as browsers ignore it)."""
    if not icc:
        return None
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        if profile.profile.xcolor_space.strip() != _PROFILE_SPACES[mode].strip():
            return None
        return ImageCms.buildTransform(
            profile,
            _srgb(),
            mode,
            "RGB",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
        )
    except (OSError, ValueError, TypeError, ImageCms.PyCMSError):
        return None


def picture_uri(path: Path, data: bytes, kind: str, box_mm: tuple[float, float]) -> str:
    """The picture as a ``data:`` URI: decoded, upright and in sRGB, scaled down to :data:`_PRINT_DPI` over ``box_mm``
    when it is finer.  Raises :class:`PictureError` when it cannot be decoded."""
    encoded, out_kind = _normalised(_pixels(box_mm[0]), _pixels(box_mm[1]), data, kind)
    return f"data:image/{out_kind};base64," + base64.b64encode(encoded).decode("ascii")


_INLINE = re.compile(r"^\s*data:image/(png|jpeg);base64,([A-Za-z0-9+/=\s]*)$")


def inline_picture(uri: str, box_mm: tuple[float, float]) -> str | None:
    """A picture a template wrote itself as a ``data:`` URI, decoded and written again as :func:`picture_uri`
    writes a card image (upright, 8-bit sRGB), so the browser and the print draw the same pixels; None when the
    URI is no PNG or JPEG.  Raises :class:`PictureError` when it cannot be decoded."""
    found = _INLINE.match(uri)
    if found is None:
        return None
    try:
        data = base64.b64decode("".join(found.group(2).split()), validate=True)
    except ValueError:
        raise PictureError(DAMAGED) from None
    kind = "jpeg" if data.startswith(b"\xff\xd8") else "png"
    try:  # the reader of its kind, not Image.open: that would hold the size to Pillow's own limit, with a warning
        with picture_reader(kind)(io.BytesIO(data)) as header:  # its size read before its pixels
            if header.width * header.height > MAX_IMAGE_PIXELS:
                raise PictureError(f"has more than {MAX_IMAGE_PIXELS // 1_000_000} million pixels")
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise PictureError(str(exc) if isinstance(exc, PictureError) else DAMAGED) from None
    encoded, out_kind = _normalised(_pixels(box_mm[0]), _pixels(box_mm[1]), data, kind)
    return f"data:image/{out_kind};base64," + base64.b64encode(encoded).decode("ascii")
