"""Cards as the preview's browser draws them beside the same cards from the print files, pixel by pixel.

Chromium draws each side's SVG with the preview's own fonts (its ``@font-face``
rules, the font files inlined), every side in a shadow root of its own so ids
never clash, many sides to one screenshot.  A print path's picture of the same
side is compared after a small blur, so anti-aliasing at an edge does not count:
what counts is a pixel whose colour differs by more than :data:`TOLERANCE` in a
channel.  Used by ``tests/test_fidelity.py`` and ``tests/bench/bench_fidelity.py``.
"""

from __future__ import annotations

import base64
import io
import math
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

from generator.faces.render import FaceRenderer
from generator.pipeline.context import ProjectContext
from generator.preview.pagefonts import page_fonts
from generator.project import Project
from generator.render.cardpdf import card_pdf_bytes, shop_pdf_bytes, shop_pdfx
from generator.render.colour import ProcessColour
from generator.render.icc import STOCKS, shipped_profile
from generator.render.pagepng import render_pages
from generator.render.presspiece import FLATTEN_DPI, Press
from generator.units import pixels

DPI = 100  # the comparison's resolution
TOLERANCE = 40  # of 255, in any channel, after the blur: pdfium draws a hairline at least a pixel wide, Chromium fainter
BLUR = 1.5  # px: anti-aliasing of glyphs and hairlines is not a difference
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
HEADLESS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"]
FLAGS = ["--force-device-scale-factor=1", "--hide-scrollbars", "--force-color-profile=srgb", "--window-size=2100,2100"]
GAP = 8  # px between sides on the browser's page
VIEW = 2000  # px: the sides of one screenshot fit a square this wide


def size_px(size_mm: tuple[float, float], dpi: float = DPI) -> tuple[int, int]:
    return pixels(size_mm[0], dpi), pixels(size_mm[1], dpi)


def font_css(project: Project) -> str:
    """The preview's ``@font-face`` rules with each font file inlined (the page has no server behind it)."""
    fonts = page_fonts(project)
    css = fonts.css.decode("utf-8")
    for name, path in fonts.files.items():
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        css = css.replace(f'url("/fonts/{name}")', f'url("data:font/ttf;base64,{data}")')
    return css


def chrome(*flags: str):
    """A headless Chromium driven by Selenium, with ``flags`` besides the headless ones; closed by ``quit()``."""
    from selenium import webdriver  # only the browser tests load Selenium
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for flag in (*HEADLESS, *flags):
        options.add_argument(flag)
    options.binary_location = CHROMIUM or "chromium"
    driver = webdriver.Chrome(options=options, service=Service(DRIVER or "chromedriver"))
    driver.set_page_load_timeout(30)
    return driver


