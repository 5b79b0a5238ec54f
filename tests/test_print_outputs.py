"""Real print outputs read back: sheet PDFs, single-card PDFs, PNGs, Tabletop Simulator sheets."""

from __future__ import annotations

import io
import json
import math

import pytest
from PIL import Image
from pypdf import PdfReader

from generator.cli import main
from generator.definitions.presets import Paper
from generator.geometry import Box
from generator.imposition.layout import Layout, cards_per_page
from generator.imposition.mirror import mirror_rect
from generator.outputs.calibration import probes, write_calibration
from generator.outputs.cardfiles import PodOptions, export_png, export_pod, export_svg
from generator.outputs.progress import ProgressBar
from generator.outputs.tts import cell_size, export_tts, sheet_grids
from generator.pipeline.context import ProjectContext
from generator.pipeline.sheets import write_kept_job, write_sheets
from generator.project import Project
from generator.render.sheetpdf import SheetOptions

from .conftest import A4, ROOT

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

PT = 72 / 25.4  # points per mm


@pytest.fixture(scope="module")
def pernese(definitions):
    return definitions["pernese"].build(["coloured"])


def all_fonts_embedded(reader: PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        resources = [page["/Resources"]]
        while resources:
            res = resources.pop().get_object()
            for ref in res.get("/Font", {}).values():
                font = ref.get_object()
                names.add(str(font["/BaseFont"]))
                if font.get("/Subtype") == "/Type0":  # a composite font: the glyphs are its descendant's
                    font = font["/DescendantFonts"][0].get_object()
                descriptor = font.get("/FontDescriptor")
                assert descriptor is not None and "/FontFile2" in descriptor.get_object(), font["/BaseFont"]
            for ref in res.get("/XObject", {}).values():
                xobj = ref.get_object()
                if "/Resources" in xobj:
                    resources.append(xobj["/Resources"])
    return names


def test_duplex_sheets_pages_and_metadata(tmp_path, project, pernese):
    target = write_sheets(ProjectContext(project), pernese, tmp_path / "s.pdf", Layout(A4))
    reader = PdfReader(str(target))
    per_page = cards_per_page(63.5, 88.9, Layout(A4))
    assert len(reader.pages) == 2 * math.ceil(54 / per_page)
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 210 * PT, 297 * PT], abs=0.01)
    meta = reader.metadata
    assert "The Pernese Deck" in meta.title and "pernese:coloured" in meta.title
    assert "A4" in meta["/Keywords"] and "duplex" in meta["/Keywords"]
    # one shared back, stored once and drawn once per card on every backs page
    back = reader.pages[1]
    assert len(back["/Resources"]["/XObject"]) == 1
    assert back.get_contents().get_data().count(b" Do") == per_page
    assert not all_fonts_embedded(reader) & {"/Helvetica"}


