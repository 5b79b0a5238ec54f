"""``aetherpress box [DECK[:VARIANT] ...]``: a tuck box for each deck on one sheet, with cut and fold lines."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import display_path
from ..imposition.boxnet import CARD_THICKNESS
from ..project import Project
from ..project.files import writing_into
from .common import examples, languages_from_args, length, output_folder, paper_from_args, resolve_decks

_MAX_THICKNESS = 5.0  # mm


def thickness(text: str) -> float:
    value = length(_MAX_THICKNESS)(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 mm, not {text}")
    return value


def add_card_thickness(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--card-thickness",
        type=thickness,
        default=CARD_THICKNESS,
        metavar="MM",
        help=f"the thickness of one card, which sets the box's depth (default {CARD_THICKNESS:g} mm)",
    )


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("box", help="a tuck box for each deck: one sheet with cut and fold lines")
    examples(
        p,
        "aetherpress box                        # a tuck box for every deck of the project",
        "aetherpress box my-game:small --paper letter",
        "aetherpress box my-game --lang de             # the German edition's box",
    )
    p.add_argument(
        "decks",
        nargs="*",
        metavar="DECK[:VARIANT]",
        help="the decks to make a box for (imperial, pernese:coloured ...; default: every deck of the project)",
    )
    p.add_argument("--paper", default=None, metavar="PAPER", help="a4 (default), letter, a3 ... or a size such as 210x297mm")
    add_card_thickness(p)
    p.add_argument("--greyscale", action="store_true", help="ink saver: every colour as grey")
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG[,LANG...]",
        help="the editions to make boxes for (de, or en,de; default: the language the deck is written in)",
    )
    p.add_argument("--out", type=Path, default=None, help="output folder (default: output/)")


def run(project: Project, args: argparse.Namespace) -> int:
    # the command's modules load when it runs, not for --help
    from ..outputs.boxfile import plan_box, write_box
    from ..pipeline.context import ProjectContext

    paper = paper_from_args(project, args)
    decks = resolve_decks(project, args.decks, languages=languages_from_args(args, every=False))
    for deck in decks:
        plan_box(deck, paper, args.card_thickness)  # every box fits before anything is written
    out = output_folder(args.out or project.output_dir)
    context = ProjectContext(project)
    with writing_into(out):
        for deck in decks:
            target = write_box(
                context, deck, out / deck.slug / f"{deck.slug}-box.pdf", paper, args.card_thickness, args.greyscale
            )
            print(f"{deck.key}: {display_path(target)}")
    return 0
