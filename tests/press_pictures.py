"""The README's picture of one card three ways: the preview (Chromium), the DriveThruCards file as it prints, and
what differs.

    python tests/press_pictures.py [OUT_FOLDER] [--readme]

Makes the designer's deck of :mod:`tests.pressdeck` (a soft-edged PNG, a drop
shadow, a screen blend and Inkscape art on one card), exports it to
DriveThruCards at its default (PDF/X-1a:2003), renders the shop's file as its
inks (Ghostscript) and seen on the paper through its profile, and puts it
beside the browser's picture of the same side soft-proofed the same way, with
the differing pixels marked.  ``--readme`` also writes
``tests/fixtures/screenshots/press-triple.png``.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.cli import main as aetherpress
from generator.definitions import load_all
from generator.faces.render import FaceRenderer
from generator.outputs.shopproof import differing
from generator.project import Project
from generator.render.icc import shipped_profile
from generator.render.inks import ink_pages
from tests.fidelity import Browser, font_css
from tests.pressdeck import press_project

ART = ("inkscape.svg", "soft.png", "figma.svg", "deep.png")
DPI = 150


def triple(folder: Path) -> Path:
    with contextlib.redirect_stdout(io.StringIO()):
        root = press_project(folder, art=ART, cards=12)
    project = Project(root)
    out = folder / "out"
    assert aetherpress(["--project", str(root), "export", "pod", "lanterns", "--shop", "drivethrucards", "--out", str(out)]) == 0
    deck = load_all(project)["lanterns"].build(())
    faces = FaceRenderer(project, deck, bleed=3.175)
    size = (round(faces.geometry.width / 25.4 * DPI), round(faces.geometry.height / 25.4 * DPI))
    browser = Browser()
    try:
        (seen,) = browser.draw([faces.face(deck.cards[0])], size, font_css(project))
    finally:
        browser.close()
    (pdf,) = (out / "lanterns" / "pod").glob("*.pdf")
    profile = shipped_profile("coated")
    printed = profile.view(ink_pages(pdf.read_bytes(), [2], size)[0])
    preview = Image.fromarray(seen.astype(np.uint8))
    mask = differing(profile.view(profile.separate(preview, 2.4)), printed)
    faded = (np.asarray(printed, dtype=np.float32) * 0.35 + 255 * 0.65).astype(np.uint8)
    faded[mask] = (230, 0, 126)
    gap = 16
    sheet = Image.new("RGB", (3 * size[0] + 4 * gap, size[1] + 2 * gap), (236, 234, 229))
    for n, picture in enumerate((preview, printed, Image.fromarray(faded))):
        sheet.paste(picture, (gap + n * (size[0] + gap), gap))
    target = folder / "press-triple.png"
    sheet.save(target)
    print(f"{target}: {mask.mean() * 100:.2f} % of the pixels differ")
    return target


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv and not argv[0].startswith("--") else Path(tempfile.mkdtemp(prefix="aetherpress-press-"))
    out.mkdir(parents=True, exist_ok=True)
    made = triple(out)
    if "--readme" in argv:
        shown = Path(__file__).parent / "fixtures" / "screenshots" / "press-triple.png"
        Image.open(made).save(shown, optimize=True)
        print(shown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
