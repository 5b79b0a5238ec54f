"""The data layer of a rulebook source: Jinja2 in a sandbox, before Markdown.

A source sees:
- ``deck(spec)``: a deck by id and variants (``deck('imperial:academy')``), with
  ``.cards``, ``.suits``, ``.ranks``, ``.rank(id)``, ``.suit(id)``, ``.card(id)``;
- ``odds(game, ranking=None, deck=None, modifiers=())``: the hand-ranking engine's table
  (under spells or house rules: exact, or simulated with its 99.9 % intervals);
- ``game_notes(game)``: the readings a game's ranking data rests on (its ``notes``);
- ``modifiers(game)``: a game's modifiers (spells, house rules) by id;
- ``rows(game)``: a game of rows (Fivefold Arrangement): every kind of row of each setup;
- ``book``: the rulebook definition (``title``, ``games`` ...);
- filters ``count`` (1,234), ``probability`` (12.3 %), ``one_in`` (1 in 8.1),
  ``cell`` (text made safe inside a Markdown table cell), ``sort_by_value``,
  ``interval`` (1.2 % to 1.4 %), ``bound`` (how far printed figures may lie from the truth, in percentage
  points, rounding included: ``[(p, interval), ...] | bound(decimals)``), ``points`` (3.02) and ``change`` (``odds(game, modifiers=[id]) | change(odds(game))``:
  the biggest change a rule makes to the deal's odds, in a player's words: "A Flush becomes seven times likelier").
Templates cannot reach files outside the book's folder, the environment or
Python internals; a missing name is an error, never an empty string.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2

from ..definitions.model import UnknownId
from ..errors import AetherpressError, Problem, display_path
from ..faces.sandbox import ConfinedLoader, OutsideProject, template_error
from ..resources.limits import LimitedSandbox, deadline, render_bounded, rulebook_seconds
from .bookodds import (
    OddsSource,
    format_bound,
    format_count,
    format_interval,
    format_one_in,
    format_points,
    format_probability,
)
from .cardart import CardLibrary
from .definition import RulebookDefinition
from .oddsline import change_line

_MAX_SOURCE_BYTES = 1_000_000
_MAX_RENDERED_CHARS = 4_000_000


def _cell(value: Any) -> str:
    return " ".join(str(value).split()).replace("|", "\\|")


def render_source(book: RulebookDefinition, library: CardLibrary, odds: OddsSource) -> tuple[str, str]:
    """(the source as written, the source after templating)."""
    name = display_path(book.source)
    try:
        if book.source.stat().st_size > _MAX_SOURCE_BYTES:
            raise AetherpressError(Problem(name, f"the rulebook source is larger than {_MAX_SOURCE_BYTES // 1_000_000} MB"))
        written = book.source.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise AetherpressError(Problem(name, f"cannot read the rulebook source: {exc}")) from None
    root = library.project.layer_of(book.file).root
    env = LimitedSandbox(
        loader=ConfinedLoader(((str(book.source.parent), str(root)),)),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters.update(
        count=format_count,
        probability=format_probability,
        bound=format_bound,
        one_in=format_one_in,
        interval=format_interval,
        points=format_points,
        change=change_line,
        cell=_cell,
        sort_by_value=lambda ranks: sorted(ranks, key=lambda r: r.value),
    )
    env.globals.update(
        deck=lambda spec: library.deck(spec, name),
        odds=lambda game, ranking=None, deck=None, modifiers=(): odds.table(game, ranking, deck, name, modifiers),
        game_notes=lambda game: odds.notes(game, name),
        modifiers=lambda game: odds.modifiers(game, name),
        rows=lambda game: _rows(game, library, odds, name),
        book=book,
    )
    try:
        with deadline(rulebook_seconds()):  # compiling the source counts too
            template = env.from_string(written)
            template.filename = str(book.source)
            rendered = render_bounded(template.generate(), _MAX_RENDERED_CHARS)
    except AetherpressError:
        raise
    except Exception as exc:
        line = _line(exc, book.source)
        raise template_error(
            exc, name, line, "the rulebook source", "template failed", own=lambda e: _problem(e, name, line)
        ) from None
    return written, rendered


def _rows(game: str, library: CardLibrary, odds: OddsSource, where: str) -> dict[str, Any]:
    """A game of rows' setups, their marks and names as the book's language writes the deck's ranks."""
    found = odds.rows(game, where)
    deck = library.deck(getattr(odds.games(where)[game], "deck_id", None) or game, where)
    return {key: setup.in_words_of(deck) for key, setup in found.items()} if deck.edition else found


def _problem(exc: Exception, name: str, line: int | None) -> Problem | None:
    """The problem for a link out of the project, a missing file or name, or an unknown id; None for the rest."""
    if isinstance(exc, OutsideProject):
        return Problem(name, f"'{exc.name}' is a link to a file outside the project", line)
    if isinstance(exc, jinja2.TemplateNotFound):
        return Problem(name, f"'{exc.name}' is not a file in the rulebook's folder (includes stay inside the project)", line)
    if isinstance(exc, jinja2.UndefinedError):
        message = re.sub(
            r"'generator\.[\w.]*\.(\w+) object'", lambda m: f"'{m.group(1).lower()}'", exc.message or "undefined value"
        )
        return Problem(name, message, line)
    if isinstance(exc, UnknownId):
        return Problem(name, str(exc), line)
    return None


def _line(exc: BaseException, source: Path) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in (str(source), "<template>"):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
