"""The colours of CSS Color 4 and 5 as plain sRGB, which every renderer reads alike (coloraide does the colour science).

``oklch()``, ``lab()``, ``lch()``, ``oklab()``, ``hwb()``, ``color(display-p3 ...)``,
the space-separated ``rgb(r g b / a)``, ``color-mix()`` and ``light-dark()``
become ``rgb(r, g, b)`` or ``rgba(r, g, b, a)``; a colour outside sRGB is
clipped channel by channel, as the browser draws it on an sRGB screen.
``light-dark()`` takes its light colour: the preview is a light page.  Any
value that is not such a colour (``url(#g)``, ``none``) is returned as it is.
"""

from __future__ import annotations

import tinycss2

_HUE_METHODS = ("shorter", "longer", "increasing", "decreasing")


def _parse(text: str):
    from coloraide import Color  # loaded by the sides that use such colours

    tokens = [t for t in tinycss2.parse_component_value_list(text) if t.type not in ("whitespace", "comment")]
    if len(tokens) == 1 and tokens[0].type == "function" and tokens[0].lower_name in ("color-mix", "light-dark"):
        return _mixed(tokens[0]) if tokens[0].lower_name == "color-mix" else _light(tokens[0])
    return Color(text.strip())


def _groups(function) -> list[list]:
    """A function's arguments split at its commas, whitespace and comments left out."""
    groups: list[list] = [[]]
    for t in function.arguments:
        if t.type == "literal" and t.value == ",":
            groups.append([])
        elif t.type not in ("whitespace", "comment"):
            groups[-1].append(t)
    return groups


def _light(function):
    groups = _groups(function)
    if len(groups) != 2:
        raise ValueError("light-dark() takes two colours")
    return _parse(tinycss2.serialize(groups[0]))


def _mixed(function):
    """``color-mix(in SPACE [HUE hue], A [p%], B [q%])``, percentages normalised and alpha premultiplied as CSS says."""
    groups = _groups(function)
    if len(groups) != 3 or not groups[0] or groups[0][0].type != "ident" or groups[0][0].lower_value != "in":
        raise ValueError("color-mix() takes 'in <space>' and two colours")
    space = groups[0][1].lower_value if len(groups[0]) > 1 and groups[0][1].type == "ident" else "oklab"
    method = groups[0][2].lower_value if len(groups[0]) > 2 and groups[0][2].type == "ident" else "shorter"
    if method not in _HUE_METHODS:
        method = "shorter"
    colours, shares = [], []
    for group in groups[1:]:
        share = next((t.value / 100 for t in group if t.type == "percentage"), None)
        colours.append(_parse(tinycss2.serialize([t for t in group if t.type != "percentage"])))
        shares.append(share)
    first, second = shares
    p1 = (1 - second if second is not None else 0.5) if first is None else first
    p2 = 1 - p1 if second is None else second
    total = p1 + p2
    if total <= 0:
        raise ValueError("color-mix() percentages add up to nothing")
    mixed = colours[0].mix(colours[1], p2 / total, space="srgb-linear" if space == "srgb-linear" else space, hue=method)
    if total < 1:
        mixed["alpha"] = mixed["alpha"] * total
    return mixed


def css_colour_to_srgb(value: str) -> str:
    """``value`` as ``rgb(r, g, b)`` / ``rgba(r, g, b, a)`` when it is a CSS colour; otherwise as it is."""
    text = value.strip()
    try:
        colour = _parse(text).convert("srgb")
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return value
    colour.clip()
    r, g, b = (min(255, max(0, round(v * 255))) for v in colour.coords(nans=False))
    alpha = colour.alpha(nans=False)
    return f"rgb({r}, {g}, {b})" if alpha >= 1 else f"rgba({r}, {g}, {b}, {alpha:.4g})"


__all__ = ["css_colour_to_srgb"]
