"""Benchmark: what the bounds on hostile input cost a full build.

Builds every built-in deck in every variant (faces, A4 and Letter sheets)
and every rulebook, in this process (``--jobs 1``), every side drawn again
each time (only the counted odds stay in the cache), ROUNDS times with the bounds in force
and ROUNDS times with them switched off (the allow-list for card SVG, the
sandbox's deadline and value checks, the output cap, the image pixel check
and the write confinement replaced by no-ops), alternating, and prints the
medians and their ratio.  Target: the bounds cost under 5 %.

    python tests/bench/bench_limits.py [ROUNDS]
"""

from __future__ import annotations

import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


DRAWN = ("sides", "pieces", "skeletons", "builds")  # what a build keeps of what it drew


def full_build(out: Path) -> float:
    import os
    import shutil

    from generator.cli import main

    cache = Path(os.environ["AETHERPRESS_CACHE_DIR"])
    for kind in DRAWN:
        shutil.rmtree(cache / kind, ignore_errors=True)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):  # the build's report is not the benchmark's
        assert main(["--project", str(ROOT), "build", "--out", str(out), "--jobs", "1"]) == 0
    return time.perf_counter() - start


@contextlib.contextmanager
def bounds_off():
    """The same build with every bound replaced by something that lets everything through."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    from generator.definitions import images
    from generator.faces import render, svg
    from generator.project import files
    from generator.resources import limits

    saved = [
        (svg, "sanitise_problem", svg.sanitise_problem),
        (render, "deadline", render.deadline),
        (render, "render_bounded", render.render_bounded),
        (files, "confine", files.confine),
        (images, "_decode_problem", images._decode_problem),
        (limits.LimitedSandbox, "call_binop", limits.LimitedSandbox.call_binop),
        (limits.LimitedSandbox, "call", limits.LimitedSandbox.call),
    ]
    svg.sanitise_problem = lambda root: None
    render.deadline = lambda seconds: contextlib.nullcontext()
    render.render_bounded = lambda generate, limit: "".join(generate)
    files.confine = lambda target: target
    images._decode_problem = lambda *args: None
    limits.LimitedSandbox.call_binop = ImmutableSandboxedEnvironment.call_binop
    limits.LimitedSandbox.call = ImmutableSandboxedEnvironment.call
    try:
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)


def main(rounds: int = 3) -> None:
    import os

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["AETHERPRESS_CACHE_DIR"] = str(Path(tmp) / "cache")
        full_build(Path(tmp) / "warm")  # fonts, odds tables and templates loaded once, for both
        on, off = [], []
        for n in range(rounds):
            on.append(full_build(Path(tmp) / f"on-{n}"))
            with bounds_off():
                off.append(full_build(Path(tmp) / f"off-{n}"))
    with_bounds, without = statistics.median(on), statistics.median(off)
    print(f"full build with the bounds:    median {with_bounds:.2f} s  {', '.join(f'{t:.2f}' for t in on)}")
    print(f"full build without the bounds: median {without:.2f} s  {', '.join(f'{t:.2f}' for t in off)}")
    print(f"the bounds cost {100 * (with_bounds / without - 1):+.1f} % (target: under 5 %)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
