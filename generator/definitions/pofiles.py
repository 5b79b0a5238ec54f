"""Gettext catalogues (``translations/LANG.po``) read and written through Babel, bounded like any other input.

A catalogue comes from a translator, a platform or a download, so it is
checked before Babel's parser sees it: a regular file inside the project, at
most :data:`MAX_CATALOGUE_BYTES`, in the text encoding its header names (a
real one: ``rot13`` and ``zlib`` are codecs, not encodings), with no control
characters.  Babel's own parser then reads it, made strict where it is
forgiving: a string without its closing quote, a keyword without a quoted
string, text after the closing quote, an unknown escape, the same text twice
and a header asking for more plural forms than any language has (CLDR needs at
most six) are each one line naming the catalogue's line, never a text quietly
changed.  Everything here answers in one line; nothing is half read.
"""

from __future__ import annotations

import codecs
import io
import re
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import AetherpressError, Problem, display_path
from ..locations import real
from ..project.files import read_regular

MAX_CATALOGUE_BYTES = 8_000_000
MAX_PLURALS = 6  # CLDR's most plural forms (Arabic: zero, one, two, few, many, other)
_HEADER_BYTES = 65_536  # the header comes first; its charset is looked for this far
_CHARSET = re.compile(rb"charset\s*=\s*([^\s\"\\;]*)", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # tabs and line breaks aside
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = frozenset('\\"nt')  # the escapes Babel reads (and \r: a carriage return no card can print)
_KEYWORDS = ("msgctxt", "msgid", "msgid_plural", "msgstr")
_NAMES = {0: "NUL", 7: "BEL", 8: "BS", 11: "VT", 12: "FF", 13: "CR", 27: "ESC", 127: "DEL"}


class _Bad(Exception):
    """A problem at a line of the catalogue (counted from 1)."""

    def __init__(self, line: int | None, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def control_name(char: str) -> str:
    code = ord(char)
    return f"U+{code:04X}" + (f" ({_NAMES[code]})" if code in _NAMES else "")


def read_catalog(path: Path, root: Path | None = None, locale: str | None = None) -> Any:
    """The Babel ``Catalog`` in ``path``; a catalogue that is not whole, sound and bounded is an AetherpressError
    naming its line.  ``root``: the folder a link may not lead out of (by default the project's: the folder holding the ``decks/``
    the catalogue is in)."""
    name = display_path(path)
    try:
        return _read(path, root, locale)
    except _Bad as bad:
        raise AetherpressError(Problem(name, bad.message, bad.line)) from None


def _project_root(path: Path) -> Path:
    """The project a catalogue belongs to: the folder that holds the ``decks/`` it is in."""
    for parent in path.absolute().parents:
        if parent.name == "decks":
            return parent.parent
    return path.absolute().parent.parent


def _read(path: Path, root: Path | None, locale: str | None) -> Any:
    if not real(path).is_relative_to(real(root or _project_root(path))):
        raise _Bad(None, "is a link to a place outside the project; copy the catalogue in instead")
    try:
        data = read_regular(path, MAX_CATALOGUE_BYTES)
    except OSError:
        if path.is_file() and path.stat().st_size > MAX_CATALOGUE_BYTES:
            size = path.stat().st_size / 1_000_000
            raise _Bad(
                None, f"a catalogue may be at most {MAX_CATALOGUE_BYTES // 1_000_000} MB; this one is {size:.1f} MB"
            ) from None
        raise _Bad(None, "is not a file that can be read (a catalogue is a text file)") from None
    if len(data) > MAX_CATALOGUE_BYTES:
        raise _Bad(None, f"a catalogue may be at most {MAX_CATALOGUE_BYTES // 1_000_000} MB")
    text = _decoded(data)
    for number, line in enumerate(text.split("\n"), 1):
        found = _CONTROL.search(line.rstrip("\r"))
        if found:
            raise _Bad(number, f"control character {control_name(found.group())} in the catalogue; a catalogue holds text only")
    # babel loads only when a language is read or checked
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import PoFileError

    catalog = Catalog(locale=locale, charset="utf-8")
    try:
        _strict_parser()(catalog).parse(io.StringIO(text))
    except PoFileError as exc:
        told = str(exc.args[0] if exc.args else exc).split(" on ")[0] or "not a readable PO file"
        at = getattr(exc, "lineno", None)
        raise _Bad(at + 1 if isinstance(at, int) else None, told[:1].lower() + told[1:]) from None
    except (ValueError, KeyError, IndexError) as exc:  # a header Babel cannot read
        raise _Bad(None, f"not a readable PO file: {exc}") from None
    return catalog


def _decoded(data: bytes) -> str:
    """``data`` decoded by the charset its header names (UTF-8 when it names none)."""
    charset, line = "utf-8", None
    found = _CHARSET.search(data[:_HEADER_BYTES])
    if found:
        charset = found.group(1).decode("ascii", "replace") or "utf-8"
        line = data[: found.start()].count(b"\n") + 1
    try:
        info = codecs.lookup(charset)
    except LookupError:
        raise _Bad(line, f"charset '{charset}' is not a text encoding Python knows; save the catalogue as UTF-8") from None
    if not getattr(info, "_is_text_encoding", True) or "msgid".encode(info.name, "replace") != b"msgid":
        raise _Bad(line, f"charset '{charset}' is not a text encoding a catalogue can be written in; save it as UTF-8")
    if data.startswith(codecs.BOM_UTF8) and info.name == "utf-8":
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode(info.name)
    except UnicodeDecodeError as exc:
        at = data[: exc.start].count(b"\n") + 1
        raise _Bad(at, f"not {charset} text (byte 0x{data[exc.start]:02x}); save the catalogue as UTF-8") from None


@cache
def _strict_parser() -> type:
    """Babel's PO parser, refusing what it would otherwise read as some other text (made on first use: babel
    loads only when a language is read or checked)."""
    from babel.messages.pofile import PoFileParser

    class StrictParser(PoFileParser):
        """Babel's PO parser, refusing what it would otherwise read as some other text."""

        def __init__(self, catalog: Any):
            super().__init__(catalog, ignore_obsolete=False, abort_invalid=True)
            self._seen: dict[tuple[str | None, str], int] = {}
            self._plural_line: int | None = None  # the line that says Plural-Forms, for its message
            self._msgstr_line: int | None = None  # the line of the current message's msgstr: where its translation is

        def _process_message_line(self, lineno: int, line: str, obsolete: bool = False) -> None:
            if "plural-forms" in line.lower():
                self._plural_line = lineno + 1
            if line and line[0] != '"':
                keyword, _, arg = line.partition(" ")
                base = keyword.partition("[")[0]
                if base in _KEYWORDS:
                    _check_string(lineno, arg.strip(), keyword)
                    if base == "msgstr":
                        self._msgstr_line = lineno + 1
                    if keyword.startswith("msgstr["):
                        index = keyword[len("msgstr[") : -1]
                        if not keyword.endswith("]") or not index.isdigit() or int(index) >= MAX_PLURALS:
                            raise _Bad(lineno + 1, f"'{keyword}': a plural form is msgstr[0] to msgstr[{MAX_PLURALS - 1}]")
            elif line:
                _check_string(lineno, line, "")
            super()._process_message_line(lineno, line, obsolete)

        def _add_message(self) -> None:
            line = self.offset + 1
            msgid = self.messages[0].denormalize() if self.messages else ""
            context = self.context.denormalize() if self.context else None
            strings = [s.denormalize() for _, s in self.translations]
            if not msgid and context is None and not self.obsolete:
                _check_header(self._plural_line or line, strings[0] if strings else "")
            for value in [msgid, context or "", *strings]:
                found = _CONTROL.search(value.replace("\t", " ").replace("\n", " "))
                if found:
                    raise _Bad(line, f"control character {control_name(found.group())} in a text; a catalogue holds text only")
            if msgid and not self.obsolete:
                first = self._seen.setdefault((context, msgid), line)
                if first != line:
                    raise _Bad(line, f"the text '{msgid[:60]}' is in the catalogue twice (first at line {first}); keep one")
            at, self._msgstr_line, obsolete = self._msgstr_line, None, self.obsolete
            super()._add_message()  # resets the parser's state
            message = None if obsolete or not msgid else self.catalog.get(msgid, context)
            if message is not None and at is not None:
                message.lineno = at  # a translation's problems are told at the line that writes it

    return StrictParser


def _check_string(lineno: int, arg: str, keyword: str) -> None:
    if not arg.startswith('"'):
        raise _Bad(lineno + 1, f'{keyword} needs its text in quotes: {keyword} "..."' if keyword else "not a line of a PO file")
    found = _STRING.match(arg)
    if found is None:
        raise _Bad(lineno + 1, 'unterminated string (every "..." needs its closing quote on its line)')
    if found.end() != len(arg):
        raise _Bad(lineno + 1, 'text after the closing quote (a quote inside a text is written \\")')
    for escape in _ESCAPE.finditer(found.group(1)):
        if escape.group(1) == "r":
            raise _Bad(lineno + 1, "'\\r' (a carriage return) in a text; no card or page can print it")
        if escape.group(1) not in _ESCAPES:
            raise _Bad(lineno + 1, f"unknown escape '\\{escape.group(1)}' (write \\\\ for a backslash)")


_PLURALS = re.compile(r"nplurals\s*=\s*([^;\s]*)")


def _check_header(line: int, header: str) -> None:
    """The header's plural forms: a number from 1 to :data:`MAX_PLURALS` (Babel would make room for any)."""
    for row in header.splitlines():
        key, _, value = row.partition(":")
        if key.strip().lower() == "plural-forms":
            found = _PLURALS.search(value)
            if found is None or not found.group(1).isdigit() or not 1 <= int(found.group(1)) <= MAX_PLURALS:
                shown = found.group(1) if found else value.strip()[:40]
                raise _Bad(
                    line,
                    f"Plural-Forms: nplurals={shown} is not a number from 1 to {MAX_PLURALS} (CLDR needs at most {MAX_PLURALS})",
                )
            if len(value) > 400:
                raise _Bad(line, "Plural-Forms: the plural rule is longer than 400 characters")


def catalog_bytes(catalog: Any, include_previous: bool = False) -> bytes:
    """``catalog`` as a PO file (Babel's writer, lines of at most 100 characters, in the order it holds)."""
    # babel loads only when a language is read or checked
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog, width=100, include_previous=include_previous, sort_output=False)
    return out.getvalue()


_PREVIOUS = "| msgid "  # Babel's reader keeps a ``#| msgid "..."`` line (and each ``#| "..."`` after it) as comments


def made_from(message: Any) -> str:
    """The source text a translation was made from: a fuzzy entry's ``#| msgid "..."`` (over as many lines as it
    takes), else its own msgid."""
    # babel loads only when a language is read or checked
    from babel.messages.pofile import unescape

    if message.fuzzy:
        parts: list[str] | None = None
        for comment in message.user_comments:
            if parts is None and comment.startswith(_PREVIOUS):
                parts = [comment[len(_PREVIOUS) :].strip()]
            elif parts is not None and comment.startswith('| "'):
                parts.append(comment[2:].strip())
            elif parts is not None:
                break
        strings = [_STRING.findall(part) for part in parts or ()]
        if parts and all(_STRING.sub("", part).strip() == "" for part in parts):
            return "".join(unescape(f'"{found}"') for line in strings for found in line)
        if message.previous_id:
            return str(message.previous_id[0])
    return str(message.id)
