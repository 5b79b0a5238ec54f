"""Card faces and backs: Jinja2 templates (in a sandbox) turned into SVG text.

Every face is drawn at trim size plus bleed, in millimetres: the SVG's user
unit is one millimetre and its origin is the bleed corner.
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import tomllib
import zlib
from contextvars import ContextVar
from functools import lru_cache

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from .errors import AetherpressError, Problem
from .fonts import text_width
from .model import Card, Deck, frozen_mapping
from .project import Project, safe_join
from .symbols import around, pip_layout, scatter, symbol_svg, symbols_svg
from .textfit import Box, Fitted, TextDoesNotFit, fit_lines


@dataclass(frozen=True)
class Geometry:
    """A card's boxes in millimetres, origin at the top-left bleed corner."""
    trim_w: float
    trim_h: float
    bleed: float
    safe: float
    radius: float

    @property
    def width(self) -> float:
        return self.trim_w + 2 * self.bleed

    @property
    def height(self) -> float:
        return self.trim_h + 2 * self.bleed

    @property
    def full(self) -> Box:
        return Box(0.0, 0.0, self.width, self.height)

    @property
    def trim(self) -> Box:
        return Box(self.bleed, self.bleed, self.trim_w, self.trim_h)

    @property
    def safe_box(self) -> Box:
        return self.trim.inset(self.safe)


def geometry(deck: Deck, bleed: float | None = None, style: Mapping[str, Any] | None = None) -> Geometry:
    """The deck's card geometry: trim from its size, bleed, safe zone and corner radius from its style."""
    style = deck.style if style is None else style
    return Geometry(deck.size.width, deck.size.height,
                    float(style.get("bleed", 3.0) if bleed is None else bleed),
                    float(style.get("safe", 3.0)), float(style.get("corner_radius", 0.0)))