class Browser:
    """A headless Chromium that draws card SVGs as the preview does."""

    def __init__(self) -> None:
        self.driver = chrome(*FLAGS)
        self.driver.set_page_load_timeout(60)
        self._folder = tempfile.TemporaryDirectory(prefix="aetherpress-fidelity-")
        self.page = Path(self._folder.name) / "sides.html"
        self.driver.set_script_timeout(60)

    def close(self) -> None:
        self.driver.quit()
        self._folder.cleanup()

    def draw(self, svgs: Sequence[str], size: tuple[int, int], css: str) -> list[np.ndarray]:
        """Each SVG drawn ``size`` pixels large (its viewBox fitted), as RGB arrays."""
        w, h = size
        cols = max(1, (VIEW + GAP) // (w + GAP))
        rows = max(1, (VIEW + GAP) // (h + GAP))
        out: list[np.ndarray] = []
        for start in range(0, len(svgs), cols * rows):
            batch = list(svgs[start : start + cols * rows])
            out += self._screen(batch, cols, size, css)
        return out

    def _screen(self, svgs: list[str], cols: int, size: tuple[int, int], css: str) -> list[np.ndarray]:
        w, h = size
        rows = math.ceil(len(svgs) / cols)
        page = (
            "<!doctype html><html><head><meta charset='utf-8'><style>"
            + css
            + "html,body{margin:0;background:#fff}div.side{position:absolute}</style></head><body></body></html>"
        )
        self.page.write_text(page, encoding="utf-8")  # a file: the fonts are larger than a data: address may be
        self.driver.get(self.page.as_uri())
        self.driver.set_window_size(max(800, cols * (w + GAP) + 100), max(600, rows * (h + GAP) + 200))
        script = """
            const [svgs, cols, w, h, gap, done] = arguments;
            svgs.forEach((text, n) => {
              const host = document.createElement("div");
              host.className = "side";
              host.style.left = ((n % cols) * (w + gap)) + "px";
              host.style.top = (Math.floor(n / cols) * (h + gap)) + "px";
              host.style.width = w + "px";
              host.style.height = h + "px";
              document.body.append(host);
              const root = host.attachShadow({mode: "open"});
              root.innerHTML = text;
              const svg = root.querySelector("svg");
              svg.setAttribute("width", w);
              svg.setAttribute("height", h);
              svg.style.display = "block";
            });
            document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
        """
        self.driver.execute_async_script(script, svgs, cols, w, h, GAP)
        shot = Image.open(io.BytesIO(self.driver.get_screenshot_as_png())).convert("RGB")
        found = []
        for n in range(len(svgs)):
            x, y = (n % cols) * (w + GAP), (n // cols) * (h + GAP)
            found.append(np.asarray(shot.crop((x, y, x + w, y + h)), dtype=np.int16))
        return found


def pdf_pictures(pdf: bytes, size: tuple[int, int]) -> list[np.ndarray]:
    """Each page of a print file as an RGB array of ``size`` pixels (pdfium)."""
    return [np.asarray(image, dtype=np.int16) for image in render_pages(pdf, size)]


def separations(pdf: bytes, size: tuple[int, int], pages: int) -> list[Image.Image]:
    """Each page of a CMYK print file as its inks (Ghostscript's ``tiff32nc``), ``size`` pixels."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "print.pdf"
        source.write_bytes(pdf)
        found = []
        for page in range(1, pages + 1):
            out = Path(tmp) / f"{page}.tif"
            subprocess.run(
                ["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{DPI}", f"-dFirstPage={page}",
                 f"-dLastPage={page}", "-dGraphicsAlphaBits=4", "-dTextAlphaBits=4", f"-sOutputFile={out}", str(source)],
                capture_output=True, check=True,
            )  # fmt: skip
            with Image.open(out) as image:
                found.append(image.convert("CMYK").resize(size, Image.Resampling.BILINEAR))
        return found


def soft_proof(profile, inks: Image.Image) -> np.ndarray:
    """What the inks look like on the paper of ``profile``, as an sRGB array."""
    return np.asarray(profile.view(inks), dtype=np.int16)


def differing(a: np.ndarray, b: np.ndarray) -> float:
    """The share (0-1) of pixels whose colour differs by more than :data:`TOLERANCE` after a :data:`BLUR` px blur."""
    if a.shape != b.shape:
        return 1.0

    def soft(x: np.ndarray) -> np.ndarray:
        return np.asarray(Image.fromarray(x.astype(np.uint8)).filter(ImageFilter.GaussianBlur(BLUR)), dtype=np.int16)

    return float((np.abs(soft(a) - soft(b)).max(axis=2) > TOLERANCE).mean())


def side_by_side(pictures: Sequence[np.ndarray], target: Path) -> Path:
    """The pictures of one side in a row (browser first), for a person to look at."""
    h = max(p.shape[0] for p in pictures)
    row = Image.new("RGB", (sum(p.shape[1] + GAP for p in pictures), h), (255, 0, 0))
    x = 0
    for p in pictures:
        row.paste(Image.fromarray(p.astype(np.uint8)), (x, 0))
        x += p.shape[1] + GAP
    row.save(target)
    return target


def browser_available() -> bool:
    return bool(CHROMIUM and DRIVER) or os.environ.get("AETHERPRESS_BROWSER_TESTS") == "required"


def sides_of(deck) -> list[tuple]:
    """Every face, and each distinct back once, as (card, "front"|"back")."""
    sides = [(card, "front") for card in deck.cards]
    backs: dict[str, object] = {}
    for card in deck.cards:
        backs.setdefault(deck.back_for(card), card)
    return sides + [(card, "back") for card in backs.values()]


def compare(browser, project: Project, deck, keep: Path | None = None) -> dict[str, float]:
    """The share of differing pixels of each side of ``deck``: the browser against the card files."""
    faces = FaceRenderer(project, deck)
    sides = sides_of(deck)
    svgs = [faces.face(card) if side == "front" else faces.back(card) for card, side in sides]
    size = size_px((faces.geometry.width, faces.geometry.height))
    seen = browser.draw(svgs, size, font_css(project))
    printed = pdf_pictures(card_pdf_bytes(ProjectContext(project), deck, faces.geometry.bleed, sides), size)
    found = {}
    for (card, side), a, b in zip(sides, seen, printed, strict=True):
        label = f"{deck.key} {card.id} {side}"
        found[label] = differing(a, b)
        if keep is not None:
            side_by_side([a, b], keep / f"{deck.key}-{card.id}-{side}.png".replace(":", "_"))
    return found


def compare_cmyk(
    browser, project: Project, deck, stock: str, keep: Path | None = None, pdfx: str | None = None
) -> dict[str, float]:
    """Each face of ``deck`` in a print shop's CMYK file (as PDF/X ``pdfx``, ``"4"`` or ``"1a"``, when given)
    against the browser's picture separated the same way."""
    faces = FaceRenderer(project, deck)
    size = size_px((faces.geometry.width, faces.geometry.height))
    profile = shipped_profile(stock)
    process = ProcessColour(profile, STOCKS[stock].ink_limit)
    seen = browser.draw([faces.face(card) for card in deck.cards], size, font_css(project))
    press = Press(process, FLATTEN_DPI)
    if pdfx is not None:
        pdf = shop_pdfx(ProjectContext(project), deck, faces.geometry.bleed, press, pdfx)
    else:
        pdf = shop_pdf_bytes(ProjectContext(project), deck, faces.geometry.bleed, press)
    inks = separations(pdf, size, 2 * len(deck.cards))[1::2]  # pages go back, front, back, front ...
    found = {}
    for card, browser_picture, printed in zip(deck.cards, seen, inks, strict=True):
        proof = soft_proof(profile, profile.separate(Image.fromarray(browser_picture.astype("uint8")), process.ink_limit))
        label = f"{deck.key} {card.id} CMYK {stock}"
        found[label] = differing(proof, soft_proof(profile, printed))
        if keep is not None:
            side_by_side([proof, soft_proof(profile, printed)], keep / f"{deck.key}-{card.id}-cmyk.png")
    return found
