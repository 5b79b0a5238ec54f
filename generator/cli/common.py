"""What several commands share: reading lengths and numbers, naming decks, paper and print options."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..definitions import Deck, load_all, parse_deck_spec
from ..definitions.languages import untranslated
from ..definitions.presets import Paper, load_papers, parse_paper
from ..definitions.schema import suggest
from ..errors import AetherpressError, Problem, display_path
from ..imposition.grids import LayoutError
from ..imposition.layout import DARK_GAPS, FLIPS, LAYOUTS, Layout
from ..locations import RULEBOOKS, real
from ..project import Project
from ..resources.limits import MAX_COPIES
from ..units import UnitError, format_mm, to_mm

if TYPE_CHECKING:  # the sheets stage is loaded by the commands that print
    from ..render.sheetpdf import SheetOptions

_MAX_OFFSET = 50.0  # mm
_MAX_MARGIN = 100.0  # mm


def examples(p: argparse.ArgumentParser, *lines: str) -> None:
    """Show these command lines (each with what it does after a #) under the command's --help."""
    p.epilog = "examples:\n" + "\n".join(f"  {line}" for line in lines)
    p.formatter_class = argparse.RawDescriptionHelpFormatter


def cli_error(message: str) -> AetherpressError:
    return AetherpressError(Problem("command line", message))


def length(maximum: float) -> Callable[[str], float]:
    """An argparse type: a length in mm (or with a unit: 3mm, 0.125in, 9pt)."""

    def parse(text: str) -> float:
        try:
            return to_mm(text, what="the length", maximum=maximum)
        except UnitError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def whole(lowest: int, highest: int) -> Callable[[str], int]:
    """An argparse type: a whole number within bounds."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if not lowest <= value <= highest:
            raise argparse.ArgumentTypeError(f"must be {lowest} to {highest:,}, not {value}")
        return value

    return parse


def number(lowest: float, highest: float) -> Callable[[str], float]:
    """An argparse type: a finite number within bounds."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not (math.isfinite(value) and lowest <= value <= highest):
            raise argparse.ArgumentTypeError(f"must be {lowest:g} to {highest:g}, not {text}")
        return value

    return parse


def _parse_offset(text: str) -> tuple[float, float]:
    parts = text.replace(";", ",").split(",")
    try:
        dx, dy = (float(p) for p in parts)
    except ValueError:
        raise cli_error(f"--offset '{text}' is not DX,DY in millimetres (e.g. 0.5,-1)") from None
    if not (math.isfinite(dx) and math.isfinite(dy)):
        raise cli_error(f"--offset '{text}' must be two finite numbers of millimetres")
    if abs(dx) > _MAX_OFFSET or abs(dy) > _MAX_OFFSET:
        raise cli_error(f"--offset '{text}' is more than {_MAX_OFFSET:g} mm; the offset is in millimetres")
    return dx, dy


def output_folder(path: Path) -> Path:
    """The ``--out`` folder (or the project's output/), refused if it is a file; made when first written to."""
    folder = real(path)
    blocked = next((f for f in (folder, *folder.parents) if f.exists()), None)
    if blocked is not None and not blocked.is_dir():
        raise AetherpressError(Problem(display_path(path), "the output folder is a file; choose a folder with --out"))
    return folder


def check_slugs(decks: list[Deck]) -> None:
    """Two decks (with variants) must not share an output folder, even in letter case."""
    seen: dict[str, str] = {}
    for deck in decks:
        if deck.slug.lower() == RULEBOOKS:
            raise cli_error(f"deck '{deck.key}' would write {deck.slug}/, where the rulebooks go; give the deck another id")
        other = seen.setdefault(deck.slug.lower(), deck.key)
        if other != deck.key:
            raise cli_error(f"'{other}' and '{deck.key}' would both write {deck.slug}/; build them one at a time")


def resolve_decks(
    project: Project,
    specs: list[str],
    definitions: dict | None = None,
    languages: Sequence[str] | None = ("",),
    context: Any = None,
) -> list[Deck]:
    """The decks named on the command line (default: every deck of the project in every variant), variants applied,
    in each of ``languages`` ("" or the source language's code: the source; None: the source and every edition);
    a game's spell cards with their odds lines (see :func:`~generator.rulebook.oddsline.with_odds_lines`), counted
    with ``context``'s games (by default, a context of the project's own)."""
    decks = _resolved(project, specs, definitions, languages)
    # the command's modules load when it runs, not for --help
    from ..pipeline.context import ProjectContext
    from ..rulebook.oddsline import with_odds_lines

    try:
        hands = (context or ProjectContext(project, check_games=False)).hands
        return [with_odds_lines(deck, hands) for deck in decks]
    except AetherpressError:  # a game that cannot be read: its own command says why; the cards go without odds lines
        return decks


def _resolved(project: Project, specs: list[str], definitions: dict | None, languages: Sequence[str] | None) -> list[Deck]:
    from ..pipeline.build import all_targets, edition_choice

    definitions = load_all(project) if definitions is None else definitions
    if specs:
        decks = []
        for spec in specs:
            deck_id, variants = parse_deck_spec(spec)
            if deck_id not in definitions:
                raise cli_error(f"unknown deck '{deck_id}'{suggest(deck_id, definitions)}; decks: {', '.join(definitions)}")
            chosen = edition_choice(definitions[deck_id], languages)
            if languages and not chosen:
                definition = definitions[deck_id]
                raise cli_error(
                    f"deck '{deck_id}' is not published in {', '.join(languages)}; its languages: "
                    + ", ".join([definition.base.language, *definition.editions])
                )
            decks += [definitions[deck_id].build(variants, language) for language in chosen]
        return decks
    own = {k: d for k, d in definitions.items() if project.layer_of(d.path) is project.own}
    # every variant (and edition) applied before anything is written
    return [t.deck for t in all_targets(own, languages)]


def add_language_argument(p: argparse.ArgumentParser, default_help: str) -> None:
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG[,LANG...]",
        help=f"the editions to make, by language code (de, fr, or a deck's source language: en); {default_help}",
    )
    p.add_argument(
        "--strict-lang",
        action="store_true",
        help="a card text with no translation in an edition's language is an error (default: printed in the source language)",
    )


