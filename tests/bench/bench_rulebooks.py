"""Benchmark: build every rulebook (A5) with the odds cache warm.

Run: python tests/bench/bench_rulebooks.py [--rounds N]
Prints the time of a full rulebook build (all books, one shared context, as
`aetherpress build` does), each book alone, and the ratio against a baseline
measured in the same run: the print-sheet PDF of the Imperial deck.
Target: all rulebooks in under 5 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.definitions import load_all  # noqa: E402
from generator.errors import AetherpressError  # noqa: E402
from generator.pipeline.context import ProjectContext  # noqa: E402
from generator.pipeline.sheets import write_sheets  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.rulebook import build_all, load_rulebooks, render_book  # noqa: E402


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    project = Project(ROOT)
    books = load_rulebooks(project)
    # warm the odds cache (the engine stores its tables on disk) and the imports
    try:
        warm = ProjectContext(project).book_context()
        for book in books.values():
            render_book(warm, book)
    except AetherpressError as exc:
        print(f"cannot build every rulebook: {exc}")
        return 1
    imperial = load_all(project)["imperial"].build(())
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        baseline = statistics.median(
            timed(lambda: write_sheets(ProjectContext(project), imperial, out / "sheets.pdf")) for _ in range(args.rounds)
        )
        full = [timed(lambda: build_all(project, out / "rulebooks")) for _ in range(args.rounds)]
        per_book = {}
        for book_id, book in books.items():
            per_book[book_id] = statistics.median(
                timed(lambda book=book: render_book(ProjectContext(project).book_context(), book)) for _ in range(args.rounds)
            )
    best, median = min(full), statistics.median(full)
    print(f"baseline  imperial print sheets (36 cards): {baseline:.3f} s")
    for book_id, t in per_book.items():
        print(f"book      {book_id:<22} {t:.3f} s  ({t / baseline:.1f}x baseline)")
    print(
        f"all rulebooks (build_all, {len(books)} books): median {median:.3f} s, best {best:.3f} s "
        f"({median / baseline:.1f}x baseline); target < 5 s: {'met' if median < 5 else 'NOT met'}"
    )
    return 0 if median < 5 else 1


if __name__ == "__main__":
    sys.exit(main())