def test_letter_gutterfold_and_greyscale(tmp_path, project, pernese):
    layout = Layout(Paper("Letter", 215.9, 279.4), mode="gutterfold")
    target = write_sheets(ProjectContext(project), pernese, tmp_path / "g.pdf", SheetOptions(layout, copies=2, greyscale=True))
    reader = PdfReader(str(target))
    per_page = cards_per_page(63.5, 88.9, layout)
    assert len(reader.pages) == math.ceil(2 * 54 / per_page)
    assert float(reader.pages[0].mediabox.width) == pytest.approx(215.9 * PT, abs=0.01)
    import pypdfium2 as pdfium

    image = pdfium.PdfDocument(str(target))[0].render(scale=0.5).to_pil().convert("RGB")
    from PIL import ImageChops

    r, g, b = image.split()
    assert ImageChops.difference(r, g).getextrema()[1] <= 2  # grey everywhere
    assert ImageChops.difference(g, b).getextrema()[1] <= 2
    assert len(image.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 3  # but not blank


def test_mixed_sizes_in_one_file(tmp_path, project, definitions):
    imperial, aetherial = definitions["imperial"].build(["standard"]), definitions["aetherial"].base
    target = write_kept_job(ProjectContext(project), [imperial, aetherial], tmp_path / "m.pdf", SheetOptions(Layout(A4)))
    reader = PdfReader(str(target))
    poker, tarot = cards_per_page(63.5, 88.9, Layout(A4)), cards_per_page(69.85, 120.65, Layout(A4))
    expected = 2 * (math.ceil(imperial.card_count / poker) + math.ceil(aetherial.card_count / tarot))
    assert len(reader.pages) == expected


def test_drivethrucards_pdf_boxes_and_order(tmp_path, project, pernese):
    files = export_pod(ProjectContext(project), pernese, tmp_path)
    pdf = next(f for f in files if f.suffix == ".pdf")
    reader = PdfReader(str(pdf))
    assert len(reader.pages) == 2 * 54
    bleed = 3.175
    for page in reader.pages[:4]:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 198, 270], abs=0.01)  # 2.75 x 3.75 in
        assert [float(v) for v in page.trimbox] == pytest.approx(
            [bleed * PT, bleed * PT, 198 - bleed * PT, 270 - bleed * PT], abs=0.01
        )
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 198, 270], abs=0.01)
    # back 1, front 1, back 2, front 2 ...: the back names the deck, the front its card
    texts = [p.extract_text() for p in reader.pages[:4]]
    squashed = ["".join(t.split()).lower() for t in texts]
    back_title = "".join((pernese.style.get("back_title") or pernese.title).split()).lower()
    first, second = pernese.cards[0], pernese.cards[1]
    assert back_title in squashed[0] and squashed[2] == squashed[0]  # every back is the deck's back
    assert back_title not in squashed[1] and back_title not in squashed[3]
    assert pernese.rank(first.rank).label in squashed[1] and pernese.rank(second.rank).label in squashed[3]
    assert squashed[1] != squashed[3]
    for shop, size in (("thegamecrafter", (825, 1125)), ("makeplayingcards", (822, 1122))):  # poker, as published
        pngs = [f for f in files if f.suffix == ".png" and f.parent.name == shop]
        assert len(pngs) == 54 + 1
        for png in pngs[:3] + pngs[-1:]:
            with Image.open(png) as image:
                assert image.size == size and image.mode == "RGB"  # both shops want RGB
                assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_png_sizes_follow_dpi_and_bleed(tmp_path, project, definitions):
    deck = definitions["aetherial"].base  # tarot 69.85 x 120.65 mm = 2.75 x 4.75 in
    files = export_png(ProjectContext(project), deck, tmp_path, dpi=150, bleed=0.0)
    with Image.open(files[0]) as image:
        assert image.size == (413, 713)  # 412.5 and 712.5 px round up
    files = export_png(ProjectContext(project), deck, tmp_path / "b", dpi=300, bleed=3.0)
    with Image.open(files[0]) as image:
        assert image.size == (round((69.85 + 6) / 25.4 * 300), round((120.65 + 6) / 25.4 * 300))


def test_svg_export_has_bleed(tmp_path, project, pernese):
    files = export_svg(ProjectContext(project), pernese, tmp_path, bleed=3.175)
    assert len(files) == 55
    text = files[0].read_text(encoding="utf-8")
    assert 'width="69.85mm"' in text


def test_tts_sheet_grid_and_size(tmp_path, project, pernese):
    files = export_tts(ProjectContext(project), pernese, tmp_path, url_base="https://example.org/decks", copies=2)
    sheets = [f for f in files if "sheet" in f.name]
    assert len(sheets) == 1
    w, h = cell_size(63.5, 88.9)
    assert w <= 409 and h <= 585 and abs(w / h - 63.5 / 88.9) < 0.005
    with Image.open(sheets[0]) as image:
        assert image.size == (10 * w, 6 * h) and max(image.size) <= 4096 and image.mode == "RGB"
        # the cell after the last card (54 = row 5, column 4) is empty, the last card's cell is not
        empty = image.crop((4 * w + 5, 5 * h + 5, 5 * w - 5, 6 * h - 5)).getextrema()
        full = image.crop((3 * w + 5, 5 * h + 5, 4 * w - 5, 6 * h - 5)).getextrema()
    assert all(lo == hi == 255 for lo, hi in empty)
    assert any(lo < 200 for lo, hi in full)
    back = next(f for f in files if f.name.endswith("-back.png"))
    with Image.open(back) as image:
        assert image.size == (w, h)
    data = json.loads(next(f for f in files if f.suffix == ".json").read_text(encoding="utf-8"))
    deck = data["ObjectStates"][0]
    custom = deck["CustomDeck"]["1"]
    assert (custom["NumWidth"], custom["NumHeight"], custom["BackIsHidden"]) == (10, 6, True)
    assert custom["FaceURL"] == f"https://example.org/decks/{sheets[0].name}"
    assert len(deck["DeckIDs"]) == 2 * 54 and len(set(deck["DeckIDs"])) == 54
    assert deck["ContainedObjects"][0]["Nickname"] == pernese.cards[0].name


