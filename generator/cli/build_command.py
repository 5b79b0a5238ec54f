"""``aetherpress build [DECK[:VARIANT] ...]``: faces, backs and print sheets; every rulebook with no deck named."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import Problem, display_path
from ..locations import RULEBOOKS
from ..project import Project
from ..project.files import writing_into
from .box import add_card_thickness
from .common import (
    add_jobs_arguments,
    add_language_argument,
    add_sheet_arguments,
    check_slugs,
    check_translated,
    examples,
    languages_from_args,
    output_folder,
    resolve_decks,
    sheet_options,
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "build", help="build decks into output/ (default: every deck and variant of the project, and its rulebooks)"
    )
    examples(
        p,
        "aetherpress build                      # every deck (and variant) and rulebook of the project",
        "aetherpress build my-game:small --paper letter --layout gutterfold",
        "aetherpress build --watch              # build again on every save",
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
    add_jobs_arguments(p)
    p.add_argument(
        "--draft",
        action="store_true",
        help="draw text that does not fit in red, with how many characters to cut, instead of stopping at the first",
    )
    add_language_argument(p, "default: the source language and every edition the decks and rulebooks declare")
    p.add_argument(
        "--combine",
        action="store_true",
        help="also put all the named decks in one combined-sheets.pdf, packed card size by card size",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="build again after every save to a deck, card list, template, style, font or image (Ctrl-C stops)",
    )


def run(project: Project, args: argparse.Namespace) -> int:
    if getattr(args, "watch", False):
        # the command's modules load when it runs, not for --help
        from .watching import rebuild_on_save

        return rebuild_on_save(project, lambda: run(project, argparse.Namespace(**{**vars(args), "watch": False})))
    # the command's modules load when it runs, not for --help
    from ..pipeline.uptodate import build_key, marked, remember, shown, up_to_date

    out = output_folder(args.out or project.output_dir)
    # the project and output folders as found (the words that named them depend on the working folder)
    asked = {k: v for k, v in sorted(vars(args).items()) if k not in ("jobs", "dask", "verbose", "debug", "project", "out")}
    key = build_key(project, {"asked": repr(asked), "out": str(out), "project": str(project.root)})
    report = None if args.combine or args.draft else up_to_date(project, out, key)
    if report is not None:  # nothing changed: every file is as the last build left it
        print("\n".join(shown(report, display_path)))
        return 0
    # the command's modules load when it runs, not for --help
    from ..pipeline.build import check_fits
    from ..pipeline.context import ProjectContext
    from ..pipeline.job import BuildRequest, run_build
    from ..pipeline.sheets import write_kept_job

    sheets = sheet_options(project, args)
    context = ProjectContext(project)
    definitions = context.definitions
    languages = languages_from_args(args, every=True)
    decks = resolve_decks(project, args.decks, definitions, languages, context)
    check_slugs(decks)
    check_translated(decks, args)
    for _, options in sheets:
        check_fits(decks, options)
        if args.box:
            # the command's modules load when it runs, not for --help
            from ..outputs.boxfile import plan_box

            for deck in decks:
                plan_box(deck, options.layout.paper, args.card_thickness)
    request = BuildRequest(
        out,
        sheets,
        args.proof,
        args.box,
        args.card_thickness,
        books=not args.decks,
        jobs=args.jobs,
        dask=args.dask,
        draft=args.draft,
        languages=None if languages is None else tuple(languages),
        strict_lang=args.strict_lang,
    )
    overflows: list[Problem] = []
    differences: list[Problem] = []
    report = run_build(context, decks, request, marked, overflows, differences)
    print("\n".join(shown(report, display_path)))
    for problem in differences:  # printed all the same, but never otherwise than shown without a word
        print(f"warning: {problem}", file=sys.stderr)
    remember(project, out, key, [deck.slug for deck in decks] + ([RULEBOOKS] if request.books else []), report)
    for problem in overflows:  # a draft goes through every card: each text that does not fit, at once
        print(f"draft: {problem}", file=sys.stderr)
    if overflows:
        one = len(overflows) == 1
        told = "1 text does not fit" if one else f"{len(overflows)} texts do not fit"
        print(f"draft: {told} (drawn in red); a build without --draft refuses {'it' if one else 'them'}", file=sys.stderr)
    if args.combine and decks:
        with writing_into(out):
            for suffix, options in sheets:
                target = out / f"combined-sheets{suffix}.pdf"
                print(f"combined: {display_path(write_kept_job(context, decks, target, options))}")
    return 0
