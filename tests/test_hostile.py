"""Nothing lost, nothing leaked: failed builds keep earlier output; decks and templates stay inside."""

from __future__ import annotations

import contextvars
import io
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import AetherpressError
from generator.project.files import atomic_output, write_text

from .conftest import FULL
from .test_catalogue import make_project

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

ROOT_DECKS = Path(__file__).resolve().parents[1] / "decks"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_failed_build_leaves_previous_output_intact(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path, ("plain",))
    monkeypatch.chdir(root)
    assert main(["build", "cat"]) == 0
    before = _snapshot(root / "output")
    assert any(name.endswith(".pdf") for name in before) and any(name.endswith(".svg") for name in before)

    # break the template for one card only, halfway through the deck
    template = root / "templates" / "plain.svg.j2"
    text = template.read_text(encoding="utf-8")
    template.write_text(
        text.replace(
            "{% set ink = style.ink %}", "{% set ink = style.ink %}{% if card.id == 'owl' %}{{ card.missing_field }}{% endif %}"
        ),
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["build", "cat"]) == 2
    err = capsys.readouterr().err
    assert "card has no field 'missing_field'" in err and "(drawing card 'owl' of deck 'cat')" in err
    assert _snapshot(root / "output") == before
    assert not list((root / "output").rglob("*.part"))


def test_atomic_output_keeps_the_old_file_on_failure(tmp_path):
    target = tmp_path / "a.txt"
    write_text(target, "old")
    with pytest.raises(RuntimeError), atomic_output(target) as tmp:
        tmp.write_text("half", encoding="utf-8")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_a_second_deck_failing_does_not_touch_the_first_decks_old_files(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "cat"]) == 0
    before = _snapshot(root / "output")
    shutil.copytree(root / "decks" / "cat", root / "decks" / "dog")
    deck = root / "decks" / "dog" / "deck.toml"
    deck.write_text(deck.read_text().replace('id = "cat"', 'id = "dog"').replace('template = "plain"', 'template = "nothing"'))
    assert main(["build"]) == 2
    assert "template 'nothing' not found" in capsys.readouterr().err
    assert _snapshot(root / "output") == before  # decks are all checked before anything is written


@pytest.mark.parametrize(
    "expression",
    [
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ cycler.__init__.__globals__.os.environ }}",
        "{{ self.__init__.__globals__ }}",
        "{{ lipsum.__globals__['os'].popen('id').read() }}",
        "{{ deck.__class__.__init__.__globals__ }}",
        "{{ range.__self__ }}",
    ],
)
def test_templates_cannot_reach_python_internals(tmp_path, monkeypatch, capsys, expression):
    root = make_project(tmp_path, ("plain",))
    monkeypatch.chdir(root)
    template = root / "templates" / "plain.svg.j2"
    template.write_text(
        template.read_text(encoding="utf-8").replace("</svg>", f"<desc>{expression}</desc></svg>"), encoding="utf-8"
    )
    code = main(["build", "cat"])
    _out, err = capsys.readouterr()
    assert code == 2, err
    assert err.startswith("error: templates/plain.svg.j2")
    assert "Traceback" not in err
    assert "root:" not in err and "PATH" not in err and "uid=" not in err
    assert not (root / "output").exists()


def test_environment_is_not_visible_to_templates(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path, ("plain",))
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_SECRET", "hunter2")
    template = root / "templates" / "plain.svg.j2"
    template.write_text(
        template.read_text(encoding="utf-8").replace("</svg>", "<desc>{{ environ }}{{ os }}</desc></svg>"), encoding="utf-8"
    )
    assert main(["build", "cat"]) == 2
    err = capsys.readouterr().err
    assert "hunter2" not in err and "a template sees no 'environ'" in err


def test_no_network_or_file_access_through_svg(tmp_path):
    from generator.render.vector import side_pdf

    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    for payload in (
        f'<!DOCTYPE svg [<!ENTITY x SYSTEM "file://{secret}">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
        f'<svg xmlns="http://www.w3.org/2000/svg"><image href="file://{secret}" width="1" height="1"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="http://127.0.0.1:9/x.svg#a"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill: url(http://127.0.0.1:9/p)" width="1" height="1"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(http://127.0.0.1:9/a.css);</style></svg>',
        '<?xml version="1.0"?><!DOCTYPE svg SYSTEM "http://127.0.0.1:9/svg.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>',
    ):
        with pytest.raises(AetherpressError) as info:
            side_pdf(payload, "templates/cards/x.svg.j2", "card 'x'")
        message = str(info.value)
        assert "TOP SECRET" not in message
        assert message.startswith("templates/cards/x.svg.j2: card 'x': ")


def test_inline_references_are_allowed():
    import pikepdf

    from generator.render.vector import side_pdf

    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10mm" height="10mm" viewBox="0 0 10 10">'
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#000"/></linearGradient></defs>'
        '<rect width="10" height="10" fill="url(#g)"/>'
        f'<image x="0" y="0" width="5" height="5" xlink:href="data:image/png;base64,{png}"/></svg>'
    )
    with pikepdf.open(io.BytesIO(side_pdf(svg, "inline", None))) as pdf:
        assert float(pdf.pages[0].mediabox[2]) == pytest.approx(10 * 72 / 25.4, rel=1e-3)


