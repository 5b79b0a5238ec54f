"""The proof of a print shop's PDF, drawn from the file that ships, beside the design, with what differs marked.

For every distinct side of the deck (each face, each back once) the shop's
own PDF is rendered as its inks (Ghostscript, :mod:`..render.inks`) and seen
on the paper through the file's profile; the design is drawn as every RGB
output draws it (``export png``, the preview's 300 dpi raster) and seen
through the same profile, so a colour the press cannot print is not counted
as a fault.  The two are compared after a small blur, so anti-aliasing at an
edge is no difference; a pixel differs when a channel moves by more than
:data:`TOLERANCE`.  A side whose share of differing pixels is over
:data:`LIMIT` is reported, and its proof picture shows where.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from ..definitions.model import Card, Deck
from ..definitions.shops import Shop
from ..faces.drawn import SideSource
from ..locations import FONTS_DIR
from ..render.cardpdf import card_pdf_bytes
from ..render.colour import ProcessColour
from ..render.inks import InkJob
from ..render.pagepng import png_bytes, render_pages
from ..render.sheetpdf import job_cards
from ..resources.cores import in_threads
from ..units import pixels

PROOF_DPI = 150
LIMIT = 0.01  # share of a side's pixels
TOLERANCE = 40  # of 255, in any channel, after the blur
BLUR = 1.5  # px at the proof's resolution
_CAPTION = 22  # px under each picture
_GAP = 12  # px between pictures
_MARK = (230, 0, 126)


@dataclass(frozen=True)
class SideProof:
    """One side's proof: its file stem, the share of its pixels that differ, and the picture to look at."""

    stem: str
    card: Card
    side: str
    share: float
    picture: bytes  # PNG (empty when none was asked for)


def _pages(deck: Deck, copies: int, sides: list[tuple[Card, str, str]]) -> list[int]:
    """The 1-based page of the shop's PDF that prints each side (pages go back, front, back, front ...)."""
    order = [(job.card, side) for job in job_cards([deck], copies) for side in ("back", "front")]
    found = []
    for card, side, _ in sides:
        if side == "front":
            found.append(next(n for n, (c, s) in enumerate(order) if s == "front" and c.id == card.id) + 1)
        else:
            back = deck.back_for(card)
            found.append(next(n for n, (c, s) in enumerate(order) if s == "back" and deck.back_for(c) == back) + 1)
    return found


def _soft(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB").filter(ImageFilter.GaussianBlur(BLUR)), dtype=np.int16)


def differing(design: Image.Image, printed: Image.Image) -> np.ndarray:
    """Which pixels of two pictures of one side differ (a boolean mask)."""
    a, b = _soft(design), _soft(printed)
    if a.shape != b.shape:
        return np.ones(a.shape[:2], dtype=bool)
    return np.abs(a - b).max(axis=2) > TOLERANCE


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS_DIR / "SourceSans3-Regular.ttf"), size)


def _panel(pictures: list[tuple[Image.Image, str]]) -> bytes:
    """The pictures in a row, each captioned, as PNG bytes."""
    w = sum(p.width for p, _ in pictures) + _GAP * (len(pictures) + 1)
    h = max(p.height for p, _ in pictures) + _CAPTION + 2 * _GAP
    sheet = Image.new("RGB", (w, h), (232, 232, 232))  # a neutral grey: a greyscale proof stays grey
    draw = ImageDraw.Draw(sheet)
    font = _font(13)
    x = _GAP
    for picture, caption in pictures:
        sheet.paste(picture.convert("RGB"), (x, _GAP))
        draw.text((x, _GAP + picture.height + 4), caption, fill=(40, 40, 40), font=font)
        x += picture.width + _GAP
    return png_bytes(sheet, PROOF_DPI)


def _marked(printed: Image.Image, mask: np.ndarray) -> Image.Image:
    """The printed side dimmed, its differing pixels in magenta."""
    faded = (np.asarray(printed.convert("RGB"), dtype=np.float32) * 0.35 + 255 * 0.65).astype(np.uint8)
    faded[mask] = _MARK
    return Image.fromarray(faded, "RGB")


def _size(deck: Deck, shop: Shop) -> tuple[int, int]:
    """A side's proof in pixels, with the shop's bleed."""
    return (pixels(deck.size.width + 2 * shop.bleed, PROOF_DPI), pixels(deck.size.height + 2 * shop.bleed, PROOF_DPI))


def start_inks(deck: Deck, shop: Shop, pdf: bytes, sides: list[tuple[Card, str, str]], copies: int = 1) -> InkJob:
    """Ghostscript set rendering the pages of the shop's ``pdf`` that print ``sides``, in a process of its own: the
    caller may go on with other work before the proof (:func:`shop_proofs`) takes them."""
    return InkJob(pdf, _pages(deck, copies, sides), _size(deck, shop))


def shop_proofs(
    source: SideSource,
    deck: Deck,
    shop: Shop,
    process: ProcessColour,
    pdf: bytes,
    sides: list[tuple[Card, str, str]],
    copies: int = 1,
    pictures: bool = True,
    inks: InkJob | None = None,
) -> list[SideProof]:
    """Each of ``sides`` (card, side, file stem) as the shop's PDF ``pdf`` prints it, beside its design (see the
    module's words); ``pictures=False``: the shares alone, no picture made (the check without ``--proof``).
    ``inks``: the file's rendering as inks when the caller started it already (:func:`start_inks`)."""
    job = inks if inks is not None else start_inks(deck, shop, pdf, sides, copies)
    try:
        size = _size(deck, shop)
        design_pdf = card_pdf_bytes(
            source, deck, shop.bleed, [(card, side) for card, side, _ in sides], process.greyscale, shop.dpi
        )
        designs = list(render_pages(design_pdf, size))
        printed_pages = job.pages()
    finally:
        job.close()

    def proved(one: tuple[tuple[Card, str, str], Image.Image, Image.Image]) -> SideProof:
        (card, side, stem), design, printed = one
        seen = process.proof(design)  # the design on this paper
        shown = process.profile.view(printed)  # the file on this paper
        mask = differing(seen, shown)
        share = float(mask.mean())
        if not pictures:
            return SideProof(stem, card, side, share, b"")
        panel = [
            (design, "as designed (the preview)"),
            (shown, f"the {shop.name} file as printed"),
            (_marked(shown, mask), f"differs: {share * 100:.2f} % of pixels"),
        ]
        return SideProof(stem, card, side, share, _panel(panel))

    return list(in_threads(proved, zip(sides, designs, printed_pages, strict=True)))


def proof_files(proofs: list[SideProof], folder: Path) -> dict[Path, bytes]:
    return {folder / f"{p.stem}.png": p.picture for p in proofs}


__all__ = ["LIMIT", "PROOF_DPI", "SideProof", "differing", "proof_files", "shop_proofs", "start_inks"]
