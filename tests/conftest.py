from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Counted odds, drawn sides and other derived data go to a folder of this test session, never
# into the repository's output/, so a stale cache cannot hide a regression.  The session's
# workers (pytest-xdist) inherit the folder from the process that starts them and share it.
if "AETHERPRESS_TEST_SESSION_CACHE" not in os.environ:
    os.environ["AETHERPRESS_TEST_SESSION_CACHE"] = tempfile.mkdtemp(prefix="aetherpress-test-cache-")
    os.environ["AETHERPRESS_TEST_SESSION_OWNER"] = str(os.getpid())  # removes the session's folders as it ends
os.environ["AETHERPRESS_CACHE_DIR"] = os.environ["AETHERPRESS_TEST_SESSION_CACHE"]
# The secret that seals that cache is the session's too, not the user's own.
if "AETHERPRESS_TEST_SESSION_CONFIG" not in os.environ:
    os.environ["AETHERPRESS_TEST_SESSION_CONFIG"] = tempfile.mkdtemp(prefix="aetherpress-test-config-")
os.environ["XDG_CONFIG_HOME"] = os.environ["AETHERPRESS_TEST_SESSION_CONFIG"]
# The many `python -m generator` processes the tests start keep their compiled code between
# starts, as on a designer's machine, even where the environment turns that off.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from generator.definitions import load_all
from generator.definitions.presets import load_papers
from generator.imposition.layout import Layout
from generator.pipeline.context import ProjectContext
from generator.project import Project
from generator.project.files import writing_into
from generator.render.sheetpdf import SheetOptions

ROOT = Path(__file__).resolve().parents[1]
# CI sets AETHERPRESS_FULL_TESTS=1: property tests then try every example they name;
# a run on a designer's machine tries a tenth of them (at least ten), to stay quick.
FULL = os.environ.get("AETHERPRESS_FULL_TESTS") == "1"


def examples(n: int) -> int:
    """How many examples a property test with ``n`` examples in full tries in this run."""
    return n if FULL else max(10, n // 10)


A4 = load_papers(Project(ROOT))["a4"]
A4_SHEETS = [("", SheetOptions(Layout(A4)))]


@pytest.fixture(scope="session", autouse=True)
def writes_into_test_folders(tmp_path_factory):
    """Library calls in tests write into pytest's temporary folders (the command line chooses its own)."""
    with writing_into(tmp_path_factory.getbasetemp()):
        yield


@pytest.fixture(scope="session")
def project() -> Project:
    return Project(ROOT)


@pytest.fixture(scope="session")
def definitions(project):
    return load_all(project)


@pytest.fixture(scope="session")
def book_pdf(project):
    """``book_pdf(book id, paper)``: a built-in rulebook as PDF bytes, rendered once in the whole session.
    Its workers share the files (each renders with a context of its own, so a book another worker made
    is as good a check of reproducibility as one made here)."""
    from generator.rulebook import load_rulebooks, render_book

    folder = Path(os.environ["AETHERPRESS_TEST_SESSION_CACHE"]) / "test-books"
    folder.mkdir(exist_ok=True)
    made: dict = {}

    def get(book_id: str, paper: str = "a5") -> bytes:
        path = folder / f"{book_id}-{paper}.pdf"
        if path.is_file():
            return path.read_bytes()
        if not made:
            made["context"], made["books"] = ProjectContext(project).book_context(), load_rulebooks(project)
        data = render_book(made["context"], made["books"][book_id], paper)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_bytes(data)
        os.replace(partial, path)  # whole, or not there: another worker reads it only when complete
        return data

    return get


@pytest.fixture
def scratch(tmp_path) -> Project:
    """An empty project over the built-in data, for writing broken decks into."""
    (tmp_path / "decks").mkdir()
    return Project(tmp_path)


def write_deck(project: Project, text: str, name: str = "test.toml", folder: str = "test") -> Path:
    path = project.decks_dir / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session", autouse=True)
def repository_output_untouched():
    """No test writes into the repository's own output/ folder."""
    folder = ROOT / "output"

    def listing() -> set[str]:
        return {str(p.relative_to(folder)) for p in folder.rglob("*")} if folder.exists() else set()

    before = listing()
    yield
    assert listing() == before, "a test wrote into the repository's output/"


SMALL_VARIANT = '\n[variants.small]\ntitle = "Small"\nremove_ranks = ["4"]\n'  # a variant of a new project's deck


@pytest.fixture
def started(tmp_path, monkeypatch) -> Path:
    """A project made by ``aetherpress new g``, which the test runs in."""
    from generator.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["new", "g"]) == 0
    monkeypatch.chdir(tmp_path / "g")
    return tmp_path / "g"


@pytest.fixture
def started_with_variant(started) -> Path:
    """A new project whose deck has one variant, ``small``, without the 4s."""
    with (started / "decks" / "g" / "g.toml").open("a", encoding="utf-8") as f:
        f.write(SMALL_VARIANT)
    return started


@pytest.fixture(scope="module")
def served_decks() -> tuple[str, ...]:
    """The decks the module's ``server`` previews (none named: every deck of its project)."""
    return ()


@pytest.fixture(scope="module")
def server(game, served_decks):
    """The preview of the test module's ``game`` project (its ``served_decks``), served in a process of its own
    until the module ends."""
    from .served import Server

    served = Server(game, *served_decks)
    served.settled()
    yield served
    served.kill()


@pytest.fixture(scope="module")
def game_hands(game):
    """The games of the test module's ``game`` project (and the built-in ones) on their decks, counted here."""
    return ProjectContext(Project(game)).hands


def pytest_unconfigure(config) -> None:
    """The session's cache and config folders go with the process that made them (its workers only share them)."""
    if os.environ.get("AETHERPRESS_TEST_SESSION_OWNER") == str(os.getpid()):
        for name in ("AETHERPRESS_TEST_SESSION_CACHE", "AETHERPRESS_TEST_SESSION_CONFIG"):
            shutil.rmtree(os.environ[name], ignore_errors=True)