def test_validate_refuses_paths_outside_the_project(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    outside = tmp_path.parent / f"{tmp_path.name}-outside.csv"
    outside.write_text("name\nLeak\n")
    try:
        deck = root / "decks" / "cat" / "deck.toml"
        link = root / "decks" / "cat" / "linked.csv"
        os.symlink(outside, link)
        deck.write_text(deck.read_text().replace('csv = "cards.csv"', 'csv = "linked.csv"'))
        assert main(["validate"]) == 2
        assert "CSV path 'linked.csv' must stay inside the deck's folder" in capsys.readouterr().err
    finally:
        outside.unlink()


def test_card_images_are_embedded_from_the_deck_folder(tmp_path, monkeypatch, capsys):
    from generator.definitions import load_definition
    from generator.faces.render import FaceRenderer
    from generator.project import Project

    root = make_project(tmp_path)
    project = Project(root)
    deck = load_definition(root / "decks" / "cat" / "deck.toml", project).base
    svg = FaceRenderer(project, deck).face(deck.card("the-wizard"))
    import base64
    import io
    import re

    from PIL import Image

    embedded = base64.b64decode(re.search(r"data:image/png;base64,([A-Za-z0-9+/=]+)", svg).group(1))
    original = Image.open(root / "decks" / "cat" / "wizard.png")
    assert Image.open(io.BytesIO(embedded)).tobytes() == original.convert("RGB").tobytes()  # decoded, the same pixels
    monkeypatch.chdir(root)
    assert main(["build", "cat"]) == 0
    assert "wizard.png" not in (root / "output" / "cat" / "faces" / "the-wizard.svg").read_text()


def test_raw_html_in_a_rulebook_is_printed_as_text(tmp_path, monkeypatch, capsys):
    from pypdf import PdfReader

    root = make_project(tmp_path)
    book = root / "decks" / "cat" / "cat.md"
    book.write_text(
        book.read_text(encoding="utf-8").replace(
            "A <b>pair</b>", 'A <font name="Courier" color="red">pair</font> <img src="/etc/passwd"/>'
        ),
        encoding="utf-8",
    )
    monkeypatch.chdir(root)
    assert main(["rulebook", "cat", "--out", "output"]) == 0
    reader = PdfReader(str(root / "output" / "cat.pdf"))
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())  # lines may break anywhere
    text = text.replace("“", '"').replace("”", '"')  # its quotes are set as typographers' quotes, as any text's
    assert '<font name="Courier" color="red">pair</font>' in text  # shown, not obeyed
    assert '<img src="/etc/passwd"/>' in text
    fonts = {
        str(f.get_object()["/BaseFont"]) for page in reader.pages for f in page.get("/Resources", {}).get("/Font", {}).values()
    }
    assert not any("Courier" in name for name in fonts)


# --- one test per class of hostile input: nothing outside the output folder is written or read -----------

CANARY = b"CANARY: must stay as it is, and never be read\n"


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_bytes(CANARY)
    return outside


def _untouched(outside: Path, *texts: str) -> None:
    assert (outside / "secret.txt").read_bytes() == CANARY
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    for text in texts:
        assert "CANARY" not in text


def test_names_never_become_paths_outside_the_output(tmp_path, monkeypatch, capsys):
    """Ids that would be paths are refused, and the one function all writes go through refuses the rest."""
    from generator.project.files import writing_into

    root = make_project(tmp_path)
    outside = _outside(tmp_path)
    monkeypatch.chdir(root)
    for card_id in ("../../outside/secret", "/tmp/x", "..", ".hidden", "a\\b"):
        (root / "decks" / "cat" / "cards.csv").write_text(f"id,name,rank,suits\n{card_id},Fox,1,red\n")
        assert main(["build", "cat"]) == 2

    def write_through_a_climbing_path() -> None:
        with writing_into(root / "output"), pytest.raises(AetherpressError, match="refusing to write outside the output folder"):
            write_text(root / "output" / ".." / ".." / "outside" / "secret.txt", "overwritten")

    contextvars.Context().run(write_through_a_climbing_path)  # only the output folder allowed, as on the command line
    out, err = capsys.readouterr()
    _untouched(outside, out, err)
    assert not (root / "output").exists()


