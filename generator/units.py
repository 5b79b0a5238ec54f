"""Lengths: millimetres inside, any unit at the edges.

One parser for every length a person writes, in a file or on the command
line: a number is millimetres (or the caller's default unit), a string may
carry its unit (``"3mm"``, ``"0.125in"``, ``"1/8 in"``, ``"9pt"``).  Sizes
are two lengths, ``"63.5x88.9mm"``.  NaN, infinity and negative lengths are
refused everywhere.
"""

from __future__ import annotations

import math
import re

MM_PER_INCH = 25.4
MAX_IMAGE_PIXELS = 100_000_000  # one card image: 100 megapixels (10,000 px a side) is several hundred MB while drawn
_PT_PER_MM = 72 / MM_PER_INCH
_UNITS: dict[str, float] = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": MM_PER_INCH / 72}

_DECIMAL = r"(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?"  # 3, 0.125, .5, 1e3
_NUMBER = rf"{_DECIMAL}(?:/{_DECIMAL})?"
_LENGTH = re.compile(rf"^\s*({_NUMBER})\s*([a-z]*)\s*$", re.I)
_SIZE = re.compile(rf"^\s*({_NUMBER})\s*([a-z]*)\s*[x×]\s*({_NUMBER})\s*([a-z]*)\s*$", re.I)


_CSS_PX_PER_INCH = 96
CSS_PX = {  # CSS pixels per unit of an SVG length
    "": 1.0,
    "px": 1.0,
    "in": _CSS_PX_PER_INCH,
    "mm": _CSS_PX_PER_INCH / MM_PER_INCH,
    "cm": _CSS_PX_PER_INCH / MM_PER_INCH * 10,
    "pt": _CSS_PX_PER_INCH / 72,
    "pc": _CSS_PX_PER_INCH / 6,
}
_SVG_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-zA-Z]*)\s*$")


def svg_length_px(value: str | None) -> float | None:
    """An SVG length (``56mm``, ``210``, ``8.5in``) in CSS pixels; None for one not given, relative (``100%``),
    in an unknown unit, or not finite."""
    found = _SVG_LENGTH.match(value or "")
    if not found:
        return None
    number, unit = float(found.group(1)), found.group(2).lower()
    px = number * CSS_PX[unit] if unit in CSS_PX else None
    return px if px is not None and math.isfinite(px) else None


class UnitError(ValueError):
    """A length that cannot be read; the message says why, for one line of output."""


def _number(text: str) -> float:
    if "/" in text:
        top, bottom = text.split("/")
        if float(bottom) == 0:
            raise UnitError(f"'{text}' divides by zero")
        return float(top) / float(bottom)
    return float(text)


def unit_factor(unit: str) -> float:
    """Millimetres per ``unit``."""
    factor = _UNITS.get(unit.lower())
    if factor is None:
        raise UnitError(f"unknown unit '{unit}'; use one of {', '.join(_UNITS)}")
    return factor


def _check_length(value: float, what: str = "length", maximum: float | None = None, allow_negative: bool = False) -> float:
    """``value`` (mm) if it is a finite length within bounds, else a :class:`UnitError`."""
    if not math.isfinite(value):
        raise UnitError(f"{what} must be a finite number, not {value}")
    if value < 0 and not allow_negative:
        raise UnitError(f"{what} must not be negative")
    if maximum is not None and abs(value) > maximum:
        raise UnitError(f"{what} of {format_mm(value)} mm is more than {format_mm(maximum)} mm")
    return value


def to_mm(
    value: float | int | str, unit: str = "mm", what: str = "length", maximum: float | None = None, allow_negative: bool = False
) -> float:
    """A length in millimetres: a number in ``unit``, or a string with its own unit."""
    if isinstance(value, bool):
        raise UnitError(f"{what} must be a length, not true/false")
    if isinstance(value, (int, float)):
        return _check_length(float(value) * unit_factor(unit), what, maximum, allow_negative)
    if not isinstance(value, str):
        raise UnitError(f'{what} must be a length such as 3 or "3mm"')
    text = value.strip()
    if text.startswith("-") and not allow_negative:
        raise UnitError(f"{what} must not be negative")
    sign = -1.0 if allow_negative and text.startswith("-") else 1.0
    match = _LENGTH.match(text.lstrip("-") if sign < 0 else text)
    if not match:
        raise UnitError(f"{what} '{value}' is not a length such as 3mm, 0.125in or 9pt")
    number = sign * _number(match.group(1)) * unit_factor(match.group(2) or unit)
    if not math.isfinite(number):  # too large for a number: said as written
        bound = f"more than {format_mm(maximum)} mm" if maximum is not None else "out of range"
        raise UnitError(f"{what} '{text}' is {bound}")
    return _check_length(number, what, maximum, allow_negative)


def parse_size(text: str, unit: str = "mm", what: str = "size") -> tuple[float, float]:
    """``"210x297"`` (in ``unit``), ``"8.5x11in"`` or ``"63.5mm x 3.5in"`` as (width, height) in mm."""
    match = _SIZE.match(text)
    if not match:
        raise UnitError(f"{what} '{text}' is not a size such as 210x297mm or 8.5x11in")
    w_num, w_unit, h_num, h_unit = match.groups()
    h_unit = h_unit or unit
    w_unit = w_unit or h_unit
    return (_check_length(_number(w_num) * unit_factor(w_unit), what), _check_length(_number(h_num) * unit_factor(h_unit), what))


def decimal(value: float, places: int = 3) -> str:
    """A number as SVG and messages write it: at most ``places`` decimals, no trailing zeros, never ``-0``."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def format_mm(value: float, digits: int = 2) -> str:
    """A length for messages: ``63.5``, ``3``, ``0.13`` (``1e+24`` when it is absurdly large)."""
    if abs(value) >= 1e9:
        return f"{value:g}"
    return decimal(value, digits)


def pixels(length_mm: float, dpi: float) -> int:
    """Whole pixels for a length at ``dpi`` (2.75 in at 300 dpi = 825 px)."""
    return round(length_mm / MM_PER_INCH * dpi + 1e-9)


def pt(value_mm: float) -> float:
    """Millimetres to PostScript points."""
    return value_mm * _PT_PER_MM
