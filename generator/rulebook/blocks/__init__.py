"""The block kinds of a rulebook: the pictures a book's Markdown places by address, one module each, registered
in one registry (see :mod:`.blockkinds`)."""

from __future__ import annotations

from .blockkinds import BLOCK_KINDS, BlockKind, PictureRequest, kinds_said, kinds_table, register

# the kinds' modules, each registering its kinds as it loads, in the order the README lists them
# isort: off
from . import cardkinds, chartkind  # noqa: F401
# isort: on

__all__ = ["BLOCK_KINDS", "BlockKind", "PictureRequest", "kinds_said", "kinds_table", "register"]
