"""Recolouring svg2pdf pages for print: process CMYK and greys, with transparency, masks and pictures kept live."""

from __future__ import annotations

import base64
import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image

from generator.render.colour import GREYS, ProcessColour, luma_picture
from generator.render.icc import shipped_profile
from generator.render.pagepng import render_pages
from generator.render.pdffunctions import evaluate
from generator.render.recolour import recolour

svg2pdf = pytest.importorskip("svg2pdf_py")
needs_gs = pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (Debian ghostscript) is not installed")

ROOT = Path(__file__).resolve().parents[1]
COATED = shipped_profile("coated")
LIMIT = 2.6  # below the 300 % GRACoL's darkest colours take, so the limit has work to do
PROCESS = ProcessColour(COATED, LIMIT)
SIZE = 200  # points, and pixels at 72 dpi


def picture_uri() -> str:
    """A 32 x 32 RGB picture with a transparent top-left corner (8 x 8), as a PNG data URI."""
    y, x = np.mgrid[0:32, 0:32]
    pixels = np.stack([x * 8, y * 8, np.full_like(x, 200), np.where((x < 8) & (y < 8), 0, 255)], axis=-1)
    buffer = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8), "RGBA").save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


# Opaque colour: what prints is the conversion of every pixel of the RGB page.  A gradient with a hard stop,
# a radial gradient, a filled and stroked shape, text, rich black, a picture with a transparent corner, a pattern.
OPAQUE = """
<defs>
  <linearGradient id="stops" x1="0" x2="1">
    <stop offset="0" stop-color="#d62828"/><stop offset="0.5" stop-color="#fcbf49"/>
    <stop offset="0.5" stop-color="#2a9d8f"/><stop offset="1" stop-color="#264653"/>
  </linearGradient>
  <radialGradient id="glow"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#6a0dad"/></radialGradient>
  <pattern id="checks" width="10" height="10" patternUnits="userSpaceOnUse">
    <rect width="5" height="5" fill="#8338ec"/><rect x="5" y="5" width="5" height="5" fill="#ff006e"/>
  </pattern>
</defs>
<rect x="0" y="0" width="200" height="40" fill="url(#stops)"/>
<rect x="0" y="40" width="100" height="100" fill="url(#glow)"/>
<rect x="110" y="50" width="80" height="40" fill="#336699" stroke="#cc3300" stroke-width="6"/>
<text x="105" y="125" font-family="Cinzel" font-size="22" fill="#123456">Aether</text>
<rect x="0" y="150" width="100" height="50" fill="#000000"/>
<image x="100" y="140" width="64" height="64" href="{picture}"/>
<rect x="170" y="140" width="30" height="60" fill="url(#checks)"/>
"""

# Transparency: gradients fading out, a group at half opacity, a multiplied shape, a luminance mask.
TRANSPARENT = """
<defs>
  <linearGradient id="fade" x1="0" x2="1">
    <stop offset="0" stop-color="#0050a0"/><stop offset="1" stop-color="#0050a0" stop-opacity="0"/>
  </linearGradient>
  <radialGradient id="halo">
    <stop offset="0" stop-color="#8338ec"/><stop offset="1" stop-color="#8338ec" stop-opacity="0"/>
  </radialGradient>
  <mask id="holed">
    <rect x="0" y="100" width="200" height="100" fill="white"/><circle cx="120" cy="150" r="30" fill="black"/>
  </mask>
</defs>
<rect x="0" y="0" width="200" height="40" fill="url(#fade)"/>
<g opacity="0.5"><rect x="0" y="50" width="100" height="40" fill="#2a9d8f"/></g>
<rect x="100" y="50" width="100" height="40" fill="#2a9d8f"/>
<rect x="140" y="60" width="40" height="40" fill="#e76f51" style="mix-blend-mode:multiply"/>
<rect x="0" y="100" width="200" height="100" fill="#e9c46a" mask="url(#holed)"/>
<circle cx="175" cy="175" r="20" fill="url(#halo)"/>
"""


def page(body: str) -> bytes:
    """The SVG body on a 200 pt square page, through svg2pdf."""
    fonts = svg2pdf.FontDatabase()
    fonts.load_fonts_dir(str(ROOT / "generator" / "fonts"))
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}">'
        + body.replace("{picture}", picture_uri())
        + "</svg>"
    )
    return svg2pdf.svg_to_pdf(svg, fonts)


@pytest.fixture(scope="module")
def opaque() -> bytes:
    return page(OPAQUE)


