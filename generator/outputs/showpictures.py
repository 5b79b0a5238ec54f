"""Pictures of a game for its page: a hand of cards fanned, a deck spread in a grid, cards standing in perspective.

Every picture is laid out first in units of one card's width (pure
arithmetic), then scaled to fill the asked size, and only then are the cards
rasterised, at exactly the width they show at (see :mod:`.cardpictures`):
nothing is drawn twice or scaled after drawing.  Rotation, perspective, blur
and the fading of reflections are Pillow's own operations
(``Image.rotate``, ``Image.transform`` with ``PERSPECTIVE``,
``ImageFilter.GaussianBlur``); no pixel is touched one by one here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]  # top-left, top-right, bottom-right, bottom-left
Pictures = Callable[[int], list["Image.Image"]]  # the cards' pictures at a width in pixels

MARGIN = 0.07  # of the picture's shorter side, kept clear round what is shown
FAN_STEP = 9.0  # degrees between two cards of a hand
FAN_MOST = 64.0  # degrees from the first card of a hand to the last
FAN_RADIUS = 2.4  # card widths from the hand's pivot to each card's centre
GRID_GAP = 0.08  # card widths between cards of a spread
SHOWCASE_TURN = 26.0  # degrees the outermost standing card is turned
SHOWCASE_GAP = 0.06  # card widths between standing cards
SHADOW = (0.045, 0.035, 0.05, 110)  # a card's shadow: blur, offset x, offset y (card widths), darkness (0-255)
REFLECTION = (0.32, 0.45)  # a reflection's opacity where it meets the card, and how far down it fades (card heights)


@dataclass(frozen=True)
class Ground:
    """What the cards lie on: a colour (RGB), or nothing (a transparent picture)."""

    colour: tuple[int, int, int] | None

    def canvas(self, size: tuple[int, int]) -> Image.Image:
        from PIL import Image

        if self.colour is None:
            return Image.new("RGBA", size, (0, 0, 0, 0))
        return Image.new("RGBA", size, (*self.colour, 255))


def perspective(source: Quad, target: Quad) -> tuple[float, ...]:
    """The eight coefficients of ``Image.transform(..., PERSPECTIVE, ...)`` taking ``source`` corners (in the
    picture drawn) to ``target`` corners (in the picture made): Pillow asks for the map from target to source."""
    import numpy as np

    rows, values = [], []
    for (x, y), (u, v) in zip(target, source):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values += [u, v]
    return tuple(float(c) for c in np.linalg.solve(np.array(rows, dtype=float), np.array(values, dtype=float)))


Piece = tuple["Image.Image", tuple[int, int]]  # a picture and where its top-left corner goes (pixels)


def place(out: Image.Image, piece: Piece) -> None:
    """Composite ``piece`` over ``out`` where it goes, the part outside ``out`` left off."""
    picture, (x, y) = piece
    left, top = max(0, -x), max(0, -y)
    right, bottom = min(picture.width, out.width - x), min(picture.height, out.height - y)
    if right > left and bottom > top:
        out.alpha_composite(picture, (x + left, y + top), (left, top, right, bottom))


def warp(picture: Image.Image, target: Quad) -> Piece:
    """``picture`` drawn with its corners at ``target``: the bounds of the quad, and where they go."""
    from PIL import Image

    w, h = picture.size
    x0, y0 = math.floor(min(p[0] for p in target)), math.floor(min(p[1] for p in target))
    x1, y1 = math.ceil(max(p[0] for p in target)), math.ceil(max(p[1] for p in target))
    source: Quad = ((0, 0), (w, 0), (w, h), (0, h))
    local: Quad = tuple((x - x0, y - y0) for x, y in target)  # type: ignore[assignment]
    drawn = picture.transform(
        (max(1, x1 - x0), max(1, y1 - y0)), Image.Transform.PERSPECTIVE, perspective(source, local), Image.Resampling.BICUBIC
    )
    return drawn, (x0, y0)


def shadow_of(piece: Piece, width: float, strength: float = 1.0) -> Piece:
    """A soft shadow of what ``piece`` shows (cards ``width`` pixels wide), offset down and to the right."""
    from PIL import Image, ImageFilter

    picture, (x, y) = piece
    blur, dx, dy, dark = SHADOW
    room = math.ceil(3 * blur * width)
    alpha = Image.new("L", (picture.width + 2 * room, picture.height + 2 * room), 0)
    alpha.paste(picture.getchannel("A").point(lambda a: a * dark * strength // 255), (room, room))
    shadow = Image.new("RGBA", alpha.size, (0, 0, 0, 0))
    shadow.putalpha(alpha.filter(ImageFilter.GaussianBlur(blur * width)))
    return shadow, (x - room + round(dx * width), y - room + round(dy * width))


def _fit(boxes: Sequence[tuple[float, float, float, float]], size: tuple[int, int]) -> tuple[float, float, float]:
    """(scale, dx, dy) taking unit-width coordinates whose bounds are ``boxes`` (x0, y0, x1, y1) to pixels,
    centred in ``size`` with :data:`MARGIN` clear round them."""
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    margin = MARGIN * min(size)
    scale = min((size[0] - 2 * margin) / (x1 - x0), (size[1] - 2 * margin) / (y1 - y0))
    return scale, (size[0] - (x1 - x0) * scale) / 2 - x0 * scale, (size[1] - (y1 - y0) * scale) / 2 - y0 * scale


def _rotated_corners(cx: float, cy: float, w: float, h: float, degrees: float) -> list[Point]:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return [
        (cx + x * c - y * s, cy + x * s + y * c) for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
    ]


def fan_layout(count: int, aspect: float) -> list[tuple[float, float, float]]:
    """Each card of a hand of ``count`` as (centre x, centre y, clockwise degrees), a card being 1 wide and
    ``aspect`` high: spread on an arc round a pivot below the hand, as fingers hold them."""
    spread = min(FAN_STEP * (count - 1), FAN_MOST)
    out = []
    for i in range(count):
        angle = -spread / 2 + (spread * i / (count - 1) if count > 1 else 0.0)
        a = math.radians(angle)
        radius = FAN_RADIUS + aspect / 2
        out.append((radius * math.sin(a), -radius * math.cos(a), angle))
    return out


def fan_placements(count: int, aspect: float, size: tuple[int, int]) -> tuple[int, list[tuple[float, float, float]]]:
    """The width in pixels of the cards of a hand of ``count`` filling ``size``, and each card's centre (pixels) and
    clockwise turn (degrees)."""
    layout = fan_layout(count, aspect)
    boxes = []
    for cx, cy, angle in layout:
        corners = _rotated_corners(cx, cy, 1.0, aspect, angle)
        boxes.append(
            (min(p[0] for p in corners), min(p[1] for p in corners), max(p[0] for p in corners), max(p[1] for p in corners))
        )
    scale, dx, dy = _fit(boxes, size)
    return max(1, round(scale)), [(cx * scale + dx, cy * scale + dy, angle) for cx, cy, angle in layout]


def hand_picture(pictures: Pictures, count: int, aspect: float, size: tuple[int, int], ground: Ground) -> Image.Image:
    """``count`` cards held as a hand, fanned left to right, each with its shadow, on ``ground``."""
    from PIL import Image

    width, placements = fan_placements(count, aspect, size)
    out = ground.canvas(size)
    for picture, (cx, cy, angle) in zip(pictures(width), placements):
        turned = picture.rotate(-angle, Image.Resampling.BICUBIC, expand=True) if angle else picture
        piece: Piece = (turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
        place(out, shadow_of(piece, width))
        place(out, piece)
    return out


def grid_columns(count: int, aspect: float, size: tuple[int, int]) -> int:
    """The number of columns that shows ``count`` cards largest in ``size``."""

    def card_width(cols: int) -> float:
        rows = math.ceil(count / cols)
        return min(size[0] / (cols + (cols - 1) * GRID_GAP), size[1] / (rows * aspect + (rows - 1) * GRID_GAP))

    return max(range(1, max(count, 1) + 1), key=lambda cols: (card_width(cols), -cols))


def spread_picture(pictures: Pictures, count: int, aspect: float, size: tuple[int, int], ground: Ground) -> Image.Image:
    """``count`` cards in a tidy grid, in deck order, each with a soft shadow, on ``ground``."""
    from PIL import Image

    cols = grid_columns(count, aspect, size)
    rows = math.ceil(count / cols)
    step_x, step_y = 1 + GRID_GAP, aspect + GRID_GAP
    boxes = [(0.0, 0.0, cols * step_x - GRID_GAP, rows * step_y - GRID_GAP)]
    scale, dx, dy = _fit(boxes, size)
    width = max(1, math.floor(scale))
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    last_row = count - (rows - 1) * cols  # the last row is centred under the others
    for i, picture in enumerate(pictures(width)):
        row, col = divmod(i, cols)
        shift = (cols - last_row) * step_x / 2 if row == rows - 1 else 0.0
        layer.alpha_composite(picture, (round((col * step_x + shift) * scale + dx), round(row * step_y * scale + dy)))
    out = ground.canvas(size)
    place(out, shadow_of((layer, (0, 0)), width, 0.8))
    out.alpha_composite(layer)
    return out


def standing_quads(count: int, aspect: float) -> list[Quad]:
    """The corners of ``count`` cards standing in a row on a floor, the outer ones turned towards the middle, seen
    from the height of their middles (a card 1 wide, ``aspect`` high)."""
    quads = []
    x = 0.0
    middle = (count - 1) / 2
    for i in range(count):
        share = (i - middle) / middle if middle else 0.0
        turn = math.radians(SHOWCASE_TURN * share)
        width = math.cos(turn)
        far = 1 - 0.38 * abs(math.sin(turn))  # the far edge's height, as a share of the near edge's
        near_h, far_h = aspect / 2, aspect * far / 2
        left, right = (far_h, near_h) if share > 0 else (near_h, far_h)  # the outer edge is the nearer
        quads.append(((x, -left), (x + width, -right), (x + width, right), (x, left)))
        x += width + SHOWCASE_GAP
    return quads


def _reflected(quad: Quad) -> Quad:
    """The quad mirrored in the floor under it: each vertical edge continued downwards by its own height."""
    (x0, t0), (x1, t1), (_, b1), (_, b0) = quad
    return ((x0, b0), (x1, b1), (x1, 2 * b1 - t1), (x0, 2 * b0 - t0))


def _faded(picture: Image.Image) -> Image.Image:
    """``picture`` upside down, fading from :data:`REFLECTION`'s opacity at its top to nothing."""
    from PIL import Image, ImageChops

    opacity, reach = REFLECTION
    flipped = picture.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    h = flipped.height
    fade = Image.linear_gradient("L").resize((1, 256)).point(lambda v: max(0, 255 - v * 255 // max(1, round(255 * reach))))
    fade = fade.resize((flipped.width, h), Image.Resampling.BILINEAR).point(lambda v: v * opacity)
    flipped.putalpha(ImageChops.multiply(flipped.getchannel("A"), fade))
    return flipped


def showcase_picture(pictures: Pictures, count: int, aspect: float, size: tuple[int, int], ground: Ground) -> Image.Image:
    """``count`` cards standing in perspective on a glossy floor: each with its reflection and a soft shadow."""
    from PIL import ImageFilter

    quads = standing_quads(count, aspect)
    every = [p for q in quads for p in (*q, *_reflected(q)[2:])]
    reach = REFLECTION[1]
    boxes = [(min(p[0] for p in every), min(p[1] for p in every), max(p[0] for p in every), aspect / 2 + aspect * reach)]
    scale, dx, dy = _fit(boxes, size)
    width = max(1, round(scale))
    out = ground.canvas(size)
    standing = []
    for picture, quad in zip(pictures(width), quads):
        placed: Quad = tuple((x * scale + dx, y * scale + dy) for x, y in quad)  # type: ignore[assignment]
        mirrored: Quad = tuple((x * scale + dx, y * scale + dy) for x, y in _reflected(quad))  # type: ignore[assignment]
        reflection, at = warp(_faded(picture), mirrored)
        place(out, (reflection.filter(ImageFilter.GaussianBlur(0.006 * width)), at))
        place(out, _foot(placed, width))
        standing.append(warp(picture, placed))
    for piece in standing:  # the cards over every reflection and shadow
        place(out, piece)
    return out


def _foot(quad: Quad, width: int) -> Piece:
    """The soft shadow where a standing card meets the floor."""
    from PIL import Image, ImageDraw, ImageFilter

    (x0, _), (x1, _), (_, b1), (_, b0) = quad
    lift, room = 0.03 * width, math.ceil(0.05 * width)
    left, top = math.floor(x0) - room, math.floor(min(b0, b1) - lift) - room
    band = Image.new("RGBA", (math.ceil(x1 - x0) + 2 * room, math.ceil(abs(b1 - b0) + 2 * lift) + 2 * room), (0, 0, 0, 0))
    corners = [(x0, b0 - lift), (x1, b1 - lift), (x1, b1 + lift), (x0, b0 + lift)]
    ImageDraw.Draw(band).polygon([(x - left, y - top) for x, y in corners], fill=(0, 0, 0, 90))
    return band.filter(ImageFilter.GaussianBlur(0.012 * width)), (left, top)


def encoded(picture: Image.Image, kind: str, dpi: float, transparent: bool) -> bytes:
    """The picture as ``kind`` ("png" or "webp") bytes, with ``dpi`` recorded; no timestamps, so the same picture
    gives the same bytes."""
    import io

    image = picture if transparent else picture.convert("RGB")
    buffer = io.BytesIO()
    if kind == "webp":
        image.save(buffer, format="WEBP", quality=92, method=6)
    else:
        image.save(buffer, format="PNG", compress_level=6, dpi=(dpi, dpi))
    return buffer.getvalue()
