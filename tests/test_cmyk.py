"""DriveThruCards files: every colour in process CMYK, total ink at most 240 %."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader
from reportlab.lib import colors

from generator.outputs.export import export_pod
from generator.render.colour import INK_LIMIT, cmyk

NUMBER = rb"(-?[\d.]+)"
FILL_CMYK = re.compile(rb"%s\s+%s\s+%s\s+%s\s+[kK]\b" % (NUMBER, NUMBER, NUMBER, NUMBER))
RGB_OPS = re.compile(rb"(?<![A-Za-z])[\d.]+\s+[\d.]+\s+[\d.]+\s+(rg|RG)\b")


def streams(reader: PdfReader):
    """Every content stream: pages and the forms they draw, once each."""
    seen = set()

    def walk(container):
        resources = container.get("/Resources")
        resources = resources.get_object() if resources is not None else {}
        xobjects = resources.get("/XObject")
        for ref in xobjects.get_object().values() if xobjects is not None else []:
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Form" and id(obj) not in seen:
                seen.add(id(obj))
                yield obj.get_data(), resources
                yield from walk(obj)

    for page in reader.pages:
        yield page.get_contents().get_data(), page["/Resources"]
        yield from walk(page)


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_conversion_respects_the_ink_limit(r, g, b):
    c = cmyk(colors.Color(r, g, b))
    assert isinstance(c, colors.CMYKColor)
    assert all(0 <= v <= 1 for v in (c.cyan, c.magenta, c.yellow, c.black))
    assert c.cyan + c.magenta + c.yellow + c.black <= INK_LIMIT + 1e-3
    assert c.black == round(1 - max(r, g, b), 4)  # the darkness is carried by black


def test_conversion_of_known_colours():
    white, black, red = cmyk(colors.white), cmyk(colors.black), cmyk(colors.Color(1, 0, 0))
    assert (white.cyan, white.magenta, white.yellow, white.black) == (0, 0, 0, 0)
    assert (black.cyan, black.magenta, black.yellow, black.black) == (0, 0, 0, 1)
    assert (red.cyan, red.magenta, red.yellow, red.black) == (0, 1, 1, 0)
    dark_red = cmyk(colors.Color(0.5, 0, 0))  # 0 / 100 / 100 / 50 would be 250 % ink
    assert round(dark_red.cyan + dark_red.magenta + dark_red.yellow + dark_red.black, 3) == INK_LIMIT


def test_drivethrucards_pdf_is_cmyk_within_the_ink_limit(tmp_path, project, definitions):
    deck = definitions["imperial"].build(["standard"])  # gradients, transparency and solid colours
    pdf = next(p for p in export_pod(project, deck, tmp_path) if p.suffix == ".pdf")
    reader = PdfReader(str(pdf))
    assert "CMYK" in reader.metadata.get("/Keywords", "")
    fills = 0
    for data, resources in streams(reader):
        assert not RGB_OPS.search(data)
        for values in FILL_CMYK.findall(data):
            fills += 1
            assert sum(float(v) for v in values) <= INK_LIMIT + 1e-3
        shadings = resources.get("/Shading")
        for ref in shadings.get_object().values() if shadings is not None else []:
            assert ref.get_object()["/ColorSpace"] == "/DeviceCMYK"
    assert fills > 100
    # The Game Crafter refuses CMYK: its PNGs stay RGB
    from PIL import Image

    png = next((tmp_path / "thegamecrafter").glob("*.png"))
    with Image.open(png) as image:
        assert image.mode == "RGB"
