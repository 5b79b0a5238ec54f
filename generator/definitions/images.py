"""Card pictures: PNG, JPEG, WebP, AVIF or SVG files inside the deck's folder, named by an ``image`` attribute.

The kinds of picture file are the allow-list's (``[picture-format.*]``), each known by its first bytes;
vector art is text whose first element is ``<svg>``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import display_path
from ..locations import real
from ..project import safe_join
from ..project.readings import Readings
from ..resources.allowlist import allow_list
from .schema import Context, KeyPath

if TYPE_CHECKING:
    from PIL import ImageFile

MAX_IMAGE_BYTES = 5_000_000
HEAD_BYTES = 4096  # what is read of a file to tell its kind
KINDS = "PNG, JPEG, WebP, AVIF or SVG"
# (a DOCTYPE may carry an internal subset, as Illustrator writes its namespaces: such art is SVG, refused where it
# is read for the entities it declares, not mistaken for some other kind of file)
_SVG_START = re.compile(
    rb"^(?:\s|<\?xml[^>]*\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)*<(?:[A-Za-z_][\w.-]*:)?svg[\s>/]", re.S
)


def image_kind(head: bytes) -> str | None:
    """The kind of picture file (``png``, ``jpeg``, ``webp``, ``avif``, ``svg``) by its first bytes, else None."""
    for kind, patterns in allow_list().formats.items():
        for pattern in patterns:
            size = len(pattern) // 2
            if len(head) >= size and re.fullmatch(pattern, head[:size].hex(), re.I):
                return kind
    text = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    return "svg" if _SVG_START.match(text) else None


MAX_IMAGE_PIXELS = 25_000_000  # a poker card at 1,200 dpi is 4.5 million
DAMAGED = "cannot be read: the file is damaged or cut short"


def _decode_problem(path: str, size: int, mtime: int, kind: str) -> str | None:
    """Why the image file cannot be drawn: too many pixels (read from its header), damaged, truncated.

    The file is opened by the reader of its ``kind`` itself, not by ``Image.open``: that would first hold
    the size against Pillow's own, larger limit, warning (a line naming Pillow's files) or calling a
    valid picture of more pixels damaged."""
    if kind == "svg":
        return None  # vector art is read, and told of line by line, where it is drawn
    from PIL import Image  # Pillow loads only for decks with pictures

    try:
        with picture_reader(kind)(path) as image:
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


def picture_reader(kind: str) -> type[ImageFile.ImageFile]:
    """Pillow's reader of a bitmap ``kind`` (``png``, ``jpeg``, ``webp``, ``avif``) itself, not ``Image.open``: that
    would first hold the size against Pillow's own, larger limit, warning (a line naming Pillow's files) or calling
    a valid picture of more pixels damaged."""
    from PIL import AvifImagePlugin, JpegImagePlugin, PngImagePlugin, WebPImagePlugin

    readers: dict[str, type[ImageFile.ImageFile]] = {
        "png": PngImagePlugin.PngImageFile,
        "jpeg": JpegImagePlugin.JpegImageFile,
        "webp": WebPImagePlugin.WebPImageFile,
        "avif": AvifImagePlugin.AvifImageFile,
    }
    return readers[kind]


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
        kind = image_kind(handle.read(HEAD_BYTES))
    if kind is None:
        return None, f"image '{value}' is not a {KINDS} file"
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
