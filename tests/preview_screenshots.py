"""Screenshots of the preview, to look at: the gallery, a card with its guides, a hand; and the README's picture.

A new project (``aetherpress new my-game``) is served and photographed in
headless chromium.  The README's picture (``--readme``) is the card page,
reduced to 256 colours so it stays small.

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
README_PICTURE = ROOT / "tests" / "fixtures" / "screenshots" / "preview.png"


def shoot(out: Path, readme: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        with contextlib.redirect_stdout(io.StringIO()):
            project = new_game(Path(tmp), "my-game")
        server = Server(project)
        server.settled()
        driver = chrome("--window-size=1280,900", "--force-device-scale-factor=1", "--hide-scrollbars")
        try:
            for name, path in PAGES.items():
                driver.get(server.url + path.lstrip("/"))
                time.sleep(1.5)
                if name == "raster":
                    driver.find_element("css selector", "#view button[data-value=png]").click()
                    time.sleep(1.5)
                driver.save_screenshot(str(out / f"{name}.png"))
                print(out / f"{name}.png")
            problems = driver.get_log("browser")
            if problems:
                print("browser console:", problems)
        finally:
            driver.quit()
            server.kill()
    if readme:
        picture = Image.open(out / "card.png").convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
        README_PICTURE.parent.mkdir(parents=True, exist_ok=True)
        picture.save(README_PICTURE, optimize=True)
        print(README_PICTURE, f"{README_PICTURE.stat().st_size // 1024} KB")


if __name__ == "__main__":
    shoot(Path(sys.argv[1]), "--readme" in sys.argv[2:])