@pytest.fixture(scope="module")
def transparent() -> bytes:
    return page(TRANSPARENT)


def ghostscript(pdf: bytes, device: str) -> np.ndarray:
    """The page as Ghostscript renders it at 72 dpi without anti-aliasing: RGB (png16m) or CMYK ink (tiff32nc)."""
    with tempfile.TemporaryDirectory() as tmp:
        source, out = Path(tmp) / "page.pdf", Path(tmp) / "page.out"
        source.write_bytes(pdf)
        subprocess.run(
            ["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", f"-sDEVICE={device}", "-r72", f"-sOutputFile={out}", str(source)],
            capture_output=True, check=True,
        )  # fmt: skip
        with Image.open(out) as image:
            return np.asarray(image).astype(int)


def separated(rgb: np.ndarray | tuple) -> np.ndarray:
    """RGB pixels (or one colour) as the profile separates them: the soft proof's CMYK."""
    pixels = np.asarray(rgb, dtype=np.uint8).reshape(-1, 1, 3) if isinstance(rgb, tuple) else rgb.astype(np.uint8)
    out = np.asarray(COATED.separate(Image.fromarray(pixels, "RGB"), LIMIT)).astype(int)
    return out.reshape(4) if isinstance(rgb, tuple) else out


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


# what is left in RGB


def is_rgb(space) -> bool:
    if isinstance(space, pikepdf.Name):
        return str(space) in ("/DeviceRGB", "/CalRGB", "/RGB")
    if isinstance(space, pikepdf.Array) and len(space):
        if space[0] == pikepdf.Name.ICCBased:
            return int(space[1].N) == 3
        if space[0] in (pikepdf.Name.Indexed, pikepdf.Name.I, pikepdf.Name.Pattern) and len(space) > 1:
            return is_rgb(space[1])
        return space[0] == pikepdf.Name.CalRGB
    return False


def printed_rgb(pdf: pikepdf.Pdf) -> list[str]:
    """Every RGB colour space and RGB colour operator the page prints (soft-mask groups are not printed)."""
    found: list[str] = []
    seen: set = set()
    todo = [(pdf.pages[0].obj, "page")]
    while todo:
        obj, where = todo.pop()
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)) and obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
        if isinstance(obj, pikepdf.Dictionary) and "/G" in obj and obj.get("/S") in ("/Luminosity", "/Alpha"):
            continue  # a soft mask
        items = obj.items() if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)) else enumerate(obj)
        for key, value in items:
            if key in ("/ColorSpace", "/CS") and is_rgb(value):
                found.append(f"{where} {key}")
            if key == "/ColorSpace" and isinstance(value, pikepdf.Dictionary):
                found += [f"{where} resource {name}" for name, space in value.items() if is_rgb(space)]
            if key not in ("/Parent", "/SMask") and isinstance(value, (pikepdf.Dictionary, pikepdf.Array, pikepdf.Stream)):
                todo.append((value, f"{where} {key}"))
        if where == "page" or obj.get("/Subtype") == "/Form" or obj.get("/PatternType") == 1:
            for operands, operator in pikepdf.parse_content_stream(obj):
                if str(operator) in ("rg", "RG") or (str(operator) in ("cs", "CS") and str(operands[0]) == "/DeviceRGB"):
                    found.append(f"{where} {operator}")
    return found


def soft_mask_contents(pdf: pikepdf.Pdf) -> list[bytes]:
    """The content of every soft-mask group in the file (and of the forms they draw), sorted."""
    states = [x for x in pdf.objects if isinstance(x, pikepdf.Dictionary) and isinstance(x.get("/SMask"), pikepdf.Dictionary)]
    groups = [x.SMask.G for x in states]
    forms = [x for g in groups for x in g.get("/Resources", {}).get("/XObject", {}).values()]
    shadings = [x for g in groups for x in g.get("/Resources", {}).get("/Shading", {}).values()]
    colours = [(int(x.ColorSpace[1].N), [evaluate(x.Function)(t / 10) for t in range(11)]) for x in shadings]
    return sorted(x.read_bytes() for x in groups + forms) + sorted(colours)  # type: ignore[operator]


CONVERTERS = [GREYS, PROCESS, ProcessColour(COATED, LIMIT, greyscale=True)]


