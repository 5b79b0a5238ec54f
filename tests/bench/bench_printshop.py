"""Benchmark: what colour management and PDF/X add to a deck's print-shop PDF.

Each variant draws the DriveThruCards file of the 54-card Pernese deck (108
pages, back and front of every card) in a fresh process, as a user's command
would, and is timed REPEAT times; median CPU times are compared with the
baseline in the same run:

- baseline: the same pages drawn in RGB, no conversion at all;
- CMYK: every colour and picture through the ICC profile and the ink limit;
- CMYK + PDF/X-4: the file as ``export pod`` writes it (output intent, XMP);
- greyscale sheets against colour sheets (``build``), pictures now included.

Variants run round by round, so a busy moment of the machine hits each alike.

    python tests/bench/bench_printshop.py [REPEAT]

Target: CMYK + PDF/X-4 at most 10 % slower than the RGB baseline.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SETUP = """
import sys, time
from pathlib import Path
start = time.perf_counter()
from generator.cli import parser
parser()  # as every aetherpress command starts
from generator.project import Project
from generator.definitions import load_all
project = Project(Path(sys.argv[1]))
deck = load_all(project)["pernese"].build(["coloured"])
from generator.pipeline.context import ProjectContext
"""

VARIANTS = {
    "RGB (baseline)": """
from generator.render.cardpdf import draw_card_pages
from generator.render.sheetpdf import job_cards
import io
sides = [(job.card, side) for job in job_cards([deck]) for side in ("back", "front")]
draw_card_pages(ProjectContext(project), deck, 3.175, sides)
""",
    "CMYK": """
from generator.outputs.cardfiles import PodOptions
from generator.definitions.shops import load_shops
from generator.render.cardpdf import shop_pdf_bytes
from generator.render.presspiece import Press
process = PodOptions().process(load_shops(project)["drivethrucards"])
shop_pdf_bytes(ProjectContext(project), deck, 3.175, Press(process))
""",
    "CMYK + PDF/X-4": """
from generator.outputs.cardfiles import PodOptions
from generator.definitions.shops import load_shops
from generator.render.cardpdf import shop_pdf_bytes
from generator.render.presspiece import Press
from generator.render.pdfx import make_pdfx
process = PodOptions().process(load_shops(project)["drivethrucards"])
make_pdfx(shop_pdf_bytes(ProjectContext(project), deck, 3.175, Press(process)), process.profile, "4")
""",
    "sheets, colour (baseline)": """
from generator.definitions.presets import load_papers
from generator.imposition.layout import Layout
from generator.pipeline.sheets import write_kept_job
from generator.render.sheetpdf import SheetOptions
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    write_kept_job(ProjectContext(project), [deck], Path(tmp) / "s.pdf", SheetOptions(Layout(load_papers(project)["a4"])))
""",
    "sheets, greyscale": """
from generator.definitions.presets import load_papers
from generator.imposition.layout import Layout
from generator.pipeline.sheets import write_kept_job
from generator.render.sheetpdf import SheetOptions
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    write_kept_job(ProjectContext(project), [deck], Path(tmp) / "s.pdf", SheetOptions(Layout(load_papers(project)["a4"]), greyscale=True))
""",
}
TAIL = "\nprint(time.perf_counter() - start)\n"


def run(code: str) -> tuple[float, float]:
    """(wall time, CPU time) of the whole process, as a user would start it.

    CPU time (user + system) is what the comparison uses: on a machine shared
    with other work it stays steady where wall time does not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", SETUP + code + TAIL, str(ROOT)], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"failed:\n{result.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    walls: dict[str, list[float]] = {name: [] for name in VARIANTS}
    cpus: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for _ in range(repeat):  # round by round, so a busy moment of the machine hits every variant alike
        for name, code in VARIANTS.items():
            wall, cpu = run(code)
            walls[name].append(wall)
            cpus[name].append(cpu)
    medians = {name: statistics.median(t) for name, t in cpus.items()}
    for name in VARIANTS:
        print(
            f"{name:28s} CPU median {medians[name]:.3f} s (min {min(cpus[name]):.3f} s), "
            f"wall median {statistics.median(walls[name]):.3f} s, over {repeat}"
        )
    base = medians["RGB (baseline)"]
    for name in ("CMYK", "CMYK + PDF/X-4"):
        ratio = medians[name] / base
        print(f"{name} / RGB: {ratio:.3f} ({'within' if ratio <= 1.10 else 'over'} the 10 % target)")
    ratio = medians["sheets, greyscale"] / medians["sheets, colour (baseline)"]
    print(f"greyscale sheets / colour sheets: {ratio:.3f} ({'within' if ratio <= 1.10 else 'over'} the 10 % target)")


if __name__ == "__main__":
    main()
