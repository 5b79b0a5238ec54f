"""Markdown source to an element tree, and inline elements to Paragraph markup.

Python-Markdown parses the text (with tables); raw HTML and HTML entities are
switched off, so ``<b>`` in a source is printed as the characters ``<b>``.
Every piece of text that goes into a reportlab Paragraph passes through
``escape`` first: Paragraph's own mini-markup only ever comes from here.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass

import markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import AMP_SUBSTITUTE

from ..definitions.printable import unprintable
from ..definitions.schema import suggest
from ..errors import AetherpressError, Problem
from ..faces.richtext import Icon
from .inlineicons import icon_markup
from .scripts import has_rtl
from .words import spaced

_STASH = re.compile("\x02wzxhzdk:(\\d+)\x03")
_LEFTOVER_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


_OBFUSCATED = re.compile(re.escape(AMP_SUBSTITUTE) + r"#(\d{1,7});")


def unobfuscated(text: str) -> str:
    """``text`` with the characters Markdown writes as numbered entities (an e-mail address in ``<...>``, which
    it hides from address harvesters in web pages) as themselves: a printed book has no harvesters."""

    def character(match: re.Match) -> str:
        code = int(match.group(1))
        shown = chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else ""
        return shown if unprintable(shown) is None else ""

    return _OBFUSCATED.sub(character, text)


class _Capture(Treeprocessor):
    """Keeps the finished tree (runs after every other tree processor)."""

    def run(self, root):
        self.md.captured_root = root
        return None


def parse(text: str) -> ET.Element:
    """The element tree of a Markdown text (a ``<div>`` holding the blocks)."""
    md = markdown.Markdown(extensions=["tables", "sane_lists"])
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.inlinePatterns.deregister("entity")
    md.treeprocessors.register(_Capture(md), "aetherpress-capture", -100)
    md.convert(text)
    root: ET.Element = md.captured_root
    stash = list(md.htmlStash.rawHtmlBlocks)

    def unstash(value: str | None) -> str | None:
        if value is None:
            return None
        value = _STASH.sub(lambda m: html.unescape(str(stash[int(m.group(1))])), value)
        return _LEFTOVER_CONTROL.sub("", unobfuscated(value))

    for element in root.iter():
        element.text = unstash(element.text)
        element.tail = unstash(element.tail)
        for key, value in list(element.attrib.items()):
            element.set(key, unstash(value) or "")
    return root


def escape(text: str) -> str:
    """Text made safe for reportlab's Paragraph markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slug(text: str) -> str:
    text = text.lower().replace("’", "").replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "section"


def plain_text(element: ET.Element) -> str:
    return "".join(element.itertext()).strip()


@dataclass
class SourceMap:
    """Finds where an element came from, for error messages.

    Markdown does not keep line numbers, so an element is located by searching
    for its text: first in the source file as written, then in the text after
    templating (which is what the message then says).
    """

    file: str
    written: str
    rendered: str

    def problem(self, element: ET.Element | None, message: str) -> Problem:
        patterns = []
        if element is not None:
            words = plain_text(element).split()[:4]
            if words:
                patterns.append(re.compile(".*?".join(re.escape(w) for w in words)))
            for sub in element.iter():
                for attr in ("src", "href"):
                    value = sub.get(attr)
                    if value:
                        patterns.append(re.compile(re.escape(value)))
        for pattern in patterns:
            for text, suffix in ((self.written, ""), (self.rendered, " (after templating)")):
                for number, line in enumerate(text.splitlines(), 1):
                    if pattern.search(line):
                        return Problem(self.file, message + suffix, number)
        return Problem(self.file, message)

    def error(self, element: ET.Element | None, message: str) -> AetherpressError:
        return AetherpressError(self.problem(element, message))

    def at_rendered_line(self, number: int, message: str) -> AetherpressError:
        """A problem on line ``number`` of the text after templating, placed in the source as written if it is there."""
        line = self.rendered.splitlines()[number - 1]
        for written_number, written_line in enumerate(self.written.splitlines(), 1):
            if written_line == line:
                return AetherpressError(Problem(self.file, message, written_number))
        return AetherpressError(Problem(self.file, message + " (after templating)", number))


MAX_NESTING = 12  # block quotes and lists inside each other
_MAX_WORD = 120  # characters without a space (link addresses aside)
# Chinese and Japanese characters (ideographs, kana, CJK punctuation, full-width forms): a line may break before
# and after each, as the book's Chinese and Japanese lines do, so a run of them is no long word
_CJK = (
    "\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3190-\u31ff\u3200-\u33ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f"
)
_LONG_WORD = re.compile(rf"[^\s{_CJK}]{{{_MAX_WORD + 1},}}")


# what opens a quote or a list at the start of a line, after the markers before it: Markdown nests
# "- - - x" as three lists and "> 1. > x" as a quote in a list in a quote, all on one line
_CONTAINER = re.compile(r"[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))")
_INDENT = re.compile(r"[ \t]*")
_RULE = re.compile(r"([-*_])(?:[ \t]*\1){2,}[ \t]*")  # "- - -" is a rule, not three lists


