"""``aetherpress export KIND [DECK ...]``: card files for print shops, images and virtual tables.

The kinds are the exports of the registry (:mod:`generator.outputs.exports`): each brings its name, help,
options and examples, and writes one deck's files; this command resolves the decks, checks every option before
anything is drawn, and writes each deck's files into ``<output>/<deck>/<kind>/`` all or nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import display_path
from ..outputs.exports import EXPORTS, Export, ExportJob, Option
from ..pipeline.context import ProjectContext
from ..pipeline.drawncheck import print_differences
from ..project import Project
from ..project.files import writing_into
from ..project.staging import stage, staged_folders
from .common import check_slugs, examples, languages_from_args, length, number, output_folder, resolve_decks, whole


def _argument(k: argparse.ArgumentParser, option: Option) -> None:
    """``option`` (data) as an argparse argument of the export's parser."""
    named: dict[str, Any] = {"default": option.default, "help": option.help, "dest": option.dest}
    if option.metavar:
        named["metavar"] = option.metavar
    kind = option.kind
    if kind == "switch":
        named.pop("metavar", None)
        k.add_argument(option.flag, action="store_true", **named)
        return
    if kind == "number":
        named["type"] = number(option.low, option.high)
    elif kind == "whole":
        named["type"] = whole(int(option.low), int(option.high))
    elif kind == "length":
        named["type"] = length(option.high)
    elif kind == "choice":
        named["choices"] = option.choices
    elif kind == "file":
        named["type"] = Path
    elif kind == "repeat":
        named["action"] = "append"
    k.add_argument(option.flag, **named)


def add_parser(sub: argparse._SubParsersAction) -> None:
    names = "|".join(EXPORTS)
    p = sub.add_parser("export", help=f"card files for print shops, images and virtual tables: {', '.join(EXPORTS)}")
    examples(p, *(line for export in EXPORTS.values() for line in export.examples[:1]))
    kinds = p.add_subparsers(dest="kind", required=True, metavar=names)
    for export in EXPORTS.values():
        k = kinds.add_parser(export.name, help=export.help)
        examples(k, *export.examples)
        k.add_argument(
            "decks",
            nargs="*",
            metavar="DECK[:VARIANT]",
            help="the decks to export (imperial, pernese:coloured ...; default: every deck of the project)",
        )
        k.add_argument("--out", type=Path, default=None, help="output folder (default: output/)")
        k.add_argument(
            "--lang",
            default=None,
            metavar="LANG[,LANG...]",
            help="the editions to export, by language code (default: the source language): output/<deck>-LANG/",
        )
        for option in export.options:
            _argument(k, option)


def run(project: Project, args: argparse.Namespace) -> int:
    export: Export = EXPORTS[args.kind]
    decks = resolve_decks(project, args.decks, languages=languages_from_args(args, every=False))
    check_slugs(decks)
    out = output_folder(args.out or project.output_dir)
    options = {option.dest: getattr(args, option.dest) for option in export.options}
    prepared = export.prepare(project, decks, options) if export.prepare is not None else None
    # the command's modules load when it runs, not for --help
    from ..outputs.progress import ProgressBar

    context = ProjectContext(project)  # every side comes from here: drawn once, for a build or an export alike
    report = []
    warnings: list[str] = []
    with writing_into(out), staged_folders() as stages:
        for deck in decks:
            target = out / deck.slug / export.name
            folder = stage(stages, target, export.keeps(project, deck, prepared) if export.keeps is not None else None)
            bar = ProgressBar(f"{deck.key} {export.name}")
            try:
                written = export.write(ExportJob(context, deck, folder, target, options, prepared, bar, warnings))
            finally:
                bar.close()
            report.append(f"{deck.key}: {len(written)} file{'' if len(written) == 1 else 's'} in {display_path(target)}")
    print("\n".join(report))
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for deck in decks:  # exported all the same, as build prints it, but never otherwise than shown without a word
        for problem in print_differences(context, deck):
            print(f"warning: {problem}", file=sys.stderr)
    return 0
