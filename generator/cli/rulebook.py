"""``aetherpress rulebook GAME``: one game's rulebook as a PDF, or imposed as a booklet."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..definitions.schema import suggest
from ..definitions.shops import load_shops
from ..errors import display_path
from ..imposition.printbook import BINDINGS, PAPER_THICKNESS
from ..locations import RULEBOOKS
from ..project import Project
from ..project.files import write_bytes, writing_into
from ..render.icc import STOCKS
from ..rulebook import BOOK_PAPERS, build_book
from ..rulebook.definition import book_edition, book_for
from ..rulebook.press import BOOK_BLEED, PrintOptions, print_files
from ..units import format_mm
from .common import cli_error, examples, length, output_folder


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rulebook", help="build a game's rulebook as PDF")
    examples(
        p,
        "aetherpress rulebook                   # the rulebooks of the project, A5",
        "aetherpress rulebook lith --paper letter --booklet",
        "aetherpress rulebook lith --print                 # interior and cover for a print shop",
        "aetherpress rulebook lith --shop drivethrucards --binding perfect",
    )
    p.add_argument(
        "game", metavar="GAME", nargs="?", default=None, help="a game id or a rulebook id (default: the project's rulebooks)"
    )
    p.add_argument("--paper", default="a5", metavar="PAPER", help=f"page size: {', '.join(BOOK_PAPERS)} (default: a5)")
    p.add_argument(
        "--booklet",
        action="store_true",
        help="impose for saddle-stitch printing: 2-up on A4 (A5/A4 paper) or Letter sheets, inner sheets' pages moved "
        "in by their creep",
    )
    p.add_argument(
        "--print",
        dest="press",
        action="store_true",
        help="for a print shop: <book>-print-interior.pdf and <book>-print-cover.pdf, trimmed pages with "
        f"{format_mm(BOOK_BLEED)} mm bleed and crop marks, CMYK, PDF/X-4; the cover as spreads (back, spine, front)",
    )
    p.add_argument(
        "--shop",
        default=None,
        metavar="SHOP",
        help="--print as a PDF shop of shops.toml asks (its bleed, PDF/X version and ink limit), e.g. drivethrucards",
    )
    p.add_argument(
        "--binding",
        choices=BINDINGS,
        default="saddle",
        help="with --print: saddle-stitched (no spine) or perfect-bound (a spine as thick as the interior) (default saddle)",
    )
    p.add_argument(
        "--paper-thickness",
        type=length(1.0),
        default=PAPER_THICKNESS,
        metavar="MM",
        help=f"one leaf of the paper: sets a perfect-bound spine and the creep of --booklet (default {PAPER_THICKNESS:g} mm)",
    )
    p.add_argument(
        "--stock",
        choices=tuple(STOCKS),
        default="coated",
        help="with --print: the paper's ICC profile and ink limit (default coated)",
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
    options = _print_options(project, args)
    out = output_folder(args.out or project.output_dir / RULEBOOKS)
    with writing_into(out):
        books_context = context.book_context()
        for book in chosen:
            if options is None:
                path = build_book(books_context, book, out, paper, args.booklet, args.paper_thickness)
                print(f"rulebook {book.id}: {display_path(path)}")
                continue
            files, made = print_files(books_context, book, paper, options)
            for name, data in files:
                print(f"rulebook {book.id}: {display_path(write_bytes(out / name, data))}")
            print(f"  {made.interior_pages} interior pages, {args.binding} binding, spine {format_mm(made.spine)} mm")
    return 0


def _print_options(project: Project, args: argparse.Namespace) -> PrintOptions | None:
    """What --print and --shop ask for, or None for a book to read or print at home."""
    if not (args.press or args.shop):
        return None
    if args.booklet:
        raise cli_error("--booklet imposes for home printing; a print shop (--print, --shop) imposes the pages itself")
    shop = None
    if args.shop:
        shops = load_shops(project)
        pdf = sorted(k for k, s in shops.items() if s.format == "pdf")
        shop = shops.get(args.shop.strip().lower())
        if shop is None or shop.format != "pdf":
            said = "takes card images, not PDF" if shop is not None else f"is no shop{suggest(args.shop, sorted(shops))}"
            raise cli_error(f"--shop '{args.shop}' {said}; shops that print books from PDF: {', '.join(pdf) or 'none'}")
    return PrintOptions(shop, args.binding, args.paper_thickness, args.stock)
