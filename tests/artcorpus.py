"""Card art as drawing programs, photo editors and cameras save it, made with Python for the tests.

Pictures in every mode a designer's files come in: 8-bit RGBA whose clear
pixels hold a colour of their own, 16-bit RGBA, a palette with partly
transparent entries, grey, grey with alpha, 16-bit grey, CMYK JPEGs with and
without an embedded profile, camera JPEGs in each EXIF orientation 2-8, WebP
and AVIF.  Vector art as Inkscape, Illustrator, Affinity Designer and Figma
write it: XML declarations, DOCTYPEs, editor namespaces and metadata, sizes in
millimetres, points or pixels, CSS classes in ``<style>``, custom properties,
shorthands and drop-shadow filters.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms

# the top-left quarter of every scene is red, so a picture turned the wrong way shows
MARK = (230, 40, 40)


def scene(size: tuple[int, int] = (360, 240)) -> Image.Image:
    """An RGB scene with a red marker in its top-left corner."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    rgb = np.stack([80 + 150 * x / w, 60 + 120 * y / h, 180 - 100 * x / w], axis=-1).astype(np.uint8)
    rgb[: h // 4, : w // 5] = MARK
    return Image.fromarray(rgb, "RGB")


def soft_disc(size: tuple[int, int] = (360, 240), under: tuple[int, int, int] = (255, 0, 255)) -> Image.Image:
    """RGBA: a soft-edged gold disc whose clear pixels hold ``under`` (magenta: any exporter's leftovers)."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    r = np.hypot((x - w / 2) / (w / 2), (y - h / 2) / (h / 2))
    alpha = np.clip(1.15 - r, 0, 1) ** 1.2
    alpha = np.clip(alpha / alpha.max(), 0, 1)
    rgba = np.zeros((h, w, 4), dtype=np.uint8)
    rgba[..., :3] = np.where(alpha[..., None] > 0, np.array([235, 180, 60]), np.array(under))
    rgba[..., 3] = (255 * alpha).astype(np.uint8)
    return Image.fromarray(rgba, "RGBA")


def shadowed_token(size: tuple[int, int] = (300, 300)) -> Image.Image:
    """RGBA as a photo editor exports a cut-out with a drop shadow: a hard-edged token over a soft black shadow."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    shadow = np.clip(1 - np.hypot((x - w * 0.56) / (w * 0.42), (y - h * 0.58) / (h * 0.42)), 0, 1) ** 0.8 * 0.7
    token = np.hypot((x - w * 0.46) / (w * 0.34), (y - h * 0.46) / (h * 0.34)) <= 1
    rgba = np.zeros((h, w, 4), dtype=np.uint8)
    rgba[..., 3] = (255 * shadow).astype(np.uint8)
    rgba[token] = (40, 120, 190, 255)
    return Image.fromarray(rgba, "RGBA")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_rgba16(image: Image.Image) -> bytes:
    """``image`` (RGBA) as a 16-bit-per-channel RGBA PNG, as photo editors save deep pictures (Pillow writes none)."""
    values = np.asarray(image.convert("RGBA")).astype(np.uint16) * 257
    h, w, _ = values.shape
    rows = b"".join(b"\x00" + values[y].astype(">u2").tobytes() for y in range(h))
    header = struct.pack(">IIBBBBB", w, h, 16, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, 9)) + _chunk(b"IEND", b"")


def palette_soft(image: Image.Image) -> Image.Image:
    """A palette PNG (``P``) whose entries carry alpha of their own (a tRNS of many values), as pngquant writes."""
    quantised = image.quantize(64, method=Image.Quantize.FASTOCTREE)
    return quantised


