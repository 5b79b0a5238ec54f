"""Colour management: sRGB to CMYK through ICC profiles (littleCMS), the ink limit, greys, soft proofs, --icc."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image, ImageCms
from reportlab.lib import colors

from generator.cli import main
from generator.render.colour import GREYS, ProcessColour, luma_picture
from generator.render.icc import STOCKS, limit_ink, load_profile, shipped_profile

from .conftest import examples

COATED = shipped_profile("coated")


@settings(max_examples=examples(60), deadline=None)
@given(arrays(np.uint8, (5, 4)), st.floats(1.0, 4.0))
def test_ink_limit_holds_and_leaves_pixels_within_it_alone(pixels, limit):
    out = limit_ink(pixels, limit)
    totals_in, totals_out = pixels.astype(int).sum(axis=1) / 255, out.astype(int).sum(axis=1) / 255
    assert (totals_out <= limit + 1e-9).all()
    within = totals_in <= limit
    assert (out[within] == pixels[within]).all()
    assert (out[~within, 3] >= pixels[~within, 3]).all()  # darkness moves to black, never away from it


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
def test_vector_colours_are_profile_conversions_within_the_limit(r, g, b):
    convert = ProcessColour(COATED, 2.4)
    c = convert(colors.Color(r / 255, g / 255, b / 255))
    assert isinstance(c, colors.CMYKColor)
    assert c.cyan + c.magenta + c.yellow + c.black <= 2.4 + 1e-3
    pixel = COATED.separate(Image.new("RGB", (1, 1), (r, g, b)), 2.4).getpixel((0, 0))
    assert [round(v / 255, 4) for v in pixel] == [c.cyan, c.magenta, c.yellow, c.black]


def test_known_colours():
    convert = ProcessColour(COATED, 3.0)
    white, black = convert(colors.white), convert(colors.black)
    assert (white.cyan, white.magenta, white.yellow, white.black) == (0, 0, 0, 0)
    assert black.black > 0.9 and black.cyan > 0.3  # a rich black, not black ink alone
    red = convert(colors.Color(1, 0, 0))
    assert red.magenta > 0.9 and red.yellow > 0.9 and red.cyan < 0.05 and red.black < 0.05
    # the profile, not a formula: sRGB blue needs magenta as well as cyan on press
    blue = convert(colors.Color(0, 0, 1))
    assert blue.cyan > 0.9 and 0.5 < blue.magenta < 0.95 and blue.yellow < 0.05
    assert convert(colors.Color(0, 0, 1, alpha=0.4)).alpha == 0.4


def test_uncoated_paper_prints_lighter_and_takes_less_ink():
    black = colors.Color(0, 0, 0)
    coated = ProcessColour(shipped_profile("coated"), STOCKS["coated"].ink_limit)(black)
    uncoated = ProcessColour(shipped_profile("uncoated"), STOCKS["uncoated"].ink_limit)(black)
    total = lambda c: c.cyan + c.magenta + c.yellow + c.black
    assert total(uncoated) <= 2.4 + 1e-3 < total(coated) <= 3.0 + 1e-3


def test_greyscale_uses_black_ink_with_the_profiles_tone_curve():
    curve = COATED.black_for_grey
    assert curve[255] == 0 and curve[0] == 255
    assert (np.diff(curve.astype(int)) <= 0).all()  # lighter grey, less black
    # each grey prints as light as the sRGB grey, sRGB's lightness fitted between paper white and solid black
    lab = ImageCms.createProfile("LAB")
    k_to_lab = ImageCms.buildTransform(COATED._profile, lab, "CMYK", "LAB")
    srgb_to_lab = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), lab, "RGB", "LAB")

    def lightness(image, transform):
        return ImageCms.applyTransform(image, transform).getpixel((0, 0))[0] / 2.55

    solid = lightness(Image.new("CMYK", (1, 1), (0, 0, 0, 255)), k_to_lab)
    assert 15 < solid < 40  # black ink alone is no deeper than this on coated paper
    for level in (64, 128, 192):
        printed = lightness(Image.new("CMYK", (1, 1), (0, 0, 0, int(curve[level]))), k_to_lab)
        wanted = lightness(Image.new("RGB", (1, 1), (level,) * 3), srgb_to_lab)
        assert printed == pytest.approx(solid + wanted * (100 - solid) / 100, abs=1.5)
    c = ProcessColour(COATED, 2.4, greyscale=True)(colors.Color(0.2, 0.5, 0.9))
    assert (c.cyan, c.magenta, c.yellow) == (0, 0, 0) and 0 < c.black < 1


def test_greyscale_pictures():
    picture = Image.new("RGB", (2, 1))
    picture.putpixel((0, 0), (255, 0, 0))
    picture.putpixel((1, 0), (0, 0, 255))
    grey = GREYS.picture(picture)
    assert grey.mode == "L"
    assert list(grey.get_flattened_data()) == [round(0.2126 * 255), round(0.0722 * 255)]
    assert GREYS.picture(picture) is grey  # converted once
    printed = ProcessColour(COATED, 2.4, greyscale=True).picture(picture)
    assert printed.mode == "L"  # DeviceGray: black ink only on a CMYK press
    expected = 255 - COATED.black_for_grey[np.asarray(luma_picture(picture))]
    assert list(printed.get_flattened_data()) == list(expected[0])


def test_colour_pictures_are_separated_and_cached():
    picture = Image.new("RGB", (4, 4), (0, 0, 0))
    convert = ProcessColour(COATED, 2.4)
    cmyk = convert.picture(picture)
    assert cmyk.mode == "CMYK" and sum(cmyk.getpixel((0, 0))) / 255 <= 2.4
    assert convert.picture(picture.copy()) is cmyk
    assert ProcessColour(COATED, 2.4) == convert  # equal settings share drawings and pictures


def test_soft_proof_shows_what_the_press_cannot_print():
    """sRGB's pure blue and green fall outside offset CMYK: the proof shows them duller; neutral greys stay grey."""
    proof = ProcessColour(COATED, 3.0).proof
    image = Image.new("RGB", (3, 1))
    for x, colour in enumerate([(0, 0, 255), (0, 255, 0), (128, 128, 128)]):
        image.putpixel((x, 0), colour)
    seen = proof(image)
    lab = ImageCms.applyTransform(
        image, ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB")
    )
    seen_lab = ImageCms.applyTransform(
        seen, ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB")
    )

    def chroma(pixel):
        _, a, b = pixel
        return ((a - 128) ** 2 + (b - 128) ** 2) ** 0.5

    for x in (0, 1):
        assert chroma(seen_lab.getpixel((x, 0))) < 0.85 * chroma(lab.getpixel((x, 0)))
    r, g, b = seen.getpixel((2, 0))
    assert max(r, g, b) - min(r, g, b) <= 4 and abs(r - 128) <= 12


def test_own_profile(tmp_path):
    mine = tmp_path / "mine.icc"
    mine.write_bytes(shipped_profile("uncoated").data)
    profile = load_profile(mine)
    assert profile == shipped_profile("uncoated") and not profile.registered
    assert profile.identifier == "FOGRA47L Uncoated (Aetherpress)"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "file not found"),
        (b"not a profile", "is not an ICC profile"),
        ("srgb", "is an RGB profile; a CMYK printer profile is needed"),
    ],
)
def test_bad_profiles_are_one_line_errors(tmp_path, capsys, content, message):
    path = tmp_path / "x.icc"
    if content == "srgb":
        path.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    elif content is not None:
        path.write_bytes(content)
    code = main(["export", "pod", "standard", "--icc", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err == [f"error: command line: --icc '{path}': {message}"]
    assert not (tmp_path / "out").exists()
