"""Benchmark: what a rulebook's words cost in Hebrew and Arabic against English, per 1,000 words, in one run.

A project made by ``aetherpress new`` gets a rulebook of N words in one paragraph (the hardest case: a paragraph
split over many pages), in English and, as an edition, in Hebrew and in Arabic (right to left: each word shaped
with HarfBuzz, each line ordered by the bidirectional algorithm).  Each book is made by ``aetherpress rulebook`` in
a fresh process, at three lengths; the cost per 1,000 words is the difference of the times of the shortest and the
longest over the difference of their words (the start-up, the same for each, drops out), and the cost of the words
added from the middle length to the longest is held against that of the words added from the shortest to the
middle one: a paragraph set in time linear in its length costs as much per word at the end as at the start.

    python tests/bench/bench_scripts.py [--words SHORT MIDDLE LONG] [--repeat N] [--paragraphs]

Baseline: the English book of the same words.  Targets: Hebrew and Arabic within 3x English per 1,000 words; in
every language the words added last within 1.5x the cost of those added first.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORDS = {
    "en": ["each", "player", "holds", "three", "cards", "and", "the", "best", "hand", "wins", "the", "round"],
    "he": ["כל", "שחקן", "מחזיק", "שלושה", "קלפים", "והיד", "הטובה", "ביותר", "מנצחת", "בסיבוב"],
    "ar": ["يحمل", "كل", "لاعب", "ثلاث", "أوراق", "وتفوز", "أفضل", "يد", "بالجولة"],
}
HEADINGS = {"en": "Playing", "he": "איך משחקים", "ar": "طريقة اللعب"}


def project(folder: Path, language: str, words: int, paragraphs: bool) -> list[str]:
    """A new project whose rulebook (in ``language``) is ``words`` words long; the command that makes it."""
    subprocess.run([sys.executable, "-m", "generator", "new", "game"], cwd=folder, check=True, capture_output=True)
    root = folder / "game"
    deck = root / "decks" / "game"
    vocabulary = WORDS[language]
    text = []
    for n in range(words):
        text.append(vocabulary[n % len(vocabulary)])
        if paragraphs and n % 120 == 119:
            text.append("\n\n")
    body = f"# {HEADINGS[language]}\n\n{' '.join(text)}\n"
    command = [sys.executable, "-m", "generator", "--project", str(root), "rulebook", "game", "--out", str(folder / "out")]
    if language == "en":
        (deck / "game.md").write_text(body, encoding="utf-8")
        return command
    book = deck / "game.rulebook.toml"
    book.write_text(
        book.read_text(encoding="utf-8").replace('# editions = ["de"]', f'editions = ["{language}"]'), encoding="utf-8"
    )
    (deck / f"game.{language}.md").write_text(body, encoding="utf-8")
    return [*command, "--lang", language]


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stderr[-2000:]}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--words", type=int, nargs=3, default=(2_000, 8_000, 20_000), metavar=("SHORT", "MIDDLE", "LONG"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--paragraphs", action="store_true", help="a paragraph every 120 words instead of one")
    args = parser.parse_args()
    short, middle, long = lengths = args.words
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        commands = {}
        for language in WORDS:
            for words in lengths:
                folder = Path(tmp) / f"{language}-{words}"
                folder.mkdir()
                env["AETHERPRESS_CACHE_DIR"] = str(folder / "cache")
                commands[language, words] = (project(folder, language, words, args.paragraphs), folder)
        times: dict[tuple[str, int], list[float]] = {key: [] for key in commands}
        for _ in range(args.repeat):  # the languages in turns, so a slow spell of the machine slows each alike
            for key, (command, folder) in commands.items():
                shutil.rmtree(folder / "out", ignore_errors=True)
                times[key].append(timed(command, {**env, "AETHERPRESS_CACHE_DIR": str(folder / "cache")}))
    median = {key: statistics.median(values) for key, values in times.items()}
    shape = "a paragraph every 120 words" if args.paragraphs else "one paragraph"
    print(f"rulebooks of {short:,}, {middle:,} and {long:,} words in {shape}; medians of {args.repeat} runs, fresh processes")

    def cost(language: str, low: int, high: int) -> float:
        """Seconds per 1,000 words added from ``low`` words to ``high``."""
        return (median[language, high] - median[language, low]) / ((high - low) / 1000)

    for language in WORDS:
        shown = ", ".join(f"{median[language, words]:.1f} s" for words in lengths)
        print(f"  {language}: {shown}; {cost(language, short, long):.2f} s per 1,000 words")
    english = cost("en", short, long)
    for language in ("he", "ar"):
        print(f"{language} per 1,000 words against English: {cost(language, short, long) / english:.2f}x (target <= 3)")
    for language in WORDS:
        growth = cost(language, middle, long) / cost(language, short, middle)
        print(f"{language}: the last words against the first, per 1,000: {growth:.2f}x (target <= 1.5)")


if __name__ == "__main__":
    main()
