"""``aetherpress show hand|spread|showcase|box DECK [CARD ...]``: pictures of a game for its page, from the printed cards."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..definitions.model import Card, Deck
from ..definitions.schema import suggest
from ..errors import display_path
from ..project import Project
from ..project.files import write_bytes, writing_into
from ..units import MAX_IMAGE_PIXELS, MM_PER_INCH
from .box import add_card_thickness
from .common import cli_error, examples, number, output_folder, paper_from_args, resolve_decks

if TYPE_CHECKING:
    from PIL import Image

    from ..pipeline.context import ProjectContext

KINDS = ("hand", "spread", "showcase", "box")
SIZES = {"banner": (1920, 1080), "social": (1200, 630), "square": (1080, 1080)}
FORMATS = ("png", "webp")
FIRST_CARDS = 5  # the hand shown of a deck no game ranks
MOST_SHOWN = 12  # cards in a hand or standing in a showcase
_SMALLEST = 64  # px a side
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(px|mm|in)?\s*$")


def picture_size(text: str, dpi: float) -> tuple[int, int]:
    """``--size``: a preset (banner, social, square) or WxH in pixels, or in mm or in with the size's unit at ``dpi``."""
    if text in SIZES:
        return SIZES[text]
    found = _SIZE.match(text)
    if not found:
        raise cli_error(f"--size {text!r}: give {', '.join(SIZES)} or a size such as 1600x900, 150x100mm or 6x4in")
    w, h, unit = float(found[1]), float(found[2]), found[3] or "px"
    per = {"px": 1.0, "mm": dpi / MM_PER_INCH, "in": dpi}[unit]
    size = (round(w * per), round(h * per))
    if min(size) < _SMALLEST or size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise cli_error(
            f"--size {text!r} is {size[0]} x {size[1]} px: each side at least {_SMALLEST} px, "
            f"at most {MAX_IMAGE_PIXELS // 1_000_000} megapixels in all"
        )
    return size


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("show", help="pictures of a game for its page: a hand, a spread, a showcase, the box")
    examples(
        p,
        "aetherpress show hand imperial                     # the best hand of Founder's Flip, fanned",
        "aetherpress show showcase standard ace-spades king-hearts --size social",
        "aetherpress show spread decktet --size square --transparent --format webp",
        "aetherpress show box pernese --size 150x100mm --dpi 300",
    )
    p.add_argument(
        "kind",
        choices=KINDS,
        help="hand: a fan of cards; spread: every card in a grid; showcase: cards "
        "standing in perspective with their reflection; box: the tuck box as a product shot",
    )
    p.add_argument("deck", metavar="DECK[:VARIANT]", help="the deck (imperial, pernese:coloured ...)")
    p.add_argument(
        "cards",
        nargs="*",
        metavar="CARD",
        help="the cards to show, by id (default: the best hand of the "
        "deck's game by its ranking, or its first cards; for spread, every card and the back)",
    )
    p.add_argument(
        "--size",
        default="banner",
        help="banner (1920x1080, default), social (1200x630), square "
        "(1080x1080), or WxH in pixels, or in mm or in (150x100mm) at --dpi",
    )
    p.add_argument(
        "--dpi",
        type=number(10, 1200),
        default=144,
        help="the resolution recorded in the picture, and of a size given in mm or in (default 144)",
    )
    ground = p.add_mutually_exclusive_group()
    ground.add_argument("--transparent", action="store_true", help="no ground: a transparent picture")
    ground.add_argument("--ground", default="#ece8e1", metavar="COLOUR", help="the ground's colour (default #ece8e1)")
    p.add_argument("--format", choices=FORMATS, default=None, help="png (default) or webp; else from --out's suffix")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="FILE",
        help="the picture's file (default: output/<deck>/show/<deck>-<kind>-<size>.png)",
    )
    p.add_argument("--paper", default=None, metavar="PAPER", help="box: the paper of the box's print file (default a4)")
    add_card_thickness(p)


