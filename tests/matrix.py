"""The fidelity matrix: every entry of the allow-list drawn on a card, the browser's picture against every print path.

The allow-list (``generator/resources/allowlist.toml``) gives each element,
attribute, CSS property, picture format and picture mode a specimen, or names
the entry whose specimen shows it too.  :func:`matrix_project` makes a project
(``aetherpress new``) whose deck has one card per specimen and one per picture
mode (the picture made as the programs save it, :mod:`tests.artcorpus`), so an
entry added to the allow-list joins the matrix with no other edit.

:class:`Matrix` then makes every output a designer sends anywhere, through the
command line as a designer does (sheets on A4, on Letter and with shared
bleed; ``export png``; Tabletop Simulator; each print shop, DriveThruCards at
its default PDF/X-1a:2003 and at ``--pdfx 4`` and ``--pdfx 1a``; the print
rulebook's card pictures), cuts each card out of each, and compares it with
the browser's picture of the same side (CMYK files soft-proofed through their
profile, the browser's picture passed through the same profile).
"""

from __future__ import annotations

import contextlib
import io
import re
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pikepdf
from PIL import Image, ImageCms

from generator.cli import main
from generator.definitions import load_all
from generator.faces.render import FaceRenderer
from generator.project import Project
from generator.render.icc import shipped_profile
from generator.render.inks import ink_pages
from generator.resources.allowlist import allow_list
from tests.artcorpus import EXIF_TURNS, VECTOR_ART, palette_soft, png_rgba16, scene, shadowed_token, soft_disc
from tests.fidelity import DPI, differing, font_css, pdf_pictures, size_px
from tests.served import edit, new_game

NAME = "matrix"
PATHS = (
    "png",
    "tts",
    "thegamecrafter",
    "makeplayingcards",
    "sheets-a4",
    "sheets-letter",
    "sheets-shared-bleed",
    "drivethrucards",
    "drivethrucards-pdfx4",
    "drivethrucards-pdfx1a",
    "rulebook-print",
)
CMYK_PATHS = ("drivethrucards", "drivethrucards-pdfx4", "drivethrucards-pdfx1a", "rulebook-print")
_PICTURE = re.compile(r"\{picture:([\w-]+)\}")


def picture_file(mode: str, spec: dict) -> tuple[str, bytes]:
    """A picture of the kind ``spec`` describes (format, mode, bits, alpha, orientation, profile, editor), as the
    programs save it: (file name, bytes)."""
    fmt = spec["format"]
    if fmt == "svg":
        return f"{mode}.svg", VECTOR_ART[f"{spec['editor']}.svg"].encode("utf-8")
    pixel_mode, alpha, bits = spec.get("mode", "RGB"), spec.get("alpha", "none"), spec.get("bits", 8)
    out = io.BytesIO()
    name = f"{mode}.{ {'jpeg': 'jpg'}.get(fmt, fmt) }"
    if fmt == "png" and bits == 16 and pixel_mode in ("RGBA", "RGB"):
        source = shadowed_token() if pixel_mode == "RGBA" else scene()
        return name, png_rgba16(source) if pixel_mode == "RGBA" else _png_rgb16(source)
    if pixel_mode == "P":
        image = palette_soft(soft_disc()) if alpha == "palette" else scene().quantize(16)
        image.save(out, "PNG", **({"transparency": 0} if alpha == "key" else {}))
        return name, out.getvalue()
    if pixel_mode == "I;16":
        ramp = (np.linspace(0, 65535, 360)[None, :] * np.ones((240, 1))).astype(np.uint16)
        Image.fromarray(ramp).save(out, "PNG")
        return name, out.getvalue()
    image = soft_disc() if alpha == "soft" else scene()
    image = image.convert(pixel_mode) if image.mode != pixel_mode else image
    options: dict = {}
    if "orientation" in spec:
        image = image.transpose(EXIF_TURNS[spec["orientation"]])
        exif = Image.Exif()
        exif[0x0112] = spec["orientation"]
        options["exif"] = exif.tobytes()
    if spec.get("profile"):
        if pixel_mode == "CMYK":
            profile = shipped_profile("coated")
            to_cmyk = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile._profile, "RGB", "CMYK")
            image = ImageCms.applyTransform(scene(), to_cmyk) or image
            options["icc_profile"] = profile.data
        else:
            options["icc_profile"] = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    image.save(out, {"jpeg": "JPEG", "png": "PNG", "webp": "WEBP", "avif": "AVIF"}[fmt], quality=90, **options)
    return name, out.getvalue()


