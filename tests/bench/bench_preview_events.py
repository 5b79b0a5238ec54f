"""Benchmark: how many bytes the preview sends each open page while it draws a deck of over-long cards.

A new project's deck with N cards whose text does not fit (each card one
problem) is loaded into the preview's model, every side drawn as the worker
draws them, and the events a page would hear are counted: state events
(problems, sides waiting) and sides events, then fifty flushes with nothing
new drawn.

    python tests/bench/bench_preview_events.py [N]

Before state events were sent as changes, each carried every problem: the
bytes grew with the square of the cards (1,000 cards: 23 MB while drawing).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.cli import main  # noqa: E402
from generator.cli.common import resolve_decks  # noqa: E402
from generator.preview.state import Preview  # noqa: E402
from generator.project import Project  # noqa: E402


def measure(cards: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    os.chdir(tmp)
    main(["new", "game"])
    root = tmp / "game"
    csv = root / "decks" / "game" / "cards.csv"
    head, row = csv.read_text().splitlines()[:2]
    parts = row.split(",")
    rows = [",".join([f"Card {i}", parts[1], parts[2], "Look again. " * 150, *parts[4:]]) for i in range(cards)]
    csv.write_text("\n".join([head, *rows]) + "\n")
    os.chdir(root)
    project = Project(root)
    preview = Preview(project, lambda: resolve_decks(project, []))
    queue = preview.events.subscribe()
    sizes = {"state": 0, "sides": 0}
    counts = {"state": 0, "sides": 0}

    def drain() -> None:
        while not queue.empty():
            message = queue.get_nowait()
            assert message is not None
            name = message.split(b"\n", 1)[0].decode().removeprefix("event: ")
            if name in sizes:
                sizes[name] += len(message)
                counts[name] += 1

    preview.refresh()
    while preview.pending:
        preview.draw_next()
        drain()
    drawing, heard = dict(sizes), dict(counts)
    for _ in range(50):
        preview.flush()
        drain()
    print(f"{cards} over-long cards, {len(preview.problems())} problems")
    print(f"while drawing: {heard['state']} state events, {drawing['state']:,} bytes; sides events {drawing['sides']:,} bytes")
    print(
        f"50 flushes with nothing new: {counts['state'] - heard['state']} state events, {sizes['state'] - drawing['state']:,} bytes"
    )


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
