"""The command line: ``aetherpress COMMAND``, one small module per command.

Each command module parses its own arguments (``add_parser``) and calls the
stages (``run``).  Problems with the input print one line each (file, place,
what is wrong) and exit with status 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import signal
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import NoReturn

from .. import __version__
from ..definitions.schema import suggestions_afresh
from ..errors import AetherpressError, display_path, grouped
from ..project import Project
from ..resources.limits import cap_memory

__all__ = ["console", "main", "parser", "print_problems"]

_COMMANDS = {
    "list": "list_decks",
    "validate": "validate",
    "build": "build_command",
    "export": "export",
    "box": "box",
    "show": "show",
    "calibrate": "calibrate",
    "odds": "odds",
    "rulebook": "rulebook",
    "new": "new",
    "eject": "eject",
    "serve": "serve",
    "translations": "translations",
}


def _module(command: str) -> ModuleType:
    return importlib.import_module(f".{_COMMANDS[command]}", __name__)


class _OneLineParser(argparse.ArgumentParser):
    """argparse, with a mistake on the command line reported like every other problem: one line, exit 2."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("aetherpress").strip()
        self.exit(2, f"error: command line: {message} (see aetherpress {command + ' ' if command else ''}--help)\n")


def _named_command(argv: list[str]) -> str | None:
    """The command ``argv`` names, where that is plain before parsing (the value of --project skipped)."""
    tokens = iter(argv)
    for token in tokens:
        if token == "--project":
            next(tokens, None)
        elif not token.startswith("-"):
            return token if token in _COMMANDS else None
    return None


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only``, the other commands are named but their modules not loaded."""
    p = _OneLineParser(prog="aetherpress", description="Card decks and rulebooks from data, ready for print.")
    p.add_argument("--version", action="version", version=f"aetherpress {__version__}")
    p.add_argument("--debug", action="store_true", help="show a traceback on errors")
    p.add_argument("--verbose", action="store_true", help="also show notes, such as a damaged cache being recounted")
    p.add_argument(
        "--project",
        type=Path,
        default=None,
        metavar="DIR",
        help="the project folder (default: the nearest folder at or above this one that holds decks/; "
        "without one, the built-in decks)",
    )
    sub = p.add_subparsers(dest="command", required=True)
    for command in _COMMANDS:
        if only is None or command == only:
            _module(command).add_parser(sub)
        else:
            sub.add_parser(command)  # not this run's command: a name is enough
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser(_named_command(sys.argv[1:] if argv is None else argv)).parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a mistake on the command line (already reported)
        return exc.code if isinstance(exc.code, int) else 2
    suggestions_afresh()
    try:
        with _notes(args.verbose):
            project = Project.at(args.project) if args.project else Project.find()
            return int(_module(args.command).run(project, args))
    except AetherpressError as exc:
        if args.debug:
            traceback.print_exc()
        print_problems(exc)
        return 2
    except KeyboardInterrupt as exc:
        print(f"{exc or 'interrupted'}; no output folder was left half-written", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (aetherpress list | head -1): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:  # the file system refused something: say what and where
        if args.debug:
            raise
        where = display_path(exc.filename) if exc.filename else "aetherpress"
        print(f"error: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug, not bad input: say so in one line, details with --debug
        if args.debug:
            raise
        print(
            f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback, and please report it)",
            file=sys.stderr,
        )
        return 1


def print_problems(exc: AetherpressError) -> None:
    """Each problem on one line of stderr, as ``error: FILE:LINE: KEY: what is wrong``; a problem that many cards
    hit in the same place is said once, with how many and the first few."""
    for problem in grouped(exc.problems):
        print(f"error: {problem}", file=sys.stderr)


class _Terminated(KeyboardInterrupt):
    """The process was asked to stop (SIGTERM): unwind like an interrupt, so staging folders are removed."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated("terminated")


@contextlib.contextmanager
def _notes(verbose: bool) -> Iterator[None]:
    """With --verbose, what Aetherpress notes along the way (a damaged cache recounted ...) goes to stderr,
    for as long as the command runs (a later command in the same process says only what it is asked to)."""
    if not verbose:
        yield
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("note: %(message)s"))
    logger = logging.getLogger("aetherpress")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def console() -> int:
    """The ``aetherpress`` command: ``main`` with the process's memory capped and SIGTERM handled."""
    cap_memory()
    signal.signal(signal.SIGTERM, _terminate)
    return main()
