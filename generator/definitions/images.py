"""Card pictures: PNG or JPEG files inside the deck's folder, named by an ``image`` attribute."""

from __future__ import annotations

from pathlib import Path

from ..errors import display_path
from ..locations import real
from ..project import safe_join
from ..project.readings import Readings
from .schema import Context, KeyPath

_IMAGE_MAGIC = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg"}
MAX_IMAGE_BYTES = 5_000_000


def image_kind(head: bytes) -> str | None:
    """``png`` or ``jpeg`` by a file's first bytes, else None."""
    return next((kind for magic, kind in _IMAGE_MAGIC.items() if head.startswith(magic)), None)


MAX_IMAGE_PIXELS = 25_000_000  # a poker card at 1,200 dpi is 4.5 million
DAMAGED = "cannot be read: the file is damaged or cut short"


def _decode_problem(path: str, size: int, mtime: int, kind: str) -> str | None:
    """Why the image file cannot be drawn: too many pixels (read from its header), damaged, truncated.

    The file is opened by the reader of its ``kind`` itself, not by ``Image.open``: that would first hold
    the size against Pillow's own, larger limit, warning (a line naming Pillow's files) or calling a
    valid picture of more pixels damaged."""
    # Pillow loads only for decks with pictures
    from PIL import Image, JpegImagePlugin, PngImagePlugin

    reader = PngImagePlugin.PngImageFile if kind == "png" else JpegImagePlugin.JpegImageFile
    try:
        with reader(path) as image:
            width, height = image.size
            if width * height > MAX_IMAGE_PIXELS:
                return (
                    f"is {width:,} x {height:,} pixels; the limit is {MAX_IMAGE_PIXELS // 1_000_000} million pixels "
                    "(scale it down; 300 to 600 dpi at the printed size is plenty)"
                )
            image.load()  # decodes everything: a truncated or damaged file fails here, not in the middle of a build
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return DAMAGED
    return None


def find_image(folder: Path, value: str, readings: Readings | None = None) -> tuple[Path | None, str | None]:
    """The image file ``value`` names in ``folder``, or the problem with it (each file decoded once per command's
    ``readings`` while it is unchanged)."""
    target = safe_join(folder, value)
    if target is None:
        if safe_join(folder, value, Path("/")) is not None:  # a plain relative path, but a link leads out
            return None, f"image '{value}' is a link to a place outside the deck's folder"
        return None, f"image path '{value}' must be a relative path inside the deck's folder"
    if not target.is_file():
        return None, f"image '{value}' not found in {display_path(folder)}"
    if target.stat().st_size > MAX_IMAGE_BYTES:
        return None, f"image '{value}' is larger than {MAX_IMAGE_BYTES // 1_000_000} MB"
    with open(target, "rb") as handle:
        kind = image_kind(handle.read(8))
    if kind is None:
        return None, f"image '{value}' is not a PNG or JPEG file"
    stat = target.stat()
    stamps = (str(real(target)), stat.st_size, stat.st_mtime_ns, kind)
    problem = readings.get("pictures", stamps, lambda: _decode_problem(*stamps)) if readings else _decode_problem(*stamps)
    if problem:
        return None, f"image '{value}' {problem}"
    return target, None


def image_ok(ctx: Context, value: str, path: KeyPath) -> bool:
    """Is ``value`` a usable image of the deck file ``ctx`` reads?  Problems go to ``ctx``."""
    if ctx.folder is None:
        return True
    _, problem = find_image(ctx.folder, value, ctx.readings)
    if problem:
        ctx.error(path, problem)
        return False
    return True