def test_tts_large_decks_take_several_sheets():
    plan = sheet_grids(150, 63.5, 88.9)
    assert [(g.cols, g.rows, n) for g, n in plan] == [(10, 7, 70), (10, 7, 70), (10, 1, 10)]
    for grid, _ in plan:
        assert max(grid.size) <= 4096
    tall = cell_size(69.85, 120.65)
    assert 7 * tall[1] <= 4096 and 10 * tall[0] <= 4096


def test_outputs_are_reproducible(tmp_path, project, pernese):
    options = SheetOptions(Layout(A4, offset=(0.4, -0.3), registration=True, cut_lines=True), copies=2)
    a = write_sheets(ProjectContext(project), pernese, tmp_path / "a.pdf", options).read_bytes()
    b = write_sheets(ProjectContext(project), pernese, tmp_path / "b.pdf", options).read_bytes()
    assert a == b
    one = export_png(ProjectContext(project), pernese, tmp_path / "p1")
    two = export_png(ProjectContext(project), pernese, tmp_path / "p2")
    assert [f.read_bytes() for f in one[:5]] == [f.read_bytes() for f in two[:5]]
    t1 = export_tts(ProjectContext(project), pernese, tmp_path / "t1", url_base="x")
    t2 = export_tts(ProjectContext(project), pernese, tmp_path / "t2", url_base="x")
    assert [f.read_bytes() for f in t1] == [f.read_bytes() for f in t2]


def test_calibration_page(tmp_path):
    layout = Layout(A4, offset=(1.5, -0.5))
    for p in probes(layout):
        expected = mirror_rect(Box(*p.front, 0, 0), 210, 297, True)
        assert p.back == pytest.approx((expected.x + 1.5, expected.y - 0.5))
    target = write_calibration(tmp_path / "c.pdf", layout)
    reader = PdfReader(str(target))
    assert len(reader.pages) == 2
    assert "1.5,-0.5" in reader.pages[0].extract_text().replace(" ", "")
    assert all_fonts_embedded(reader)


def test_calibration_labels_scale_bar_and_offsets_read_plainly(tmp_path):
    """Labels of 7 pt or more, a 100 mm bar to check the scale, offsets written out (never '0,0')."""
    import re

    for paper in (A4, Paper("Letter", 215.9, 279.4)):
        reader = PdfReader(str(write_calibration(tmp_path / f"{paper.name}.pdf", Layout(paper))))
        sizes, bars = [], []
        for page in reader.pages:
            content = page.get_contents().get_data().decode("latin-1")
            sizes += [float(v) for v in re.findall(r"/F[\w+]+ ([\d.]+) Tf", content)]
            for x1, y1, x2, y2 in re.findall(r"([\d.]+) ([\d.]+) m ([\d.]+) ([\d.]+) l", content):
                if float(y1) == float(y2):
                    bars.append(abs(float(x2) - float(x1)) / PT)
        assert sizes and min(sizes) >= 7.0, sorted(set(sizes))
        assert any(b == pytest.approx(100.0, abs=0.01) for b in bars)
        text = reader.pages[0].extract_text()
        assert "0,0" not in text and "no offset (DX = 0 mm, DY = 0 mm)" in text
        assert "exactly 100 mm long" in text
    shifted = PdfReader(str(write_calibration(tmp_path / "s.pdf", Layout(A4, offset=(1.5, 0.0))))).pages[0].extract_text()
    assert "DX = +1.5 mm, DY = 0 mm" in shifted