def _png_rgb16(image: Image.Image) -> bytes:
    values = np.asarray(image.convert("RGB")).astype(np.uint16) * 257
    h, w, _ = values.shape
    rows = b"".join(b"\x00" + values[y].astype(">u2").tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def specimens() -> dict[str, str]:
    """Every specimen of the allow-list by card name (``element rect``, ``picture rgba16`` ...): SVG text with
    ``{picture:MODE}`` where a picture of that mode is drawn."""
    listed = allow_list()
    found = {e.key.replace(".", " "): e.specimen for e in listed.entries if e.specimen}
    for mode in listed.modes:
        found[f"picture {mode}"] = (
            '<rect x="6" y="8" width="58" height="80" fill="#d9d2c3"/>'
            f'<image x="8" y="10" width="54" height="76" href="{{picture:{mode}}}"/>'
        )
    return found


def _template(found: dict[str, str]) -> str:
    parts = [
        '{% import "_parts.svg.j2" as parts with context %}',
        "{{ parts.open() }}",
        '<rect x="0" y="0" width="{{ full.w|mm }}" height="{{ full.h|mm }}" fill="#f4efe6"/>',
    ]
    for n, (name, specimen) in enumerate(found.items()):
        parts.append(("{% if" if n == 0 else "{% elif") + f' card.name == "{name}" %}}')
        last = 0
        for hit in _PICTURE.finditer(specimen):
            parts.append("{% raw %}" + specimen[last : hit.start()] + "{% endraw %}")
            parts.append(f'{{{{ image("{hit.group(1)}") }}}}')
            last = hit.end()
        parts.append("{% raw %}" + specimen[last:] + "{% endraw %}")
    # every card's outermost millimetre alike, over whatever a specimen draws there: the sheets lay cards out by the
    # colour at their edges, and here they stay in the card list's order (the cut compares inside the trim)
    ring = (
        '<path fill="#f4efe6" fill-rule="evenodd" d="M0 0H{{ full.w|mm }}V{{ full.h|mm }}H0Z'
        ' M1.2 1.2V{{ (full.h - 1.2)|mm }}H{{ (full.w - 1.2)|mm }}V1.2Z"/>'
    )
    parts += ["{% endif %}", ring, "</svg>"]
    return "\n".join(parts) + "\n"


def matrix_project(folder: Path) -> Path:
    """A project made by ``aetherpress new`` whose deck draws every specimen, one a card, and whose rulebook shows
    every card."""
    with contextlib.redirect_stdout(io.StringIO()):
        root = new_game(folder, NAME)
    deck_folder = root / "decks" / NAME
    listed = allow_list()
    names = {}
    for mode, spec in listed.modes.items():
        file, data = picture_file(mode, spec)
        (deck_folder / file).write_bytes(data)
        names[mode] = file
    found = specimens()
    text = _template(found)
    for mode, file in names.items():
        text = text.replace(f'image("{mode}")', f'image("{file}")')
    (root / "templates" / f"{NAME}.svg.j2").write_text(text, encoding="utf-8")
    rows = ["name,rank,suits,text"] + [f"{name},1,suns," for name in found]
    (deck_folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    edit(deck_folder / f"{NAME}.toml", 'text = "text"', 'text = "text"\nart = "image"')
    book = "# Every card\n\n" + "\n\n".join(f"![{name}](card:{NAME}/{_id(name)}?w=44)" for name in found) + "\n"
    (deck_folder / f"{NAME}.md").write_text(book, encoding="utf-8")
    rulebook = (deck_folder / f"{NAME}.rulebook.toml").read_text(encoding="utf-8")
    rulebook = re.sub(r"(?m)^cover = .*$", "", rulebook)
    rulebook = re.sub(r"(?m)^games = .*$", "games = []", rulebook)
    (deck_folder / f"{NAME}.game.toml").unlink()  # a deck of every specimen is no game
    (deck_folder / f"{NAME}.rulebook.toml").write_text(rulebook, encoding="utf-8")
    return root


def _id(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@dataclass(frozen=True)
class Cut:
    """Where a card lies in a picture of a page: its trim's pixel box (x0, y0, x1, y1) and its quarter turns."""

    box: tuple[int, int, int, int]
    turns: int


def _placements(pdf: pikepdf.Pdf, page: pikepdf.Page, prefix: str) -> list[tuple[str, tuple[float, ...], tuple]]:
    """(form name, the form's box in page points (x0, y0, x1, y1), its matrix) of every form named ``prefix...``,
    in the order they are drawn, through forms placed within forms."""
    found: list = []

    def walk(holder, ctm: tuple[float, ...], depth: int) -> None:
        stack = [ctm]
        resources = holder.get("/Resources") or pikepdf.Dictionary()
        for operands, operator in pikepdf.parse_content_stream(holder):
            op = str(operator)
            if op == "q":
                stack.append(stack[-1])
            elif op == "Q" and len(stack) > 1:
                stack.pop()
            elif op == "cm":
                stack[-1] = _times([float(v) for v in operands], stack[-1])
            elif op == "Do":
                name = str(operands[0])
                form = (resources.get("/XObject") or {}).get(name)
                if form is None or form.get("/Subtype") != "/Form":
                    continue
                m = stack[-1]
                if "/Matrix" in form:
                    m = _times([float(v) for v in form.Matrix], m)
                if name.lstrip("/").startswith(prefix):
                    x0, y0, x1, y1 = (float(v) for v in form.BBox)
                    points = [_apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
                    xs, ys = [p[0] for p in points], [p[1] for p in points]
                    found.append((name, (min(xs), min(ys), max(xs), max(ys)), m))
                elif depth < 4:
                    walk(form, m, depth + 1)

    walk(page.obj, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0)
    return found


def _times(m: list[float], n: tuple[float, ...]) -> tuple[float, ...]:
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _apply(m: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _turns(m: tuple[float, ...]) -> int:
    """Quarter turns (counter-clockwise, as the page shows) of a placement matrix."""
    a, b = m[0], m[1]
    if abs(b) < 1e-6:
        return 0 if a > 0 else 2
    return 1 if b > 0 else 3


class Matrix:
    """Every print path's picture of every card of the matrix project, and the browser's."""

    def __init__(self, browser, root: Path, out: Path):
        self.browser = browser
        self.root = root
        self.out = out
        self.project = Project(root)
        self.definitions = load_all(self.project)
        self.deck = self.definitions[NAME].build(())
        self.names = [card.name for card in self.deck.cards]
        self._seen: dict[tuple[float, float], dict[str, np.ndarray]] = {}

    def run(self, *args: str) -> None:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            code = main(["--project", str(self.root), *args])
        assert code == 0, (args, err.getvalue())

    def seen(self, bleed: float, cut: float = 0.0) -> dict[str, np.ndarray]:
        """The browser's picture of every face drawn with ``bleed``, at the comparison's resolution; with ``cut``
        (mm), seen through a window that much smaller on every side (a narrower bleed cut from a wider one)."""
        if (bleed, cut) not in self._seen:
            faces = FaceRenderer(self.project, self.deck, bleed=bleed)
            w, h = faces.geometry.width, faces.geometry.height
            svgs = [faces.face(card) for card in self.deck.cards]
            if cut:
                window = f'viewBox="{cut:g} {cut:g} {w - 2 * cut:g} {h - 2 * cut:g}"'
                svgs = [re.sub(r'viewBox="[^"]*"', window, svg, count=1) for svg in svgs]
            size = size_px((w - 2 * cut, h - 2 * cut))
            pictures = self.browser.draw(svgs, size, font_css(self.project))
            self._seen[(bleed, cut)] = dict(zip(self.names, pictures, strict=True))
        return self._seen[(bleed, cut)]

    def trim(self, picture: np.ndarray, bleed: float, inset: float = 0.0) -> np.ndarray:
        """``picture`` of a side with ``bleed`` cut to its trim (``inset`` mm further in)."""
        px = round((bleed + inset) / 25.4 * DPI)
        return picture[px : picture.shape[0] - px, px : picture.shape[1] - px]

    # the paths

    def png(self) -> dict[str, np.ndarray]:
        folder = self.out / "png"
        self.run("export", "png", NAME, "--out", str(folder))
        return self._files(folder / NAME / "png", 3.175)

    def shop_pngs(self, shop: str, bleed: float) -> dict[str, np.ndarray]:
        folder = self.out / shop
        self.run("export", "pod", NAME, "--shop", shop, "--out", str(folder))
        return self._files(folder / NAME / "pod" / shop, bleed)

    def _files(self, folder: Path, bleed: float) -> dict[str, np.ndarray]:
        g = FaceRenderer(self.project, self.deck, bleed=bleed).geometry
        size = size_px((g.width, g.height))
        found = {}
        for card in self.deck.cards:
            with Image.open(folder / f"{card.id}.png") as image:
                found[card.name] = np.asarray(image.convert("RGB").resize(size, Image.Resampling.BOX), dtype=np.int16)
        return found

    def tts(self) -> dict[str, np.ndarray]:
        from generator.outputs.tts import sheet_grids

        folder = self.out / "tts"
        self.run("export", "tts", NAME, "--out", str(folder))
        g = FaceRenderer(self.project, self.deck).geometry
        size = size_px((g.trim_w, g.trim_h))
        found, start = {}, 0
        for number, (grid, n) in enumerate(sheet_grids(len(self.names), g.trim_w, g.trim_h), start=1):
            with Image.open(folder / NAME / "tts" / f"{NAME}-sheet-{number}.png") as sheet:
                for i in range(n):
                    x, y = (i % grid.cols) * grid.cell_w, (i // grid.cols) * grid.cell_h
                    cell = sheet.convert("RGB").crop((x, y, x + grid.cell_w, y + grid.cell_h)).resize(size, Image.Resampling.BOX)
                    found[self.names[start + i]] = np.asarray(cell, dtype=np.int16)
            start += n
        return found

    def sheets(self, name: str, *options: str, paper: str = "a4") -> dict[str, np.ndarray]:
        """Each card cut at its trim out of the sheets (fronts only: ``--layout grid``)."""
        folder = self.out / name
        self.run("build", NAME, "--layout", "grid", "--paper", paper, *options, "--out", str(folder))
        (pdf_path,) = (folder / NAME).glob(f"{NAME}-sheets*.pdf")
        return self._cut(pdf_path.read_bytes(), "FormXob.card", lambda n, name: self.names[n])

    def _cut(self, pdf: bytes, prefix: str, which: Callable[[int, str], str | None], cmyk: bool = False) -> dict[str, np.ndarray]:
        g = FaceRenderer(self.project, self.deck).geometry
        side_size = size_px((g.width, g.height))
        found: dict[str, np.ndarray] = {}
        n = 0
        with pikepdf.open(io.BytesIO(pdf)) as document:
            sizes = [
                (float(p.mediabox[2]) - float(p.mediabox[0]), float(p.mediabox[3]) - float(p.mediabox[1])) for p in document.pages
            ]
            placed = [_placements(document, page, prefix) for page in document.pages]
        scale = 3 * DPI / 72  # pages drawn finer than the comparison, so a card's place on them is kept to a third of a pixel
        for page_number, (items, (w, h)) in enumerate(zip(placed, sizes, strict=True), start=1):
            if not items:
                continue
            px = (round(w * scale), round(h * scale))
            if cmyk:
                picture = self.profile_view(ink_pages(pdf, [page_number], px)[0])
            else:
                picture = pdf_pictures(pdf, px)[page_number - 1]
            for name, (x0, y0, x1, y1), m in items:
                card = which(n, name)
                n += 1
                if card is None or card in found:  # a card shown again (a book's gallery of every card, small)
                    continue
                box = (x0 * scale, (h - y1) * scale, x1 * scale, (h - y0) * scale)  # the form's box: the side with its bleed
                side = Image.fromarray(picture.astype(np.uint8)).resize(
                    (round(box[2] - box[0]), round(box[3] - box[1])), Image.Resampling.BOX, box=box
                )
                side = side.rotate(-90 * _turns(m), expand=True) if _turns(m) else side
                found[card] = np.asarray(side.resize(side_size, Image.Resampling.BOX), dtype=np.int16)
        return found

    def profile_view(self, inks: Image.Image) -> np.ndarray:
        return np.asarray(shipped_profile("coated").view(inks), dtype=np.int16)

    def drivethrucards(self, name: str, *options: str) -> dict[str, np.ndarray]:
        folder = self.out / name
        self.run("export", "pod", NAME, "--shop", "drivethrucards", *options, "--out", str(folder))
        (pdf,) = (folder / NAME / "pod").glob("*.pdf")
        data = pdf.read_bytes()
        g = FaceRenderer(self.project, self.deck, bleed=3.175).geometry
        size = size_px((g.width, g.height))
        pages = ink_pages(data, [2 * n + 2 for n in range(len(self.names))], size)  # back, front, back, front ...
        return {name: self.profile_view(inks) for name, inks in zip(self.names, pages, strict=True)}

    def rulebook(self) -> dict[str, np.ndarray]:
        folder = self.out / "book"
        self.run("rulebook", "--shop", "drivethrucards", "--out", str(folder))
        (interior,) = folder.glob("*interior*.pdf")
        ids = {_id(name): name for name in self.names}
        return self._cut(
            interior.read_bytes(), "FormXob.card-", lambda n, form: ids.get(form.split(f"{NAME}-", 1)[-1]), cmyk=True
        )

    def path(self, name: str) -> dict[str, np.ndarray]:
        makers: dict[str, Callable[[], dict[str, np.ndarray]]] = {
            "png": self.png,
            "tts": self.tts,
            "thegamecrafter": lambda: self.shop_pngs("thegamecrafter", 3.175),
            "makeplayingcards": lambda: self.shop_pngs("makeplayingcards", 3.048),
            "sheets-a4": lambda: self.sheets("sheets-a4"),
            "sheets-letter": lambda: self.sheets("sheets-letter", paper="letter"),
            "sheets-shared-bleed": lambda: self.sheets("sheets-shared", "--shared-bleed"),
            "drivethrucards": lambda: self.drivethrucards("dtc"),
            "drivethrucards-pdfx4": lambda: self.drivethrucards("dtc-4", "--pdfx", "4"),
            "drivethrucards-pdfx1a": lambda: self.drivethrucards("dtc-1a", "--pdfx", "1a"),
            "rulebook-print": self.rulebook,
        }
        return makers[name]()

    def compare(self, path: str, keep: Path | None = None) -> dict[str, float]:
        """The share of differing pixels of each card on ``path``: the whole side with its bleed where the path
        keeps it (PNGs, print-shop files), the trim where it cuts there (sheets, Tabletop Simulator, the book)."""
        printed = self.path(path)
        style = FaceRenderer(self.project, self.deck).geometry.bleed
        bleed = {"thegamecrafter": 3.175, "makeplayingcards": 3.048, "png": 3.175}.get(
            path, 3.175 if path.startswith("drive") else style
        )
        # MakePlayingCards prints the 1/8" sides cut to its 0.12" bleed: the browser's picture of those sides, cut alike
        cut = 3.175 - bleed if path == "makeplayingcards" else 0.0
        profile = shipped_profile("coated")
        found = {}
        for name in self.names:
            if name not in printed:
                found[name] = 1.0
                continue
            picture, reference = printed[name], self.seen(bleed + cut, cut)[name]
            if path == "tts":
                reference = self.trim(reference, bleed)
            elif path.startswith("sheets") or path == "rulebook-print":
                reference, picture = self.trim(reference, bleed), self.trim(picture, bleed)
            if path in CMYK_PATHS:
                reference = np.asarray(
                    profile.view(profile.separate(Image.fromarray(reference.astype(np.uint8)), 2.4)), dtype=np.int16
                )
            inset = 1.6 if path == "rulebook-print" else 0.3  # the book's rounded corners and border; a cut's edge
            a, b = self._inset(reference, inset), self._inset(picture, inset)
            found[name] = differing(a, b)
            if keep is not None and found[name] > 0.005:
                from tests.fidelity import side_by_side

                side_by_side([a, b], keep / f"{path}--{_id(name)}.png")
        return found

    @staticmethod
    def _inset(picture: np.ndarray, mm: float) -> np.ndarray:
        px = max(1, round(mm / 25.4 * DPI))
        return picture[px:-px, px:-px]
