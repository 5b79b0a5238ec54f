"""A designer's own deck, as one would make it: ``aetherpress new``, pictures from an image editor, an edited face.

The pictures are the kinds image editors and cameras write: a transparent PNG
whose transparent pixels hold black, a palette PNG with a transparent index,
grey with alpha, 16-bit grey, a camera JPEG turned by its EXIF orientation, a
CMYK JPEG.  The face uses what designers reach for: element and group opacity,
a gradient fading to nothing, a luminance mask, a clip, a blend mode, dashes,
a reflecting gradient and a turned pattern of dots,
a turned gradient, text in a shipped font and in a project font.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from generator.locations import FONTS_DIR
from tests.served import edit, new_game

NAME = "atelier"
FONT = "Atelier Sans"  # a project font

FACE = """{#- A designer's face: a picture in a fading window, a glow, a blend, dashes. -#}
{% import "_parts.svg.j2" as parts with context %}
{% set ink = style.ink %}
{{ parts.open() }}
<defs>
<radialGradient id="glow"><stop offset="0" stop-color="#ffd27a" stop-opacity="0.95"/><stop offset="1" stop-color="#ffd27a" stop-opacity="0"/></radialGradient>
<linearGradient id="fade" x1="0" y1="0" x2="0" y2="1"><stop offset="0.45" stop-color="#ffffff"/><stop offset="1" stop-color="#000000"/></linearGradient>
<linearGradient id="sky" x1="0" y1="0" x2="1" y2="0" gradientTransform="rotate(35 0.5 0.5)"><stop offset="0" stop-color="#26426b"/><stop offset="1" stop-color="#c9e4f0"/></linearGradient>
<linearGradient id="ribbon" x1="0" y1="0" x2="0.25" y2="0" spreadMethod="reflect"><stop offset="0" stop-color="#8a5a2b" stop-opacity="0.2"/><stop offset="1" stop-color="#e8c27a" stop-opacity="0.6"/></linearGradient>
<pattern id="dots" width="3" height="3" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><circle cx="1.5" cy="1.5" r="0.55" fill="{{ style.accent }}" fill-opacity="0.35"/></pattern>
<mask id="fade-out"><rect x="0" y="0" width="{{ full.w|mm }}" height="{{ full.h|mm }}" fill="url(#fade)"/></mask>
<clipPath id="window"><rect x="{{ (safe.x + 2)|mm }}" y="{{ (safe.y + 10)|mm }}" width="{{ (safe.w - 4)|mm }}" height="40" rx="4"/></clipPath>
</defs>
{{ parts.field(style.paper) }}
<rect x="0" y="0" width="{{ full.w|mm }}" height="{{ full.h|mm }}" fill="url(#sky)" opacity="0.35"/>
<g clip-path="url(#window)" mask="url(#fade-out)" opacity="0.9">
<rect x="{{ (safe.x + 2)|mm }}" y="{{ (safe.y + 10)|mm }}" width="{{ (safe.w - 4)|mm }}" height="40" fill="#233149"/>
<image x="{{ (safe.x + 2)|mm }}" y="{{ (safe.y + 10)|mm }}" width="{{ (safe.w - 4)|mm }}" height="40" preserveAspectRatio="xMidYMid meet" href="{{ image(card.attributes.art, safe.w - 4, 40) }}"/>
</g>
<circle cx="{{ full.cx|mm }}" cy="{{ (safe.y + 30)|mm }}" r="22" fill="url(#glow)"/>
{% for suit in card.suits %}
<circle cx="{{ (full.cx - 5 + loop.index0 * 10)|mm }}" cy="{{ (safe.bottom - 22)|mm }}" r="7" fill="{{ suit.colour }}" fill-opacity="0.75" style="mix-blend-mode:multiply"/>
{% endfor %}
<rect x="{{ (safe.x + 1)|mm }}" y="{{ (safe.y + 1)|mm }}" width="{{ (safe.w - 2)|mm }}" height="{{ (safe.h - 2)|mm }}" rx="2" fill="none" stroke="{{ style.accent }}" stroke-width="0.4" stroke-dasharray="1.6 0.9" stroke-opacity="0.8"/>
<rect x="{{ (safe.x + 2)|mm }}" y="{{ (safe.y + 2)|mm }}" width="{{ (safe.w - 4)|mm }}" height="7" rx="1.5" fill="url(#ribbon)"/>
<rect x="{{ (safe.x + 2)|mm }}" y="{{ (safe.bottom - 15)|mm }}" width="{{ (safe.w - 4)|mm }}" height="13" rx="2" fill="url(#dots)" stroke="{{ style.accent }}" stroke-width="0.3" stroke-opacity="0.6"/>
{{ fit("name", card.name, box(safe.x + 3, safe.y + 2, safe.w - 6, 7), style.title_font, 4.6, 2.6, weight="bold", fill=ink, valign="middle", max_lines=1) }}
{% set text = card.attributes.get("text") %}
{% if text %}
{{ fit("text", text, box(safe.x + 4, safe.bottom - 14, safe.w - 8, 12), style.text_font, 3.4, 2.2, fill=ink) }}
{% endif %}
</svg>
"""

PICTURES = ("glow.png", "palette.png", "grey-alpha.png", "grey16.png", "camera.jpg", "cmyk.jpg")  # one per card, in turn


def _glow(size=(360, 240)) -> Image.Image:
    """RGBA: a soft gold disc whose clear pixels hold black, as most exporters write them."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    r = np.hypot((x - w / 2) / (w / 2), (y - h / 2) / (h / 2))
    alpha = np.clip(1 - r, 0, 1) ** 1.5
    rgba = np.zeros((h, w, 4), dtype=np.uint8)
    rgba[..., 0] = (255 * alpha).astype(np.uint8)
    rgba[..., 1] = (190 * alpha).astype(np.uint8)
    rgba[..., 2] = (60 * alpha).astype(np.uint8)
    rgba[..., 3] = (255 * alpha).astype(np.uint8)
    return Image.fromarray(rgba, "RGBA")


def _scene(size=(360, 240)) -> Image.Image:
    """An RGB scene with a marker in its top-left corner, so a turned picture shows."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    rgb = np.stack([80 + 150 * x / w, 60 + 120 * y / h, 180 - 100 * x / w], axis=-1).astype(np.uint8)
    rgb[: h // 4, : w // 5] = (230, 40, 40)
    return Image.fromarray(rgb, "RGB")


def write_pictures(folder: Path) -> None:
    _glow().save(folder / "glow.png")
    palette = _scene().quantize(16)
    palette.info["transparency"] = 0
    palette.save(folder / "palette.png", transparency=0)
    grey = _glow().convert("LA")
    grey.save(folder / "grey-alpha.png")
    ramp = (np.linspace(0, 65535, 360)[None, :] * np.ones((240, 1))).astype(np.uint16)
    Image.fromarray(ramp).save(folder / "grey16.png")
    camera = _scene().transpose(Image.Transpose.ROTATE_90)  # stored turned, with the tag that turns it back
    exif = Image.Exif()
    exif[0x0112] = 6
    camera.save(folder / "camera.jpg", quality=92, exif=exif.tobytes())
    _scene().convert("CMYK").save(folder / "cmyk.jpg", quality=92)


def designer_project(folder: Path) -> Path:
    """A project made by ``aetherpress new`` and edited as a designer would: six pictures in turn on its 12 cards, an
    effects face and a font of its own."""
    root = new_game(folder, NAME)
    deck_folder = root / "decks" / NAME
    write_pictures(deck_folder)
    edit(deck_folder / f"{NAME}.toml", 'text = "text"', 'text = "text"\nart = "image"')
    csv = deck_folder / "cards.csv"
    lines = csv.read_text(encoding="utf-8").splitlines()
    lines = [lines[0] + ",art"] + [f"{line},{PICTURES[n % len(PICTURES)]}" for n, line in enumerate(lines[1:])]
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "templates" / f"{NAME}.svg.j2").write_text(FACE, encoding="utf-8")
    renamed_font(FONTS_DIR / "SourceSans3-Regular.ttf", root / "fonts" / "AtelierSans-Regular.ttf", FONT)
    renamed_font(FONTS_DIR / "SourceSans3-Bold.ttf", root / "fonts" / "AtelierSans-Bold.ttf", FONT)
    edit(root / "styles" / f"{NAME}.toml", 'text_font = "EB Garamond"', f'text_font = "{FONT}"')
    return root


def renamed_font(source: Path, target: Path, family: str) -> None:
    """A copy of the font ``source`` under another family name: a font of a project's own."""
    from fontTools.ttLib import TTFont

    font = TTFont(source)
    names = font["name"]
    style = names.getDebugName(2) or "Regular"
    for ident in (1, 3, 4, 6, 16, 17, 21, 22):
        names.removeNames(nameID=ident)
    names.setName(family, 1, 3, 1, 0x409)
    names.setName(f"{family} {style}", 4, 3, 1, 0x409)
    names.setName(f"{family.replace(' ', '')}-{style.replace(' ', '')}", 6, 3, 1, 0x409)
    font.save(target)
