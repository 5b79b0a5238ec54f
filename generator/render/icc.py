"""ICC colour management: sRGB to a printer's CMYK through littleCMS (Pillow's ``ImageCms``).

One function, :meth:`OutputProfile.separate`, turns RGB pixels into CMYK: the
sRGB to CMYK transform of the profile (relative colorimetric with black-point
compensation), then the total-ink limit of the paper (:func:`limit_ink`).
Vector colours go through it as one-pixel pictures, so a flat colour drawn as
a shape and the same colour in a picture print alike.  :meth:`OutputProfile.view`
goes back from CMYK to sRGB, for soft proofs.

Aetherpress ships two profiles (see :mod:`generator.iccprofiles`): GRACoL
TR 006 for coated paper and FOGRA47L for uncoated paper; a project may name
its own with ``--icc FILE``.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageCms

from ..errors import AetherpressError, Problem
from ..iccprofiles import STOCKS, shipped_profile_data

if TYPE_CHECKING:
    import numpy as np

REGISTRY = "http://www.color.org"
_MAX_PROFILE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True, eq=False)
class OutputProfile:
    """A CMYK printer profile (the bytes embedded in the PDF's output intent) and its transforms."""

    data: bytes
    identifier: str
    condition: str
    registered: bool  # identifier names a characterization of the ICC registry
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", hashlib.sha256(self.data).hexdigest())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OutputProfile) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    @cached_property
    def _profile(self) -> ImageCms.ImageCmsProfile:
        return ImageCms.ImageCmsProfile(io.BytesIO(self.data))

    @property
    def description(self) -> str:
        return (self._profile.profile.profile_description or self.identifier).strip()

    @cached_property
    def _to_cmyk(self) -> ImageCms.ImageCmsTransform:
        return ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"),
            self._profile,
            "RGB",
            "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
        )

    @cached_property
    def _to_rgb(self) -> ImageCms.ImageCmsTransform:
        return ImageCms.buildTransform(
            self._profile,
            ImageCms.createProfile("sRGB"),
            "CMYK",
            "RGB",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
        )

    def separate(self, image: Image.Image, ink_limit: float) -> Image.Image:
        """An RGB picture as CMYK on this printer, total ink at most ``ink_limit`` (3.0 = 300 %)."""
        cmyk = _apply(self._to_cmyk, image.convert("RGB"), "CMYK")
        import numpy as np  # loaded by the builds that separate pictures

        return Image.fromarray(limit_ink(np.asarray(cmyk), ink_limit), "CMYK")

    def view(self, image: Image.Image) -> Image.Image:
        """A CMYK picture as sRGB: what this printer's inks look like on screen."""
        return _apply(self._to_rgb, image.convert("CMYK"), "RGB")

    @cached_property
    def black_for_grey(self) -> np.ndarray:
        """For each grey level 0-255 (sRGB), the black ink 0-255 that prints as light a grey on this paper.

        Greyscale prints use black ink alone; the tone curve comes from the profile
        (black 0-100 % measured through it), so a mid grey does not print too dark,
        and sRGB's lightness range is fitted between paper white and solid black.
        """
        import numpy as np  # loaded by the builds that print in grey

        lab = ImageCms.createProfile("LAB")
        to_lab = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), lab, "RGB", "LAB")
        k_to_lab = ImageCms.buildTransform(
            self._profile, lab, "CMYK", "LAB", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC
        )
        levels = np.arange(256, dtype=np.uint8)
        greys = Image.fromarray(np.stack([levels] * 3, axis=-1)[None, :, :], "RGB")
        ramp = np.zeros((1, 256, 4), dtype=np.uint8)
        ramp[0, :, 3] = levels
        wanted = np.asarray(ImageCms.applyTransform(greys, to_lab))[0, :, 0].astype(float)
        printed = np.asarray(ImageCms.applyTransform(Image.fromarray(ramp, "CMYK"), k_to_lab))[0, :, 0].astype(float)
        printed = np.minimum.accumulate(printed)  # lightness falls as black ink rises
        # black-point compensation: sRGB black is the darkest black ink prints, so shadows keep their steps
        wanted = printed[-1] + wanted * (255.0 - printed[-1]) / 255.0
        # np.interp needs rising x: walk the black ramp from dark to light
        black = np.interp(wanted, printed[::-1], levels[::-1].astype(float))
        return np.clip(np.round(black), 0, 255).astype(np.uint8)


def _apply(transform: ImageCms.ImageCmsTransform, image: Image.Image, mode: str) -> Image.Image:
    """``transform`` applied to ``image``, straight through littleCMS.

    ``ImageCms.applyTransform`` also serialises the output profile into the new
    image's info on every call (about 1 ms for a printer profile), which would
    dominate converting a deck's colours one by one.
    """
    out = Image.new(mode, image.size)
    transform.transform.apply(image.getim(), out.getim())
    return out


