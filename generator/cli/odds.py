"""``aetherpress odds GAME``: exact odds tables for a game's ranking, and the designer's audit."""

from __future__ import annotations

import argparse
import json
import sys

from ..definitions.schema import suggest
from ..errors import AetherpressError, Problem
from ..hands.odds import OddsTable, game_table, odds_table
from ..project import Project


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("odds", help="exact odds of every hand category of a game")
    p.add_argument("game", nargs="?", help="game id (e.g. lith, founders-flip, dragon-poker, poker)")
    p.add_argument("--ranking", help="ranking name (default: the game's first)")
    p.add_argument("--deck", help="deck name of the game (default: the game's first)")
    p.add_argument(
        "--modifier",
        action="append",
        default=[],
        metavar="NAME",
        help="apply a modifier of the game (a spell or house rule); may be repeated",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--audit",
        action="store_true",
        help="report unreachable categories and categories out of rarity order (every ranking and deck of the game, or of every game)",
    )


def run(project: Project, args: argparse.Namespace) -> int:
    games = game_table(project)
    if args.audit:
        return _audit(project, args, games)
    if not args.game:
        raise AetherpressError(Problem("command line", f"name a game: {', '.join(games) or 'no games found'}"))
    table = odds_table(project, args.game, args.ranking, args.deck, tuple(args.modifier))
    if args.json:
        print(json.dumps(table.to_json(), indent=2, ensure_ascii=False))
    else:
        print(format_table(table))
    return 0


def format_table(table: OddsTable) -> str:
    mods = f", with {', '.join(table.modifiers)}" if table.modifiers else ""
    head = (
        f"{table.title}: {table.ranking_title} ({table.hand_size}-card hands), "
        f"{table.deck_title}{mods}\n{table.total:,} hands in all\n"
    )
    width = max([len(c.name) for c in table.categories] + [8])
    lines = [head, f"{'category':<{width}}  {'count':>11}  {'probability':>12}  {'1 in':>12}  {'pattern':>11}"]
    for c in table.categories:
        prob = f"{c.probability * 100:.4g} %" if c.count else "0 %"
        one_in = f"{c.one_in:,.1f}" if c.one_in is not None else "never"
        lines.append(f"{c.name:<{width}}  {c.count:>11,}  {prob:>12}  {one_in:>12}  {c.pattern:>11,}")
        if c.subcounts:
            parts = ", ".join(f"{k} {v:,}" for k, v in c.subcounts.items())
            lines.append(f"{'':<{width}}    {parts}")
    lines.append("")
    lines.append("count: hands whose best category this is; pattern: hands that fit it at all.")
    return "\n".join(lines)


def _audit(project: Project, args: argparse.Namespace, games: dict) -> int:
    ids = [args.game] if args.game else list(games)
    report = []
    for gid in ids:
        if gid not in games:
            raise AetherpressError(Problem("command line", f"unknown game '{gid}'{suggest(gid, games)}"))
        game = games[gid]
        rankings = [args.ranking] if args.ranking else list(game.rankings)
        decks = [args.deck] if args.deck else list(game.decks)
        for rid in rankings:
            for did in decks:
                table = odds_table(project, gid, rid, did, tuple(args.modifier))
                found = table.audit()
                report.append(
                    {
                        "game": gid,
                        "ranking": rid,
                        "deck": did,
                        "modifiers": list(args.modifier),
                        "unreachable": found["unreachable"],
                        "inverted": [
                            {"higher": h, "higher_count": hc, "lower": lo, "lower_count": lc}
                            for h, hc, lo, lc in found["inverted"]
                        ],
                    }
                )
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    for row in report:
        mods = f" with {', '.join(row['modifiers'])}" if row["modifiers"] else ""
        print(f"{row['game']} / {row['ranking']} / {row['deck']}{mods}:")
        if not row["unreachable"] and not row["inverted"]:
            print("  nothing to report")
        for name in row["unreachable"]:
            print(f"  unreachable: {name} (no hand has it as its best category)")
        for inv in row["inverted"]:
            print(
                f"  out of order: {inv['higher']} ({inv['higher_count']:,}) ranks above "
                f"{inv['lower']} ({inv['lower_count']:,}) but is more common"
            )
    print("(advice for the designer; the rules are not changed)", file=sys.stderr if args.json else sys.stdout)
    return 0
