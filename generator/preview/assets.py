"""The pages' files (``static/``), read once from the package: the URL only ever picks one of these by name."""

from __future__ import annotations

from functools import cache
from importlib import resources

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
PAGES = {"gallery": "gallery.html", "card": "card.html", "hand": "hand.html", "table": "table.html", "deck": "deck.html"}


@cache
def _assets() -> dict[str, tuple[bytes, str]]:
    """File name -> (bytes, content type) of every file in ``static/``."""
    folder = resources.files(__package__) / "static"
    found = {}
    for item in folder.iterdir():
        suffix = "." + item.name.rsplit(".", 1)[-1]
        if item.is_file() and suffix in _TYPES:
            found[item.name] = (item.read_bytes(), _TYPES[suffix])
    return found


def asset(name: str) -> tuple[bytes, str] | None:
    return _assets().get(name)
