"""``aetherpress export pod|tts|png|svg DECK...``: card files for print shops and virtual tables.

- ``pod``: a file set per print shop of ``shops.toml``: ``<slug>-drivethrucards.pdf``
  (PDF/X-4 or PDF/X-1a, one card side per page with bleed, back 1, front 1,
  back 2, front 2..., process CMYK through an ICC profile within the ink limit)
  and PNG folders (``thegamecrafter/``, ``makeplayingcards/``: RGB at the
  shop's pixel sizes); with ``proof``, a proof of each distinct side drawn from
  the shop's own PDF beside its design (:mod:`.shopproof`).
- ``png``: one PNG per face and per back at ``--dpi`` with ``--bleed``.
- ``svg``: one SVG per face and per back with ``--bleed``.
- ``tts``: Tabletop Simulator deck sheets, back image and deck JSON.

Everything goes to ``<output>/<slug>/<kind>/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..definitions.model import Card, Deck
from ..definitions.shops import POD_BLEED, Shop, load_shops
from ..faces.drawn import SideSource
from ..project import Project
from ..project.files import write_bytes, write_text
from ..render.cardpdf import card_pdf_bytes, shop_pdfx
from ..render.colour import ProcessColour
from ..render.icc import STOCKS, OutputProfile, shipped_profile
from ..render.inks import InkJob, ghostscript
from ..render.pagepng import png_files, render_pages
from ..render.presspiece import FLATTEN_DPI, Press
from ..units import pixels, pt
from .shopproof import LIMIT, SideProof, proof_files, shop_proofs, start_inks


def card_sides(deck: Deck) -> list[tuple[Card, str, str]]:
    """(card, side, file stem) for every face, then every distinct back."""
    out: list[tuple[Card, str, str]] = [(card, "front", card.id) for card in deck.cards]
    seen = set()
    for card in deck.cards:
        back = deck.back_for(card)
        if back not in seen:
            seen.add(back)
            out.append((card, "back", f"back-{back}"))
    return out


def _side_images(
    source: SideSource,
    deck: Deck,
    bleed: float,
    size: tuple[int, int],
    dpi: float,
    greyscale: bool = False,
    progress=None,
    drawn: float | None = None,
):
    """(file stem, RGB image of ``size`` pixels, ``dpi``) for every face and distinct back, with ``bleed``: the
    sides as drawn with ``drawn`` bleed (at least ``bleed``; default ``bleed``), cut to ``bleed``."""
    drawn = bleed if drawn is None else drawn
    sides = card_sides(deck)
    pdf = card_pdf_bytes(source, deck, drawn, [(card, side) for card, side, _ in sides], greyscale, dpi)
    pages = render_pages(pdf, size, pt(drawn - bleed))
    for n, ((_card, _side, stem), image) in enumerate(zip(sides, pages)):
        yield stem, image
        if progress:
            progress(n + 1, len(sides))


def export_png(
    source: SideSource,
    deck: Deck,
    folder: Path,
    dpi: float = 300,
    bleed: float = POD_BLEED,
    greyscale: bool = False,
    progress=None,
) -> list[Path]:
    """One RGB PNG per face (``<card id>.png``) and per back (``back-<name>.png``), with bleed."""
    size = (pixels(deck.size.width + 2 * bleed, dpi), pixels(deck.size.height + 2 * bleed, dpi))
    images = (
        (folder / f"{stem}.png", image) for stem, image in _side_images(source, deck, bleed, size, dpi, greyscale, progress)
    )
    files = dict(png_files(images, dpi))
    return [write_bytes(path, data) for path, data in files.items()]


def export_svg(source: SideSource, deck: Deck, folder: Path, bleed: float = POD_BLEED) -> list[Path]:
    sides = source.sides(deck, bleed=bleed)
    rendered = {folder / f"{stem}.svg": sides.side(card, side).svg for card, side, stem in card_sides(deck)}
    return [write_text(path, text) for path, text in rendered.items()]


@dataclass(frozen=True)
class PodOptions:
    """How print-shop files are made: which shops, PDF/X level, paper stock or profile, ink limit, proofs."""

    greyscale: bool = False
    copies: int = 1
    pdfx: str | None = None  # PDF/X version; default: what each shop asks for
    stock: str = "coated"
    profile: OutputProfile | None = None  # a project's own CMYK profile (--icc); else the stock's
    ink_limit: float | None = None  # 3.0 = 300 %; default: the stock's, at most the shop's
    proof: bool = False
    shops: tuple[str, ...] = ()  # ids; empty: every shop

    def output_profile(self) -> OutputProfile:
        return self.profile or shipped_profile(self.stock)

    def shop_profile(self, shop: Shop) -> OutputProfile:
        """The profile of ``shop``'s file: the ``--icc`` profile, named in the output intent by the condition the
        shop's guide names when it is that condition's profile; else the stock's."""
        profile = self.output_profile()
        if shop.intent is not None and self.profile is not None and _same_name(profile.condition, shop.intent.condition):
            return OutputProfile(profile.data, shop.intent.identifier, shop.intent.condition, registered=True)
        return profile

    def process(self, shop: Shop) -> ProcessColour:
        """The CMYK conversion for ``shop``: ``ink_limit`` if given, else the stock's limit capped by the shop's."""
        limit = self.ink_limit
        if limit is None:
            limit = STOCKS[self.stock].ink_limit
            if shop.ink_limit is not None:
                limit = min(limit, shop.ink_limit)
        return ProcessColour(self.shop_profile(shop), limit, self.greyscale)