def run(project: Project, args: argparse.Namespace) -> int:
    # the command's modules load when it runs, not for --help
    from PIL import ImageColor

    from ..outputs.showpictures import Ground, encoded
    from ..pipeline.context import ProjectContext

    size = picture_size(args.size, args.dpi)
    try:
        colour = None if args.transparent else ImageColor.getrgb(args.ground)[:3]
    except ValueError:
        raise cli_error(f"--ground {args.ground!r} is not a colour (give #rrggbb or a name such as ivory)") from None
    kind = _format(args)
    context = ProjectContext(project)
    (deck,) = resolve_decks(project, [args.deck], context.definitions)
    target = args.out or project.output_dir / deck.slug / "show" / f"{deck.slug}-{args.kind}-{_size_name(args.size)}.{kind}"
    output_folder(target.parent)
    if target.is_dir():
        raise cli_error(f"--out {display_path(target)} is a folder; give the picture's file name")
    if args.kind == "box":
        if args.cards:
            raise cli_error("show box takes no cards: the box is drawn from its own print file")
        from ..outputs.boxshot import box_picture

        picture = box_picture(context, deck, paper_from_args(project, args), size, Ground(colour), args.card_thickness)
    else:
        picture = _cards_picture(context, deck, args, size, Ground(colour))
    data = encoded(picture, kind, args.dpi, colour is None)
    with writing_into(target.parent):
        write_bytes(target, data)
    print(f"{deck.key}: {display_path(target)} ({size[0]} x {size[1]} px)")
    return 0


def _format(args: argparse.Namespace) -> str:
    suffix = args.out.suffix.lower().lstrip(".") if args.out else ""
    if args.format and suffix and suffix != args.format:
        raise cli_error(f"--out {display_path(args.out)} is not a .{args.format} file, as --format {args.format} asks")
    if not args.format and args.out and suffix not in FORMATS:
        raise cli_error(f"--out {display_path(args.out)}: name a .png or .webp file (or give --format)")
    return args.format or suffix or "png"


def _size_name(text: str) -> str:
    return text if text in SIZES else re.sub(r"[^0-9a-z]+", "x", text.lower()).strip("x")


def _cards_picture(context: ProjectContext, deck: Deck, args: argparse.Namespace, size: tuple[int, int], ground) -> Image.Image:
    from ..outputs.cardpictures import card_height, card_pictures, distinct_backs
    from ..outputs.showpictures import hand_picture, showcase_picture, spread_picture

    sides = context.sides(deck)
    chosen = [_card(deck, card_id) for card_id in args.cards]
    items: list[tuple[Card | None, str]]
    if args.kind == "spread":
        items = [(c, "front") for c in chosen] or [(c, "front") for c in deck.cards] + [
            (c, "back") for _, c in distinct_backs(deck)
        ]
    else:
        if len(chosen) > MOST_SHOWN:
            raise cli_error(f"show {args.kind} shows at most {MOST_SHOWN} cards, not {len(chosen)}; show spread shows more")
        items = [(c, "front") for c in chosen or best_hand(context, deck)]
    aspect = card_height(sides, 1000) / 1000
    make = {"hand": hand_picture, "spread": spread_picture, "showcase": showcase_picture}[args.kind]
    return make(lambda width: card_pictures(context, sides, items, width), len(items), aspect, size, ground)


def _card(deck: Deck, card_id: str) -> Card:
    found = {c.id: c for c in deck.cards}
    if card_id not in found:
        raise cli_error(f"deck '{deck.key}' has no card '{card_id}'{suggest(card_id, found)}")
    return found[card_id]


def best_hand(context: ProjectContext, deck: Deck) -> list[Card]:
    """The best hand of the first game played with ``deck`` that ranks hands: the example of the highest category
    its ranking can deal (checked by the counting engine), on the game's deck that has ``deck``'s variants; without
    such a game, the deck's first cards."""
    ids = {c.id: c for c in deck.cards}
    for game in context.games.values():
        if game.deck_id != deck.id or not game.rankings:
            continue
        choice = next((name for name, d in game.decks.items() if tuple(d.variants) == deck.applied), None)
        engine = context.hands.evaluator(game.id, deck=choice)
        for index in engine.order:
            example = engine.ranking.categories[index].example
            if example and all(i in ids for i in example) and engine.evaluate(example).category == index:
                return [ids[i] for i in example]
    return list(deck.cards[:FIRST_CARDS])
