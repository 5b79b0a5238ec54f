"""The building blocks of hand categories: one small unit per block, in one registry.

A category (or tie class) of a ranking is a combination of blocks
(``groups = [2, 2]``, ``flush = true`` ...).  Each block knows how it is
written in a game file (``spec``, ``parse``), what feature tables
of the cards it reads (``needs``), what it checks against a deck
(``check``), and how it tells, for millions of hands at once, which fit
(``evaluate``).
"""

from __future__ import annotations

from .registry import BLOCKS, Block, Engine, Needs, parse_blocks, register

# the block modules, each registering its block as it loads, in the order the README and error messages list them
# isort: off
from . import groups, straight, flush, shared, each_once, distinct, rectangle, contains, none, roles, wild  # noqa: F401
# isort: on

__all__ = ["BLOCKS", "Block", "Engine", "Needs", "parse_blocks", "register"]