def test_an_output_folder_linked_outside_is_replaced_not_followed(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    outside = _outside(tmp_path)
    monkeypatch.chdir(root)
    (root / "output").mkdir()
    (root / "output" / "cat").symlink_to(outside)  # a deck folder that is a link outside
    assert main(["build", "cat"]) == 0
    assert not (root / "output" / "cat").is_symlink() and (root / "output" / "cat" / "cat-sheets.pdf").is_file()
    (root / "output" / "cat" / "pod").symlink_to(outside)  # an export folder that is a link outside
    assert main(["export", "svg", "cat"]) == 0
    assert main(["export", "pod", "cat"]) == 0
    out, err = capsys.readouterr()
    _untouched(outside, out, err, *(p.read_text(errors="ignore") for p in (root / "output").rglob("*") if p.is_file()))
    assert not list((root / "output").glob(".aetherpress-*"))


def test_reads_stay_inside_the_project(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path, ("plain",))
    outside = _outside(tmp_path)
    monkeypatch.chdir(root)
    (root / "templates" / "leak.svg.j2").symlink_to(outside / "secret.txt")
    template = root / "templates" / "plain.svg.j2"
    template.write_text(template.read_text().replace("</svg>", "<desc>{% include 'leak.svg.j2' %}</desc></svg>"))
    assert main(["build", "cat"]) == 2
    (root / "decks" / "cat" / "part.md").symlink_to(outside / "secret.txt")
    book = root / "decks" / "cat" / "cat.md"
    book.write_text(book.read_text() + "\n{% include 'part.md' %}\n")
    assert main(["rulebook", "cat", "--out", "output"]) == 2
    out, err = capsys.readouterr()
    assert "is a link to a file outside the project" in err
    _untouched(outside, out, err)
    assert not (root / "output").exists()


def test_every_written_svg_passes_the_allow_list(tmp_path, monkeypatch):
    from lxml import etree

    from generator.faces.sanitise import sanitise_problem

    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "cat", "--proof"]) == 0
    assert main(["export", "svg", "cat"]) == 0
    svgs = list((root / "output").rglob("*.svg"))
    assert len(svgs) >= 8
    for svg in svgs:
        assert sanitise_problem(etree.fromstring(svg.read_bytes())) is None, svg


@pytest.mark.parametrize(
    "body",
    [
        "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
        "{% set l = range(2000)|list %}{% for a in l %}{% for b in l %}{% for c in l %}{% endfor %}{% endfor %}{% endfor %}",
        "{{ 'x' * 10**9 }}",
        "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    ],
)
def test_templates_are_bounded_in_time_and_memory(tmp_path, body):
    """Run as a user would (a separate process, memory capped), with a short time limit: one line, exit 2, quickly."""
    import subprocess
    import sys
    import time

    root = make_project(tmp_path, ("plain",))
    template = root / "templates" / "plain.svg.j2"
    template.write_text(template.read_text().replace("</svg>", body + "</svg>"))
    env = {**os.environ, "AETHERPRESS_TEMPLATE_SECONDS": "1", "AETHERPRESS_MEMORY_MB": "1500"}
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "generator", "build", "cat"], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    assert time.monotonic() - start < 60
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: templates/plain.svg.j2"), result.stderr
    assert "see the limits in the README" in lines[0]
    assert not (root / "output").exists()


def test_numbers_are_checked_where_they_enter(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    deck = root / "decks" / "cat" / "deck.toml"
    good = deck.read_text()
    for change in ("size = { width = nan, height = 88 }", "size = { width = 1e400, height = 88 }"):
        deck.write_text(good.replace('size = "poker"', change))
        assert main(["validate"]) == 2
    deck.write_text(good)
    for args in (
        ["--offset", "nan,1"],
        ["--offset", "1,inf"],
        ["--margin", "inf"],
        ["--gap", "-0.5"],
        ["--copies", "-3"],
        ["--paper", "0x297mm"],
        ["--paper", "nanxnan"],
    ):
        assert main(["build", "cat", *args]) == 2, args
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    assert not (root / "output").exists()


def test_damaged_caches_are_counted_again(tmp_path, monkeypatch, capsys):
    import json

    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["odds", "snap", "--json"]) == 0
    honest = json.loads(capsys.readouterr().out)
    entry = next((tmp_path / "cache" / "odds").glob("*.json"))
    for damage in ("counts", "checksum", "garbage"):
        data = json.loads(entry.read_text())
        if damage == "counts":
            data["data"]["counts"][0] += 1000  # edited numbers, seal left as it was
        elif damage == "checksum":
            data["data"]["counts"][0] += 1000
            import hashlib

            data["seal"] = hashlib.sha256(json.dumps(data["data"], sort_keys=True).encode()).hexdigest()  # re-signed
        entry.write_text(json.dumps(data) if damage != "garbage" else "{ not json")
        assert main(["--verbose", "odds", "snap", "--json"]) == 0
        out, err = capsys.readouterr()
        assert json.loads(out) == honest, damage
        assert "note: the cached odds entry" in err
    assert json.loads(entry.read_text())["data"]["counts"] == [c["count"] for c in honest["categories"]]


