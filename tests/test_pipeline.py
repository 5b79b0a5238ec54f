"""Builds as tasks: serial, parallel and Dask builds give the same bytes; unchanged work is never done again."""

from __future__ import annotations

import operator
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from generator.cli import main
from tests.contexts import hands_of

from .conftest import ROOT
from .test_catalogue import make_project

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

DECKS = ["pernese:colourless", "dragons-gambit"]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _build(out: Path, cache: Path, *options: str, seed: str = "0") -> subprocess.CompletedProcess:
    """A build in a process of its own (its own hash seed, its own cache), as a user starts one."""
    env = {**os.environ, "AETHERPRESS_CACHE_DIR": str(cache), "PYTHONHASHSEED": seed}
    command = [sys.executable, "-m", "generator", "--project", str(ROOT), "build", *DECKS, "--out", str(out), *options]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> dict[str, bytes]:
    tmp = tmp_path_factory.mktemp("serial")
    result = _build(tmp / "out", tmp / "cache", "--jobs", "1", seed="1")
    assert result.returncode == 0, result.stderr
    return _files(tmp / "out")


def test_a_parallel_build_writes_the_same_bytes_as_a_serial_one(tmp_path, serial):
    result = _build(tmp_path / "out", tmp_path / "cache", "--jobs", "2", seed="2")
    assert result.returncode == 0, result.stderr
    parallel = _files(tmp_path / "out")
    assert sorted(parallel) == sorted(serial) and any(name.endswith(".pdf") for name in serial)
    assert [name for name in serial if parallel[name] != serial[name]] == []


CLUSTER = """
import sys
from distributed import LocalCluster
with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1") as c:
    print(c.scheduler_address, flush=True)
    sys.stdin.read()
"""


@contextmanager
def _cluster(script: str) -> Iterator[str]:
    """The address of a Dask cluster started by ``script`` in a process of its own, as a real one would be: its
    threads and workers never share this test process, which forks pools for other tests."""
    with subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as cluster:
        try:
            yield cluster.stdout.readline().strip()
        finally:
            cluster.stdin.close()
            try:
                cluster.wait(timeout=30)
            except subprocess.TimeoutExpired:
                cluster.kill()


def test_a_dask_cluster_builds_the_same_bytes(tmp_path, serial):
    pytest.importorskip("distributed")
    with _cluster(CLUSTER) as address:
        assert address.startswith("tcp://127.0.0.1:"), address
        result = _build(tmp_path / "out", tmp_path / "cache", "--dask", address, seed="3")
    assert result.returncode == 0, result.stderr
    clustered = _files(tmp_path / "out")
    assert sorted(clustered) == sorted(serial)
    assert [name for name in serial if clustered[name] != serial[name]] == []


SIZED_CLUSTER = """
import sys
from distributed import LocalCluster
with LocalCluster(n_workers=1, threads_per_worker=3, processes=True, dashboard_address=None, host="127.0.0.1") as c:
    print(c.scheduler_address, flush=True)
    sys.stdin.read()
"""


def test_a_dask_build_sizes_its_work_by_the_clusters_workers():
    """A cluster of one worker with three threads runs three tasks at once, whatever this machine's cores."""
    pytest.importorskip("distributed")
    from generator.pipeline.executor import executor, resolved_jobs

    with _cluster(SIZED_CLUSTER) as address:
        with executor(jobs=None, dask=address) as (_, workers):
            assert workers == 3
        with executor(jobs=1, dask=address) as (_, workers):
            assert workers == 3  # --jobs is this machine's, not the cluster's
    assert resolved_jobs(None) == len(os.sched_getaffinity(0)) and resolved_jobs(5) == 5


def test_an_unreachable_cluster_is_one_line(tmp_path):
    result = _build(tmp_path / "out", tmp_path / "cache", "--dask", "tcp://127.0.0.1:9", seed="4")
    assert result.returncode == 2
    assert result.stderr.startswith("error: command line: --dask tcp://127.0.0.1:9: cannot reach the scheduler")
    assert len(result.stderr.splitlines()) == 1 and not (tmp_path / "out").exists()


def _entries(cache: Path, kind: str) -> set[str]:
    return {p.name for p in (cache / kind).glob("*")} if (cache / kind).is_dir() else set()


