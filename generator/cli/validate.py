"""``aetherpress validate [DECK[:VARIANT] | PATH ...]``: check definitions and templates; print every problem."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import AetherpressError, grouped
from ..project import Project
from .common import examples

if TYPE_CHECKING:  # the pipeline is loaded by the commands that draw or count
    from ..pipeline.context import ProjectContext


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "validate",
        help="check deck, game and rulebook files and card templates; print every problem",
    )
    examples(
        p,
        "aetherpress validate                   # every deck (as itself and in each variant), game and rulebook of the project",
        "aetherpress validate my-game:small     # one deck in one variant",
        "aetherpress validate decks/my-game/my-game.game.toml",
    )
    p.add_argument(
        "names",
        nargs="*",
        metavar="DECK[:VARIANT]|PATH",
        help="decks by id (a variant after a colon), or definition files or folders (default: all of the project's decks/)",
    )

    p.add_argument(
        "--strict-lang",
        action="store_true",
        help="an edition's text with no translation is an error (default: a warning; it prints in the source language)",
    )


def _split_names(context: ProjectContext, names: list[str]) -> tuple[list[Path], list[str]]:
    """(paths, deck specs) among ``names``: a deck id (with variants) is a deck; anything else is a path."""
    if not names:
        return [], []
    try:
        decks = set(context.definitions)
    except AetherpressError:  # a broken deck file: the names that are not files are taken for decks, told by validate
        decks = set()
    paths: list[Path] = []
    specs: list[str] = []
    for name in names:
        if name.split(":", 1)[0] in decks or not Path(name).exists():
            specs.append(name)
        else:
            paths.append(Path(name))
    return paths, specs


def by_file(problems: list) -> list:
    """``problems`` grouped by file, the files in the order first named, each file's problems in the order found."""
    files: dict[str, list] = {}
    for problem in problems:
        files.setdefault(problem.file, []).append(problem)
    return [problem for found in files.values() for problem in found]


def run(project: Project, args: argparse.Namespace) -> int:
    # the command's modules load when it runs, not for --help
    from ..pipeline.context import ProjectContext
    from ..validation import validate

    context = ProjectContext(project)
    paths, specs = _split_names(context, args.names)
    report = validate(context, paths, specs)
    for problem in grouped(report.differs):  # as build warns of them
        print(f"warning: {problem}", file=sys.stderr)
    if args.strict_lang:
        report.add(report.untranslated)
    else:  # told with the errors, if there are any: one run tells everything
        for problem in grouped(report.untranslated):  # a deck and its variants told once
            print(f"warning: {problem}", file=sys.stderr)
    if report.problems:
        raise AetherpressError(by_file(report.problems))
    print(f"ok: {report.summary()}")
    return 0