def test_a_file_where_the_cache_folder_would_be_keeps_nothing_and_stops_nothing(tmp_path, monkeypatch, capsys):
    """output/.cache is a file (as it could arrive with a project, and as root, whom no permission stops, can still
    be refused): every command works without keeping anything, and --verbose says so once, naming the way to
    choose a cache folder.  (The kept build record, the odds and the sides would all have gone there.)"""
    import json

    monkeypatch.delenv("AETHERPRESS_CACHE_DIR")  # the project's own: output/.cache
    root = make_project(tmp_path)
    (root / "output").mkdir()
    (root / "output" / ".cache").write_text("not a folder")
    monkeypatch.chdir(root)
    note = (
        "note: output/.cache: cannot write: a file is in the way where a folder is needed; nothing is kept for later"
        " runs (choose a cache folder with AETHERPRESS_CACHE_DIR)\n"
    )
    assert main(["--verbose", "odds", "snap", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == note and json.loads(out)["total"] > 0
    for args in (["build", "cat", "--out", str(tmp_path / "chosen")], ["validate"], ["rulebook", "cat"]):
        assert main(["--verbose", *args]) == 0, args
        assert capsys.readouterr().err == note, args
    assert (tmp_path / "chosen" / "cat" / "cat-sheets.pdf").is_file()
    assert (root / "output" / ".cache").read_text() == "not a folder"


def test_a_full_disk_leaves_the_old_output(tmp_path, monkeypatch, capsys):
    import errno

    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "cat"]) == 0
    before = _snapshot(root / "output")
    cards = root / "decks" / "cat" / "cards.csv"  # a change, so the second build writes again
    cards.write_text(cards.read_text(encoding="utf-8").replace("Quick and clever.", "Quicker."), encoding="utf-8")

    def full(self, data):  # the disk is full: nothing more can be written
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    capsys.readouterr()
    assert main(["build", "cat"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "cannot write: no space left on the disk" in err and len(err.splitlines()) == 1
    assert _snapshot(root / "output") == before
    assert not [p for p in (root / "output").rglob("*") if ".aetherpress-staging" in p.name or p.suffix == ".part"]


def test_stale_files_go_and_a_designers_files_stay(tmp_path, monkeypatch):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "cat"]) == 0
    faces = root / "output" / "cat" / "faces"
    assert (faces / "owl.svg").is_file()
    (root / "output" / "cat" / "my-notes.txt").write_text("print on matte card")
    csv = root / "decks" / "cat" / "cards.csv"
    csv.write_text(csv.read_text().replace("Owl,", "Night Owl,"))
    assert main(["build", "cat"]) == 0
    assert not (faces / "owl.svg").exists() and (faces / "night-owl.svg").is_file()
    assert (root / "output" / "cat" / "my-notes.txt").read_text() == "print on matte card"


