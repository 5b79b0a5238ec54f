"""Card faces and backs: Jinja2 templates (in a sandbox) turned into SVG text.

Every face is drawn at trim size plus bleed, in millimetres: the SVG's user
unit is one millimetre and its origin is the bleed corner.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from lxml import etree

from ..definitions.images import HEAD_BYTES, KINDS, MAX_IMAGE_BYTES, find_image, image_kind
from ..definitions.languages import described
from ..definitions.model import Card, Deck
from ..definitions.styles import style_value
from ..errors import AetherpressError, Problem, display_path
from ..geometry import Box
from ..project import Project
from ..resources.fonts import font_book, missing_characters
from ..resources.limits import LimitExceeded, deadline, render_bounded, template_seconds
from .bitmaps import PictureError, inline_picture, picture_uri
from .clean import clean_text, clean_tree, name_families, settle_families
from .css import CssError, resolve_css
from .deckreads import reads_deck
from .icons import deck_icons
from .inherit import write_out_references
from .repeats import TooMuchToDraw, needs_writing_out, write_out
from .sandbox import CURRENT, OutsideProject, environment, template_error, template_line, template_path
from .sanitise import SVG_NS, XLINK_NS, sanitise_problems
from .svg import MAX_OUTPUT_CHARS, parse_xml
from .templatewords import SAY
from .textfit import Fitted, TextDoesNotFit, UnknownIcon, fit_lines
from .undefined import explain
from .vectorart import ArtError, art_uri, inline_art

TEMPLATE_SUFFIX = ".svg.j2"


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
    return Geometry(
        deck.size.width,
        deck.size.height,
        float(style_value(style, "bleed") if bleed is None else bleed),
        float(style_value(style, "safe")),
        float(style_value(style, "corner_radius")),
    )


@dataclass(frozen=True)
class _Overflow:
    """A text that does not fit its box even at the smallest size (drawn in red in drafts)."""

    card: str | None  # None: a back
    field: str
    characters: int  # how many characters to cut


class _CardView:
    """What a template sees of a card: plain values, no model internals."""

    def __init__(self, deck: Deck, card: Card):
        self.id = card.id
        self.name = card.name
        self.group = card.group
        self.copies = card.copies
        self.rank = deck.rank(card.rank) if card.rank else None
        self.suits = [deck.suit(s) for s in card.suits]
        self.all_suits = len(card.suits) == len(deck.suits) and len(deck.suits) > 1
        self.attributes = dict(card.attributes)

    def __getattr__(self, name: str) -> Any:
        attributes = self.__dict__.get("attributes", {})
        if name in attributes:
            return attributes[name]
        raise AttributeError(name)


@dataclass(frozen=True)
class LaidText:
    """A text a template laid out with ``fit``: what it asked for and what came of it (for measuring its room)."""

    field: str
    text: str
    box: Box
    family: str
    min_size: float
    options: dict[str, Any]
    fitted: Fitted


class FaceRenderer:
    """Renders the faces and backs of one deck to SVG text.

    Templates see the card, the deck, the style, the boxes ``full``, ``trim``
    and ``safe`` and these helpers: ``symbol`` (vector symbols), ``fit``
    (shrink-and-wrap text into a box), ``box``, ``pips`` (pip positions),
    ``wrap`` and ``text_width``.  Every text laid out through ``fit`` is
    recorded in :attr:`text_boxes` for the last card rendered.
    """

    def __init__(self, project: Project, deck: Deck, bleed: float | None = None, draft: bool = False):
        self.project = project
        self.deck = deck
        self.style = deck.style
        self.geometry = geometry(deck, bleed, self.style)
        self.draft = draft  # draw text that does not fit in red, with how much to cut, instead of stopping
        self.fonts = font_book(project)
        self.fonts.activate()
        self.icons = deck_icons(project, deck.suits, bool(style_value(self.style, "monochrome")))
        self.text_boxes: list[tuple[str, Box]] = []
        self.laid: list[LaidText] = []  # every text the last side laid out with fit(), as it was asked for
        self.overflows: list[_Overflow] = []  # texts of the last card drawn that do not fit (draft only)
        self.reads: list[Path] = []  # the pictures the last side drawn loaded
        self.unknown_fonts: list[str] = []  # what to tell of the fonts the last side named that the project has not got
        self._card: Card | None = None
        self._template = ""
        self._made: set[str] = set()  # the pictures image() wrote for the side being drawn

    @property
    def options(self) -> dict[str, Any]:
        """What, beyond the deck and its card, changes how this renderer draws a side."""
        return {"geometry": dataclasses.asdict(self.geometry), "draft": self.draft}

    @property
    def env(self) -> ImmutableSandboxedEnvironment:
        return environment(self.project)

    @property
    def drawn_from(self) -> str:
        """The template file the last side was drawn from, as messages show it."""
        return self.template_file(self._template)

    def reads_deck(self, file_name: str) -> bool:
        """Whether the template in ``file_name`` (or one it loads) reads the deck (see :mod:`.deckreads`)."""
        return reads_deck(self.env, file_name)

    def template_file(self, name: str) -> str:
        """How the file of template ``name`` is shown in messages."""
        path = template_path(self.env, name + TEMPLATE_SUFFIX)
        return display_path(path) if path is not None else f"templates/{name}{TEMPLATE_SUFFIX}"

    def fit(
        self, field: str, text: Any, box: Box, family: str, max_size: float, min_size: float | None = None, **options: Any
    ) -> Fitted:
        """Lay ``text`` out in ``box``: the largest size down to ``min_size`` at which it fits, wrapped.

        A text that does not fit even at ``min_size`` (default: the style's
        ``min_text_size``) is an error naming the deck, the card and ``field``.
        """
        if min_size is None:
            min_size = float(style_value(self.style, "min_text_size"))
        options.setdefault("fill", style_value(self.style, "ink"))
        self._check_glyphs(field, "" if text is None else str(text), family, options)
        try:
            fitted = fit_lines(
                "" if text is None else str(text),
                box,
                family,
                max_size,
                min_size,
                fonts=self.fonts,
                icons=self.icons,
                overflow=self.draft,
                **options,
            )
        except TextDoesNotFit as exc:
            raise AetherpressError(
                self._card_problem(f"{field} {exc} (template '{self._template}'); shorten it or give it a larger box", field)
            ) from None
        except UnknownIcon as exc:
            raise AetherpressError(
                self._card_problem(f"{field}: {exc}; icons are the library's symbols, the deck's suits and the project's icons/")
            ) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise AetherpressError(Problem(self.template_file(self._template), f"fit() for {field}: {exc}")) from None
        if self.draft and self._card is not None and field in self._card.untranslated and not fitted.overflow:
            fitted = dataclasses.replace(fitted, untranslated=self.deck.edition)
        if fitted.overflow:
            self.overflows.append(_Overflow(self._card.id if self._card else None, field, fitted.overflow))
            self.text_boxes.append((field, fitted.frame))
        else:
            self.text_boxes.append((field, fitted.box))
        self.laid.append(LaidText(field, "" if text is None else str(text), box, family, float(min_size), options, fitted))
        return fitted

    def _check_glyphs(self, field: str, text: str, family: str, options: dict[str, Any]) -> None:
        """A text with characters its font does not have is an error naming them, the card and the language."""
        try:
            name = self.fonts.name(family, str(options.get("weight", "normal")), str(options.get("style", "normal")))
        except KeyError:
            return  # an unknown family is reported by fit() itself
        missing = missing_characters(name, text)
        if missing:
            shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing[:8]) + (" ..." if len(missing) > 8 else "")
            raise AetherpressError(
                self._card_problem(
                    f"{field} has characters the font '{family}' does not have: {shown}; "
                    "add a font that has them to fonts/ and use its family for this text",
                    field,
                )
            )

    def _card_problem(self, message: str, field: str = "") -> Problem:
        """A problem with the text of the card being drawn, at the row or file that defines the card (a translated
        ``field``: at the catalogue's line that translates it)."""
        card = f"card '{self._card.id}'" if self._card is not None else "the back"
        origin = self._card.origin if self._card is not None else None
        if self._card is not None and field in self._card.written_at:
            origin = self._card.written_at[field]
        if origin is not None and origin.sheet is not None:  # a row of a spreadsheet, named as the sheet shows it
            return Problem(origin.file, f"{origin.place}: deck '{self.deck.key}', {card}: {message}")
        file, line = (origin.file, origin.line) if origin is not None else (self.deck.source, None)
        return Problem(file, f"{described(self.deck)}, {card}: {message}", line)

    def overflow_problems(self) -> list[Problem]:
        """The texts of the last card drawn that did not fit (draft builds), as problems to report."""
        return [
            self._card_problem(f"{o.field} does not fit (template '{self._template}'): cut {o.characters} characters", o.field)
            for o in self.overflows
        ]

    def text_width(self, text: Any, family: str, size: float, weight: str = "normal", style: str = "normal") -> float:
        """Advance width of ``text`` in a family of the shipped or the project's fonts."""
        # reportlab loads with the first text measured, not with this module
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return stringWidth(str(text), self.fonts.name(family, weight, style), size)

    def image(self, path: Any, width: float | None = None, height: float | None = None) -> str:
        """A card image (an ``image`` attribute: a PNG, JPEG, WebP, AVIF or SVG file beside the deck file) as a data
        URI: a picture upright, in sRGB, no finer than 600 dpi over ``width`` x ``height`` mm (default: the whole
        card), see :mod:`.bitmaps`; vector art cleaned, to be drawn in the image's place as vectors (see
        :mod:`.vectorart`).

        Cards may not load files themselves; this is the one way an image gets onto a card.
        """
        where = self.template_file(self._template)
        drawing = f"drawing card '{self._card.id if self._card else 'back'}'"
        if not (self.deck.folder and path):
            raise AetherpressError(Problem(where, f"image() needs the name of a picture beside the deck file ({drawing})"))
        target, problem = find_image(Path(self.deck.folder), str(path), self.project.readings)
        if target is None:
            raise AetherpressError(Problem(where, f"{problem} ({drawing})"))
        self.reads.append(target)
        data = target.read_bytes()[: MAX_IMAGE_BYTES + 1]
        kind = image_kind(data[:HEAD_BYTES])
        if kind is None or len(data) > MAX_IMAGE_BYTES:
            raise AetherpressError(
                Problem(where, f"image '{path}' is not a {KINDS} file of at most {MAX_IMAGE_BYTES // 1_000_000} MB ({drawing})")
            )
        if kind == "svg":
            uri = art_uri(data, display_path(target))
            self._made.add(uri)
            return uri
        box = (
            float(width) if width else self.geometry.width,
            float(height) if height else self.geometry.height,
        )
        if not all(0 < side <= 1000 for side in box):
            raise AetherpressError(
                Problem(where, f"image() size {box[0]:g} x {box[1]:g} mm must be more than 0 and at most 1000")
            )
        try:
            uri = picture_uri(target, data, kind, box)
            self._made.add(uri)
            return uri
        except PictureError as exc:  # changed since the deck was checked
            raise AetherpressError(Problem(where, f"image '{path}' {exc}")) from None

    def keep(self, field: str, box: Box) -> str:
        """Record a box that must stay inside the safe zone (e.g. an index symbol); draws nothing."""
        self.text_boxes.append((field, box))
        return ""

    def _context(self) -> dict[str, Any]:
        g = self.geometry
        return {
            "deck": self.deck,
            "style": self.style,
            "g": g,
            "full": g.full,
            "trim": g.trim,
            "safe": g.safe_box,
            "mono": bool(style_value(self.style, "monochrome")),
            SAY: self.say,
        }

    def say(self, text: Any) -> str:
        """What a template writes itself (``{{ _("Twofold") }}``), in the deck's edition's language: the translation
        in the deck's catalogue under the context ``template``, else the text as written."""
        text = "" if text is None else str(text)
        return self.deck.template_words.get(text, text)

    def _render(self, template_name: str, card: Card | None, side: str) -> str:
        file = self.template_file(template_name)
        self.text_boxes = []
        self.laid = []
        self.overflows = []
        self.reads = []
        self.unknown_fonts = []
        self._made = set()
        self._card = card
        self._template = template_name
        drawing = f"drawing card '{card.id if card else 'back'}' of {described(self.deck)}"
        context: dict[str, Any] = {}
        view = None
        token = CURRENT.set(self)
        try:
            with deadline(template_seconds()):  # compiling the template (once per process) counts too
                template = self.env.get_template(f"{template_name}.svg.j2")
                context = self._context()
                view = context["card"] = _CardView(self.deck, card) if card is not None else None
                text = render_bounded(template.generate(context), MAX_OUTPUT_CHARS)
                root, changed = self._written_out(text, file, card, side)  # within the template's time and memory
        except AetherpressError:
            raise
        except _Fault as exc:  # a fault of Aetherpress's own, told as one (not as the template's)
            raise exc.fault  # noqa: B904  (raised as it came, with its own traceback)
        except Exception as exc:
            failed = f"template failed on card '{card.id if card else 'back'}' of deck '{self.deck.id}'"
            own = partial(self._template_problem, view=view, context=context, card=card, side=side, file=file, drawing=drawing)
            raise template_error(exc, file, template_line(exc), "template", failed, f" ({drawing})", own) from None
        finally:
            CURRENT.reset(token)
        return etree.tostring(root, encoding="unicode") if changed else text

    def _written_out(self, text: str, file: str, card: Card | None, side: str) -> tuple[etree._Element, bool]:
        """The template's output read (:meth:`_read`) and its repeats spelt out for screen and print alike (whether
        that changed it); past the budget, one problem naming the template and the line of its output."""
        try:
            root, changed = self._read(text, file, card, side)  # nothing outside the allow-list leaves a template
            return root, (needs_writing_out(text) and write_out(root)) or changed
        except AetherpressError:
            raise
        except TooMuchToDraw as exc:
            raise AetherpressError(
                Problem(file, f"{exc} (output line {exc.line})" if exc.line else str(exc), key=self.place(card, side))
            ) from None
        except (LimitExceeded, MemoryError, RecursionError):
            raise  # the template's time or memory ran out: told as the template's
        except Exception as exc:
            raise _Fault(exc) from exc

    def _read(self, text: str, file: str, card: Card | None, side: str) -> tuple[etree._Element, bool]:
        """The template's output parsed, cleaned of what draws nothing (:mod:`.clean`), its pictures and vector art
        in place (:mod:`.bitmaps`, :mod:`.vectorart`), its CSS worked out (:mod:`.css`) and checked against the
        allow-list, every problem told at once; and whether it is now other than ``text``."""
        place = self.place(card, side)
        cleaned = clean_text(text)
        try:
            root = parse_xml(cleaned, file)
            changed = cleaned != text
            changed = clean_tree(root) or changed
            changed = inline_art(root) or changed
            changed = self._inline_pictures(root, file, card, side) or changed
            _refuse(sanitise_problems(root), file, place)  # the CSS as written, before anything reads it
            changed = resolve_css(root) or changed
            changed = name_families(root, self.fonts) or changed
            settled, self.unknown_fonts = settle_families(root, self.fonts, self._fallback_family())
            changed = settled or changed
            changed = write_out_references(root) or changed
        except (ArtError, CssError) as exc:
            raise AetherpressError(Problem(file, f"{exc} (output line {exc.line})", key=place)) from None
        except AetherpressError as exc:
            raise AetherpressError([Problem(p.file, p.message, p.line, place) for p in exc.problems]) from None
        if changed:
            _refuse(sanitise_problems(root), file, place)  # and what the CSS worked out to
        return root, changed

    def _template_problem(
        self, exc: Exception, *, view: Any, context: dict[str, Any], card: Card | None, side: str, file: str, drawing: str
    ) -> Problem | None:
        """The problem for a missing name, a missing template or a link out of the project; None for the rest."""
        if isinstance(exc, jinja2.UndefinedError):
            seen = [*context, *self.env.globals]
            message = explain(exc, view, self.style, seen) or re.sub(
                r"'[\w.]*CardView object'", "'card'", exc.message or "undefined value"
            )
            if card is None and side == "back":
                message += "; a back template sees no card (a back must not give its card away), only the deck"
            return Problem(file, f"{message} ({drawing})", template_line(exc))
        if isinstance(exc, OutsideProject):
            return Problem(file, f"template '{exc.name}' is a link to a file outside the project ({drawing})", template_line(exc))
        if isinstance(exc, jinja2.TemplateNotFound):
            if exc.name == f"{self._template}.svg.j2":
                return Problem(self.deck.source, f"template '{self._template}' not found in templates/")
            return Problem(file, f"template '{exc.name}' not found in templates/ ({drawing})", template_line(exc))
        return None

    def _inline_pictures(self, root: etree._Element, file: str, card: Card | None, side: str) -> bool:
        """Pictures the template wrote itself as ``data:`` URIs, not through ``image()``, decoded and written
        again as ``image()`` writes them: the browser and the print then draw the same pixels."""
        changed = False
        for element in root.iter(f"{{{SVG_NS}}}image"):
            name = next((n for n in ("href", f"{{{XLINK_NS}}}href") if element.get(n)), None)
            uri = element.get(name) if name else None
            if uri is None or uri in self._made or not uri.lstrip().startswith("data:"):
                continue
            box = (_length_mm(element.get("width"), self.geometry.width), _length_mm(element.get("height"), self.geometry.height))
            try:
                again = inline_picture(uri, box)
            except PictureError as exc:
                raise AetherpressError(
                    Problem(
                        file,
                        f"a picture the template writes itself {exc} (output line {element.sourceline})",
                        key=self.place(card, side),
                    )
                ) from None
            if again is not None and again != uri:
                element.set(name, again)
                changed = True
        return changed

    def place(self, card: Card | None, side: str) -> str:
        """How a drawn side is named in messages: ``card 'fox' of deck 'cat'``."""
        if card is None:
            return f"the back of {described(self.deck)}"
        return f"{'back of ' if side == 'back' else ''}card '{card.id}' of {described(self.deck)}"

    def _fallback_family(self) -> str:
        """The family a text is drawn in when it names none the project has: the style's text font."""
        family = str(style_value(self.style, "text_font"))
        return family if family in self.fonts else next(iter(self.fonts))

    def face(self, card: Card) -> str:
        return self._render(self.deck.template_for(card), card, "front")

    def back(self, card: Card | None = None) -> str:
        """The back ``card`` is printed with; a back template sees no card (a back must not give its card away)."""
        template = self.deck.back_for(card) if card is not None else self.deck.back_template
        return self._render(template, None, "back")


def _refuse(found: list[tuple[int | None, str]], file: str, place: str) -> None:
    if found:
        raise AetherpressError([Problem(file, f"{message} (output line {line})", key=place) for line, message in found])


class _Fault(Exception):
    """A fault of Aetherpress's own while a side was drawn, carried past the handler of the template's faults."""

    def __init__(self, fault: Exception):
        super().__init__(str(fault))
        self.fault = fault


def _length_mm(value: str | None, default: float) -> float:
    """An ``<image>``'s width or height in the card's user units (millimetres), or ``default`` (a percentage, none)."""
    try:
        number = float(value) if value is not None else default
    except ValueError:
        return default
    return number if 0 < number <= 1000 else default
