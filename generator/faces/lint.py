"""The template check: SVG features that svglib silently draws wrong or not at all.

svglib (which turns card SVGs into PDF drawings) ignores or misdraws gradients
on strokes and text, pattern fills, group opacity, ``<symbol viewBox>`` used
through ``<use>``, nested ``<svg viewBox>``, letter- and word-spacing,
``<textPath>``, masks and filters.  A card that uses them looks right in a
browser and wrong in print, so ``aetherpress validate`` flags them:

* in the template sources of the project and the built-in data (file and line), and
* in the SVG every deck actually renders (deck, card and template), which
  also covers markup produced by helpers and macros.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..errors import Problem, display_path
from ..project import Project
from .cut import check_cut
from .render import FaceRenderer
from .svg import parse_svg

CONTAINERS = {"g", "svg", "a", "use", "symbol", "switch"}
TEXT = {"text", "tspan", "textPath"}


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


def _element_findings(tag: str, attrs: dict[str, str], nested_svg: bool) -> list[str]:
    """What is wrong with one element, given its local tag name and attributes (style merged in)."""
    found = []
    props = {k.lower(): v for k, v in attrs.items()}
    props.update(_style_props(attrs.get("style")))

    def is_url(value: str | None) -> bool:
        return value is not None and value.strip().startswith("url(")

    if is_url(props.get("stroke")):
        found.append(
            f'<{tag}> has a gradient or pattern stroke (stroke="{props["stroke"]}"); '
            "svglib draws it as no stroke: use a solid colour"
        )
    if tag in TEXT and is_url(props.get("fill")):
        found.append(f"<{tag}> has a gradient or pattern fill on text; svglib cannot fill text with it: use a solid colour")
    if tag == "pattern":
        found.append("<pattern> fills are not drawn by svglib: draw the repeats as shapes")
    if "opacity" in props and tag in CONTAINERS:
        found.append(f"opacity on <{tag}> (group opacity) is ignored by svglib: use fill-opacity/stroke-opacity on the shapes")
    if tag == "symbol" and "viewbox" in props:
        found.append(
            "<symbol viewBox> is not scaled by svglib when used through <use>: draw paths with a transform (the symbol() helper)"
        )
    if tag == "svg" and nested_svg and "viewbox" in props:
        found.append("a nested <svg viewBox> is not scaled by svglib: use a <g transform>")
    for prop in ("letter-spacing", "word-spacing"):
        if prop in props:
            found.append(f"{prop} is ignored by svglib: set the text without it")
    if tag == "textPath":
        found.append("<textPath> is not drawn by svglib")
    if tag == "mask" or "mask" in props:
        found.append("masks are not drawn by svglib: use a clipPath or plain shapes")
    if tag == "filter" or "filter" in props:
        found.append("filters (blur, shadows) are not drawn by svglib")
    return found


_CSS_RULES = [
    (re.compile(r"letter-spacing\s*:"), "letter-spacing in CSS is ignored by svglib"),
    (re.compile(r"word-spacing\s*:"), "word-spacing in CSS is ignored by svglib"),
    (re.compile(r"(?<![-\w])filter\s*:"), "filters in CSS are not drawn by svglib"),
    (re.compile(r"(?<![-\w])mask\s*:"), "masks in CSS are not drawn by svglib"),
    (re.compile(r"stroke\s*:\s*url\("), "a gradient or pattern stroke in CSS is not drawn by svglib"),
]


def check_svg(svg_text: str) -> list[Finding]:
    """Findings in a rendered SVG document (line numbers are lines of that document)."""
    root = parse_svg(svg_text, "rendered SVG")
    findings: list[Finding] = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        tag = etree.QName(element).localname
        attrs = {etree.QName(k).localname: v for k, v in element.attrib.items()}
        nested = tag == "svg" and element is not root
        for message in _element_findings(tag, attrs, nested):
            findings.append(Finding(element.sourceline, message))
        if tag == "style" and element.text:
            for pattern, message in _CSS_RULES:
                if pattern.search(element.text):
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
    findings: list[Finding] = []
    svg_tags = 0
    for match in _TAG.finditer(plain):
        tag = match.group(1).split(":")[-1]
        attrs = {m.group(1).split(":")[-1]: m.group(2)[1:-1] for m in _ATTR.finditer(match.group(2))}
        line = plain.count("\n", 0, match.start()) + 1
        if tag == "svg":
            svg_tags += 1
        for message in _element_findings(tag, attrs, nested_svg=tag == "svg" and svg_tags > 1):
            findings.append(Finding(line, message))
    for block in _STYLE_BLOCK.finditer(plain):
        for pattern, message in _CSS_RULES:
            for hit in pattern.finditer(block.group(1)):
                findings.append(Finding(plain.count("\n", 0, block.start(1) + hit.start()) + 1, message))
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
    """Problems in one side a deck drew (``what``, from ``template``): what svglib cannot draw, and anything
    but background and bleed art within 3 mm of the trim (see :mod:`.cut`); the first of each kind per
    template (``seen`` holds those already told)."""
    problems: list[Problem] = []
    deck = faces.deck
    near = check_cut(svg, faces.geometry.trim, boxes)
    if near and (template, "cut") not in seen:
        seen.add((template, "cut"))
        problems.append(
            Problem(faces.template_file(template), f"{near[0].message} (in the SVG drawn for {what} of deck '{deck.key}')")
        )
    for finding in check_svg(svg):
        key = (template, finding.message)
        if key in seen:
            continue
        seen.add(key)
        problems.append(
            Problem(
                faces.template_file(template),
                f"{finding.message} (in the SVG drawn for {what} of deck '{deck.key}', line {finding.line})",
            )
        )
    return problems
