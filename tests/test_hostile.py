"""Nothing lost, nothing leaked: failed builds keep earlier output; decks and templates stay inside."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import AetherpressError
from generator.project.files import atomic_output, write_text

from .test_catalogue import make_project


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
    assert "'card' has no attribute 'missing_field' (drawing card 'owl' of deck 'cat')" in capsys.readouterr().err
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
    assert "hunter2" not in err and "'environ' is undefined" in err


def test_no_network_or_file_access_through_svg(tmp_path):
    from generator.render.drawing import svg_to_drawing

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
            svg_to_drawing(payload, "templates/cards/x.svg.j2", "card 'x'")
        message = str(info.value)
        assert "TOP SECRET" not in message
        assert message.startswith("templates/cards/x.svg.j2: card 'x': ")


def test_inline_references_are_allowed():
    from generator.render.drawing import svg_to_drawing

    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10mm" height="10mm" viewBox="0 0 10 10">'
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#000"/></linearGradient></defs>'
        '<rect width="10" height="10" fill="url(#g)"/>'
        f'<image x="0" y="0" width="5" height="5" xlink:href="data:image/png;base64,{png}"/></svg>'
    )
    drawing = svg_to_drawing(svg, "inline", None)
    assert drawing.width == pytest.approx(10 * 72 / 25.4, rel=1e-3)


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
    png = (root / "decks" / "cat" / "wizard.png").read_bytes()
    import base64

    assert f"data:image/png;base64,{base64.b64encode(png).decode()}" in svg
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
    assert '<font name="Courier" color="red">pair</font>' in text  # shown, not obeyed
    assert '<img src="/etc/passwd"/>' in text
    fonts = {
        str(f.get_object()["/BaseFont"]) for page in reader.pages for f in page.get("/Resources", {}).get("/Font", {}).values()
    }
    assert not any("Courier" in name for name in fonts)
