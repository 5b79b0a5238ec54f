"""Gradients and patterns that take their attributes and content from another by ``href``, written out whole.

SVG lets a gradient (or a pattern) name another with ``href`` and take from
it every attribute it does not give itself (``gradientTransform``,
``gradientUnits``, its geometry, ``spreadMethod`` ...) and its stops (or the
pattern its content) when it has none.  A browser does; the print renderer
leaves some of it behind (a ``gradientTransform`` given only by the gradient
named).  So each such gradient and pattern is written out with everything it
takes, and its ``href`` goes: screen and print read the same, complete
definition.
"""

from __future__ import annotations

import copy

from lxml import etree

from .repeats import TooMuchToDraw
from .sanitise import MAX_DRAWN, SVG_NS, XLINK_NS
from .svgrefs import href_chain, local

_SHARED = ("gradientUnits", "gradientTransform", "spreadMethod")
_KIND = {
    "linearGradient": ("x1", "y1", "x2", "y2", *_SHARED),
    "radialGradient": ("cx", "cy", "r", "fx", "fy", "fr", *_SHARED),
    "pattern": (
        "x",
        "y",
        "width",
        "height",
        "patternUnits",
        "patternContentUnits",
        "patternTransform",
        "viewBox",
        "preserveAspectRatio",
    ),
}
_GRADIENTS = ("linearGradient", "radialGradient")


def _content(el: etree._Element) -> list[etree._Element]:
    return [child for child in el if isinstance(child.tag, str) and (local(child) == "stop" or local(el) == "pattern")]


def write_out_references(root: etree._Element) -> bool:
    """Every gradient and pattern of ``root`` that names another with ``href`` made whole (see the module's
    words); whether any was.  Copies that would take the side past :data:`~.sanitise.MAX_DRAWN` elements raise
    :class:`~.repeats.TooMuchToDraw` at the line of the gradient or pattern that goes past it, before it is made."""
    by_id = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    drawn = sum(1 for _ in root.iter())
    changed = False
    for el in list(root.iter(*(f"{{{SVG_NS}}}{kind}" for kind in _KIND))):
        if el.get("href") is None and el.get(f"{{{XLINK_NS}}}href") is None:
            continue
        drawn = _made_whole(el, href_chain(el, by_id), drawn)
        changed = True
    return changed


def _made_whole(el: etree._Element, chain: list[etree._Element], drawn: int) -> int:
    """``el`` given what it takes from the rest of ``chain`` and its ``href`` taken away; the elements of the side
    once its copies are made (``drawn`` before)."""
    kind = local(el)
    for name in _KIND[kind]:
        if el.get(name) is None:
            given = next((c.get(name) for c in chain[1:] if c.get(name) is not None and _same_family(c, kind)), None)
            if given is not None:
                el.set(name, given)
    if not _content(el):
        source = next((c for c in chain[1:] if _content(c) and _same_family(c, kind)), None)
        taken = _content(source) if source is not None else []
        drawn += sum(1 for child in taken for _ in child.iter())
        if drawn > MAX_DRAWN:
            raise TooMuchToDraw(el.sourceline)
        for child in taken:
            copied = copy.deepcopy(child)
            for part in copied.iter():
                if isinstance(part.tag, str):
                    part.attrib.pop("id", None)  # an id is its own: the copy is nobody's
            el.append(copied)
    for name in ("href", f"{{{XLINK_NS}}}href"):
        el.attrib.pop(name, None)
    return drawn


def _same_family(other: etree._Element, kind: str) -> bool:
    """Whether ``other`` can give ``kind`` what it lacks: a gradient to a gradient, a pattern to a pattern."""
    return (local(other) in _GRADIENTS) == (kind in _GRADIENTS)


__all__ = ["write_out_references"]
