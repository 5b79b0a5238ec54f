"""``aetherpress calibrate``: a one-sheet duplex test page that measures a printer's front/back offset."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from ..errors import display_path
from ..outputs.calibration import write_calibration
from ..project import Project
from ..project.files import writing_into
from .common import add_paper_arguments, examples, layout_from_args, output_folder


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="write a one-sheet duplex test page to measure a printer's offset")
    examples(p, "aetherpress calibrate --paper letter --flip short")
    add_paper_arguments(p, "default: a4; use the paper you print on")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: output/)")


def run(project: Project, args: argparse.Namespace) -> int:
    layout = layout_from_args(project, args, mode="duplex")
    out = output_folder(args.out or project.output_dir)
    name = re.sub(r"[^a-z0-9.]+", "-", layout.paper.name.lower()).strip("-.") or "paper"
    with writing_into(out):
        target = write_calibration(out / f"calibration-{name}-{layout.flip}.pdf", layout)
    print(f"calibration page: {display_path(target)}")
    return 0
