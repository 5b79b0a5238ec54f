"""The registry of exports: what an export is, the options it takes, and the exports by name.

An export (``aetherpress export NAME DECK ...``) is one module of this package
that registers itself here as it loads (:func:`register`): its name, a line
of help, what it writes (as the README's table of exports says it), its
options as data, and the function that writes one deck's files.  The command
line builds ``export``'s sub-commands from :data:`EXPORTS`, the README's table
is checked against it, and the tests run every export in it; so adding an
export is adding one module (and its line in the package's face), never
touching the command's code.  The registry lies below its members, so a member
importing it makes no cycle.

A member keeps its drawing modules out of its top level (it imports them in
its ``write``): ``aetherpress --help`` loads every export's registration.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...definitions.model import Deck
from ...definitions.shops import MAX_BLEED, POD_BLEED
from ...errors import AetherpressError, Problem
from ...faces.drawn import SideSource
from ...project import Project
from ...resources.limits import MAX_COPIES
from ...units import MAX_IMAGE_PIXELS, MM_PER_INCH, pixels

KINDS = ("switch", "number", "whole", "length", "choice", "text", "file", "repeat")


@dataclass(frozen=True)
class Option:
    """One option of an export, as data (the command line makes an argparse argument of it).

    ``kind``: ``switch`` (on or off), ``number`` or ``whole`` (within ``low`` to ``high``), ``length`` (mm, or
    with a unit, at most ``high``), ``choice`` (one of ``choices``), ``text``, ``file`` (a path) or ``repeat``
    (a text that may be given again: a list)."""

    flag: str  # "--dpi"
    help: str
    kind: str = "switch"
    default: Any = None
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()
    metavar: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.flag}: unknown kind '{self.kind}' (one of {', '.join(KINDS)})")

    @property
    def dest(self) -> str:
        """The name its value goes by in :attr:`ExportJob.options`."""
        return self.flag.lstrip("-").replace("-", "_")


@dataclass
class ExportJob:
    """One deck to export: where its sides come from (the project context), where its files go, the options
    given (by :attr:`Option.dest`), what :attr:`Export.prepare` made of them, and where to tell progress and
    warnings (one line each)."""

    source: SideSource
    deck: Deck
    folder: Path  # where to write (a staging folder, renamed to ``target`` once every deck is written)
    target: Path  # output/<deck>/<export>/
    options: Mapping[str, Any]
    prepared: Any = None
    progress: Callable[[int, int], None] | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def project(self) -> Project:
        return self.source.project


@dataclass(frozen=True)
class Export:
    """One kind of export (see the module's text).

    ``files``: the names it writes in a deck's folder, as patterns (``*`` any text, ``{slug}`` the deck's slug),
    each written by some deck; the tests hold an export to them.  ``prepare(project, decks, options)`` checks
    the options (raising :class:`~generator.errors.AetherpressError`: see :func:`option_error`) before anything
    is drawn and returns what ``write`` gets as :attr:`ExportJob.prepared`; ``keeps(project, deck, prepared)``
    tells which files of an earlier export into the deck's folder stay (None: none does)."""

    name: str
    help: str
    writes: str
    write: Callable[[ExportJob], list[Path]]
    options: tuple[Option, ...] = ()
    examples: tuple[str, ...] = ()
    files: tuple[str, ...] = ("*",)
    prepare: Callable[[Project, Sequence[Deck], Mapping[str, Any]], Any] | None = None
    keeps: Callable[[Project, Deck, Any], Callable[[str], bool] | None] | None = None


EXPORTS: dict[str, Export] = {}  # by name, in the order their modules load (the order of the help and the README)


def register(export: Export) -> Export:
    """Add ``export`` to the registry (a second export of one name is a mistake, said at once)."""
    if export.name in EXPORTS:
        raise ValueError(f"two exports named '{export.name}'")
    flags = [o.flag for o in export.options]
    if len(set(flags)) != len(flags) or {"--out", "--lang"} & set(flags):
        raise ValueError(f"export '{export.name}': an option twice, or one every export has (--out, --lang)")
    EXPORTS[export.name] = export
    return export


def option_error(message: str) -> AetherpressError:
    """An error in the options given on the command line, one line."""
    return AetherpressError(Problem("command line", message))


def exports_table() -> str:
    """The README's table of exports, as the registry has them."""
    rows = ["| export | what it writes into `output/<deck>/<export>/` |", "| --- | --- |"]
    rows += [f"| `aetherpress export {e.name}` | {e.writes} |" for e in EXPORTS.values()]
    return "\n".join(rows)


# options several exports take, said once


def bleed_option(help_text: str = "bleed round the trim (default 3.175 mm = 1/8 in)") -> Option:
    return Option("--bleed", help_text, "length", POD_BLEED, high=MAX_BLEED, metavar="MM")


def greyscale_option(help_text: str = "every colour as grey") -> Option:
    return Option("--greyscale", help_text, default=False)


def copies_option(what: str) -> Option:
    return Option("--copies", f"every card N times in {what}", "whole", 1, low=1, high=MAX_COPIES, metavar="N")


def dpi_option(default: int, what: str = "resolution") -> Option:
    return Option("--dpi", f"{what} (default {default})", "number", default, low=10, high=1200)


def pictures_fit(project: Project, decks: Sequence[Deck], options: Mapping[str, Any]) -> None:
    """An export's ``prepare`` for card pictures at ``--dpi`` (with ``--bleed`` when it takes one): every picture
    within bounds before anything is drawn."""
    for deck in decks:
        too_large(deck, options.get("bleed", 0.0), options["dpi"], f"--dpi {options['dpi']:g}")


def too_large(deck: Deck, bleed: float, dpi: float, where: str) -> None:
    """A card image of ``deck`` at ``dpi`` with ``bleed`` is at most MAX_IMAGE_PIXELS (a larger one would not fit
    in memory); else a one-line error naming ``where`` the resolution comes from."""
    size = (pixels(deck.size.width + 2 * bleed, dpi), pixels(deck.size.height + 2 * bleed, dpi))
    if size[0] * size[1] > MAX_IMAGE_PIXELS:
        area = (deck.size.width + 2 * bleed) * (deck.size.height + 2 * bleed) / MM_PER_INCH**2
        most = math.floor(math.sqrt(MAX_IMAGE_PIXELS / area))
        raise option_error(
            f"{where}: a card of deck '{deck.key}' would be {size[0]:,} × {size[1]:,} pixels; "
            f"the limit is {MAX_IMAGE_PIXELS // 1_000_000} megapixels an image, at most {most} dpi for its size"
        )
