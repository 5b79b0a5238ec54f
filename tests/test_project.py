"""A designer's project: ``aetherpress new``, ``--project``, project files over the built-in data, the wheel."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from generator.cli import main
from generator.definitions import load_all
from generator.errors import AetherpressError
from generator.project import Project

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A new project made by ``aetherpress new`` in an empty folder."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "my-game"]) == 0
    return tmp_path / "my-game"


def test_new_project_builds_at_once(game, monkeypatch, capsys):
    for name in (
        "decks/my-game/my-game.toml",
        "decks/my-game/cards.csv",
        "templates/my-game.svg.j2",
        "styles/my-game.toml",
        "decks/my-game/my-game.md",
        "decks/my-game/my-game.rulebook.toml",
        "README.md",
        ".gitignore",
    ):
        assert (game / name).is_file(), name
    assert (game / ".gitignore").read_text() == "output/\n"
    monkeypatch.chdir(game)
    assert main(["validate"]) == 0
    assert main(["build"]) == 0
    out = capsys.readouterr().out
    assert "output/my-game/my-game-sheets.pdf" in out and "output/rulebooks/my-game.pdf" in out
    faces = sorted(p.stem for p in (game / "output" / "my-game" / "faces").glob("*.svg"))
    rows = (game / "decks" / "my-game" / "cards.csv").read_text().splitlines()[1:]
    assert len(faces) == len(rows) == 12
    assert not (game / "output" / "imperial").exists()  # a plain build covers the project's own decks only
    assert main(["odds", "my-game", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert sum(c["count"] for c in table["categories"]) == table["total"] == 220  # C(12, 3)


def test_new_project_sees_edits(game, monkeypatch):
    monkeypatch.chdir(game)
    csv = game / "decks" / "my-game" / "cards.csv"
    csv.write_text(csv.read_text().replace("Dawn,1,suns,Draw a card.", "Daybreak,1,suns,Draw three cards."))
    template = game / "templates" / "my-game.svg.j2"
    template.write_text(template.read_text().replace("</svg>", "<desc>edited template</desc></svg>"))
    assert main(["build", "my-game"]) == 0
    face = (game / "output" / "my-game" / "faces" / "dawn.svg").read_text()  # the id column keeps the card's id
    assert "Daybreak" in face and "edited template" in face


def test_the_starter_rulebook_takes_cards_without_text_rank_or_suit(game, monkeypatch, capsys):
    monkeypatch.chdir(game)
    csv = game / "decks" / "my-game" / "cards.csv"
    csv.write_text(csv.read_text() + "comet,Comet,,,\nstar,Star,2,moons+suns,\n")
    assert main(["validate"]) == 0
    assert main(["build"]) == 0
    capsys.readouterr()
    assert (game / "output" / "rulebooks" / "my-game.pdf").is_file()


def test_validate_fills_in_the_rulebook_and_tells_its_problems_where_they_are(game, monkeypatch, capsys):
    monkeypatch.chdir(game)
    source = game / "decks" / "my-game" / "my-game.md"
    source.write_text(source.read_text() + "\n{{ deck('my-game').rank('ace').label }}\n")
    line = len(source.read_text().splitlines())
    assert main(["validate"]) == 2
    assert capsys.readouterr().err == f"error: decks/my-game/my-game.md:{line}: deck 'my-game' has no rank 'ace'\n"
    source.write_text(source.read_text().replace("{{ deck('my-game').rank('ace').label }}", ""))
    book = game / "decks" / "my-game" / "my-game.rulebook.toml"
    # the starter's commented-out choice of cover cards, taken up with a typo
    chosen = next(t for t in book.read_text().splitlines() if t.startswith("# cover = "))
    book.write_text(
        book.read_text().replace(chosen, chosen.removeprefix("# ").replace("card:my-game/zenith", "card:my-game/zenit"))
    )
    line = next(n for n, text in enumerate(book.read_text().splitlines(), 1) if text.startswith("cover = "))
    for command in (["validate"], ["build"]):
        assert main(command) == 2
        assert capsys.readouterr().err == (
            f"error: decks/my-game/my-game.rulebook.toml:{line}: rulebook.cover: "
            "deck 'my-game' has no card 'zenit' (did you mean 'zenith'?)\n"
        )


@pytest.mark.parametrize("name", ["g", "a-game-with-a-long-name"])
def test_new_lines_up_its_comments_whatever_the_name(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    assert main(["new", name]) == 0
    for path in (tmp_path / name / "README.md", tmp_path / name / "decks" / name / f"{name}.toml"):
        lines = path.read_text(encoding="utf-8").splitlines()
        run = [
            line for line in lines if line.startswith(("aetherpress ", "size =", "template =", "back =", "style =", "cards ="))
        ]
        columns = [line.index(" # ") for line in run]
        assert len(run) >= 4 and len(set(columns)) == 1 and name in "".join(run), (path.name, columns)
    assert (tmp_path / name / "fonts").is_dir() and not (tmp_path / name / "images").exists()


@pytest.mark.parametrize("name, message", [("!!!", "must be lower-case letters"), ("...", "must be lower-case")])
def test_new_refuses_bad_names(tmp_path, monkeypatch, capsys, name, message):
    monkeypatch.chdir(tmp_path)
    assert main(["new", name]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "name, folder, title",
    [
        ("Moon Garden", "moon-garden", "Moon Garden"),
        ('Château "Été"', "chateau-ete", 'Château "Été"'),
        ("my_game", "my-game", "my_game"),
    ],
)
def test_new_takes_a_game_name(tmp_path, monkeypatch, capsys, name, folder, title):
    """A name as people write it becomes a folder and deck id, and stays the deck's and the book's title."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", name]) == 0
    assert f"cd {folder} && aetherpress build" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path / folder)
    assert main(["build", "--jobs", "1"]) == 0
    from pypdf import PdfReader

    assert PdfReader(str(tmp_path / folder / "output" / "rulebooks" / f"{folder}.pdf")).metadata.title.startswith(title)