EXIF_TURNS = {  # each EXIF orientation 2-8 and the turn that sets a picture stored that way upright
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


def orientations(folder: Path) -> list[str]:
    """A camera JPEG per EXIF orientation 2-8, each stored turned so the tag turns it back upright."""
    undo = EXIF_TURNS
    names = []
    for tag, stored in undo.items():
        exif = Image.Exif()
        exif[0x0112] = tag
        name = f"camera-{tag}.jpg"
        scene().transpose(stored).save(folder / name, quality=92, exif=exif.tobytes())
        names.append(name)
    return names


def write_pictures(folder: Path) -> dict[str, str]:
    """Every kind of picture file into ``folder``: {file name: what it is}."""
    made: dict[str, str] = {}

    def keep(name: str, what: str) -> None:
        made[name] = what

    soft_disc().save(folder / "soft.png")
    keep("soft.png", "8-bit RGBA, soft edges, magenta under the clear pixels")
    (folder / "deep.png").write_bytes(png_rgba16(shadowed_token()))
    keep("deep.png", "16-bit RGBA with a drop shadow")
    palette_soft(soft_disc()).save(folder / "palette.png")
    keep("palette.png", "palette with partly transparent entries")
    keyed = scene().quantize(16)
    keyed.save(folder / "keyed.png", transparency=0)
    keep("keyed.png", "palette with one transparent entry")
    scene().convert("L").save(folder / "grey.png")
    keep("grey.png", "8-bit grey")
    soft_disc().convert("LA").save(folder / "grey-alpha.png")
    keep("grey-alpha.png", "grey with alpha")
    ramp = (np.linspace(0, 65535, 360)[None, :] * np.ones((240, 1))).astype(np.uint16)
    Image.fromarray(ramp).save(folder / "grey16.png")
    keep("grey16.png", "16-bit grey")
    scene().save(folder / "photo.jpg", quality=90)
    keep("photo.jpg", "RGB JPEG")
    scene().convert("CMYK").save(folder / "cmyk.jpg", quality=92)
    keep("cmyk.jpg", "CMYK JPEG without a profile")
    srgb_to_cmyk = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), _cmyk_profile(), "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC
    )
    tagged = ImageCms.applyTransform(scene(), srgb_to_cmyk)
    assert tagged is not None
    tagged.save(folder / "cmyk-profile.jpg", quality=92, icc_profile=_cmyk_profile_bytes())
    keep("cmyk-profile.jpg", "CMYK JPEG with its profile embedded")
    for name in orientations(folder):
        keep(name, f"camera JPEG, EXIF orientation {name[7]}")
    soft_disc().save(folder / "soft.webp", lossless=False, quality=90)
    keep("soft.webp", "WebP with alpha")
    scene().save(folder / "photo.avif", quality=80)
    keep("photo.avif", "AVIF")
    return made


def _cmyk_profile_bytes() -> bytes:
    from generator.iccprofiles import shipped_profile_data

    return shipped_profile_data("coated")


def _cmyk_profile() -> ImageCms.ImageCmsProfile:
    import io

    return ImageCms.ImageCmsProfile(io.BytesIO(_cmyk_profile_bytes()))


# Vector art as the drawing programs write it: each a small emblem of a lantern (a body, a glow, a flame).

INKSCAPE = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->

