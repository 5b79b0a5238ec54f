"""Card styles: the keys templates read as ``style.<key>``, declared once and resolved once.

Every key a style may set is declared in :data:`STYLE_KEYS` with its kind,
default and meaning.  A style file (``styles/NAME.toml`` in a project,
``templates/styles/NAME.toml`` built in) sets some of them and may declare
keys of its own for its own templates in a ``[custom]`` table.  A deck's
``[style]`` table and a variant's ``style = {...}`` change keys the style
has; anything else is an error with a suggestion, never a silent default.
The style ``default`` is the declared defaults alone.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AetherpressError, Problem, display_path
from ..locations import real
from ..project import Project
from ..resources.fonts import FAMILIES, font_book
from ..resources.symbolnames import SYMBOL_NAMES
from ..units import UnitError, to_mm
from .colours import colour_value
from .schema import Context, KeyPath, suggest, type_name
from .toml import read_toml

DEFAULT_STYLE = "default"
_BACK_PATTERNS = ("lattice", "rings", "none")


@dataclass(frozen=True)
class _StyleKey:
    name: str
    kind: str  # length, colour, font, symbol, choice, bool, text
    default: Any
    meaning: str
    choices: tuple[str, ...] = ()


STYLE_KEYS: dict[str, _StyleKey] = {
    key.name: key
    for key in (
        _StyleKey("bleed", "length", 3.0, "print bleed round the trim; background art runs to its edge"),
        _StyleKey("safe", "length", 3.0, "safe zone inside the trim: every text and index stays in it"),
        _StyleKey("corner_radius", "length", 3.0, "rounded corners in previews and contact sheets (printers cut square)"),
        _StyleKey("min_text_size", "length", 2.2, "the smallest size (about 6 pt) a fitted text may shrink to"),
        _StyleKey("paper", "colour", "#fbf7ee", "the face's background"),
        _StyleKey("edge", "colour", "", "the face's colour at its edges, where a miscut shows (empty: the paper)"),
        _StyleKey("ink", "colour", "#1d1a16", "text and fine lines"),
        _StyleKey("accent", "colour", "#6b4a1f", "frames and ornaments"),
        _StyleKey("back_colour", "colour", "#2b2f4a", "the back's field"),
        _StyleKey("back_colour_light", "colour", "#3d4368", "the back's pattern"),
        _StyleKey("back_accent", "colour", "#c9a45c", "the back's emblem, border and title"),
        _StyleKey("back_pattern", "choice", "lattice", "the back's pattern", _BACK_PATTERNS),
        _StyleKey("back_emblem", "symbol", "diamond", "the symbol in the middle of the back"),
        _StyleKey("back_title", "text", "", "a title on the back (empty: none)"),
        _StyleKey("title_font", "font", "Cinzel", "names and titles"),
        _StyleKey("text_font", "font", "EB Garamond", "rules and flavour text"),
        _StyleKey("index_font", "font", "Cinzel", "corner indices"),
        _StyleKey("monochrome", "bool", False, "draw in black, white and greys only"),
        _StyleKey("labelled", "bool", False, "print names on faces that otherwise show only symbols"),
    )
}
_CUSTOM_TABLE = "custom"
_MAX_LENGTH = 100.0  # mm; no style length is anywhere near this
DARK = 0.18  # relative luminance under which an edge is dark: a sliver of paper or of a light card shows against it


def luminance(colour: str) -> float:
    """The relative luminance (0 black to 1 white, WCAG) of a ``#rrggbb`` colour."""

    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def dark_edges(style: Mapping[str, Any]) -> bool:
    """Whether a style's faces are dark at their edges (its ``edge``, or its ``paper`` when it sets none)."""
    return luminance(str(style.get("edge") or style.get("paper") or STYLE_KEYS["paper"].default)) < DARK


def defaults() -> dict[str, Any]:
    return {name: key.default for name, key in STYLE_KEYS.items()}


def style_value(style: Mapping[str, Any], name: str) -> Any:
    """Key ``name`` of a style, or its declared default when the style does not have it."""
    return style.get(name, STYLE_KEYS[name].default)


def _check_value(key: _StyleKey, value: Any, families: Collection[str]) -> tuple[Any, str | None]:
    """The value to keep (lengths in mm) and a problem, if any."""
    if key.kind == "length":
        try:
            return to_mm(value, what=key.name, maximum=_MAX_LENGTH), None
        except UnitError as exc:
            return key.default, str(exc)
    if key.kind == "colour":
        if value == "" == key.default:  # a colour that may be left unset
            return "", None
        colour, problem = colour_value(value)
        return (colour, None) if colour is not None else (key.default, problem)
    checks: dict[str, Callable[[Any], str | None]] = {
        "font": lambda v: _font_problem(v, families),
        "symbol": lambda v: (
            None if isinstance(v, str) and v in SYMBOL_NAMES else f"unknown symbol '{v}'{suggest(str(v), SYMBOL_NAMES)}"
        ),
        "choice": lambda v: (
            None if v in key.choices else f"'{v}' is not one of {', '.join(key.choices)}{suggest(str(v), key.choices)}"
        ),
        "bool": lambda v: None if isinstance(v, bool) else f"must be true or false, not {type_name(v)}",
        "text": lambda v: None if isinstance(v, str) else f"must be a string, not {type_name(v)}",
    }
    return value, checks[key.kind](value)


