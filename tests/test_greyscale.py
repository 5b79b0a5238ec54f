"""Greyscale converts pictures too, in every output; soft proofs; the shops' published pixel sizes."""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from generator.definitions import load_all
from generator.definitions.presets import load_papers, load_sizes
from generator.definitions.shops import computed_pixels, load_shops
from generator.imposition.layout import Layout
from generator.outputs.cardfiles import PodOptions, card_sides, export_png, export_pod
from generator.outputs.proof import proof_png
from generator.outputs.shopproof import PROOF_DPI
from generator.outputs.tts import export_tts
from generator.pipeline.context import ProjectContext
from generator.pipeline.sheets import write_sheets
from generator.project import Project
from generator.render.sheetpdf import SheetOptions

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "fixtures"
PICTURE = (20, 60, 220)  # a saturated blue: its grey is far from any of its channels


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory) -> Project:
    """The catalogue project with the wizard's picture in one strong colour."""
    root = tmp_path_factory.mktemp("grey")
    shutil.copytree(FIXTURES / "catalogue-base" / "decks", root / "decks")
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), PICTURE).save(buffer, format="PNG")
    (root / "decks" / "cat" / "wizard.png").write_bytes(buffer.getvalue())
    return Project(root)


@pytest.fixture(scope="module")
def cat(catalogue):
    return load_all(catalogue)["cat"].build(())


def is_grey(image: Image.Image, tolerance: int = 2) -> bool:
    r, g, b = image.convert("RGB").split()
    return all(ImageChops.difference(x, y).getextrema()[1] <= tolerance for x, y in ((r, g), (g, b)))


def has_colour(image: Image.Image) -> bool:
    return not is_grey(image, 30)


def poppler(pdf: Path, dpi: int = 40) -> list[Image.Image]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), f"{tmp}/p"], check=True)
        return [Image.open(p).convert("RGB") for p in sorted(Path(tmp).glob("p*.png"))]


def test_sheets(tmp_path, catalogue, cat):
    a4 = load_papers(catalogue)["a4"]
    colour = write_sheets(ProjectContext(catalogue), cat, tmp_path / "c.pdf", SheetOptions(Layout(a4)))
    grey = write_sheets(ProjectContext(catalogue), cat, tmp_path / "g.pdf", SheetOptions(Layout(a4), greyscale=True))
    assert has_colour(poppler(colour)[0])
    assert all(is_grey(page) for page in poppler(grey))


def test_png(tmp_path, catalogue, cat):
    wizard = f"{cat.card('the-wizard').id}.png"
    export_png(ProjectContext(catalogue), cat, tmp_path / "c", dpi=60)
    export_png(ProjectContext(catalogue), cat, tmp_path / "g", dpi=60, greyscale=True)
    assert has_colour(Image.open(tmp_path / "c" / wizard))
    assert is_grey(Image.open(tmp_path / "g" / wizard))


def test_tabletop_simulator(tmp_path, catalogue, cat):
    sheets = [p for p in export_tts(ProjectContext(catalogue), cat, tmp_path, greyscale=True) if p.suffix == ".png"]
    assert sheets and all(is_grey(Image.open(p)) for p in sheets)


def test_contact_sheet(catalogue, cat):
    assert has_colour(Image.open(io.BytesIO(proof_png(ProjectContext(catalogue), cat, 30))))
    assert is_grey(Image.open(io.BytesIO(proof_png(ProjectContext(catalogue), cat, 30, greyscale=True))))


def test_print_shop_pngs_and_soft_proof(tmp_path, catalogue, cat):
    export_pod(ProjectContext(catalogue), cat, tmp_path, PodOptions(greyscale=True, proof=True))
    pngs = list(tmp_path.rglob("*.png"))
    assert {p.parent.name for p in pngs} == {"thegamecrafter", "makeplayingcards", "drivethrucards-proof"}
    assert all(is_grey(Image.open(p), 3) for p in pngs)


def test_soft_proof_pages(tmp_path, project, definitions):
    """One proof per distinct side of the shop's PDF, at PROOF_DPI: the design, then the file as it prints, close
    to the design but not the same (the press's colours), then what differs: nothing."""
    from generator.outputs.shopproof import _CAPTION, _GAP

    deck = definitions["pernese"].build(["coloured"])
    files = export_pod(
        ProjectContext(project), deck, tmp_path, PodOptions(shops=("drivethrucards", "thegamecrafter"), proof=True)
    )
    proofs = sorted(p for p in files if p.parent.name == "drivethrucards-proof")
    assert [p.stem for p in proofs] == sorted(stem for _, _, stem in card_sides(deck))
    design = Image.open(tmp_path / "thegamecrafter" / "back-back.png").convert("RGB")
    proof = Image.open(tmp_path / "drivethrucards-proof" / "back-back.png").convert("RGB")
    w, h = computed_pixels(63.5, 88.9, 3.175, PROOF_DPI)
    assert proof.size == (3 * w + 4 * _GAP, h + _CAPTION + 2 * _GAP) and proof.info["dpi"] == pytest.approx((150, 150), abs=0.05)
    printed = proof.crop((2 * _GAP + w, _GAP, 2 * _GAP + 2 * w, _GAP + h))
    difference = ImageStat.Stat(ImageChops.difference(design.resize(printed.size), printed)).mean
    assert 0.5 < max(difference) < 25  # the same picture, with the press's colours
    marks = proof.crop((3 * _GAP + 2 * w, _GAP, 3 * _GAP + 3 * w, _GAP + h))
    assert not any(marks.getpixel((x, y)) == (230, 0, 126) for x in range(0, w, 3) for y in range(0, h, 3))


def test_published_pixel_sizes_follow_the_shops_rule(project):
    """Every published image size is the trim plus the shop's bleed at its resolution."""
    sizes = load_sizes(project)
    shops = load_shops(project)
    assert shops["drivethrucards"].ink_limit == 2.4 and shops["thegamecrafter"].colour == "rgb"
    checked = 0
    for shop in shops.values():
        for size_name, published in shop.pixels.items():
            size = sizes[size_name]
            assert computed_pixels(size.width, size.height, shop.bleed, shop.dpi) == published, (shop.id, size_name)
            checked += 1
    assert checked >= 2
    bridge = sizes["bridge"]
    assert shops["thegamecrafter"].image_size(bridge) == (750, 1125)
    assert shops["makeplayingcards"].image_size(bridge) == (747, 1122)


def test_a_broken_shop_preset_is_a_one_line_error(tmp_path, capsys):
    from generator.cli import main

    (tmp_path / "decks").mkdir()
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "shops.toml").write_text(
        '[shops.mine]\nname = "Mine"\nformat = "tiff"\nbleed = 3\ncolour = "rgb"\ndpi = 300\n'
    )
    code = main(["--project", str(tmp_path), "export", "pod", "standard", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("error: ")
    assert err[0].endswith("templates/shops.toml:3: shops.mine.format: must be one of pdf, png, not 'tiff'")
    assert not (tmp_path / "out").exists()
