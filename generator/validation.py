"""What ``aetherpress validate`` covers: every definition, template and face a project can draw.

Deck files are read and checked; game files are checked and every ranking
compiled against its decks; rulebook files are read and their sources filled
in and converted (pictures, charts, cover) as a build would; card templates are
checked in their source and in the SVG every deck draws, where every text
must lie in the safe zone and no frame may stop in the bleed.  Every problem is
collected, so one run reports them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .definitions import DeckDefinition, parse_deck_spec
from .definitions.languages import untranslated
from .definitions.schema import suggest
from .errors import AetherpressError, Problem, display_path
from .faces.lint import check_templates, template_files
from .hands.check import check_game
from .locations import real
from .pipeline.build import all_targets
from .pipeline.context import ProjectContext
from .pipeline.drawncheck import check_drawn
from .project import Project
from .rulebook import check_book
from .rulebook.definition import book_edition, load_rulebook
from .rulebook.sections import edition_problems


@dataclass
class Report:
    """What was checked and every problem found."""

    decks: int = 0
    games: int = 0
    books: int = 0
    templates: int = 0
    problems: list[Problem] = field(default_factory=list)
    _seen: set[Problem] = field(default_factory=set, repr=False)
    untranslated: list[Problem] = field(default_factory=list)  # an edition's texts printed in the source language
    differs: list[Problem] = field(default_factory=list)  # what prints otherwise than shown: warned of, as build does

    def add(self, problems: list[Problem]) -> None:
        for p in problems:
            if p not in self._seen:
                self._seen.add(p)
                self.problems.append(p)

    def summary(self) -> str:
        def count(n: int, what: str) -> str:
            return f"{n} {what}{'s' if n != 1 else ''} checked"

        parts = [count(self.decks, "deck file")]
        if self.games:
            parts.append(count(self.games, "game file"))
        if self.books:
            parts.append(count(self.books, "rulebook"))
        if self.templates:
            parts.append(f"{self.templates} card templates checked")
        return ", ".join(parts) + ", no problems"


def definition_files(project: Project, paths: list[Path]) -> list[Path]:
    """The files to check: the named files and the ``*.toml`` in named folders (default: the project's decks/)."""
    found: list[Path] = []
    for path in paths or [project.decks_dir]:
        if path.is_dir():
            found.extend(sorted(path.rglob("*.toml")))
        elif path.exists():
            found.append(path)
        else:
            raise AetherpressError(Problem(display_path(path), "no such file or folder"))
    return found


Chosen = dict[Path, list[tuple[str, ...]]]  # deck file -> the variants named on the command line (none: every target)


@dataclass
class _Files:
    """The definition files to check, by kind."""

    games: list[Path] = field(default_factory=list)
    books: list[Path] = field(default_factory=list)
    decks: dict[Path, DeckDefinition] = field(default_factory=dict)


def validate(context: ProjectContext, paths: list[Path], specs: list[str] | None = None) -> Report:
    """Check the named definition files and decks (``DECK`` or ``DECK:VARIANT``; default: all of the project's
    files), the faces their decks draw as themselves and in every variant (or in the variants named), and the
    card templates they use."""
    report = Report()
    specs = specs or []
    files = definition_files(context.project, paths) if paths or not specs else []
    chosen: Chosen = {}
    if specs and not _choose_decks(context, specs, files, chosen, report):
        return report
    named = bool(paths or specs)  # only what was named is checked, with the templates it uses
    found = _sort_files(context, files, paths, report)
    definitions = None
    try:
        definitions = context.definitions
    except AetherpressError as exc:
        if not named:
            report.add(exc.problems)
    if found.decks or not report.problems:  # the decks that could be read are drawn, whatever else is wrong
        _check_faces(context, found.decks, chosen, named, report)
    _check_games(context, found.games, definitions, report)
    if definitions is not None:
        _check_books(context, found.books, report)
    else:
        report.books += len(found.books)
        _read_books(context, found.books, report)
    return report


def _choose_decks(context: ProjectContext, specs: list[str], files: list[Path], chosen: Chosen, report: Report) -> bool:
    """Add the files of the decks ``specs`` name to ``files``, and the variants named to ``chosen``; False (with
    the problems in ``report``) when a deck is unknown or the definitions cannot be read."""
    try:
        known = context.definitions
    except AetherpressError as exc:
        report.add(exc.problems)
        return False
    for spec in specs:
        deck_id, variants = parse_deck_spec(spec)
        if deck_id not in known:
            names = ", ".join(known)
            report.add([Problem("command line", f"unknown deck '{deck_id}'{suggest(deck_id, known)}; decks: {names}")])
            continue
        path = known[deck_id].path
        if path not in files:
            files.append(path)
        chosen.setdefault(real(path), []).append(tuple(variants))
    return not report.problems


def _sort_files(context: ProjectContext, files: list[Path], paths: list[Path], report: Report) -> _Files:
    """The files by kind, each deck file read (its problems in ``report``); a named file of no kind is a problem."""
    found = _Files()
    for path in files:
        kind = context.kind_of(path)
        if kind == "game":
            found.games.append(path)
        elif kind == "rulebook":
            found.books.append(path)
        elif kind == "deck":
            report.decks += 1
            try:
                found.decks[real(path)] = context.definition_at(path)
            except AetherpressError as exc:
                report.add(exc.problems)
        elif path in paths and path.suffix.lower() != ".toml":
            report.add(
                [Problem(display_path(path), "not a definition file: validate the deck file that names it, or the whole project")]
            )
        elif path in paths:
            report.add([Problem(display_path(path), "not a definition file: it has no [deck], [game] or [rulebook] table")])
    return found


def _check_faces(context: ProjectContext, decks: dict[Path, DeckDefinition], chosen: Chosen, named: bool, report: Report) -> None:
    """The templates the decks use, in their source and in every side the decks draw (as themselves and in each
    variant, or in the variants named), and the editions' untranslated texts."""
    project = context.project
    targets = [t.deck for t in all_targets({d.id: d for p, d in decks.items() if () in chosen.get(p, [()])}, None)]
    for p, wanted in chosen.items():
        if p in decks:  # a deck named by its id alone is checked as itself too, even with build = false
            asked = [v for v in wanted if v or not decks[p].build_full]
            targets += [decks[p].build(variants) for variants in dict.fromkeys(asked)]
    report.untranslated += [p for deck in targets for p in untranslated(deck) if p not in report.untranslated]
    used = {d.template_for(c) for d in targets for c in d.cards} | {d.back_for(c) for d in targets for c in d.cards}
    templates = [p for p in template_files(project) if p.name.removesuffix(".svg.j2") in used or not named]
    report.templates = len(templates)
    report.differs += check_templates(project, templates, own_only=project.own.kind == "project" and not named)
    try:
        drawing, zones, differs = check_drawn(context, targets)
        report.add(drawing)
        report.add(zones)
        report.differs += [p for p in differs if p not in report.differs]
    except AetherpressError as exc:
        report.add(exc.problems)


def _check_games(context: ProjectContext, games: list[Path], definitions: dict | None, report: Report) -> None:
    """Each game file read, and checked against its decks when they could be read."""
    for path in games:
        report.games += 1
        try:
            game = context.game_at(path)
            if definitions is not None:
                check_game(game, definitions, path)
        except AetherpressError as exc:
            report.add(exc.problems)


def _check_books(context: ProjectContext, books: list[Path], report: Report) -> None:
    """Each rulebook read, its source filled in and its pictures drawn, in each of its editions (whatever else is
    wrong: every problem is told in one run); an edition's source that is missing or has stale sections is told
    with the untranslated texts."""
    for path in books:
        report.books += 1
        try:
            book = load_rulebook(path, context.project)
        except AetherpressError as exc:
            report.add(exc.problems)
            continue
        for language in ("", *book.editions):
            try:
                edition = book_edition(book, language)
                report.untranslated += [p for p in edition_problems(book, edition) if p not in report.untranslated]
                check_book(context.book_context(), edition)
            except AetherpressError as exc:
                report.add(exc.problems)


def _read_books(context: ProjectContext, books: list[Path], report: Report) -> None:
    """Each rulebook read (the decks could not be, so nothing of it is drawn)."""
    for path in books:
        try:
            load_rulebook(path, context.project)
        except AetherpressError as exc:
            report.add(exc.problems)