def languages_from_args(args: argparse.Namespace, every: bool) -> list[str] | None:
    """The languages ``--lang`` names; without it, every edition (``every``) or just the source language."""
    if not getattr(args, "lang", None):
        return None if every else [""]
    codes = [code.strip() for code in args.lang.split(",") if code.strip()]
    if not codes:
        raise cli_error("--lang names no language (give codes such as de or en,de)")
    return codes


def check_translated(decks: list[Deck], args: argparse.Namespace) -> None:
    """With ``--strict-lang``, every card text of an edition printed untranslated is an error (all told at once)."""
    if getattr(args, "strict_lang", False):
        problems = [p for deck in decks for p in untranslated(deck)]
        if problems:
            raise AetherpressError(problems)


def add_jobs_arguments(p: argparse.ArgumentParser) -> None:
    """Where the work runs: processes on this machine, or a Dask cluster."""
    p.add_argument(
        "--jobs",
        type=whole(1, 1024),
        default=None,
        metavar="N",
        help="run N tasks at once in separate processes (default: one per core; 1 runs everything in this process)",
    )
    p.add_argument(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="run the tasks on a Dask cluster instead (tcp://HOST:PORT; needs pip install 'aetherpress[dask]')",
    )


# --- paper and sheets ---------------------------------------------------------


def add_paper_arguments(p: argparse.ArgumentParser, default_help: str) -> None:
    p.add_argument(
        "--paper",
        default=None,
        metavar="PAPER",
        help=f"a4, letter, a3, legal, tabloid, a5 (add :landscape), or a size such as 210x297mm or 8.5x11in ({default_help})",
    )
    p.add_argument(
        "--flip", choices=FLIPS, default="long", help="duplex: the printer turns the sheet over its long (default) or short edge"
    )
    p.add_argument(
        "--offset",
        default="0,0",
        metavar="DX,DY",
        help="move the back pages by DX,DY mm to correct a printer's duplex offset, as measured with the calibration page",
    )
    p.add_argument(
        "--margin",
        type=length(_MAX_MARGIN),
        default=6.0,
        metavar="MM",
        help="unprinted border at the paper's edge (default 6 mm); crop marks, when drawn, lie inside it",
    )