def test_a_closed_pipe_is_not_an_error(tmp_path):
    import subprocess
    import sys

    root = make_project(tmp_path)
    reader = subprocess.Popen(
        [sys.executable, "-m", "generator", "--project", str(root), "odds", "lith", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.readline()
    reader.stdout.close()  # like `| head -1`
    err = reader.stderr.read().decode()
    assert reader.wait(timeout=60) == 0
    assert "Traceback" not in err and "internal error" not in err and "BrokenPipe" not in err


@pytest.mark.slow
def test_killed_builds_leave_complete_old_or_complete_new_folders(tmp_path):
    """kill -9 at points all through a build: every deck folder is byte for byte the old or the new one."""
    import signal
    import subprocess
    import sys
    import time

    project = tmp_path / "project"
    for deck in ("imperial", "pernese"):
        shutil.copytree(ROOT_DECKS / deck, project / "decks" / deck, ignore=shutil.ignore_patterns("*.md", "*.rulebook.toml"))
    command = [sys.executable, "-m", "generator", "--project", str(project), "build", "imperial", "pernese", "--paper", "a4"]

    def build(out: Path) -> float:
        start = time.monotonic()
        subprocess.run([*command, "--out", str(out)], check=True, capture_output=True)
        return time.monotonic() - start

    build(tmp_path / "old")
    old = {d: _snapshot(tmp_path / "old" / d) for d in ("imperial", "pernese")}
    style = project / "decks" / "imperial" / "imperial.toml"
    style.write_text(style.read_text().replace("[deck]\n", "[deck]\n", 1) + '\n[style]\nback_title = "New edition"\n')
    csv = project / "decks" / "pernese" / "pernese.toml"
    csv.write_text(csv.read_text() + '\n[style]\nback_title = "Second printing"\n')
    duration = build(tmp_path / "new")
    new = {d: _snapshot(tmp_path / "new" / d) for d in ("imperial", "pernese")}
    assert old["imperial"] != new["imperial"] and old["pernese"] != new["pernese"]
    seen = set()
    points = (0.15, 0.4, 0.6, 0.8, 0.9, 0.95, 0.98, 1.0, 1.1, 1.3, 1.6) if FULL else (0.15, 0.9, 1.3)
    for fraction in points:
        out = tmp_path / f"out-{fraction}"
        shutil.copytree(tmp_path / "old", out, symlinks=True)
        process = subprocess.Popen([*command, "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(duration * fraction)
        process.send_signal(signal.SIGKILL)
        process.wait()
        for deck in ("imperial", "pernese"):
            now = _snapshot(out / deck)
            assert now in (old[deck], new[deck]), (fraction, deck)
            seen.add("new" if now == new[deck] else "old")
    assert "old" in seen  # the early kills land before anything is swapped in (later ones, on a busy machine, may too)
    out = tmp_path / "out-0.15"
    subprocess.run([*command, "--out", str(out)], check=True, capture_output=True)  # the next build tidies up
    assert not [p for p in out.iterdir() if p.name.startswith(".aetherpress-")]
    assert {d: _snapshot(out / d) for d in new} == new


def test_sigterm_stops_a_build_cleanly(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    project = tmp_path / "project"
    shutil.copytree(
        ROOT_DECKS / "pernese", project / "decks" / "pernese", ignore=shutil.ignore_patterns("*.md", "*.rulebook.toml")
    )
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "--project", str(project), "build", "pernese", "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "AETHERPRESS_CACHE_DIR": str(tmp_path / "cache")},  # nothing drawn yet: a build of seconds
    )
    while not (out.exists() and any(p.name.startswith(".aetherpress-staging") for p in out.iterdir())):
        time.sleep(0.02)
        assert process.poll() is None
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 130
    assert "terminated" in process.stderr.read()
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))


def test_a_folder_swapped_for_a_link_after_a_write_is_refused(tmp_path):
    """Writes into one folder resolve it once; a folder replaced by a link to elsewhere is resolved again."""
    from generator.errors import AetherpressError
    from generator.project.files import write_bytes, writing_into

    allowed = tmp_path / "out"
    (allowed / "cards").mkdir(parents=True)
    outside = Path(tempfile.mkdtemp(prefix="aetherpress-outside-"))  # not under pytest's folders, which tests may write
    with writing_into(allowed):
        write_bytes(allowed / "cards" / "one.bin", b"1")
        write_bytes(allowed / "cards" / "two.bin", b"2")  # the folder as resolved for the first
        (allowed / "cards").rename(allowed / "old")
        (allowed / "cards").symlink_to(outside, target_is_directory=True)
        with pytest.raises(AetherpressError, match="refusing to write outside the output folder"):
            write_bytes(allowed / "cards" / "three.bin", b"3")
    try:
        assert list(outside.iterdir()) == []
    finally:
        shutil.rmtree(outside)
    assert sorted(p.name for p in (allowed / "old").iterdir()) == ["one.bin", "two.bin"]


@pytest.mark.parametrize("linked", ["output", "output/.cache"])
def test_a_project_whose_output_or_cache_is_a_link_outside_is_refused(tmp_path, monkeypatch, capsys, linked):
    """A project from elsewhere may ship output/ (or output/.cache) as a link to any folder: a plain build would
    write there.  It is refused before anything is written; naming a folder with --out is the user's own choice."""
    root = make_project(tmp_path)
    outside = _outside(tmp_path)
    (root / linked).parent.mkdir(parents=True, exist_ok=True)
    (root / linked).symlink_to(outside)
    monkeypatch.chdir(root)
    monkeypatch.delenv("AETHERPRESS_CACHE_DIR", raising=False)
    assert main(["build", "cat"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {linked}: is a link to a place outside the project; " + (
        "remove the link, or name the folder with --out (and the cache's with AETHERPRESS_CACHE_DIR)\n"
        if linked == "output"
        else "remove the link (the cache is kept inside the output folder)\n"
    )
    _untouched(outside, err)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "cat", "--out", str(tmp_path / "chosen")]) == 0  # folders the user names are used
    capsys.readouterr()
    assert (tmp_path / "chosen" / "cat" / "cat-sheets.pdf").is_file()
    _untouched(outside)


def _poison(cache: Path, change) -> int:
    """Rewrite every kept card side with ``change(data)``, sealed to match (as the user's own secret could)."""
    import json

    from generator.project.seal import sealed_json

    entries = sorted((cache / "sides").glob("*.json"))
    for n, path in enumerate(entries):
        entry = json.loads(path.read_text(encoding="utf-8"))
        change(n, entry["data"])
        path.write_text(sealed_json({"data": entry["data"], "key": entry["key"]}, "sides", entry["key"]), encoding="utf-8")
    return len(entries)


def test_a_poisoned_cache_is_not_believed_nor_read_outside_nor_served(tmp_path, monkeypatch, capsys):
    """Kept sides whose records name a device (which never ends) or a file outside the project (with its right
    digest) are drawn again; a kept side holding a script is refused by the preview, not served."""
    import hashlib

    from generator.definitions import load_all
    from generator.pipeline.context import ProjectContext
    from generator.preview.sides import FACE, Side, draw
    from generator.project import Project

    root = make_project(tmp_path)
    outside = _outside(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "cat"]) == 0
    script = "<script>alert(1)</script></svg>"

    def read_elsewhere(n: int, data: dict) -> None:
        data["svg"] = data["svg"].replace("</svg>", script)
        secret = outside / "secret.txt"
        data["reads"] = {"/dev/zero": "0" * 64} if n % 2 else {str(secret): hashlib.sha256(CANARY).hexdigest()}

    assert _poison(tmp_path / "cache", read_elsewhere) >= 4
    shutil.rmtree(root / "output")
    assert main(["build", "cat"]) == 0  # would hang on /dev/zero, or take the scripted sides, if believed
    capsys.readouterr()
    assert not any("<script" in p.read_text(encoding="utf-8") for p in (root / "output").rglob("*.svg"))
    _untouched(outside)

    _poison(tmp_path / "cache", lambda n, data: data.update(svg=data["svg"].replace("</svg>", script), reads={}))
    shutil.rmtree(root / "output")
    assert main(["build", "cat"]) == 0  # a kept side outside the allow-list is drawn again, not written out
    capsys.readouterr()
    assert not any("<script" in p.read_text(encoding="utf-8") for p in (root / "output").rglob("*.svg"))
    project = Project(root)
    deck = load_all(project)["cat"].build(())
    card = deck.cards[0]
    context = ProjectContext(project)
    faces = context.sides(deck)
    side = Side(deck.slug, FACE, card.id, card, faces.key(card, "front"))
    draw(faces, context.sides(deck, draft=True), side)  # nor served by the preview
    assert side.svg and "<script" not in side.svg and not side.problems


