"""The fidelity matrix as a table: every allow-list specimen (rows) on every print path (columns), % of pixels off.

    python tests/bench/bench_matrix.py [PICTURES_FOLDER] [--paths png,drivethrucards,...]

Makes the matrix project (tests/matrix.py) in a temporary folder, draws every
card in headless Chromium, makes every output through the command line and
prints, per specimen and path, the share of pixels that differ from the
browser's picture (a cell over 1 % is marked ``!``), then the worst of each
path and its time.  With a folder, side-by-side pictures (browser left) of
every cell over 0.5 % are written there.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fidelity import Browser
from tests.matrix import PATHS, Matrix, matrix_project

LIMIT = 0.01


def main(argv: list[str]) -> int:
    keep = Path(argv[0]) if argv and not argv[0].startswith("--") else None
    paths = list(PATHS)
    if "--paths" in argv:
        paths = argv[argv.index("--paths") + 1].split(",")
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    browser = Browser()
    try:
        with tempfile.TemporaryDirectory(prefix="aetherpress-matrix-") as folder:
            root = matrix_project(Path(folder))
            matrix = Matrix(browser, root, Path(folder) / "out")
            table: dict[str, dict[str, float]] = {}
            times = {}
            for path in paths:
                started = time.perf_counter()
                table[path] = matrix.compare(path, keep)
                times[path] = time.perf_counter() - started
            names = matrix.names
    finally:
        browser.close()
    short = [p.replace("drivethrucards", "dtc").replace("sheets-", "sh-").replace("rulebook-print", "book") for p in paths]
    width = max(len(n) for n in names)
    print(f"{'specimen':<{width}} " + " ".join(f"{s[:10]:>10}" for s in short))
    for name in names:
        cells = []
        for path in paths:
            share = table[path][name]
            cells.append(f"{share * 100:9.2f}{'!' if share > LIMIT else ' '}")
        print(f"{name:<{width}} " + " ".join(cells))
    print()
    for path in paths:
        worst = max(table[path].items(), key=lambda kv: kv[1])
        print(f"{path:<24} worst {worst[1] * 100:5.2f} % ({worst[0]}), {times[path]:.0f} s")
    over = sum(1 for path in paths for share in table[path].values() if share > LIMIT)
    print(f"cells over {LIMIT * 100:g} %: {over} of {len(paths) * len(names)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
