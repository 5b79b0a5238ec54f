"""Print-shop PDFs read back with pikepdf: PDF/X-4 and PDF/X-1a structure, colour spaces, pictures, ink.

Every ``export pod`` PDF made here is checked for its output intent, version
keys and XMP, page boxes, embedded fonts and the colour space of every
content stream, inline image, image XObject and shading; the PDF/X-1a files
for the absence of transparency.  Pictures are checked in rendered pixels:
Ghostscript renders the print file to CMYK separations (ink totals, black-only
greyscale), poppler renders the RGB outputs.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from reportlab.lib import colors

from generator.cli import main
from generator.definitions import load_all
from generator.definitions.shops import load_shops
from generator.outputs.cardfiles import PodOptions, export_pod
from generator.pipeline.context import ProjectContext
from generator.project import Project

from .pdfcheck import assert_boxes, assert_pdfx, assert_press_colour, inspect

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "fixtures"
needs_gs = pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (Debian ghostscript) is not installed")


QUADRANTS = [(0, 0, 0), (0, 0, 255), (0, 160, 60), (250, 200, 40)]  # black, sRGB blue, green, yellow


def quadrant_picture() -> bytes:
    """A 16 x 16 picture of four flat colours, one of them (black) over any ink limit as converted."""
    image = Image.new("RGB", (16, 16))
    for n, colour in enumerate(QUADRANTS):
        image.paste(colour, (8 * (n % 2), 8 * (n // 2), 8 * (n % 2) + 8, 8 * (n // 2) + 8))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory) -> Project:
    """The catalogue project: a small deck whose wizard card carries a picture (of four colours here)."""
    root = tmp_path_factory.mktemp("catalogue")
    shutil.copytree(FIXTURES / "catalogue-base" / "decks", root / "decks")
    (root / "decks" / "cat" / "wizard.png").write_bytes(quadrant_picture())
    return Project(root)


@pytest.fixture(scope="module")
def cat(catalogue):
    return load_all(catalogue)["cat"].build(())


def pod_pdf(project, deck, folder: Path, **options) -> Path:
    files = export_pod(ProjectContext(project), deck, folder, PodOptions(shops=("drivethrucards",), **options))
    (pdf,) = [f for f in files if f.suffix == ".pdf"]
    return pdf


@pytest.fixture(scope="module")
def made(tmp_path_factory, project, definitions, catalogue, cat) -> dict[str, tuple[Path, str, float]]:
    """Every kind of print-shop PDF, each made once: name -> (path, PDF/X level, ink limit)."""
    out = tmp_path_factory.mktemp("pod")
    pernese = definitions["pernese"].build(["coloured"])
    imperial = definitions["imperial"].build(["standard"])  # gradients and transparency
    files = {
        "pernese": (pod_pdf(project, pernese, out / "p", pdfx="4"), "4", 2.4),
        "imperial-300": (pod_pdf(project, imperial, out / "i", ink_limit=3.0, pdfx="4"), "4", 3.0),
        "cat": (pod_pdf(catalogue, cat, out / "c", pdfx="4"), "4", 2.4),
        "cat-grey": (pod_pdf(catalogue, cat, out / "g", greyscale=True, pdfx="4"), "4", 2.4),
        "cat-uncoated": (pod_pdf(catalogue, cat, out / "u", stock="uncoated", pdfx="4"), "4", 2.4),
    }
    files["cat-1a"] = (pod_pdf(catalogue, cat, out / "a", pdfx="1a"), "1a", 2.4)
    files["cat-shop"] = (pod_pdf(catalogue, cat, out / "s"), "1a:2003", 2.4)  # the shop's own version
    files["imperial"] = (pod_pdf(project, imperial, out / "x"), "1a:2003", 2.4)
    return files


KINDS = [
    "pernese",
    "imperial-300",
    "cat",
    "cat-grey",
    "cat-uncoated",
    "cat-1a",
    "cat-shop",
    "imperial",
]


@pytest.mark.parametrize("name", KINDS)
def test_output_intent_version_keys_and_metadata(made, name):
    path, level, _ = made[name]
    with pikepdf.open(path) as pdf:
        assert_pdfx(pdf, level, "uncoated" if "uncoated" in name else "coated")


@pytest.mark.parametrize("name", KINDS)
def test_boxes_on_every_page(made, name):
    path, _, _ = made[name]
    with pikepdf.open(path) as pdf:
        assert_boxes(pdf, 3.175)  # a card's page is its bleed box


@pytest.mark.parametrize("name", KINDS)
def test_no_rgb_anywhere_fonts_embedded_ink_within_limit(made, name):
    path, level, limit = made[name]
    with pikepdf.open(path) as pdf:
        report = assert_press_colour(pdf, level, limit)
    if name.startswith("cat"):
        assert report.images, "the wizard's picture is in the file"


def test_transparency_is_flattened_in_rgb_at_every_level(made):
    """A CMYK file would blend the Imperial back's translucent lines in ink: the back is flattened as the browser
    blends it, into one CMYK picture of the page at 600 dpi, in PDF/X-4 as in PDF/X-1a."""
    for name in ("imperial-300", "imperial"):
        with pikepdf.open(made[name][0]) as pdf:
            report = inspect(pdf)
            back = pdf.pages[0]
            media = [float(v) for v in back.MediaBox]
            flat = [p for p in _pictures(back.Resources) if "/SMask" not in p]
        assert report.transparency == [], name
        width_in = (media[2] - media[0]) / 72
        assert any(int(p.Width) >= 600 * width_in - 1 and str(p.ColorSpace) == "/DeviceCMYK" for p in flat), name
    with pikepdf.open(made["imperial-300"][0]) as pdf:
        assert max(inspect(pdf).cmyk_totals) > 2.4  # a 300 % limit allows richer darks than DriveThruCards' 240 %


def cmyk_pixels(path: Path, page: int, dpi: int = 72) -> Image.Image:
    """One page rendered by Ghostscript to CMYK separations (no colour management: ink as in the file)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "page.tif"
        subprocess.run(
            ["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{dpi}", f"-dFirstPage={page}",
             f"-dLastPage={page}", f"-sOutputFile={out}", str(path)],
            capture_output=True, check=True,
        )  # fmt: skip
        image = Image.open(out)
        image.load()
    return image


