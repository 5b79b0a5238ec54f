"""What a translated rulebook translates: its source's sections, and whether each translation is still current.

A book's source (``NAME.md`` and each file it includes) is cut into sections
at its headings.  The catalogue of each edition's language records, per
section, the source text its translation was made from: an entry whose
context names the section (``rulebook|ID|FILE|the-game/setup``), whose msgid
is the section as written and whose msgstr is the heading the translation
gives it.  ``translations update`` records a section the first time it finds
the translation file (``NAME.de.md``); from then on a changed source section
is *stale* (its record kept, marked fuzzy, with the text it was made from, so
``translations status`` shows the change as a diff), until a translator
marks it reviewed (``translations review``).  A draft build tags a stale
section's heading; ``--strict-lang`` refuses it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..definitions.languages import Catalogue, Text, language_name, read_catalogue
from ..errors import Problem, display_path
from .markup import slug

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^(```|~~~)")
_INCLUDE = re.compile(r"""\{%-?\s*include\s+["']([^"']+)["']""")
_STATEMENT = re.compile(r"^\s*(\{[%#].*?[%#]\}\s*)*$")  # a line of Jinja statements or comments only
_MAX_INCLUDED = 32  # files followed through includes, at most
STALE_MARK = "[stale: the source has changed]"  # a draft's tag on a stale section's heading


@dataclass(frozen=True)
class Section:
    """One section of a source file: from a heading to the next."""

    file: Path  # the source file (the book's language)
    key: str  # the headings above it and its own, as slugs: ``twofold-the-game-for-two/setup``
    heading: str
    line: int  # of its heading
    text: str  # as written, heading and body


@dataclass(frozen=True)
class SectionState:
    section: Section
    state: str  # current, stale, missing
    made_from: str = ""  # a stale section: the source text its translation was made from
    heading: str = ""  # the translation's heading for it, as recorded


def sections_of(path: Path) -> list[Section]:
    """The sections of one source file, in order (text before the first heading belongs to none unless it has
    words of its own, not only Jinja statements)."""
    lines = path.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    found: list[Section] = []
    trail: list[tuple[int, str]] = []
    start, heading, fenced = 0, "", False
    keys: set[str] = set()

    def close(end: int) -> None:
        body = "".join(lines[start:end])
        if not heading and all(_STATEMENT.match(line) for line in lines[start:end]):
            return
        key = "/".join(s for _, s in trail) or "start"
        base, n = key, 2
        while key in keys:
            key, n = f"{base}-{n}", n + 1
        keys.add(key)
        found.append(Section(path, key, heading, start + 1, body))

    for number, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        matched = None if fenced else _HEADING.match(line)
        if matched is None:
            continue
        close(number)
        level = len(matched.group(1))
        trail = [(lvl, s) for lvl, s in trail if lvl < level] + [(level, slug(_plain(matched.group(2))))]
        start, heading = number, _plain(matched.group(2))
    close(len(lines))
    return found


def _plain(heading: str) -> str:
    return re.sub(r"[*_`]", "", heading).strip()


def source_files(source: Path) -> list[Path]:
    """``source`` and the files it includes (and they include) from its folder, in the order first named."""
    files = [source]
    for path in files:
        if len(files) >= _MAX_INCLUDED:
            break
        for name in _INCLUDE.findall(path.read_text(encoding="utf-8-sig") if path.is_file() else ""):
            included = path.parent / name
            if included.is_file() and included not in files and included.parent == source.parent:
                files.append(included)
    return files


def translated_file(path: Path, language: str) -> Path:
    """The translation of source file ``path`` into ``language``: ``NAME.de.md`` beside ``NAME.md``."""
    return path.with_name(f"{path.stem}.{language}{path.suffix}")


def section_context(book_id: str, section: Section) -> str:
    return f"rulebook|{book_id}|{section.file.stem}|{section.key}"


def all_sections(source: Path) -> list[Section]:
    """The sections of a book's source and of the files it includes, in order."""
    return [s for path in source_files(source) for s in sections_of(path)]


def record(book_id: str, section: Section) -> Text:
    """The catalogue's record of a section: its source text under the section's context."""
    return Text(
        section_context(book_id, section),
        section.text,
        f"rulebook '{book_id}' section '{section.key}': a record of the source its translation "
        f"({translated_file(section.file, 'LANG').name}) was made from, not a text to translate here",
        display_path(section.file),
        section.line,
    )


def section_records(book_id: str, source: Path) -> list[Text]:
    """The catalogue's records of the sections of a book's source and its includes: one text per section."""
    return [record(book_id, s) for s in all_sections(source)]


def states(book_id: str, source: Path, language: str, catalogue: Catalogue) -> list[SectionState]:
    """Each section of the book's source: current, stale (with what it was translated from) or missing."""
    out = []
    for path in source_files(source):
        own = translated_file(path, language)
        for section in sections_of(path):
            context = section_context(book_id, section)
            if not own.is_file():
                out.append(SectionState(section, "missing"))
                continue
            heading = catalogue.get(context, section.text)
            earlier = catalogue.earlier(context)
            if heading is not None and context not in catalogue.stale:
                out.append(SectionState(section, "current", heading=heading))
            elif earlier is not None:
                out.append(SectionState(section, "stale", earlier[0], earlier[1]))
            else:
                out.append(SectionState(section, "missing"))
    return out


def recorded_headings(source_path: Path, language: str) -> dict[str, str]:
    """section key -> the heading the translation gives it, where the translation has the source's headings in
    the same number and levels (so the n-th heading translates the n-th)."""
    own = translated_file(source_path, language)
    if not own.is_file():
        return {}
    source, translation = sections_of(source_path), sections_of(own)
    if [s.key.count("/") for s in source] != [t.key.count("/") for t in translation]:
        return {}
    return {s.key: t.heading or "start" for s, t in zip(source, translation)}


def diff_lines(before: str, after: str, most: int = 12) -> list[str]:
    """The lines changed from ``before`` to ``after``, as ``- old`` and ``+ new`` (at most ``most``)."""
    changed = [
        line.rstrip("\n")
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    return changed[:most] + ([f"... {len(changed) - most} more changed lines"] if len(changed) > most else [])


def status_lines(book_id: str, source: Path, language: str, catalogue: Catalogue) -> list[str]:
    """What ``translations status`` says of a book's sections in ``language``."""
    found = states(book_id, source, language, catalogue)
    counts = {kind: sum(1 for s in found if s.state == kind) for kind in ("current", "stale", "missing")}
    out = [
        f"rulebook '{book_id}': {len(found)} sections, {counts['current']} current, {counts['stale']} stale, "
        f"{counts['missing']} missing"
    ]
    for item in found:
        s = item.section
        where = f"{display_path(s.file)}:{s.line}"
        if item.state == "stale":
            told = f" (translated as '{item.heading}')" if item.heading else ""
            out.append(f"  stale: section '{s.key}'{told}, {where}; the source since it was translated:")
            out += [f"    {line}" for line in diff_lines(item.made_from, s.text)]
        elif item.state == "missing":
            own = translated_file(s.file, language)
            why = f"no {own.name}" if not own.is_file() else "not recorded as translated (run translations update)"
            out.append(f"  missing: section '{s.key}', {where}: {why}")
    return out


def stale_problems(book_id: str, source: Path, language: str, catalogue: Catalogue) -> list[Problem]:
    """Each stale section of a book in ``language`` as a problem at its translation (``--strict-lang``)."""
    out = []
    for item in states(book_id, source, language, catalogue):
        if item.state != "stale":
            continue
        own = translated_file(item.section.file, language)
        line = next((t.line for t in sections_of(own) if t.heading == item.heading), None)
        out.append(
            Problem(
                display_path(own),
                f"rulebook '{book_id}' in {language_name(language)} ({language}): section '{item.section.key}' is stale: "
                f"the source changed since it was translated ({display_path(item.section.file)}:{item.section.line}); "
                f"bring it up to date, then: aetherpress translations review --lang {language} --section {item.section.key}",
                line,
            )
        )
    return out


def mark_stale(rendered: str, headings: list[str]) -> str:
    """The rendered source with each heading named in ``headings`` tagged as stale (a draft's mark)."""
    if not headings:
        return rendered
    wanted = set(headings)
    out = []
    for line in rendered.split("\n"):
        matched = _HEADING.match(line)
        if matched and _plain(matched.group(2)) in wanted:
            line = f"{line.rstrip()} {STALE_MARK}"
        out.append(line)
    return "\n".join(out)


def edition_problems(book: Any, edition: Any) -> list[Problem]:
    """What keeps ``edition`` (``book`` in a language) from being a whole translation: no source of its own, or
    sections whose source changed since they were translated (warnings; errors with ``--strict-lang``)."""
    # the definition's module loads with the books, not with this one
    from .definition import untranslated_book

    if not edition.speaks:
        return []
    if not edition.translated:
        return [untranslated_book(edition)]
    return stale_problems(book.id, book.source, edition.speaks, read_catalogue(book.file.parent, edition.speaks))
