"""The template check: SVG features that print differently from how a browser (and the preview) shows them.

Cards are printed through svg2pdf (Typst's, on usvg) and shown in the preview
as Chromium draws them.  Measured side by side, most of SVG prints as it is
shown: opacity on shapes and groups, gradients (with ``stop-opacity`` and
``gradientTransform``) on fills, strokes and text, clip paths, masks
(luminance and ``mask-type: alpha``), the separable blend modes
(``mix-blend-mode``), dashes, transforms, ``<symbol viewBox>`` through
``<use>``, nested ``<svg viewBox>``, letter- and word-spacing.  What does not
print the same is flagged, one line each saying what to draw instead:

* ``<pattern>`` fills and gradients that ``repeat`` or ``reflect`` that the
  faces stage could not write out as tiles and stops (:mod:`.repeats`: a
  pattern on text or inherited from a group, too many tiles or stops, a
  gradient's focus outside its circle); the rest print as they show,
* a blend mode no renderer knows.

Filters, every blend mode CSS names and ``<textPath>`` print as they show:
the fidelity matrix of the tests measures each on every print path
(filters are drawn at the output's resolution, :mod:`generator.render.filters`).

A ``font-family`` that CSS cannot read unquoted (``Source Sans 3``: a word may
not start with a digit) is flagged too: browser and print renderer alike drop
it and fall back to other fonts.

``aetherpress validate`` looks for them

* in the template sources of the project and the built-in data (file and line), and
* in the SVG every deck actually renders (deck, card and template), which
  also covers markup produced by helpers and macros.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..errors import Problem, display_path
from ..project import Project
from ..resources.fonts import css_family, unquoted_family_problem
from .cut import check_cut
from .render import FaceRenderer
from .repeats import MAX_STOPS, MAX_TILES
from .svg import parse_svg

# the blend modes CSS names, which PDF readers and browsers mix alike (measured by the tests' fidelity matrix)
_BLENDS = (
    "normal",
    "multiply",
    "screen",
    "overlay",
    "darken",
    "lighten",
    "color-dodge",
    "color-burn",
    "hard-light",
    "soft-light",
    "difference",
    "exclusion",
    "hue",
    "saturation",
    "color",
    "luminosity",
)
_CSS_WIDE = ("inherit", "initial", "unset", "revert", "revert-layer")

PATTERN = (
    "this <pattern> fill cannot be drawn out as tiles (it fills text, is inherited from a group, or needs more than "
    f"{MAX_TILES:,} tiles), and PDF readers disagree on where a pattern's tiles start: fill shapes with it, with larger tiles"
)


@dataclass(frozen=True)
class Finding:
    line: int | None
    message: str


def _style_props(style: str | None) -> dict[str, str]:
    props = {}
    for part in (style or "").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            props[key.strip().lower()] = value.strip()
    return props


def _blend_finding(value: str) -> str | None:
    """What is wrong with a ``mix-blend-mode`` value, or None (a value hidden by template markup is not judged)."""
    mode = value.replace("!important", "").strip().lower()
    if not mode or mode in _BLENDS or mode in _CSS_WIDE:
        return None
    return (
        f"mix-blend-mode: {mode} has no counterpart in PDF and prints otherwise than shown: use one of {', '.join(_BLENDS[1:])}"
    )


def _property_findings(props: dict[str, str]) -> list[str]:
    """What is wrong with these CSS properties or presentation attributes (names in lower case)."""
    found = []
    blend = _blend_finding(props.get("mix-blend-mode", ""))
    if blend:
        found.append(blend)
    family = unquoted_family_problem(props.get("font-family", ""))
    if family:
        found.append(
            f"font-family {family} is no family unquoted (a word of it is not a CSS word): browsers and the print "
            f'renderer both fall back to other fonts; quote it, font-family="{css_family(family)}" '
            "(in a template: {{ style.text_font|family }})"
        )
    return found


def _element_findings(tag: str, attrs: dict[str, str], drawn: bool) -> list[str]:
    """What is wrong with one element, given its local tag name and attributes (style merged in); ``drawn``: in a
    drawn side (repeats already written out), not a template's source."""
    found = []
    props = {k.lower(): v for k, v in attrs.items()}
    props.update(_style_props(attrs.get("style")))
    if drawn and tag == "pattern":  # what the faces stage could not write out (a template's are, as a rule)
        found.append(PATTERN)
    spread = attrs.get("spreadMethod", "").strip()
    if drawn and spread in ("reflect", "repeat"):
        found.append(
            f'spreadMethod="{spread}" cannot be written out here (the focus lies outside the circle, or the repeats need '
            f"more than {MAX_STOPS:,} stops) and PDF gradients cannot {spread}: give the gradient the stops of every repeat"
        )
    return found + _property_findings(props)


_CSS_DECLARATION = re.compile(r"(?<![-\w])(mix-blend-mode|font-family)\s*:\s*([^;{}]*)", re.I)


