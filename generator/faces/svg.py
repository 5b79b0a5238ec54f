"""Reading the SVG a template makes, safely: no entities, no network, no files.

A card's SVG may only refer to things inside itself (``#id``) or carry data
inline (``data:image/png;base64,...``).  A DOCTYPE, an entity, or a reference
to a file or a web address is refused with an error naming the element's line.
"""

from __future__ import annotations

import re

from lxml import etree

from ..errors import AetherpressError, Problem

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, huge_tree=False)
_LOCAL_REF = re.compile(r"^\s*(#[^\s]*|data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]*)\s*$")
_URL_IN_STYLE = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]+)")
MAX_SVG_BYTES = 5_000_000


def parse_svg(svg_text: str, source: str, place: str | None = None) -> etree._Element:
    """Parse and check an SVG; problems name ``source`` (a file) and ``place`` (e.g. a card)."""
    try:
        return _parse_svg(svg_text, source)
    except AetherpressError as exc:
        if place is None:
            raise
        raise AetherpressError([Problem(p.file, p.message, p.line, place) for p in exc.problems]) from None


def _parse_svg(svg_text: str, source: str) -> etree._Element:
    data = svg_text.encode("utf-8")
    if len(data) > MAX_SVG_BYTES:
        raise AetherpressError(Problem(source, f"the SVG is larger than {MAX_SVG_BYTES // 1_000_000} MB"))
    declaration = re.search(rb"<!(DOCTYPE|ENTITY)", data, re.I)
    if declaration:
        line = data[: declaration.start()].count(b"\n") + 1
        raise AetherpressError(
            Problem(
                source,
                f"the SVG declares a DOCTYPE or entities (output line {line}), which are not allowed; remove the <!DOCTYPE ...> block",
            )
        )
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        message = re.sub(r", line \d+, column \d+$", "", exc.msg)
        raise AetherpressError(
            Problem(source, f"the SVG it makes does not parse: {message} (output line {exc.lineno})")
        ) from None
    if not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        raise AetherpressError(Problem(source, "the template's output is not an <svg> document"))
    _check_references(root, source)
    return root


def _check_references(root: etree._Element, source: str) -> None:
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            local = etree.QName(name).localname
            refs = []
            if local == "href":
                refs.append(value)
            elif local == "style" or "url(" in value:
                refs.extend(_URL_IN_STYLE.findall(value))
            for ref in refs:
                if not _LOCAL_REF.match(ref) and not (local != "href" and ref.startswith("#")):
                    shown = ref if len(ref) < 60 else ref[:57] + "..."
                    raise AetherpressError(
                        Problem(
                            source,
                            f"<{etree.QName(element).localname}> (output line {element.sourceline}) refers to "
                            f"'{shown}'; a card may only use '#id' references and inline data:image/png or data:image/jpeg images",
                        )
                    )
        if (
            etree.QName(element).localname == "style"
            and element.text
            and re.search(r"@import|url\(\s*['\"]?\s*[^#'\"\s)]", element.text)
        ):
            raise AetherpressError(Problem(source, f"<style> (output line {element.sourceline}) may not import or load anything"))
