"""One card side as the preview knows it, and how it is drawn.

A side is a face (named by its card's id) or a back (named by its template,
as the build names ``backs/<name>.svg``).  Its content key comes from
:class:`~generator.pipeline.keptsides.Sides`: the same key means the same
SVG, so a side is drawn again only when its key changes, when a picture it
loaded changes, or when it could not be drawn last time (a missing picture
may have appeared since).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..definitions.model import Card, Deck
from ..errors import AetherpressError
from ..faces.drawn import DrawnSide
from ..faces.lint import print_problems
from ..pipeline.keptsides import Sides
from ..project.digests import digest, file_digest

FACE, BACK = "face", "back"


@dataclass(eq=False)
class Side:
    """A face or back of a deck being previewed.  Only the worker thread changes it; ``settled`` is set last."""

    deck: str  # the deck's slug
    kind: str  # FACE or BACK
    name: str  # the card's id, or the back's template name
    card: Card | None  # the card it is drawn for (a back: the first card printed with it)
    key: str  # the content key
    svg: str | None = None
    problems: tuple[str, ...] = ()  # one line each, as the command line prints them
    draft: bool = False  # drawn in draft mode to show its problem on the card
    reads: dict[str, str] = field(default_factory=dict)  # pictures it loaded -> their digests
    version: str = ""  # changes whenever what the page shows of it changes
    settled: bool = False  # drawn, or found not drawable
    last_good: str | None = None  # its last drawing without problems, shown while it cannot be drawn
    stale: bool = False  # what is shown is that last good drawing, not the side as it stands

    @property
    def side(self) -> str:
        """The side as :class:`Sides` names it."""
        return "front" if self.kind == FACE else "back"

    def still_current(self) -> bool:
        """Drawn without problems, and every picture it loaded unchanged."""
        return self.settled and not self.problems and all(file_digest(Path(p)) == d for p, d in self.reads.items())


def side_list(deck: Deck) -> list[tuple[str, str, Card | None]]:
    """(kind, name, card) of every face, then every distinct back, in the order the build writes them."""
    sides: list[tuple[str, str, Card | None]] = [(FACE, card.id, card) for card in deck.cards]
    seen: set[str] = set()
    for card in deck.cards:
        name = deck.back_for(card)
        if name not in seen:
            seen.add(name)
            sides.append((BACK, name, card))
    if not deck.cards:
        sides.append((BACK, deck.back_template, None))
    return sides


def _draft_svg(drafts: Sides, side: Side) -> str | None:
    """The side drawn in draft mode (overflowing text shown on the card); None when even that cannot be drawn."""
    try:
        return drafts.side(side.card, side.side).svg
    except AetherpressError:
        return None


def _prints_otherwise(faces: Sides, side: Side, drawn: DrawnSide) -> tuple[str, ...]:
    """What the side draws that the print files cannot draw as the browser does, one line each (as ``validate`` says)."""
    deck = faces.deck
    if side.card is None:  # the back of a deck without cards
        template = deck.back_template
    else:
        template = deck.back_for(side.card) if side.kind == BACK else deck.template_for(side.card)
    what = f"card '{side.name}'" if side.kind == FACE else f"the back '{side.name}'"
    return tuple(f"warning: {p}" for p in print_problems(faces.renderer, template, what, drawn.svg, set(), drawn.differs))


def draw(faces: Sides, drafts: Sides, side: Side) -> None:
    """Draw ``side`` (from the cache when it is there), recording its SVG or its problems (shown on its draft from
    ``drafts``); never raises for bad input."""
    try:
        drawn = faces.side(side.card, side.side)
        side.stale = False
        side.svg, side.problems, side.draft, side.reads = (
            drawn.svg,
            _prints_otherwise(faces, side, drawn),
            False,
            dict(drawn.reads),
        )
    except AetherpressError as exc:
        side.problems = tuple(dict.fromkeys(f"error: {p}" for p in exc.problems))
        draft = _draft_svg(drafts, side)
        side.svg = draft if draft is not None else side.last_good  # else its last good drawing, under the problem
        side.draft = draft is not None
        side.stale = draft is None and side.svg is not None
        side.reads = {}
    except Exception as exc:  # a bug, not bad input: shown like the command line shows it, and the preview goes on
        side.problems = (f"internal error: {type(exc).__name__}: {exc} (please report it)",)
        side.svg, side.draft, side.reads = None, False, {}
    side.version = digest(side.key, side.reads, side.problems, side.svg is None)[:16]
    side.settled = True
