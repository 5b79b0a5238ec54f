"""The command line: ``aetherpress list | validate | build | export | calibrate``.

Problems with the input print one line each (file, place, what is wrong)
and exit with status 2; ``--debug`` shows the traceback instead.
"""
from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

from . import __version__
from .errors import AetherpressError, Problem, display_path
from .hands.games import is_game_file
from .load import definition_kind, is_deck_file, load_all, load_definition, parse_deck_spec
from .project import Project
from .schema import suggest


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aetherpress", description="Card decks and rulebooks from data, ready for print.")
    parser.add_argument("--version", action="version", version=f"aetherpress {__version__}")
    parser.add_argument("--debug", action="store_true", help="show a traceback on errors")
    parser.add_argument("--project", type=Path, default=None, help="project folder (default: the nearest folder with decks/)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list every deck with its card count and variants")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    p = sub.add_parser("validate", help="check deck, game and rulebook files and card templates; print every problem")
    p.add_argument("paths", nargs="*", type=Path, help="deck files or folders (default: all of decks/)")

    p = sub.add_parser("build", help="build decks (default: every deck and variant, and every rulebook) into output/")
    p.add_argument("decks", nargs="*", metavar="DECK[:VARIANT]", help="e.g. imperial, imperial:ministry, imperial:academy+labelled")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: output/)")
    p.add_argument("--proof", action="store_true", help="also write a contact sheet per deck: <slug>-proof.png with every face and back")
    from . import calibrate, export, printing
    printing.add_build_arguments(p)
    export.add_arguments(sub)
    calibrate.add_arguments(sub)

    from .hands import cli as hands_cli
    hands_cli.add_arguments(sub)

    from . import rulebook
    rulebook.add_arguments(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        project = Project(args.project.resolve()) if args.project else Project.find()
        return COMMANDS[args.command](project, args)
    except AetherpressError as exc:
        if args.debug:
            traceback.print_exc()
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; files already written are complete, the rest were not touched", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug, not bad input: say so in one line, details with --debug
        if args.debug:
            raise
        print(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback, and please report it)", file=sys.stderr)
        return 1


def cmd_list(project: Project, args) -> int:
    definitions = load_all(project)
    rows = []
    for definition in definitions.values():
        deck = definition.base
        rows.append({"id": deck.id, "title": deck.title, "cards": deck.card_count,
                     "variants": list(definition.variant_specs), "source": deck.source})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        width = max(len(r["id"]) for r in rows) if rows else 4
        for r in rows:
            variants = ", ".join(r["variants"]) or "-"
            print(f"{r['id']:<{width}}  {r['cards']:>3} cards  {r['title']}  (variants: {variants})")
    return 0


def cmd_validate(project: Project, args) -> int:
    paths: list[Path] = []
    for path in args.paths or [project.decks_dir]:
        if path.is_dir():
            paths.extend(sorted(path.rglob("*.toml")))
        elif path.exists():
            paths.append(path)
        else:
            raise AetherpressError(Problem(display_path(path), "no such file or folder"))
    problems: list[Problem] = []
    checked = 0
    games: list[Path] = []
    for path in paths:
        if is_game_file(path):
            games.append(path)
            continue
        if not is_deck_file(path):
            if path in args.paths and definition_kind(path) is None:
                problems.append(Problem(display_path(path), "not a deck file: it has no [deck] table"))
            continue
        checked += 1
        try:
            load_definition(path, project)
        except AetherpressError as exc:
            problems.extend(exc.problems)
    templates = 0
    if not args.paths:
        try:
            load_all(project)
        except AetherpressError as exc:
            problems.extend(p for p in exc.problems if p not in problems)
        from .templatecheck import check_project, template_files
        templates = len(template_files(project))
        if not problems:  # card templates: unsupported SVG features, in the source and as rendered
            problems.extend(check_project(project))
    problems.extend(_validate_games(project, games, problems))
    from .rulebook.definition import is_rulebook_file, load_rulebook
    books = [path for path in paths if is_rulebook_file(path)]
    for path in books:
        try:
            load_rulebook(path, project)
        except AetherpressError as exc:
            problems.extend(exc.problems)
    if problems:
        raise AetherpressError(problems)
    extra = f", {len(games)} game file{'s' if len(games) != 1 else ''} checked" if games else ""
    extra += f", {len(books)} rulebook{'s' if len(books) != 1 else ''} checked" if books else ""
    print(f"ok: {checked} deck file{'s' if checked != 1 else ''} checked{extra}"
          + (f", {templates} card templates checked" if templates else "") + ", no problems")
    return 0


def _validate_games(project: Project, paths: list[Path], seen: list[Problem]) -> list[Problem]:
    """Game files: their own checks, then every ranking compiled against its deck."""
    from .hands.engine import check_game
    from .hands.games import load_game

    found: list[Problem] = []
    if not paths:
        return found
    try:
        definitions = load_all(project)
    except AetherpressError:
        definitions = None  # the deck problems are already reported
    for path in paths:
        try:
            game = load_game(path, project)
            if definitions is not None:
                check_game(game, definitions, path)
        except AetherpressError as exc:
            found.extend(p for p in exc.problems if p not in seen and p not in found)
    return found


def resolve_decks(project: Project, specs: list[str]):
    """The decks named on the command line (default: every deck and variant), variants applied."""
    from .build import BuildTarget, all_targets

    definitions = load_all(project)
    if specs:
        targets = []
        for spec in specs:
            deck_id, variants = parse_deck_spec(spec)
            if deck_id not in definitions:
                raise AetherpressError(Problem("command line", f"unknown deck '{deck_id}'{suggest(deck_id, definitions)}; decks: {', '.join(definitions)}"))
            targets.append(BuildTarget(definitions[deck_id], variants))
    else:
        targets = all_targets(definitions)
    return [t.deck for t in targets]  # apply every variant before writing anything


def cmd_build(project: Project, args) -> int:
    from .build import build_deck
    from .printing import ProgressBar, check_fits, extra_sheet_options, sheet_options_from_args

    options = sheet_options_from_args(project, args)
    extra = extra_sheet_options(project, args, options)
    decks = resolve_decks(project, args.decks)
    for opts in [options, *(o for _, o in extra)]:
        check_fits(decks, opts)
    out = (args.out or project.output_dir).resolve()
    for deck in decks:
        bar = ProgressBar(deck.key)
        try:
            written = build_deck(project, deck, out, options, progress=bar, extra_sheets=extra)
        finally:
            bar.close()
        pdfs = [p for p in written if p.suffix == ".pdf"]
        svgs = len(written) - len(pdfs)
        for pdf in pdfs:
            print(f"{deck.key}: {display_path(pdf)}")
        print(f"{deck.key}: {svgs} SVG files in {display_path(out / deck.slug)}")
        if args.proof:
            from .proof import write_proof
            print(f"{deck.key}: {display_path(write_proof(project, deck, out))}")
    if getattr(args, "combine", False) and decks:
        from .pdf import write_job
        for name, opts in [("", options), *((f"-{n}", o) for n, o in extra)]:
            print(f"combined: {display_path(write_job(project, decks, out / f'combined-sheets{name}.pdf', opts))}")
    if not args.decks:  # a full build includes every rulebook
        from .rulebook import build_all
        for path in build_all(project, out / "rulebooks"):
            print(f"rulebook: {display_path(path)}")
    return 0


def _module_command(name: str):
    def command(project: Project, args) -> int:
        import importlib
        return importlib.import_module(f".{name}", __package__).run(project, args)
    return command


COMMANDS = {"list": cmd_list, "validate": cmd_validate, "build": cmd_build,
            "export": _module_command("export"), "calibrate": _module_command("calibrate"),
            "odds": _module_command("hands.cli"), "rulebook": _module_command("rulebook")}


if __name__ == "__main__":
    sys.exit(main())