@pytest.mark.parametrize("converter", CONVERTERS, ids=["greys", "process", "black-ink"])
@pytest.mark.parametrize("which", ["opaque", "transparent"])
def test_nothing_printed_is_left_in_rgb_and_soft_masks_are_kept(request, which, converter):
    source = request.getfixturevalue(which)
    with pikepdf.open(io.BytesIO(source)) as before, pikepdf.open(io.BytesIO(recolour(source, converter))) as after:
        assert printed_rgb(before)  # the check finds svg2pdf's RGB
        assert printed_rgb(after) == []
        assert soft_mask_contents(after) == soft_mask_contents(before)
        assert soft_mask_contents(before) or which == "opaque"
        images = [x for x in after.objects if isinstance(x, pikepdf.Stream) and x.get("/Subtype") == "/Image"]
        alphas = {x.SMask.objgen for x in images if "/SMask" in x}
        pictures = [x for x in images if x.objgen not in alphas]
        space = "/DeviceGray" if converter is GREYS or converter.greyscale else "/DeviceCMYK"
        assert all(str(x.ColorSpace) == space for x in pictures)
        if which == "opaque":
            assert len(pictures) == 1 and len(alphas) == 1
            (alpha,) = [x for x in images if x.objgen in alphas]
            (original,) = [x for x in before.objects if isinstance(x, pikepdf.Stream) and "/SMask" in x]
            assert alpha.read_bytes() == original.SMask.read_bytes() and str(alpha.ColorSpace) == "/DeviceGray"


def test_greys_are_the_luma_of_the_rgb_page(opaque, transparent):
    for source in (opaque, transparent):
        rgb = next(render_pages(source, (SIZE, SIZE)))
        grey = next(render_pages(recolour(source, GREYS), (SIZE, SIZE)))
        want, got = np.asarray(luma_picture(rgb)).astype(int), np.asarray(grey.convert("L")).astype(int)
        if source is transparent:  # multiply is not linear: the luma of a product is not the product of lumas
            backdrop, shape = luma_picture(Image.new("RGB", (1, 1), hex_rgb("#2a9d8f"))), hex_rgb("#e76f51")
            product = backdrop.getpixel((0, 0)) * luma_picture(Image.new("RGB", (1, 1), shape)).getpixel((0, 0)) / 255
            assert abs(got[70:90, 150:170] - product).max() <= 2
            want[60:100, 140:180] = got[60:100, 140:180]
        assert abs(got - want).max() <= 2


@needs_gs
def test_process_colour_prints_the_separation_of_every_rgb_pixel(opaque):
    want = separated(ghostscript(opaque, "png16m"))
    got = ghostscript(recolour(opaque, PROCESS), "tiff32nc")
    difference = abs(got - want).max(axis=-1)
    gradients = np.zeros(difference.shape, bool)
    gradients[0:40, :] = gradients[40:140, 0:100] = True
    # Ghostscript draws a gradient in bands within 2 % of the colour, the RGB and the CMYK one alike
    assert difference[gradients].max() <= 6
    assert difference[~gradients].max() <= 1  # flat colours, text, rich black, the picture, the pattern
    assert got.sum(axis=-1).max() <= LIMIT * 255 + 1e-9
    assert got[150:190, 0:100].sum(axis=-1).min() >= LIMIT * 255 - 4  # black takes all the ink it may
    assert (got[140:156, 100:116] == 0).all()  # the picture's transparent corner is paper
    assert got[170, 130].sum() > 0


def test_gradients_are_sampled_so_every_point_is_the_converted_colour(opaque):
    """A gradient between two converted colours is not the converted gradient: it is sampled at each 8-bit step."""
    with pikepdf.open(io.BytesIO(opaque)) as before, pikepdf.open(io.BytesIO(recolour(opaque, PROCESS))) as after:
        pairs = list(zip(shadings(before), shadings(after)))
        assert len(pairs) == 2
        for (_, rgb), (_, cmyk) in pairs:
            assert str(cmyk.ColorSpace) == "/DeviceCMYK"
            designed, printed = evaluate(rgb.Function), evaluate(cmyk.Function)
            ts = np.linspace(0, 1, 1001)
            colours = np.array([[round(v * 255) for v in designed(t)] for t in ts], np.uint8).reshape(-1, 1, 3)
            want = separated(colours).reshape(-1, 4)
            got = np.array([[v * 255 for v in printed(t)] for t in ts])
            # within one 8-bit step of the design: where the next step's ink differs, it is between the two
            assert abs(got - want).max() <= 3
            ends = [tuple(float(v) for v in designed(t)) for t in (0.0, 1.0)]
            straight = [np.array(c) * 255 for c in PROCESS.components(ends)]  # the end colours converted, joined
            assert max(abs(straight[0] + t * (straight[1] - straight[0]) - w).max() for t, w in zip(ts, want)) > 6
        hard = evaluate(pairs[0][1][1].Function)
        assert max(abs(a - b) for a, b in zip(hard(0.4999), hard(0.5001))) > 0.2  # the hard stop stays hard