def test_new_refuses_a_folder_in_use(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    assert main(["new", "taken"]) == 2
    assert "taken: already exists and is not empty" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.txt"]


def test_without_a_project_the_built_in_decks_are_used(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert {"imperial", "aetherial", "decktet", "dragons-gambit", "pernese"} <= set(rows)
    assert all(r["builtin"] for r in rows.values())
    assert main(["build", "imperial", "--out", "X"]) == 0
    assert (tmp_path / "X" / "imperial" / "imperial-sheets.pdf").is_file()


def test_project_files_override_built_in_ones_and_built_in_decks_stay_reachable(game, monkeypatch, capsys):
    monkeypatch.chdir(game)
    # a project template and a project style of a built-in name replace the built-in ones for this project
    (game / "templates" / "back.svg.j2").write_text(
        (ROOT / "templates" / "cards" / "back.svg.j2").read_text().replace("</svg>", "<desc>project back</desc></svg>")
    )
    assert main(["build", "my-game", "imperial"]) == 0
    assert "project back" in (game / "output" / "my-game" / "backs" / "back.svg").read_text()
    assert (game / "output" / "imperial" / "imperial-sheets.pdf").is_file()
    # a project deck with a built-in deck's id replaces it
    deck = game / "decks" / "my-game" / "my-game.toml"
    (game / "decks" / "mine").mkdir()
    (game / "decks" / "mine" / "imperial.toml").write_text(
        deck.read_text().replace('id = "my-game"', 'id = "imperial"').replace('csv = "cards.csv"', 'csv = "../my-game/cards.csv"')
    )
    with pytest.raises(AetherpressError):  # card lists stay inside their deck's folder
        load_all(Project(game))
    (game / "decks" / "mine" / "cards.csv").write_text((game / "decks" / "my-game" / "cards.csv").read_text())
    (game / "decks" / "mine" / "imperial.toml").write_text(deck.read_text().replace('id = "my-game"', 'id = "imperial"'))
    definitions = load_all(Project(game))
    assert definitions["imperial"].base.card_count == 12 and "aetherial" in definitions


def test_project_option(tmp_path, game, capsys):
    assert main(["--project", str(game), "list"]) == 0
    assert "my-game" in capsys.readouterr().out
    assert main(["--project", str(tmp_path / "nowhere"), "list"]) == 2
    assert "--project: no such folder" in capsys.readouterr().err
    (tmp_path / "plain").mkdir()
    assert main(["--project", str(tmp_path / "plain"), "list"]) == 2
    assert "not an Aetherpress project (it has no decks/ folder)" in capsys.readouterr().err


def test_the_project_is_found_from_a_folder_inside_it(game, monkeypatch, capsys):
    monkeypatch.chdir(game / "decks" / "my-game")
    assert main(["validate"]) == 0
    assert "1 deck file checked" in capsys.readouterr().out


def test_lengths_with_units_in_styles(game, monkeypatch, capsys):
    deck = game / "decks" / "my-game" / "my-game.toml"
    deck.write_text(deck.read_text() + '\n[style]\nbleed = "1/8in"\nsafe = "4mm"\n')
    built = load_all(Project(game))["my-game"].base
    assert built.style["bleed"] == pytest.approx(3.175) and built.style["safe"] == 4.0
    deck.write_text(deck.read_text().replace('bleed = "1/8in"', 'bleed = "3 furlongs"'))
    monkeypatch.chdir(game)
    assert main(["validate"]) == 2
    assert "style.bleed: unknown unit 'furlongs'" in capsys.readouterr().err


def test_unknown_style_keys_are_errors_with_suggestions(game, monkeypatch, capsys):
    monkeypatch.chdir(game)
    deck = game / "decks" / "my-game" / "my-game.toml"
    deck.write_text(deck.read_text() + '\n[style]\nback_colur = "#000000"\nback_pattern = "stripes"\n')
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert "style.back_colur: unknown style key 'back_colur' (did you mean 'back_colour'?)" in err
    assert "style.back_pattern: 'stripes' is not one of lattice, rings, none" in err
    style = game / "styles" / "my-game.toml"
    deck.write_text(deck.read_text().replace('back_colur = "#000000"\nback_pattern = "stripes"', 'gold = "#000000"'))
    style.write_text(style.read_text() + 'gold = "#b08d3c"\n')  # a key of the style's own, in its [custom] table
    assert main(["validate"]) == 0


def test_every_package_is_named_in_pyproject():
    """The package list is written out (the built-in data is mapped into it): a new package must be added there."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    found = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "generator").rglob("__init__.py") if "builtin" not in p.parts
    }
    named = set(config["packages"])
    assert named - {"generator.builtin.templates", "generator.builtin.decks"} == found
    assert config["package-dir"] == {"generator.builtin.templates": "templates", "generator.builtin.decks": "decks"}


def test_the_wheel_carries_the_built_in_data(tmp_path):
    """A non-editable install finds the templates, styles, presets and example decks inside the package."""
    source = tmp_path / "source"
    for name in ("pyproject.toml", "README.md"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, source / name)
    for name in ("generator", "templates", "decks"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "builtin"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("aetherpress-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "generator/builtin/templates/cards/plain.svg.j2",
        "generator/builtin/templates/styles/imperial.toml",
        "generator/builtin/templates/sizes.toml",
        "generator/builtin/templates/papers.toml",
        "generator/builtin/decks/imperial/imperial.toml",
        "generator/builtin/decks/decktet/lith.md",
        "generator/fonts/EBGaramond-Regular.ttf",
        "generator/outputs/starter/deck.toml",
    ):
        assert name in names, name
    assert not any(name.startswith("output/") or "__pycache__" in name for name in names)


def test_the_users_secret_is_made_once_for_them_alone(tmp_path, monkeypatch):
    """The seal's secret is made on first use, readable by the user alone, and read back the same; a file
    that is not a secret is left as it is, and the process seals with one of its own."""
    import stat

    from generator.project import seal

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(seal, "_secret", None)
    made = seal.secret()
    path = tmp_path / "config" / "aetherpress" / "cache-secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and bytes.fromhex(path.read_text()) == made
    monkeypatch.setattr(seal, "_secret", None)
    assert seal.secret() == made and seal.holds(seal.seal("a", "bc"), "a", "bc")
    assert not seal.holds(seal.seal("a", "bc"), "ab", "c")  # parts are told apart

    path.write_text("not a secret\n")
    monkeypatch.setattr(seal, "_secret", None)
    own = seal.secret()
    assert own != made and len(own) == seal.SECRET_BYTES and path.read_text() == "not a secret\n"


def test_the_secret_is_never_one_others_could_know(tmp_path, monkeypatch):
    """A relative XDG_CONFIG_HOME (a folder inside whatever project the command runs in) is not used, nor a
    secret others may read; processes that make the secret at the same moment all end with the same one."""
    import multiprocessing

    from generator.project import seal

    def planted_secret_is_used(config: str, mode: int) -> bool:
        """Plant a secret where ``XDG_CONFIG_HOME=config`` would keep it, readable as ``mode``: is it taken?"""
        monkeypatch.setenv("XDG_CONFIG_HOME", config)
        planted = tmp_path / config / "aetherpress" / "cache-secret"
        planted.parent.mkdir(parents=True)
        planted.write_text("41" * 32 + "\n")
        planted.chmod(mode)
        monkeypatch.setattr(seal, "_secret", None)
        return seal.secret() == bytes.fromhex("41" * 32)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert not planted_secret_is_used(".config", 0o600)
    assert seal.secret_file() == tmp_path / "home" / ".config" / "aetherpress" / "cache-secret"
    assert not planted_secret_is_used(str(tmp_path / "shared"), 0o644)
    assert planted_secret_is_used(str(tmp_path / "own"), 0o600)  # (the check that these could fail)

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "race"))
    with multiprocessing.get_context("fork").Pool(6) as pool:
        made = pool.map(_fresh_secret, range(12))
    assert len(set(made)) == 1 and bytes.fromhex(made[0]) == seal._read(seal.secret_file())


def _fresh_secret(_: int) -> str:
    from generator.project import seal

    seal._secret = None
    return seal.secret().hex()


def test_verbose_notes_last_as_long_as_their_command(capsys):
    """--verbose shows notes for its own command; a later command in the same process (the preview's, a
    test's) is not left writing them to a stream that may be gone."""
    import logging

    logger = logging.getLogger("aetherpress")
    before = (list(logger.handlers), logger.level)
    assert main(["--verbose", "list"]) == 0
    assert (list(logger.handlers), logger.level) == before
    capsys.readouterr()


def _without_write_access(command: list[str]) -> list[str]:
    """``command`` run so that folders without write permission stop it, as they stop any user but root: root
    runs it without the capability that overrides them (``setpriv``)."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("run as root without setpriv (util-linux): a read-only folder would not stop a write")
    return [setpriv, "--bounding-set", "-dac_override,-fowner", "--", *command]


def test_a_read_only_project_builds_elsewhere_and_keeps_nothing(game, tmp_path):
    """A project (with an output/ folder) the user may not write: build, validate, rulebook and odds all work,
    writing only where --out says, keeping no cache; --verbose says once that nothing is kept, and how to
    choose a cache folder."""
    (game / "output").mkdir()
    files = sorted(game.rglob("*"))
    env = {k: v for k, v in os.environ.items() if k != "AETHERPRESS_CACHE_DIR"}  # the cache is output/.cache
    elsewhere = tmp_path / "elsewhere"

    def start(*args: str) -> subprocess.Popen:
        command = _without_write_access([sys.executable, *args])
        return subprocess.Popen(command, cwd=game, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def finish(running: subprocess.Popen) -> subprocess.CompletedProcess:
        out, err = running.communicate(timeout=300)
        return subprocess.CompletedProcess(running.args, running.returncode, out, err)

    subprocess.run(["chmod", "-R", "a-w", str(game)], check=True)
    try:
        probe = finish(start("-c", "open('output/probe', 'w')"))  # the check that this test could fail
        assert probe.returncode != 0 and "PermissionError" in probe.stderr, probe.stderr
        running = {  # at once, each its own process
            "build": start("-m", "generator", "--verbose", "build", "--out", str(elsewhere / "build")),
            "validate": start("-m", "generator", "--verbose", "validate"),
            "rulebook": start("-m", "generator", "--verbose", "rulebook", "my-game", "--out", str(elsewhere / "book")),
            "odds": start("-m", "generator", "--verbose", "odds", "my-game", "--json"),
        }
        runs = {name: finish(process) for name, process in running.items()}
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(game)], check=True)
    for name, done in runs.items():
        assert done.returncode == 0, (name, done.stderr)
        notes = [line for line in done.stderr.splitlines() if "nothing is kept" in line]
        assert notes == [
            "note: output/.cache: cannot write: not allowed to write there; nothing is kept for later runs "
            "(choose a cache folder with AETHERPRESS_CACHE_DIR)"
        ], (name, done.stderr)
    assert (elsewhere / "build" / "my-game" / "my-game-sheets.pdf").is_file()
    assert (elsewhere / "build" / "rulebooks" / "my-game.pdf").is_file()
    assert (elsewhere / "book" / "my-game.pdf").is_file()
    assert json.loads(runs["odds"].stdout)["total"] == 220  # C(12, 3)
    assert sorted(game.rglob("*")) == files  # nothing was written into the project
