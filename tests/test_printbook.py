"""Books for print: creep in home booklets; the interior and cover a print shop takes (bleed, marks, spine, PDF/X)."""

from __future__ import annotations

import io
import re
import shutil

import pikepdf
import pytest
from pypdf import PdfReader
from reportlab.lib import colors
from reportlab.lib.units import mm

from generator.cli import main
from generator.imposition.booklet import booklet_order, creep_shifts
from generator.imposition.printbook import BookError, PrintSheet, slug_width, spine_width, split_pages
from generator.render.impose import impose

from .pdfcheck import assert_boxes, assert_pdfx, assert_press_colour, numbered_pdf

CREAM = colors.HexColor("#f4f0e8")
needs_gs = pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (Debian ghostscript) is not installed")


# --- creep in a home booklet -------------------------------------------------------------------


@pytest.mark.parametrize("pages, thickness", [(16, 0.1), (32, 0.25), (6, 0.3)])
def test_creep_moves_inner_sheets_towards_the_fold(pages, thickness):
    shifts = creep_shifts(pages, thickness)
    sides = booklet_order(pages)
    assert len(shifts) == len(sides)
    assert shifts[0] == shifts[1] == (0.0, 0.0)  # the outermost sheet, both sides
    for side, (left, right) in enumerate(shifts):
        sheet = side // 2
        assert left == pytest.approx(sheet * thickness) and right == pytest.approx(-sheet * thickness)
    assert shifts[-1][0] == pytest.approx((len(sides) // 2 - 1) * thickness)  # the innermost moves most


def _positions(pdf: bytes) -> list[dict[str, float]]:
    """For each side, each page label's x (points)."""
    out = []
    for side in PdfReader(io.BytesIO(pdf)).pages:
        found: dict[str, float] = {}
        side.extract_text(
            visitor_text=lambda t, cm, tm, fd, fs, found=found: (
                found.setdefault(t.strip(), cm[4] + tm[4] * cm[0]) if re.fullmatch(r"page\d+", t.strip()) else None
            )
        )
        out.append(found)
    return out


def test_imposed_pages_move_by_their_creep():
    pages, thickness = 16, 0.4
    plain = _positions(impose(numbered_pdf(pages), (210 * mm, 297 * mm)))
    crept = _positions(impose(numbered_pdf(pages), (210 * mm, 297 * mm), thickness))
    for side, ((left, right), (dl, dr)) in enumerate(zip(booklet_order(pages), creep_shifts(pages, thickness))):
        moved_left = crept[side][f"page{left + 1}"] - plain[side][f"page{left + 1}"]
        moved_right = crept[side][f"page{right + 1}"] - plain[side][f"page{right + 1}"]
        assert moved_left / mm == pytest.approx(dl, abs=0.01) and moved_right / mm == pytest.approx(dr, abs=0.01)
    assert crept[-1][f"page{pages // 2}"] - plain[-1][f"page{pages // 2}"] > 0  # the middle spread moved in


# --- the printer's book as geometry ------------------------------------------------------------------


@pytest.mark.parametrize("pages", [8, 16, 36])
def test_cover_takes_four_pages_and_the_interior_is_whole_sheets(pages):
    split = split_pages(pages, "saddle")
    assert split.outside == (pages - 1, 0)  # back cover left of the front, face up
    assert split.inside == (1, pages - 2)
    assert len(split.interior) % 4 == 0 and len(split.interior) == pages - 4
    assert split.interior[0] % 2 == 0  # the interior opens on a right-hand page, as the book was set
    assert {*split.outside, *split.inside, *split.interior} == set(range(pages))


@pytest.mark.parametrize("pages", [6, 14, 4])
def test_a_book_that_is_not_whole_sheets_is_refused(pages):
    with pytest.raises(BookError, match=f"multiple of 4 pages.*not {pages}"):
        split_pages(pages, "perfect")


def test_the_interior_is_the_pages_between_the_covers():
    from generator.render.bookpdf import Look, Press, print_book
    from generator.render.colour import ProcessColour
    from generator.render.icc import shipped_profile

    look = Look(CREAM, CREAM, CREAM, "EBGaramond-Regular", "Numbers")
    made = print_book(numbered_pdf(8), Press(3.0, ProcessColour(shipped_profile("coated"), 3.0)), look)
    interior = [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(made.interior)).pages]
    assert interior == ["page3", "page4", "page5", "page6"]
    outside, inside = (" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(made.cover)).pages)
    assert sorted(outside.split()) == ["page1", "page8"] and sorted(inside.split()) == ["page2", "page7"]
    alone = print_book(numbered_pdf(8), Press(3.0, ProcessColour(shipped_profile("coated"), 3.0), cover_inside=False), look)
    assert len(PdfReader(io.BytesIO(alone.cover)).pages) == 1  # a shop that prints no inside gets the outside alone


def test_spine_from_the_interiors_leaves_and_none_for_a_saddle_stitch():
    assert spine_width(28, "saddle", 0.1) == 0.0
    assert spine_width(28, "perfect", 0.1) == pytest.approx(1.4)  # 14 leaves
    assert spine_width(200, "perfect", 0.12) == pytest.approx(12.0)


@pytest.mark.parametrize("spine, pages", [(0.0, 1), (0.0, 2), (8.0, 2)])
def test_marks_stay_outside_the_bleed_and_on_the_sheet(spine, pages):
    sheet = PrintSheet((148.0, 210.0), 3.0, spine, pages)
    w, h = sheet.size
    assert sheet.trim_box.w == pytest.approx(pages * 148 + (spine if pages == 2 else 0))
    assert sheet.bleed_box.w == pytest.approx(sheet.trim_box.w + 6) and sheet.bleed_box.h == pytest.approx(216)
    marks = sheet.marks()
    crops = [m for m in marks if m.kind == "crop"]
    assert len(crops) == 8
    for mark in marks:
        assert not mark.touches(sheet.bleed_box)
        assert min(mark.x1, mark.x2) >= 0 and max(mark.x1, mark.x2) <= w
        assert min(mark.y1, mark.y2) >= 0 and max(mark.y1, mark.y2) <= h
    folds = sorted({m.x1 for m in marks if m.kind == "fold"})
    left, right = sheet.page_boxes()[0], sheet.page_boxes()[-1]
    assert folds == ([] if pages == 1 else sorted({left.right, right.x}))


# --- the files ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def printed(project, book_pdf):
    """The Pernese book as a perfect-bound book (paper thick enough for a titled spine) and as a saddle stitch."""
    from generator.render.bookpdf import Look, Press, print_book
    from generator.render.colour import ProcessColour
    from generator.render.icc import shipped_profile
    from generator.rulebook.style import ACCENT, TITLE_BOLD

    data = book_pdf("pernese")
    look = Look(CREAM, ACCENT, CREAM, TITLE_BOLD, "The Pernese Deck", "Zen", "en")
    process = ProcessColour(shipped_profile("coated"), 3.0)
    return {
        "book": data,
        "perfect": print_book(data, Press(3.0, process, "4", "perfect", 1.0), look),
        "saddle": print_book(data, Press(3.0, process, "4", "saddle"), look),
    }


slow = pytest.mark.slow


@slow
@pytest.mark.parametrize("binding", ["perfect", "saddle"])
def test_print_book_passes_the_card_files_pdfx_checks(printed, binding):
    made = printed[binding]
    book_pages = len(PdfReader(io.BytesIO(printed["book"])).pages)
    for part in (made.interior, made.cover):
        with pikepdf.open(io.BytesIO(part)) as pdf:
            assert_pdfx(pdf, "4")
            assert_press_colour(pdf, "4", 3.0)
    with pikepdf.open(io.BytesIO(made.interior)) as pdf:
        sizes = assert_boxes(pdf, 3.0, slug_width(3.0))
        assert len(pdf.pages) == made.interior_pages == book_pages - 4 and len(pdf.pages) % 4 == 0
        assert sizes == [pytest.approx((148.0, 210.0), abs=0.01)] * len(pdf.pages)
    with pikepdf.open(io.BytesIO(made.cover)) as pdf:
        sizes = assert_boxes(pdf, 3.0, slug_width(3.0))
        spine = made.interior_pages / 2 * 1.0 if binding == "perfect" else 0.0
        assert made.spine == pytest.approx(spine)
        assert sizes == [pytest.approx((2 * 148.0 + spine, 210.0), abs=0.01)] * 2


def _pixels(pdf: bytes, page: int, dpi: int = 50):
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    return document[page].render(scale=dpi / 72).to_pil().convert("RGB")


@slow
def test_the_outside_covers_ground_reaches_into_the_bleed_and_marks_sit_outside_it(printed):
    made = printed["perfect"]
    image = _pixels(made.cover, 0)
    margin, dpi = slug_width(3.0), 50
    spread = PrintSheet((148.0, 210.0), 3.0, made.spine, 2)

    def at(x_mm: float, y_mm: float):
        return image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))

    white = (255, 255, 255)
    bleed = spread.bleed_box
    for x, y in ((bleed.x + 1, bleed.cy), (bleed.right - 1, bleed.cy), (bleed.cx, bleed.y + 1), (bleed.cx, bleed.bottom - 1)):
        assert at(x, y) != white  # the ground, past the trim
    assert at(bleed.x - 1, bleed.cy) == white  # nothing between the bleed and the marks
    spine = spread.spine_box()
    assert spine is not None and at(spine.cx, bleed.y + 1) != at(margin + 10, bleed.cy)  # the spine's band reaches the bleed
    inside = _pixels(made.cover, 1)
    assert inside.getpixel((round((bleed.x + 1) / 25.4 * dpi), round(bleed.cy / 25.4 * dpi))) != white  # the endpaper's tint


