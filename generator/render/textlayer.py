"""A side's text kept as text in a flattened print file: the side split into what lies under its text and the text.

PDF/X-1a allows no transparency, so Ghostscript turns a page that uses any into
one picture at the shop's resolution, text included.  Text that nothing
transparent is painted over, and that is not itself see-through, can be set
on top of that picture instead and stay text: sharp at any resolution,
searchable, black in one ink.  :func:`split_text` splits a side's SVG into

* the layer under the text: the side without those texts (flattened), and
* the text layer: those texts alone, with the groups, transforms and clip
  paths they sit in, drawn over it as vectors.

A text qualifies when neither it nor a group round it is see-through
(``opacity``, ``fill-opacity``, ``stroke-opacity`` below 1), masked, blended
or filtered, when it is painted in plain colours, and when nothing after it
in painting order could be transparent (a see-through shape, a picture, a
gradient, a ``<use>``).  A side whose ``<style>`` sets any of those is not
split.  What does not qualify stays in the flattened layer, as before.
"""

from __future__ import annotations

import copy
import re

from lxml import etree

SEE_THROUGH = ("opacity", "fill-opacity", "stroke-opacity", "stop-opacity")
EFFECTS = ("mask", "filter", "mix-blend-mode")
NOT_PAINTED = {"defs", "clipPath", "mask", "symbol", "pattern", "linearGradient", "radialGradient", "marker", "style"}
PAINTED_LATER = {"image", "use", "foreignObject"}  # what may carry transparency the attributes do not show
_STYLE_RISK = re.compile(r"opacity|mask|filter|blend", re.I)


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _props(el: etree._Element) -> dict[str, str]:
    found = {k: v.strip() for k, v in el.attrib.items() if isinstance(k, str)}
    for part in (el.get("style") or "").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            found[key.strip().lower()] = value.strip()
    return found


def _number(value: str) -> float:
    try:
        return float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        return 0.0  # a value that cannot be read counts as see-through


def _transparent(el: etree._Element) -> bool:
    """Whether painting ``el`` itself (not its children) may involve transparency."""
    props = _props(el)
    if any(name in props and _number(props[name]) < 1 for name in SEE_THROUGH):
        return True
    if any(props.get(name, "none") not in ("none", "normal", "") for name in EFFECTS):
        return True
    return any("url(" in props.get(name, "") for name in ("fill", "stroke")) or _local(el) in PAINTED_LATER


def _qualifies(text: etree._Element) -> bool:
    if any(_transparent(el) for el in text.iter() if isinstance(el.tag, str)):
        return False
    return not any(_transparent(a) or _local(a) in NOT_PAINTED or _local(a) == "text" for a in text.iterancestors())


def _texts(root: etree._Element) -> list[etree._Element]:
    """The texts that may be set over the flattened layer, in painting order."""
    painted = [el for el in root.iter() if isinstance(el.tag, str) and not _inside_definitions(el)]
    found = []
    clear_after = True  # nothing transparent painted after the element being looked at
    for el in reversed(painted):
        if _local(el) == "text" and clear_after and _qualifies(el):
            found.append(el)
        if _transparent(el) or _local(el) in PAINTED_LATER:
            clear_after = False
    return list(reversed(found))


def _inside_definitions(el: etree._Element) -> bool:
    return any(_local(a) in NOT_PAINTED for a in [el, *el.iterancestors()])


def split_text(svg: str) -> tuple[str, str] | None:
    """(the side without the texts that can stay text, those texts alone), or None when no text can."""
    root = etree.fromstring(svg.encode("utf-8"))
    if any(_local(el) == "style" and _STYLE_RISK.search(el.text or "") for el in root.iter()):
        return None
    texts = _texts(root)
    if not texts:
        return None
    marked = "{urn:aetherpress}layer"
    for n, text in enumerate(texts):
        text.set(marked, str(n))
    over = copy.deepcopy(root)
    for text in texts:
        parent = text.getparent()
        if parent is not None:
            parent.remove(text)
    ancestors = {a for el in over.iter() if isinstance(el.tag, str) and el.get(marked) is not None for a in el.iterancestors()}

    def prune(el: etree._Element) -> None:
        for child in list(el):
            if not isinstance(child.tag, str) or child.get(marked) is not None or _local(child) in NOT_PAINTED:
                continue  # a text kept, or definitions its groups may clip with
            if child in ancestors:
                prune(child)
            else:
                el.remove(child)

    prune(over)
    for text in over.iter():
        if isinstance(text.tag, str):
            text.attrib.pop(marked, None)
    etree.cleanup_namespaces(over)
    return etree.tostring(root, encoding="unicode"), etree.tostring(over, encoding="unicode")


UNDER, OVER = "under", "over"  # the two layers of a side in a flattened file


def layer(svg: str, which: str) -> str:
    """The ``which`` layer of a side: the side less its texts that stay text (UNDER), or those texts (OVER)."""
    split = split_text(svg)
    if split is not None:
        return split[0] if which == UNDER else split[1]
    if which == UNDER:
        return svg
    root = etree.fromstring(svg.encode("utf-8"))
    for child in list(root):
        root.remove(child)
    root.text = None
    return etree.tostring(root, encoding="unicode")  # nothing over: the side's size alone
