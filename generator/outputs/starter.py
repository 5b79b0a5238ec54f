"""``aetherpress new NAME``: a new project with a small working deck to start a game from.

The project holds a deck with a CSV card list, a copy of the plain face
template to edit, a style file listing every style key, a hand ranking, a
rulebook source, a README and a ``.gitignore`` for ``output/``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..definitions.ids import MAX_ID, id_from_name
from ..definitions.styles import STYLE_KEYS
from ..errors import AetherpressError, Problem, display_path
from ..locations import builtin_root
from ..project.files import write_text

_STARTER = Path(__file__).resolve().parent / "starter"
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_STYLE_LOOK = {
    "paper": "#fcf8ef",
    "ink": "#1f1b16",
    "accent": "#8a5a2b",
    "back_colour": "#27324a",
    "back_colour_light": "#36466a",
    "back_accent": "#d8b56a",
    "back_pattern": "rings",
    "back_emblem": "star8",
}


def _title(name: str) -> str:
    return " ".join(word.capitalize() for word in name.split("-"))


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string: quotes, backslashes and controls escaped
    return f"{value:g}" if isinstance(value, float) else str(value)


def _style_text(title: str) -> str:
    """A style file naming every style key with its meaning, ready to edit."""
    lines = [
        f"# {title}: the look of the cards.  Every key a style may set is here;",
        '# lengths are millimetres unless they carry a unit ("3mm", "0.125in").',
        "",
    ]
    for key in STYLE_KEYS.values():
        value = _STYLE_LOOK.get(key.name, key.default)
        choices = f" ({', '.join(key.choices)})" if key.choices else ""
        lines.append(f"{key.name} = {_toml_value(value)}".ljust(32) + f"# {key.meaning}{choices}")
    lines += [
        "",
        "[custom]                        # keys of your own, for your own templates: style.NAME",
        '# gold = "#b08d3c"',
        "",
    ]
    return "\n".join(lines)


_COMMENTED = re.compile(r"^(\S.*?\S|\S)( {2,})(# .*)$")


def _align_comments(text: str) -> str:
    """The comments at the ends of consecutive lines in one column again, once the game's name is in."""
    lines = text.split("\n")
    out: list[str] = []
    run: list[tuple[str, str]] = []

    def flush() -> None:
        width = max((len(code) for code, _ in run), default=0) + 2
        out.extend(code.ljust(width) + comment for code, comment in run)
        run.clear()

    for line in lines:
        found = _COMMENTED.match(line)
        if found:
            run.append((found.group(1), found.group(3)))
            continue
        flush()
        out.append(line)
    flush()
    return "\n".join(out)


def slug_for(name: str) -> str:
    """A folder and deck id for a game's name: ``Moon Garden`` -> ``moon-garden``, ``Müller's Dock`` ->
    ``muellers-dock`` (transliterated as card ids are)."""
    return id_from_name(name)[:MAX_ID].strip("-")


def create(folder: Path, title: str | None = None) -> list[Path]:
    """Write a new project into ``folder`` (which must not exist, or be empty); return the files written.

    ``title`` is the game's name as people read it (default: from the folder's name)."""
    name = folder.name
    if not NAME.fullmatch(name):
        raise AetherpressError(
            Problem(
                "command line",
                f"project name '{name}' must be lower-case letters, digits and dashes, starting with a letter or digit",
            )
        )
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise AetherpressError(Problem(display_path(folder), "already exists and is not empty; choose another name"))
    title = " ".join((title or _title(name)).split())[:80] or _title(name)  # one line, whatever was typed

    def fill(text: str) -> str:
        text = text.replace('"__TITLE__"', _toml_value(title))  # a TOML string, quotes and backslashes escaped
        return _align_comments(text.replace("__ID__", name).replace("__TITLE__", title))

    deck = folder / "decks" / name
    files = {
        deck / f"{name}.toml": fill((_STARTER / "deck.toml").read_text(encoding="utf-8")),
        deck / "cards.csv": (_STARTER / "cards.csv").read_text(encoding="utf-8"),
        deck / f"{name}.game.toml": fill((_STARTER / "game.toml").read_text(encoding="utf-8")),
        deck / f"{name}.rulebook.toml": fill((_STARTER / "rulebook.toml").read_text(encoding="utf-8")),
        deck / f"{name}.md": fill((_STARTER / "rulebook.md").read_text(encoding="utf-8")),
        folder / "templates" / f"{name}.svg.j2": (builtin_root() / "templates" / "cards" / "plain.svg.j2").read_text(
            encoding="utf-8"
        ),
        folder / "styles" / f"{name}.toml": _style_text(title),
        folder / "README.md": fill((_STARTER / "README.md").read_text(encoding="utf-8")),
        folder / ".gitignore": (_STARTER / "gitignore").read_text(encoding="utf-8"),
    }
    (folder / "fonts").mkdir(parents=True, exist_ok=True)
    return [write_text(path, text) for path, text in files.items()]
