"""The data layer of a rulebook source: Jinja2 in a sandbox, before Markdown.

A source sees:
- ``deck(spec)``: a deck by id and variants (``deck('imperial:academy')``), with
  ``.cards``, ``.suits``, ``.ranks``, ``.rank(id)``, ``.suit(id)``, ``.card(id)``;
- ``odds(game, ranking=None, deck=None, modifiers=())``: the hand-ranking engine's table
  (under spells or house rules: exact, or simulated with its 95 % intervals);
- ``game_notes(game)``: the readings a game's ranking data rests on (its ``notes``);
- ``modifiers(game)``: a game's modifiers (spells, house rules) by id;
- ``rows(game)``: a game of rows (Fivefold Arrangement): every kind of row of each setup;
- ``book``: the rulebook definition (``title``, ``games`` ...);
- filters ``count`` (1,234), ``probability`` (12.3 %), ``one_in`` (1 in 8.1),
  ``cell`` (text made safe inside a Markdown table cell), ``sort_by_value``,
  ``interval`` (1.2 % to 1.4 %), ``points`` (3.02) and ``change`` (``odds(game, modifiers=[id]) | change(odds(game))``:
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
from ..faces.sandbox import ConfinedLoader, OutsideProject
from ..resources.limits import LimitedSandbox, LimitExceeded, deadline, render_bounded, rulebook_seconds
from .bookodds import OddsSource, format_count, format_interval, format_one_in, format_points, format_probability
from .cardart import CardLibrary
from .definition import RulebookDefinition
from .oddsline import change_line

MAX_SOURCE_BYTES = 1_000_000
MAX_RENDERED_CHARS = 4_000_000


def _cell(value: Any) -> str:
    return " ".join(str(value).split()).replace("|", "\\|")


def render_source(book: RulebookDefinition, library: CardLibrary, odds: OddsSource) -> tuple[str, str]:
    """(the source as written, the source after templating)."""
    name = display_path(book.source)
    try:
        if book.source.stat().st_size > MAX_SOURCE_BYTES:
            raise AetherpressError(Problem(name, f"the rulebook source is larger than {MAX_SOURCE_BYTES // 1_000_000} MB"))
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
        rows=lambda game: odds.rows(game, name),
        book=book,
    )
    try:
        with deadline(rulebook_seconds()):  # compiling the source counts too
            template = env.from_string(written)
            template.filename = str(book.source)
            rendered = render_bounded(template.generate(), MAX_RENDERED_CHARS)
    except OutsideProject as exc:
        raise AetherpressError(
            Problem(name, f"'{exc.name}' is a link to a file outside the project", _line(exc, book.source))
        ) from None
    except jinja2.TemplateNotFound as exc:
        raise AetherpressError(
            Problem(
                name,
                f"'{exc.name}' is not a file in the rulebook's folder (includes stay inside the project)",
                _line(exc, book.source),
            )
        ) from None
    except jinja2.TemplateSyntaxError as exc:
        raise AetherpressError(Problem(name, f"template syntax error: {exc.message}", exc.lineno)) from None
    except jinja2.UndefinedError as exc:
        message = re.sub(
            r"'generator\.[\w.]*\.(\w+) object'", lambda m: f"'{m.group(1).lower()}'", exc.message or "undefined value"
        )
        raise AetherpressError(Problem(name, message, _line(exc, book.source))) from None
    except jinja2.exceptions.SecurityError as exc:
        raise AetherpressError(Problem(name, f"template tried something not allowed: {exc}", _line(exc, book.source))) from None
    except LimitExceeded as exc:
        raise AetherpressError(
            Problem(name, f"the rulebook source {exc}; see the limits in the README", _line(exc, book.source))
        ) from None
    except MemoryError as exc:
        raise AetherpressError(
            Problem(
                name, "the rulebook source used more memory than allowed; see the limits in the README", _line(exc, book.source)
            )
        ) from None
    except RecursionError as exc:
        raise AetherpressError(
            Problem(name, "the rulebook source nests or recurses too deeply", _line(exc, book.source))
        ) from None
    except AetherpressError:
        raise
    except UnknownId as exc:
        raise AetherpressError(Problem(name, str(exc), _line(exc, book.source))) from None
    except Exception as exc:
        raise AetherpressError(Problem(name, f"template failed: {exc}", _line(exc, book.source))) from None
    return written, rendered


def _line(exc: BaseException, source: Path) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in (str(source), "<template>"):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
