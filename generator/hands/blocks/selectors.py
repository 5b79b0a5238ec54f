"""Card selectors: which cards an entry means, by card id, rank, suit or group (exactly one)."""

from __future__ import annotations

from typing import Any

from ...definitions.schema import Context, KeyPath, check_table, field
from ..rankings import Selector
from .registry import Block, Engine, Needs

_SELECTOR_SPEC = {
    "card": field(str),
    "rank": field(str),
    "suit": field(str),
    "group": field(str),
    "count": field(int),
    "max": field(int),
}


def _parse_selector(ctx: Context, raw: Any, path: KeyPath) -> Selector | None:
    good = check_table(ctx, raw, _SELECTOR_SPEC, path, "card selector")
    kinds = [k for k in ("card", "rank", "suit", "group") if k in good]
    if len(kinds) != 1:
        if isinstance(raw, dict):
            ctx.error(path, "a card selector names exactly one of card, rank, suit or group")
        return None
    count = good.get("count", 1)
    if count < 1:
        ctx.error(path + ("count",), "count must be 1 or more")
    maximum = good.get("max")
    if maximum is not None and maximum < count:
        ctx.error(path + ("max",), "max must not be below count")
    return Selector(kinds[0], good[kinds[0]], count, maximum)


def parse_selectors(ctx: Context, raw: list, path: KeyPath) -> tuple[Selector, ...]:
    out = []
    for i, item in enumerate(raw):
        sel = _parse_selector(ctx, item, path + (i,))
        if sel is not None:
            out.append(sel)
    return tuple(out)


class SelectorList(Block):
    """A block whose value is a list of card selectors (``contains``, ``none``)."""

    spec = field(list, item=dict)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        return parse_selectors(ctx, value, path) or None

    def needs(self, value: Any, needs: Needs) -> None:
        for sel in value:
            needs.selector(sel)

    def check_selectors(self, engine: Engine, value: Any, path: KeyPath) -> None:
        for i, sel in enumerate(value):
            engine.check_selector(sel, path + (i,))
