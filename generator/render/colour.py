"""How card colours are printed: as designed (RGB), as greys, or as process CMYK within an ink limit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.lib import colors

Converter = Callable[[Any], Any]


def grey(colour):
    """A colour as the grey of its luminance (Rec. 709 weights), alpha kept."""
    if colour is None or not hasattr(colour, "red"):
        return colour
    level = 0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue
    alpha = getattr(colour, "alpha", 1)
    return colors.Color(level, level, level, alpha=alpha)


INK_LIMIT = 2.4  # total area coverage DriveThruCards accepts: 240 %


def cmyk(colour, ink_limit: float = INK_LIMIT):
    """A colour as process CMYK: full grey-component replacement, then cyan, magenta and
    yellow scaled down (black kept) until the total ink is at most ``ink_limit``."""
    if colour is None or not hasattr(colour, "red"):
        return colour
    r, g, b = colour.red, colour.green, colour.blue
    k = 1.0 - max(r, g, b)
    if k >= 1.0 - 1e-9:
        c = m = y = 0.0
    else:
        c, m, y = ((1.0 - v - k) / (1.0 - k) for v in (r, g, b))
    if c + m + y + k > ink_limit:
        scale = max(ink_limit - k, 0.0) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return colors.CMYKColor(round(c, 4), round(m, 4), round(y, 4), round(k, 4), alpha=getattr(colour, "alpha", 1))


def colour_converter(greyscale: bool = False, process: bool = False):
    """How card colours are drawn: as designed (RGB), as greys, or as process CMYK."""
    if process:
        return cmyk
    return grey if greyscale else None
