"""How card colours and pictures are printed: as designed (RGB), as greys, or as process CMYK.

A converter gives the components of every colour of a drawn side
(:mod:`.recolour` passes each fill, stroke and gradient sample through
``components``), converts each picture (``picture``) and each reportlab colour
drawn directly (called with it: a box's field and text), so vectors and
pictures always change together:

- :data:`GREYS`: every colour and picture as the grey of its luma (Rec. 709
  weights), for ink-saving sheets, PNGs, Tabletop Simulator and proofs;
- :class:`ProcessColour`: process CMYK through an ICC profile within a total-ink
  limit (pictures become CMYK images); with ``greyscale``, black ink only,
  pictures as DeviceGray (which a CMYK press prints with black ink).

Conversions are cached: each distinct colour and picture is converted once per
process, so a deck's colours cost a few milliseconds however often they repeat.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image
from reportlab.lib import colors

from .icc import OutputProfile

Converter = Callable[[Any], Any]
_LUMA = (0.2126, 0.7152, 0.0722)  # Rec. 709
_PICTURES_KEPT = 256  # converted pictures a converter keeps
_SAMPLES_KEPT = 1024  # sampled gradients a converter keeps
_COLOURS_KEPT = 100_000


def _luma(red: float, green: float, blue: float) -> float:
    """The luma of an sRGB colour (Rec. 709 weights), on the scale of its components."""
    return _LUMA[0] * red + _LUMA[1] * green + _LUMA[2] * blue


def grey(colour):
    """A colour as the grey of its luma (Rec. 709 weights), alpha kept."""
    if colour is None or not hasattr(colour, "red"):
        return colour
    level = _luma(colour.red, colour.green, colour.blue)
    alpha = getattr(colour, "alpha", 1)
    return colors.Color(level, level, level, alpha=alpha)


def luma_picture(image: Image.Image) -> Image.Image:
    """A picture as greys (mode ``L``) with the same weights as :func:`grey`.

    Transparency is dropped as reportlab drops it from an RGB picture."""
    return image.convert("RGB").convert("L", (*_LUMA, 0))


class _Recent:
    """The last ``size`` values made, by key: what a converter keeps of the pictures and gradients it converted
    (the same card drawn on many pages is converted once)."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        found = self._items.get(key)
        if found is None:
            found = self._items[key] = make()
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        return found


def _converted_picture(kept: _Recent, image: Image.Image, convert: Callable[[Image.Image], Image.Image]) -> Image.Image:
    key = (image.mode, image.size, hashlib.sha256(image.tobytes()).digest())
    return kept.get(key, lambda: convert(image))


class Greys:
    """Every colour and picture as its grey."""

    space = "/DeviceGray"  # the PDF colour space of :meth:`components`

    def __init__(self) -> None:
        self.pictures = _Recent(_PICTURES_KEPT)
        self.samples = _Recent(_SAMPLES_KEPT)

    def __call__(self, colour):
        return grey(colour)

    def components(self, colours: Sequence[tuple[float, float, float]]) -> list[tuple[float, ...]]:
        """sRGB colours (components 0-1) as DeviceGray levels."""
        return [(_luma(*rgb),) for rgb in colours]

    def picture(self, image: Image.Image) -> Image.Image:
        return _converted_picture(self.pictures, image, luma_picture)

    def __repr__(self) -> str:
        return "GREYS"


GREYS = Greys()


@dataclass(frozen=True)
class ProcessColour:
    """Process CMYK on the printer of ``profile``, total ink at most ``ink_limit`` (3.0 = 300 %).

    Equal settings make equal converters, so card drawings converted once are shared."""

    profile: OutputProfile
    ink_limit: float
    greyscale: bool = False
    _colours: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    _components: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    pictures: _Recent = field(default_factory=lambda: _Recent(_PICTURES_KEPT), init=False, repr=False, compare=False, hash=False)
    samples: _Recent = field(default_factory=lambda: _Recent(_SAMPLES_KEPT), init=False, repr=False, compare=False, hash=False)
    space = "/DeviceCMYK"  # the PDF colour space of :meth:`components`, greyscale too (black ink only)

    def __call__(self, colour):
        if colour is None or not hasattr(colour, "red") or isinstance(colour, colors.CMYKColor):
            return colour
        alpha = getattr(colour, "alpha", 1)
        key = (colour.red, colour.green, colour.blue, alpha)
        found = self._colours.get(key)
        if found is None:
            found = self._convert(colour, alpha)
            if len(self._colours) > _COLOURS_KEPT:
                self._colours.clear()
            self._colours[key] = found
        return found

    def _convert(self, colour, alpha):
        rgb = tuple(min(255, max(0, round(v * 255))) for v in (colour.red, colour.green, colour.blue))
        return colors.CMYKColor(*(round(v / 255, 4) for v in self._separate([rgb])[0]), alpha=alpha)

    def _separate(self, colours: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """8-bit sRGB colours as the 8-bit CMYK they print with, separated together."""
        if self.greyscale:
            return [(0, 0, 0, int(self.profile.black_for_grey[min(255, round(_luma(*rgb)))])) for rgb in colours]
        image = Image.new("RGB", (len(colours), 1))
        image.putdata(list(colours))
        data = self.profile.separate(image, self.ink_limit).tobytes()
        return [tuple(data[i : i + 4]) for i in range(0, len(data), 4)]

    def components(self, colours: Sequence[tuple[float, float, float]]) -> list[tuple[float, ...]]:
        """sRGB colours (components 0-1) as the DeviceCMYK components (0-1) they print with, as vector colours do.

        Each distinct colour is separated once; new ones together, as one picture."""
        rgbs = [tuple(min(255, max(0, round(v * 255))) for v in rgb) for rgb in colours]
        new = sorted(set(rgbs).difference(self._components))
        if new:
            if len(self._components) > _COLOURS_KEPT:
                self._components.clear()
            for rgb, cmyk in zip(new, self._separate(new)):
                self._components[rgb] = tuple(round(v / 255, 4) for v in cmyk)
        return [self._components[rgb] for rgb in rgbs]

    def picture(self, image: Image.Image) -> Image.Image:
        """A picture as printed: CMYK within the ink limit, or (greyscale) DeviceGray levels of black ink."""
        return _converted_picture(self.pictures, image, self._picture)

    def _picture(self, image: Image.Image) -> Image.Image:
        if self.greyscale:
            import numpy as np  # loaded by the builds that print pictures in grey

            black = self.profile.black_for_grey[np.asarray(luma_picture(image))]
            return Image.fromarray((255 - black).astype(np.uint8), "L")  # DeviceGray g prints as black 1 - g
        return self.profile.separate(image, self.ink_limit)

    def proof(self, image: Image.Image) -> Image.Image:
        """An RGB rendering of the design as these inks print it, back in sRGB (a soft proof)."""
        if self.greyscale:
            import numpy as np  # loaded by the builds that print pictures in grey

            black = self.profile.black_for_grey[np.asarray(image.convert("L") if image.mode != "L" else image)]
            cmyk = np.zeros((*black.shape, 4), dtype=np.uint8)
            cmyk[..., 3] = black
            return self.profile.view(Image.fromarray(cmyk, "CMYK"))
        return self.profile.view(self.profile.separate(image, self.ink_limit))


def colour_converter(greyscale: bool = False) -> Greys | None:
    """How card colours are drawn in RGB outputs: as designed, or as greys."""
    return GREYS if greyscale else None