def test_a_rebuild_with_nothing_changed_writes_nothing(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "cat", "--jobs", "1"]) == 0
    first = capsys.readouterr().out
    folder = root / "output" / "cat"
    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.rglob("*")}
    assert main(["build", "cat", "--jobs", "1"]) == 0
    assert capsys.readouterr().out == first  # the same report
    assert {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.rglob("*")} == before

    # asked from another folder: still nothing to do (not a deck read), and the report names the files as seen from there
    import generator.pipeline.job

    def no_build(*_args, **_kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(generator.pipeline.job, "run_build", no_build)
    monkeypatch.chdir(root / "decks")
    assert main(["--project", "..", "build", "cat", "--jobs", "1"]) == 0
    assert capsys.readouterr().out == first.replace("output/", f"{os.path.realpath(root)}/output/")
    assert {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.rglob("*")} == before
    monkeypatch.chdir(root)
    monkeypatch.undo()
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))

    # a file of the folder changed or removed by hand: the folder is built again
    sheets = folder / "cat-sheets.pdf"
    original = sheets.read_bytes()
    sheets.write_bytes(b"%PDF-1.4 not what was built")
    assert main(["build", "cat", "--jobs", "1"]) == 0
    assert sheets.read_bytes() == original


def test_one_changed_card_draws_one_side_and_one_piece(tmp_path, monkeypatch):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    cache = tmp_path / "cache"
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(cache))
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    folder = root / "output" / "cat"
    before = _files(folder)
    inodes = {p.name: p.stat().st_ino for p in (folder / "faces").iterdir()}
    sides, pieces = _entries(cache, "sides"), _entries(cache, "pieces")
    cards = root / "decks" / "cat" / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Quick and clever.", "Quick and bright."), encoding="utf-8")
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    after = _files(folder)
    assert len(_entries(cache, "sides") - sides) == 1 and len(_entries(cache, "pieces") - pieces) == 1
    changed = sorted(name for name in after if after[name] != before.get(name))
    assert changed == [".aetherpress-manifest.json", "cat-sheets.pdf", "faces/fox.svg"]
    assert b"Quick and bright." in after["faces/fox.svg"]
    # the faces that came out the same are the old files under a new folder, not written again
    kept = {p.name for p in (folder / "faces").iterdir() if p.stat().st_ino == inodes.get(p.name)}
    assert kept == set(inodes) - {"fox.svg"}


def test_the_process_that_plans_a_build_never_reads_a_side_back(tmp_path, monkeypatch):
    """The tasks that have the sides tell the keys of their pieces: the planning process reads no side."""
    from generator.pipeline import keptsides

    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    planner, read = os.getpid(), []
    original = keptsides.Sides.side

    def side(self, card, which):
        if os.getpid() == planner:
            read.append((card.id if card is not None else None, which))
        return original(self, card, which)

    monkeypatch.setattr(keptsides.Sides, "side", side)
    assert main(["build", "cat", "--jobs", "2", "--paper", "a4"]) == 0
    assert (root / "output" / "cat" / "cat-sheets.pdf").is_file() and len(list((root / "output" / "cat" / "faces").iterdir())) > 1
    assert read == []


def test_replaced_art_redraws_the_card_that_shows_it(tmp_path, monkeypatch):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    art = root / "decks" / "cat" / "wizard.png"  # the picture of the card 'the-wizard'
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    before = _files(root / "output" / "cat")
    from PIL import Image

    Image.new("RGB", (8, 8), (30, 90, 200)).save(art)
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    after = _files(root / "output" / "cat")
    assert [n for n in after if n.startswith("faces/") and after[n] != before[n]] == ["faces/the-wizard.svg"]


