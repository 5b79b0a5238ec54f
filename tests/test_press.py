"""A new user's deck to the press: pictures from a photo editor and art from drawing programs, a drop shadow, a
screen blend and an overlay, exported to DriveThruCards at its default (PDF/X-1a:2003).  The shop's file, its
proof and the preview agree; ``validate`` and ``build`` say the same of it."""

from __future__ import annotations

import contextlib
import dataclasses
import io

import pytest
from PIL import Image

from generator.cli import main
from generator.definitions import load_all
from generator.pipeline.context import ProjectContext
from generator.project import Project
from tests.fidelity import Browser, browser_available, compare_cmyk
from tests.pressdeck import press_project
from tests.served import run

pytestmark = pytest.mark.slow  # print-shop files, a browser

ART = (
    "soft.png",
    "deep.png",
    "palette.png",
    "inkscape.svg",
    "illustrator.svg",
    "affinity.svg",
    "figma.svg",
    "soft.webp",
    "photo.avif",
    "camera-6.jpg",
)


@pytest.fixture(scope="module")
def lanterns(tmp_path_factory) -> Project:
    with contextlib.redirect_stdout(io.StringIO()):
        return Project(press_project(tmp_path_factory.mktemp("press"), art=ART, cards=12))


def test_validate_and_build_agree_on_a_deck_with_shadows_blends_and_drawn_art(lanterns, capsys):
    code, _, err = run(capsys, lanterns.root, "validate")
    assert code == 0 and err == "", err
    code, _, err = run(capsys, lanterns.root, "build", "lanterns", "--jobs", "1")
    assert code == 0 and err == "", err


def test_the_shops_file_its_proof_and_the_preview_agree(lanterns, capsys, tmp_path):
    out = tmp_path / "out"
    code, _, err = run(
        capsys, lanterns.root, "export", "pod", "lanterns", "--shop", "drivethrucards", "--proof", "--out", str(out)
    )
    assert code == 0
    assert "prints otherwise than designed" not in err, err
    folder = out / "lanterns" / "pod" / "drivethrucards-proof"
    deck = load_all(lanterns)["lanterns"].build(())
    assert sorted(p.stem for p in folder.glob("*.png")) == sorted([c.id for c in deck.cards] + ["back-back"])
    with Image.open(folder / f"{deck.cards[0].id}.png") as proof:
        assert proof.width > 3 * proof.height / 1.5  # design, print and differences side by side
    if not browser_available():
        pytest.skip("chromium and chromium-driver are not installed")
    browser = Browser()
    try:
        found = compare_cmyk(browser, lanterns, deck, "coated", pdfx="1a:2003")
    finally:
        browser.close()
    assert max(found.values()) <= 0.01, sorted(found.items(), key=lambda kv: -kv[1])[:3]


def test_a_proof_shows_a_file_that_prints_otherwise(lanterns, tmp_path):
    """The proof is drawn from the file that ships: a file whose picture lost its transparency is told of."""
    from generator.definitions.shops import load_shops
    from generator.outputs.cardfiles import PodOptions, card_sides
    from generator.outputs.shopproof import LIMIT, shop_proofs
    from generator.render.cardpdf import shop_pdfx
    from generator.render.presspiece import Press

    deck = load_all(lanterns)["lanterns"].build(())
    deck = dataclasses.replace(deck, cards=deck.cards[:1])
    shop = load_shops(lanterns)["drivethrucards"]
    process = PodOptions().process(shop)
    good = shop_pdfx(ProjectContext(lanterns), deck, shop.bleed, Press(process, 150, 150), "1a:2003")
    sides = card_sides(deck)[:1]
    assert all(p.share <= LIMIT for p in shop_proofs(ProjectContext(lanterns), deck, shop, process, good, sides))
    import pikepdf

    with pikepdf.open(io.BytesIO(good)) as broken:  # every picture of the file made black, as a faulty flattener would
        for obj in broken.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image" and obj.get("/ColorSpace") == "/DeviceCMYK":
                obj.write(bytes([0, 0, 0, 255]) * (int(obj.Width) * int(obj.Height)))
        data = io.BytesIO()
        broken.save(data)
    assert any(p.share > LIMIT for p in shop_proofs(ProjectContext(lanterns), deck, shop, process, data.getvalue(), sides))


def test_proof_without_ghostscript_is_one_line(lanterns, tmp_path, monkeypatch, capsys):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    code = main(["--project", str(lanterns.root), "export", "pod", "lanterns", "--proof", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "Ghostscript ('gs')" in err[0]
    assert not (tmp_path / "o").exists()
