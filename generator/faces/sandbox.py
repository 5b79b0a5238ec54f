"""The sandbox card templates run in: a Jinja2 environment with drawing helpers and nothing else.

Templates see the values they are given and these helpers: ``symbol`` and
``symbols`` (vector symbols), ``art`` and ``shade`` (art in several colours), ``fit`` (shrink-and-wrap text into a box),
``box``, ``pips``, ``around`` and ``scatter`` (places), ``wrap`` and
``text_width`` (measuring), ``keep`` (a box that must stay in the safe zone),
``marks``, ``pick`` and ``image``; the ``mm`` filter writes a length, the ``family``
filter a font family as ``font-family`` must name it (in CSS quotes).  They
cannot reach files (beyond other templates), the environment or Python internals.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Protocol

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from ..art.layered import art_svg, shade
from ..art.symbols import symbol_svg, symbols_svg
from ..errors import AetherpressError, Problem, display_path
from ..geometry import Box
from ..locations import real
from ..project import Project
from ..resources.fonts import css_family, text_width
from ..resources.limits import MAX_TEMPLATE_CHARS, LimitedSandbox, LimitExceeded
from ..units import decimal
from .places import around, pip_layout, scatter
from .textfit import Fitted
from .undefined import NamedUndefined


class _Drawing(Protocol):
    """What the helpers ``fit``, ``keep`` and ``image`` report to: the renderer of the current card."""

    def fit(
        self, field: str, text: Any, box: Box, family: str, max_size: float, min_size: float | None = None, **options: Any
    ) -> Fitted: ...

    def keep(self, field: str, box: Box) -> str: ...

    def image(self, path: Any, width: float | None = None, height: float | None = None) -> str: ...

    def text_width(self, text: Any, family: str, size: float, weight: str = "normal", style: str = "normal") -> float: ...


# The renderer drawing the current card.  Kept out of the template context so
# templates cannot reach it.
CURRENT: ContextVar[_Drawing] = ContextVar("aetherpress_face_renderer")


def _fit(*args: Any, **kwargs: Any) -> Fitted:
    return CURRENT.get().fit(*args, **kwargs)


def _keep(field: str, box: Box) -> str:
    return CURRENT.get().keep(field, box)


def _image(path: Any, width: float | None = None, height: float | None = None) -> str:
    return CURRENT.get().image(path, width, height)


def _text_width(text: Any, family: str, size: float, weight: str = "normal", style: str = "normal") -> float:
    """The width of ``text`` in the current card's fonts (the project's own included)."""
    drawing = CURRENT.get(None)
    if drawing is None:
        return text_width(str(text), family, size, weight, style)
    return drawing.text_width(text, family, size, weight, style)


def wrap(text: str, family: str, size: float, width: float, weight: str = "normal", style: str = "normal") -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` (same units as size)."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if line and _text_width(trial, family, size, weight, style) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def marks(suits: Any) -> list[tuple[str, str]]:
    """(symbol, colour) of each suit: what a corner index shows."""
    return [(s.symbol, s.colour) for s in suits]


def pick(options: Any, key: Any) -> Any:
    """One of ``options`` chosen by a stable hash of ``key`` (the same on every run and machine)."""
    options = list(options)
    return options[zlib.crc32(str(key).encode("utf-8")) % len(options)]


def family(value: Any) -> str:
    """A font family for a ``font-family`` attribute written by hand: ``'Source Sans 3'``, in CSS quotes."""
    return css_family(str(value))


def mm(value: Any) -> str:
    """A length for an SVG attribute: at most three decimals, no trailing zeros."""
    return decimal(float(value))


class ConfinedLoader(jinja2.FileSystemLoader):
    """Templates from a list of folders, each of which must stay inside its root (links resolved)."""

    def __init__(self, places: tuple[tuple[str, str], ...]):
        super().__init__([folder for folder, _ in places])
        self.roots = tuple(real(root) for _, root in places)

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        source, filename, uptodate = super().get_source(environment, template)
        if not any(real(filename).is_relative_to(root) for root in self.roots):
            raise OutsideProject(template)
        if len(source) > MAX_TEMPLATE_CHARS:
            raise LimitExceeded(f"uses a template of more than {MAX_TEMPLATE_CHARS:,} characters ('{template}')")
        return source, filename, uptodate


class OutsideProject(jinja2.TemplateNotFound):
    """A template that is a link to a file outside the project and the built-in data."""


def environment(project: Project) -> ImmutableSandboxedEnvironment:
    """The sandboxed environment of the project's template folders: one per command (kept in the project's
    readings), so its templates compile once per command."""
    places = tuple((str(layer.templates), str(layer.root)) for layer in project.layers)
    return project.readings.get("templates", places, lambda: _environment(places))


def _environment(places: tuple[tuple[str, str], ...]) -> ImmutableSandboxedEnvironment:
    """A sandboxed environment over ``places``, (folder, root) pairs: templates come from the folders in order
    and must lie in their root."""
    env = LimitedSandbox(
        loader=ConfinedLoader(places),
        autoescape=True,
        undefined=NamedUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(
        symbol=symbol_svg,
        symbols=symbols_svg,
        art=art_svg,
        shade=shade,
        wrap=wrap,
        text_width=_text_width,
        Markup=Markup,
        fit=_fit,
        box=Box,
        pips=pip_layout,
        keep=_keep,
        pick=pick,
        around=around,
        scatter=scatter,
        marks=marks,
        image=_image,
    )
    env.filters["mm"] = mm
    env.filters["family"] = family
    return env


def template_line(exc: BaseException) -> int | None:
    """The line of the template where ``exc`` was raised, from its traceback."""
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".svg.j2"):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def template_error(
    exc: Exception,
    file: str,
    line: int | None,
    subject: str,
    failed: str,
    after: str = "",
    own: Callable[[Exception], Problem | None] = lambda exc: None,
) -> AetherpressError:
    """The one-line error for ``exc``, raised compiling or running a template of ``file`` (at ``line``).

    ``subject`` names what ran (``template``), ``after`` ends the cases that say where (`` (drawing card 'x' ...)``)
    and ``failed`` opens the message of an error raised by the template's own expressions; ``own`` words the
    caller's own cases (a missing name, a missing file), giving None for the rest.
    """
    problem = own(exc)
    if problem is not None:
        return AetherpressError(problem)
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = display_path(exc.filename) if exc.filename else file
        return AetherpressError(Problem(where, f"template syntax error: {exc.message}", exc.lineno))
    if isinstance(exc, jinja2.exceptions.SecurityError):
        message = f"template tried something not allowed: {exc}{after}"
    elif isinstance(exc, LimitExceeded):
        message = f"{subject} {exc}{after}; see the limits in the README"
    elif isinstance(exc, MemoryError):
        message = f"{subject} used more memory than allowed{after}; see the limits in the README"
    elif isinstance(exc, RecursionError):
        message = f"{subject} nests or recurses too deeply{after}"
    else:  # an error raised inside the template's own expressions
        message = f"{failed}: {exc}"
    return AetherpressError(Problem(file, message, line))


def template_path(env: ImmutableSandboxedEnvironment, name: str) -> Path | None:
    """The file a template name loads from (the project's first)."""
    loader = env.loader
    for folder in getattr(loader, "searchpath", []):
        path = Path(folder) / name
        if path.is_file():
            return path
    return None
