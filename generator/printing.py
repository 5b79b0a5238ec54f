"""Print options from the command line and data: paper presets, layout flags, progress.

``templates/papers.toml`` holds the paper presets; options given on the
command line become a :class:`~generator.sheets.Layout`.
"""
from __future__ import annotations

import argparse
import sys
import time

from .errors import AetherpressError, Problem
from .load import read_toml
from .project import Project
from .schema import check_table, field
from .sheets import LAYOUTS, UNITS, Layout, LayoutError, Paper, parse_paper

PAPER_SPEC = {"name": field(str), "width": field(float, required=True), "height": field(float, required=True),
              "unit": field(str)}
DEFAULT_PAPERS = {"a4": Paper("A4", 210.0, 297.0), "letter": Paper("Letter", 215.9, 279.4)}


def load_papers(project: Project) -> dict[str, Paper]:
    """Paper presets by lower-case name, from ``templates/papers.toml`` (A4 and Letter without it)."""
    path = project.templates_dir / "papers.toml"
    if not path.exists():
        return dict(DEFAULT_PAPERS)
    data, ctx = read_toml(path, project)
    papers: dict[str, Paper] = {}
    for key, entry in data.get("papers", {}).items():
        good = check_table(ctx, entry, PAPER_SPEC, ("papers", key), f"paper '{key}'")
        if "width" not in good or "height" not in good:
            continue
        unit = UNITS.get(good.get("unit", "mm"))
        if unit is None:
            ctx.error(("papers", key, "unit"), f"unknown unit '{good['unit']}'; use one of {', '.join(UNITS)}")
            continue
        w, h = good["width"] * unit, good["height"] * unit
        if w <= 0 or h <= 0:
            ctx.error(("papers", key), "paper width and height must be greater than zero")
            continue
        papers[key.lower()] = Paper(good.get("name", key), round(w, 4), round(h, 4))
    ctx.raise_if_any()
    return papers


def _cli_error(message: str) -> AetherpressError:
    return AetherpressError(Problem("command line", message))


def parse_offset(text: str) -> tuple[float, float]:
    parts = text.replace(";", ",").split(",")
    try:
        dx, dy = (float(p) for p in parts)
    except ValueError:
        raise _cli_error(f"--offset '{text}' is not DX,DY in millimetres (e.g. 0.5,-1)") from None
    if abs(dx) > 50 or abs(dy) > 50:
        raise _cli_error(f"--offset '{text}' is more than 50 mm; the offset is in millimetres")
    return dx, dy


def add_paper_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--paper", default=None, metavar="PAPER",
                   help="a4, letter, a3, legal, tabloid, a5 (add :landscape), or a size such as "
                        "210x297mm or 8.5x11in (default: a4; a plain build also writes letter sheets)")
    p.add_argument("--flip", choices=("long", "short"), default="long",
                   help="duplex: the printer turns the sheet over its long (default) or short edge")
    p.add_argument("--offset", default="0,0", metavar="DX,DY",
                   help="move back pages by DX,DY mm to correct a printer (see aetherpress calibrate)")
    p.add_argument("--margin", type=float, default=5.0, metavar="MM", help="unprinted border (default 5 mm)")


def add_build_arguments(p: argparse.ArgumentParser) -> None:
    """The print-sheet options of ``aetherpress build``."""
    add_paper_arguments(p)
    p.add_argument("--layout", choices=LAYOUTS, default="duplex",
                   help="grid (fronts only), duplex (a backs page after each fronts page; default) or "
                        "gutterfold (fronts and backs either side of a fold line)")
    p.add_argument("--bleed", action=argparse.BooleanOptionalAction, default=False,
                   help="keep each card's bleed on the sheet (cards are then cut one by one); default: trimmed")
    p.add_argument("--gap", type=float, default=0.0, metavar="MM", help="space between cards (default 0: one cut serves two cards)")
    p.add_argument("--crop-marks", action=argparse.BooleanOptionalAction, default=True,
                   help="thin cut marks outside the cards (default: on)")
    p.add_argument("--cut-lines", action="store_true", help="outline every card for a cutting machine")
    p.add_argument("--registration", action="store_true", help="registration targets at the grid's corners")
    p.add_argument("--copies", type=int, default=1, metavar="N", help="print every card N times")
    p.add_argument("--greyscale", action="store_true", help="ink saver: every colour as grey")
    p.add_argument("--combine", action="store_true",
                   help="also put all the named decks in one combined-sheets.pdf, packed card size by card size")


def layout_from_args(project: Project, args, mode: str | None = None) -> Layout:
    papers = load_papers(project)
    try:
        paper = parse_paper(args.paper or "a4", papers)
        return Layout(paper, mode=mode or getattr(args, "layout", "duplex"), flip=args.flip,
                      margin=args.margin, gap=getattr(args, "gap", 0.0),
                      bleed=3.175 if getattr(args, "bleed", False) else 0.0,
                      offset=parse_offset(args.offset),
                      crop_marks=getattr(args, "crop_marks", True), cut_lines=getattr(args, "cut_lines", False),
                      registration=getattr(args, "registration", False))
    except LayoutError as exc:
        raise _cli_error(str(exc)) from None


def sheet_options_from_args(project: Project, args):
    from .pdf import SheetOptions
    if args.copies < 1:
        raise _cli_error(f"--copies must be 1 or more, not {args.copies}")
    return SheetOptions(layout_from_args(project, args), args.copies, args.greyscale)


def extra_sheet_options(project: Project, args, options) -> list:
    """A plain ``build`` (no --paper) also writes US Letter sheets beside the A4 ones."""
    from dataclasses import replace
    if args.paper is not None:
        return []
    letter = parse_paper("letter", load_papers(project))
    return [("letter", replace(options, layout=replace(options.layout, paper=letter)))]


def check_fits(decks, options) -> None:
    """Raise a one-line error, before anything is written, if a deck's cards do not fit the layout."""
    from .faces import geometry
    from .sheets import cards_per_page
    for deck in decks:
        g = geometry(deck)
        try:
            cards_per_page(g.trim_w, g.trim_h, options.layout, g.bleed)
        except LayoutError as exc:
            raise AetherpressError(Problem(deck.source, f"{exc}; choose larger paper (--paper) or a smaller card size",
                                           key="deck.size")) from None


class ProgressBar:
    """A one-line bar on stderr, drawn only when stderr is a terminal (and not too often)."""

    def __init__(self, label: str, stream=None):
        self.label = label
        self.stream = stream or sys.stderr
        self.active = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total <= 0:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = int(width * done / total)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r" + " " * (len(self.label) + 45) + "\r")
            self.stream.flush()
            self._drawn = False
