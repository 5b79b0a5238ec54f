"""The registry of a rulebook's block kinds: the pictures a book's Markdown places by address.

An image in a book's Markdown names what it draws by its address,
``KIND:PATH?QUERY`` (``card:imperial/magist?w=20``).  Each kind is one module
of this package that registers itself here as it loads (:func:`register`):
its name, how its address is written and what it draws (as the README's table
says: the table is checked against :data:`BLOCK_KINDS`), and the function that
draws one picture from a :class:`PictureRequest`.  The converter
(:mod:`..flow`) looks kinds up here, so adding one is adding one module (and
its line in the package's face).  The registry lies below its members, so a
member importing it makes no cycle.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from reportlab.platypus import Flowable

from ...errors import AetherpressError
from ..cardart import CardLibrary
from ..markup import SourceMap

ChartFor = Callable[[str, str | None, str | None, list[str], ET.Element], Flowable]


@dataclass(frozen=True)
class PictureRequest:
    """One picture a book asks for: its address split up (``path`` after ``KIND:``, unquoted; ``params`` of its
    query), its width in mm (``?w=``, checked), the block that holds it (for errors, by source line), and what the
    book has to draw with: its decks' cards (``library``) and its charts (``chart_for``)."""

    src: str
    path: str
    params: Mapping[str, str]
    width: float
    block: ET.Element
    library: CardLibrary
    source: SourceMap
    chart_for: ChartFor

    def error(self, message: str) -> AetherpressError:
        """A problem with this picture, at its line of the book's source."""
        return self.source.error(self.block, f"image '{self.src}': {message}")


@dataclass(frozen=True)
class BlockKind:
    """One kind of picture (see the module's text); ``alone``: set by itself as wide as the text, with its
    legend above it (a chart), never in a row of pictures."""

    name: str
    address: str  # how its address is written, as the README's table shows it
    draws: str  # what it draws, as the README's table says it
    draw: Callable[[PictureRequest], Flowable]
    alone: bool = False


BLOCK_KINDS: dict[str, BlockKind] = {}  # by name, in the order their modules load (the README's order)


def register(kind: BlockKind) -> BlockKind:
    """Add ``kind`` to the registry (a second kind of one name is a mistake, said at once)."""
    if kind.name in BLOCK_KINDS:
        raise ValueError(f"two block kinds named '{kind.name}'")
    BLOCK_KINDS[kind.name] = kind
    return kind


def kinds_said() -> str:
    """The kinds as an error message lists them: ``card:, back:, hand: or chart:``."""
    names = [f"{name}:" for name in BLOCK_KINDS]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def kinds_table() -> str:
    """The README's table of block kinds, as the registry has them."""
    rows = ["| address | draws |", "| --- | --- |"]
    rows += [f"| `{kind.address}` | {kind.draws} |" for kind in BLOCK_KINDS.values()]
    return "\n".join(rows)