<svg
   width="56mm"
   height="40mm"
   viewBox="0 0 56 40"
   version="1.1"
   id="svg1"
   inkscape:version="1.3.2 (091e20e, 2023-11-25, custom)"
   sodipodi:docname="lantern.svg"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns:xlink="http://www.w3.org/1999/xlink"
   xmlns="http://www.w3.org/2000/svg"
   xmlns:svg="http://www.w3.org/2000/svg"
   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
   xmlns:cc="http://creativecommons.org/ns#"
   xmlns:dc="http://purl.org/dc/elements/1.1/">
  <sodipodi:namedview
     id="namedview1"
     pagecolor="#ffffff"
     bordercolor="#000000"
     borderopacity="0.25"
     inkscape:showpageshadow="2"
     inkscape:pageopacity="0.0"
     inkscape:pagecheckerboard="0"
     inkscape:deskcolor="#d1d1d1"
     inkscape:document-units="mm"
     inkscape:zoom="2.8"
     inkscape:cx="105"
     inkscape:cy="75"
     inkscape:window-width="1920"
     inkscape:window-height="1011"
     inkscape:window-x="0"
     inkscape:window-y="32"
     inkscape:window-maximized="1"
     inkscape:current-layer="layer1" />
  <defs
     id="defs1">
    <linearGradient
       id="linearGradient2"
       inkscape:collect="always">
      <stop
         style="stop-color:#ffe08a;stop-opacity:1;"
         offset="0"
         id="stop1" />
      <stop
         style="stop-color:#ffe08a;stop-opacity:0;"
         offset="1"
         id="stop2" />
    </linearGradient>
    <radialGradient
       inkscape:collect="always"
       xlink:href="#linearGradient2"
       id="radialGradient3"
       cx="28"
       cy="20"
       fx="28"
       fy="20"
       r="17"
       gradientUnits="userSpaceOnUse" />
    <filter
       style="color-interpolation-filters:sRGB"
       inkscape:label="Drop Shadow"
       id="filter4"
       x="-0.2"
       y="-0.2"
       width="1.4"
       height="1.4">
      <feFlood
         result="flood"
         in="SourceGraphic"
         flood-opacity="0.5"
         flood-color="rgb(0,0,0)"
         id="feFlood1" />
      <feGaussianBlur
         result="blur"
         in="SourceGraphic"
         stdDeviation="0.8"
         id="feGaussianBlur1" />
      <feOffset
         result="offset"
         in="blur"
         dx="0.8"
         dy="0.8"
         id="feOffset1" />
      <feComposite
         result="comp1"
         operator="in"
         in="flood"
         in2="offset"
         id="feComposite1" />
      <feComposite
         result="comp2"
         operator="over"
         in="SourceGraphic"
         in2="comp1"
         id="feComposite2" />
    </filter>
  </defs>
  <metadata
     id="metadata1">
    <rdf:RDF>
      <cc:Work
         rdf:about="">
        <dc:format>image/svg+xml</dc:format>
        <dc:type
           rdf:resource="http://purl.org/dc/dcmitype/StillImage" />
        <dc:creator>
          <cc:Agent>
            <dc:title>A. Designer</dc:title>
          </cc:Agent>
        </dc:creator>
      </cc:Work>
    </rdf:RDF>
  </metadata>
  <g
     inkscape:label="Layer 1"
     inkscape:groupmode="layer"
     id="layer1">
    <circle
       style="fill:url(#radialGradient3);fill-opacity:1;stroke:none;stroke-width:0.264583;stroke-linecap:round;stroke-linejoin:round;paint-order:markers stroke fill"
       id="path1"
       cx="28"
       cy="20"
       r="17" />
    <rect
       style="fill:#3a2b1f;fill-opacity:1;stroke:#1a120b;stroke-width:0.8;stroke-linejoin:round;stroke-dasharray:none;stroke-opacity:1;filter:url(#filter4)"
       id="rect1"
       width="14"
       height="20"
       x="21"
       y="10"
       ry="2"
       inkscape:label="body" />
    <path
       style="fill:#ff9d2e;fill-opacity:1;stroke:none;stroke-width:0.264583px;stroke-linecap:butt;stroke-linejoin:miter;stroke-opacity:1"
       d="m 28,13 c 2.2,3 3.4,5.4 3.4,7.6 0,2.1 -1.5,3.6 -3.4,3.6 -1.9,0 -3.4,-1.5 -3.4,-3.6 0,-2.2 1.2,-4.6 3.4,-7.6 z"
       id="path2"
       sodipodi:nodetypes="csssc" />
    <text
       xml:space="preserve"
       style="font-style:normal;font-variant:normal;font-weight:bold;font-stretch:normal;font-size:4.23333px;line-height:1.25;font-family:'Source Sans 3';-inkscape-font-specification:'Source Sans 3 Bold';text-align:center;letter-spacing:0px;word-spacing:0px;text-anchor:middle;fill:#3a2b1f;fill-opacity:1;stroke:none;stroke-width:0.264583"
       x="28"
       y="36"
       id="text1"><tspan
         sodipodi:role="line"
         id="tspan1"
         style="stroke-width:0.264583"
         x="28"
         y="36">LANTERN</tspan></text>
  </g>