def shadings(pdf: pikepdf.Pdf) -> list:
    """The shadings with functions in the file (as their coordinates say, in order)."""
    found = [x for x in pdf.objects if isinstance(x, pikepdf.Dictionary) and "/ShadingType" in x]
    kept = [x for x in found if is_rgb(x.ColorSpace) or str(x.ColorSpace) == "/DeviceCMYK"]
    return sorted(((tuple(float(v) for v in x.Coords), x) for x in kept), key=lambda pair: pair[0])


@needs_gs
def test_transparency_is_composited_in_ink(transparent):
    got = ghostscript(recolour(transparent, PROCESS), "tiff32nc") / 255
    ink = {c: separated(hex_rgb(c)) / 255 for c in ("#0050a0", "#2a9d8f", "#e76f51", "#e9c46a", "#8338ec")}
    fade = np.array([(1 - (x + 0.5) / SIZE) * ink["#0050a0"] for x in range(SIZE)])
    assert abs(got[20] - fade).max() <= 6 / 255  # a colour fading out prints less of the same inks
    assert abs(got[55:85, 5:95] - ink["#2a9d8f"] / 2).max() <= 1 / 255  # half opacity: half the ink
    backdrop, shape = ink["#2a9d8f"], ink["#e76f51"]
    assert abs(got[65:85, 145:175] - (backdrop + shape - backdrop * shape)).max() <= 2 / 255  # multiply: inks add
    assert abs(got[92:98, 145:175] - shape).max() <= 1 / 255
    assert abs(got[110:190, 5:80] - ink["#e9c46a"]).max() <= 1 / 255  # the mask shows the shape
    assert (got[135:165, 105:135] == 0).all()  # and its hole is paper
    for x in range(157, 194):  # a halo fading out over the masked shape: its inks, then less, then the shape's
        alpha = max(0.0, 1 - float(np.hypot(x + 0.5 - 175, 174.5 - 175)) / 20)
        assert abs(got[174, x] - (alpha * ink["#8338ec"] + (1 - alpha) * ink["#e9c46a"])).max() <= 6 / 255
    outside = np.ones(got.shape[:2], bool)
    outside[60:90, 140:180] = False  # where live multiply overlaps, inks add up as a press would print them
    assert got[outside].sum(axis=-1).max() <= LIMIT + 1e-9


def test_greyscale_process_prints_black_ink_only(opaque, transparent):
    black = ProcessColour(COATED, LIMIT, greyscale=True)
    for source in (opaque, transparent):
        with pikepdf.open(io.BytesIO(recolour(source, black))) as pdf:
            streams = [x for x in pdf.objects if isinstance(x, pikepdf.Stream) and x.get("/Subtype") == "/Form"]
            for container in [pdf.pages[0], *streams]:
                for operands, operator in pikepdf.parse_content_stream(container):
                    if str(operator) in ("k", "K"):
                        assert [float(v) for v in operands[:3]] == [0, 0, 0]
    with pikepdf.open(io.BytesIO(recolour(opaque, black))) as pdf:
        ops = [(list(o), str(op)) for o, op in pikepdf.parse_content_stream(pdf.pages[0]) if str(op) == "k"]
        grey = round(luma_picture(Image.new("RGB", (1, 1), hex_rgb("#336699"))).getpixel((0, 0)))  # type: ignore[arg-type]
        assert [0, 0, 0, round(COATED.black_for_grey[grey] / 255, 4)] in [[float(v) for v in o] for o, _ in ops]


def test_ink_in_the_file_is_within_the_limit(opaque, transparent):
    """Every CMYK colour the file sets, picture pixel and gradient sample: at most the ink limit."""
    for source in (opaque, transparent):
        with pikepdf.open(io.BytesIO(recolour(source, PROCESS))) as pdf:
            totals = []
            forms = [x for x in pdf.objects if isinstance(x, pikepdf.Stream) and "/BBox" in x]
            for container in [pdf.pages[0], *forms]:
                ops = pikepdf.parse_content_stream(container)
                totals += [sum(float(v) for v in o) for o, op in ops if str(op) in ("k", "K")]
            samples = [
                x for x in pdf.objects
                if isinstance(x, pikepdf.Stream) and (x.get("/FunctionType") == 0 or x.get("/ColorSpace") == "/DeviceCMYK")
            ]  # fmt: skip
            assert samples and totals
            for x in samples:
                totals += list(np.frombuffer(x.read_bytes(), np.uint8).reshape(-1, 4).sum(axis=-1) / 255)
            assert max(totals) <= LIMIT + 1e-9


