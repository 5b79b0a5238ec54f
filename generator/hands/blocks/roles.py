"""``roles = [{ suit = "houses" }, [{ suit = "armies" }, { suit = "glyphs" }]]``: a different card for each role.

Each role is a card selector, or a list of them (a card fits the role when it
fits any of them).  The hand fits when its cards can be given out so that
every role has a card of its own; a card that belongs to several suits may
take any one of the roles it fits.  By Hall's theorem this holds exactly
when, for every set of roles, at least that many of the hand's cards fit one
of them: one popcount per set of roles.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ...definitions.schema import Context, KeyPath, field
from ..bits import popcount, u64
from .registry import Block, Engine, Needs, register
from .selectors import parse_selectors

_MAX_ROLES = 4


class _Roles(Block):
    name = "roles"
    spec = field(list)

    def parse(self, ctx: Context, value: Any, path: KeyPath, hand_size: int) -> Any | None:
        roles = []
        for i, role in enumerate(value):
            items = role if isinstance(role, list) else [role]
            sels = parse_selectors(ctx, items, path + (i,))
            if not sels:
                ctx.error(path + (i,), "a role is a card selector or a list of them")
                return None
            roles.append(sels)
        if not 1 <= len(roles) <= min(_MAX_ROLES, hand_size):
            ctx.error(path, f"give 1 to {min(_MAX_ROLES, hand_size)} roles")
            return None
        return tuple(roles)

    def needs(self, value: Any, needs: Needs) -> None:
        needs.mask = True

    def check(self, engine: Engine, value: Any, path: KeyPath) -> bool:
        for i, role in enumerate(value):
            for j, sel in enumerate(role):
                engine.check_selector(sel, path + (i, j))
        return True

    def evaluate(self, engine: Engine, feats: dict, memo: dict, k: int, w: int, m: int, value: Any) -> np.ndarray:
        ok = np.ones(m, bool)
        for size in range(1, len(value) + 1):
            for group in itertools.combinations(range(len(value)), size):
                fits = _cards(engine, tuple(sel for r in group for sel in value[r]))
                ok &= popcount(feats["mask"] & u64(fits)) >= size
        return ok


def _cards(engine: Engine, sels: tuple) -> int:
    """The bit mask of the deck's cards that fit any of ``sels``."""
    cache = engine.memo.setdefault("roles", {})
    if sels not in cache:
        bits = 0
        for i, c in enumerate(engine.universe):
            suits = tuple(engine.deck.suits[s].id for s in c.suits)
            if not c.dead and any(engine.matches(s, c.card, suits) for s in sels):
                bits |= 1 << i
        cache[sels] = bits
    return cache[sels]


register(_Roles())
