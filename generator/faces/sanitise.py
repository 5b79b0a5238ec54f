"""The allow-list every card SVG must pass: drawing elements, presentation attributes and CSS, nothing active.

A card's SVG is written to files, drawn into PDFs and (in the preview) shown
in a browser, so it may hold only what draws: shapes, paths, text, groups,
gradients, clip paths, masks, blend modes, filters, ``<use>`` of an ``#id``
and inline pictures.  What is allowed is data (``allowlist.toml``, read by
:mod:`.allowlist`), each entry with the specimen the tests' fidelity matrix
prints.  Scripts, event handlers, ``<foreignObject>``, links, animation,
processing instructions, CSS at-rules and escapes, and anything that refers
outside the card are errors naming the template and the output line, every
one of a side at once.  (What drawing programs write that draws nothing is
taken out before, by :mod:`.clean`; nothing else is ever changed.)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from ..resources.allowlist import allow_list
from .numbers import number_problem

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"

_ELEMENTS = allow_list().elements
_PRESENTATION = allow_list().presentation
_PROPERTIES = allow_list().properties | allow_list().inert_properties | frozenset(allow_list().initial)
# (what draws nothing is allowed here: the cleaner takes it out, and what is left is checked again)
_ATTRIBUTES = allow_list().attributes
_PLAIN = _ATTRIBUTES - {"href", "style"}  # attributes whose value needs a look only when it calls a function
_LOCAL_REFERENCE = re.compile(r"^\s*(#[A-Za-z_][\w.:-]*|data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]*)\s*$")
_CUSTOM_PROPERTY = re.compile(r"--[A-Za-z_][\w-]*")
URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.S | re.I)  # CSS reads URL( as url(
# any url( whose target is not '#id', closed or not (a browser takes one left open at the end of a value)
_FOREIGN_URL = re.compile(r"url\((?!\s*['\"]?\s*#)", re.I)
_LOADS = re.compile(r"\b(image-set|-webkit-image-set|image|cross-fade|element|src)\s*\(", re.I)  # other CSS that fetches
_CSS_RULE = re.compile(r"\s*([^{}]+?)\s*\{([^{}]*)\}", re.S)
_SELECTOR = re.compile(r"[\w\s.#,>+~*:()=\[\]\"'-]+")


def _css_problem(text: str) -> str | None:
    """Why the CSS declarations in ``text`` are not allowed, or None."""
    if "\\" in text:
        return "CSS escapes (backslashes) are not allowed"
    if "@" in text:
        return "CSS at-rules (@import, @font-face ...) are not allowed"
    if re.search(r"expression\s*\(|javascript:|behavior\s*:|-moz-binding", text, re.I):
        return "active CSS is not allowed"
    for declaration in text.split(";"):
        if not declaration.strip():
            continue
        prop, colon, value = declaration.partition(":")
        prop = prop.strip()
        if not _CUSTOM_PROPERTY.fullmatch(prop):
            prop = prop.lower()
        if not colon or (prop not in _PROPERTIES and not _CUSTOM_PROPERTY.fullmatch(prop)):
            return f"CSS property '{prop[:40]}' is not allowed in a card"
        problem = _reference_problem(
            value, "CSS may only refer to '#id', not '{}'", "CSS function '{}()' is not allowed in a card"
        )
        if problem:
            return problem
    if _FOREIGN_URL.search(text):  # the whole text: a ';' inside quotes does not end a declaration
        return "CSS may only refer to '#id' with url()"
    return None


def _stylesheet_problem(text: str) -> str | None:
    if "\\" in text or "@" in text:
        return _css_problem(text)
    rest = _CSS_RULE.sub("", text)
    if rest.strip():
        return "a <style> may hold only rules of the form 'selector { property: value }'"
    for selector, body in _CSS_RULE.findall(text):
        if not _SELECTOR.fullmatch(selector):
            return f"CSS selector '{selector[:40]}' is not allowed"
        problem = _css_problem(body)
        if problem:
            return problem
    return None


def _attribute_problem(element: etree._Element, name: str, value: str) -> str | None:
    qname = etree.QName(name)
    local, namespace = qname.localname, qname.namespace
    if local.lower().startswith("on"):
        return f"event handler {local}= is not allowed"
    if namespace not in (None, XLINK_NS, XML_NS) or (namespace == XLINK_NS and local != "href"):
        return f"attribute '{local}' in namespace '{namespace}' is not allowed"
    if local.startswith("data-"):
        return None
    if local not in _ATTRIBUTES:
        return f"attribute '{local}' is not allowed"
    if local == "href" and not _LOCAL_REFERENCE.match(value):
        shown = value if len(value) < 60 else value[:57] + "..."
        return f"refers to '{shown}'; a card may only use '#id' references and inline data:image/png or data:image/jpeg images"
    if local == "style":
        return _css_problem(value)
    problem = _reference_problem(
        value, "refers to '{}'; a card may only use '#id' references", "the function '{}()' is not allowed in a card"
    )
    if problem is None and _FOREIGN_URL.search(value):
        return "url() may only refer to '#id' in a card"
    return problem


def _reference_problem(value: str, elsewhere: str, fetching: str) -> str | None:
    """A ``url()`` to anything but '#id', or a CSS function that fetches, in ``value``: said with the format given."""
    for _, target in URL.findall(value):
        if not target.strip().startswith("#"):
            return elsewhere.format(target[:60])
    fetch = _LOADS.search(value)
    return fetching.format(fetch.group(1)) if fetch else None


def sanitise_problems(root: etree._Element) -> list[tuple[int | None, str]]:
    """Everything in the parsed SVG outside the allow-list: (output line, what is wrong), in document order."""
    found: list[tuple[int | None, str]] = []
    refused: set[etree._Element] = set()  # what is inside a refused element is not told of again
    for node in [*root.itersiblings(preceding=True), *root.iter(), *root.itersiblings()]:
        if isinstance(node, etree._ProcessingInstruction):
            found.append((node.sourceline, f"processing instruction <?{node.target} ...?> is not allowed"))
            continue
        if not isinstance(node.tag, str):
            continue
        parent = node.getparent()
        if parent is not None and parent in refused:
            refused.add(node)
            continue
        qname = etree.QName(node)
        if qname.namespace != SVG_NS or qname.localname not in _ELEMENTS:
            where = f" in namespace '{qname.namespace}'" if qname.namespace != SVG_NS else ""
            found.append((node.sourceline, f"element <{qname.localname}>{where} is not allowed in a card"))
            refused.add(node)
            continue
        for name, value in node.attrib.items():
            if name in _PLAIN and "(" not in value:
                continue  # the common case: a known attribute with a plain value
            problem = _attribute_problem(node, name, value)
            if problem:
                found.append((node.sourceline, f"<{qname.localname}>: {problem}"))
        if qname.localname == "style":
            if len(node):
                found.append((node.sourceline, "<style> may hold only text, not elements"))
                continue
            problem = _stylesheet_problem(node.text or "")
            if problem:
                found.append((node.sourceline, f"<style>: {problem}"))
        elif qname.localname not in ("text", "tspan", "title", "desc", "textPath") and (node.text or "").strip():
            found.append((node.sourceline, f"<{qname.localname}> may not hold text"))
        problem = number_problem(node)
        if problem:
            found.append((node.sourceline, f"<{qname.localname}>: {problem}"))
    used = _use_problem(root) or _drawn_problem(root)
    return [*found, used] if used else found


def sanitise_problem(root: etree._Element) -> tuple[int | None, str] | None:
    """The first thing in the parsed SVG outside the allow-list: (output line, what is wrong)."""
    found = sanitise_problems(root)
    return found[0] if found else None


MAX_DRAWN = 25_000  # elements a card draws once every <use> is followed: far above any card, well below a hang
_MAX_USE_DEPTH = 32


def drawn_counter(root: etree._Element) -> Callable[[etree._Element], int]:
    """``count(el)``: the elements ``el`` draws once every ``<use>`` in it is followed (at most
    :data:`MAX_DRAWN` + 1, which uses nested too deep or referring round in a circle count as), each element's
    worked out once."""
    by_id: dict[str, list[etree._Element]] = {}  # every element of an id: readers differ on which one counts
    for el in root.iter():
        if isinstance(el.tag, str) and el.get("id"):
            by_id.setdefault(el.get("id", ""), []).append(el)
    drawn: dict[etree._Element, int] = {}

    def count(el: etree._Element, depth: int = 0) -> int:
        if el in drawn:
            return drawn[el]
        if depth > _MAX_USE_DEPTH:
            return MAX_DRAWN + 1
        total = 1 + sum(count(child, depth + 1) for child in el if isinstance(child.tag, str))
        if el.tag == f"{{{SVG_NS}}}use":  # both its references, whichever a reader follows: the larger counts
            refs = [(el.get(name) or "").strip() for name in ("href", f"{{{XLINK_NS}}}href")]
            targets = [t for ref in refs if ref.startswith("#") for t in by_id.get(ref[1:], [])]
            total += max((count(target, depth + 1) for target in targets), default=0)
        drawn[el] = total = min(total, MAX_DRAWN + 1)
        return total

    return count


def _use_problem(root: etree._Element) -> tuple[int | None, str] | None:
    """A card whose <use> elements, followed, would draw more than :data:`MAX_DRAWN` elements (a few
    kilobytes of nested uses can ask a browser for millions), or that refer round in a circle."""
    uses = list(root.iter(f"{{{SVG_NS}}}use"))
    if uses and drawn_counter(root)(root) > MAX_DRAWN:
        return uses[0].sourceline, (
            f"its <use> elements, followed, would draw more than {MAX_DRAWN:,} elements (or refer round in a circle)"
        )
    return None


MAX_NESTING = 23  # groups (and placed drawings, uses) inside one another the print renderer draws: 24 it refuses
# elements blended into what is under them (mix-blend-mode), uses followed: a press file flattens each against the
# whole side, and its cost grows with their square (200 take seconds a side, 5,000 hours)
MAX_BLENDED = 64
_NESTING = frozenset(f"{{{SVG_NS}}}{name}" for name in ("g", "svg", "use", "symbol", "a", "switch"))
_NOT_DRAWN = frozenset(
    f"{{{SVG_NS}}}{name}"
    for name in ("defs", "clipPath", "mask", "pattern", "marker", "linearGradient", "radialGradient", "filter", "style")
)
_BLENDED = re.compile(r"mix-blend-mode\s*:\s*(?!\s*normal\b)[a-z]", re.I)
_FILTERED = re.compile(r"(?:^|;)\s*filter\s*:\s*url\(", re.I)
_MAX_FRAMES = 400  # elements on one path from the root, uses followed: past it, nested too deep whatever they are


def blending(el: etree._Element) -> bool:
    """Does ``el`` blend into what is under it (a ``mix-blend-mode`` other than normal)?"""
    return el.get("mix-blend-mode", "normal").strip().lower() != "normal" or bool(_BLENDED.search(el.get("style", "")))


def filtered(el: etree._Element) -> bool:
    """Does ``el`` have a filter (``filter: url(...)``, in its style or as an attribute)?"""
    return bool(_FILTERED.search(el.get("style", ""))) or (el.get("filter") or "").strip().startswith("url(")


def filtered_and_blended(el: etree._Element) -> bool:
    """Both: what the print renderer draws unblended unless the blend is moved to a group of its own."""
    return isinstance(el.tag, str) and el.tag not in _NOT_DRAWN and blending(el) and filtered(el)


def _drawn_problem(root: etree._Element) -> tuple[int | None, str] | None:
    """The outermost element holding groups nested deeper than :data:`MAX_NESTING` as drawn (every ``<use>``
    followed), which the print renderer would refuse after ``validate`` and the preview had passed the side; or
    one drawing more than :data:`MAX_BLENDED` blended elements, which would take the press file hours."""
    by_id = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    measured: dict[etree._Element, tuple[int, int]] = {}

    def measure(el: etree._Element, frames: int) -> tuple[int, int]:
        """(how deep its groups nest, how many blended elements it draws), each at most one past its limit."""
        if el in measured:
            return measured[el]
        if frames > _MAX_FRAMES:
            return MAX_NESTING + 1, 0
        below = [child for child in el if isinstance(child.tag, str) and child.tag not in _NOT_DRAWN]
        if el.tag == f"{{{SVG_NS}}}use":
            ref = (el.get("href") or el.get(f"{{{XLINK_NS}}}href") or "").strip()
            below += [by_id[ref[1:]]] if ref.startswith("#") and ref[1:] in by_id else []
        own = blending(el)
        tallest, blended = int(own and filtered(el)), int(own)  # the print renderer draws such an element in a group
        for child in below:
            height, blends = measure(child, frames + 1)
            tallest, blended = max(tallest, height), blended + blends
            if tallest > MAX_NESTING or blended > MAX_BLENDED:
                break
        measured[el] = found = min(tallest + (el.tag in _NESTING), MAX_NESTING + 1), min(blended, MAX_BLENDED + 1)
        return found

    blended = 0
    for child in root:
        if not isinstance(child.tag, str) or child.tag in _NOT_DRAWN:
            continue
        height, blends = measure(child, 1)
        name = etree.QName(child).localname
        if height > MAX_NESTING:
            return child.sourceline, (
                f"<{name}>: holds groups nested more than {MAX_NESTING} deep (uses followed), "
                f"more than the print renderer draws; flatten the drawing's groups"
            )
        blended += blends
        if blended > MAX_BLENDED:
            return child.sourceline, (
                f"<{name}>: the side blends more than {MAX_BLENDED} elements (mix-blend-mode, uses followed); "
                f"a print shop's file flattens each over the whole side: blend a group of them once"
            )
    return None
