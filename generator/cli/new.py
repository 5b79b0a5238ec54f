"""``aetherpress new NAME``: start a new game in a folder of its own."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import display_path
from ..outputs.starter import create
from ..project import Project
from ..project.files import writing_into


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="start a new game: a project folder with a working deck, template, style and rulebook")
    p.add_argument("name", metavar="NAME", help="the new folder (lower-case letters, digits and dashes)")


def run(project: Project, args: argparse.Namespace) -> int:
    folder = Path(args.name)
    with writing_into(folder.resolve()):
        written = create(folder.resolve())
    print(f"new project in {display_path(folder)}: {len(written)} files")
    print(f"next: cd {args.name} && aetherpress build")
    return 0
