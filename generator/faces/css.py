"""A card's CSS read as the browser reads it, and written out as plain declarations every renderer reads alike.

A designer's SVG (or a drawing program's) styles itself with ``<style>``
rules (classes, ``:not()``, ``:root``, child and sibling selectors), custom
properties (``--accent``, ``var(--accent, #c33)``), shorthands (``font: bold
7px 'Source Sans 3'``) and the colours of CSS Color 4 and 5 (``oklch()``,
``lab()``, ``hwb()``, ``color()``, ``color-mix()``, ``light-dark()``).
The print renderer knows only part of it, and a part it reads otherwise is a
card that prints black.  So the cascade is worked out here, once, as the
browser works it out: rules matched by their selectors (cssselect2) in order
of importance, specificity and place, the ``style`` attribute over them,
custom properties inherited and substituted, shorthands expanded into their
longhands, colours converted to sRGB (coloraide; out of gamut, clipped as the
browser clips).  Each element then carries what applies to it in its own
``style`` attribute and the ``<style>`` elements go.  A side without CSS is
not touched.

Every step is bounded: the rules times the elements they are matched against,
the length of a value once its ``var()`` are substituted, their depth.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import cssselect2
import tinycss2
from lxml import etree

from .clean import drop_inert_css
from .sanitise import SVG_NS

MAX_MATCHING = 4_000_000  # rules x elements matched, each rule counted once per declaration it holds
MAX_VALUE = 20_000  # characters of one value with its var() substituted
MAX_DEPTH = 16  # var() within var(), functions within functions
# characters of <style> in one side or drawing: a drawing program's stylesheet is a few kilobytes, and each side
# reads its own again (tokenising a megabyte of CSS costs seconds, side after side)
MAX_STYLESHEETS = 100_000
_INLINE = (1_000, 0, 0)  # the style attribute's specificity: above any selector's
_COLOURED = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")
_CSS3_COLOURS = ("rgb", "rgba", "hsl", "hsla")
_NOT_INHERITED_INITIAL = {
    "opacity": "1",
    "stop-color": "black",
    "stop-opacity": "1",
    "flood-color": "black",
    "flood-opacity": "1",
    "clip-path": "none",
    "mask": "none",
    "filter": "none",
    "mix-blend-mode": "normal",
    "isolation": "auto",
    "display": "inline",
    "mask-type": "luminance",
    "dominant-baseline": "auto",
    "alignment-baseline": "auto",
    "baseline-shift": "0",
    "text-decoration": "none",
    "vector-effect": "none",
}
_FONT_STYLES = ("normal", "italic", "oblique")
_FONT_WEIGHTS = ("normal", "bold", "bolder", "lighter")
_FONT_SIZES = ("xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large", "smaller", "larger")


class CssError(ValueError):
    """What cannot be read or would cost too much, for one line naming the output line."""

    def __init__(self, line: int | None, message: str):
        super().__init__(message)
        self.line = line


@dataclass
class _Declared:
    important: bool
    specificity: tuple[int, int, int]
    order: int
    name: str
    value: list  # tinycss2 component values


@dataclass
class _Element:
    custom: dict[str, list] = field(default_factory=dict)  # the custom properties in force, inherited


def _rules(styles: list[etree._Element]) -> tuple[cssselect2.Matcher, int]:
    """The rules of ``styles``, each with its declarations read once, and how much matching one element costs:
    every selector counted once per declaration of its rule (a rule of many declarations is applied many times)."""
    matcher = cssselect2.Matcher()
    count = written = 0
    for style in styles:
        written += len(style.text or "")
        if written > MAX_STYLESHEETS:
            raise CssError(style.sourceline, f"<style>: more than {MAX_STYLESHEETS:,} characters of CSS in one drawing")
        for rule in tinycss2.parse_stylesheet(style.text or "", skip_comments=True, skip_whitespace=True):
            if rule.type == "error":
                raise CssError(style.sourceline, f"<style>: {rule.message}")
            if rule.type != "qualified-rule":
                raise CssError(style.sourceline, "<style>: CSS at-rules (@import, @font-face ...) are not allowed")
            try:
                selectors = cssselect2.compile_selector_list(rule.prelude)
            except cssselect2.SelectorError as exc:
                shown = tinycss2.serialize(rule.prelude).strip()[:40]
                raise CssError(style.sourceline, f"<style>: the selector '{shown}' cannot be read ({exc})") from None
            declarations = tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True)
            for selector in selectors:
                matcher.add_selector(selector, declarations)
                count += max(1, len(declarations))
    return matcher, count


def _declarations(parsed: Iterable, specificity: tuple[int, int, int], order: int, line: int | None) -> list[_Declared]:
    """The declarations of a rule or a ``style`` attribute, as tinycss2 reads them, at their place in the cascade."""
    found = []
    for item in parsed:
        if item.type == "declaration":
            name = item.name if item.name.startswith("--") else item.lower_name
            found.append(_Declared(item.important, specificity, order, name, list(item.value)))
        elif item.type == "error":
            raise CssError(line, f"CSS that cannot be read: {item.message}")
    return found


def _substitute(tokens: list, custom: dict[str, list], line: int | None, depth: int = 0) -> list | None:
    """``tokens`` with every ``var()`` replaced (None: a var() with no value and no fallback)."""
    if depth > MAX_DEPTH:
        raise CssError(
            line, f"a CSS value nests functions or var() more than {MAX_DEPTH} deep (or custom properties refer in a circle)"
        )
    out: list = []
    for token in tokens:
        if token.type == "function" and token.lower_name == "var":
            args = list(token.arguments)
            name = next((t.value for t in args if t.type == "ident"), None)
            split = next((i for i, t in enumerate(args) if t.type == "literal" and t.value == ","), None)
            value = custom.get(name) if name else None
            if value is None and split is not None:
                value = args[split + 1 :]
            if value is None:
                return None
            inner = _substitute(value, custom, line, depth + 1)
            if inner is None:
                return None
            out.extend(inner)
        elif token.type == "function":
            inner = _substitute(token.arguments, custom, line, depth + 1)
            if inner is None:
                return None
            out.append(tinycss2.ast.FunctionBlock(token.source_line, token.source_column, token.name, inner))
        else:
            out.append(token)
        if len(out) > MAX_VALUE:
            raise CssError(line, f"a CSS value grows past {MAX_VALUE:,} parts once its var() are substituted")
    return out


def _text(tokens: list) -> str:
    return tinycss2.serialize(tokens).strip()


def _colour(value: str) -> str:
    """A CSS colour of Color 4 or 5 as ``rgb()`` or ``rgba()`` in sRGB; any other value as it is."""
    from .csscolours import css_colour_to_srgb

    return css_colour_to_srgb(value)


def _font(tokens: list) -> dict[str, str]:
    """The ``font`` shorthand as its longhands (what it does not say, reset as CSS resets it)."""
    parts = [t for t in tokens if t.type != "whitespace"]
    out = {"font-style": "normal", "font-variant": "normal", "font-weight": "normal"}
    i = 0
    while i < len(parts):
        t = parts[i]
        word = t.lower_value if t.type == "ident" else None
        if word in _FONT_STYLES:
            out["font-style"] = word
        elif word == "small-caps":
            out["font-variant"] = word
        elif word in _FONT_WEIGHTS or (t.type == "number" and t.is_integer):
            out["font-weight"] = word or str(t.int_value)
        elif word in ("normal",) or (word and word.endswith("condensed")) or (word and word.endswith("expanded")):
            pass  # font-stretch, or a "normal" for one of the above
        else:
            break
        i += 1
    if i >= len(parts):
        raise ValueError("no font size")
    size = parts[i]
    out["font-size"] = size.lower_value if size.type == "ident" and size.lower_value in _FONT_SIZES else _text([size])
    i += 1
    if i < len(parts) and parts[i].type == "literal" and parts[i].value == "/":
        i += 2  # the line height: draws nothing in SVG
    family = _text(tokens[tokens.index(parts[i]) :]) if i < len(parts) else ""
    if not family:
        raise ValueError("no font family")
    out["font-family"] = family
    return out


def _longhands(name: str, tokens: list) -> dict[str, str]:
    if name == "font":
        return _font(tokens)
    if name == "marker":
        value = _text(tokens)
        return {"marker-start": value, "marker-mid": value, "marker-end": value}
    value = _text(tokens)
    if name in _COLOURED:
        value = "currentColor" if value.lower() == "currentcolor" else _colour(value)
    return {name: value}


def _unset(name: str) -> str:
    return _NOT_INHERITED_INITIAL.get(name, "inherit")


def _applied(declared: list[_Declared], state: _Element, line: int | None) -> dict[str, str]:
    """The declarations that win for one element, custom properties substituted and shorthands expanded."""
    declared.sort(key=lambda d: (d.important, d.specificity, d.order))
    winners: dict[str, _Declared] = {}
    for d in declared:
        winners[d.name] = d
    for name, d in winners.items():
        if name.startswith("--"):
            state.custom[name] = d.value
    out: dict[str, str] = {}
    for name, d in winners.items():
        if name.startswith("--"):
            continue
        tokens = _substitute(d.value, state.custom, line)
        if tokens is None:
            out[name] = _unset(name)
            continue
        try:
            out.update(_longhands(name, tokens))
        except ValueError as exc:
            raise CssError(line, f"CSS '{name}: {_text(d.value)[:60]}' cannot be read: {exc}") from None
    return out


def resolve_css(root: etree._Element) -> bool:
    """Work out the CSS of the parsed side ``root`` in place (see the module's words); whether it changed.
    Raises :class:`CssError` for CSS that cannot be read or would cost too much."""
    styles = list(root.iter(f"{{{SVG_NS}}}style"))
    inline = [el for el in root.iter() if isinstance(el.tag, str) and el.get("style")]
    coloured = [el for el in root.iter() if isinstance(el.tag, str) and any(_modern(el.get(n)) for n in _COLOURED)]
    if not styles and not inline and not coloured:
        return False
    matcher, rules = _rules(styles)
    elements = sum(1 for _ in root.iter())
    if rules * elements > MAX_MATCHING:
        raise CssError(
            styles[0].sourceline if styles else None,
            f"its <style> rules ({rules:,} declarations) would be matched against {elements:,} elements: more than "
            f"{MAX_MATCHING:,} matches; use fewer rules or fewer elements",
        )
    states: dict[etree._Element, _Element] = {}
    for wrapper in cssselect2.ElementWrapper.from_xml_root(root).iter_subtree():
        _resolve_element(wrapper, matcher if rules else None, states)
    for style in styles:
        parent = style.getparent()
        if parent is not None:
            parent.remove(style)
    return True


def _resolve_element(wrapper, matcher: cssselect2.Matcher | None, states: dict[etree._Element, _Element]) -> None:
    """One element's declarations worked out and written into its ``style`` (its custom properties kept in
    ``states`` for its children)."""
    el = wrapper.etree_element
    parent = el.getparent()
    state = _Element(dict(states[parent].custom) if parent in states else {})
    states[el] = state
    declared: list[_Declared] = []
    if matcher is not None:
        for specificity, order, pseudo, content in matcher.match(wrapper):
            if pseudo is None:
                declared += _declarations(content, specificity, order, el.sourceline)
    if el.get("style"):
        parsed = tinycss2.parse_blocks_contents(el.get("style", ""), skip_comments=True, skip_whitespace=True)
        declared += _declarations(parsed, _INLINE, 0, el.sourceline)
    for name in _COLOURED:  # presentation attributes in the colours of CSS Color 4 and 5
        if _modern(el.get(name)):
            el.set(name, _colour(el.get(name, "")))
    for name in list(el.attrib):
        if isinstance(name, str) and "var(" in el.attrib[name] and name != "style":
            del el.attrib[name]  # a presentation attribute may not use var(): a browser ignores it
    if not declared:
        return
    applied = _applied(declared, state, el.sourceline)
    written = drop_inert_css(";".join(f"{k}:{v}" for k, v in applied.items()))
    if written:
        el.set("style", written)
    elif "style" in el.attrib:
        del el.attrib["style"]


def _modern(value: str | None) -> bool:
    """Whether a colour value uses more than the CSS 3 colours (a function of CSS Color 4 or 5, or the slash syntax)."""
    if not value or "(" not in value:
        return False
    name = value.strip().split("(", 1)[0].strip().lower()
    return name not in _CSS3_COLOURS or "/" in value or "," not in value


__all__ = ["MAX_MATCHING", "CssError", "resolve_css"]
