"""The first rendering path: SVG faces and print-sheet PDFs for every deck."""

from __future__ import annotations

import json
import math

import pytest
from pypdf import PdfReader

from generator.cli import main
from generator.faces.render import FaceRenderer
from generator.faces.svg import parse_svg
from generator.imposition.layout import Layout, cards_per_page
from generator.pipeline.build import all_targets, build_deck

from .conftest import A4, A4_SHEETS

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory, project, definitions):
    out = tmp_path_factory.mktemp("out")
    results = {}
    for target in all_targets(definitions):
        deck = target.deck
        results[deck.key] = (deck, build_deck(project, deck, out, A4_SHEETS))
    return results


def test_every_deck_and_variant_is_built(built, definitions):
    expected = {d + (":" + v if v else "") for d in definitions for v in (list(definitions[d].variant_specs) or [""])}
    assert set(built) == expected


def test_svg_faces_parse_and_have_bleed_size(built):
    for _key, (deck, files) in built.items():
        svgs = [f for f in files if f.suffix == ".svg"]
        assert len([f for f in svgs if f.parent.name == "faces"]) == len(deck.cards)
        for svg in svgs[:5]:
            root = parse_svg(svg.read_text(encoding="utf-8"), str(svg))
            assert float(root.get("width").removesuffix("mm")) == pytest.approx(deck.size.width + 2 * deck.style["bleed"])
            assert float(root.get("height").removesuffix("mm")) == pytest.approx(deck.size.height + 2 * deck.style["bleed"])


def test_sheet_pdf_pages_and_text(built):
    layout = Layout(A4)
    for key, (deck, files) in built.items():
        pdf = next(f for f in files if f.suffix == ".pdf")
        reader = PdfReader(str(pdf))
        sheets = math.ceil(deck.card_count / cards_per_page(deck.size.width, deck.size.height, layout))
        assert len(reader.pages) == 2 * sheets, key  # a backs page after every fronts page
        text = " ".join(page.extract_text() for page in reader.pages[::2])
        squashed = "".join(text.split()).lower()
        for card in deck.cards:
            if card.group in ("founding", "numbered", "suited"):
                continue  # Founding faces print no name by default; pip cards print rank and suit only
            first_word = card.name.replace("’", "'").split()[-1].lower()
            assert first_word.replace("'", "") in squashed.replace("'", "").replace("’", ""), (key, card.name)


def test_pdf_fonts_are_all_embedded(built):
    for key, (_deck, files) in built.items():
        pdf = next(f for f in files if f.suffix == ".pdf")
        reader = PdfReader(str(pdf))
        for page in reader.pages:
            fonts = page["/Resources"].get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                assert font["/Subtype"] == "/TrueType", (key, font.get("/BaseFont"))


def test_builds_are_reproducible(tmp_path, project, definitions):
    deck = definitions["pernese"].build(["coloured"])
    a = build_deck(project, deck, tmp_path / "a", A4_SHEETS)
    b = build_deck(project, deck, tmp_path / "b", A4_SHEETS)
    for x, y in zip(a, b):
        assert x.read_bytes() == y.read_bytes(), x.name


def test_a_shared_back_is_stored_once(built):
    deck, files = built["aetherial"]
    pdf = next(f for f in files if f.suffix == ".pdf")
    reader = PdfReader(str(pdf))
    back_page = reader.pages[1]
    xobjects = back_page["/Resources"]["/XObject"]
    assert len(xobjects) == 1  # one form drawn for every back on the page
    assert back_page.get_contents().get_data().count(b" Do") == min(deck.card_count, 4)


def test_cli_list_json(capsys, project):
    assert main(["--project", str(project.root), "list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    seeds = ("imperial", "aetherial", "decktet", "dragons-gambit", "pernese")
    assert {k: v["cards"] for k, v in rows.items() if k in seeds} == {
        "imperial": 36,
        "aetherial": 23,
        "decktet": 45,
        "dragons-gambit": 40,
        "pernese": 54,
    }
    assert rows["standard"]["cards"] == 52
    assert rows["imperial"]["variants"][:3] == ["standard", "ministry", "academy"]
    assert {"basic", "extended"} <= set(rows["decktet"]["variants"])
    assert {"coloured", "colourless", "stripped"} <= set(rows["pernese"]["variants"])


def test_cli_build_one_variant(tmp_path, capsys, project):
    assert main(["--project", str(project.root), "build", "decktet:basic", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "decktet-basic-sheets.pdf" in out
    assert len(list((tmp_path / "decktet-basic" / "faces").glob("*.svg"))) == 36


def test_cli_build_unknown_deck(tmp_path, capsys, project):
    assert main(["--project", str(project.root), "build", "imperail", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "unknown deck 'imperail' (did you mean 'imperial'?)" in err
    assert not any(tmp_path.iterdir())


def test_labelled_founding_faces(project, definitions):
    plain = FaceRenderer(project, definitions["imperial"].build(["standard"]))
    labelled = FaceRenderer(project, definitions["imperial"].build(["academy", "labelled"]))
    deck = definitions["imperial"].base
    assert "The Metric" in labelled.face(labelled.deck.card("mage"))
    assert "The Magist" not in plain.face(deck.card("magist"))