def _same_name(one: str, other: str) -> bool:
    """Do two profile names name one profile ("U.S. Web Coated (SWOP) v2" and "US Web Coated (SWOP) v2")?"""
    return "".join(c for c in one.lower() if c.isalnum()) == "".join(c for c in other.lower() if c.isalnum())


def other_condition(shop: Shop, profile: OutputProfile) -> str | None:
    """A line saying so when ``shop``'s guide names a printing condition its file is not separated for."""
    if shop.intent is None or profile.identifier == shop.intent.identifier:
        return None
    return (
        f"{shop.name} names {shop.intent.condition} ({shop.intent.identifier}) as its printing condition; its file "
        f"is separated for {profile.condition}, since that profile cannot be shipped under a free licence: "
        f"give it with --icc FILE to separate for the shop's condition"
    )


def chosen_shops(project: Project, ids: Sequence[str] = ()) -> list[Shop]:
    shops = load_shops(project)
    return [shops[i] for i in ids] if ids else list(shops.values())


def shop_files(deck: Deck, shop: Shop, name: str) -> bool:
    """Whether ``name`` (a path in a deck's ``pod/`` folder) is one of the files :func:`export_pod` writes for ``shop``."""
    return name == f"{deck.slug}-{shop.id}.pdf" or name.startswith((f"{shop.id}/", f"{shop.id}-proof/"))


def export_pod(
    source: SideSource,
    deck: Deck,
    folder: Path,
    options: PodOptions | None = None,
    progress=None,
    warnings: list[str] | None = None,
) -> list[Path]:
    """Every chosen shop's files for ``deck``; everything is drawn before anything is written.

    Each shop's PDF is checked against the design, side by side, when Ghostscript is there to render it (always,
    with ``options.proof``, which also writes the proofs): a side that prints otherwise than it was designed is
    told in ``warnings``, one line each."""
    options = options or PodOptions()
    files: dict[Path, bytes] = {}
    checks: list[tuple[Shop, ProcessColour, bytes, InkJob]] = []  # Ghostscript renders each while the rest is drawn
    try:
        for shop in chosen_shops(source.project, options.shops):
            if shop.format == "pdf":
                process = options.process(shop)
                said = other_condition(shop, process.profile)
                if said is not None and warnings is not None and said not in warnings:
                    warnings.append(said)
                press = Press(process, max(shop.dpi, FLATTEN_DPI), shop.dpi)
                pdf = shop_pdfx(source, deck, shop.bleed, press, options.pdfx or shop.pdfx, options.copies)
                files[folder / f"{deck.slug}-{shop.id}.pdf"] = pdf
                if options.proof or ghostscript():
                    checks.append((shop, process, pdf, start_inks(deck, shop, pdf, card_sides(deck), options.copies)))
            else:
                size = shop.image_size(deck.size)
                drawn = max(shop.bleed, POD_BLEED)  # a narrower bleed is cut from the sides the other shops print
                images = _side_images(source, deck, shop.bleed, size, shop.dpi, options.greyscale, progress, drawn)
                files.update(png_files(((folder / shop.id / f"{stem}.png", image) for stem, image in images), shop.dpi))
        for shop, process, pdf, inks in checks:
            proofs = shop_proofs(source, deck, shop, process, pdf, card_sides(deck), options.copies, options.proof, inks)
            if options.proof:
                files.update(proof_files(proofs, folder / f"{shop.id}-proof"))
            if warnings is not None:
                warnings += [_differs(deck, shop, proof, folder, options.proof) for proof in proofs if proof.share > LIMIT]
    finally:
        for *_, inks in checks:
            inks.close()
    return [write_bytes(path, data) for path, data in files.items()]


def _differs(deck: Deck, shop: Shop, proof: SideProof, folder: Path, written: bool) -> str:
    where = str(proof.card.origin) if proof.card.origin is not None else deck.source
    what = f"card '{proof.card.id}'" if proof.side == "front" else f"the back '{proof.stem.removeprefix('back-')}'"
    see = f"; see {folder.name}/{shop.id}-proof/{proof.stem}.png" if written else "; export pod --proof shows where"
    return (
        f"{where}: {what} of deck '{deck.key}' prints otherwise than designed in the {shop.name} file: "
        f"{proof.share * 100:.1f} % of its pixels differ (more than {LIMIT * 100:g} %){see}"
    )
