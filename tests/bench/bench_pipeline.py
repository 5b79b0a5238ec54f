"""Benchmark: the build's pipeline against protograf and against its own cold build, in one run.

Every figure is a fresh ``aetherpress`` process, as a user starts one, timed with its peak memory; the
commands run round by round, and each ratio is taken within its round, so a slow spell of this shared
machine slows both sides of it.

- per card: a 1,000-card deck from ``aetherpress new`` (its card list grown), built cold onto A4 with
  ``--jobs 1`` and with one job per core, against protograf drawing as many plain poker cards on A4
  (the named baseline; targets <= 0.5x and <= 0.3x);
- one row of the 1,000-card deck edited, built again, against its cold build (target <= 20 %);
- the same deck built again with nothing changed, against its cold build (target <= 5 %);
- a designer's 30-card deck: ``export pod`` to all three shops, cold and after a build, against the
  cold ``build`` of the same project (target: export <= build);
- the peak memory of any of these commands (target <= 300 MB).

protograf is not a dependency of Aetherpress: install it in a virtual environment of its own and name
that environment's Python with ``--protograf-python`` (or ``PROTOGRAF_PYTHON``)::

    python3 -m venv /tmp/protograf && /tmp/protograf/bin/pip install protograf
    python tests/bench/bench_pipeline.py --protograf-python /tmp/protograf/bin/python [--repeat N]

``--code DIR`` measures another checkout's code (its top folder) instead of this one, and ``--against DIR``
measures a second checkout in the same rounds and prints each of this code's figures against its own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_speed import PEAKS, aetherpress, big_project, run

# protograf drawing plain poker cards on A4 with its grid marks: a rectangle, two texts and a circle each
PROTOGRAF = """
import os
from protograf import *
Create(filename=os.environ["BENCH_OUT"], paper="A4", margin=0.5, units="cm")
Deck(cards={cards}, card_size="poker", grid_marks=True)
Card("*", rectangle(x=0.5, y=0.5, width=5.35, height=7.89, stroke="black", fill="ivory"),
     text(text="Plain card", x=3.175, y=1.5, font_size=12),
     text(text="Second line", x=3.175, y=7.5, font_size=10),
     circle(cx=3.175, cy=4.445, radius=1.2, fill="firebrick"))
Save()
"""


def protograf_python(given: str | None) -> str:
    """The Python that has protograf: the one named, else this one if it has it."""
    chosen = given or os.environ.get("PROTOGRAF_PYTHON") or sys.executable
    probe = subprocess.run([chosen, "-c", "import protograf"], capture_output=True)
    if probe.returncode != 0:
        sys.exit(f"protograf cannot be imported by {chosen}: install it in a venv of its own and pass --protograf-python")
    return chosen


def designer_project(folder: Path, cards: int) -> Path:
    """A designer's project made by ``aetherpress new``, its card list grown to ``cards`` rows (the rows its
    rulebook names kept), with its rulebook."""
    subprocess.run([sys.executable, "-m", "generator", "new", "small"], cwd=folder, check=True, capture_output=True)
    root = folder / "small"
    csv = next((root / "decks").rglob("cards.csv"))
    rows = csv.read_text(encoding="utf-8").splitlines()
    suits, ranks = ["suns", "moons", "leaves"], ["1", "2", "3", "4"]
    ids = rows[0].startswith("id,")  # the card list names each card's id first
    rows += [
        ("" if not ids else f"extra-{n:02d},")
        + f"Extra {n:02d},{ranks[n % 4]},{suits[n % 3]},Draw a card. Then score {n % 7 + 1}."
        for n in range(cards - len(rows) + 1)
    ]
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


class Code:
    """One checkout's code, measured in a folder of its own."""

    def __init__(self, name: str, top: Path | None, tmp: Path, env: dict[str, str], cards: int):
        self.name = name
        self.env = dict(env)
        if top is not None:
            self.env["PYTHONPATH"] = str(top.resolve())
        self.tmp = tmp / f"code-{len(list(tmp.glob('code-*')))}"
        self.tmp.mkdir()
        self.big = big_project(self.tmp, cards)
        self.small = designer_project(self.tmp, 30)
        self.csv = next((self.big / "decks").rglob("cards.csv"))
        self.edits = 0
        self.figures: dict[str, list[float]] = {}

    def time(self, label: str, command: list[str], env: dict[str, str]) -> float:
        seconds = run(f"{self.name}: {label}", command, self.tmp, env)
        self.figures.setdefault(label, []).append(seconds)
        return seconds

    def fresh(self, *folders: Path) -> None:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)

    def big_round(self, cores: int) -> None:
        cache, out = self.tmp / "cache", self.tmp / "out"
        env = {**self.env, "AETHERPRESS_CACHE_DIR": str(cache)}
        for jobs in (1, cores):
            self.fresh(cache, out)
            command = aetherpress(self.big, "build", "big", "--paper", "a4", "--jobs", str(jobs), "--out", str(out))
            self.time(f"cold, --jobs {jobs}", command, env)
        # the deck as a designer builds it (A4 and Letter sheets, every core): cold, one row edited, nothing changed
        self.fresh(cache, out)
        command = aetherpress(self.big, "build", "big", "--out", str(out))
        self.time("designer cold", command, env)
        rows = self.csv.read_text(encoding="utf-8").splitlines()
        self.edits += 1
        rows[500] = f"Card 00499,4,moons,Edited {self.edits} times."
        self.csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
        self.time("one row edited", command, env)
        self.time("nothing changed", command, env)

    def small_round(self) -> None:
        cache, out = self.tmp / "cache-small", self.tmp / "out-small"
        env = {**self.env, "AETHERPRESS_CACHE_DIR": str(cache)}
        self.fresh(cache, out)
        self.time("30 cards: export pod, cold", aetherpress(self.small, "export", "pod", "--out", str(out / "pod")), env)
        self.fresh(cache, out)
        self.time("30 cards: build, cold", aetherpress(self.small, "build", "--out", str(out / "build")), env)
        self.time("30 cards: export pod after build", aetherpress(self.small, "export", "pod", "--out", str(out / "pod")), env)


