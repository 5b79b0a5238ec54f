"""Colours in definition files: ``#rrggbb``, ``#rgb`` or a CSS colour name (``gold``, ``DarkSlateGrey``).

Every colour is kept as lower-case ``#rrggbb``, so templates, the colour
converters and content hashes see one spelling of each colour.
"""

from __future__ import annotations

import re
from typing import Any

import webcolors

from .schema import suggest

_NAMES = webcolors.names("css3")


def colour_value(value: Any) -> tuple[str | None, str | None]:
    """(``#rrggbb``, None) for a good colour, else (None, what is wrong)."""
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"#[0-9a-fA-F]{6}", text):
            return text.lower(), None
        if re.fullmatch(r"#[0-9a-fA-F]{3}", text):
            return "#" + "".join(c * 2 for c in text[1:].lower()), None
        if re.fullmatch(r"[A-Za-z]+", text):
            try:
                return webcolors.name_to_hex(text.lower()), None
            except ValueError:
                return None, f"unknown colour name '{value}'{suggest(text.lower(), _NAMES)}; write #rrggbb or a CSS colour name"
    shown = value if isinstance(value, str) else repr(value)
    return None, f"colour '{shown}' must be written #rrggbb or as a CSS colour name (such as 'gold')"
