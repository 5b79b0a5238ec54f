"""Benchmark: one edited row of a 1,000-card card list, from the save to the page, against a cold render.

A temporary project (``aetherpress new``) gets a generated card list of
1,000 rows.  ``aetherpress serve`` runs on it as its own process with an
empty cache, and this script listens to its events as a page does:

- cold: from the server's first line (its URL) to every side drawn (the
  baseline: the whole deck rendered from nothing);
- edit: one row of the CSV saved with a new text, to (a) the ``sides`` event
  naming that card, and (b) ``/cards/DECK/CARD.svg`` answering with the new
  text; five different rows, each figure the median and the worst.

Target: an edit reaches the page in under 1 s.

Then the same project is built with ``aetherpress build --paper a4`` (as
``build --watch`` does after every save): a cold build with an empty cache
against the build after one more row is edited; printed for the record.

Times are wall-clock (``time.perf_counter``): the preview's latency is what
a designer waits.

Run:  python tests/bench/bench_preview.py
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.cli import main  # noqa: E402
from tests.served import Server, edit, new_game, wait_for  # noqa: E402

CARDS = 1_000
EDITS = 5
SUITS = ("suns", "moons", "leaves")


def card_list(folder: Path) -> None:
    rows = ["name,rank,suits,text"]
    for n in range(CARDS):
        rows.append(f"Card {n:04d},{n % 4 + 1},{SUITS[n % 3]},Rule text number {n}: draw {n % 5 + 1} cards.")
    (folder / "decks" / "bench" / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def serve_and_edit(project: Path) -> tuple[float, list[float], list[float]]:
    started = time.perf_counter()
    server = Server(project)
    listening = time.perf_counter()
    events = server.events()
    sides: list[tuple[float, dict]] = []
    done = threading.Event()

    def listen() -> None:
        for name, data in events:
            now = time.perf_counter()
            if name == "state" and data["waiting"] == 0:
                done.set()
            if name == "sides":
                sides.extend((now, side) for side in data["sides"])

    threading.Thread(target=listen, daemon=True).start()
    try:
        assert done.wait(600), "the deck was never drawn"
        cold = time.perf_counter() - listening
        print(f"server started in {listening - started:.2f} s (its URL printed)")
        to_event: list[float] = []
        to_svg: list[float] = []
        csv = project / "decks" / "bench" / "cards.csv"
        for k in range(EDITS):
            n = 137 + 173 * k
            card = f"card-{n:04d}"
            heard = len(sides)
            saved = time.perf_counter()
            edit(csv, f"Rule text number {n}:", f"Edited rule {k} for number {n}:")
            served = wait_for(
                lambda card=card, k=k: f"Edited rule {k}" in server.get(f"/cards/bench/{card}.svg").decode(), 10, 0.005
            )
            assert served
            to_svg.append(time.perf_counter() - saved)
            at = wait_for(
                lambda card=card, heard=heard: next((t for t, s in sides[heard:] if s["name"] == card), None), 10, 0.005
            )
            to_event.append(float(at) - saved)  # type: ignore[arg-type]
            assert [s["name"] for _, s in sides[heard:]] == [card], "only the edited card is drawn again"
            time.sleep(0.3)
        return cold, to_event, to_svg
    finally:
        server.kill()


def timed_build(project: Path) -> float:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["--project", str(project), "build", "bench", "--paper", "a4"]) == 0
    return time.perf_counter() - start


def main_bench() -> None:
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        os.environ["AETHERPRESS_CACHE_DIR"] = cache
        with contextlib.redirect_stdout(io.StringIO()):
            project = new_game(Path(tmp), "bench")
        card_list(project)
        print(f"a {CARDS:,}-card deck from a CSV; {EDITS} rows edited one at a time")
        cold, to_event, to_svg = serve_and_edit(project)
        median = statistics.median(to_svg)
        print(f"cold render of the whole deck (baseline): {cold:8.3f} s")
        print(f"save -> 'sides' event:  median {statistics.median(to_event):.3f} s, worst {max(to_event):.3f} s")
        print(f"save -> new SVG served: median {median:.3f} s, worst {max(to_svg):.3f} s")
        print(f"ratio (median edit to cold render): {median / cold:.1%}")
        print(f"target: an edit on the page in under 1 s: {'met' if max(to_svg) < 1.0 and max(to_event) < 1.0 else 'NOT met'}")

    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        os.environ["AETHERPRESS_CACHE_DIR"] = cache
        with contextlib.redirect_stdout(io.StringIO()):
            project = new_game(Path(tmp), "bench")
        card_list(project)
        cold_build = timed_build(project)
        edit(project / "decks" / "bench" / "cards.csv", "Rule text number 500:", "Edited rule for number 500:")
        again = timed_build(project)
        print(f"build --paper a4, cold (baseline):       {cold_build:8.3f} s")
        print(f"build --paper a4 after one edited row:   {again:8.3f} s ({again / cold_build:.0%} of cold)")


if __name__ == "__main__":
    main_bench()
