"""A second designer's deck, made as a new user makes one, for the press paths: 30 cards of pictures from a photo
editor and art from drawing programs, on a face with a drop shadow, a screen blend, an overlay texture, letter-
spaced titles and subscripts.

``aetherpress new`` makes the project; the pictures and vector art are written by :mod:`tests.artcorpus` as
the programs save them; the face is edited as a designer edits it.
"""

from __future__ import annotations

from pathlib import Path

from tests.artcorpus import write_pictures, write_vector_art
from tests.served import edit, new_game

NAME = "lanterns"

FACE = """{#- A designer's face: art in a frame over a shadow, a glow that screens, a texture that overlays. -#}
{% import "_parts.svg.j2" as parts with context %}
{% set ink = style.ink %}
{{ parts.open() }}
<defs>
<filter id="shadow" x="-20%" y="-20%" width="140%" height="150%">
  <feGaussianBlur in="SourceAlpha" stdDeviation="1.2"/>
  <feOffset dx="0.8" dy="1.2" result="soft"/>
  <feFlood flood-color="#000000" flood-opacity="0.55"/>
  <feComposite in2="soft" operator="in"/>
  <feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge>
</filter>
<radialGradient id="halo"><stop offset="0" stop-color="#ffcf6e"/><stop offset="1" stop-color="#ffcf6e" stop-opacity="0"/></radialGradient>
<linearGradient id="dusk" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1d2b4a"/><stop offset="1" stop-color="#6b3d5c"/></linearGradient>
</defs>
{{ parts.field("url(#dusk)") }}
<g style="mix-blend-mode:overlay" opacity="0.6">
{% for i in range(9) %}<rect x="{{ (i * 8)|mm }}" y="0" width="4" height="{{ full.h|mm }}" fill="#c9a25a"/>{% endfor %}
</g>
<rect x="{{ (safe.x + 2)|mm }}" y="{{ (safe.y + 10)|mm }}" width="{{ (safe.w - 4)|mm }}" height="42" rx="3" fill="#f4ead5" filter="url(#shadow)"/>
{% set art = card.attributes.get("art") %}
{% if art %}
<image x="{{ (safe.x + 4)|mm }}" y="{{ (safe.y + 12)|mm }}" width="{{ (safe.w - 8)|mm }}" height="38" preserveAspectRatio="xMidYMid meet" href="{{ image(art, safe.w - 8, 38) }}"/>
{% endif %}
<circle cx="{{ full.cx|mm }}" cy="{{ (safe.y + 31)|mm }}" r="20" fill="url(#halo)" style="mix-blend-mode:screen"/>
<text x="{{ full.cx|mm }}" y="{{ (safe.y + 6.5)|mm }}" text-anchor="middle" font-family="{{ style.title_font|family }}" font-weight="bold" font-size="4.4" letter-spacing="0.6" fill="#f4ead5">{{ card.name|upper }}</text>
<text x="{{ (safe.x + 3)|mm }}" y="{{ (safe.bottom - 16)|mm }}" font-family="{{ style.text_font|family }}" font-size="3.6" fill="#f4ead5">Power {{ card.rank.label if card.rank else "" }}<tspan baseline-shift="sub" font-size="2.4">{{ card.suits[0].name if card.suits else "" }}</tspan></text>
{% set text = card.attributes.get("text") %}
{% if text %}
{{ fit("text", text, box(safe.x + 3, safe.bottom - 13, safe.w - 6, 11), style.text_font, 3.4, 2.2, fill="#f4ead5") }}
{% endif %}
</svg>
"""

BITMAPS = (
    "soft.png",
    "deep.png",
    "palette.png",
    "keyed.png",
    "grey.png",
    "grey-alpha.png",
    "grey16.png",
    "photo.jpg",
    "cmyk.jpg",
    "cmyk-profile.jpg",
    "camera-2.jpg",
    "camera-3.jpg",
    "camera-4.jpg",
    "camera-5.jpg",
    "camera-6.jpg",
    "camera-7.jpg",
    "camera-8.jpg",
    "soft.webp",
    "photo.avif",
)
VECTORS = ("inkscape.svg", "illustrator.svg", "affinity.svg", "figma.svg")


def press_project(folder: Path, art: tuple[str, ...] = BITMAPS + VECTORS, cards: int = 30) -> Path:
    """A project made by ``aetherpress new`` with ``cards`` cards, each with a picture of ``art`` in turn."""
    root = new_game(folder, NAME)
    deck_folder = root / "decks" / NAME
    write_pictures(deck_folder)
    write_vector_art(deck_folder)
    edit(deck_folder / f"{NAME}.toml", 'text = "text"', 'text = "text"\nart = "image"')
    csv = deck_folder / "cards.csv"
    lines = csv.read_text(encoding="utf-8").splitlines()
    header, rows = lines[0], lines[1:]
    out = [header + ",art"]
    for n in range(cards):
        row = rows[n % len(rows)].split(",")
        row[0] = f"{row[0]} {n // len(rows) + 1}" if n >= len(rows) else row[0]
        out.append(",".join(row) + f",{art[n % len(art)]}")
    csv.write_text("\n".join(out) + "\n", encoding="utf-8")
    (root / "templates" / f"{NAME}.svg.j2").write_text(FACE, encoding="utf-8")
    return root
