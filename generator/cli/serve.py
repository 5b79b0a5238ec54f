"""``aetherpress serve [DECK[:VARIANT] ...]``: a live preview of the decks in the browser."""

from __future__ import annotations

import argparse

from ..definitions.model import Deck
from ..errors import AetherpressError
from ..project import Project
from .common import check_slugs, examples, resolve_decks, whole

_DEFAULT_PORT = 8000


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="a live preview in the browser: every face and back, redrawn as you save (default: every deck of the "
        "project, in its source language and every edition)",
    )
    examples(
        p,
        "aetherpress serve                      # every deck of the project at http://127.0.0.1:8000",
        "aetherpress serve my-game:small --port 0 --no-browser",
    )
    p.add_argument("decks", nargs="*", metavar="DECK[:VARIANT]", help="e.g. imperial, imperial:ministry")
    p.add_argument(
        "--port",
        type=whole(0, 65535),
        default=_DEFAULT_PORT,
        metavar="N",
        help=f"the port on 127.0.0.1 (default {_DEFAULT_PORT}; 0 picks a free one)",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser; the first line printed is the URL")


def run(project: Project, args: argparse.Namespace) -> int:
    def choose() -> list[Deck]:
        decks = resolve_decks(project, args.decks, languages=None)  # the source and every edition, to switch between
        check_slugs(decks)
        return decks

    try:
        choose()
    except AetherpressError as exc:
        if all(p.file == "command line" for p in exc.problems):  # a mistake on the command line stops at once
            raise
        # a problem in the files shows in the page, which recovers once it is fixed
    from ..preview.app import serve  # here, so other commands start without the server's modules

    try:
        return serve(project, choose, args.port, open_browser=not args.no_browser)
    except KeyboardInterrupt:
        return 130