def nesting(line: str) -> int:
    """How many quotes and lists ``line`` is inside: four columns of indent each (a tab reaching the
    next multiple of four), then each marker that opens one; one pass over the line."""
    indent = _INDENT.match(line)
    at = indent.end() if indent else 0
    columns = 0
    for c in line[:at]:
        columns += 1 if c == " " else 4 - columns % 4
    depth = columns // 4
    if at == len(line) or _RULE.fullmatch(line, at):
        return depth
    while depth <= MAX_NESTING and (match := _CONTAINER.match(line, at)):
        depth += 1
        at = match.end()
    return depth


def check_limits(source: SourceMap) -> None:
    """Text Markdown or the page layout could choke on: very deep nesting, very long words.

    Each line is read once, before the Markdown parser sees the text: its nesting is measured by
    :func:`nesting` (the parser recurses once per level, and a thousand levels exhaust Python's stack
    after a minute and gigabytes), its words by one regular expression (a Chinese or Japanese character
    ends a word: lines break between them).
    """
    for number, line in enumerate(source.rendered.splitlines(), 1):
        depth = nesting(line)
        if depth > MAX_NESTING:
            raise source.at_rendered_line(number, f"quotes and lists are nested more than {MAX_NESTING} deep")
        words = re.sub(r"\]\([^)\s]*\)|<[^>\s]*>", "", line)
        long_word = _LONG_WORD.search(words)
        if long_word:
            raise source.at_rendered_line(
                number, f"a word of {len(long_word.group(0)):,} characters is longer than a line can hold ({_MAX_WORD})"
            )


_LINK_SCHEMES = ("http://", "https://", "mailto:")


class Inline:
    """Converts the inline content of a block element to Paragraph markup."""

    def __init__(
        self, source: SourceMap, anchors: set[str], link_colour: str, code_font: str, icons: Mapping[str, Icon] | None = None
    ):
        self.source = source
        self.anchors = anchors
        self.link_colour = link_colour
        self.code_font = code_font
        self.icons = icons or {}

    def text(self, text: str, block: ET.Element) -> str:
        """Plain text as Paragraph markup, each ``:name:`` of an icon drawn as the icon."""

        def unknown(name: str) -> None:
            raise self.source.error(
                block,
                f"unknown icon ':{name}:'{suggest(f':{name}:', [f':{n}:' for n in self.icons])}; icons are the project's icons/ and the library's symbols",
            )

        return icon_markup(text, escape(text), self.icons, unknown)

    def markup(self, element: ET.Element, block: ET.Element | None = None) -> str:
        block = block if block is not None else element
        parts = [self.text(spaced(element.text or ""), block)]
        for child in element:
            parts.append(self.child(child, block))
            parts.append(self.text(spaced(child.tail or ""), block))
        return "".join(parts).strip()

    def child(self, child: ET.Element, block: ET.Element) -> str:
        tag = child.tag
        if tag in ("em", "i"):
            return f"<i>{self.markup(child, block)}</i>"
        if tag in ("strong", "b"):
            return f"<b>{self.markup(child, block)}</b>"
        if tag == "code":
            return f'<font face="{self.code_font}">{escape(child.text or "")}</font>'
        if tag == "br":
            return "<br/>"
        if tag == "a":
            href = child.get("href", "")
            inner = self.markup(child, block)
            if href.startswith("#"):
                anchor = href[1:]
                if anchor not in self.anchors:
                    raise self.source.error(
                        block,
                        f"link to '#{anchor}', but no heading has that anchor (anchors are heading texts in lower case with dashes)",
                    )
                return f'<a href="#{escape(anchor)}" color="{self.link_colour}">{inner}</a>'
            if href.startswith(_LINK_SCHEMES):
                return f'<a href="{escape(href).replace(chr(34), "%22")}" color="{self.link_colour}">{inner}</a>'
            raise self.source.error(block, f"link target '{href}' is not allowed; use #heading, http(s):// or mailto:")
        if tag == "img":
            raise self.source.error(
                block, "an image must stand alone in its paragraph (or with other images only) or in a table cell"
            )
        raise self.source.error(block, f"unsupported inline Markdown element <{tag}>")


_MARKUP = re.compile(r"(<[^>]*>)|([^<]+)")


def last_words_bound(markup: str) -> str:
    """A heading's markup with its last two words bound by a no-break space, so that its last line holds at least
    two words ("Twofold: The Game / for Two", never "Twofold: The Game for / Two").  A heading with right-to-left
    text is left as it is: the line's words are put in their drawn order at its spaces, and two words bound into
    one would be drawn in reading order."""
    if has_rtl(markup):
        return markup
    tokens = [m.group(0) for m in _MARKUP.finditer(markup)]
    texts = [i for i, t in enumerate(tokens) if not t.startswith("<")]
    seen_after = False  # a word follows
    for index in reversed(texts):
        token = tokens[index]
        for j in range(len(token) - 1, -1, -1):
            if token[j] != " ":
                seen_after = True
                continue
            before = token[:j].strip() or any(tokens[i].strip() for i in texts if i < index)
            if seen_after and before:
                tokens[index] = token[:j] + "\u00a0" + token[j + 1 :]
                return "".join(tokens)
    return markup