def _css_findings(text: str) -> list[tuple[int, str]]:
    """(offset, message) of what is wrong in the rules of a ``<style>``."""
    found = []
    for hit in _CSS_DECLARATION.finditer(text):
        for message in _property_findings({hit.group(1).lower(): hit.group(2)}):
            found.append((hit.start(), message))
    return found


def check_svg(svg_text: str, source: str = "rendered SVG", place: str | None = None) -> list[Finding]:
    """Findings in a rendered SVG document (line numbers are lines of that document); should it not pass the
    allow-list, the problem names ``source`` (its template) and ``place`` (the side drawn)."""
    root = parse_svg(svg_text, source, place)
    findings: list[Finding] = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        tag = etree.QName(element).localname
        attrs = {etree.QName(k).localname: v for k, v in element.attrib.items()}
        for message in _element_findings(tag, attrs, drawn=True):
            findings.append(Finding(element.sourceline, message))
        if tag == "style" and element.text:
            for _, message in _css_findings(element.text):
                findings.append(Finding(element.sourceline, message))
    return findings


_JINJA = re.compile(r"\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}", re.S)
_TAG = re.compile(r"<\s*([A-Za-z][\w:.-]*)((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)/?>", re.S)
_ATTR = re.compile(r"([A-Za-z_:][\w:.-]*)\s*=\s*(\"[^\"]*\"|'[^']*')")
_STYLE_BLOCK = re.compile(r"<style[^>]*>(.*?)</style>", re.S)


def _blank(match: re.Match) -> str:
    """Jinja markup replaced by spaces (newlines kept), so tags parse and lines stay put."""
    return "".join(c if c == "\n" else " " for c in match.group(0))


def check_template_source(text: str) -> list[Finding]:
    """Findings in a template's source; line numbers are lines of the template."""
    plain = _JINJA.sub(_blank, text)
    breaks = [m.start() for m in re.finditer("\n", plain)]  # a line found by bisection: no count from the start per tag
    findings: list[Finding] = []
    for match in _TAG.finditer(plain):
        tag = match.group(1).split(":")[-1]
        attrs = {m.group(1).split(":")[-1]: m.group(2)[1:-1] for m in _ATTR.finditer(match.group(2))}
        line = bisect.bisect_left(breaks, match.start()) + 1
        for message in _element_findings(tag, attrs, drawn=False):
            findings.append(Finding(line, message))
    for block in _STYLE_BLOCK.finditer(plain):
        for offset, message in _css_findings(block.group(1)):
            findings.append(Finding(bisect.bisect_left(breaks, block.start(1) + offset) + 1, message))
    return sorted(findings, key=lambda f: (f.line or 0, f.message))


def template_files(project: Project) -> list[Path]:
    """The card templates a project can use: its own, then the built-in ones it does not replace."""
    found: dict[str, Path] = {}
    for layer in project.layers:
        if layer.templates.is_dir():
            for path in sorted(layer.templates.glob("*.svg.j2")):
                found.setdefault(path.name, path)
    return sorted(found.values(), key=lambda p: p.name)


def check_templates(project: Project, files: Iterable[Path] | None = None, own_only: bool = False) -> list[Problem]:
    """Problems in the source of card templates (default: every one; only the project's own with ``own_only``)."""
    problems = []
    for path in template_files(project) if files is None else files:
        if own_only and project.layer_of(path) is not project.own:
            continue
        for finding in check_template_source(path.read_text(encoding="utf-8")):
            problems.append(Problem(display_path(path), finding.message, finding.line))
    return problems


def side_problems(
    faces: FaceRenderer, template: str, what: str, svg: str, boxes: list, seen: set[tuple[str, str]]
) -> list[Problem]:
    """Problems in one side a deck drew (``what``, from ``template``): anything but background and bleed art
    within 3 mm of the trim (see :mod:`.cut`), the first per template (``seen`` holds those already told).
    What prints otherwise than shown is :func:`print_problems`' (warnings, as ``build`` gives them)."""
    problems: list[Problem] = []
    near = check_cut(svg, faces.geometry.trim, boxes)
    if near and (template, "cut") not in seen:
        seen.add((template, "cut"))
        problems.append(
            Problem(faces.template_file(template), f"{near[0].message} (in the SVG drawn for {what} of deck '{faces.deck.key}')")
        )
    return problems


def print_problems(
    faces: FaceRenderer, template: str, what: str, svg: str, seen: set[tuple[str, str]], found: Iterable[Finding] | None = None
) -> list[Problem]:
    """What one side a deck drew (``what``, from ``template``) draws that prints otherwise than a browser shows
    it (``found``, when the side's findings are known already), the first of each finding per template
    (``seen`` holds those already told)."""
    problems: list[Problem] = []
    for finding in check_svg(svg) if found is None else found:
        key = (template, finding.message)
        if key in seen:
            continue
        seen.add(key)
        problems.append(
            Problem(
                faces.template_file(template),
                f"{finding.message} (in the SVG drawn for {what} of deck '{faces.deck.key}'"
                + (f", line {finding.line})" if finding.line is not None else ")"),
            )
        )
    return problems
