"""Benchmark: how long the test suite takes, the quick subset and the whole, against another checkout's in one run.

    python tests/bench/bench_tests.py [--against DIR] [--whole] [--repeat N]

Each run is a fresh ``pytest`` process with the suite's own settings (one worker per core).  ``--against DIR``
(the top folder of another checkout, say one of ``main``) is the named baseline: its suite runs in turns with
this one's, with its own code on ``PYTHONPATH``, and each figure is printed against it.  ``--whole`` times the
whole suite too and prints its 30 slowest tests (pytest's ``--durations=30``).

Targets: the quick subset (``-m "not slow"``) <= 20 s and the whole suite <= 3 minutes on two cores.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def timed(top: Path, args: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=top, env=env, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    summary = next((line for line in reversed(result.stdout.splitlines()) if re.search(r"\d+ (passed|failed)", line)), "?")
    if result.returncode != 0:
        print(f"  (exit {result.returncode} in {top}: {summary})", flush=True)
    return elapsed, result.stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, help="the top folder of a checkout whose suite is the baseline")
    parser.add_argument("--whole", action="store_true", help="time the whole suite too, with its slowest tests")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    tops = {"this code": (ROOT, env)}
    if args.against is not None:
        tops["baseline"] = (args.against.resolve(), {**env, "PYTHONPATH": str(args.against.resolve())})
    runs = [("quick subset", ["-m", "not slow"])] + ([("whole suite", ["--durations=30"])] if args.whole else [])
    print(f"{os.cpu_count()} cores; medians of {args.repeat} run(s), in turns")
    for label, extra in runs:
        times: dict[str, list[float]] = {name: [] for name in tops}
        output = ""
        for _ in range(args.repeat):
            for name, (top, top_env) in tops.items():
                seconds, out = timed(top, extra, top_env)
                times[name].append(seconds)
                output = out if name == "this code" else output
        target = 20 if label == "quick subset" else 180
        mine = statistics.median(times["this code"])
        line = f"{label}: {mine:.1f} s (target <= {target} s)"
        if "baseline" in times:
            ratio = statistics.median(m / b for m, b in zip(times["this code"], times["baseline"]))
            line += f"; baseline {statistics.median(times['baseline']):.1f} s; this code {ratio:.2f}x the baseline"
        print(line, flush=True)
        if label == "whole suite":
            slowest = output[output.find("slowest 30 durations") :].splitlines()[:32]
            print("\n".join("  " + row for row in slowest))


if __name__ == "__main__":
    main()
