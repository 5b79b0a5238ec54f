"""``aetherpress build [DECK[:VARIANT] ...]``: faces, backs and print sheets; every rulebook with no deck named."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import Problem, display_path
from ..outputs.build import build_deck, check_fits
from ..outputs.progress import ProgressBar
from ..outputs.proof import write_proof
from ..outputs.tuckbox import plan_box, write_box
from ..project import Project
from ..project.files import writing_into
from ..project.staging import stage, staged_folders
from ..render.sheetpdf import write_job
from ..rulebook import build_all
from .box import add_card_thickness
from .common import add_sheet_arguments, check_slugs, output_folder, resolve_decks, sheet_options


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "build", help="build decks into output/ (default: every deck and variant of the project, and its rulebooks)"
    )
    p.add_argument(
        "decks", nargs="*", metavar="DECK[:VARIANT]", help="e.g. imperial, imperial:ministry, imperial:academy+labelled"
    )
    p.add_argument("--out", type=Path, default=None, help="output folder (default: output/)")
    p.add_argument(
        "--proof", action="store_true", help="also write a contact sheet per deck: <slug>-proof.png with every face and back"
    )
    add_sheet_arguments(p)
    p.add_argument("--box", action="store_true", help="also write a tuck box per deck: <slug>-box.pdf on the sheets' paper")
    add_card_thickness(p)
    p.add_argument(
        "--draft",
        action="store_true",
        help="draw text that does not fit in red, with how many characters to cut, instead of stopping at the first",
    )
    p.add_argument(
        "--combine",
        action="store_true",
        help="also put all the named decks in one combined-sheets.pdf, packed card size by card size",
    )


def run(project: Project, args: argparse.Namespace) -> int:
    sheets = sheet_options(project, args)
    decks = resolve_decks(project, args.decks)
    check_slugs(decks)
    for _, options in sheets:
        check_fits(decks, options)
        for deck in decks if args.box else ():
            plan_box(deck, options.layout.paper, args.card_thickness)
    out = output_folder(args.out or project.output_dir)
    report: list[str] = []
    overflows: list[Problem] = []
    with writing_into(out), staged_folders() as stages:
        for deck in decks:
            target = out / deck.slug
            folder = stage(stages, target)
            bar = ProgressBar(deck.key)
            try:
                written = build_deck(project, deck, folder, sheets, progress=bar, overflows=overflows)
            finally:
                bar.close()
            pdfs = [target / p.relative_to(folder) for p in written if p.suffix == ".pdf"]
            report += [f"{deck.key}: {display_path(pdf)}" for pdf in pdfs]
            report.append(f"{deck.key}: {len(written) - len(pdfs)} SVG files in {display_path(target)}")
            if args.proof:
                proof = write_proof(project, deck, folder, greyscale=args.greyscale, draft=args.draft)
                report.append(f"{deck.key}: {display_path(target / proof.name)}")
            for suffix, options in sheets if args.box else ():
                box = write_box(
                    project,
                    deck,
                    folder / f"{deck.slug}-box{suffix}.pdf",
                    options.layout.paper,
                    args.card_thickness,
                    args.greyscale,
                )
                report.append(f"{deck.key}: {display_path(target / box.name)}")
        if not args.decks:  # a full build includes every rulebook of the project
            books = out / "rulebooks"
            folder = stage(stages, books)
            report += [f"rulebook: {display_path(books / p.name)}" for p in build_all(project, folder)]
    print("\n".join(report))
    for problem in overflows:  # a draft goes through every card: each text that does not fit, at once
        print(f"draft: {problem}", file=sys.stderr)
    if overflows:
        print(
            f"draft: {len(overflows)} text{'s' if len(overflows) != 1 else ''} drawn in red do not fit; a build without --draft refuses them",
            file=sys.stderr,
        )
    if args.combine and decks:
        with writing_into(out):
            for suffix, options in sheets:
                print(f"combined: {display_path(write_job(project, decks, out / f'combined-sheets{suffix}.pdf', options))}")
    return 0
