"""Benchmark: the print-shop files of a designer's deck against its build, timed in one run.

The deck is :mod:`tests.pressdeck`'s 30 cards of photos, transparent pictures and drawing-program art on a face
with a drop shadow, a screen blend and an overlay texture: what PDF/X-1a must flatten.  Each command runs in a
fresh process on a fresh copy of the project (nothing kept from an earlier run), round by round, so a busy moment
of the machine hits each alike; median wall and CPU times are printed with their ratio to the baseline:

- baseline: ``build`` of the deck (sheets on A4 and Letter, the SVG faces);
- ``export pod`` to The Game Crafter, MakePlayingCards and DriveThruCards (PDF/X-1a:2003, its default);
- the same DriveThruCards file with ``--proof`` (the shop file rendered as its inks, beside the browser's card).

    python tests/bench/bench_press.py [REPEAT] [--jobs N]

Target (the issue on speed): all three shops' files in no more time than the build.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.pressdeck import NAME, press_project  # noqa: E402

COMMANDS = {
    "build (baseline)": ["build", NAME],
    "export pod, three shops": ["export", "pod", NAME],
    "export pod drivethrucards --proof": ["export", "pod", NAME, "--shop", "drivethrucards", "--proof"],
}


def _timed(project: Path, args: list[str], jobs: str) -> tuple[float, float]:
    """Wall and CPU seconds (children included) of one command on a fresh copy of ``project``."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "game"
        shutil.copytree(project, copy)
        command = [sys.executable, "-m", "generator", "--project", str(copy), *args, "--out", str(copy / "output")]
        command += ["--jobs", jobs] if args[0] == "build" else []  # export draws in this process
        start = time.perf_counter()
        before = _cpu()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "AETHERPRESS_CACHE_DIR": str(Path(folder) / "cache")}
        subprocess.run(command, cwd=copy, check=True, capture_output=True, env=env)
        return time.perf_counter() - start, _cpu() - before


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 3
    jobs = sys.argv[sys.argv.index("--jobs") + 1] if "--jobs" in sys.argv else "1"
    with tempfile.TemporaryDirectory() as folder:
        project = press_project(Path(folder))
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
        for _ in range(repeat):
            for name, args in COMMANDS.items():
                times[name].append(_timed(project, args, jobs))
    base_wall = statistics.median(t[0] for t in times["build (baseline)"])
    base_cpu = statistics.median(t[1] for t in times["build (baseline)"])
    print(f"{'command':40} {'wall s':>8} {'cpu s':>8} {'x build (wall)':>15} {'x build (cpu)':>14}")
    for name, found in times.items():
        wall = statistics.median(t[0] for t in found)
        cpu = statistics.median(t[1] for t in found)
        print(f"{name:40} {wall:8.1f} {cpu:8.1f} {wall / base_wall:15.2f} {cpu / base_cpu:14.2f}")
    print(f"({repeat} runs each, median; --jobs {jobs}; the deck: {NAME}, 30 cards)")


if __name__ == "__main__":
    main()