def _forge(root: Path) -> None:
    """What someone could ship with a project, sealed with their own secret: kept sides that draw another name,
    face files that say so, and a manifest that vouches for them."""
    import json

    from generator.project.digests import file_digest
    from generator.project.seal import sealed_json
    from generator.project.staging import MANIFEST

    _poison(root / "output" / ".cache", lambda n, data: data.update(svg=data["svg"].replace(">Fox<", ">FORGED<")))
    folder = root / "output" / "cat"
    face = folder / "faces" / "fox.svg"
    face.write_text(face.read_text(encoding="utf-8").replace(">Fox<", ">FORGED<"), encoding="utf-8")
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    manifest["sha256"] = {name: file_digest(folder / name) for name in manifest["sha256"]}
    del manifest["seal"]
    (folder / MANIFEST).write_text(sealed_json(manifest, MANIFEST), encoding="utf-8")


def _forged(root: Path) -> bool:
    return any("FORGED" in p.read_text(encoding="utf-8") for p in (root / "output" / "cat").rglob("*.svg"))


def test_a_cache_and_output_that_arrive_with_a_project_are_not_believed(tmp_path, monkeypatch, capsys):
    """A project folder shipped with its ``output/`` (cache, manifests, build record) made under another user's
    secret gets nothing from them: every side is drawn again and every file written anew.  Under the secret
    that sealed them, the same forgery would have been believed (the check that this test could fail)."""
    from generator.project import seal as seal_module

    monkeypatch.delenv("AETHERPRESS_CACHE_DIR")
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert (root / "decks" / "cat" / "cards.csv").read_text(encoding="utf-8").count("Fox,") == 1
    monkeypatch.setattr(seal_module, "_secret", b"someone else's secret: 32 bytes.")
    assert main(["build", "cat"]) == 0
    _forge(root)
    assert main(["build", "cat"]) == 0 and _forged(root)  # the sender's own secret believes its seals
    shutil.rmtree(root / "output" / "cat")
    assert main(["build", "cat"]) == 0 and _forged(root)  # ... and the sides it kept
    _forge(root)

    monkeypatch.setattr(seal_module, "_secret", None)  # the designer's own secret, made on first use
    # in this process, so that what the store says of each entry it refuses is heard here (a worker's words are its own)
    assert main(["--verbose", "build", "cat", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert not _forged(root)
    assert "the cached sides entry" in err  # every kept side was drawn again
    assert (Path(os.environ["XDG_CONFIG_HOME"]) / "aetherpress" / "cache-secret").is_file()
    assert seal_module.secret() != b"someone else's secret: 32 bytes."


def test_kept_files_that_are_fifos_or_devices_are_never_read(tmp_path, monkeypatch, capsys):
    """A FIFO would keep a reader waiting for ever and a device might never end: a cache entry, a manifest or a
    TOML file beside the decks that is one is taken as missing (or named as unreadable), never read."""
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "cat"]) == 0
    kept = sorted((tmp_path / "cache").rglob("*.json")) + sorted((tmp_path / "cache").rglob("*.bin"))
    manifest = root / "output" / "cat" / ".aetherpress-manifest.json"
    assert len(kept) > 4 and manifest.is_file()
    for n, path in enumerate([*kept, manifest]):
        path.unlink()
        os.mkfifo(path) if n % 2 else path.symlink_to("/dev/zero")
    os.mkfifo(root / "decks" / "cat" / "notes.toml")
    assert main(["build", "cat"]) == 0  # every kept entry drawn again: nothing waited on, nothing read
    assert main(["validate"]) == 0
    capsys.readouterr()
    assert (root / "output" / "cat" / "cat-sheets.pdf").is_file()


def test_links_between_folders_are_walked_once(tmp_path, monkeypatch, capsys):
    """Folders linking each other twice over, level after level, stay inside the project but make 2^n paths:
    the walks that digest a project's files visit each folder once."""
    from generator.project.digests import _walk

    root = make_project(tmp_path)
    levels = root / "decks" / "cat" / "levels"
    for i in range(19):
        (levels / f"l{i}").mkdir(parents=True)
    for i in range(18):
        (levels / f"l{i}" / "x").symlink_to(f"../l{i + 1}")
        (levels / f"l{i}" / "y").symlink_to(f"../l{i + 1}")
    (levels / "l18" / "note.txt").write_text("the deepest folder")
    assert len(list(_walk(levels))) == 1  # 2^18 paths lead to it
    monkeypatch.chdir(root)
    assert main(["build", "cat", "--out", "output"]) == 0
    capsys.readouterr()


