"""Text in a font the project has not got prints as the preview shows it, in a font it has, and is told."""

from __future__ import annotations

import csv

import numpy as np
from lxml import etree

from generator.cli import main
from generator.faces.clean import settle_families
from generator.render.pagepng import render_pages
from generator.render.vector import side_pdf
from generator.resources.fonts import FontBook, all_families

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="30mm" viewBox="0 0 60 30"><rect width="60" height="30" fill="#fff"/>'


def _inked(svg: str) -> int:
    """Dark pixels of ``svg`` as the print renderer draws it."""
    image = np.asarray(next(render_pages(side_pdf(svg, "test.svg"), (240, 120))))
    return int((image.min(axis=2) < 128).sum())


def _text(family: str | None) -> str:
    named = f' font-family="{family}"' if family is not None else ""
    return f'{HEAD}<text x="5" y="20" font-size="10"{named}>Sunrise</text></svg>'


def test_each_family_the_project_has_not_got_is_settled_on_one_it_has():
    fonts = FontBook()
    cases = {
        "'MyriadPro-Regular'": ("EB Garamond", True),  # named, unknown: the fallback, told
        "Myriad Pro, 'Source Sans 3', serif": ("Source Sans 3", True),  # the first the project has, told
        "serif": ("EB Garamond", False),  # a generic family alone: the fallback, nothing to tell
        "'Cinzel', Arial": ("Cinzel", False),  # the first is the project's: untouched
    }
    for value, (drawn, told) in cases.items():
        root = etree.fromstring(_text(value).encode())
        changed, said = settle_families(root, fonts, "EB Garamond")
        text = root.find("{http://www.w3.org/2000/svg}text")
        assert all_families(text.get("font-family"))[0] == drawn, value
        assert changed == (value != "'Cinzel', Arial"), value
        assert bool(said) == told, value
    root = etree.fromstring(_text(None).encode())  # no family at all: the fallback
    assert settle_families(root, fonts, "EB Garamond") == (True, [])
    assert root.find("{http://www.w3.org/2000/svg}text").get("font-family") == "'EB Garamond'"


def test_the_print_renderer_draws_settled_text_where_it_drew_none():
    fonts = FontBook()
    for family in ("MyriadPro-Regular", "serif", None):
        assert _inked(_text(family)) == 0  # what the step is for: a browser falls back, the print renderer does not
        root = etree.fromstring(_text(family).encode())
        settle_families(root, fonts, "EB Garamond")
        assert _inked(etree.tostring(root, encoding="unicode")) > 200


def test_a_drawing_in_a_font_the_project_has_not_got_is_told_and_printed_in_the_decks_text_font(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "g"]) == 0
    deck = tmp_path / "g" / "decks" / "g"
    (deck / "label.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 120"><style>.t{font-family:\'MyriadPro-Regular\';'
        'font-size:36px;fill:#FFD166}</style><rect width="200" height="120" fill="#2E4057"/>'
        '<text class="t" x="20" y="75">Sunrise</text></svg>',
        encoding="utf-8",
    )
    toml = deck / "g.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('text = "text"', 'text = "text"\nart = "image"'), encoding="utf-8")
    rows = list(csv.reader((deck / "cards.csv").open(encoding="utf-8")))
    rows = [row + [("art" if n == 0 else "label.svg" if n == 1 else "")] for n, row in enumerate(rows)]
    with (deck / "cards.csv").open("w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(rows)
    capsys.readouterr()
    assert main(["--project", str(tmp_path / "g"), "build", "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "font 'MyriadPro-Regular' is not one of the project's fonts: its text is drawn in 'EB Garamond'" in err
    face = (tmp_path / "out" / "g" / "faces" / f"{rows[1][0]}.svg").read_text(encoding="utf-8")
    assert "MyriadPro" not in face and "font-family:'EB Garamond'" in face
