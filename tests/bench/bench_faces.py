"""Benchmark: card faces rendered per second, to SVG and into a print PDF, on one core.

A 1,000-card deck is made from the five shipped decks: 200 cards drawn from each
(cycling through its cards, each copy with its own id and a numbered name, so
no two cards of a deck share an id).  For each part, the timed run does what
``aetherpress build`` does for faces: every face to SVG text (Jinja2 templates,
text fitting) and the print-sheet PDF (``write_sheets``: SVG -> svg2pdf ->
a form on the sheet).  Target: at least 150 cards a second.

Baseline, in the same run: the renderer alone, the same SVG texts each drawn
into its one-page PDF by svg2pdf, without templates, cache or sheets.

Times are CPU time of this process (time.process_time), so other work on the
machine does not count against it; the process is pinned to one core.

Run:  python tests/bench/bench_faces.py
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.definitions import load_all  # noqa: E402
from generator.definitions.presets import load_papers  # noqa: E402
from generator.faces.render import FaceRenderer  # noqa: E402
from generator.imposition.layout import Layout  # noqa: E402
from generator.pipeline.context import ProjectContext  # noqa: E402
from generator.pipeline.sheets import write_sheets  # noqa: E402
from generator.project import Project  # noqa: E402

PER_DECK = 200
REPEAT = 3  # each figure is the best of this many runs
DECKS = ("imperial", "aetherial", "decktet", "dragons-gambit", "pernese")


def big_decks(project: Project):
    definitions = load_all(project)
    out = []
    for deck_id in DECKS:
        deck = definitions[deck_id].build(())
        cards = []
        for i in range(PER_DECK):
            card = deck.cards[i % len(deck.cards)]
            cards.append(
                dataclasses.replace(
                    card,
                    id=f"{card.id}-{i}",
                    name=f"{card.name} {i // len(deck.cards) + 1}" if i >= len(deck.cards) else card.name,
                    copies=1,
                )
            )
        out.append(dataclasses.replace(deck, cards=tuple(cards)))
    return out


def cold_caches() -> None:
    """Forget fitted texts and placed symbols, so each run is like a fresh build
    (only compiled templates and registered fonts are kept from the warm-up)."""
    from generator.art import symbols
    from generator.faces import textfit

    textfit._fit_cached.cache_clear()
    symbols.placed_path.cache_clear()


def run_ours(project: Project, decks, folder: Path) -> tuple[float, int, list[str]]:
    cold_caches()
    svgs: list[str] = []
    start = time.process_time()
    for deck in decks:
        faces = FaceRenderer(project, deck)
        for card in deck.cards:
            svgs.append(faces.face(card))
        write_sheets(ProjectContext(project), deck, folder / f"{deck.slug}.pdf", Layout(load_papers(project)["a4"]))
    return time.process_time() - start, sum(len(d.cards) for d in decks), svgs


def run_svg_only(project: Project, decks) -> float:
    cold_caches()
    start = time.process_time()
    for deck in decks:
        faces = FaceRenderer(project, deck)
        for card in deck.cards:
            faces.face(card)
    return time.process_time() - start


def run_baseline(svgs: list[str], folder: Path) -> float:
    """The renderer alone: each SVG text to its one-page PDF (the conversion every print file places)."""
    from generator.render.vector import side_pdf

    start = time.process_time()
    for svg in svgs:
        side_pdf(svg, "bench")
    return time.process_time() - start


def main() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    project = Project(ROOT)
    decks = big_decks(project)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        run_ours(project, decks[:1], folder)  # warm up: fonts, template compilation
        runs = [run_ours(project, decks, folder) for _ in range(REPEAT)]
        ours, count, svgs = min(runs, key=lambda r: r[0])
        svg_only = min(run_svg_only(project, decks) for _ in range(REPEAT))
        base = min(run_baseline(svgs, folder) for _ in range(REPEAT))
    print(f"best of {REPEAT} runs each; deck: {count} cards ({PER_DECK} from each of {', '.join(DECKS)}), one core")
    print(
        f"aetherpress  faces -> SVG + print PDF : {ours:6.2f} s  {count / ours:7.1f} cards/s  "
        f"({1000 * ours / count:.2f} ms a card)"
    )
    print(
        f"  of which   faces -> SVG text only   : {svg_only:6.2f} s  {count / svg_only:7.1f} cards/s  "
        f"(templates and text fitting)"
    )
    print(
        f"baseline     the renderer alone       : {base:6.2f} s  {count / base:7.1f} cards/s  "
        f"({1000 * base / count:.2f} ms a card; same SVG, no templates)"
    )
    print(f"ratio        aetherpress / baseline   : {base / ours:5.2f}x the baseline's speed")
    print(f"target 150 cards/s: {'met' if count / ours >= 150 else 'NOT met'}")


if __name__ == "__main__":
    main()