def test_damaged_cache_entries_are_made_again(tmp_path, monkeypatch):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    cache = tmp_path / "cache"
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(cache))
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    good = _files(root / "output" / "cat")
    for entry in [*(cache / "sides").iterdir(), *(cache / "pieces").iterdir()]:
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2] + b"x" + data[len(data) // 2 + 1 :])
    shutil.rmtree(root / "output")
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    assert _files(root / "output" / "cat") == good
    # a piece's head (what assembling reads of it without its PDF) has a seal of its own
    for entry in (cache / "pieces").iterdir():
        data = entry.read_bytes()
        at = data.index(b"\n", data.index(b"\n") + 1) + 20
        entry.write_bytes(data[:at] + (b"y" if data[at : at + 1] != b"y" else b"z") + data[at + 1 :])
    shutil.rmtree(root / "output")
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    assert _files(root / "output" / "cat") == good


def test_a_back_template_sees_no_card(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path, ("back",))
    monkeypatch.chdir(root)
    template = root / "templates" / "back.svg.j2"
    template.write_text(template.read_text(encoding="utf-8").replace("</svg>", "{{ card.name }}</svg>"), encoding="utf-8")
    assert main(["build", "cat", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "a back template sees no card" in err and len(err.splitlines()) == 1


TBLIB_BUILD = """
import sys
from generator.cli import main
import tblib.pickling_support
tblib.pickling_support.install()  # as Dask does: pickled exceptions carry the ones they arose from
sys.exit(main(sys.argv[1:]))
"""


def test_a_worker_failure_is_one_line_whatever_pickles_exceptions(tmp_path):
    pytest.importorskip("tblib")
    root = make_project(tmp_path, ("plain",))
    template = root / "templates" / "plain.svg.j2"
    template.write_text("}}" + template.read_text(encoding="utf-8"), encoding="utf-8")  # not SVG any more
    command = [
        sys.executable,
        "-c",
        TBLIB_BUILD,
        "--project",
        str(root),
        "build",
        "cat",
        "--jobs",
        "2",
        "--out",
        str(tmp_path / "out"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("error: ") and "does not parse" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and not (tmp_path / "out").exists()


def test_a_large_picture_is_scaled_to_its_printed_size(tmp_path, monkeypatch):
    import base64
    import io
    import re

    from PIL import Image

    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    photo = Image.linear_gradient("L").resize((3000, 2000)).convert("RGB")
    photo.save(root / "decks" / "cat" / "wizard.png")
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    svg = (root / "output" / "cat" / "faces" / "the-wizard.svg").read_text(encoding="utf-8")
    data = base64.b64decode(re.search(r"data:image/png;base64,([A-Za-z0-9+/=]+)", svg).group(1))
    shown = Image.open(io.BytesIO(data))
    # the plain face draws the art in a 28 x 17 mm box: at 600 dpi that is 661 x 402 pixels, covered
    assert shown.size == (661, 441)
    assert shown.getpixel((330, 0)) == photo.getpixel((1500, 0))  # the same picture, smaller


def test_tasks_run_after_the_tasks_they_need_and_shared_work_is_done_once():
    from concurrent.futures import ThreadPoolExecutor

    from generator.pipeline.graph import Graph, Results, run_local

    told: list[str] = []

    def note(word: str, *_needed: object) -> str:
        told.append(word)
        return word

    graph, results = Graph(2), Results()
    a = graph.add(note, "a", key="piece")
    assert graph.add(note, "a again", key="piece") is a and graph.known("piece") is a and graph.known("other") is None
    b = graph.add(note, "b")
    after = graph.add(note, "after a and b", a, needs=[b])  # a's result is an argument; b is only waited for
    last = graph.add(note, "last", needs=[after])
    graph.then([last], lambda: told.append(f"here, after {results[last]}"))
    graph.then([], lambda: told.append("at once"))
    with ThreadPoolExecutor(2) as pool:
        run_local(graph, pool, results)
    assert sorted(told) == ["a", "after a and b", "at once", "b", "here, after last", "last"]
    assert (
        max(told.index("a"), told.index("b")) < told.index("after a and b") < told.index("last") < told.index("here, after last")
    )
    assert results[a] == "a" and results[last] == "last"


def test_the_earliest_failure_is_raised_and_nothing_after_it_starts():
    from concurrent.futures import ThreadPoolExecutor

    from generator.pipeline.graph import Graph, Results, run_local

    def fail(message: str) -> None:
        raise ValueError(message)

    told: list[str] = []
    graph = Graph(1)
    first = graph.add(fail, "first")
    graph.add(fail, "second")
    graph.add(told.append, "should not run", needs=[first])
    graph.then([first], lambda: told.append("nor this"))
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="first"):
        run_local(graph, pool, Results())
    assert told == []


def test_a_dask_cluster_runs_the_graph_by_its_own_scheduler():
    """Every task is submitted at once, with the futures it needs: the cluster starts each when they are ready."""
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    from generator.pipeline.graph import Graph, Results, run_dask

    graph, results = Graph(2), Results()
    a = graph.add(str.upper, "a")
    b = graph.add(str.upper, "b")
    both = graph.add(operator.add, a, b)
    later = graph.add(str.lower, "later", needs=[both])
    told: list[str] = []
    graph.then([both, later], lambda: told.append(results[both] + results[later]))
    with (
        LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        run_dask(graph, client, results)
    assert told == ["ABlater"]


def test_variants_that_print_a_side_alike_draw_its_piece_once(tmp_path, monkeypatch):
    """Two variants built together: a side both print alike is one piece, and each deck's sheets
    are the bytes that deck gets when it is built alone."""
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    decks = ["pernese:coloured", "pernese:stripped"]
    assert main(["--project", str(ROOT), "build", *decks, "--paper", "a4", "--jobs", "2", "--out", str(tmp_path / "both")]) == 0
    svgs = [p.read_bytes() for p in sorted((tmp_path / "both").rglob("*.svg"))]
    assert len(set(svgs)) < len(svgs)  # the premise: the variants share sides
    assert len(_entries(tmp_path / "cache", "pieces")) == len(set(svgs))
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "alone-cache"))
    assert (
        main(["--project", str(ROOT), "build", decks[1], "--paper", "a4", "--jobs", "1", "--out", str(tmp_path / "alone")]) == 0
    )
    name = "pernese-stripped/pernese-stripped-sheets.pdf"
    assert (tmp_path / "both" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes()


def test_a_books_tables_are_counted_ahead_as_tasks_of_their_own(tmp_path, monkeypatch):
    from generator.hands import oddstables as odds
    from generator.pipeline import tasks
    from generator.project import Project

    project = Project(ROOT, tmp_path / "out", tmp_path / "cache")
    where, inputs = tasks.Where.of(project), tasks.inputs_digest(project)
    requests = odds.table_requests(hands_of(project).games["lith"])
    assert ("lith", "extended", ()) in requests and len(requests) == 4 + len(hands_of(project).games["lith"].modifiers)
    assert all(tasks.count_odds(where, inputs, "lith", request) for request in requests)
    assert not tasks.count_odds(where, inputs, "lith", (None, "no-such-deck", ()))  # the book says why, if it needs it
    # the book's process finds every table in the store: counting again would fail
    monkeypatch.setattr(odds, "count_raw", lambda engine: pytest.fail("counted again"))
    for ranking, deck, modifiers in requests:
        assert hands_of(project, fresh=True).odds_table("lith", ranking=ranking, deck=deck, modifiers=modifiers).total > 0


def test_a_build_of_decks_alone_does_not_read_the_games(tmp_path, monkeypatch):
    """A game file that cannot be counted concerns the rulebooks and odds, not a build of the decks."""
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    game = root / "decks" / "cat" / "snap.toml"
    game.write_text(game.read_text(encoding="utf-8").replace('deck = "cat"', 'deck = "no-such-deck"', 1), encoding="utf-8")
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    assert (root / "output" / "cat" / "cat-sheets.pdf").is_file()
    assert main(["build", "--jobs", "1", "--paper", "a4"]) == 2  # the full build makes the rulebook: the game is wrong


def test_a_modifier_that_only_chooses_a_ranking_is_counted_as_that_ranking(tmp_path):
    from generator.hands import oddstables as odds
    from generator.project import Project

    project = Project(ROOT, tmp_path / "out", tmp_path / "cache")
    game = hands_of(project).games["founders-flip"]
    spell = "the-convocation-of-the-gage"
    assert game.modifiers[spell].only_chooses_ranking and not game.modifiers["the-edicts-of-wani"].only_chooses_ranking
    requests = odds.table_requests(game)
    assert ("gage", "standard", ()) in requests and not any(spell in r[2] for r in requests)
    assert len(requests) == len(set(requests))
    under_spell = hands_of(project).odds_table("founders-flip", modifiers=(spell,), use_cache=False)
    plain = hands_of(project).odds_table("founders-flip", ranking="gage", deck="standard", use_cache=False)
    assert [c.count for c in under_spell.categories] == [c.count for c in plain.categories]
    hands = hands_of(project)
    assert odds.table_inputs(hands.evaluator("founders-flip", modifiers=(spell,))) == odds.table_inputs(
        hands.evaluator("founders-flip", "gage", "standard")
    )


def test_every_table_a_build_counts_ahead_is_a_table_of_its_own(tmp_path):
    """No two requests of a game come to the same counts (a modifier its deck plays anyway adds nothing)."""
    from generator.hands import oddstables as odds
    from generator.project import Project

    project = Project(ROOT, tmp_path / "out", tmp_path / "cache")
    games = hands_of(project).games
    eggs = games["dragon-poker"]
    assert any("eggs" in choice.modifiers for choice in eggs.decks.values()) and "eggs" in eggs.modifiers
    for game_id, game in games.items():
        requests = odds.table_requests(game)
        keys = [odds.table_digest(hands_of(project).evaluator(game_id, *request)) for request in requests]
        assert len(keys) == len(set(keys)), game_id


def test_a_worker_counts_a_table_without_checking_the_games_again(tmp_path, monkeypatch):
    """The planning process checked the games; a task reads them as they are and counts without choosing examples."""
    from generator.hands import check
    from generator.hands import oddstables as odds
    from generator.pipeline import tasks
    from generator.project import Project

    project = Project(ROOT, tmp_path / "out", tmp_path / "cache")
    where, inputs = tasks.Where.of(project), tasks.inputs_digest(project) + "-a-worker"
    monkeypatch.setattr(check, "check_game", lambda *args: pytest.fail("checked again"))
    monkeypatch.setattr(odds, "_example", lambda *args: pytest.fail("an example chosen"))
    assert tasks.count_odds(where, inputs, "lith", ("lith", "basic", ()))
    with pytest.raises(BaseException, match="checked again"):  # a process that plans a build checks them
        _ = hands_of(project, fresh=True).games


def test_a_pieces_key_follows_the_projects_fonts(tmp_path):
    """A piece embeds the fonts its SVG names: the same SVG with a project font file changed is another piece."""
    from generator.faces.keys import font_inputs
    from generator.pipeline.keptpieces import piece_key
    from generator.project import Project

    root = make_project(tmp_path)
    project = Project(root, tmp_path / "out", tmp_path / "cache")
    (root / "fonts").mkdir()
    font = root / "fonts" / "Hand-Regular.ttf"
    font.write_bytes((ROOT / "generator" / "fonts" / "Cinzel-Regular.ttf").read_bytes())
    before = piece_key(font_inputs(project), "<svg/>", (63.5, 88.9), False)
    assert piece_key(font_inputs(project), "<svg/>", (63.5, 88.9), False) == before
    font.write_bytes((ROOT / "generator" / "fonts" / "Cinzel-Bold.ttf").read_bytes())
    assert piece_key(font_inputs(project), "<svg/>", (63.5, 88.9), False) != before


def test_a_sides_key_does_not_depend_on_the_working_folder(tmp_path, monkeypatch):
    """The same project built from its own folder or from another keeps the same keys (and finds its cache)."""
    from generator.definitions import load_all
    from generator.project import Project
    from tests.contexts import sides_of

    root = make_project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def keys() -> list[str]:
        project = Project(root, tmp_path / "out", tmp_path / "cache")
        deck = load_all(project)["cat"].build(())
        faces = sides_of(project, deck)
        return [deck.source] + [faces.key(card, "front") for card in deck.cards] + [faces.key(None, "back")]

    monkeypatch.chdir(root)
    here = keys()
    monkeypatch.chdir(elsewhere)
    there = keys()
    assert here[0] != there[0]  # the path shown in messages is another
    assert here[1:] == there[1:]


def _variant_faces(project):
    from generator.definitions import load_all
    from generator.pipeline.build import all_targets
    from tests.contexts import sides_of

    return [sides_of(project, target.deck, use_store=False) for target in all_targets(load_all(project))]


def test_sides_with_one_key_are_one_drawing_in_every_variant(tmp_path):
    """Variants share a side's key only where its template sees nothing of the deck that differs: the
    drawings under one key are the same, in every variant of every built-in deck."""
    from generator.project import Project

    project = Project(ROOT, tmp_path / "out", tmp_path / "cache")
    drawn: dict[str, tuple[str, str]] = {}
    shared = 0
    for faces in _variant_faces(project):
        for card in faces.deck.cards:
            for side in ("front", "back"):
                key = faces.key(card, side)
                if key in drawn:
                    shared += 1
                    first_deck, svg = drawn[key]
                    assert faces.side(card, side).svg == svg, (faces.deck.key, first_deck, card.id, side)
                else:
                    drawn[key] = (faces.deck.key, faces.side(card, side).svg)
    assert shared > 200  # the variants of the Decktet, the Imperial and the Pernese decks print most cards alike


def test_a_template_that_reads_its_deck_keeps_its_sides_to_itself(tmp_path):
    """The Pernese Egg's template looks at the deck's suits through ``deck``: no variant shares its Eggs.
    A draft's notes name the deck, so nothing is shared between drafts either."""
    from generator.definitions import load_all
    from generator.faces.render import FaceRenderer
    from generator.project import Project
    from tests.contexts import sides_of

    project = Project(ROOT, tmp_path / "out", tmp_path / "cache")
    pernese = load_all(project)["pernese"]
    coloured, stripped = pernese.build(("coloured",)), pernese.build(("stripped",))
    both = {c.id for c in stripped.cards}
    egg = next(c for c in coloured.cards if coloured.template_for(c) == "pernese-egg" and c.id in both)
    other = next(c for c in coloured.cards if coloured.template_for(c) == "pernese" and c.id in both)
    a, b = sides_of(project, coloured), sides_of(project, stripped)
    assert a.renderer.reads_deck("pernese-egg.svg.j2") and not a.renderer.reads_deck("pernese.svg.j2")
    assert a.key(other, "front") == b.key(stripped.card(other.id), "front")
    assert a.key(egg, "front") != b.key(stripped.card(egg.id), "front")
    drafts = [sides_of(project, deck, FaceRenderer(project, deck, draft=True)) for deck in (coloured, stripped)]
    assert drafts[0].key(other, "front") != drafts[1].key(stripped.card(other.id), "front")


def test_a_build_draws_a_side_its_variants_share_once(tmp_path, monkeypatch):
    """Building every variant of a deck draws each side key once, whichever variant needs it first."""
    from generator.faces.render import FaceRenderer
    from generator.project import Project

    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    project = Project(ROOT, tmp_path / "out", tmp_path / "cache")
    imperial = [f for f in _variant_faces(project) if f.deck.id == "imperial"]
    keys = {f.key(card, side) for f in imperial for card in f.deck.cards for side in ("front", "back")}
    per_variant = sum(len({f.key(card, side) for card in f.deck.cards for side in ("front", "back")}) for f in imperial)
    assert len(keys) < per_variant
    drawings = tmp_path / "drawn.txt"  # the workers fork from this process, and note each drawing here
    render = FaceRenderer._render

    def noted(self, template, card, side):
        with drawings.open("a", encoding="utf-8") as log:
            log.write(f"{self.deck.key} {card.id if card else '-'} {side}\n")
        return render(self, template, card, side)

    monkeypatch.setattr(FaceRenderer, "_render", noted)
    specs = [f.deck.key for f in imperial]
    for jobs in ("1", "2"):
        drawings.write_text("", encoding="utf-8")
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)
        assert main(["build", *specs, "--jobs", jobs, "--out", str(tmp_path / f"out-{jobs}")]) == 0
        assert len(drawings.read_text(encoding="utf-8").splitlines()) == len(keys), jobs


def test_a_hidden_card_list_is_read_and_watched_like_any_other(tmp_path, monkeypatch, capsys):
    """A deck may keep its cards in ".cards.csv": a change to it is seen, by the whole build's record too."""
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    deck = root / "decks" / "cat" / "deck.toml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('csv = "cards.csv"', 'csv = ".cards.csv"'), encoding="utf-8")
    cards = root / "decks" / "cat" / "cards.csv"
    cards.rename(cards.with_name(".cards.csv"))
    cards = cards.with_name(".cards.csv")
    assert main(["build", "cat"]) == 0
    cards.write_text(cards.read_text(encoding="utf-8").replace("Owl,", "Night Owl,"), encoding="utf-8")
    assert main(["build", "cat"]) == 0
    faces = root / "output" / "cat" / "faces"
    assert (faces / "night-owl.svg").is_file() and not (faces / "owl.svg").exists()


def test_no_deck_writes_where_the_rulebooks_go(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    deck = root / "decks" / "cat" / "deck.toml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('id = "cat"', 'id = "rulebooks"'), encoding="utf-8")
    assert main(["build", "rulebooks"]) == 2
    err = capsys.readouterr().err
    assert "deck 'rulebooks' would write rulebooks/, where the rulebooks go" in err and len(err.splitlines()) == 1
