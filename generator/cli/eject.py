"""``aetherpress eject KIND NAME``: copy a built-in template, back, style or size preset into the project, to change.

A project's file with a built-in file's name takes its place, so a copy under
the same name changes every deck of the project that uses it; ``--as`` gives
the copy a name of its own, for the decks whose file is changed to name it.
The line of each deck file to look at (or to change) is printed.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

from ..definitions.ids import id_problem
from ..definitions.schema import suggest
from ..definitions.styles import DEFAULT_STYLE
from ..errors import AetherpressError, Problem, display_path
from ..project import Project
from ..project.files import write_text, writing_into
from .common import examples

# kind -> (the [deck] key that names it, what it is, what a deck uses without the key)
KINDS = {
    "template": ("template", "card face template", "plain"),
    "back": ("back", "back template", "back"),
    "style": ("style", "style", DEFAULT_STYLE),
    "size": ("size", "card size preset", "poker"),
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "eject",
        help="copy a built-in template, back, style or size preset into the project, to change it",
    )
    examples(
        p,
        "aetherpress eject back                 # templates/back.svg.j2: the built-in back, now the project's",
        "aetherpress eject template plain --as my-face",
        "aetherpress eject style imperial --as my-style",
        "aetherpress eject size poker           # [sizes.poker] in templates/sizes.toml",
    )
    p.add_argument("kind", choices=list(KINDS), help="what to copy: template, back, style or size")
    p.add_argument("name", nargs="?", default=None, help="the built-in one to copy (default for back: back)")
    p.add_argument(
        "--as",
        dest="new_name",
        default=None,
        metavar="NEW",
        help="the copy's name (default: the same name, which then takes the built-in one's place in this project)",
    )


def _problem(message: str) -> AetherpressError:
    return AetherpressError(Problem("command line", message))


def _builtin_names(project: Project, kind: str) -> list[str]:
    layer = project.builtin
    if kind in ("template", "back"):
        return sorted(p.name.removesuffix(".svg.j2") for p in layer.templates.glob("*.svg.j2") if not p.name.startswith("_"))
    if kind == "style":
        return sorted(p.stem for p in layer.styles.glob("*.toml"))
    with (layer.presets / "sizes.toml").open("rb") as f:
        return sorted(tomllib.load(f).get("sizes", {}))


def _size_entry(project: Project, name: str, new_name: str) -> str:
    """The built-in ``[sizes.NAME]`` table as written in its file, renamed ``new_name``."""
    text = (project.builtin.presets / "sizes.toml").read_text(encoding="utf-8")
    found = re.search(rf"^\[sizes\.{re.escape(name)}\]\n(?:(?!\[)[^\n]*\n)*", text, re.M)
    if found is None:  # pragma: no cover - every listed size has its table
        raise _problem(f"size '{name}' is not written as a table of its own in the built-in sizes.toml")
    return found.group(0).rstrip("\n").replace(f"[sizes.{name}]", f"[sizes.{new_name}]", 1) + "\n"


def _deck_lines(project: Project, key: str) -> list[tuple[Path, int | None, str | None]]:
    """(deck file, line, value) of ``key`` in the ``[deck]`` table of each of the project's deck files
    (line and value None where the key is not given)."""
    found: list[tuple[Path, int | None, str | None]] = []
    for path in project.deck_files():
        if project.layer_of(path) is not project.own:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        if not any(line.strip() == "[deck]" for line in lines):
            continue
        in_deck, place, value = False, None, None
        for number, line in enumerate(lines, 1):
            if line.startswith("["):
                in_deck = line.strip() == "[deck]"
            elif in_deck and (hit := re.match(rf"\s*{key}\s*=\s*\"([^\"]*)\"", line)):
                place, value = number, hit.group(1)
                break
        found.append((path, place, value))
    return found


def run(project: Project, args: argparse.Namespace) -> int:
    if project.root is None:
        raise _problem(
            "eject copies into a project: run it in a project's folder (one with decks/), or start one with aetherpress new"
        )
    kind = args.kind
    key, what, default = KINDS[kind]
    name = args.name or ("back" if kind == "back" else None)
    names = _builtin_names(project, kind)
    if name is None:
        raise _problem(f"name the built-in {what} to copy: {', '.join(names)}")
    if name not in names:
        raise _problem(f"there is no built-in {what} '{name}'{suggest(name, names)}; there are: {', '.join(names)}")
    new_name = args.new_name or name
    problem = id_problem(new_name, what)
    if problem:
        raise _problem(f"--as: {problem}")
    own = project.own
    if kind in ("template", "back"):
        source = project.builtin.templates / f"{name}.svg.j2"
        target, text = own.templates / f"{new_name}.svg.j2", source.read_text(encoding="utf-8")
    elif kind == "style":
        source = project.builtin.styles / f"{name}.toml"
        target, text = own.styles / f"{new_name}.toml", source.read_text(encoding="utf-8")
    else:
        target = own.presets / "sizes.toml"
        entry = _size_entry(project, name, new_name)
        if target.exists():
            with target.open("rb") as f:
                if new_name in tomllib.load(f).get("sizes", {}):
                    raise AetherpressError(
                        Problem(display_path(target), f"[sizes.{new_name}] exists already; choose another name with --as")
                    )
            text = target.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + entry
        else:
            text = (
                "# Card size presets of this project: they add to the built-in ones and take the place of those of the same name.\n\n"
                + entry
            )
    if kind != "size" and target.exists():
        raise AetherpressError(Problem(display_path(target), "exists already; remove it first, or choose another name with --as"))
    with writing_into(project.root):
        write_text(target, text)
    print(
        f"wrote {display_path(target)}: a copy of the built-in {what} '{name}'"
        + (f", named '{new_name}'" if new_name != name else "")
    )
    wanted = f'{key} = "{new_name}"'
    for path, line, value in _deck_lines(project, key):
        if value == new_name:
            print(f"{display_path(path)}:{line}: {wanted} already names it: the copy is used from now on")
        elif line is None and new_name == default:
            print(f"{display_path(path)}: has no {key} = line, so it uses '{default}': the copy is used from now on")
        elif line is not None:
            print(f"{display_path(path)}:{line}: change to {wanted} to use it")
        else:
            print(f"{display_path(path)}: add {wanted} under [deck] to use it")
    return 0