def wizard_page(pdf_path: Path, deck) -> int:
    """The 1-based page of the wizard's face (pages go back, front, back, front ...)."""
    return 2 * [c.id for c in deck.cards].index("the-wizard") + 2


def _pictures(resources) -> list:
    """The pictures a page or form draws, through every form it places (not the soft masks of their alpha)."""
    found, forms = [], [resources]
    while forms:
        for xobject in (forms.pop().get("/XObject") or {}).values():
            if xobject.get("/Subtype") == "/Image":
                found.append(xobject)
            elif "/Resources" in xobject:
                forms.append(xobject.Resources)
    return found


@needs_gs
def test_picture_is_cmyk_within_the_ink_limit_in_rendered_pixels(made, catalogue, cat):
    path = made["cat"][0]
    with pikepdf.open(path) as pdf:
        page = pdf.pages[wizard_page(path, cat) - 1]
        (picture,) = _pictures(page.Resources)
        image = pikepdf.PdfImage(picture).as_pil_image()
    assert image.mode == "CMYK" and image.size == (16, 16)
    process = PodOptions().process(load_shops(catalogue)["drivethrucards"])
    for n, colour in enumerate(QUADRANTS):
        pixel = image.getpixel((8 * (n % 2) + 4, 8 * (n // 2) + 4))
        assert sum(pixel) / 255 <= 2.4 + 1e-9
        vector = process(colors.Color(*(v / 255 for v in colour)))  # the same colour drawn as a shape
        assert [round(v / 255, 4) for v in pixel] == [vector.cyan, vector.magenta, vector.yellow, vector.black]
    black = image.getpixel((4, 4))
    assert black[3] > 200 and sum(black) / 255 == pytest.approx(2.4, abs=0.02)  # rich black, cut to the limit
    rendered = cmyk_pixels(path, wizard_page(path, cat))
    assert rendered.mode == "CMYK"
    assert max(sum(p) for p in rendered.get_flattened_data()) / 255 <= 2.4 + 0.02  # every rendered pixel, picture included


@needs_gs
def test_greyscale_print_file_uses_black_ink_only(made, cat):
    path = made["cat-grey"][0]
    with pikepdf.open(path) as pdf:
        report = inspect(pdf)
    assert report.spaces["image xobject"] == {"/DeviceGray"}
    for page in (1, wizard_page(path, cat)):
        rendered = cmyk_pixels(path, page)
        cyan, magenta, yellow, black = rendered.split()
        assert cyan.getextrema() == magenta.getextrema() == yellow.getextrema() == (0, 0)
        assert black.getextrema()[1] > 100  # something is printed


@needs_gs
def test_pdfx1a_keeps_the_picture_cmyk(made):
    with pikepdf.open(made["cat-1a"][0]) as pdf:
        report = inspect(pdf)
    assert {space for _, space, _, _ in report.images} <= {"/DeviceCMYK", "/DeviceGray"}


@needs_gs
def test_pdfx1a_keeps_text_that_nothing_transparent_touches_as_text(tmp_path):
    """Flattening turns a page with transparency into one picture; a designer's card (a fading mask, a blend, a
    translucent pattern under its texts) keeps its name and rules as text, set over that picture."""
    import contextlib

    from generator.render.cardpdf import shop_pdfx
    from generator.render.presspiece import Press

    from .designer import designer_project

    with contextlib.redirect_stdout(io.StringIO()):
        atelier = Project(designer_project(tmp_path))
    deck = load_all(atelier)["atelier"].build(())
    process = PodOptions().process(load_shops(atelier)["drivethrucards"])
    card = deck.cards[0]
    pdf = tmp_path / "atelier-1a.pdf"
    pdf.write_bytes(shop_pdfx(ProjectContext(atelier), deck, 3.175, Press(process, 150), "1a"))
    text = subprocess.run(["pdftotext", "-f", "2", "-l", "2", str(pdf), "-"], capture_output=True, text=True, check=True)
    words = " ".join(text.stdout.split())
    assert card.name in words and str(card.attributes["text"]).split()[0] in words
    with pikepdf.open(pdf) as opened:
        report = inspect(opened)
    assert report.fonts and report.transparency == []


def test_pod_files_are_reproducible(tmp_path, catalogue, cat, made):
    again = pod_pdf(catalogue, cat, tmp_path, pdfx="4")
    assert again.read_bytes() == made["cat"][0].read_bytes()
    if "cat-shop" in made:
        assert pod_pdf(catalogue, cat, tmp_path / "s").read_bytes() == made["cat-shop"][0].read_bytes()


def test_pdfx1a_is_reproducible(tmp_path, catalogue, cat, made):
    assert pod_pdf(catalogue, cat, tmp_path, pdfx="1a").read_bytes() == made["cat-1a"][0].read_bytes()


def test_pdfx1a_needs_no_ghostscript(tmp_path, catalogue, monkeypatch, capsys):
    """Aetherpress flattens press files itself: PDF/X-1a is made on a machine without Ghostscript."""
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    out = tmp_path / "out"
    assert main(["--project", str(catalogue.root), "export", "pod", "cat", "--shop", "drivethrucards", "--out", str(out)]) == 0
    (pdf,) = (out / "cat" / "pod").glob("*.pdf")
    with pikepdf.open(pdf) as opened:
        assert_pdfx(opened, "1a:2003")
        assert inspect(opened).transparency == []


def test_each_shop_preset_asks_for_what_its_guide_says(catalogue):
    shops = load_shops(catalogue)
    dtc = shops["drivethrucards"]
    assert dtc.format == "pdf" and dtc.pdfx == "1a:2003" and dtc.colour == "cmyk"
    assert dtc.bleed == pytest.approx(3.175) and dtc.safe == pytest.approx(3.175) and dtc.ink_limit == pytest.approx(2.4)


def test_exporting_for_one_shop_keeps_the_other_shops_files(tmp_path, catalogue):
    """Each shop's files are its own: an export for one shop leaves another's, and the folder's manifest lists both."""
    import json

    out = tmp_path / "out"
    export = ["--project", str(catalogue.root), "export", "pod", "cat", "--out", str(out)]
    assert main([*export, "--shop", "drivethrucards"]) == 0
    pod = out / "cat" / "pod"
    dtc = pod / "cat-drivethrucards.pdf"
    first = dtc.read_bytes()
    assert main([*export, "--shop", "thegamecrafter"]) == 0
    assert dtc.read_bytes() == first and sorted((pod / "thegamecrafter").glob("*.png"))
    listed = set(json.loads((pod / ".aetherpress-manifest.json").read_text())["files"])
    assert "cat-drivethrucards.pdf" in listed and any(name.startswith("thegamecrafter/") for name in listed)
    assert main([*export, "--shop", "drivethrucards"]) == 0  # and back: the Game Crafter's PNGs stay
    assert sorted((pod / "thegamecrafter").glob("*.png")) and dtc.read_bytes() == first
    (pod / "thegamecrafter" / "notes.txt").write_text("mine")  # a file of the designer's own is carried as before
    assert main([*export, "--shop", "thegamecrafter"]) == 0
    assert (pod / "thegamecrafter" / "notes.txt").read_text() == "mine"
