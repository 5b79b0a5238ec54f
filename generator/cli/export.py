"""``aetherpress export pod|png|svg|tts [DECK ...]``: card files for print shops, images and virtual tables."""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..definitions.model import Deck
from ..definitions.schema import suggest
from ..definitions.shops import PDFX_LEVELS, POD_BLEED, load_shops
from ..errors import display_path
from ..locations import builtin_root
from ..pipeline.context import ProjectContext
from ..pipeline.drawncheck import print_differences
from ..project import Project
from ..project.files import writing_into
from ..project.staging import stage, staged_folders
from ..render.icc import STOCKS, load_profile
from ..render.inks import ghostscript, needs_ghostscript
from ..units import MAX_IMAGE_PIXELS, MM_PER_INCH, pixels

if TYPE_CHECKING:
    from ..outputs.cardfiles import PodOptions
from .common import (
    MAX_COPIES,
    check_slugs,
    cli_error,
    examples,
    languages_from_args,
    length,
    number,
    output_folder,
    resolve_decks,
    whole,
)

MAX_BLEED = 10.0  # mm


def _builtin_shop_ids() -> list[str]:
    """The ids of the print shops Aetherpress knows (``templates/shops.toml``), for the help."""
    with (builtin_root() / "templates" / "shops.toml").open("rb") as f:
        return list(tomllib.load(f).get("shops", {}))


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="card files for print shops (pod), PNG, SVG or Tabletop Simulator (tts)")
    examples(p, "aetherpress export pod --shop thegamecrafter", "aetherpress export png my-game --dpi 600")
    kinds = p.add_subparsers(dest="kind", required=True, metavar="pod|png|svg|tts")
    shops = _builtin_shop_ids()
    shown = {
        "pod": (
            f"aetherpress export pod --shop {shops[0]}   # one shop's files; the others' stay",
            "aetherpress export pod my-game --stock uncoated",
        ),
        "png": ("aetherpress export png my-game:small --dpi 600",),
        "svg": ("aetherpress export svg --bleed 0",),
        "tts": ("aetherpress export tts --url-base https://example.org/my-game/",),
    }

    def kind(name: str, help_text: str) -> argparse.ArgumentParser:
        k = kinds.add_parser(name, help=help_text)
        examples(k, *shown[name])
        k.add_argument(
            "decks",
            nargs="*",
            metavar="DECK[:VARIANT]",
            help="the decks to export (imperial, pernese:coloured ...; default: every deck of the project)",
        )
        k.add_argument("--out", type=Path, default=None, help="output folder (default: output/)")
        k.add_argument(
            "--lang",
            default=None,
            metavar="LANG[,LANG...]",
            help="the editions to export, by language code (default: the source language): output/<deck>-LANG/",
        )
        return k

    def copies(k: argparse.ArgumentParser, what: str) -> None:
        k.add_argument("--copies", type=whole(1, MAX_COPIES), default=1, metavar="N", help=f"every card N times in {what}")

    def bleed(k: argparse.ArgumentParser) -> None:
        k.add_argument(
            "--bleed",
            type=length(MAX_BLEED),
            default=POD_BLEED,
            metavar="MM",
            help="bleed round the trim (default 3.175 mm = 1/8 in)",
        )

    k = kind("pod", "print-shop files: DriveThruCards PDF/X (process CMYK), The Game Crafter and MakePlayingCards PNGs")
    copies(k, "the print-shop PDF")
    k.add_argument(
        "--greyscale", action="store_true", help="ink saver: every colour and picture as grey (black ink only in the PDF)"
    )
    k.add_argument(
        "--pdfx",
        choices=PDFX_LEVELS,
        default=None,
        help="PDF/X-4 (transparency kept), PDF/X-1a:2001 or PDF/X-1a:2003 (both flattened with Ghostscript); "
        "default: the version each shop asks for (DriveThruCards: 1a:2003)",
    )
    k.add_argument(
        "--stock",
        choices=tuple(STOCKS),
        default="coated",
        help="the paper: its shipped ICC profile and ink limit (default coated)",
    )
    k.add_argument(
        "--icc", type=Path, default=None, metavar="FILE", help="a CMYK printer profile of your own instead of the stock's"
    )
    k.add_argument(
        "--ink-limit",
        type=number(100, 400),
        default=None,
        metavar="PCT",
        help="total ink in percent (default: 300 coated, 240 uncoated, never above a shop's own limit)",
    )
    k.add_argument(
        "--proof",
        action="store_true",
        help="also write a proof of each distinct side: the shop's own PDF as its inks print on the paper, beside the "
        "design, with what differs marked (needs Ghostscript)",
    )
    k.add_argument(
        "--shop",
        action="append",
        default=None,
        metavar="NAME",
        help=f"only this shop: {', '.join(shops)} or one of the project's (may be repeated; default: every shop)",
    )
    k = kind("png", "one PNG per face and per back")
    k.add_argument("--dpi", type=number(10, 1200), default=300, help="resolution (default 300)")
    bleed(k)
    k.add_argument("--greyscale", action="store_true", help="every colour as grey")
    k = kind("svg", "one SVG per face and per back")
    bleed(k)
    k = kind("tts", "Tabletop Simulator deck sheets, back image and deck object")
    copies(k, "the deck object")
    k.add_argument("--greyscale", action="store_true", help="every colour as grey")
    k.add_argument(
        "--url-base",
        default=None,
        metavar="URL",
        help="where the images will be uploaded (default: file:// links to the written files)",
    )