</svg>
"""

ILLUSTRATOR = """<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 28.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
\t viewBox="0 0 158.7 113.4" style="enable-background:new 0 0 158.7 113.4;" xml:space="preserve">
<style type="text/css">
\t.st0{fill:url(#SVGID_1_);}
\t.st1{fill:#3A2B1F;stroke:#1A120B;stroke-width:2.2677;stroke-linejoin:round;stroke-miterlimit:10;}
\t.st2{fill:#FF9D2E;}
\t.st3{font-family:'SourceSans3-Bold';}
\t.st4{font-size:12px;}
\t.st5{opacity:0.8;}
</style>
<radialGradient id="SVGID_1_" cx="79.35" cy="56.7" r="48.2" gradientUnits="userSpaceOnUse">
\t<stop  offset="0" style="stop-color:#FFE08A"/>
\t<stop  offset="1" style="stop-color:#FFE08A;stop-opacity:0"/>
</radialGradient>
<circle class="st0" cx="79.35" cy="56.7" r="48.2"/>
<g class="st5">
\t<path class="st1" d="M65.2,28.3h28.3c3.1,0,5.7,2.5,5.7,5.7v45.4c0,3.1-2.5,5.7-5.7,5.7H65.2c-3.1,0-5.7-2.5-5.7-5.7V34
\t\tC59.5,30.9,62.1,28.3,65.2,28.3z"/>
</g>
<path class="st2" d="M79.4,36.9c6.2,8.5,9.6,15.3,9.6,21.5c0,6-4.3,10.2-9.6,10.2s-9.6-4.3-9.6-10.2C69.7,52.2,73.1,45.4,79.4,36.9z"/>
<text transform="matrix(1 0 0 1 56.6929 104.8819)" class="st3 st4">LANTERN</text>
</svg>
"""

AFFINITY = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg width="100%" height="100%" viewBox="0 0 159 114" version="1.1" xmlns="http://www.w3.org/2000/svg" \
xmlns:xlink="http://www.w3.org/1999/xlink" xml:space="preserve" xmlns:serif="http://www.serif.com/" \
style="fill-rule:evenodd;clip-rule:evenodd;stroke-linejoin:round;stroke-miterlimit:2;">
    <g id="Artboard1" transform="matrix(1,0,0,1,-12,-20)">
        <rect x="12" y="20" width="159" height="114" style="fill:none;"/>
        <g id="Glow" serif:id="Glow">
            <circle cx="91.5" cy="77" r="48" style="fill:url(#_Radial1);"/>
        </g>
        <g id="Body" serif:id="Body" style="mix-blend-mode:multiply;">
            <path d="M77,49L106,49C109,49 112,52 112,55L112,100C112,103 109,106 106,106L77,106C74,106 71,103 71,100L71,55C71,52 \
74,49 77,49Z" style="fill:rgb(58,43,31);stroke:rgb(26,18,11);stroke-width:2.27px;"/>
        </g>
        <path d="M91.5,57C97.5,65.5 101,72 101,78C101,84 96.5,88 91.5,88C86.5,88 82,84 82,78C82,72 85.5,65.5 91.5,57Z" \
style="fill:rgb(255,157,46);"/>
    </g>
    <defs>
        <radialGradient id="_Radial1" cx="0" cy="0" r="1" gradientUnits="userSpaceOnUse" \
gradientTransform="matrix(48,0,0,48,91.5,77)"><stop offset="0" style="stop-color:rgb(255,224,138);stop-opacity:1"/>\
<stop offset="1" style="stop-color:rgb(255,224,138);stop-opacity:0"/></radialGradient>
    </defs>
</svg>
"""

FIGMA = """<svg width="212" height="151" viewBox="0 0 212 151" fill="none" xmlns="http://www.w3.org/2000/svg">
<style>
:root { --lamp: #ffe08a; --body: #3a2b1f; }
.flame { fill: var(--flame, #ff9d2e); }
</style>
<circle cx="106" cy="75" r="64" fill="url(#paint0_radial_1_2)"/>
<g filter="url(#filter0_d_1_2)">
<rect x="87" y="38" width="38" height="76" rx="8" style="fill: var(--body); stroke: #1a120b; stroke-width: 3"/>
</g>
<path class="flame" d="M106 49C114 60 118.5 69 118.5 77C118.5 85 112.5 90 106 90C99.5 90 93.5 85 93.5 77C93.5 69 98 60 106 49Z"/>
<text x="106" y="141" style="font: bold 16px 'Source Sans 3', sans-serif; text-anchor: middle; fill: var(--body)">LANTERN</text>
<defs>
<filter id="filter0_d_1_2" x="79" y="34" width="58" height="96" filterUnits="userSpaceOnUse" \
color-interpolation-filters="sRGB">
<feFlood flood-opacity="0" result="BackgroundImageFix"/>
<feColorMatrix in="SourceAlpha" type="matrix" values="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 127 0" result="hardAlpha"/>
<feOffset dx="2" dy="4"/>
<feGaussianBlur stdDeviation="3"/>
<feComposite in2="hardAlpha" operator="out"/>
<feColorMatrix type="matrix" values="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0.35 0"/>
<feBlend mode="normal" in2="BackgroundImageFix" result="effect1_dropShadow_1_2"/>
<feBlend mode="normal" in="SourceGraphic" in2="effect1_dropShadow_1_2" result="shape"/>
</filter>
<radialGradient id="paint0_radial_1_2" cx="0" cy="0" r="1" gradientUnits="userSpaceOnUse" \
gradientTransform="translate(106 75) rotate(90) scale(64)">
<stop stop-color="#FFE08A"/>
<stop offset="1" stop-color="#FFE08A" stop-opacity="0"/>
</radialGradient>
</defs>
</svg>
"""

VECTOR_ART = {"inkscape.svg": INKSCAPE, "illustrator.svg": ILLUSTRATOR, "affinity.svg": AFFINITY, "figma.svg": FIGMA}


def write_vector_art(folder: Path) -> list[str]:
    for name, text in VECTOR_ART.items():
        (folder / name).write_text(text, encoding="utf-8")
    return list(VECTOR_ART)
