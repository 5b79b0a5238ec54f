"""Where Aetherpress's own files are, and how any file is named in messages.

The built-in data (card templates, styles, size and paper presets and the
example decks) ships inside the installed package as ``generator/builtin/``;
in a source checkout it is the checkout's own ``templates/`` and ``decks/``.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
FONTS_DIR = PACKAGE_DIR / "fonts"
_BUILTIN_LABEL = "<built-in>"


@cache
def builtin_root() -> Path:
    """The folder holding the built-in ``templates/`` and ``decks/``."""
    packaged = PACKAGE_DIR / "builtin"
    if (packaged / "templates").is_dir():
        return packaged
    checkout = PACKAGE_DIR.parent
    if (checkout / "templates").is_dir() and (checkout / "decks").is_dir():
        return checkout
    raise RuntimeError(f"the built-in templates and decks are missing from {PACKAGE_DIR}; reinstall aetherpress")


RULEBOOKS = "rulebooks"  # the output folder the rulebooks go to (no deck may write there)


def real(path: Path | str) -> Path:
    """``path`` made absolute with its links resolved as far as they lead (a loop of links is left as it is,
    and whatever then opens it fails as with any unreadable path; ``Path.resolve`` raises RuntimeError)."""
    return Path(os.path.realpath(path))


def display_path(path: Path | str) -> str:
    """A path as a person should read it: relative to the working folder when inside it,
    ``<built-in>/...`` for the built-in data, else as given."""
    path = Path(path)
    try:
        here = real(Path.cwd())
    except OSError:
        here = None
    for candidate in (Path(os.path.abspath(path)), real(path)):
        if here is not None and candidate.is_relative_to(here):
            return str(candidate.relative_to(here))
        try:
            root = builtin_root()
        except RuntimeError:
            continue
        if candidate.is_relative_to(root):
            return f"{_BUILTIN_LABEL}/{candidate.relative_to(root)}"
    return str(path)