def test_a_shipped_output_folder_cannot_crash_a_build_nor_pass_files_for_ours(tmp_path, monkeypatch, capsys):
    """What a project could arrive with in its output/: seals that are not hexadecimal, JSON nested beyond
    Python's recursion, loops of links, a staging folder named with an impossible process id, folders nested
    a thousand deep, and files under the names Aetherpress writes.  Each build ends well (or with one line),
    and files from a folder without the user's seal are kept only in unverified/."""
    import json

    from generator.project.staging import _remove_tree

    monkeypatch.delenv("AETHERPRESS_CACHE_DIR")  # the cache a project ships: output/.cache
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    out, deep = root / "output", "[" * 100_000 + "]" * 100_000

    def build_ends_well() -> None:
        code = main(["build", "cat"])
        err = capsys.readouterr().err
        assert "internal error" not in err and "Traceback" not in err, err
        assert code == 0 or (code == 2 and len(err.strip().splitlines()) == 1), err

    (out / "cat").mkdir(parents=True)
    (out / "cat" / ".aetherpress-manifest.json").write_text(json.dumps({"key": "x", "seal": "\u00e9"}))
    build_ends_well()
    (out / "cat" / ".aetherpress-manifest.json").write_text(deep)
    for kind in ("odds", "sides", "pieces", "skeletons", "builds"):
        for entry in (out / ".cache" / kind).glob("*"):
            entry.write_text(deep)
    build_ends_well()
    (out / ".aetherpress-staging-cat-99999999999999999999-abcd").mkdir()
    nested = out / "cat" / "notes"
    nested.mkdir()
    os.chdir(nested)
    for _ in range(1_200):  # deeper than Python's recursion limit
        os.mkdir("a")
        os.chdir("a")
    os.chdir(root)
    build_ends_well()
    _remove_tree(nested)  # (shutil.rmtree itself recurses, and would stop at it)

    shutil.rmtree(out / ".cache" / "sides")
    (out / ".cache" / "sides").symlink_to("sides")  # a loop of links
    build_ends_well()
    shutil.rmtree(out)
    out.symlink_to("output")
    build_ends_well()
    out.unlink()

    (out / "cat" / "faces").mkdir(parents=True)
    (out / "cat" / "faces" / "wolf.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>')
    (out / "cat" / "cat-box.pdf").write_text("%PDF-forged")
    (out / "cat" / "my-notes.txt").write_text("print on matte card")
    (out / "cat" / ".aetherpress-manifest.json").write_text(json.dumps({"files": []}))  # lists nothing: all "theirs"
    build_ends_well()
    kept = sorted(str(p.relative_to(out / "cat")) for p in (out / "cat").rglob("*") if p.is_file())
    assert "faces/wolf.svg" not in kept and "cat-box.pdf" not in kept
    assert {"unverified/faces/wolf.svg", "unverified/cat-box.pdf", "unverified/my-notes.txt"} <= set(kept)
    assert (out / "cat" / "cat-sheets.pdf").is_file()


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("hmtx", "error: fonts/Evil.ttf: is not a complete TrueType font (it lacks the hmtx table)"),
        ("Evil{}", "error: fonts/Evil.ttf: its PostScript name (name ID 6) 'Evil{}' is not 1 to 63 printable ASCII characters"),
        ("Évil", "error: fonts/Evil.ttf: its PostScript name (name ID 6) 'Évil' is not 1 to 63 printable ASCII characters"),
    ],
)
def test_a_font_the_pdf_library_would_choke_on_is_refused_in_one_line(tmp_path, monkeypatch, capsys, damage, message):
    from fontTools.ttLib import TTFont

    from generator.locations import FONTS_DIR

    from .designer import renamed_font

    root = make_project(tmp_path)
    (root / "fonts").mkdir()
    font_path = root / "fonts" / "Evil.ttf"
    renamed_font(FONTS_DIR / "SourceSans3-Regular.ttf", font_path, "Evil Sans")
    font = TTFont(font_path)
    if damage == "hmtx":
        del font["hmtx"]
    else:
        font["name"].removeNames(nameID=6)
        font["name"].setName(damage, 6, 3, 1, 0x409)
    font.save(font_path)
    monkeypatch.chdir(root)
    for command in (["validate"], ["build", "cat"]):
        assert main(command) == 2
        assert _one_error_line(capsys).startswith(message)
    assert not (root / "output").exists()


_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{}</svg>'


@pytest.mark.parametrize(
    ("svg", "message"),
    [
        (
            _ICON.format('<rect width="1e999" height="5"/>'),
            "<rect> (line 1) has width='1e999': its numbers must lie between -1,000,000 and 1,000,000",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" width="1e999" height="10"><path d="M0,0 L1,5 Z"/></svg>',
            "<svg> (line 1) has width='1e999': its numbers must lie between",
        ),
        (
            _ICON.format('<g transform="scale(1e300)"><rect width="5" height="5"/></g>'),
            "<g> (line 1) has transform='scale(1e300)': its numbers must lie between",
        ),
        (
            _ICON.format('<g transform="scale(1e4)"><g transform="scale(1e4)"><rect width="5" height="5"/></g></g>'),
            "<g> (line 1): its transforms and its groups' taken together scale or move it by more than 1,000,000",
        ),
        (_ICON.format('<path d="M0,0 L1e999,5 Z"/>'), "<path> (line 1) has d='M0,0 L1e999,5 Z': its numbers must lie between"),
        (_ICON.format('<polygon points="0,0 5,5 nan,1e400"/>'), "<polygon> (line 1) has points="),
    ],
    ids=["width", "svg-width", "scale", "nested-scales", "path", "points"],
)
def test_icon_numbers_are_finite_and_bounded(tmp_path, monkeypatch, capsys, svg, message):
    root = make_project(tmp_path)
    (root / "icons").mkdir()
    (root / "icons" / "coin.svg").write_text(svg, encoding="utf-8")
    cards = root / "decks" / "cat" / "cards.csv"
    cards.write_text(cards.read_text().replace("Wise.", "Wise :coin:."))
    monkeypatch.chdir(root)
    for command in (["validate"], ["build", "cat"]):
        assert main(command) == 2
        assert _one_error_line(capsys).startswith(f"error: icons/coin.svg: icon ':coin:': {message}")
    assert not (root / "output").exists()


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-be", "utf-32"])
def test_an_icon_declaring_a_doctype_is_refused_in_every_encoding(tmp_path, monkeypatch, capsys, encoding):
    root = make_project(tmp_path)
    (root / "icons").mkdir()
    svg = (
        '<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0,0 L1,1 Z"/></svg>'
    )
    if encoding == "utf-16-be":
        svg = '<?xml version="1.0" encoding="UTF-16BE"?>' + svg
    (root / "icons" / "coin.svg").write_bytes(svg.encode(encoding))
    monkeypatch.chdir(root)
    assert main(["validate"]) == 2
    assert _one_error_line(capsys) == (
        "error: icons/coin.svg: icon ':coin:': it declares a DOCTYPE or entities, which are not allowed; "
        "remove the <!DOCTYPE ...> block"
    )


