"""Benchmark: ``export pod`` of a designer's 30-card deck to the three shops, against its own ``build``, in one run.

The named baseline is the cold ``build`` of the same project (its sheets, SVG files and rulebook) in the same
round; the target is an export no slower than the build.  Each round, in fresh ``aetherpress`` processes with a
cache of their own: the build cold, then ``export pod`` after it (the sides the build drew are read back, never
drawn again); then, the cache emptied, ``export pod`` cold, and once more with everything kept (a second export:
another ``--pdfx``, a proof).  ``--against DIR`` measures another checkout (its top folder) in the same rounds and
prints this code's figures against its own::

    python tests/bench/bench_export.py [--repeat N] [--against DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_pipeline import designer_project
from bench_speed import aetherpress, run

STEPS = ("build, cold", "export pod after build", "export pod, cold", "export pod again")


def one_round(name: str, project: Path, tmp: Path, env: dict[str, str], figures: dict[str, list[float]]) -> None:
    cache, out = tmp / f"cache-{name}", tmp / f"out-{name}"
    env = {**env, "AETHERPRESS_CACHE_DIR": str(cache)}
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    pod = aetherpress(project, "export", "pod", "--out", str(out / "pod"))
    for step, command in zip(STEPS[:2], (aetherpress(project, "build", "--out", str(out / "build")), pod)):
        figures.setdefault(step, []).append(run(f"{name}: {step}", command, tmp, env))
    shutil.rmtree(cache, ignore_errors=True)
    for step in STEPS[2:]:
        figures.setdefault(step, []).append(run(f"{name}: {step}", pod, tmp, env))


def report(name: str, figures: dict[str, list[float]], base: dict[str, list[float]] | None) -> None:
    build = figures[STEPS[0]]
    print(f"\n{name}:")
    for step in STEPS:
        times = figures[step]
        against = statistics.median(t / b for t, b in zip(times, build))
        line = f"  {step}: {statistics.median(times):.2f} s = {against:.2f}x the build"
        if base is not None:
            line += f", {statistics.median(t / b for t, b in zip(times, base[step])):.2f}x of the other code's"
        print(line + (" (target <= 1)" if step.startswith("export") else " (the baseline)"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--against", type=Path, help="the top folder of another checkout to measure in the same rounds")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")} | {"PYTHONHASHSEED": "0"}
    codes = {"this code": env}
    if args.against is not None:
        codes["against"] = env | {"PYTHONPATH": str(args.against.resolve())}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        project = designer_project(tmp, 30)
        figures: dict[str, dict[str, list[float]]] = {name: {} for name in codes}
        for n in range(args.repeat):
            print(f"round {n + 1} of {args.repeat}", flush=True)
            for name, code_env in codes.items():
                one_round(name.replace(" ", "-"), project, tmp, code_env, figures[name])
    print(f"\n30-card designer deck, {args.repeat} rounds; medians of each round's ratio (load {os.getloadavg()[0]:.1f}):")
    report("this code", figures["this code"], figures.get("against"))
    if "against" in figures:
        report(f"against ({args.against})", figures["against"], None)


if __name__ == "__main__":
    main()
