"""Card faces and backs: Jinja2 templates (in a sandbox) turned into SVG text.

Every face is drawn at trim size plus bleed, in millimetres: the SVG's user
unit is one millimetre and its origin is the bleed corner.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from .errors import AetherpressError, Problem, display_path
from .fonts import text_width
from .model import Card, Deck
from .project import Project
from .symbols import symbol_svg


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, d: float) -> "Box":
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)


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


def geometry(deck: Deck, bleed: float | None = None) -> Geometry:
    style = deck.style
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
    """Renders the faces and backs of one deck to SVG text."""

    def __init__(self, project: Project, deck: Deck, bleed: float | None = None):
        self.project = project
        self.deck = deck
        self.geometry = geometry(deck, bleed)

    @cached_property
    def env(self) -> ImmutableSandboxedEnvironment:
        env = ImmutableSandboxedEnvironment(
            loader=jinja2.FileSystemLoader(str(self.project.templates_dir / "cards")),
            autoescape=True, undefined=jinja2.StrictUndefined,
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        )
        env.globals.update(symbol=symbol_svg, wrap=wrap, text_width=text_width, Markup=Markup)
        env.filters["mm"] = lambda v: f"{float(v):.3f}".rstrip("0").rstrip(".")
        return env

    def _context(self) -> dict[str, Any]:
        g = self.geometry
        return {"deck": self.deck, "style": self.deck.style, "g": g, "full": g.full, "trim": g.trim,
                "safe": g.safe_box}

    def _render(self, template_name: str, card: Card | None) -> str:
        file = f"templates/cards/{template_name}.svg.j2"
        try:
            template = self.env.get_template(f"{template_name}.svg.j2")
            context = self._context()
            if card is not None:
                context["card"] = CardView(self.deck, card)
            return template.render(context)
        except jinja2.TemplateSyntaxError as exc:
            raise AetherpressError(Problem(file, f"template syntax error: {exc.message}", exc.lineno)) from None
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

    def face(self, card: Card) -> str:
        return self._render(self.deck.template_for(card), card)

    def back(self, card: Card | None = None) -> str:
        template = self.deck.back_for(card) if card is not None else self.deck.back_template
        return self._render(template, card)


def _template_line(exc: BaseException) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".svg.j2"):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