_SHOP = '[shops.{}]\nname = "Shop"\nformat = "png"\nbleed = 3\ncolour = "rgb"\ndpi = 300\n'


@pytest.mark.parametrize(
    ("shops", "message"),
    [
        (
            _SHOP.format('"../../../../escape"'),
            "templates/shops.toml:1: shops.\"../../../../escape\": shop id '../../../../escape' may hold only letters, digits",
        ),
        (_SHOP.format('".hidden"'), "templates/shops.toml:1: shops.\".hidden\": shop id '.hidden' may hold only letters"),
        (
            _SHOP.format("big") + "\n[shops.big.pixels]\npoker = [100000, 100000]\n",
            "templates/shops.toml:9: shops.big.pixels.poker: [100000, 100000] is too large: at most 20,000 pixels a side "
            "and 100 megapixels an image",
        ),
        (
            _SHOP.format("big") + "\n[shops.big.pixels]\npoker = [15000, 15000]\n",
            "templates/shops.toml:9: shops.big.pixels.poker: ",
        ),
    ],
    ids=["climbing", "hidden", "huge", "too-many-megapixels"],
)
def test_a_projects_shops_have_slug_ids_and_bounded_pixels(tmp_path, monkeypatch, capsys, shops, message):
    root = make_project(tmp_path)
    (root / "templates").mkdir()
    (root / "templates" / "shops.toml").write_text(shops, encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["export", "pod", "cat"]) == 2
    assert _one_error_line(capsys).startswith(f"error: {message}")
    assert not (root / "output").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["outside", "project"]


def test_an_icc_profile_is_read_only_from_a_regular_file_of_bounded_size(tmp_path, monkeypatch, capsys):
    """A FIFO would keep export waiting for ever and /dev/zero would fill the memory: refused before reading."""
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    os.mkfifo(tmp_path / "profile.icc")
    with open(tmp_path / "huge.icc", "wb") as huge:
        huge.truncate(21 * 1024 * 1024)
    cases = {
        str(tmp_path / "profile.icc"): "is not a regular file (a folder, pipe or device); name an .icc file",
        "/dev/zero": "is not a regular file (a folder, pipe or device); name an .icc file",
        str(tmp_path): "is not a regular file (a folder, pipe or device); name an .icc file",
        str(tmp_path / "huge.icc"): "is larger than 20 MB; an ICC profile is much smaller",
    }
    for path, message in cases.items():
        assert main(["export", "pod", "cat", "--icc", path]) == 2
        assert _one_error_line(capsys) == f"error: command line: --icc '{path}': {message}"
    assert not (root / "output").exists()


def test_card_images_are_bounded_in_pixels_before_anything_is_drawn(tmp_path, monkeypatch, capsys):
    """A large card at a dpi the option allows would be hundreds of megapixels: refused naming the option."""
    root = make_project(tmp_path)
    deck = root / "decks" / "cat" / "deck.toml"
    deck.write_text(deck.read_text().replace('size = "poker"', "size = { width = 400, height = 400 }"))
    (root / "templates").mkdir()
    (root / "templates" / "shops.toml").write_text(_SHOP.format("fine").replace("dpi = 300", "dpi = 1200"), encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["export", "png", "cat", "--dpi", "1200"]) == 2
    assert _one_error_line(capsys) == (
        "error: command line: --dpi 1200: a card of deck 'cat' would be 19,198 × 19,198 pixels; "
        "the limit is 100 megapixels an image, at most 625 dpi for its size"
    )
    assert main(["export", "pod", "cat", "--shop", "fine"]) == 2
    assert _one_error_line(capsys).startswith("error: command line: shop 'fine' (dpi 1200): a card of deck 'cat' would be ")
    assert not (root / "output").exists()


def test_a_large_valid_picture_is_told_by_its_size_without_pillows_warning(tmp_path, monkeypatch, capsys):
    """Past Pillow's own limit a picture was a warning naming Pillow's files, and past twice that "damaged"."""
    import warnings

    from .test_catalogue import blank_png

    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    for side in (10_000, 30_000):
        (root / "decks" / "cat" / "wizard.png").write_bytes(blank_png(side, side))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning would be an internal error here
            assert main(["validate"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"image 'wizard.png' is {side:,} x {side:,} pixels" in err