def test_the_same_page_gives_the_same_bytes_whatever_order_svg2pdf_wrote(opaque):
    runs = [page(OPAQUE + TRANSPARENT) for _ in range(6)]
    for converter in CONVERTERS:
        assert len({recolour(run, converter) for run in runs}) == 1
    assert recolour(opaque, PROCESS) == recolour(opaque, PROCESS)


def test_objects_shared_by_a_soft_mask_and_the_print_are_converted_for_the_print_only(transparent):
    """A form drawn in print and also named by a soft mask: the print's copy is converted, the mask's is kept."""
    with pikepdf.open(io.BytesIO(transparent)) as pdf:
        page_forms = pdf.pages[0].Resources.XObject
        printed = next(x for x in page_forms.values() if b"scn" in x.read_bytes())
        mask = drawn_mask(pdf)
        mask.Resources.XObject = pikepdf.Dictionary({"/shared": printed})
        mask.Resources.ColorSpace = printed.Resources.ColorSpace  # a shared dictionary too
        original = printed.read_bytes()
        buffer = io.BytesIO()
        pdf.save(buffer)
    with pikepdf.open(io.BytesIO(recolour(buffer.getvalue(), PROCESS))) as pdf:
        assert printed_rgb(pdf) == []
        mask = drawn_mask(pdf)
        kept = mask.Resources.XObject["/shared"]
        assert kept.read_bytes() == original and is_rgb(kept.Group.CS)
        assert all(is_rgb(space) for space in mask.Resources.ColorSpace.values())
        converted = [x for x in pdf.pages[0].Resources.XObject.values() if x.objgen != kept.objgen]
        assert any(b" k" in x.read_bytes() for x in converted)


def drawn_mask(pdf: pikepdf.Pdf) -> pikepdf.Stream:
    """The group of the soft mask that draws shapes in colour (the luminance mask)."""
    states = [x for x in pdf.objects if isinstance(x, pikepdf.Dictionary) and isinstance(x.get("/SMask"), pikepdf.Dictionary)]
    return next(x.SMask.G for x in states if "/ColorSpace" in x.SMask.G.Resources)


class Counting:
    """A converter (greys) that counts the colours it is asked to convert."""

    space = GREYS.space

    def __init__(self) -> None:
        self.asked: list[tuple[float, float, float]] = []

    def components(self, colours):
        self.asked += colours
        return GREYS.components(colours)

    def picture(self, image):
        return GREYS.picture(image)


def test_each_distinct_colour_is_converted_once():
    counting = Counting()
    repeated = "".join(f'<rect x="{10 * i}" y="0" width="5" height="5" fill="#336699"/>' for i in range(20))
    recolour(page(repeated + OPAQUE), counting)  # type: ignore[arg-type]
    assert len(counting.asked) == len(set(counting.asked))
    assert (0.2, 0.4, 0.6) in counting.asked


