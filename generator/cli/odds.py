"""``aetherpress odds GAME``: exact odds tables for a game's ranking, and the designer's audit."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from math import comb

from ..definitions.schema import suggest
from ..errors import AetherpressError, Problem
from ..hands.check import resolve
from ..hands.figures import outward_percent, percent, supported
from ..hands.oddstables import Hands, OddsTable
from ..hands.rankings import Game
from ..hands.simulate import CONFIDENCE, DEFAULT_SEED, DEFAULT_TRIALS
from ..project import Project
from .common import examples


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("odds", help="exact odds of every hand category of a game")
    examples(
        p,
        "aetherpress odds                       # the game of the project",
        "aetherpress odds lith --deck basic",
        "aetherpress odds --audit",
    )
    p.add_argument(
        "game", nargs="?", help="game id (e.g. lith, founders-flip, dragon-poker, poker; default: the project's only game)"
    )
    p.add_argument("--ranking", help="ranking name (default: the game's first)")
    p.add_argument("--deck", help="deck name of the game (default: the game's first)")
    p.add_argument(
        "--modifier",
        action="append",
        default=[],
        metavar="NAME",
        help="apply a modifier of the game (a spell or house rule); may be repeated",
    )
    p.add_argument(
        "--trials",
        type=int,
        default=None,
        metavar="N",
        help=f"simulated deals, for tables too large to count (default: {DEFAULT_TRIALS:,})",
    )
    p.add_argument("--seed", type=int, default=None, metavar="S", help=f"the simulation's seed (default: {DEFAULT_SEED})")
    p.add_argument("--simulate", action="store_true", help="simulate even a table that could be counted exactly")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--audit",
        action="store_true",
        help="report unreachable categories and categories out of rarity order (every ranking and deck of the game, or of every game)",
    )


def run(project: Project, args: argparse.Namespace) -> int:
    from ..pipeline.context import ProjectContext  # the pipeline is loaded by the commands that draw or count

    hands = ProjectContext(project).hands
    games = hands.games
    if args.audit:
        return _audit(project, hands, args, games)
    if not args.game:
        own = [g for g, game in games.items() if game.path is not None and project.layer_of(game.path) is project.own]
        if len(own) != 1:
            raise AetherpressError(Problem("command line", f"name a game: {', '.join(own or games) or 'no games found'}"))
        args.game = own[0]
    if args.game in games and games[args.game].arrangement is not None:
        return _rows(hands, args)
    table = hands.odds_table(
        args.game,
        args.ranking,
        args.deck,
        tuple(args.modifier),
        trials=args.trials,
        seed=args.seed,
        simulate=args.simulate,
    )
    if args.json:
        print(json.dumps(table.to_json(), indent=2, ensure_ascii=False))
    else:
        print(_format_table(table))
    return 0


def _format_table(table: OddsTable) -> str:
    mods = f", with {', '.join(table.modifier_titles)}" if table.modifier_titles else ""
    if table.simulated:
        what = (
            f"{table.total:,} simulated deals (seed {table.seed}); each probability with its {CONFIDENCE:.1%} interval".replace(
                "%", " %"
            )
        )
        counted = [c.name for c in table.categories if c.exact]
        if counted and table.deals:
            what = f"{_names(counted)} counted exactly over all {table.deals:,} deals; the others from {what}"
    elif table.total != comb(table.cards, table.hand_size):
        what = f"{table.total:,} deals in all, counted exactly"
    else:
        what = f"{table.total:,} hands in all"
    head = f"{table.title}: {table.ranking_title} ({table.hand_size}-card hands), {table.deck_title}{mods}\n{what}\n"
    width = max([len(c.name) for c in table.categories] + [8])
    interval = f"  {f'{CONFIDENCE:.1%} interval'.replace('%', ' %'):>23}" if table.simulated else ""
    lines = [head, f"{'category':<{width}}  {'count':>17}  {'probability':>12}{interval}  {'1 in':>12}  {'pattern':>11}"]
    for c in table.categories:
        prob = f"{c.probability * 100:.4g} %" if c.count else "0 %"
        one_in = f"{c.one_in:,.1f}" if c.one_in is not None else "never"
        between = f"  {'exact':>23}" if table.simulated else ""
        if c.interval is not None:
            d = supported(c.probability, c.interval)
            lo, hi = outward_percent(c.interval, d)
            prob = f"{percent(c.probability, d)} %"
            one_in = f"{c.one_in:,.0f}" if c.one_in is not None else "never"
            between = f"  {f'{lo} – {hi} %':>23}"
        lines.append(f"{c.name:<{width}}  {c.count:>17,}  {prob:>12}{between}  {one_in:>12}  {c.pattern:>11,}")
        if c.subcounts:
            parts = ", ".join(f"{k} {v:,}" for k, v in c.subcounts.items())
            lines.append(f"{'':<{width}}    {parts}")
    lines.append("")
    noun = "deals" if table.total != comb(table.cards, table.hand_size) else "hands"
    lines.append(f"count: {noun} whose best category this is; pattern: {noun} that fit it at all.")
    if table.simulated and table.deals:
        lines.append("Counted categories give their count of all deals; the others, of the simulated deals (as the pattern).")
    if table.simulated:
        lines.append("Simulated probabilities show the digits their interval supports; interval ends are rounded outward.")
    return "\n".join(lines)


def _names(names: list[str]) -> str:
    """'Imperial', 'Imperial and Four of a Kind', 'Imperial to Straight Flush'."""
    if len(names) <= 2:
        return " and ".join(names)
    return f"{names[0]} to {names[-1]}"


def _rows(hands: Hands, args: argparse.Namespace) -> int:
    """A game of rows: the best and worst kinds of row of every setup, and how they fare head to head."""
    for option in ("ranking", "deck", "modifier", "trials", "seed", "simulate"):
        if getattr(args, option):
            raise AetherpressError(
                Problem("command line", f"game '{args.game}' is a game of rows: --{option} does not apply (its odds are exact)")
            )
    setups = hands.row_table(args.game)
    if args.json:
        data = {"game": args.game, "method": "exact", "setups": [s.to_json() for s in setups.values()]}
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    for setup in setups.values():
        print(f"{setup.title}: {len(setup.all_rows)} kinds of row, scored against all {setup.total:,} ways the draws fall")
        width = max(len(setup.row_label(r)) for r in setup.all_rows)
        head = f"  {'row':<{width}}  {'orders':>6}  {'expected':>8}  {'no points':>9}  {'beats a random row':>18}  {'ties':>6}"
        for title, rows in (("best", setup.best(5)), ("worst", setup.worst(5))):
            print(f"\n {title} rows:\n{head}")
            for r in rows:
                print(
                    f"  {setup.row_label(r):<{width}}  {r.orders:>6}  {float(r.expected):>8.3f}  "
                    f"{float(r.chance(0)) * 100:>7.2f} %  {float(r.win) * 100:>16.2f} %  {float(r.tie) * 100:>4.1f} %"
                )
        print("\n head to head (row of the line against row of the column: wins / ties):")
        picked = setup.best(3) + setup.worst(1)
        for a in picked:
            cells = []
            for b in picked:
                win, tie, _lose = setup.head_to_head(a, b)
                cells.append(f"{float(win) * 100:5.1f} / {float(tie) * 100:4.1f} %")
            print(f"  {setup.row_label(a):<{width}}  " + "   ".join(cells))
        print()
    return 0


def _audit(project: Project, hands: Hands, args: argparse.Namespace, games: dict) -> int:
    own = [g for g, game in games.items() if game.path is not None and project.layer_of(game.path) is project.own]
    ids = [args.game] if args.game else own or list(games)  # a project's own games, or every game
    report = []
    for gid in ids:
        if gid not in games:
            raise AetherpressError(Problem("command line", f"unknown game '{gid}'{suggest(gid, games)}"))
        report += _audit_game(hands, args, gid, games[gid])
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    for row in report:
        _print_audit_row(row)
    print("(advice for the designer; the rules are not changed)", file=sys.stderr if args.json else sys.stdout)
    return 0


def _audit_game(hands: Hands, args: argparse.Namespace, gid: str, game: Game) -> list[dict]:
    """The audit rows of one game: each ranking on each deck asked for; then (unless a modifier was asked
    for) each spell (modifier) on its own, on the first deck: what becomes unreachable or out of order."""
    rankings = [args.ranking] if args.ranking else list(game.rankings)
    decks = [args.deck] if args.deck else list(game.decks)
    report = []
    base: dict[tuple, dict] = {}
    for rid in rankings:
        for did in decks:
            if args.modifier and resolve(game, None, did, args.modifier)[0] != rid:
                continue
            table = hands.odds_table(gid, rid, did, tuple(args.modifier), trials=args.trials, seed=args.seed)
            row = _audit_row(table, list(args.modifier))
            base[(rid, did)] = row
            report.append(row)
    if args.modifier:
        return report
    did = decks[0]
    for mid, modifier in game.modifiers.items():
        if mid in game.decks[did].modifiers:
            continue
        rid = modifier.ranking or (rankings[0] if args.ranking else game.default_ranking)
        table = hands.odds_table(gid, rid, did, (mid,), trials=args.trials, seed=args.seed)
        row = _audit_row(table, [mid])
        plain = base.get((rid, did)) or _audit_row(hands.odds_table(gid, rid, did), [])
        row["new_unreachable"] = [n for n in row["unreachable"] if n not in plain["unreachable"]]
        row["new_inverted"] = [inv for inv in row["inverted"] if inv not in plain["inverted"]]
        report.append(row)
    return report


def _print_audit_row(row: dict) -> None:
    mods = f" with {', '.join(row['modifiers'])}" if row["modifiers"] else ""
    print(f"{row['game']} / {row['ranking']} / {row['deck']}{mods}:")
    if not row["unreachable"] and not row["inverted"]:
        print("  nothing to report")
    new_unreachable = row.get("new_unreachable", [])
    new_inverted = row.get("new_inverted", [])
    for name in row["unreachable"]:
        why = (
            f"not seen in {row['trials']:,} simulated deals"
            if row["method"] == "simulation"
            else "no hand has it as its best category"
        )
        print(f"  unreachable: {name} ({why}){' [new under this modifier]' if name in new_unreachable else ''}")
    for higher, pairs in itertools.groupby(row["inverted"], key=lambda inv: (inv["higher"], inv["higher_count"])):
        lower = [
            f"{inv['lower']} ({inv['lower_count']:,}){' [new under this modifier]' if inv in new_inverted else ''}"
            for inv in pairs
        ]
        print(f"  out of order: {higher[0]} ({higher[1]:,}) ranks above but is more common than {', '.join(lower)}")


def _audit_row(table: OddsTable, modifiers: list[str]) -> dict:
    found = table.audit()
    row: dict = {
        "game": table.game,
        "ranking": table.ranking,
        "deck": table.deck,
        "modifiers": list(table.modifiers) if modifiers else [],
        "method": table.method,
        "unreachable": found["unreachable"],
        "inverted": [{"higher": h, "higher_count": hc, "lower": lo, "lower_count": lc} for h, hc, lo, lc in found["inverted"]],
    }
    if table.simulated:
        row["trials"] = table.trials
        row["seed"] = table.seed
    return row