@slow
def test_a_thin_spine_is_the_covers_ground(printed, book_pdf):
    from generator.render.bookpdf import Look, Press, print_book
    from generator.render.colour import ProcessColour
    from generator.render.icc import shipped_profile
    from generator.rulebook.style import ACCENT, TITLE_BOLD

    look = Look(CREAM, ACCENT, CREAM, TITLE_BOLD, "The Pernese Deck")
    made = print_book(book_pdf("pernese"), Press(3.0, ProcessColour(shipped_profile("coated"), 3.0), "4", "perfect"), look)
    spread = PrintSheet((148.0, 210.0), 3.0, made.spine, 2)
    assert 0 < made.spine < 5
    image = _pixels(made.cover, 0, 300)
    spine = spread.page_boxes()[0].right + made.spine / 2
    y = spread.trim_box.y + 30
    at_spine = image.getpixel((round(spine / 25.4 * 300), round(y / 25.4 * 300)))
    # the front cover's ground wraps round a thin spine: no band, nor the plain ground, shows at the fold
    assert at_spine not in ((255, 255, 255), tuple(round(c * 255) for c in CREAM.rgb()))


@slow
def test_the_back_cover_is_the_books_last_page_never_text(printed, project):
    from generator.rulebook import load_rulebooks

    made = printed["saddle"]
    reader = PdfReader(io.BytesIO(printed["book"]))
    last = " ".join(reader.pages[-1].extract_text().split())
    cover = PdfReader(io.BytesIO(made.cover)).pages[0]
    words = " ".join(cover.extract_text().split())
    book = load_rulebooks(project)["pernese"]
    blurb = " ".join(book.blurb.split())  # whole: its first words are the subtitle's, which the title page shows
    assert blurb and blurb in last and blurb in words
    interior = PdfReader(io.BytesIO(made.interior))
    assert all(blurb not in " ".join(p.extract_text().split()) for p in interior.pages)