def limit_ink(cmyk: np.ndarray, ink_limit: float) -> np.ndarray:
    """8-bit CMYK pixels with at most ``ink_limit`` total ink (3.0 = 300 %).

    Pixels within the limit are kept.  Over it, grey made of cyan, magenta and
    yellow is first moved to black (each step takes one unit from all three and
    adds one to black, so darkness is kept while the total falls by two), then
    cyan, magenta and yellow are scaled down together.  Values are rounded down,
    so the limit holds exactly in the 8-bit result.  Each distinct colour over
    the limit is worked out once: a card has far fewer colours than pixels.
    """
    import numpy as np  # loaded by the builds that separate pictures

    cmyk = np.ascontiguousarray(cmyk, dtype=np.uint8)
    over = cmyk.sum(axis=-1, dtype=np.uint16) > int(ink_limit * 255 + 1e-6)
    if not over.any():
        return cmyk
    colours, which = np.unique(cmyk[over].view(np.uint32).ravel(), return_inverse=True)
    out = cmyk.copy()
    out[over] = _limited(colours.view(np.uint8).reshape(-1, 4), ink_limit)[which.ravel()]
    return out


def _limited(cmyk: np.ndarray, ink_limit: float) -> np.ndarray:
    """Colours (N x 4, 8-bit), each over ``ink_limit``, brought within it (see :func:`limit_ink`)."""
    import numpy as np  # loaded by the builds that separate pictures

    values = cmyk.astype(np.float64) / 255.0
    total = values.sum(axis=-1)
    cmy, black = values[..., :3].copy(), values[..., 3].copy()
    moved = np.minimum.reduce([cmy.min(axis=-1), 1.0 - black, np.maximum(total - ink_limit, 0.0) / 2.0])
    cmy -= moved[..., None]
    black += moved
    colour = cmy.sum(axis=-1)
    room = np.clip(ink_limit - black, 0.0, None)
    scale = np.where(colour > room, room / np.maximum(colour, 1e-12), 1.0)
    cmy *= scale[..., None]
    return np.floor(np.concatenate([cmy, black[..., None]], axis=-1) * 255.0 + 1e-6).clip(0, 255).astype(np.uint8)


@cache
def shipped_profile(stock: str) -> OutputProfile:
    """The profile Aetherpress ships for a paper stock (``coated`` or ``uncoated``)."""
    s = STOCKS[stock]
    return OutputProfile(shipped_profile_data(stock), s.identifier, s.condition, registered=True)


def _read_regular_file(path: Path, fail) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most _MAX_PROFILE_BYTES: a FIFO (which would keep us
    waiting), a device (``/dev/zero`` never ends) or a folder is refused before it is read, and again, by the
    descriptor, once it is open (it may have been swapped in between)."""

    def check(info: os.stat_result) -> None:
        if not stat.S_ISREG(info.st_mode):
            raise fail("is not a regular file (a folder, pipe or device); name an .icc file")
        if info.st_size > _MAX_PROFILE_BYTES:
            raise fail(f"is larger than {_MAX_PROFILE_BYTES // (1024 * 1024)} MB; an ICC profile is much smaller")

    check(os.stat(path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        check(os.fstat(file.fileno()))
        data = file.read(_MAX_PROFILE_BYTES + 1)
    if len(data) > _MAX_PROFILE_BYTES:
        raise fail(f"is larger than {_MAX_PROFILE_BYTES // (1024 * 1024)} MB; an ICC profile is much smaller")
    return data


def load_profile(path: Path, option: str = "--icc") -> OutputProfile:
    """A project's own CMYK output profile, with a one-line error if it is not one."""

    def fail(message: str) -> AetherpressError:
        return AetherpressError(Problem("command line", f"{option} '{path}': {message}"))

    try:
        data = _read_regular_file(path, fail)
    except FileNotFoundError:
        raise fail("file not found") from None
    except OSError as exc:
        raise fail(f"cannot be read ({exc.strerror})") from None
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data)).profile
    except (OSError, ImageCms.PyCMSError):
        raise fail("is not an ICC profile") from None
    if profile.xcolor_space.strip() != "CMYK":
        raise fail(f"is an {profile.xcolor_space.strip()} profile; a CMYK printer profile is needed")
    if profile.device_class.strip() != "prtr":
        raise fail("is not an output (printer) profile")
    name = (profile.profile_description or path.stem).strip()
    result = OutputProfile(data, name, name, registered=False)
    try:
        result.separate(Image.new("RGB", (1, 1)), 4.0)
    except (OSError, ImageCms.PyCMSError, ValueError):
        raise fail("cannot convert sRGB to it (no usable sRGB to CMYK table)") from None
    return result
