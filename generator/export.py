"""``aetherpress export pod|tts|png|svg DECK...``: card files for print shops and virtual tables.

- ``pod``: ``<slug>-drivethrucards.pdf`` (one card side per page with 1/8"
  bleed, back 1, front 1, back 2, front 2..., every colour process CMYK within
  240 % total ink) and ``thegamecrafter/`` PNGs
  (RGB, 300 dpi, 1/8" bleed: a poker card is 825 x 1125 px).
- ``png``: one PNG per face and per back at ``--dpi`` with ``--bleed``.
- ``svg``: one SVG per face and per back with ``--bleed``.
- ``tts``: Tabletop Simulator deck sheets, back image and deck JSON.

Everything goes to ``output/<slug>/<kind>/``.
"""
from __future__ import annotations

from pathlib import Path

from .errors import AetherpressError, Problem, display_path
from .faces import FaceRenderer
from .model import Card, Deck
from .pdf import card_pdf_bytes, write_card_pdf
from .project import Project
from .raster import pixels, png_bytes, render_pages
from .writers import write_bytes, write_text

POD_BLEED = 3.175  # 1/8 inch
KINDS = ("pod", "tts", "png", "svg")


def card_sides(deck: Deck) -> list[tuple[Card | None, str, str]]:
    """(card, side, file stem) for every face, then every distinct back."""
    out: list[tuple[Card | None, str, str]] = [(card, "front", card.id) for card in deck.cards]
    seen = set()
    for card in deck.cards:
        back = deck.back_for(card)
        if back not in seen:
            seen.add(back)
            out.append((card, "back", f"back-{back}"))
    return out


def export_png(project: Project, deck: Deck, folder: Path, dpi: float = 300, bleed: float = POD_BLEED,
               greyscale: bool = False, progress=None) -> list[Path]:
    """One RGB PNG per face (``<card id>.png``) and per back (``back-<name>.png``), with bleed."""
    sides = [s for s in card_sides(deck) if s[0] is not None]
    pdf = card_pdf_bytes(project, deck, bleed, [(card, side) for card, side, _ in sides], greyscale)
    size = (pixels(deck.size.width + 2 * bleed, dpi), pixels(deck.size.height + 2 * bleed, dpi))
    images = {}
    for n, ((card, side, stem), image) in enumerate(zip(sides, render_pages(pdf, size))):
        images[folder / f"{stem}.png"] = png_bytes(image, dpi)
        if progress:
            progress(n + 1, len(sides))
    return [write_bytes(path, data) for path, data in images.items()]


def export_svg(project: Project, deck: Deck, folder: Path, bleed: float = POD_BLEED) -> list[Path]:
    faces = FaceRenderer(project, deck, bleed=bleed)
    rendered = {}
    for card, side, stem in card_sides(deck):
        rendered[folder / f"{stem}.svg"] = faces.face(card) if side == "front" else faces.back(card)
    return [write_text(path, text) for path, text in rendered.items()]


def export_pod(project: Project, deck: Deck, folder: Path, greyscale: bool = False, copies: int = 1,
               progress=None) -> list[Path]:
    written = [write_card_pdf(project, deck, folder / f"{deck.slug}-drivethrucards.pdf", POD_BLEED,
                              greyscale, copies, process=True)]
    written += export_png(project, deck, folder / "thegamecrafter", 300, POD_BLEED, greyscale, progress)
    return written


def add_arguments(subparsers) -> None:
    p = subparsers.add_parser("export", help="card files for print shops (pod), Tabletop Simulator (tts), PNG or SVG")
    p.add_argument("kind", choices=KINDS, help="pod: DriveThruCards PDF + The Game Crafter PNGs; tts; png; svg")
    p.add_argument("decks", nargs="+", metavar="DECK[:VARIANT]")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: output/)")
    p.add_argument("--dpi", type=float, default=300, help="png: resolution (default 300)")
    p.add_argument("--bleed", type=float, default=POD_BLEED, metavar="MM",
                   help="png and svg: bleed around the trim (default 3.175 mm = 1/8 in)")
    p.add_argument("--copies", type=int, default=1, metavar="N", help="pod and tts: every card N times")
    p.add_argument("--greyscale", action="store_true", help="ink saver: every colour as grey")
    p.add_argument("--url-base", default=None, metavar="URL",
                   help="tts: where the images will be uploaded (default: file:// links to the written files)")


def run(project: Project, args) -> int:
    from .cli import resolve_decks
    from .printing import ProgressBar
    from .tts import export_tts

    if not (10 <= args.dpi <= 1200):
        raise AetherpressError(Problem("command line", f"--dpi {args.dpi:g} is outside 10..1200"))
    if not (0 <= args.bleed <= 10):
        raise AetherpressError(Problem("command line", f"--bleed {args.bleed:g} mm is outside 0..10 mm"))
    if args.copies < 1:
        raise AetherpressError(Problem("command line", f"--copies must be 1 or more, not {args.copies}"))
    decks = resolve_decks(project, args.decks)
    out = (args.out or project.output_dir).resolve()
    for deck in decks:
        folder = out / deck.slug / args.kind
        bar = ProgressBar(f"{deck.key} {args.kind}")
        try:
            if args.kind == "pod":
                written = export_pod(project, deck, folder, args.greyscale, args.copies, bar)
            elif args.kind == "png":
                written = export_png(project, deck, folder, args.dpi, args.bleed, args.greyscale, bar)
            elif args.kind == "svg":
                written = export_svg(project, deck, folder, args.bleed)
            else:
                written = export_tts(project, deck, folder, args.url_base, args.copies, args.greyscale, bar)
        finally:
            bar.close()
        print(f"{deck.key}: {len(written)} files in {display_path(folder)}")
    return 0