def run(project: Project, args: argparse.Namespace) -> int:
    # the command's modules load when it runs, not for --help
    from ..outputs.cardfiles import export_png, export_pod, export_svg
    from ..outputs.progress import ProgressBar
    from ..outputs.tts import export_tts

    decks = resolve_decks(project, args.decks, languages=languages_from_args(args, every=False))
    check_slugs(decks)
    out = output_folder(args.out or project.output_dir)
    options = _pod_options(project, args) if args.kind == "pod" else None
    _check_image_sizes(project, decks, args, options)
    report = []
    warnings: list[str] = []
    context = ProjectContext(project)  # every side comes from here: drawn once, for a build or an export alike
    with writing_into(out), staged_folders() as stages:
        for deck in decks:
            target = out / deck.slug / args.kind
            folder = stage(stages, target, _other_shops(project, deck, options) if options is not None else None)
            bar = ProgressBar(f"{deck.key} {args.kind}")
            try:
                if args.kind == "pod":
                    assert options is not None
                    written = export_pod(context, deck, folder, options, bar, warnings)
                elif args.kind == "png":
                    written = export_png(context, deck, folder, args.dpi, args.bleed, args.greyscale, bar)
                elif args.kind == "svg":
                    written = export_svg(context, deck, folder, args.bleed)
                else:
                    written = export_tts(context, deck, folder, args.url_base, args.copies, args.greyscale, bar, target)
            finally:
                bar.close()
            report.append(f"{deck.key}: {len(written)} file{'' if len(written) == 1 else 's'} in {display_path(target)}")
    print("\n".join(report))
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for deck in decks:  # exported all the same, as build prints it, but never otherwise than shown without a word
        for problem in print_differences(context, deck):
            print(f"warning: {problem}", file=sys.stderr)
    return 0


def _other_shops(project: Project, deck: Deck, options: PodOptions) -> Callable[[str], bool]:
    """Which files of an earlier export belong to the shops this one does not make: they stay."""
    # the command's modules load when it runs, not for --help
    from ..outputs.cardfiles import chosen_shops, shop_files

    made = {shop.id for shop in chosen_shops(project, options.shops)}
    others = [shop for shop in chosen_shops(project) if shop.id not in made]
    return lambda name: any(shop_files(deck, shop, name) for shop in others)


def _check_image_sizes(project: Project, decks: Sequence[Deck], args: argparse.Namespace, options: PodOptions | None) -> None:
    """Every card image this export draws is at most MAX_IMAGE_PIXELS: a larger one would not fit in memory."""
    # the command's modules load when it runs, not for --help
    from ..outputs.cardfiles import chosen_shops

    def too_large(deck: Deck, bleed: float, dpi: float, where: str) -> None:
        size = (pixels(deck.size.width + 2 * bleed, dpi), pixels(deck.size.height + 2 * bleed, dpi))
        if size[0] * size[1] > MAX_IMAGE_PIXELS:
            area = (deck.size.width + 2 * bleed) * (deck.size.height + 2 * bleed) / MM_PER_INCH**2
            most = math.floor(math.sqrt(MAX_IMAGE_PIXELS / area))
            raise cli_error(
                f"{where}: a card of deck '{deck.key}' would be {size[0]:,} × {size[1]:,} pixels; "
                f"the limit is {MAX_IMAGE_PIXELS // 1_000_000} megapixels an image, at most {most} dpi for its size"
            )

    for deck in decks:
        if args.kind == "png":
            too_large(deck, args.bleed, args.dpi, f"--dpi {args.dpi:g}")
        elif options is not None:
            for shop in chosen_shops(project, options.shops):
                if shop.format == "png" and deck.size.name not in shop.pixels:
                    too_large(deck, shop.bleed, shop.dpi, f"shop '{shop.id}' (dpi {shop.dpi:g})")


def _pod_options(project: Project, args: argparse.Namespace) -> PodOptions:
    """The print-shop options, checked before anything is drawn."""
    # the command's modules load when it runs, not for --help
    from ..outputs.cardfiles import PodOptions

    shops = load_shops(project)
    if args.proof and ghostscript() is None:
        raise needs_ghostscript("--proof")
    for name in args.shop or ():
        if name not in shops:
            raise cli_error(f"--shop: unknown shop '{name}'{suggest(name, shops)}; shops: {', '.join(shops)}")
    return PodOptions(
        greyscale=args.greyscale,
        copies=args.copies,
        pdfx=args.pdfx,
        stock=args.stock,
        profile=load_profile(args.icc) if args.icc else None,
        ink_limit=args.ink_limit / 100 if args.ink_limit is not None else None,
        proof=args.proof,
        shops=tuple(dict.fromkeys(args.shop or ())),
    )