@slow
def test_print_files_are_reproducible(printed, book_pdf):
    from generator.render.bookpdf import Look, Press, print_book
    from generator.render.colour import ProcessColour
    from generator.render.icc import shipped_profile
    from generator.rulebook.style import ACCENT, TITLE_BOLD

    look = Look(CREAM, ACCENT, CREAM, TITLE_BOLD, "The Pernese Deck", "Zen", "en")
    again = print_book(book_pdf("pernese"), Press(3.0, ProcessColour(shipped_profile("coated"), 3.0), "4", "saddle"), look)
    assert again.interior == printed["saddle"].interior and again.cover == printed["saddle"].cover


@slow
@needs_gs
def test_a_shops_book_is_its_pdfx_version_bleed_and_ink_limit(project, tmp_path):
    out = tmp_path / "out"
    assert main(["--project", str(project.root), "rulebook", "pernese", "--shop", "drivethrucards", "--out", str(out)]) == 0
    for part in ("interior", "cover"):
        with pikepdf.open(out / f"pernese-drivethrucards-{part}.pdf") as pdf:
            assert_pdfx(pdf, "1a:2003")
            assert_press_colour(pdf, "1a:2003", 2.4)
            assert_boxes(pdf, 3.175, slug_width(3.175, marks=False))  # no marks, no slug: the page is its bleed box
            assert str(pdf.Root.Lang) == "en"  # kept through Ghostscript's flattening


@pytest.mark.parametrize(
    "extra, said",
    [
        (["--shop", "thegamecrafter"], "--shop 'thegamecrafter' takes card images, not PDF; shops that print books"),
        (["--shop", "drivethrucard"], "--shop 'drivethrucard' is no shop (did you mean 'drivethrucards'?)"),
        (["--print", "--booklet"], "--booklet imposes for home printing"),
    ],
)
def test_print_options_that_cannot_be_made_are_one_line_errors(project, tmp_path, capsys, extra, said):
    code = main(["--project", str(project.root), "rulebook", "pernese", *extra, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and said in err[0] and "Traceback" not in err[0]
    assert not (tmp_path / "out").exists()
