"""``aetherpress new NAME``: start a new game in a folder of its own."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from ..errors import display_path
from ..locations import real
from ..outputs.starter import create, slug_for
from ..project import Project
from ..project.files import writing_into
from .common import examples


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="start a new game: a project folder with a working deck, template, style and rulebook")
    examples(p, "aetherpress new 'Moon Garden'          # makes moon-garden/")
    p.add_argument(
        "name",
        metavar="NAME",
        help="the game's name or its folder: 'Moon Garden' makes moon-garden/ with a deck titled Moon Garden",
    )


def run(project: Project, args: argparse.Namespace) -> int:
    given = Path(args.name)
    slug = slug_for(given.name) or given.name  # a name with no letters or digits at all is refused by create
    title = given.name if slug != given.name else None
    folder = given.parent / slug
    with writing_into(real(folder)):
        written = create(real(folder), title)
    print(f"new project in {display_path(folder)}: {len(written)} files")
    print(f"next: cd {shlex.quote(str(folder))} && aetherpress build")
    return 0