def hand_made() -> bytes:
    """A page with what svg2pdf does not write but PDFs may hold: rg/g/k operators, DeviceRGB, an inline picture,
    a palette picture with a colour key, a form without resources, an uncoloured pattern, a sampled gradient
    function and a Type 3 font whose glyph sets its colour."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(SIZE, SIZE))
    palette = pikepdf.String(bytes([255, 0, 0, 0, 160, 0, 0, 0, 255, 255, 255, 255]))
    image = pdf.make_stream(
        bytes([0, 1, 2, 3]),
        Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2, Height=2, BitsPerComponent=8,
        ColorSpace=pikepdf.Array([pikepdf.Name.Indexed, pikepdf.Name.DeviceRGB, 3, palette]), Mask=pikepdf.Array([3, 3]),
    )  # fmt: skip
    form = pdf.make_stream(b"0.9 0.5 0.1 rg 60 0 40 40 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form)
    form.BBox = pikepdf.Array([0, 0, SIZE, SIZE])
    tiles = pdf.make_stream(b"0 0 5 5 re f", PatternType=1, PaintType=2, TilingType=1, XStep=10, YStep=10)
    tiles.BBox, tiles.Resources = pikepdf.Array([0, 0, 10, 10]), pikepdf.Dictionary()
    ramp = pdf.make_stream(bytes([255, 0, 0, 0, 0, 255]), FunctionType=0, BitsPerSample=8)
    ramp.update({"/Domain": pikepdf.Array([0, 1]), "/Range": pikepdf.Array([0, 1] * 3), "/Size": pikepdf.Array([2])})
    shading = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Function=ramp)
    shading.Coords, shading.Extend = pikepdf.Array([0, 0, SIZE, 0]), pikepdf.Array([True, True])
    glyph = pdf.make_stream(b"1000 0 d0 0.8 0.1 0.1 rg 0 0 1000 1000 re f")
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FirstChar=97, LastChar=97)
    font.update({"/FontBBox": pikepdf.Array([0, 0, 1000, 1000]), "/FontMatrix": pikepdf.Array([0.001, 0, 0, 0.001, 0, 0])})
    font.update({"/CharProcs": pikepdf.Dictionary(a=glyph), "/Widths": pikepdf.Array([1000])})
    font.Encoding = pikepdf.Dictionary(Differences=pikepdf.Array([97, pikepdf.Name.a]))
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(
        XObject=pikepdf.Dictionary(Im1=image, Fm1=form), Pattern=pikepdf.Dictionary(P1=tiles),
        Shading=pikepdf.Dictionary(Sh1=shading), Font=pikepdf.Dictionary(T3=font),
        ColorSpace=pikepdf.Dictionary(CSp=pikepdf.Array([pikepdf.Name.Pattern, pikepdf.Name.DeviceRGB])),
    )  # fmt: skip
    colours = [20, 40, 200] * 4 + [200, 40, 20] * 4 + [20, 200, 40] * 4 + [250, 250, 250] * 4
    inline = b"BI /W 4 /H 4 /CS /RGB /BPC 8 ID " + bytes(colours) + b" EI"  # pikepdf reads none under 3 x 3
    page.Contents = pdf.make_stream(
        b"1 1 0 rg 0 0 50 50 re f q 50 0 0 50 0 0 cm /Im1 Do Q /Fm1 Do "
        b"/CSp cs 0.2 0.6 0.3 /P1 scn 110 0 40 40 re f BT /T3 20 Tf 160 10 Td (a) Tj ET "
        b"q 0 50 200 30 re W n /Sh1 sh Q q 40 0 0 40 0 90 cm " + inline + b" Q "
        b"0.5 g 60 90 40 40 re f 0 0 1 RG 4 w 112 92 36 36 re S 0.1 0.2 0.3 0.4 k 160 90 40 40 re f "
        b"/DeviceRGB cs 0.3 0.3 0.9 sc 0 150 50 50 re f"
    )
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


@needs_gs
def test_what_other_pdfs_hold_is_converted_too():
    source = hand_made()
    with pikepdf.open(io.BytesIO(source)) as before:
        assert printed_rgb(before)
    for converter in CONVERTERS:
        with pikepdf.open(io.BytesIO(recolour(source, converter))) as after:
            assert printed_rgb(after) == []
    want = separated(ghostscript(source, "png16m"))
    got = ghostscript(recolour(source, PROCESS), "tiff32nc")
    assert (got[70:110, 160:200] == [25, 51, 76, 102]).all()  # CMYK set with k stays as it is
    difference = abs(got - want).max(axis=-1)
    difference[70:110, 160:200] = 0
    assert difference[120:150, :].max() <= 6  # the gradient, banded by Ghostscript
    difference[120:150, :] = 0
    assert difference.max() <= 2  # 0.1 is 25.5 in 8 bits: Ghostscript's RGB rounds it one way, the converter the other
    assert (got[175:200, 25:50] == separated((255, 255, 0))).all()  # the colour key shows what is behind


def test_components_are_the_colours_drawings_get():
    from reportlab.lib import colors

    rng = np.random.default_rng(7)
    rgbs = [tuple(float(v) for v in rng.integers(0, 256, 3) / 255) for _ in range(50)]
    for converter in CONVERTERS[1:]:
        batch = converter.components(rgbs)  # separated together, as one picture
        for rgb, got in zip(rgbs, batch):
            drawn = converter(colors.Color(*rgb))
            assert got == (drawn.cyan, drawn.magenta, drawn.yellow, drawn.black)
    assert GREYS.components(rgbs) == [(GREYS(colors.Color(*rgb)).red,) for rgb in rgbs]
