"""Card pictures are decoded once, by Pillow, into 8-bit sRGB: what the preview shows is what prints.

Each picture is made here with Pillow (or written byte by byte where Pillow
cannot write it) in one of the forms browsers and print renderers read their
own ways, and the pixels a card is given are checked: upright, in sRGB
through the picture's own ICC profile, transparency kept, CMYK not inverted.
"""

from __future__ import annotations

import base64
import io
import re
import struct
import zlib
from pathlib import Path

import pytest
from coloraide import Color
from PIL import Image, ImageCms

from generator.faces import bitmaps
from generator.faces.bitmaps import PictureError, picture_uri
from generator.render.icc import shipped_profile

LARGE_BOX = (1000.0, 1000.0)  # mm: no picture here is scaled down


def carried(tmp_path: Path, data: bytes, kind: str, box: tuple[float, float] = LARGE_BOX) -> tuple[Image.Image, str, bytes]:
    """(the picture a card carries, its kind, its bytes) for a picture file holding ``data``."""
    path = tmp_path / f"picture.{'jpg' if kind == 'jpeg' else 'png'}"
    path.write_bytes(data)
    found = re.fullmatch(r"data:image/(png|jpeg);base64,([A-Za-z0-9+/=]+)", picture_uri(path, data, kind, box))
    assert found is not None
    encoded = base64.b64decode(found.group(2))
    image = Image.open(io.BytesIO(encoded))
    image.load()
    return image, found.group(1), encoded


