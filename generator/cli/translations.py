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
from ..definitions.languages import Text, deck_texts, game_texts, language_name, read_catalogue
from ..errors import AetherpressError, display_path
from ..project import Project
from ..project.files import write_bytes, writing_into
from .common import cli_error, examples


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("translations", help="translation catalogues: extract, update (merge) and status")
    examples(p, "aetherpress translations extract", "aetherpress translations status --lang de,fr")
    p.add_argument(
        "action",
        choices=("extract", "update", "status"),
        help="extract: write translations/messages.pot of every translatable text; update: merge it into each "
        "edition's translations/LANG.po; status: translated, missing and stale texts per language",
    )
    p.add_argument("--lang", default=None, metavar="LANG[,LANG...]", help="only these languages (update, status)")


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
    editions = list(dict.fromkeys(code for _, languages, _ in folders.values() for code in languages))
    unknown = [code for code in wanted or () if code not in editions]
    if args.action != "extract" and unknown:
        raise cli_error(
            f"--lang: no deck or rulebook of the project has an edition in '{unknown[0]}'; its editions: {', '.join(editions)}"
        )
    for folder, (texts, languages, books) in folders.items():
        project_name = folder.name
        chosen = [code for code in languages if wanted is None or code in wanted]
        if args.action == "extract":
            with writing_into(folder):
                path = write_bytes(catalogues.template_path(folder), catalogues.template_bytes(texts, project_name))
            print(f"catalogue: {display_path(path)} ({len({(t.context, t.source) for t in texts})} texts)")
        elif args.action == "update":
            merged = {code: catalogues.updated_bytes(texts, project_name, folder, code) for code in chosen}
            with writing_into(folder):
                for code, data in merged.items():
                    print(f"catalogue: {display_path(write_bytes(folder / 'translations' / f'{code}.po', data))}")
        else:
            for code in chosen:
                report = catalogues.progress(folder, texts, read_catalogue(folder, code))
                for book in books:
                    if code in book.editions:
                        own = book.source.with_name(f"{book.source.stem}.{code}{book.source.suffix}")
                        told = "translated" if own.is_file() else "missing (set from the source language)"
                        report.books.append(f"rulebook '{book.id}': {own.name} {told}")
                print("\n".join(report.lines(language_name(code))))
    return 0
