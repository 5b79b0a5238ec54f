"""Benchmark: cards per second, cold, against protograf drawing the same number of plain cards, in one run.

A 1,000-card deck from ``aetherpress new`` (its card list grown to 1,000 rows)
is built cold (nothing cached) into A4 sheets with ``--jobs 1`` and with one
job per core; protograf draws 1,000 plain poker cards on A4 with grid marks (a
rectangle, two texts and a circle each).  Every figure is a fresh process, as a
user starts one; the two commands run in turns and each ratio is taken against
the baseline run beside it, so a slow spell of the machine slows both.

    python tests/bench/bench_cards.py [--repeat N] [--cards N]

Targets: ``--jobs 1`` at most 1/3 of protograf's time; all cores at most 1/5.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_speed import PEAKS, aetherpress, big_project, run

PROTOGRAF = """
import os
from protograf import *
Create(filename=os.environ["BENCH_OUT"], paper="A4", margin=0.5, units="cm")
Deck(cards={cards}, card_size="poker", grid_marks=True)
Card("*", rectangle(x=0.5, y=0.5, width=5.35, height=7.89, stroke="black", fill="ivory"),
     text(text="Plain card", x=3.175, y=1.5, font_size=12),
     text(text="Second line", x=3.175, y=7.5, font_size=10),
     circle(cx=3.175, cy=4.445, radius=1.2, fill="firebrick"))
Save()
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cards", type=int, default=1000)
    args = parser.parse_args()
    if importlib.util.find_spec("protograf") is None:
        sys.exit("protograf is not installed (pip install protograf): no baseline to compare with")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONHASHSEED": "0"}
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        script = tmp / "plain_deck.py"
        script.write_text(PROTOGRAF.format(cards=args.cards), encoding="utf-8")
        base_env = {**env, "BENCH_OUT": str(tmp / "protograf.pdf")}
        root = big_project(tmp, args.cards)
        cache = tmp / "cache"
        ours_env = {**env, "AETHERPRESS_CACHE_DIR": str(cache)}
        figures: dict[str, list[float]] = {"protograf": [], "jobs 1": [], f"jobs {cores}": []}
        for _ in range(args.repeat):
            for label in figures:
                if label == "protograf":
                    figures[label].append(run("protograf", [sys.executable, str(script)], tmp, base_env))
                    continue
                shutil.rmtree(cache, ignore_errors=True)
                shutil.rmtree(tmp / "out", ignore_errors=True)
                jobs = label.split()[1]
                command = aetherpress(root, "build", "big", "--paper", "a4", "--jobs", jobs, "--out", str(tmp / "out"))
                figures[label].append(run(f"{args.cards:,} cards cold, --jobs {jobs}", command, tmp, ours_env))
        base = figures["protograf"]
        print(f"{cores} cores; {args.cards:,} cards; medians of {args.repeat} runs; ratios pair by pair against protograf")
        print(f"baseline: protograf, {args.cards:,} plain cards on A4: {statistics.median(base):.2f} s")
        for label, target in (("jobs 1", 1 / 3), (f"jobs {cores}", 1 / 5)):
            ratio = statistics.median(t / b for t, b in zip(figures[label], base))
            print(
                f"aetherpress, cold, --{label}: {statistics.median(figures[label]):.2f} s = "
                f"{ratio:.3f}x protograf (target <= {target:.3f})"
            )
        peak = max(mb for label, mb in PEAKS if label != "protograf")
        print(f"peak memory of a build: {peak:.0f} MB (target <= 300 MB)")


if __name__ == "__main__":
    main()