def wrap(text: str, family: str, size: float, width: float, weight: str = "normal", style: str = "normal") -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` (same units as size)."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, family, size, weight, style) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


class CardView:
    """What a template sees of a card: plain values, no model internals."""

    def __init__(self, deck: Deck, card: Card):
        self.id = card.id
        self.name = card.name
        self.group = card.group
        self.copies = card.copies
        self.rank = deck.rank(card.rank) if card.rank else None
        self.suits = [deck.suit(s) for s in card.suits]
        self.all_suits = len(card.suits) == len(deck.suits) and len(deck.suits) > 1
        self.attributes = {k: v for k, v in card.attributes.items() if not k.startswith("_")}

    def __getattr__(self, name: str) -> Any:
        attributes = self.__dict__.get("attributes", {})
        if name in attributes:
            return attributes[name]
        raise AttributeError(name)


class FaceRenderer:
    """Renders the faces and backs of one deck to SVG text.

    Templates see the card, the deck, the style, the boxes ``full``, ``trim``
    and ``safe`` and these helpers: ``symbol`` (vector symbols), ``fit``
    (shrink-and-wrap text into a box), ``box``, ``pips`` (pip positions),
    ``wrap`` and ``text_width``.  Every text laid out through ``fit`` is
    recorded in :attr:`text_boxes` for the last card rendered.
    """

    def __init__(self, project: Project, deck: Deck, bleed: float | None = None):
        self.project = project
        self.deck = deck
        self.style = effective_style(project, deck)
        self.geometry = geometry(deck, bleed, self.style)
        self.text_boxes: list[tuple[str, Box]] = []
        self._card: Card | None = None
        self._template = ""

    @property
    def env(self) -> ImmutableSandboxedEnvironment:
        return _environment(str(self.project.templates_dir / "cards"))

    def fit(self, field: str, text: Any, box: Box, family: str, max_size: float, min_size: float | None = None,
            **options: Any) -> Fitted:
        """Lay ``text`` out in ``box``: the largest size down to ``min_size`` at which it fits, wrapped.

        A text that does not fit even at ``min_size`` (default: the style's
        ``min_text_size``) is an error naming the deck, the card and ``field``.
        """
        if min_size is None:
            min_size = float(self.style.get("min_text_size", 2.2))
        options.setdefault("fill", self.style.get("ink", "#000000"))
        try:
            fitted = fit_lines("" if text is None else str(text), box, family, max_size, min_size, **options)
        except TextDoesNotFit as exc:
            card = f"card '{self._card.id}'" if self._card is not None else "the back"
            file, line = self.deck.source, None
            origin = self._card.attributes.get("_origin") if self._card is not None else None
            if isinstance(origin, str) and ":" in origin and origin.rsplit(":", 1)[1].isdigit():
                file, line = origin.rsplit(":", 1)[0], int(origin.rsplit(":", 1)[1])
            raise AetherpressError(Problem(
                file, f"deck '{self.deck.key}', {card}: {field} {exc} "
                f"(template '{self._template}'); shorten it or give it a larger box", line)) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise AetherpressError(Problem(f"templates/cards/{self._template}.svg.j2",
                                           f"fit() for {field}: {exc}")) from None
        self.text_boxes.append((field, fitted.box))
        return fitted

    def image(self, path: Any) -> str:
        """A card image (an ``image`` attribute: a PNG or JPEG beside the deck file) as a data URI.

        Cards may not load files themselves; this is the one way an image gets onto a card.
        """
        from .load import IMAGE_MAGIC, MAX_IMAGE_BYTES
        folder = self.deck.attributes.get("folder")
        target = safe_join(Path(folder), str(path)) if folder and path else None
        where = f"templates/cards/{self._template}.svg.j2"
        if target is None or not target.is_file():
            raise AetherpressError(Problem(where, f"image '{path}' is not a file inside the deck's folder "
                                           f"(drawing card '{self._card.id if self._card else 'back'}')"))
        data = target.read_bytes()[: MAX_IMAGE_BYTES + 1]
        kind = next((k for magic, k in IMAGE_MAGIC.items() if data.startswith(magic)), None)
        if kind is None or len(data) > MAX_IMAGE_BYTES:
            raise AetherpressError(Problem(where, f"image '{path}' is not a PNG or JPEG of at most {MAX_IMAGE_BYTES // 1_000_000} MB"))
        return f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")

    def keep(self, field: str, box: Box) -> str:
        """Record a box that must stay inside the safe zone (e.g. an index symbol); draws nothing."""
        self.text_boxes.append((field, box))
        return ""

    def _context(self) -> dict[str, Any]:
        g = self.geometry
        return {"deck": self.deck, "style": self.style, "g": g, "full": g.full, "trim": g.trim,
                "safe": g.safe_box, "mono": bool(self.style.get("monochrome", False))}

    def _render(self, template_name: str, card: Card | None) -> str:
        file = f"templates/cards/{template_name}.svg.j2"
        self.text_boxes = []
        self._card = card
        self._template = template_name
        token = _CURRENT.set(self)
        try:
            template = self.env.get_template(f"{template_name}.svg.j2")
            context = self._context()
            context["card"] = CardView(self.deck, card) if card is not None else None
            return template.render(context)
        except jinja2.TemplateSyntaxError as exc:
            raise AetherpressError(Problem(exc.filename and f"templates/cards/{Path(exc.filename).name}" or file,
                                           f"template syntax error: {exc.message}", exc.lineno)) from None
        except jinja2.UndefinedError as exc:
            message = re.sub(r"'[\w.]*CardView object'", "'card'", exc.message or "undefined value")
            raise AetherpressError(Problem(file, f"{message} (drawing card '{card.id if card else 'back'}' of deck '{self.deck.id}')", _template_line(exc))) from None
        except jinja2.TemplateNotFound as exc:
            if exc.name == f"{template_name}.svg.j2":
                raise AetherpressError(Problem(self.deck.source, f"template '{template_name}' not found in templates/cards/")) from None
            raise AetherpressError(Problem(file, f"template '{exc.name}' not found in templates/cards/ (drawing card '{card.id if card else 'back'}' of deck '{self.deck.id}')", _template_line(exc))) from None
        except jinja2.exceptions.SecurityError as exc:
            raise AetherpressError(Problem(file, f"template tried something not allowed: {exc} (drawing card '{card.id if card else 'back'}' of deck '{self.deck.id}')", _template_line(exc))) from None
        except AetherpressError:
            raise
        except Exception as exc:  # an error raised inside the template's own expressions
            raise AetherpressError(Problem(file, f"template failed on card '{card.id if card else 'back'}' of deck '{self.deck.id}': {exc}", _template_line(exc))) from None
        finally:
            _CURRENT.reset(token)

    def face(self, card: Card) -> str:
        return self._render(self.deck.template_for(card), card)

    def back(self, card: Card | None = None) -> str:
        template = self.deck.back_for(card) if card is not None else self.deck.back_template
        return self._render(template, card)


def effective_style(project: Project, deck: Deck) -> Mapping[str, Any]:
    """The deck's style over ``templates/styles/default.toml``: a style file names only what it changes."""
    path = project.templates_dir / "styles" / "default.toml"
    if not path.is_file():
        return deck.style
    base = _default_style(str(path), path.stat().st_mtime_ns)
    merged = _merge(base, deck.style)
    return frozen_mapping(merged)


@lru_cache(maxsize=8)
def _default_style(path: str, mtime: int) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise AetherpressError(Problem("templates/styles/default.toml", f"TOML syntax error: {exc}")) from None


def _merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


# The renderer drawing the current card: the template helpers ``fit`` and ``keep``
# report to it.  Kept out of the template context so templates cannot reach it.
_CURRENT: ContextVar["FaceRenderer"] = ContextVar("aetherpress_face_renderer")


def _fit(*args: Any, **kwargs: Any) -> Fitted:
    return _CURRENT.get().fit(*args, **kwargs)


def _keep(field: str, box: Box) -> str:
    return _CURRENT.get().keep(field, box)


def _image(path: Any) -> str:
    return _CURRENT.get().image(path)


@lru_cache(maxsize=8)
def _environment(folder: str) -> ImmutableSandboxedEnvironment:
    """One sandboxed environment per template folder, so templates compile once per process."""
    env = ImmutableSandboxedEnvironment(
        loader=jinja2.FileSystemLoader(folder),
        autoescape=True, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.globals.update(symbol=symbol_svg, symbols=symbols_svg, wrap=wrap, text_width=text_width, Markup=Markup,
                       fit=_fit, box=Box, pips=pip_layout, keep=_keep, pick=pick, around=around, scatter=scatter,
                       marks=_marks, image=_image)
    env.filters["mm"] = _mm
    return env


def _marks(suits: Any) -> list[tuple[str, str]]:
    """(symbol, colour) of each suit: what a corner index shows."""
    return [(s.symbol, s.colour) for s in suits]


def pick(options: Any, key: Any) -> Any:
    """One of ``options`` chosen by a stable hash of ``key`` (the same on every run and machine)."""
    options = list(options)
    return options[zlib.crc32(str(key).encode("utf-8")) % len(options)]


def _mm(value: Any) -> str:
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _template_line(exc: BaseException) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".svg.j2"):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
