"""Benchmark: what hostile card-list spreadsheets cost to read, each in a fresh process.

Small files that claim much: one cell at Excel's last row, an .ods whose empty
rows and cells are repeated millions of times, a worksheet part stored under a
name that is not ``.xml`` and shared strings stored as ``strings.txt``.  Each
file is read with ``read_table`` as ``build`` and ``validate`` read it, in a
child process with a deadline of TIMEOUT seconds; the seconds, the peak memory
and the first line of the outcome are printed.

    python tests/bench/bench_sheets.py [TIMEOUT]

Target: every file read or refused in under a second.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.sheetfiles import (  # noqa: E402
    parts_xlsx,
    strings_part,
    worksheet_part,
    write_far_ods,
    write_far_xlsx,
)

CHILD = """
import resource, sys, time
from pathlib import Path
from generator.definitions.sheets import SheetError, read_table
start = time.perf_counter()
try:
    table = read_table(Path(sys.argv[1]), sys.argv[2], None)
    outcome = f"{len(table.rows)} rows, the last numbered {table.rows[-1].number}"
except SheetError as exc:
    outcome = f"refused: {exc.message}"
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{time.perf_counter() - start:8.2f} s {peak:8.0f} MB  {outcome[:100]}")
"""


def hostile_files(folder: Path) -> list[tuple[str, Path, str]]:
    small = strings_part(1)
    return [
        ("xlsx, a cell at row 1,048,576", write_far_xlsx(folder / "far.xlsx", {1: ["name"], 1_048_576: ["Fox"]}), "xlsx"),
        ("ods, 1,048,574 empty rows of 16,384 cells", write_far_ods(folder / "far.ods", ["name"], ["Fox"], 1_048_574), "ods"),
        (
            "xlsx, worksheet as sheet1.bin",
            parts_xlsx(
                folder / "bin.xlsx", "xl/worksheets/sheet1.bin", worksheet_part(7_000, 100, shared=True), "xl/s.xml", small
            ),
            "xlsx",
        ),
        (
            "xlsx, shared strings as strings.txt",
            parts_xlsx(
                folder / "txt.xlsx", "xl/worksheets/sheet1.xml", worksheet_part(1), "xl/strings.txt", strings_part(1_200_000)
            ),
            "xlsx",
        ),
    ]


def main(timeout: float = 150) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for label, path, kind in hostile_files(Path(tmp)):
            start = time.perf_counter()
            try:
                done = subprocess.run(
                    [sys.executable, "-c", CHILD, str(path), kind], cwd=ROOT, capture_output=True, text=True, timeout=timeout
                )
                line = done.stdout.strip() or f"failed: {done.stderr.strip().splitlines()[-1:]}"
            except subprocess.TimeoutExpired:
                line = f"{time.perf_counter() - start:8.2f} s  (stopped at the deadline)"
            print(f"{label:45} {path.stat().st_size / 1000:7.1f} KB  {line}", flush=True)


if __name__ == "__main__":
    main(*(float(a) for a in sys.argv[1:2]))