def ratio(top: list[float], bottom: list[float]) -> float:
    return statistics.median(t / b for t, b in zip(top, bottom))


def report(code: Code, base: list[float], cards: int, cores: int) -> None:
    f = code.figures
    med = {label: statistics.median(times) for label, times in f.items()}
    print(f"\n{code.name}:")
    print(
        f"  {cards:,} cards cold, --jobs 1: {med['cold, --jobs 1']:.2f} s = {ratio(f['cold, --jobs 1'], base):.3f}x protograf (target <= 0.5)"
    )
    print(
        f"  {cards:,} cards cold, --jobs {cores}: {med[f'cold, --jobs {cores}']:.2f} s = "
        f"{ratio(f[f'cold, --jobs {cores}'], base):.3f}x protograf (target <= 0.3)"
    )
    cold = f["designer cold"]
    print(f"  {cards:,} cards as a designer builds them (A4 + Letter), cold: {med['designer cold']:.2f} s")
    print(
        f"  one row edited: {med['one row edited']:.2f} s = {ratio(f['one row edited'], cold) * 100:.1f} % of cold (target <= 20 %)"
    )
    print(
        f"  nothing changed: {med['nothing changed']:.2f} s = {ratio(f['nothing changed'], cold) * 100:.1f} % of cold (target <= 5 %)"
    )
    build = f["30 cards: build, cold"]
    print(f"  30-card designer deck: build, cold (sheets, SVGs, rulebook): {med['30 cards: build, cold']:.2f} s")
    for label in ("30 cards: export pod, cold", "30 cards: export pod after build"):
        print(
            f"  {label.removeprefix('30 cards: ')} (three shops): {med[label]:.2f} s = {ratio(f[label], build):.2f}x the build (target <= 1)"
        )
    peaks = [(label, mb) for label, mb in PEAKS if label.startswith(f"{code.name}: ")]
    label, peak = max(peaks, key=lambda item: item[1])
    print(f"  peak memory: {peak:.0f} MB ({label.removeprefix(code.name + ': ')}) (target <= 300 MB)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--protograf-python")
    parser.add_argument("--code", type=Path, help="the top folder of the checkout to measure (default: this one)")
    parser.add_argument("--against", type=Path, help="the top folder of a checkout to measure in the same rounds")
    args = parser.parse_args()
    python = protograf_python(args.protograf_python)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")} | {"PYTHONHASHSEED": "0"}
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        script = tmp / "plain_deck.py"
        script.write_text(PROTOGRAF.format(cards=args.cards), encoding="utf-8")
        base_env = {**env, "BENCH_OUT": str(tmp / "protograf.pdf")}
        codes = [Code("this code" if args.code is None else f"code at {args.code}", args.code, tmp, env, args.cards)]
        if args.against is not None:
            codes.append(Code(f"code at {args.against}", args.against, tmp, env, args.cards))
        base: list[float] = []
        for n in range(args.repeat):
            print(f"round {n + 1} of {args.repeat}", flush=True)
            base.append(run("protograf", [python, str(script)], tmp, base_env))
            for code in codes:
                code.big_round(cores)
                code.small_round()
        print(f"{cores} cores; medians of {args.repeat} rounds; each ratio the median of the ratios within a round")
        print(
            f"baseline: protograf, {args.cards:,} plain poker cards on A4: {statistics.median(base):.2f} s ({', '.join(f'{b:.2f}' for b in base)})"
        )
        for code in codes:
            report(code, base, args.cards, cores)
        if len(codes) == 2:
            mine, theirs = codes
            print(f"\n{mine.name} against {theirs.name} (median of the ratios within a round):")
            for label in mine.figures:
                print(f"  {label}: {ratio(mine.figures[label], theirs.figures[label]):.2f}x")


if __name__ == "__main__":
    main()
