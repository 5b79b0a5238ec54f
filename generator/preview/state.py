"""The decks being previewed: reloaded after every save, only changed sides drawn again.

:meth:`Preview.refresh` reads the definitions afresh and computes every
side's content key (a thousand keys take milliseconds); a side whose key is
the same as before, drawn without problems and with its pictures unchanged,
is kept as it is.  The others wait in :attr:`Preview.pending`, the changed
ones first, and are drawn one by one by :meth:`Preview.draw_next`; pages
hear of each as it is ready.

Only the worker thread calls these methods.  Server threads read
:attr:`Preview.snapshot`, which is replaced whole, never changed in place.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..definitions.model import Deck
from ..definitions.schema import suggestions_afresh
from ..errors import AetherpressError, grouped_lines
from ..faces.render import Geometry
from ..pipeline.context import ProjectContext
from ..pipeline.keptsides import Sides
from ..project import Project
from ..project.digests import digest
from .events import Broadcaster
from .findings import zone_findings
from .pagefonts import PageFonts, page_fonts
from .play import Play
from .sides import FACE, Side, draw, side_list
from .textroom import card_room

_FLUSH_SECONDS = 0.2  # while many sides are being drawn, pages hear of them in batches this often
_FINDINGS_KEPT = 256  # sides whose safe-zone findings (and text measures) are remembered
BANNER_LINES = 12  # problems a page's banner shows: a state event carries these and how many there are in all


@dataclass(eq=False)
class DeckEntry:
    deck: Deck
    faces: Sides
    drafts: Sides  # the sides drawn as drafts: what is shown of a side whose text does not fit
    sides: dict[tuple[str, str], Side] = field(default_factory=dict)  # (kind, name) -> side, faces first

    @property
    def geometry(self) -> Geometry:
        return self.faces.renderer.geometry


@dataclass(frozen=True)
class _Snapshot:
    decks: Mapping[str, DeckEntry]  # by slug, in the order they were chosen
    problems: tuple[str, ...] = ()  # what stopped the definitions from loading, one line each
    structure: str = ""  # changes when decks, cards, titles or sizes change (not when a side is redrawn)
    fonts: PageFonts = PageFonts()  # the shipped and the project's fonts, for the pages

    def entry(self, slug: str) -> DeckEntry | None:
        return self.decks.get(slug)

    def side(self, slug: str, kind: str, name: str) -> Side | None:
        entry = self.decks.get(slug)
        return entry.sides.get((kind, name)) if entry is not None else None


def _structure(decks: Mapping[str, DeckEntry]) -> str:
    return digest(
        [
            (
                slug,
                e.deck.key,
                e.deck.title,
                e.deck.applied,
                vars(e.geometry),
                [(s.kind, s.name, s.card.name if s.kind == "face" and s.card else "") for s in e.sides.values()],
            )
            for slug, e in decks.items()
        ]
    )


class Preview:
    """The decks ``choose`` names (read afresh on every call), their sides, and the pages listening."""

    def __init__(self, project: Project, choose: Callable[[], list[Deck]], events: Broadcaster | None = None):
        self.project = project
        self.context = ProjectContext(project)  # read again on each refresh, with one store for the preview's life
        self.choose = choose
        self.events = events or Broadcaster()
        self.snapshot = _Snapshot({})
        self.pending: deque[tuple[DeckEntry, Side]] = deque()
        self.finished: list[Side] = []
        self.version = 0
        self.refreshes = 0
        self._last_flush = 0.0
        self._told: dict | None = None  # the state the pages last heard (without its version)
        self.loaded = threading.Event()  # set once the definitions were first read (or failed to be)
        self._findings: dict[str, list[str]] = {}  # by side version
        self._room: dict[str, list[dict]] = {}  # how full each text of a face is, by side version
        self.play = Play(project)  # the games, for the table and the decks' statistics

    # --- reading the definitions ---------------------------------------------------

    def refresh(self) -> None:
        """Read the definitions again; keep the sides whose content is unchanged, queue the others."""
        self.refreshes += 1
        suggestions_afresh()
        try:
            self._refresh()
        except AetherpressError as exc:  # keep showing the last good decks, with the problem above them
            self._failed(tuple(dict.fromkeys(f"error: {p}" for p in exc.problems)))
        except Exception as exc:  # a bug or the file system: said as the command line says it, and the preview goes on
            self._failed((f"internal error: {type(exc).__name__}: {exc} (please report it)",))

    def _failed(self, problems: tuple[str, ...]) -> None:
        self.snapshot = _Snapshot(self.snapshot.decks, problems, self.snapshot.structure, self.snapshot.fonts)
        self.loaded.set()
        self.flush()

    def _refresh(self) -> None:
        fonts = page_fonts(self.project)
        decks = self.choose()
        old = self.snapshot.decks
        entries: dict[str, DeckEntry] = {}
        changed: list[tuple[DeckEntry, Side]] = []
        waiting: list[tuple[DeckEntry, Side]] = []
        self.context = context = ProjectContext(self.project, store=self.context.store)  # the files as they stand
        for deck in decks:
            entry = entries[deck.slug] = DeckEntry(deck, context.sides(deck), context.sides(deck, draft=True))
            before = old.get(deck.slug)
            for kind, name, card in side_list(deck):
                key = entry.faces.key(card, "front" if kind == "face" else "back")
                side = before.sides.get((kind, name)) if before is not None else None
                if side is not None and side.key == key and (side.still_current() or not side.settled):
                    side.card = card  # the same content; its row may have moved
                    if not side.settled:
                        waiting.append((entry, side))
                else:
                    previous, side = side, Side(deck.slug, kind, name, card, key)
                    if previous is not None:  # what to show should it fail now: its last drawing without problems
                        good = previous.svg is not None and not previous.problems and not previous.draft
                        side.last_good = previous.svg if good else previous.last_good
                    changed.append((entry, side))
                entry.sides[(kind, name)] = side
        self.pending = deque(changed + waiting)  # what was just edited is drawn first
        self.snapshot = _Snapshot(entries, (), _structure(entries), fonts)
        self.play = Play(self.project)  # the games are read again when next asked for (after the decks they match)
        self.loaded.set()
        self.flush()

    # --- drawing ---------------------------------------------------------------------

    def draw_next(self) -> None:
        """Draw the next waiting side; tell the pages about what is ready now and then."""
        while self.pending:
            entry, side = self.pending.popleft()
            if not side.settled:
                self._draw(entry, side)
                break
        if not self.pending or time.monotonic() - self._last_flush > _FLUSH_SECONDS:
            self.flush()

    def draw_now(self, slug: str, kind: str, name: str) -> Side | None:
        """The side of the current snapshot, drawn first if it is still waiting (a page asked for it)."""
        entry = self.snapshot.entry(slug)
        side = entry.sides.get((kind, name)) if entry is not None else None
        if entry is not None and side is not None and not side.settled:
            self._draw(entry, side)
        return side

    def findings(self, slug: str, kind: str, name: str) -> list[str]:
        """The safe-zone findings of a side of the current snapshot (one that draws without problems)."""
        side = self.draw_now(slug, kind, name)
        entry = self.snapshot.entry(slug)
        if side is None or entry is None or side.problems or side.svg is None:
            return []
        if side.version not in self._findings:
            if len(self._findings) >= _FINDINGS_KEPT:
                self._findings.pop(next(iter(self._findings)))
            self._findings[side.version] = zone_findings(entry.faces, side)
        return self._findings[side.version]

    def text_room(self, slug: str) -> list[dict] | None:
        """How full each text of each face of a deck is (see :mod:`.textroom`), the fullest first; None for no such deck."""
        entry = self.snapshot.entry(slug)
        if entry is None:
            return None
        out = []
        for (kind, _), side in entry.sides.items():
            if kind != FACE or side.card is None:
                continue
            self.draw_now(slug, kind, side.name)  # its version is its drawing's
            if side.version not in self._room:
                if len(self._room) >= _FINDINGS_KEPT * 4:
                    self._room.pop(next(iter(self._room)))
                self._room[side.version] = card_room(self.context.renderer(entry.deck, draft=True), side.card)
            out += [dict(text, card=side.name, name=side.card.name) for text in self._room[side.version]]
        return sorted(out, key=lambda text: (-text["full"], text["card"]))

    def _draw(self, entry: DeckEntry, side: Side) -> None:
        draw(entry.faces, entry.drafts, side)
        self.finished.append(side)

    # --- telling the pages -----------------------------------------------------------

    def problems(self) -> list[str]:
        """Every problem now: the definitions' first, then each side's (the same line said once, and a finding
        drawn for many cards once with how many)."""
        found = list(self.snapshot.problems)
        for entry in self.snapshot.decks.values():
            for side in entry.sides.values():
                found += side.problems
        return grouped_lines(list(dict.fromkeys(found)))

    def state(self) -> dict:
        """The whole state, as ``/api/state`` gives it: every problem."""
        return {"version": self.version, **self.heard(every=True)}

    def heard(self, every: bool = False) -> dict:
        """The state as the pages hear it: the problems the banner shows (or ``every`` one) and how many
        there are, so an event does not grow with the number of cards."""
        problems = self.problems()
        return {
            "structure": self.snapshot.structure,
            "fonts": self.snapshot.fonts.version,
            "waiting": sum(1 for e in self.snapshot.decks.values() for s in e.sides.values() if not s.settled),
            "problems": problems if every else problems[:BANNER_LINES],
            "count": len(problems),
        }

    def flush(self) -> None:
        """Send the pages the sides drawn since last time, and the state if it changed since they heard it
        (problems, sides still waiting): an unchanged state is not sent again."""
        self.version += 1
        if self.finished:
            self.events.publish("sides", {"version": self.version, "sides": [side_json(s) for s in self.finished]})
            self.finished = []
        heard = self.heard()
        if heard != self._told:
            self._told = heard
            self.events.publish("state", {"version": self.version, **heard})
        self._last_flush = time.monotonic()


def side_json(side: Side) -> dict:
    """What a page needs to show a side: where it is, its version (None while waiting) and its problems."""
    return {
        "deck": side.deck,
        "kind": side.kind,
        "name": side.name,
        "v": side.version if side.settled else None,
        "image": side.svg is not None,
        "draft": side.draft,
        "stale": side.stale,
        "problems": list(side.problems),
    }
