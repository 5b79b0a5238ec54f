"""``aetherpress export pod``: the files of every print shop of ``shops.toml`` (see :func:`..cardfiles.export_pod`)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...definitions.model import Deck
from ...definitions.schema import suggest
from ...definitions.shops import PDFX_LEVELS, load_shops
from ...iccprofiles import STOCKS
from ...locations import builtin_root
from ...project import Project
from .exportkinds import Export, ExportJob, Option, copies_option, greyscale_option, option_error, register, too_large

if TYPE_CHECKING:
    from ..cardfiles import PodOptions


def _builtin_shop_ids() -> list[str]:
    """The ids of the print shops Aetherpress knows (``templates/shops.toml``), for the help."""
    with (builtin_root() / "templates" / "shops.toml").open("rb") as f:
        return list(tomllib.load(f).get("shops", {}))


def _prepare(project: Project, decks: Sequence[Deck], options: Mapping[str, Any]) -> PodOptions:
    """The print-shop options, checked before anything is drawn (every shop known, every image within bounds)."""
    # the drawing modules load when the export runs, not for --help
    from ...render.icc import load_profile
    from ...render.inks import ghostscript, needs_ghostscript
    from ..cardfiles import PodOptions, chosen_shops

    shops = load_shops(project)
    if options["proof"] and ghostscript() is None:
        raise needs_ghostscript("--proof")
    for name in options["shop"] or ():
        if name not in shops:
            raise option_error(f"--shop: unknown shop '{name}'{suggest(name, shops)}; shops: {', '.join(shops)}")
    found = PodOptions(
        greyscale=options["greyscale"],
        copies=options["copies"],
        pdfx=options["pdfx"],
        stock=options["stock"],
        profile=load_profile(options["icc"]) if options["icc"] else None,
        ink_limit=options["ink_limit"] / 100 if options["ink_limit"] is not None else None,
        proof=options["proof"],
        shops=tuple(dict.fromkeys(options["shop"] or ())),
    )
    for deck in decks:
        for shop in chosen_shops(project, found.shops):
            if shop.format == "png" and deck.size.name not in shop.pixels:
                too_large(deck, shop.bleed, shop.dpi, f"shop '{shop.id}' (dpi {shop.dpi:g})")
    return found


def _keeps(project: Project, deck: Deck, options: PodOptions) -> Callable[[str], bool]:
    """Which files of an earlier export belong to the shops this one does not make: they stay."""
    from ..cardfiles import chosen_shops, shop_files

    made = {shop.id for shop in chosen_shops(project, options.shops)}
    others = [shop for shop in chosen_shops(project) if shop.id not in made]
    return lambda name: any(shop_files(deck, shop, name) for shop in others)


def _write(job: ExportJob) -> list[Path]:
    from ..cardfiles import export_pod

    return export_pod(job.source, job.deck, job.folder, job.prepared, job.progress, job.warnings)


_SHOPS = _builtin_shop_ids()

register(
    Export(
        "pod",
        "print-shop files: DriveThruCards PDF/X (process CMYK), The Game Crafter and MakePlayingCards PNGs",
        "`<deck>-drivethrucards.pdf` (PDF/X, process CMYK), `thegamecrafter/` and `makeplayingcards/` (a PNG a "
        "side); with `--proof`, `<shop>-proof/` (a proof of each distinct side)",
        _write,
        (
            copies_option("the print-shop PDF"),
            greyscale_option("ink saver: every colour and picture as grey (black ink only in the PDF)"),
            Option(
                "--pdfx",
                "PDF/X-4 (transparency kept), PDF/X-1a:2001 or PDF/X-1a:2003 (both flattened with Ghostscript); "
                "default: the version each shop asks for (DriveThruCards: 1a:2003)",
                "choice",
                choices=PDFX_LEVELS,
            ),
            Option(
                "--stock",
                "the paper: its shipped ICC profile and ink limit (default coated)",
                "choice",
                "coated",
                choices=tuple(STOCKS),
            ),
            Option("--icc", "a CMYK printer profile of your own instead of the stock's", "file", metavar="FILE"),
            Option(
                "--ink-limit",
                "total ink in percent (default: 300 coated, 240 uncoated, never above a shop's own limit)",
                "number",
                low=100,
                high=400,
                metavar="PCT",
            ),
            Option(
                "--proof",
                "also write a proof of each distinct side: the shop's own PDF as its inks print on the paper, beside the "
                "design, with what differs marked (needs Ghostscript)",
                default=False,
            ),
            Option(
                "--shop",
                f"only this shop: {', '.join(_SHOPS)} or one of the project's (may be repeated; default: every shop)",
                "repeat",
                metavar="NAME",
            ),
        ),
        (
            f"aetherpress export pod --shop {_SHOPS[0]}   # one shop's files; the others' stay",
            "aetherpress export pod my-game --stock uncoated",
        ),
        ("{slug}-drivethrucards.pdf", "thegamecrafter/*.png", "makeplayingcards/*.png", "*-proof/*.png"),
        _prepare,
        _keeps,
    )
)