def saved(image: Image.Image, fmt: str = "PNG", **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def close(got, expected, tolerance: int = 3) -> bool:
    return len(got) == len(expected) and all(abs(a - b) <= tolerance for a, b in zip(got, expected))


# --- a wide-gamut RGB profile: Adobe RGB (1998), its colorants adapted to D50 as ICC profiles hold them ---


def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _xyz(values: tuple[float, float, float]) -> bytes:
    return b"XYZ \0\0\0\0" + b"".join(_s15(v) for v in values)


def adobe_rgb_profile() -> bytes:
    """A matrix/TRC ICC v2 display profile of Adobe RGB (1998), written field by field."""
    text = b"Adobe RGB (1998) compatible, for tests\0"
    desc = b"desc\0\0\0\0" + struct.pack(">I", len(text)) + text + b"\0" * 8 + b"\0" * 3 + b"\0" * 67
    curve = b"curv\0\0\0\0" + struct.pack(">IH", 1, 563) + b"\0\0"  # gamma 563/256 = 2.19921875
    d50 = (0.9642, 1.0, 0.8249)
    tags = [
        (b"desc", desc),
        (b"wtpt", _xyz(d50)),
        (b"rXYZ", _xyz((0.6097, 0.3111, 0.0195))),
        (b"gXYZ", _xyz((0.2053, 0.6257, 0.0609))),
        (b"bXYZ", _xyz((0.1492, 0.0632, 0.7446))),
        (b"rTRC", curve),
        (b"gTRC", curve),
        (b"bTRC", curve),
        (b"cprt", b"text\0\0\0\0CC0\0"),
    ]
    start = 128 + 4 + 12 * len(tags)
    table, body = b"", b""
    for signature, data in tags:
        data += b"\0" * (-len(data) % 4)
        table += signature + struct.pack(">II", start + len(body), len(data))
        body += data
    header = (
        struct.pack(">II", start + len(body), 0)
        + struct.pack(">I", 0x02100000)
        + b"mntrRGB XYZ "
        + b"\0" * 12
        + b"acsp"
        + b"\0" * 28
        + b"".join(_s15(v) for v in d50)
        + b"\0" * 48
    )
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + body


def adobe_rgb_as_srgb(rgb: tuple[int, int, int]) -> tuple[int, ...]:
    """An Adobe RGB colour in sRGB, worked out by coloraide (not by littleCMS)."""
    return tuple(round(v * 255) for v in Color("a98-rgb", [c / 255 for c in rgb]).convert("srgb").coords())


WIDE = (128, 64, 32)  # in Adobe RGB; sRGB (146, 62, 24): within both gamuts, far from its own numbers


def test_a_transparent_png_keeps_its_alpha_and_is_read_through_its_profile(tmp_path):
    """Transparent pixels stored as black stay transparent (and never darken the edge when scaled down);
    the opaque ones are converted from the picture's own profile."""
    picture = Image.new("RGBA", (400, 200), (0, 0, 0, 0))
    picture.paste((*WIDE, 255), (200, 0, 400, 200))
    data = saved(picture, icc_profile=adobe_rgb_profile())
    expected = adobe_rgb_as_srgb(WIDE)
    assert expected == pytest.approx((146, 62, 24), abs=2)
    shown, kind, _ = carried(tmp_path, data, "png")
    assert kind == "png" and shown.mode == "RGBA" and shown.size == (400, 200)
    assert shown.getpixel((10, 100))[3] == 0 and shown.getpixel((199, 100))[3] == 0
    assert shown.getpixel((200, 100))[3] == 255 and close(shown.getpixel((300, 100))[:3], expected)
    # scaled down to a tenth: the edge's colour is its opaque pixels' colour, not mixed with the black
    small, _, _ = carried(tmp_path, data, "png", box=(40 * 25.4 / 600, 20 * 25.4 / 600))
    assert small.size == (40, 20)
    for x in range(40):
        red, green, blue, alpha = small.getpixel((x, 10))
        if x < 16 or x > 23:  # away from the edge (Lanczos rings a little at it)
            assert alpha == (0 if x < 16 else 255), x
        if alpha >= 64:
            assert close((red, green, blue), expected, 5), x


def test_an_rgb_jpeg_with_a_wide_gamut_profile_is_converted_to_srgb(tmp_path):
    picture = Image.new("RGB", (64, 64), WIDE)
    shown, kind, data = carried(tmp_path, saved(picture, "JPEG", quality=100, icc_profile=adobe_rgb_profile()), "jpeg")
    assert kind == "jpeg" and shown.mode == "RGB"
    assert close(shown.getpixel((32, 32)), adobe_rgb_as_srgb(WIDE))
    assert "icc_profile" not in shown.info and b"ICC_PROFILE" not in data  # the pixels are sRGB: nothing to say so


def test_a_palette_png_with_transparent_entries(tmp_path):
    picture = Image.new("P", (60, 20), 0)
    picture.putpalette([0, 0, 0, 255, 0, 0, 0, 0, 255])
    picture.paste(1, (20, 0, 40, 20))
    picture.paste(2, (40, 0, 60, 20))
    shown, kind, _ = carried(tmp_path, saved(picture, transparency=0), "png")
    assert kind == "png" and shown.mode == "RGBA"
    assert shown.getpixel((10, 10))[3] == 0
    assert shown.getpixel((30, 10)) == (255, 0, 0, 255) and shown.getpixel((50, 10)) == (0, 0, 255, 255)
    # a tRNS of several entries: each entry its own alpha
    shown, _, _ = carried(tmp_path, saved(picture, transparency=b"\x00\x80"), "png")
    assert shown.getpixel((10, 10))[3] == 0 and shown.getpixel((30, 10)) == (255, 0, 0, 128)
    assert shown.getpixel((50, 10)) == (0, 0, 255, 255)


def test_a_grey_png_with_alpha(tmp_path):
    picture = Image.new("LA", (40, 20), (90, 0))
    picture.paste((200, 255), (20, 0, 40, 20))
    shown, kind, _ = carried(tmp_path, saved(picture), "png")
    assert kind == "png" and shown.mode == "RGBA"
    assert shown.getpixel((10, 10))[3] == 0 and shown.getpixel((30, 10)) == (200, 200, 200, 255)


def test_a_16_bit_grey_png_is_scaled_to_8_bits_not_clipped(tmp_path):
    import numpy as np

    levels = np.array([[0, 257 * 17, 32896, 65535, 1000]], dtype=np.uint16).repeat(4, axis=0)
    picture = Image.fromarray(levels)
    assert picture.mode == "I;16"
    shown, kind, _ = carried(tmp_path, saved(picture), "png")
    assert kind == "png" and shown.mode == "RGB"
    assert [shown.getpixel((x, 0)) for x in range(5)] == [(v, v, v) for v in (0, 17, 128, 255, 4)]
    # a 16-bit tRNS key: that level alone is transparent
    shown, _, _ = carried(tmp_path, saved(picture, transparency=32896), "png")
    assert shown.mode == "RGBA" and [shown.getpixel((x, 0))[3] for x in range(5)] == [255, 255, 0, 255, 255]


def _png(width: int, height: int, depth: int, colour_type: int, rows: bytes, *chunks: tuple[bytes, bytes]) -> bytes:
    """A PNG written chunk by chunk (for forms Pillow does not write)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    middle = b"".join(chunk(kind, data) for kind, data in chunks)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + middle + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def test_one_and_two_bit_greys(tmp_path):
    picture = Image.new("1", (16, 8), 0)
    picture.paste(1, (8, 0, 16, 8))
    shown, _, _ = carried(tmp_path, saved(picture), "png")
    assert shown.mode == "RGB" and shown.getpixel((2, 2)) == (0, 0, 0) and shown.getpixel((12, 2)) == (255, 255, 255)
    # two bits a pixel, levels 3, 2, 1, 0, with level 2 transparent (Pillow reads its pixels as 255, 170, 85, 0)
    data = _png(4, 2, 2, 0, b"\x00\xe4" * 2, (b"tRNS", struct.pack(">H", 2)))
    shown, _, _ = carried(tmp_path, data, "png")
    assert [shown.getpixel((x, 0)) for x in range(4)] == [
        (255, 255, 255, 255),
        (170, 170, 170, 0),
        (85, 85, 85, 255),
        (0, 0, 0, 255),
    ]


CMYK_SWATCHES = [(0, 0, 0, 0), (255, 0, 0, 0), (0, 255, 255, 0), (0, 0, 0, 255), (60, 40, 0, 20)]


def _cmyk_swatches() -> Image.Image:
    picture = Image.new("CMYK", (32 * len(CMYK_SWATCHES), 32))
    for i, ink in enumerate(CMYK_SWATCHES):
        picture.paste(ink, (32 * i, 0, 32 * i + 32, 32))
    return picture


def _as_printed(stock: str, ink: tuple[int, ...]) -> tuple[int, ...]:
    return shipped_profile(stock).view(Image.new("CMYK", (1, 1), ink)).getpixel((0, 0))


def _swatches(shown: Image.Image) -> list[tuple[int, ...]]:
    return [shown.getpixel((32 * i + 16, 16)) for i in range(len(CMYK_SWATCHES))]


def test_a_cmyk_jpeg_from_photoshop_is_not_inverted(tmp_path):
    """Pillow writes CMYK JPEGs as Photoshop does: an Adobe APP14 marker and inverted inks (255 = no ink),
    and reads them back upright; without a profile of its own the picture is read as coated-paper CMYK."""
    data = saved(_cmyk_swatches(), "JPEG", quality=100)
    app14 = data.find(b"\xff\xee")
    assert app14 > 0 and data[app14 + 4 : app14 + 9] == b"Adobe"
    back = Image.open(io.BytesIO(data))
    assert back.mode == "CMYK" and close(back.getpixel((16, 16)), (0, 0, 0, 0)) and "adobe" in back.info
    shown, kind, _ = carried(tmp_path, data, "jpeg")
    assert kind == "jpeg" and shown.mode == "RGB"
    assert close(shown.getpixel((16, 16)), (255, 255, 255))  # no ink is paper white, not black
    for got, ink in zip(_swatches(shown), CMYK_SWATCHES):
        assert close(got, _as_printed("coated", ink)), (ink, got)


def test_a_cmyk_jpeg_without_the_adobe_marker_holds_plain_inks(tmp_path):
    """Without Adobe's marker a CMYK JPEG's numbers are inks as they are (Pillow would read them inverted)."""
    plain = Image.merge("CMYK", [band.point(lambda v: 255 - v) for band in _cmyk_swatches().split()])
    data = saved(plain, "JPEG", quality=100)  # Pillow stores the inverse of the inverse: the inks themselves
    app14 = data.find(b"\xff\xee")
    data = data[:app14] + data[app14 + 2 + int.from_bytes(data[app14 + 2 : app14 + 4], "big") :]
    assert b"Adobe" not in data and Image.open(io.BytesIO(data)).mode == "CMYK"
    shown, _, _ = carried(tmp_path, data, "jpeg")
    for got, ink in zip(_swatches(shown), CMYK_SWATCHES):
        assert close(got, _as_printed("coated", ink)), (ink, got)


def test_a_cmyk_jpeg_is_read_through_its_own_profile(tmp_path):
    uncoated = shipped_profile("uncoated").data
    shown, _, _ = carried(tmp_path, saved(_cmyk_swatches(), "JPEG", quality=100, icc_profile=uncoated), "jpeg")
    for got, ink in zip(_swatches(shown), CMYK_SWATCHES):
        assert close(got, _as_printed("uncoated", ink)), (ink, got)
    assert not close(_as_printed("uncoated", (0, 255, 255, 0)), _as_printed("coated", (0, 255, 255, 0)), 6)  # premise


def test_a_jpeg_is_turned_upright_by_its_exif_orientation(tmp_path):
    """Orientation 6: the picture is shown turned a quarter clockwise; the card is given it turned, without EXIF."""
    picture = Image.new("RGB", (80, 40), (0, 0, 255))
    picture.paste((255, 0, 0), (40, 0, 80, 40))
    exif = picture.getexif()
    exif[0x0112] = 6
    shown, kind, data = carried(tmp_path, saved(picture, "JPEG", quality=100, exif=exif.tobytes()), "jpeg")
    assert kind == "jpeg" and shown.size == (40, 80)
    assert close(shown.getpixel((20, 15)), (0, 0, 255)) and close(shown.getpixel((20, 65)), (255, 0, 0))
    assert b"Exif" not in data and not shown.getexif()


def test_a_picture_is_the_same_bytes_every_time_and_carries_nothing_but_pixels(tmp_path):
    picture = Image.linear_gradient("L").resize((120, 90)).convert("RGB")
    info = Image.new("RGB", (1, 1)).getexif()
    info[0x0112] = 1
    png = saved(picture, icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes(), exif=info.tobytes())
    first = carried(tmp_path, png, "png")[2]
    bitmaps._normalised.cache_clear()
    assert carried(tmp_path, png, "png")[2] == first
    chunks = [first[i + 4 : i + 8] for i in _chunk_offsets(first)]
    assert chunks[0] == b"IHDR" and set(chunks) == {b"IHDR", b"IDAT", b"IEND"}


def _chunk_offsets(png: bytes) -> list[int]:
    offsets, at = [], 8
    while at < len(png):
        offsets.append(at)
        at += 12 + struct.unpack(">I", png[at : at + 4])[0]
    return offsets


def test_a_picture_that_cannot_be_decoded_says_so_as_the_deck_check_does(tmp_path):
    whole = saved(Image.linear_gradient("L").convert("RGB"))
    with pytest.raises(PictureError, match="cannot be read: the file is damaged or cut short"):
        carried(tmp_path, whole[: len(whole) // 2], "png")


def test_a_picture_a_template_writes_itself_is_drawn_as_image_draws_one(tmp_path):
    """A template may write a picture as a data: URI of its own (a texture, say) instead of through image():
    it is decoded and written again the same way, so the browser and the print get the same 8-bit sRGB pixels."""
    import base64
    import io

    from lxml import etree
    from PIL import Image

    from generator.definitions import load_all
    from generator.faces.render import FaceRenderer
    from generator.project import Project

    from .served import edit, new_game

    game = new_game(tmp_path)
    grey16 = Image.new("I;16", (40, 30), 40000)
    buffer = io.BytesIO()
    grey16.save(buffer, "PNG")
    uri = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    edit(
        game / "templates" / "game.svg.j2",
        "{{ parts.field(style.paper) }}",
        f'{{{{ parts.field(style.paper) }}}}\n<image x="5" y="5" width="20" height="15" href="{uri}"/>',
    )
    deck = load_all(Project(game))["game"].build(())
    svg = FaceRenderer(Project(game), deck).face(deck.cards[0])
    (image,) = etree.fromstring(svg.encode()).iter("{http://www.w3.org/2000/svg}image")
    written = image.get("href")
    assert written != uri and written.startswith("data:image/png;base64,")
    picture = Image.open(io.BytesIO(base64.b64decode(written.split(",", 1)[1])))
    grey = round(40000 / 65535 * 255)  # 40000 of 65535, in 8 bits
    assert picture.mode == "RGB" and picture.getpixel((0, 0)) == (grey, grey, grey)