def test_cli_build_options_and_errors(tmp_path, capsys, project):
    root = str(project.root)
    assert (
        main(
            [
                "--project",
                root,
                "build",
                "pernese:stripped",
                "--out",
                str(tmp_path),
                "--paper",
                "letter:landscape",
                "--layout",
                "gutterfold",
                "--copies",
                "2",
                "--no-crop-marks",
                "--greyscale",
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar when stderr is not a terminal
    assert not (tmp_path / "pernese-stripped" / "pernese-stripped-sheets.pdf").exists()  # that name is for A4 pages
    reader = PdfReader(str(tmp_path / "pernese-stripped" / "pernese-stripped-sheets-letter-landscape.pdf"))
    assert float(reader.pages[0].mediabox.width) == pytest.approx(279.4 * PT, abs=0.01)
    assert main(["--project", root, "build", "pernese", "--out", str(tmp_path / "x"), "--paper", "60x80mm"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("error: decks/pernese/pernese.toml: deck.size: a 63.5 x 88.9 mm card does not fit")
        and err.count("\n") == 1
    )
    assert not (tmp_path / "x").exists()
    assert main(["--project", root, "build", "pernese", "--offset", "a,b"]) == 2
    assert "--offset 'a,b'" in capsys.readouterr().err
    assert main(["--project", root, "export", "png", "dragons-gambit", "--dpi", "60", "--out", str(tmp_path)]) == 0
    assert len(list((tmp_path / "dragons-gambit" / "png").glob("*.png"))) == 41
    assert main(["--project", root, "calibrate", "--paper", "letter", "--flip", "short", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "calibration-letter-short.pdf").exists()


def test_progress_bar_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    quiet, loud = io.StringIO(), Tty()
    for stream in (quiet, loud):
        bar = ProgressBar("deck", stream)
        for n in range(1, 4):
            bar(n, 3)
        bar.close()
    assert quiet.getvalue() == ""
    assert "3/3" in loud.getvalue() and "#" in loud.getvalue()


GROUP_BACKS = """\
[deck]
id = "two-backs"
title = "Two Backs"
size = "mini"
backs = { boss = "aetherial-back" }

[[suits]]
id = "red"
name = "Red"

[[ranks]]
id = "1"
name = "One"
value = 1

[[cards]]
name = "Soldier"
rank = "1"
suits = ["red"]
copies = 3

[[cards]]
name = "Boss"
rank = "1"
suits = ["red"]
group = "boss"
"""


def test_per_card_backs_follow_their_fronts(tmp_path, scratch):
    from generator.definitions import load_definition
    from generator.faces.render import FaceRenderer
    from generator.render.sheetpdf import layout_job

    from .conftest import write_deck

    deck = load_definition(write_deck(scratch, GROUP_BACKS), scratch).base
    options = SheetOptions(Layout(A4))
    cards, pages = layout_job([deck], [FaceRenderer(scratch, deck)], options)
    fronts, backs = pages[0], pages[1]
    for f, b in zip(fronts.placements, backs.placements):
        assert cards[f.item].card is cards[b.item].card
    assert [cards[p.item].card.id for p in backs.placements] == ["soldier"] * 3 + ["boss"]
    reader = PdfReader(str(write_sheets(ProjectContext(scratch), deck, tmp_path / "s.pdf", options)))
    # the soldiers' back is one form drawn three times; the boss's back is a form of its own
    content = reader.pages[1].get_contents().get_data()
    forms = reader.pages[1]["/Resources"]["/XObject"]
    uses = {name: content.count(name.encode() + b" Do") for name in forms}
    assert len(forms) == 2 and sorted(uses.values()) == [1, 3]
    soldiers, boss = sorted(forms, key=lambda name: -uses[name])
    assert forms[soldiers].get_object().get_data() != forms[boss].get_object().get_data()
    files = export_tts(ProjectContext(scratch), deck, tmp_path / "tts", url_base="u")
    data = json.loads(next(f for f in files if f.suffix == ".json").read_text(encoding="utf-8"))
    custom = data["ObjectStates"][0]["CustomDeck"]["1"]
    assert custom["UniqueBack"] is True and custom["BackURL"].endswith("two-backs-backs-1.png")
    assert data["ObjectStates"][0]["DeckIDs"] == [100, 100, 100, 101]


def test_cli_combines_card_sizes_in_one_file(tmp_path, capsys, project, definitions):
    assert (
        main(
            [
                "--project",
                str(project.root),
                "build",
                "imperial:standard",
                "aetherial",
                "--combine",
                "--paper",
                "a4",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    combined = tmp_path / "combined-sheets.pdf"
    assert str(combined.name) in capsys.readouterr().out
    aetherial = definitions["aetherial"].base
    alone = []  # each deck's own sheets: the combined file holds each size's pages, as many as the deck has alone
    for key in ("imperial:standard", "aetherial"):
        folder = tmp_path / key.replace(":", "-")
        assert main(["--project", str(project.root), "build", key, "--paper", "a4", "--out", str(folder)]) == 0
        alone.append(len(PdfReader(str(next(folder.rglob("*-sheets.pdf")))).pages))
    reader = PdfReader(str(combined))
    assert len(reader.pages) == sum(alone) and alone[1] == 2 * math.ceil(
        aetherial.card_count / cards_per_page(69.85, 120.65, Layout(A4))
    )
    assert "imperial:standard" in reader.metadata.title and "aetherial" in reader.metadata.title


@pytest.mark.parametrize("flip, offset", [("long", (2.0, 1.0)), ("short", (0.0, -1.5))])
def test_printed_backs_line_up_with_their_fronts(tmp_path, project, pernese, flip, offset):
    """Render a duplex sheet, turn the fronts page over as the printer does, undo the offset:
    what is printed on the back covers exactly what is printed on the front."""
    import pypdfium2 as pdfium
    from PIL import ImageChops, ImageOps

    target = write_sheets(
        ProjectContext(project), pernese, tmp_path / "d.pdf", SheetOptions(Layout(A4, flip=flip, offset=offset))
    )
    document = pdfium.PdfDocument(str(target))
    scale = 2 * 25.4 / 72  # 2 px a mm

    def ink(n):
        image = document[n].render(scale=scale).to_pil().convert("L")
        return image.point(lambda v: 255 if v < 254 else 0)  # anything printed, pale card stock included

    front, back = ink(0), ink(1)
    turned = ImageOps.mirror(front) if flip == "long" else ImageOps.flip(front)
    back = ImageChops.offset(back, -round(offset[0] * 2), -round(offset[1] * 2))
    differ = ImageChops.difference(turned, back)
    changed = sum(differ.histogram()[128:])
    assert changed < 0.0005 * front.width * front.height, changed
    # and the comparison can see a misplaced back: 1 mm off is far more
    off = ImageChops.offset(back, 2, 0)
    assert sum(ImageChops.difference(turned, off).histogram()[128:]) > 5 * max(changed, 100)


def test_paper_presets_are_checked(scratch):
    from generator.definitions.presets import load_papers
    from generator.errors import AetherpressError

    papers = load_papers(scratch)
    assert papers["letter"] == Paper("Letter", 215.9, 279.4) and papers["a3"] == Paper("A3", 297.0, 420.0)
    scratch.own.presets.mkdir()
    (scratch.own.presets / "papers.toml").write_text(
        '[papers.quarto]\nwidth = 8\nheight = 10\nunit = "inches"\n', encoding="utf-8"
    )
    with pytest.raises(AetherpressError) as info:
        load_papers(scratch)
    assert "templates/papers.toml:4: papers.quarto.unit: unknown unit 'inches'" in str(info.value.problems[0])


def test_export_and_box_take_the_projects_decks_when_none_is_named(tmp_path, monkeypatch, capsys):
    """A one-deck project: `export png` and `box` need no deck id, as `build` does not."""
    from tests.served import new_game

    root = new_game(tmp_path, "solo")
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["export", "png"]) == 0
    assert sorted((root / "output" / "solo" / "png").glob("*.png")) and "solo: 13 files" in capsys.readouterr().out
    assert main(["box"]) == 0
    assert (root / "output" / "solo" / "solo-box.pdf").is_file()


def test_a_tts_card_is_the_previewed_card_cut_at_its_trim(tmp_path):
    """A face placed from the bleed edge (a band 10 mm up from the bottom of the full card) sits where the
    preview and the print files show it: the Tabletop Simulator card is the same drawing, cut at the trim."""
    from generator.definitions import load_all
    from generator.faces.render import FaceRenderer
    from generator.project import Project

    from .served import edit, new_game

    game = new_game(tmp_path)
    edit(
        game / "templates" / "game.svg.j2",
        "{{ parts.field(style.paper) }}",
        '{{ parts.field(style.paper) }}\n<rect x="0" y="{{ (full.h - 10)|mm }}" width="{{ full.w|mm }}" height="10" fill="#c00000"/>',
    )
    project = Project(game)
    deck = load_all(project)["game"].build(())
    bleed = FaceRenderer(project, deck).geometry.bleed
    assert bleed > 0
    files = export_tts(ProjectContext(project), deck, tmp_path / "tts", url_base="u")
    sheet = next(f for f in files if "sheet" in f.name)
    w, h = cell_size(deck.size.width, deck.size.height)
    with Image.open(sheet) as image:
        column = image.convert("RGB").crop((w // 2, 0, w // 2 + 1, h)).get_flattened_data()
    red = sum(1 for r, g, b in column if r > 150 and g < 80 and b < 80)
    assert red / h * deck.size.height == pytest.approx(10 - bleed, abs=0.4)  # the band's height above the trim


def test_a_narrower_shop_bleed_is_cut_from_the_sides_the_other_shops_print(tmp_path, project, definitions, monkeypatch):
    """MakePlayingCards' 0.12 in bleed is cut from the sides drawn with the 1/8 in bleed The Game Crafter prints (no
    side is drawn a second time for it), and its pictures are those of sides drawn with its own bleed."""
    import numpy as np

    from generator.definitions.shops import POD_BLEED
    from generator.outputs.cardfiles import _side_images

    deck = definitions["imperial"].base
    context = ProjectContext(project)
    bleeds: list[float | None] = []
    original = ProjectContext.sides

    def sides(self, deck, draft=False, bleed=None, keep=True):
        bleeds.append(bleed)
        return original(self, deck, draft, bleed, keep)

    monkeypatch.setattr(ProjectContext, "sides", sides)
    files = export_pod(context, deck, tmp_path, PodOptions(shops=("thegamecrafter", "makeplayingcards")))
    assert set(bleeds) == {POD_BLEED}
    mpc = sorted(f for f in files if f.parent.name == "makeplayingcards")
    assert len(mpc) == len({c.id for c in deck.cards}) + 1
    # against each side drawn with MPC's own bleed: the cut falls between pixels, the pictures agree but for edges
    own = dict(_side_images(context, deck, 3.048, (822, 1122), 300))
    for path in mpc[:6]:
        with Image.open(path) as image:
            cut = np.asarray(image.convert("RGB")).astype(int)
        drawn = np.asarray(own[path.stem]).astype(int)
        assert cut.shape == drawn.shape == (1122, 822, 3)
        assert (np.abs(cut - drawn).max(axis=2) > 48).mean() < 0.01, path.name


def test_a_side_is_converted_once_for_every_shop_that_prints_it(tmp_path, project, definitions, monkeypatch):
    """The Game Crafter's pages, DriveThruCards' press and the build's sheets share each side's piece: no side's SVG
    is converted as designed twice (a side with a filter is looked at coarsely first, at another resolution)."""
    from collections import Counter

    from generator.render import forms, pieces, presspiece, vector

    converted: Counter = Counter()
    original = vector.side_pdf

    def side_pdf(svg, source, place=None, fonts=None, converter=None, dpi=vector.SHEET_DPI):
        if converter is None:
            converted[(svg, dpi)] += 1
        return original(svg, source, place, fonts, converter, dpi)

    for module in (forms, pieces, presspiece):
        monkeypatch.setattr(module, "side_pdf", side_pdf)
    deck = definitions["imperial"].base
    fresh = ProjectContext(Project(ROOT, cache=tmp_path / "cache"))  # nothing kept by other tests
    export_pod(fresh, deck, tmp_path, PodOptions(shops=("drivethrucards", "thegamecrafter")))
    assert len(converted) >= len(deck.cards) and max(converted.values()) == 1, [n for n in converted.values() if n > 1]
