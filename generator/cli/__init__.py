"""The command line: ``aetherpress COMMAND``, one small module per command.

Each command module parses its own arguments (``add_parser``) and calls the
stages (``run``).  Problems with the input print one line each (file, place,
what is wrong) and exit with status 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from pathlib import Path
from types import ModuleType

from .. import __version__
from ..errors import AetherpressError
from ..project import Project

COMMANDS = {
    "list": "list_decks",
    "validate": "validate",
    "build": "build",
    "export": "export",
    "box": "box",
    "calibrate": "calibrate",
    "odds": "odds",
    "rulebook": "rulebook",
    "new": "new",
}


def _module(command: str) -> ModuleType:
    return importlib.import_module(f".{COMMANDS[command]}", __name__)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="aetherpress", description="Card decks and rulebooks from data, ready for print.")
    p.add_argument("--version", action="version", version=f"aetherpress {__version__}")
    p.add_argument("--debug", action="store_true", help="show a traceback on errors")
    p.add_argument(
        "--project",
        type=Path,
        default=None,
        metavar="DIR",
        help="the project folder (default: the nearest folder at or above this one that holds decks/; "
        "without one, the built-in decks)",
    )
    sub = p.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        _module(command).add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        project = Project.at(args.project) if args.project else Project.find()
        return int(_module(args.command).run(project, args))
    except AetherpressError as exc:
        if args.debug:
            traceback.print_exc()
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; files already written are complete, the rest were not touched", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug, not bad input: say so in one line, details with --debug
        if args.debug:
            raise
        print(
            f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback, and please report it)",
            file=sys.stderr,
        )
        return 1
