"""A tuck box as a product shot: its print file rendered, cut into panels and folded up in perspective.

The box's own page (:func:`~generator.render.boxpdf.draw_box_page`, what
``aetherpress box`` writes) is rendered by pdfium; the front, the side that
folds to the right of it and the lid are cut out of it by the net's geometry
(the cut outline makes the thumb notch a real notch), then drawn on the faces
of the box seen from above and to the right, each lit differently, with a
soft shadow on the ground.  Perspective, light and blur are Pillow's.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..definitions.model import Deck
from ..definitions.presets import Paper
from ..faces.drawn import SideSource
from ..imposition.boxnet import CARD_THICKNESS
from ..render.boxpdf import draw_box_page
from ..render.pagepng import render_pages
from ..units import MM_PER_INCH
from .boxfile import plan_box
from .showpictures import Ground, Quad, place, shadow_of, warp

if TYPE_CHECKING:
    from PIL import Image

YAW, PITCH = 32.0, 22.0  # degrees: the box turned to show its right side, seen from above
DISTANCE = 4.0  # the camera's distance, in the box's largest dimension
LIGHT = {"top": 1.12, "front": 1.0, "side": 0.7}  # brightness of each face
INSIDE = 0.45  # the inside's brightness against the box's colour
_MOST_DPI = 600.0

Point3 = tuple[float, float, float]


def _project(point: Point3, size: float) -> tuple[float, float]:
    """A point of the box (x right, y up, z towards the viewer; mm round its centre) on the picture (y down)."""
    x, y, z = point
    a, b = math.radians(YAW), math.radians(PITCH)
    x, z = x * math.cos(a) - z * math.sin(a), x * math.sin(a) + z * math.cos(a)
    y, z = y * math.cos(b) - z * math.sin(b), y * math.sin(b) + z * math.cos(b)
    depth = DISTANCE * size / (DISTANCE * size - z)
    return x * depth, -y * depth


def box_faces(width: float, height: float, depth: float) -> dict[str, Quad]:
    """The front, right side and top of a box as quads on the picture (top-left, top-right, bottom-right,
    bottom-left of each panel as it is printed)."""
    w, h, d = width / 2, height / 2, depth / 2
    size = max(width, height, depth)

    def quad(*corners: Point3) -> Quad:
        return tuple(_project(c, size) for c in corners)  # type: ignore[return-value]

    return {
        "front": quad((-w, h, d), (w, h, d), (w, -h, d), (-w, -h, d)),
        "side": quad((w, h, d), (w, h, -d), (w, -h, -d), (w, -h, d)),
        "top": quad((-w, h, -d), (w, h, -d), (w, h, d), (-w, h, d)),
    }


def _panels(source: SideSource, deck: Deck, paper: Paper, thickness: float, dpi: float) -> dict[str, Image.Image]:
    """The front, side and top as the box's page prints them, at ``dpi``, each upright as it shows on the box."""
    from PIL import Image, ImageDraw

    box, sheet = plan_box(deck, paper, thickness)
    page = draw_box_page(source, deck, box, sheet, "")
    scale = dpi / MM_PER_INCH
    real = sheet.paper
    image = next(render_pages(page, (round(real.width * scale), round(real.height * scale)))).convert("RGBA")
    w, h = box.size
    across, down = (h, w) if sheet.turned else (w, h)
    left, top = round(sheet.x * scale), round(sheet.y * scale)
    net = image.crop((left, top, left + round(across * scale), top + round(down * scale)))
    if sheet.turned:  # the page has the net a quarter turn clockwise
        net = net.transpose(Image.Transpose.ROTATE_90)
    x0, y0 = min(p[0] for p in box.outline), min(p[1] for p in box.outline)
    cut = Image.new("L", net.size, 0)
    ImageDraw.Draw(cut).polygon([((x - x0) * scale, (y - y0) * scale) for x, y in box.outline], fill=255)
    net.putalpha(cut)

    def panel(name: str) -> Image.Image:
        p = box.panels[name]
        return net.crop(
            (round((p.x - x0) * scale), round((p.y - y0) * scale), round((p.right - x0) * scale), round((p.bottom - y0) * scale))
        )

    return {"front": panel("front"), "side": panel("side-1"), "top": panel("lid").transpose(Image.Transpose.ROTATE_180)}


def box_picture(
    source: SideSource, deck: Deck, paper: Paper, size: tuple[int, int], ground: Ground, thickness: float = CARD_THICKNESS
) -> Image.Image:
    """The deck's tuck box standing on ``ground``, seen from above and to its right, filling ``size``."""
    from PIL import Image, ImageDraw, ImageEnhance

    box, _ = plan_box(deck, paper, thickness)
    faces = box_faces(box.width, box.height, box.depth)
    points = [p for q in faces.values() for p in q]
    floor = [_project(c, max(box.width, box.height, box.depth)) for c in _floor(box.width, box.height, box.depth)]
    x0, y0 = min(p[0] for p in points + floor), min(p[1] for p in points)
    x1, y1 = max(p[0] for p in points + floor), max(p[1] for p in points + floor)
    margin = 0.1 * min(size)
    scale = min((size[0] - 2 * margin) / (x1 - x0), (size[1] - 2 * margin) / (y1 - y0))
    dx, dy = (size[0] - (x1 - x0) * scale) / 2 - x0 * scale, (size[1] - (y1 - y0) * scale) / 2 - y0 * scale

    def placed(quad) -> Quad:
        return tuple((x * scale + dx, y * scale + dy) for x, y in quad)  # type: ignore[return-value]

    dpi = min(_MOST_DPI, scale * MM_PER_INCH * 1.5)
    panels = _panels(source, deck, paper, thickness, dpi)
    out = ground.canvas(size)
    ground_quad = placed(floor)
    left, top = math.floor(min(x for x, _ in ground_quad)), math.floor(min(y for _, y in ground_quad))
    footprint = Image.new(
        "RGBA", (math.ceil(max(x for x, _ in ground_quad)) - left, math.ceil(max(y for _, y in ground_quad)) - top)
    )
    ImageDraw.Draw(footprint).polygon([(x - left, y - top) for x, y in ground_quad], fill=(0, 0, 0, 255))
    place(out, shadow_of((footprint, (left, top)), box.width * scale * 1.6, 1.6))
    front = panels["front"]
    field = front.convert("RGB").getpixel((front.width // 50, front.height // 2))  # the box's colour at the front's edge
    assert isinstance(field, tuple)
    inside = Image.new("RGBA", front.size, (*(round(c * INSIDE) for c in field), 255))  # seen through the notch
    place(out, warp(inside, placed(faces["front"])))
    for name in ("top", "side", "front"):
        lit = ImageEnhance.Brightness(panels[name].convert("RGB")).enhance(LIGHT[name]).convert("RGBA")
        lit.putalpha(panels[name].getchannel("A"))
        place(out, warp(lit, placed(faces[name])))
    return out


def _floor(width: float, height: float, depth: float) -> list[Point3]:
    w, h, d = width / 2, height / 2, depth / 2
    return [(-w, -h, d), (w, -h, d), (w, -h, -d), (-w, -h, -d)]
