"""``aetherpress rulebook GAME``: one game's rulebook as a PDF, or imposed as a booklet."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..definitions.schema import suggest
from ..errors import display_path
from ..locations import RULEBOOKS
from ..project import Project
from ..project.files import writing_into
from ..rulebook import BOOK_PAPERS, build_book
from ..rulebook.definition import book_edition, book_for
from .common import cli_error, examples, output_folder


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rulebook", help="build a game's rulebook as PDF")
    examples(
        p,
        "aetherpress rulebook                   # the rulebooks of the project, A5",
        "aetherpress rulebook lith --paper letter --booklet",
    )
    p.add_argument(
        "game", metavar="GAME", nargs="?", default=None, help="a game id or a rulebook id (default: the project's rulebooks)"
    )
    p.add_argument("--paper", default="a5", metavar="PAPER", help=f"page size: {', '.join(BOOK_PAPERS)} (default: a5)")
    p.add_argument(
        "--booklet", action="store_true", help="impose for saddle-stitch printing: 2-up on A4 (A5/A4 paper) or Letter sheets"
    )
    p.add_argument("--out", type=Path, default=None, help="output folder (default: output/rulebooks/)")
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="the edition to make, by language code (default: the source language): <book>-LANG.pdf",
    )


def run(project: Project, args: argparse.Namespace) -> int:
    paper = args.paper.strip().lower()
    if paper not in BOOK_PAPERS:
        raise cli_error(
            f"--paper '{args.paper}' is not a rulebook page size{suggest(paper, BOOK_PAPERS)}; use {', '.join(BOOK_PAPERS)}"
        )
    from ..pipeline.context import ProjectContext  # the pipeline is loaded by the commands that draw or count

    context = ProjectContext(project)
    books = context.books
    if args.game is None:
        chosen = [b for b in books.values() if project.layer_of(b.file) is project.own]
        if not chosen:
            raise cli_error(f"the project has no rulebook of its own; name one: {', '.join(sorted(books)) or 'none'}")
    else:
        book = book_for(books, args.game)
        if book is None:
            names = sorted(set(books) | {g for b in books.values() for g in b.games})
            raise cli_error(f"no rulebook for '{args.game}'{suggest(args.game, names)}; rulebooks: {', '.join(names)}")
        chosen = [book]
    chosen = [book_edition(book, (args.lang or "").strip()) for book in chosen]
    out = output_folder(args.out or project.output_dir / RULEBOOKS)
    with writing_into(out):
        books_context = context.book_context()
        for book in chosen:
            path = build_book(books_context, book, out, paper, args.booklet)
            print(f"rulebook {book.id}: {display_path(path)}")
    return 0
