"""Pictures of the books' cover spreads and a tuck box, before and after, side by side: for the README, and to look at.

Each built-in book is made for a print shop as a perfect-bound book (so its
spine shows) and the outside spread of its cover file (back, spine, front) is
drawn at 40 dpi; so is the Aetherial deck's tuck box sheet.  ``--before DIR``
takes the same pictures from a folder of files made by an earlier version
(``BOOK-print-cover.pdf``, ``aetherial-box.pdf``) and sets each beside its new
one; without it, the new pictures alone.

Run:  python tests/cover_pictures.py OUT_DIR [--before DIR] [--readme]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pypdfium2  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from generator.cli import main  # noqa: E402

BOOKS = ("founders-flip", "lith", "fivefold-arrangement", "pernese")
README_FOLDER = ROOT / "tests" / "fixtures" / "covers"
DPI = 40


def spread(pdf: Path) -> Image.Image:
    """The first page (the outside spread) of a cover file."""
    page = pypdfium2.PdfDocument(str(pdf))[0]
    return page.render(scale=DPI / 72).to_pil().convert("RGB")


def side_by_side(left: Image.Image, right: Image.Image, labels: tuple[str, str]) -> Image.Image:
    gap, head = 16, 22
    out = Image.new("RGB", (left.width + right.width + gap, max(left.height, right.height) + head), (70, 70, 70))
    draw = ImageDraw.Draw(out)
    for x, image, label in ((0, left, labels[0]), (left.width + gap, right, labels[1])):
        out.paste(image, (x, head))
        draw.text((x + 4, 5), label, fill=(255, 255, 255))
    return out


def make(out: Path, before: Path | None, readme: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for book in BOOKS:
            with contextlib.redirect_stdout(io.StringIO()):
                code = main(["rulebook", book, "--print", "--binding", "perfect", "--paper-thickness", "0.25", "--out", tmp])
            assert code == 0, book
            after = spread(Path(tmp) / f"{book}-print-cover.pdf")
            picture = after
            if before is not None:
                picture = side_by_side(spread(before / f"{book}-print-cover.pdf"), after, ("before", "after"))
            path = out / f"{book}-cover.png"
            picture.save(path)
            print(path)
            if readme:
                _readme(picture, book)
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["box", "aetherial", "--out", tmp]) == 0
        picture = spread(Path(tmp) / "aetherial" / "aetherial-box.pdf")
        if before is not None and (before / "aetherial-box.pdf").is_file():
            picture = side_by_side(spread(before / "aetherial-box.pdf"), picture, ("before", "after"))
        picture.save(out / "aetherial-box.png")
        print(out / "aetherial-box.png")
        if readme:
            _readme(picture, "aetherial-box")


def _readme(picture: Image.Image, name: str) -> None:
    README_FOLDER.mkdir(parents=True, exist_ok=True)
    picture.quantize(128, method=Image.Quantize.FASTOCTREE).save(README_FOLDER / f"{name}.png", optimize=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--readme", action="store_true")
    args = parser.parse_args()
    make(args.out, args.before, args.readme)
