"""The block kind of hand-ranking charts: ``chart:GAME[/RANKING][?deck=DECK][&also=DECK,...]`` (see :mod:`..charts`)."""

from __future__ import annotations

from reportlab.platypus import Flowable

from .blockkinds import BlockKind, PictureRequest, register


def _chart(request: PictureRequest) -> Flowable:
    game, _, ranking = request.path.partition("/")
    also = [d for d in request.params.get("also", "").split(",") if d]
    return request.chart_for(game, ranking or None, request.params.get("deck"), also, request.block)


register(
    BlockKind(
        "chart",
        "chart:GAME[/RANKING][?deck=DECK][&also=DECK,...]",
        (
            "a hand-ranking chart: one row per category, best first, with an example hand in real card faces "
            "written out beneath in a compact notation (rank and suit symbols, and the other things a card has "
            "that decide the game's hands, such as Lith's interpretive types, with a legend for every letter "
            "above the chart), the engine's count, and its chance with \"1 in N\"; `also` adds other decks' counts "
            "as further columns; a category no hand takes says so instead of a picture; tie classes are told in "
            "words; rows never split, a chart never starts with a lone row at a page's foot, and the header "
            "repeats on each page"
        ),
        _chart,
        alone=True,
    )
)
