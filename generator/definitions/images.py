"""Card pictures: PNG or JPEG files inside the deck's folder, named by an ``image`` attribute."""

from __future__ import annotations

from pathlib import Path

from ..errors import display_path
from ..project import safe_join
from .schema import Context, KeyPath

IMAGE_MAGIC = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg"}
MAX_IMAGE_BYTES = 5_000_000


def image_kind(head: bytes) -> str | None:
    """``png`` or ``jpeg`` by a file's first bytes, else None."""
    return next((kind for magic, kind in IMAGE_MAGIC.items() if head.startswith(magic)), None)


def find_image(folder: Path, value: str) -> tuple[Path | None, str | None]:
    """The image file ``value`` names in ``folder``, or the problem with it."""
    target = safe_join(folder, value)
    if target is None:
        return None, f"image path '{value}' must be a relative path inside the deck's folder"
    if not target.is_file():
        return None, f"image '{value}' not found in {display_path(folder)}"
    if target.stat().st_size > MAX_IMAGE_BYTES:
        return None, f"image '{value}' is larger than {MAX_IMAGE_BYTES // 1_000_000} MB"
    with open(target, "rb") as handle:
        head = handle.read(8)
    if image_kind(head) is None:
        return None, f"image '{value}' is not a PNG or JPEG file"
    return target, None


def image_ok(ctx: Context, value: str, path: KeyPath) -> bool:
    """Is ``value`` a usable image of the deck file ``ctx`` reads?  Problems go to ``ctx``."""
    if ctx.folder is None:
        return True
    _, problem = find_image(ctx.folder, value)
    if problem:
        ctx.error(path, problem)
        return False
    return True
