"""Benchmark: the odds table of every Founder's Flip spell, and Fivefold Arrangement's rows.

Run: python tests/bench/bench_spells.py
Pinned to one core.  Each table is counted from nothing (a new engine, no
cache), best of three.  Prints, for every spell, its time and its ratio to the
deal's own table (the baseline, counted in the same run); exact tables must
take under 3 s, simulated ones show their deals per second.  Then the time to
count every row of both Fivefold setups (target: under 10 s), next to scoring
one row by brute force over every draw, card by card, as the tests do.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.definitions import load_all  # noqa: E402
from generator.hands import load_games  # noqa: E402
from generator.hands.check import engines_for  # noqa: E402
from generator.hands.oddstables import count_raw  # noqa: E402
from generator.hands.rows import row_odds  # noqa: E402
from generator.hands.simulate import DEFAULT_SEED, DEFAULT_TRIALS  # noqa: E402
from generator.hands.spells import EXACT_LIMIT, built_raw, exact_size  # noqa: E402
from generator.project import Project  # noqa: E402

EXACT_TARGET = 3.0
ROWS_TARGET = 10.0


def one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def timed(fn, repeat: int = 3) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def spell_table(game, definitions, modifier: str | None):
    engine = engines_for(game, definitions, None, None, (modifier,) if modifier else ())
    builder = next((m for m in engine.modifiers if m.builds_hands), None)
    if builder is None:
        return "exact", count_raw(engine)
    size = exact_size(engine, builder)
    how = "exact" if size is not None and size <= EXACT_LIMIT else "simulation"
    return how, built_raw(engine, builder, DEFAULT_TRIALS, DEFAULT_SEED)


def main() -> None:
    one_core()
    project = Project(ROOT)
    definitions = load_all(project)
    games = load_games(project)
    flip = games["founders-flip"]
    base, _ = timed(lambda: spell_table(flip, definitions, None))
    print(f"baseline: the deal's table (58,905 hands) in {base:.3f} s")
    worst_exact = 0.0
    for mid in flip.modifiers:
        t, (how, raw) = timed(lambda mid=mid: spell_table(flip, definitions, mid))
        line = f"{mid:<42} {how:<10} {raw['total']:>12,} {'deals' if how == 'simulation' else 'counted'}  {t:6.3f} s  {t / base:6.1f}x the deal"
        if how == "exact":
            worst_exact = max(worst_exact, t)
            line += "  ok" if t < EXACT_TARGET else f"  OVER {EXACT_TARGET} s"
        else:
            line += f"  ({raw['total'] / t:,.0f} deals/s)"
        print(line)
    print(f"slowest exact spell table: {worst_exact:.3f} s (target: under {EXACT_TARGET} s)")

    fivefold = games["fivefold-arrangement"]
    deck = definitions[fivefold.deck_id].build(())
    t_rows, setups = timed(lambda: row_odds(fivefold.arrangement, deck))
    rows = sum(s.orders for s in setups.values())
    print(
        f"fivefold-arrangement: {rows:,} rows of {len(setups)} setups counted in {t_rows:.3f} s (target: under {ROWS_TARGET} s)"
    )
    setup = setups["twofold"]
    points = dict(zip(setup.ranks, (int(p) for p in setup.points)))
    cards = [r for r, n in setup.setup.draw_deck.items() for _ in range(n)]
    row = setup.best(1)[0].ranks

    def brute_force() -> int:
        total = 0
        for hand in itertools.combinations(range(len(cards)), fivefold.arrangement.draws):
            turned = {cards[i] for i in hand}
            best = run = 0
            for rank in row:
                run = run + points[rank] if rank in turned else 0
                best = max(best, run)
            total += best
        return total

    t_one, _ = timed(brute_force, repeat=1)
    print(
        f"brute force: one Twofold row over every draw in {t_one:.3f} s; every row of Twofold that way would take "
        f"{t_one * setup.orders:,.0f} s, {t_one * setup.orders / t_rows:,.0f}x the engine's time for both setups"
    )


if __name__ == "__main__":
    main()
