"""Nothing left behind, nothing lost: temporary folders go with the run that made them (and stale ones with the
next run), every stage of a build runs however its futures finish, and the translation commands answer a broken
template in the one line a build gives."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from generator.cli import main
from generator.pipeline.graph import Graph, Results, run_local
from generator.project.scratch import sweep

from .test_catalogue import ROOT, make_project


def _sleepy(n: int) -> int:
    time.sleep(random.random() / 2000)
    return n


def test_two_hundred_decks_each_finish_twenty_times_over():
    """The shape of a build of a deck in 200 editions (each: drawn, then its pieces, then finished here) on a pool
    whose tasks end while the graph looks at the steps waiting for them; run 20 times, every deck finishes."""
    for _ in range(20):
        assert sorted(_build_of_many_decks(200)) == list(range(200))


def _build_of_many_decks(decks: int) -> list[int]:
    """The decks that finished in a build of ``decks`` decks, each drawn, then its pieces, then finished here."""
    finished: list[int] = []
    graph = Graph(workers=4)
    for n in range(decks):
        drawn = graph.add(_sleepy, n)
        pieces = graph.add(_sleepy, drawn)
        graph.then([pieces], lambda n=n: finished.append(n))
    with ThreadPoolExecutor(4) as pool:
        run_local(graph, pool, Results())
    return finished


@pytest.mark.slow
def test_a_parallel_build_leaves_no_temporary_folder(tmp_path):
    """A build on two processes, with the fonts the print renderer needs renamed, leaves nothing in the temporary
    folder; the next run sweeps away what a killed run left (its process gone) and what older versions left."""
    root = make_project(tmp_path)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "TMPDIR": str(temporary), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "generator", "--project", str(root), "build", "cat", "--jobs", "2"]
    subprocess.run([*command, "--out", str(tmp_path / "one")], env=env, check=True, capture_output=True)
    assert (tmp_path / "one" / "cat" / "cat-sheets.pdf").is_file()
    assert list(temporary.iterdir()) == []
    killed = temporary / f"aetherpress-{_finished_pid()}-abc123"
    (killed / "fonts-1").mkdir(parents=True)
    older = temporary / "aetherpress-fonts-x1y2z3"
    older.mkdir()
    os.utime(older, (time.time() - 3 * 24 * 3600,) * 2)
    running = temporary / f"aetherpress-{os.getpid()}-live"  # a run still going: left alone
    running.mkdir()
    subprocess.run([*command, "--out", str(tmp_path / "two")], env=env, check=True, capture_output=True)
    assert sorted(p.name for p in temporary.iterdir()) == [running.name]


def _finished_pid() -> int:
    """The process id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_sweep_removes_only_this_users_stale_folders(tmp_path):
    dead = tmp_path / f"aetherpress-{_finished_pid()}-dead"
    dead.mkdir()
    (tmp_path / f"aetherpress-{os.getpid()}-alive").mkdir()
    (tmp_path / "aetherpress-fonts-fresh").mkdir()  # an older version's, written just now: perhaps in use
    (tmp_path / "someone-else").mkdir()
    (tmp_path / "aetherpress-99-link").symlink_to(tmp_path / "someone-else")
    assert sweep(tmp_path) == [dead]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([f"aetherpress-{os.getpid()}-alive", "aetherpress-fonts-fresh", "someone-else", "aetherpress-99-link"])


HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="69.5mm" height="94.9mm" viewBox="0 0 69.5 94.9">\n'
TOO_DEEP = "error: templates/broken.svg.j2: template nests brackets and blocks more than 32 deep; see the limits in the README"


@pytest.mark.slow
@pytest.mark.parametrize(
    "body,expected",
    [
        (
            "{# padding #}" * 80_000,
            "error: templates/broken.svg.j2: template uses a template of more than 1,000,000 characters "
            "('broken.svg.j2'); see the limits in the README",
        ),
        ("{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}", TOO_DEEP),
        ("{{ " + "[" * 400 + "1" + "]" * 400 + " }}", TOO_DEEP),
        (
            "{% if x %}",
            "error: templates/broken.svg.j2:3: template syntax error: Unexpected end of template. Jinja was looking for "
            "the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
        ),
    ],
    ids=["too long", "nested parentheses", "nested lists", "syntax"],
)
def test_translations_answer_a_broken_template_in_one_line(tmp_path, monkeypatch, capsys, body, expected):
    root = make_project(tmp_path)
    (root / "templates").mkdir()
    (root / "templates" / "broken.svg.j2").write_text(HEAD + body + "\n</svg>\n", encoding="utf-8")
    deck = root / "decks" / "cat" / "deck.toml"
    text = deck.read_text(encoding="utf-8").replace('template = "plain"', 'template = "broken"')
    deck.write_text(text.replace('csv = "cards.csv"', 'csv = "cards.csv"\neditions = ["de"]'), encoding="utf-8")
    monkeypatch.chdir(root)
    for action in ("extract", "update", "status"):
        capsys.readouterr()
        assert main(["translations", action]) == 2
        assert capsys.readouterr().err.strip() == expected


@pytest.mark.parametrize("recursion_limit", [1000, 20_000])
def test_a_templates_nesting_is_refused_the_same_whatever_the_recursion_limit(tmp_path, monkeypatch, capsys, recursion_limit):
    """Another library in the process (mypy sets 16,384) may raise the interpreter's recursion limit: the template
    nested one deeper than the limit is refused either way, and the one at the limit is read."""
    root = make_project(tmp_path)
    (root / "templates").mkdir()
    deck = root / "decks" / "cat" / "deck.toml"
    text = deck.read_text(encoding="utf-8").replace('template = "plain"', 'template = "broken"')
    deck.write_text(text.replace('csv = "cards.csv"', 'csv = "cards.csv"\neditions = ["de"]'), encoding="utf-8")
    monkeypatch.chdir(root)
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(recursion_limit)
    try:
        for depth, status in ((32, 0), (33, 2)):
            blocks = "{% if true %}" * 2 + "{{ " + "[" * (depth - 2) + "1" + "]" * (depth - 2) + " }}" + "{% endif %}" * 2
            (root / "templates" / "broken.svg.j2").write_text(HEAD + blocks + "\n</svg>\n", encoding="utf-8")
            capsys.readouterr()
            assert main(["translations", "extract"]) == status
            assert (capsys.readouterr().err.strip() == TOO_DEEP) == (status == 2)
    finally:
        sys.setrecursionlimit(before)
