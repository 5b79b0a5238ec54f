"""Reading the SVG a template makes, safely: no entities, no network, no files, nothing active.

The text is parsed without entities, DTDs or network access, and must pass
the allow-list of :mod:`.sanitise`; every problem of a side is told at once.  A card's SVG may only refer to things
inside itself (``#id``) or carry data inline (``data:image/png;base64,...``).
Every problem names the template and the line of the output.
"""

from __future__ import annotations

import re

from lxml import etree

from ..errors import AetherpressError, Problem
from .sanitise import sanitise_problems

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, huge_tree=False)
_MAX_SVG_BYTES = 5_000_000  # of drawing, not counting inline images
MAX_OUTPUT_CHARS = 40_000_000  # what a template may write at all, inline images included
_DATA_URI = re.compile(rb"data:image/(?:png|jpeg);base64,[A-Za-z0-9+/=\s]*")


def parse_svg(svg_text: str, source: str, place: str | None = None) -> etree._Element:
    """Parse and check an SVG; problems name ``source`` (a file) and ``place`` (e.g. a card)."""
    try:
        return _parse_svg(svg_text, source)
    except AetherpressError as exc:
        if place is None:
            raise
        raise AetherpressError([Problem(p.file, p.message, p.line, place) for p in exc.problems]) from None


def _parse_svg(svg_text: str, source: str) -> etree._Element:
    root = parse_xml(svg_text, source)
    found = sanitise_problems(root)
    if found:
        raise AetherpressError([Problem(source, f"{message} (output line {line})") for line, message in found])
    return root


def parse_xml(svg_text: str, source: str) -> etree._Element:
    """The SVG text parsed (no entities, no DTD, no network), its root an ``<svg>``, not yet checked against the
    allow-list; problems name ``source``."""
    data = svg_text.encode("utf-8")
    if len(data) > _MAX_SVG_BYTES and len(_DATA_URI.sub(b"", data)) > _MAX_SVG_BYTES:
        raise AetherpressError(
            Problem(source, f"the SVG is larger than {_MAX_SVG_BYTES // 1_000_000} MB, not counting its images; draw less")
        )
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
    return root