def _font_problem(value: Any, families: Collection[str]) -> str | None:
    if isinstance(value, str) and value in families:
        return None
    own = [f for f in families if f not in FAMILIES]
    return (
        f"font '{value}' is neither shipped with Aetherpress nor in the project's fonts/ folder{suggest(str(value), families)}; "
        f"fonts: {', '.join(list(FAMILIES) + own)}"
    )


def _set(ctx: Context, style: dict[str, Any], key: str, value: Any, path: KeyPath, families: Collection[str]) -> None:
    """Set one key of ``style`` (checked against its declaration), merging tables."""
    declared = STYLE_KEYS.get(key)
    if declared is not None:
        kept, problem = _check_value(declared, value, families)
        if problem:
            ctx.error(path, problem)
            return
        style[key] = kept
        return
    if key.endswith("_font"):
        problem = _font_problem(value, families)
        if problem:
            ctx.error(path, problem)
            return
    if key.endswith(("colour", "color")):  # a style's own colours: checked and written #rrggbb like the declared ones
        colour, problem = colour_value(value)
        if colour is None:
            ctx.error(path, problem or "not a colour")
            return
        value = colour
    if isinstance(value, dict) and isinstance(style.get(key), dict):
        style[key] = merge(style[key], value)
    else:
        style[key] = copy.deepcopy(value)


def merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` laid over it, tables merged key by key."""
    out = copy.deepcopy(dict(base))
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _style_file(project: Project, name: str) -> Path | None:
    """The file of style ``name``: the project's ``styles/`` first, then the built-in styles."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        return None
    for layer in project.layers:
        path = layer.styles / f"{name}.toml"
        if path.is_file():
            if not real(path).is_relative_to(real(layer.root)):
                raise AetherpressError(Problem(display_path(path), "is a link to a place outside the project"))
            return path
    return None


def _style_names(project: Project) -> list[str]:
    names = {DEFAULT_STYLE}
    for layer in project.layers:
        if layer.styles.is_dir():
            names.update(p.stem for p in layer.styles.glob("*.toml"))
    return sorted(names)


def load_style(ctx: Context, project: Project, name: str) -> dict[str, Any]:
    """The declared defaults with style ``name`` over them; problems go to ``ctx`` (the deck's file)."""
    style = defaults()
    if name == DEFAULT_STYLE:
        return style
    families = list(font_book(project))
    path = _style_file(project, name)
    if path is None:
        ctx.error(
            ("deck", "style"), f"style '{name}' not found in styles/ or the built-in styles{suggest(name, _style_names(project))}"
        )
        return style
    data, file_ctx = read_toml(path)
    custom = data.pop(_CUSTOM_TABLE, {})
    if not isinstance(custom, dict):
        file_ctx.error((_CUSTOM_TABLE,), "[custom] must be a table of this style's own keys")
        custom = {}
    for key, value in data.items():
        if key not in STYLE_KEYS:
            file_ctx.error(
                (key,), f"unknown style key '{key}'{suggest(key, STYLE_KEYS)}; a style's own keys go in its [custom] table"
            )
            continue
        _set(file_ctx, style, key, value, (key,), families)
    for key, value in custom.items():
        if key in STYLE_KEYS:
            file_ctx.error((_CUSTOM_TABLE, key), f"'{key}' is a declared style key; set it outside [custom]")
            continue
        _set(file_ctx, style, key, value, (_CUSTOM_TABLE, key), families)
    ctx.problems.extend(file_ctx.problems)
    return style


def override(ctx: Context, style: dict[str, Any], changes: Any, path: KeyPath, project: Project | None = None) -> dict[str, Any]:
    """``style`` with a deck's or variant's ``changes``: only keys the style has, each checked."""
    out = copy.deepcopy(dict(style))
    families = list(font_book(project)) if project is not None and changes else list(FAMILIES)
    if not isinstance(changes, dict):
        ctx.error(path, f"must be a table of style keys, not {type_name(changes)}")
        return out
    for key, value in changes.items():
        if key not in out:
            ctx.error(
                path + (key,),
                f"unknown style key '{key}'{suggest(key, out)}; a style file declares its own keys in its [custom] table",
            )
            continue
        _set(ctx, out, key, value, path + (key,), families)
    return out
