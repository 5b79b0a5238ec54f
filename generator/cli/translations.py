"""``aetherpress translations extract|update|status``: the catalogues translators work in.

Every folder under the project's ``decks/`` whose decks or rulebooks declare
editions gets ``translations/messages.pot`` (``extract``), one
``translations/LANG.po`` per edition language merged from it (``update``),
and a report of each language: translated, missing and stale texts, by card
(``status``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..definitions import catalogues
from ..definitions.languages import Text, catalogue_file, deck_texts, game_texts, language_name, read_catalogue
from ..errors import AetherpressError, Problem, display_path
from ..project import Project
from ..project.files import write_bytes, writing_into
from .common import examples


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("translations", help="translation catalogues: extract, update (merge) and status")
    examples(p, "aetherpress translations extract", "aetherpress translations status --lang de,fr")
    p.add_argument(
        "action",
        choices=("extract", "update", "status", "review"),
        help="extract: write translations/messages.pot of every translatable text; update: merge it into each "
        "edition's translations/LANG.po (and record the sections a translated rulebook translates); status: "
        "translated, missing and stale texts and rulebook sections per language; review: mark the --section "
        "named as translated from the source as it now reads",
    )
    p.add_argument("--lang", default=None, metavar="LANG[,LANG...]", help="only these languages")
    p.add_argument(
        "--section",
        action="append",
        default=[],
        metavar="KEY",
        help="review: a rulebook section, by the key status names (the-game/setup) or its heading; 'all' for every one",
    )


def _folders(project: Project) -> dict[Path, tuple[list[Text], list[str], list]]:
    """Each folder of the project's own decks and rulebooks that declares editions: its texts, edition languages
    and rulebooks."""
    # the command's modules load when it runs, not for --help
    from ..faces.templatewords import template_texts
    from ..pipeline.build import all_targets
    from ..pipeline.context import ProjectContext
    from ..rulebook.definition import book_texts

    context = ProjectContext(project, check_games=False)
    found: dict[Path, tuple[list[Text], list[str], list]] = {}
    definitions = {k: d for k, d in context.definitions.items() if project.layer_of(d.path) is project.own}
    for target in all_targets(definitions):  # every variant's texts (a variant may add or rename cards)
        texts, languages, _ = found.setdefault(target.definition.path.parent, ([], [], []))
        texts += deck_texts(target.deck) + template_texts(project, target.deck)
        languages += [code for code in target.definition.editions if code not in languages]
    for game in context.games.values():  # its hand names, where a folder has editions
        if game.path is not None and project.layer_of(game.path) is project.own:
            found.setdefault(game.path.parent, ([], [], []))[0].extend(game_texts(game))
    for book in context.books.values():
        if project.layer_of(book.file) is not project.own:
            continue
        texts, languages, books = found.setdefault(book.file.parent, ([], [], []))
        texts += book_texts(book)
        books.append(book)
        languages += [code for code in book.editions if code not in languages]
    return {folder: entry for folder, entry in sorted(found.items()) if entry[1]}


def run(project: Project, args: argparse.Namespace) -> int:
    folders = _folders(project)
    if not folders:
        raise AetherpressError('no deck or rulebook of the project declares editions (editions = ["de"] in [deck])')
    wanted = [c.strip() for c in args.lang.split(",") if c.strip()] if args.lang else None
    known = {code for _, languages, _ in folders.values() for code in languages}
    for code in wanted or ():
        if code not in known:
            editions = ", ".join(sorted(known))
            raise AetherpressError(
                Problem(
                    "command line",
                    f"--lang: no deck or rulebook of the project has an edition in '{code}' (its editions: {editions})",
                )
            )
    chosen = [
        (folder, code) for folder, (_, languages, _) in folders.items() for code in languages if wanted is None or code in wanted
    ]
    if args.action == "extract":
        for folder, (texts, _, _) in folders.items():
            with writing_into(folder):
                path = write_bytes(catalogues.template_path(folder), catalogues.template_bytes(texts, folder.name))
            print(f"catalogue: {display_path(path)} ({len({(t.context, t.source) for t in texts})} texts)")
    elif args.action == "update":
        merged = {  # every catalogue read whole before any is written
            (folder, code): catalogues.updated_bytes(
                folders[folder][0], folder.name, folder, code, book_records(folders[folder][2], code)
            )
            for folder, code in chosen
        }
        for (folder, code), (data, told) in merged.items():
            for line in told:
                print(f"{display_path(folder)} {code}: {line}")
            with writing_into(folder):
                print(f"catalogue: {display_path(write_bytes(catalogue_file(folder, code), data))}")
    elif args.action == "review":
        _review(folders, chosen, args.section)
    else:
        for folder, code in chosen:
            texts, _, books = folders[folder]
            catalogue = read_catalogue(folder, code)
            report = catalogues.progress(folder, texts, catalogue)
            report.books += [line for book in books for line in book_status(book, code, catalogue)]
            print("\n".join(report.lines(language_name(code))))
    return 0


def book_records(books: list, code: str) -> list[tuple[Text, str]]:
    """The records of the sections of each book with an edition in ``code``, each with the heading the translation
    gives it (recorded as the translation of the section as it is now, the first time the translation is found)."""
    # the command's modules load when it runs, not for --help
    from ..rulebook import sections

    out = []
    for book in books:
        if code not in book.editions:
            continue
        headings = {}
        for path in sections.source_files(book.source):
            headings.update({(path, key): h for key, h in sections.recorded_headings(path, code).items()})
        for text, section in zip(sections.section_records(book.id, book.source), sections.all_sections(book.source)):
            out.append((text, headings.get((section.file, section.key), "")))
    return out


def book_status(book, code: str, catalogue) -> list[str]:
    """What ``translations status`` says of a rulebook's source in language ``code``: each section current, stale
    (with the change to its source since) or missing."""
    # the command's modules load when it runs, not for --help
    from ..rulebook import sections

    if code not in book.editions:
        return []
    return sections.status_lines(book.id, book.source, code, catalogue)


def _review(folders: dict, chosen: list[tuple[Path, str]], named: list[str]) -> None:
    """Record the named sections of the chosen languages' books as translated from their source as it now reads."""
    # the command's modules load when it runs, not for --help
    from ..rulebook import sections

    if not named:
        raise AetherpressError(
            Problem("command line", "review: name the sections reviewed with --section KEY (or --section all)")
        )
    found: dict[tuple[Path, str], list[tuple[Text, str]]] = {}
    matched: set[str] = set()
    published = False  # whether any rulebook is published in a chosen language
    for folder, code in chosen:
        catalogue = read_catalogue(folder, code)
        for book in folders[folder][2]:
            if code not in book.editions:
                continue
            published = True
            for item in sections.states(book.id, book.source, code, catalogue):
                s = item.section
                hit = next((n for n in named if n in ("all", s.key, s.heading) or n.lower() == s.heading.lower()), None)
                if hit is None or item.state == "current" or not sections.translated_file(s.file, code).is_file():
                    matched.update([hit] if hit else [])
                    continue
                matched.add(hit)
                heading = item.heading or sections.recorded_headings(s.file, code).get(s.key, "") or s.heading
                found.setdefault((folder, code), []).append((sections.record(book.id, s), heading))
                print(f"reviewed: {display_path(s.file)}:{s.line} section '{s.key}' ({code})")
    if not published:
        languages = ", ".join(sorted({code for _, code in chosen}))
        raise AetherpressError(
            Problem("command line", f"review: no rulebook is published in {languages} (a rulebook's editions name its languages)")
        )
    unknown = [n for n in named if n not in matched]
    if unknown:
        shown = unknown[0] if len(unknown[0]) <= 60 else unknown[0][:59] + "…"
        raise AetherpressError(
            Problem("command line", f"review: no rulebook section '{shown}' (status names each section by its key)")
        )
    merged = {key: catalogues.reviewed_bytes(key[0], key[1], records) for key, records in found.items()}
    for (folder, code), data in merged.items():
        with writing_into(folder):
            print(f"catalogue: {display_path(write_bytes(catalogue_file(folder, code), data))}")
