"""The safe-zone check for any template: texts inside the safe zone, frames out of the bleed.

What a template draws is read back from the card it made:

* every text laid out with ``fit()`` and every box recorded with ``keep()``
  must lie inside the safe zone (the style's ``safe`` inside the trim), as
  must any ``<text>`` a template writes by hand (measured with the fonts);
* every frame (a stroked outline with no fill, at least half as wide or as
  tall as the card: a frame or a border line) must stay inside the trim,
  or run off the card: one that stops in the bleed is cut through, and a
  cut a millimetre off shows part of it.

:func:`card_findings` checks one drawn side and returns its findings, so a
preview can show them card by card; :func:`zone_problems` turns them into
the problems ``aetherpress validate`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from ..definitions.languages import described
from ..errors import Problem
from ..geometry import Box
from ..resources.fonts import FontBook, first_family
from .drawn import DrawnSides
from .icons import IconError, shape_path
from .outline import viewport_transform
from .render import FaceRenderer, Geometry
from .svg import parse_svg

EPSILON = 0.01  # mm: coordinates are written with three decimals
_FRAME_SHARE = 0.5  # an outline at least this share of the trim's width or height is a frame (or a border line)
SKIP = {"defs", "clipPath", "mask", "symbol", "pattern", "linearGradient", "radialGradient", "marker", "style", "title", "desc"}
_OUTLINES = {"rect", "line", "polyline", "polygon", "path"}  # rings and ovals are ornaments, not frames
_INHERITED = ("fill", "stroke", "stroke-width", "font-family", "font-size", "font-weight", "font-style", "text-anchor")


@dataclass(frozen=True)
class _ZoneFinding:
    """Something drawn where it does not belong on one side of one card."""

    card: str | None  # the card's id (None: a deck's back drawn without a card)
    side: str  # "face" or "back"
    what: str  # "text 'name'", "<text> 'Hand-set'", "frame <rect>"
    box: Box
    message: str  # where it lies, in millimetres
    line: int | None = None  # line of the drawn SVG, where known


def _props(element: etree._Element) -> dict[str, str]:
    props = {k: v for k, v in element.attrib.items() if isinstance(k, str)}
    for part in (element.get("style") or "").split(";"):
        key, _, value = part.partition(":")
        if value.strip():
            props[key.strip().lower()] = value.strip()
    return props


def _length(text: str | None, default: float) -> float:
    try:
        return float(str(text).strip().removesuffix("px").removesuffix("mm"))
    except (TypeError, ValueError):
        return default


def _outside(box: Box, zone: Box) -> dict[str, float]:
    """How far ``box`` reaches out of ``zone`` on each side (positive: outside)."""
    return {
        "left": zone.x - box.x,
        "top": zone.y - box.y,
        "right": box.right - zone.right,
        "bottom": box.bottom - zone.bottom,
    }


def _drawn_boxes(svg_text: str, fonts) -> Iterable[tuple[str, str, Box, int | None]]:
    """(kind, description, box, line) of every hand-written <text> and every frame in a drawn SVG."""
    # reportlab loads with the first text measured, not with this module
    from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

    # svgelements loads only for the safe-zone check
    from svgelements import Matrix

    root = parse_svg(svg_text, "drawn card")

    def walk(element: etree._Element, inherited: dict[str, str], matrix: Matrix):
        for child in element:
            if not isinstance(child.tag, str):
                continue
            tag = etree.QName(child).localname
            if tag in SKIP:
                continue
            props = _props(child)
            state = dict(inherited)
            state.update({k: props[k] for k in _INHERITED if k in props})
            local = Matrix(matrix)
            if props.get("transform"):
                local = Matrix(props["transform"]) * matrix
            if tag == "text":
                yield from text_box(child, state, local)
            elif tag in _OUTLINES and state.get("stroke", "none") not in ("none", "transparent") and state.get("fill") == "none":
                yield from outline_box(child, tag, state, local)
            elif tag == "svg":  # a drawing placed on the card: its own user space, shown in its viewport
                size = (_length(child.get("width"), 0.0), _length(child.get("height"), 0.0))
                at = Matrix(f"translate({_length(child.get('x'), 0.0)}, {_length(child.get('y'), 0.0)})")
                yield from walk(child, state, Matrix(viewport_transform(child, *size)) * at * local)
            elif tag in ("g", "a", "switch"):
                yield from walk(child, state, local)

    def measure(text: str, state: dict[str, str]) -> tuple[float, float, float]:
        """(advance width, ascent, descent) of ``text`` set as ``state`` says, in user units."""
        size = _length(state.get("font-size"), 4.0)
        family = first_family(state.get("font-family")) or "EB Garamond"
        try:
            font = fonts.name(family, state.get("font-weight", "normal"), state.get("font-style", "normal"))
        except KeyError:
            font = fonts.name("EB Garamond")
        face = getFont(font).face
        return stringWidth(text, font, size), size * face.ascent / 1000, -size * face.descent / 1000

    def text_box(element: etree._Element, state: dict[str, str], matrix: Matrix):
        content = "".join(element.itertext()).strip()
        if not content:
            return
        for left, top, right, bottom in _chunk_boxes(element, state, measure):
            box = _transformed((left, top, right, bottom), matrix)
            yield "text", f"<text> '{content[:30]}'", box, element.sourceline

    def outline_box(element: etree._Element, tag: str, state: dict[str, str], matrix: Matrix):
        try:
            d = shape_path(element, tag)
        except IconError:
            return
        if not d.strip():
            return
        bounds = _path_bounds(d, (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f))
        if bounds is None:
            return
        half = _length(state.get("stroke-width"), 1.0) / 2 * abs(matrix.determinant) ** 0.5
        x0, y0, x1, y1 = (float(v) for v in bounds)
        yield "frame", f"frame <{tag}>", Box(x0 - half, y0 - half, x1 - x0 + 2 * half, y1 - y0 + 2 * half), element.sourceline

    yield from walk(root, {"fill": "black", "stroke": "none", "stroke-width": "1"}, Matrix())


def _chunk_boxes(text: etree._Element, state: dict[str, str], measure) -> list[tuple[float, float, float, float]]:
    """The box of each run of a ``<text>`` that starts at a position of its own (the text's, or a ``<tspan>``'s
    ``x`` and ``y``), each run measured in its own fonts and anchored as it says."""
    runs: list[list] = []  # [x, y, anchor, [(text, state)]]
    y_now = _length(text.get("y"), 0.0)

    def visit(el: etree._Element, inherited: dict[str, str], first: bool) -> None:
        nonlocal y_now
        own = dict(inherited)
        props = _props(el)
        own.update({k: props[k] for k in _INHERITED if k in props})
        if el.get("y") is not None:
            y_now = _length(el.get("y"), y_now)
        y_now += _length(el.get("dy"), 0.0) if el.get("dy") and len(el.get("dy", "").split()) == 1 else 0.0
        if first or el.get("x") is not None or el.get("y") is not None:
            runs.append([_length(el.get("x"), runs[-1][0] if runs else 0.0), y_now, own.get("text-anchor", "start"), []])
        if el.text:
            runs[-1][3].append((el.text, own))
        for child in el:
            if isinstance(child.tag, str) and etree.QName(child).localname in ("tspan", "textPath"):
                visit(child, own, False)
            if child.tail:
                runs[-1][3].append((child.tail, own))

    visit(text, state, True)
    boxes = []
    for x, y, anchor, parts in runs:
        parts = [(t, st) for t, st in parts if t.strip()]
        if not parts:
            continue
        measured = [measure(t, st) for t, st in parts]
        width = sum(m[0] for m in measured)
        shift = {"middle": width / 2, "end": width}.get(anchor, 0.0)
        boxes.append((x - shift, y - max(m[1] for m in measured), x - shift + width, y + max(m[2] for m in measured)))
    return boxes


@lru_cache(maxsize=1024)
def _path_bounds(d: str, matrix: tuple[float, ...]) -> tuple[float, ...] | None:
    """The bounds of path ``d`` under ``matrix`` (slow for arcs; a frame drawn on every card is measured once)."""
    # svgelements loads only for the safe-zone check
    from svgelements import Matrix
    from svgelements import Path as SvgPath

    try:
        bounds = (SvgPath(d) * Matrix(*matrix)).bbox()
    except (ValueError, IndexError, TypeError, ZeroDivisionError):
        return None
    return None if bounds is None else tuple(float(v) for v in bounds)


def _transformed(bounds: tuple[float, float, float, float], matrix) -> Box:
    x0, y0, x1, y1 = bounds
    points = [matrix.point_in_matrix_space((x, y)) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _svg_findings(
    svg_text: str, geometry: Geometry, text_boxes: Iterable[tuple[str, Box]], fonts, card: str | None = None, side: str = "face"
) -> list[_ZoneFinding]:
    """The findings of one drawn side: its SVG, its geometry and the boxes its texts were fitted to."""
    safe, trim, full = geometry.safe_box, geometry.trim, geometry.full
    found: list[_ZoneFinding] = []
    fitted = list(text_boxes)

    def text_out(what: str, box: Box, line: int | None) -> None:
        reach = {side: d for side, d in _outside(box, safe).items() if d > EPSILON}
        if reach:
            where, most = max(reach.items(), key=lambda item: item[1])
            found.append(_ZoneFinding(card, side, what, box, f"reaches {most:.1f} mm outside the safe zone at the {where}", line))

    for field, box in fitted:
        text_out(f"text '{field}'", box, None)
    for kind, what, box, line in _drawn_boxes(svg_text, _fonts_of(fonts)):
        if kind == "text":
            if not any(f.inset(-0.05).contains(box) for _, f in fitted):  # set by hand, not by fit()
                text_out(what, box, line)
            continue
        if box.w < trim.w * _FRAME_SHARE and box.h < trim.h * _FRAME_SHARE:
            continue  # a small outline (a ring of a pattern, an ornament) is art, not a frame
        into = _outside(box, trim)
        past = _outside(box, full)
        stops = {s: d for s, d in into.items() if d > EPSILON and past[s] < -EPSILON}
        if stops:
            where, most = max(stops.items(), key=lambda item: item[1])
            found.append(
                _ZoneFinding(
                    card,
                    side,
                    what,
                    box,
                    f"reaches {most:.1f} mm into the bleed at the {where} and stops there, so the cut shows part of it",
                    line,
                )
            )
    return found


def _fonts_of(fonts):
    if fonts is None:
        return FontBook()
    return fonts


def card_findings(sides: DrawnSides, card, side: str = "face") -> list[_ZoneFinding]:
    """What lies outside the zones of one side of ``card`` (None: the deck's back), as ``sides`` has it drawn."""
    drawn = sides.side(card, "front" if side == "face" and card is not None else "back")
    faces = sides.renderer
    return _svg_findings(drawn.svg, faces.geometry, drawn.boxes, faces.fonts, card.id if card is not None else None, side)


def zone_problems(
    faces: FaceRenderer, card, side: str, template: str, svg: str, boxes: list, seen: set[tuple[str, str]]
) -> list[Problem]:
    """The problems ``validate`` prints for one drawn side: the first finding of each kind per template
    and place (``seen`` holds those already told)."""
    problems: list[Problem] = []
    for f in _svg_findings(svg, faces.geometry, boxes, faces.fonts, card.id if card is not None else None, side):
        if (template, f.what) in seen:
            continue
        seen.add((template, f.what))
        problems.append(finding_problem(faces, card, side, f))
    return problems


def finding_problem(faces: FaceRenderer, card, side: str, f: _ZoneFinding) -> Problem:
    """A finding as the problem ``validate`` prints: the template, what lies where, and what to do."""
    deck = faces.deck
    template = (deck.template_for(card) if side == "face" else deck.back_for(card)) if card is not None else deck.back_template
    drawn = f"{'the back of ' if side == 'back' else ''}card '{card.id if card is not None else 'back'}' of {described(deck)}"
    line = f", line {f.line} of its SVG" if f.line else ""
    advice = (
        f"keep text {deck.style.get('safe', 3.0):g} mm inside the trim (the style's safe)"
        if not f.what.startswith("frame")
        else "keep frames inside the trim, or run them off the card"
    )
    return Problem(faces.template_file(template), f"{f.what} {f.message} (drawn for {drawn}{line}); {advice}")
