"""``aetherpress validate [PATH ...]``: check definitions and templates; print every problem."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import AetherpressError
from ..project import Project


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check deck, game and rulebook files and card templates; print every problem")
    p.add_argument("paths", nargs="*", type=Path, help="definition files or folders (default: all of the project's decks/)")
    p.add_argument(
        "--strict-lang",
        action="store_true",
        help="an edition's text with no translation is an error (default: a warning; it prints in the source language)",
    )


def run(project: Project, args: argparse.Namespace) -> int:
    from ..validation import validate

    report = validate(project, args.paths)
    if args.strict_lang:
        report.add(report.untranslated)
    if report.problems:
        raise AetherpressError(report.problems)
    for problem in report.untranslated:
        print(f"warning: {problem}", file=sys.stderr)
    print(f"ok: {report.summary()}")
    return 0
