"""Benchmark: the whole `aetherpress build` of the 54-card Pernese deck (duplex backs,
crop marks; a plain build writes A4 and Letter sheets and the SVG faces) against protograf drawing a plain 54-card poker deck on A4 (a rectangle,
two texts and a circle per card, with its grid marks), in the same run.

Both run as fresh processes, as a user would start them; each is timed REPEAT times
and the median wall time is reported with the PDF size.

    python tests/bench/bench_build.py [REPEAT]

Targets: Aetherpress no slower than protograf, and its PDF at most 300 KB.
"""

from __future__ import annotations

import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTOGRAF_SCRIPT = """
import os
from protograf import *
Create(filename=os.environ["BENCH_OUT"], paper="A4", margin=0.5, units="cm")
Deck(cards=54, card_size="poker", grid_marks=True)
Card("*", rectangle(x=0.5, y=0.5, width=5.35, height=7.89, stroke="black", fill="ivory"),
     text(text="Plain card", x=3.175, y=1.5, font_size=12),
     text(text="Second line", x=3.175, y=7.5, font_size=10),
     circle(cx=3.175, cy=4.445, radius=1.2, fill="firebrick"))
Save()
"""


def timed(command: list[str], cwd: Path, env: dict | None = None) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stdout}\n{result.stderr}")
    return elapsed


def main() -> None:
    import os

    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        ours_cmd = [sys.executable, "-m", "generator", "--project", str(ROOT), "build", "pernese", "--out", str(tmp / "out")]
        ours = [timed(ours_cmd, ROOT) for _ in range(repeat)]
        ours_pdf = tmp / "out" / "pernese" / "pernese-sheets.pdf"
        ours_size = ours_pdf.stat().st_size
        pages = subprocess.run(["pdfinfo", str(ours_pdf)], capture_output=True, text=True).stdout
        ours_pages = next((row.split()[-1] for row in pages.splitlines() if row.startswith("Pages:")), "?")
        print(
            f"aetherpress build pernese (54 cards, duplex with crop marks, A4 + Letter PDFs, SVGs): median {statistics.median(ours):.3f} s "
            f"(min {min(ours):.3f} s over {repeat}), A4 PDF {ours_size / 1024:.1f} KB, {ours_pages} pages"
        )

        if importlib.util.find_spec("protograf") is None:
            print("protograf is not installed (pip install protograf): no baseline to compare with")
            return
        script = tmp / "plain_deck.py"
        script.write_text(PROTOGRAF_SCRIPT, encoding="utf-8")
        theirs_pdf = tmp / "protograf.pdf"
        env = {**os.environ, "BENCH_OUT": str(theirs_pdf)}
        theirs = [timed([sys.executable, str(script)], tmp, env) for _ in range(repeat)]
        theirs_size = theirs_pdf.stat().st_size
        print(
            f"protograf plain 54-card deck (A4, fronts only, grid marks): median {statistics.median(theirs):.3f} s "
            f"(min {min(theirs):.3f} s over {repeat}), PDF {theirs_size / 1024:.1f} KB"
        )
        ratio = statistics.median(ours) / statistics.median(theirs)
        print(
            f"time ratio aetherpress / protograf: {ratio:.2f} ({'meets' if ratio <= 1 else 'misses'} 'no slower');"
            f" PDF {ours_size / 1024:.1f} KB ({'within' if ours_size <= 300 * 1024 else 'over'} 300 KB)"
        )


if __name__ == "__main__":
    main()
