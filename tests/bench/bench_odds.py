"""Benchmark: the odds engine against treys on the same 2,598,960 five-card hands.

Run: python tests/bench/bench_odds.py
Prints the time treys takes to evaluate every five-card hand of a 52-card
deck, the time the engine takes to count the full poker table (no cache), the
ratio, and the times of the Dragon Poker (full deck, two wild Eggs) and
Convocation of the Gage tables.  Targets: ratio >= 5, each of the two other
tables under 3 s on one core.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.hands.oddstables import Hands, count_raw  # noqa: E402
from generator.pipeline.context import ProjectContext  # noqa: E402
from generator.project import Project  # noqa: E402


def treys_all_hands() -> tuple[float, int]:
    from treys import Card, Evaluator

    ev = Evaluator()
    deck = [Card.new(r + s) for r in "23456789TJQKA" for s in "shdc"]
    classes = [0] * 10
    start = time.perf_counter()
    for hand in itertools.combinations(deck, 5):
        classes[ev.get_rank_class(ev.evaluate(list(hand[:2]), list(hand[2:])))] += 1
    return time.perf_counter() - start, sum(classes)


def engine_table(hands: Hands, game: str, ranking: str | None = None, deck: str | None = None) -> tuple[float, int]:
    start = time.perf_counter()
    engine = hands.evaluator(game, ranking, deck)
    raw = count_raw(engine)
    return time.perf_counter() - start, raw["total"]


def main() -> None:
    hands = ProjectContext(Project(ROOT)).hands
    hands.evaluator("poker")  # load the games once, outside the timings
    t_engine, n_engine = min(engine_table(hands, "poker") for _ in range(3))
    t_treys, n_treys = treys_all_hands()
    print(f"treys: {n_treys:,} hands evaluated in {t_treys:.2f} s ({n_treys / t_treys / 1e6:.2f} M hands/s)")
    print(f"engine: full 52-card poker table ({n_engine:,} hands) in {t_engine:.3f} s")
    print(f"ratio: engine is {t_treys / t_engine:.1f}x faster than treys (target: 5x)")
    for game, ranking, deck in (("dragon-poker", None, "full"), ("founders-flip", "gage", "standard")):
        t, n = min(engine_table(hands, game, ranking, deck) for _ in range(2))
        print(f"engine: {game} {ranking or ''} {deck}: {n:,} hands in {t:.3f} s (target: under 3 s)")


if __name__ == "__main__":
    main()
