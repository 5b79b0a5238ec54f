"""Screenshots of the preview, to look at: the gallery, a card with its guides, a hand, the playtest table and a
deck's statistics; and the README's pictures.

A new project (``aetherpress new my-game``) is served and photographed in
headless chromium; the table and the statistics are those of Founder's Flip
(the Imperial and Aetherial decks served from the same project), dealt from a
fixed seed with a spell cast and the two Edicts laid in the shared row.  The
README's pictures (``--readme``) are the card page and the table, reduced to
256 colours so they stay small.

Run:  python tests/preview_screenshots.py OUT_DIR [--readme]
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from tests.fidelity import chrome  # noqa: E402
from tests.served import Server, new_game  # noqa: E402

PAGES = {
    "gallery": "/",
    "card": "/card/my-game/new-moon",
    "hand": "/hand/my-game?cards=dawn,crescent,bloom,zenith,full-moon",
    "raster": "/card/my-game/new-moon",
}
FLIP_PAGES = {
    "table": "/table/imperial-standard?seed=7&seats=4",
    "stats": "/deck/imperial-standard",
}
# on the table: the Edicts of Wani cast, and two cards turned into the shared row for them
CAST_THE_EDICTS = """
const cast = document.getElementById('cast');
cast.value = [...cast.options].find((o) => o.textContent.startsWith('The Edicts')).value;
cast.dispatchEvent(new Event('change'));
document.getElementById('turn').click();
document.getElementById('turn').click();
"""
SCREENSHOTS = ROOT / "tests" / "fixtures" / "screenshots"
README_PICTURES = {"card": SCREENSHOTS / "preview.png", "table": SCREENSHOTS / "table.png"}


def _photograph(server: Server, pages: dict[str, str], out: Path, size: str) -> None:
    driver = chrome(f"--window-size={size}", "--force-device-scale-factor=1", "--hide-scrollbars")
    try:
        for name, path in pages.items():
            driver.get(server.url + path.lstrip("/"))
            time.sleep(1.5)
            if name == "raster":
                driver.find_element("css selector", "#view button[data-value=png]").click()
                time.sleep(1.5)
            if name == "table":
                driver.execute_script(CAST_THE_EDICTS)
                time.sleep(2.5)
            driver.save_screenshot(str(out / f"{name}.png"))
            print(out / f"{name}.png")
        problems = driver.get_log("browser")
        if problems:
            print("browser console:", problems)
    finally:
        driver.quit()


def shoot(out: Path, readme: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        with contextlib.redirect_stdout(io.StringIO()):
            project = new_game(Path(tmp), "my-game")
        for decks, pages, size in (([], PAGES, "1280,900"), (["imperial:standard", "aetherial"], FLIP_PAGES, "1280,1000")):
            server = Server(project, *decks)
            try:
                server.settled()
                _photograph(server, pages, out, size)
            finally:
                server.kill()
    if readme:
        for name, path in README_PICTURES.items():
            picture = Image.open(out / f"{name}.png").convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
            path.parent.mkdir(parents=True, exist_ok=True)
            picture.save(path, optimize=True)
            print(path, f"{path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    shoot(Path(sys.argv[1]), "--readme" in sys.argv[2:])
