"""What one command reads of a project, read once and handed down: its definitions, games and books.

A command makes one :class:`ProjectContext` and hands it to what it runs
(validation, a build and its tasks, the preview, a rulebook).  Each file is
read once per context: a deck file is looked at for its kind once, and read
as a deck once, however many of the stages ask for the decks.  A build's
workers each make the context of the build's files once (see
:func:`generator.pipeline.tasks.context_of`); a context is never changed
after it is read, so a command that runs again after an edit (the preview,
``build --watch``) makes a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..definitions import DeckDefinition, deck_language, definition_kind, load_all, load_definition, parse_deck_spec
from ..definitions.model import Card, Deck
from ..faces.drawn import DrawnSides
from ..faces.render import FaceRenderer
from ..locations import real
from ..project import Project
from .keptsides import Sides
from .store import JSON, Codec, Store

if TYPE_CHECKING:  # the games (with numpy) and the books (with reportlab's layout) are loaded by the commands that use them
    from ..hands import Game, Hands
    from ..rulebook import BuildContext
    from ..rulebook.definition import RulebookDefinition


class ProjectContext:
    """A project as one command reads it (see the module's text).

    ``check_games``: check each game against its deck when the games are read (a build's workers leave that
    to the process that planned the build, which has checked them).
    """

    def __init__(self, project: Project, check_games: bool = True, store: Store | None = None):
        self.project = project
        self.store = store or Store(project)
        self.check_games = check_games
        self._kinds: dict[Path, str | None] = {}
        self._decks: dict[str, Deck] = {}
        self._sides: dict[tuple[str, bool, float | None, bool], Sides] = {}
        self._books: dict[bool, BuildContext] = {}
        self._files: dict[Path, Any] = {}

    def kind_of(self, path: Path) -> str | None:
        """The kind of definition ``path`` holds, looked at once."""
        key = real(path)
        if key not in self._kinds:
            self._kinds[key] = definition_kind(path)
        return self._kinds[key]

    def definition_at(self, path: Path) -> DeckDefinition:
        """The deck file at ``path``, read once."""
        key = real(path)
        if key not in self._files:
            self._files[key] = load_definition(path, self.project)
        found: DeckDefinition = self._files[key]
        return found

    def game_at(self, path: Path) -> Game:
        """The game file at ``path``, read once (not checked against its deck)."""
        from ..hands.games import load_game  # see TYPE_CHECKING above

        key = real(path)
        if key not in self._files:
            self._files[key] = load_game(path, self.project)
        found: Game = self._files[key]
        return found

    @cached_property
    def definitions(self) -> dict[str, DeckDefinition]:
        """Every deck definition of the project and the built-in data, by deck id."""
        return load_all(self.project, self.definition_at, self.kind_of)

    @cached_property
    def games(self) -> dict[str, Game]:
        """Every game, by id (checked against its decks, unless the context was made not to)."""
        from ..hands import load_games  # see TYPE_CHECKING above

        return load_games(self.project, self.definitions, self.check_games, self.game_at, self.kind_of)

    @cached_property
    def books(self) -> dict[str, RulebookDefinition]:
        """Every rulebook, by book id."""
        from ..rulebook.definition import load_rulebooks  # see TYPE_CHECKING above

        return load_rulebooks(self.project, self.kind_of)

    @cached_property
    def hands(self) -> Hands:
        """The games on their decks, with their counted tables kept in the store."""
        from ..hands import Hands  # see TYPE_CHECKING above

        return Hands(self.definitions, self.games, self._keep)

    def _keep(self, kind: str, inputs: Any, make: Any, load: Any) -> dict:
        found: dict = self.store.memo(kind, inputs, make, Codec(JSON.dump, load))
        return found

    def deck(self, key: str) -> Deck:
        """A deck by its key (``imperial``, ``imperial:ministry+labelled@de``), built from its definition once."""
        if key not in self._decks:
            from ..rulebook.oddsline import with_odds_lines  # see TYPE_CHECKING above

            deck_id, variants = parse_deck_spec(key)
            self._decks[key] = with_odds_lines(self.definitions[deck_id].build(variants, deck_language(key)), self.hands)
        return self._decks[key]

    def adopt(self, deck: Deck) -> None:
        """Take ``deck`` as the deck of its key (built already by the caller)."""
        self._decks[deck.key] = deck

    def sides(self, deck: Deck, draft: bool = False, bleed: float | None = None, keep: bool = True) -> Sides:
        """The deck's sides, kept in the store: every command that writes or shows a card asks here.

        ``draft``: a text that does not fit is drawn in red; ``bleed``: mm round the trim (default: the style's);
        ``keep=False``: sides kept already are read, none is kept anew (a check).  The face renderer is made
        here (:meth:`renderer`), once per deck and way of drawing in this context.
        """
        key = (deck.key, draft, bleed, keep)
        found = self._sides.get(key)
        if found is None or found.deck is not deck:
            store = self.store if keep else self.store.reader()
            found = self._sides[key] = Sides(store, deck, self.renderer(deck, draft, bleed))
        return found

    def renderer(self, deck: Deck, draft: bool = False, bleed: float | None = None) -> FaceRenderer:
        """A new face renderer of ``deck``: the one place one is made.  Outputs take sides (:meth:`sides`); a
        renderer of its own is for what measures a drawing as it happens (how full a card's texts are)."""
        return FaceRenderer(self.project, deck, bleed=bleed, draft=draft)

    def kept_bytes(self, kind: str, inputs: Any, make: Callable[[], bytes]) -> bytes:
        """What ``make`` returns for ``inputs``, kept in the store under ``kind`` (a press piece, say)."""
        return self.store.memo_bytes(kind, inputs, make)

    def piece(self, sides: DrawnSides, card: Card | None, side: str) -> bytes:
        """The piece (one-page PDF) of a side of ``sides``' deck, kept in the store under the key a build keeps it
        by: a side a build printed is not drawn again for its picture, nor the reverse."""
        from .keptpieces import Pieces  # the pieces' drawing (reportlab, svg2pdf) loads when a piece is asked for

        return Pieces(self.store, [sides]).pdf(0, card, side)

    def book_context(self, draft: bool = False) -> BuildContext:
        """What the books of one build share: their decks, card pictures and odds."""
        from ..rulebook import BuildContext  # see TYPE_CHECKING above

        if draft not in self._books:
            self._books[draft] = BuildContext.create(self.project, self.hands, self.sides, draft)
        return self._books[draft]
