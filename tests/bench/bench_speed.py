"""Benchmark: whole builds at every scale, as ratios measured in one run (these machines are noisy).

Every figure is a fresh ``aetherpress`` process, as a user starts one, timed with
its peak memory (the largest process of the build, as ``/usr/bin/time -v`` reports it).

    python tests/bench/bench_speed.py [--repeat N] [--big N] [--skip-big]

Baseline: protograf drawing a plain 54-card poker deck on A4 (see bench_build.py).
Targets:
- a cold full build (every deck and variant, every rulebook, nothing cached) <= 4x the baseline;
- a rebuild with nothing changed <= 10 % of the cold full build;
- one edited row of a 1,000-card deck <= 20 % of that deck's cold build;
- a 10,000-card deck (--big): cards per second with --jobs 2 >= 1.7x --jobs 1;
- the peak memory of any build <= 300 MB.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "bench"))
from bench_build import PROTOGRAF_SCRIPT  # noqa: E402

PEAKS: list[tuple[str, float]] = []


def run(label: str, command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Run ``command``; return its wall time and remember its peak memory in MB."""
    timed = ["/usr/bin/time", "-v", *command] if Path("/usr/bin/time").exists() else command
    start = time.perf_counter()
    result = subprocess.run(timed, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    if found:
        PEAKS.append((label, int(found.group(1)) / 1024))
    return elapsed


def aetherpress(project: Path | None, *args: str) -> list[str]:
    command = [sys.executable, "-m", "generator"]
    if project is not None:
        command += ["--project", str(project)]
    return command + list(args)


def big_project(folder: Path, cards: int) -> Path:
    """A designer's project made by ``aetherpress new`` with ``cards`` rows in its card list."""
    subprocess.run([sys.executable, "-m", "generator", "new", "big"], cwd=folder, check=True, capture_output=True)
    root = folder / "big"
    csv = next((root / "decks").rglob("cards.csv"))
    words = ["Draw a card.", "Look at the top card.", "Discard two cards.", "Take another turn.", "Swap hands."]
    rows = ["name,rank,suits,text"]
    suits, ranks = ["suns", "moons", "leaves"], ["1", "2", "3", "4"]
    for n in range(cards):
        rows.append(f"Card {n:05d},{ranks[n % 4]},{suits[n % 3]},{words[n % 5]} Then score {n % 7 + 1}.")
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def median_time(repeat: int, label: str, command: list[str], cwd: Path, env: dict, before=None) -> float:
    times = []
    for _ in range(repeat):
        if before:
            before()
        times.append(run(label, command, cwd, env))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big", type=int, default=10_000, help="cards in the large deck for the --jobs comparison")
    parser.add_argument("--skip-big", action="store_true")
    args = parser.parse_args()
    # as on a designer's machine, Python keeps the compiled code it reads (some sandboxes switch that off)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        print(f"{os.cpu_count()} cores; medians of {args.repeat} runs (ratios: the median of each run against its pair)")

        if importlib.util.find_spec("protograf") is None:
            sys.exit("protograf is not installed (pip install protograf): no baseline to compare with")
        script = tmp / "plain_deck.py"
        script.write_text(PROTOGRAF_SCRIPT, encoding="utf-8")
        base_env = {**env, "BENCH_OUT": str(tmp / "protograf.pdf")}
        protograf = [sys.executable, str(script)]

        # the whole project of built-in decks and books, nothing cached
        cache, out = tmp / "cache", tmp / "out"
        full_env = {**env, "AETHERPRESS_CACHE_DIR": str(cache)}

        def fresh() -> None:
            shutil.rmtree(cache, ignore_errors=True)
            shutil.rmtree(out, ignore_errors=True)

        full = aetherpress(ROOT, "build", "--out", str(out))
        # the baseline and the cold build in turns, so that a slow spell of the machine slows both
        bases, colds = [], []
        for _ in range(args.repeat):
            bases.append(run("protograf", protograf, tmp, base_env))
            fresh()
            colds.append(run("cold full build", full, tmp, full_env))
        baseline, cold = statistics.median(bases), statistics.median(colds)
        ratio = statistics.median(c / b for c, b in zip(colds, bases))
        print(f"baseline: protograf plain 54-card deck: {baseline:.2f} s ({', '.join(f'{b:.2f}' for b in bases)})")
        print(
            f"cold full build (every deck, variant and rulebook, nothing cached): {cold:.2f} s "
            f"({', '.join(f'{c:.2f}' for c in colds)}); each run against the baseline run next to it: "
            f"median {ratio:.2f}x baseline (target <= 4)"
        )
        again = median_time(args.repeat, "rebuild, nothing changed", full, tmp, full_env)
        print(f"rebuild with nothing changed: {again:.2f} s = {again / cold * 100:.1f} % of the cold build (target <= 10 %)")

        # a designer's 1,000-card deck: cold, then one row edited
        root = big_project(tmp, 1000)
        csv = next((root / "decks").rglob("cards.csv"))
        big_env = {**env, "AETHERPRESS_CACHE_DIR": str(tmp / "cache-1000")}
        deck_cmd = aetherpress(root, "build", "big")

        def fresh_big() -> None:
            shutil.rmtree(tmp / "cache-1000", ignore_errors=True)
            shutil.rmtree(root / "output", ignore_errors=True)

        edits = iter(range(10_000))

        def edit() -> None:
            text = csv.read_text(encoding="utf-8").splitlines()
            text[500] = f"Card 00499,4,moons,Edited {next(edits)} times."
            csv.write_text("\n".join(text) + "\n", encoding="utf-8")

        # each round: the deck built cold, then one row edited and the deck built again
        big_colds, big_edits = [], []
        for _ in range(args.repeat):
            fresh_big()
            big_colds.append(run("1,000-card deck, cold", deck_cmd, tmp, big_env))
            edit()
            big_edits.append(run("1,000-card deck, one row edited", deck_cmd, tmp, big_env))
        big_cold, big_edit = statistics.median(big_colds), statistics.median(big_edits)
        share = statistics.median(e / c for e, c in zip(big_edits, big_colds))
        print(
            f"1,000-card deck: cold {big_cold:.2f} s; one row edited {big_edit:.2f} s; each edit against the cold build "
            f"of its round: median {share * 100:.1f} % (target <= 20 %)"
        )

        if not args.skip_big:
            (tmp / "huge").mkdir()
            huge = big_project(tmp / "huge", args.big)
            rates = {}
            for jobs in (1, 2):
                huge_env = {**env, "AETHERPRESS_CACHE_DIR": str(tmp / f"cache-huge-{jobs}")}
                command = aetherpress(
                    huge, "build", "big", "--paper", "a4", "--jobs", str(jobs), "--out", str(tmp / f"huge-{jobs}")
                )
                seconds = run(f"{args.big:,}-card deck, --jobs {jobs}", command, tmp, huge_env)
                rates[jobs] = args.big / seconds
                print(f"{args.big:,}-card deck, A4 sheets, --jobs {jobs}: {seconds:.1f} s, {rates[jobs]:.0f} cards/s")
            same = all(
                (tmp / "huge-1" / "big" / name).read_bytes() == (tmp / "huge-2" / "big" / name).read_bytes()
                for name in ("big-sheets.pdf",)
            )
            print(f"--jobs 2 / --jobs 1: {rates[2] / rates[1]:.2f}x cards per second (target >= 1.7); same bytes: {same}")

        builds = [item for item in PEAKS if item[0] != "protograf"]
        label, peak = max(builds, key=lambda item: item[1])
        print(f"peak memory of any build: {peak:.0f} MB ({label}) (target <= 300 MB)")
        for label, mb in builds:
            print(f"  {label}: {mb:.0f} MB")


if __name__ == "__main__":
    main()