def add_sheet_arguments(p: argparse.ArgumentParser) -> None:
    """The print-sheet options of ``aetherpress build``."""
    add_paper_arguments(p, "default: a4; a build without --paper also writes letter sheets")
    p.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="duplex",
        help="grid (fronts only), duplex (a backs page after each fronts page; default) or "
        "gutterfold (fronts and backs either side of a fold line)",
    )
    p.add_argument(
        "--bleed",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep each card's own bleed (its style's bleed, 3 mm by default) on the sheet, "
        "so cards are cut one by one; default: kept for decks dark at their edges (style key edge), "
        "where a miscut would show a sliver of paper or of the next card, and trimmed for the others",
    )
    p.add_argument(
        "--gap",
        type=length(_MAX_MARGIN),
        default=None,
        metavar="MM",
        help="space between cards (default: 0, one cut serving two cards; for decks dark at their edges, "
        f"the widest of {', '.join(format_mm(g) for g in DARK_GAPS)} mm that costs no card a page)",
    )
    p.add_argument(
        "--shared-bleed",
        action="store_true",
        help="neighbouring cards share one cut, and the block's outer edges keep the cards' bleed "
        "(as much as fits): 9 poker cards on A4",
    )
    p.add_argument(
        "--crop-marks", action=argparse.BooleanOptionalAction, default=True, help="thin cut marks outside the cards (default: on)"
    )
    p.add_argument("--cut-lines", action="store_true", help="outline every card for a cutting machine")
    p.add_argument("--registration", action="store_true", help="registration targets at the grid's corners")
    p.add_argument(
        "--copies",
        type=whole(1, MAX_COPIES),
        default=1,
        metavar="N",
        help=f"print every card N times (1 to {MAX_COPIES:,})",
    )
    p.add_argument("--greyscale", action="store_true", help="ink saver: every colour as grey")


def paper_from_args(project: Project, args: argparse.Namespace) -> Paper:
    try:
        return parse_paper(args.paper or "a4", load_papers(project))
    except ValueError as exc:
        raise cli_error(str(exc)) from None


def _bleed(asked: bool | None) -> float | None:
    """The layout's bleed for ``--bleed``, ``--no-bleed`` or neither (None: by each deck's edges)."""
    return None if asked is None else math.inf if asked else 0.0


def layout_from_args(project: Project, args: argparse.Namespace, mode: str | None = None) -> Layout:
    paper = paper_from_args(project, args)
    try:
        return Layout(
            paper,
            mode=mode or str(getattr(args, "layout", "duplex")),
            flip=args.flip,
            margin=args.margin,
            gap=getattr(args, "gap", 0.0),
            bleed=_bleed(getattr(args, "bleed", False)),
            shared=getattr(args, "shared_bleed", False),
            offset=_parse_offset(args.offset),
            crop_marks=getattr(args, "crop_marks", True),
            cut_lines=getattr(args, "cut_lines", False),
            registration=getattr(args, "registration", False),
        )
    except LayoutError as exc:
        raise cli_error(str(exc)) from None


def _paper_suffix(paper: Paper) -> str:
    """What a sheets file's name carries for its paper: nothing for A4, ``-letter``, ``-a3-landscape`` ..."""
    name = re.sub(r"[^a-z0-9.]+", "-", paper.name.lower()).strip("-.") or "paper"
    return "" if name == "a4" else f"-{name}"


def sheet_options(project: Project, args: argparse.Namespace) -> list[tuple[str, SheetOptions]]:
    """(file suffix, options) of every sheets PDF a build writes: A4 and Letter unless --paper names one."""
    # the command's modules load when it runs, not for --help
    from ..render.sheetpdf import SheetOptions

    options = SheetOptions(layout_from_args(project, args), args.copies, args.greyscale, getattr(args, "draft", False))
    if args.paper is not None:
        return [(_paper_suffix(options.layout.paper), options)]
    letter = parse_paper("letter", load_papers(project))
    return [("", options), ("-letter", replace(options, layout=replace(options.layout, paper=letter)))]
