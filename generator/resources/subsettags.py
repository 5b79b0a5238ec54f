"""Font subset tags drawn from the subset itself, in place of reportlab's ``AAAAAA+``.

A PDF names each embedded font subset with a six-letter tag and a ``+``
(``QXKDTR+EBGaramond-Regular``), so that a printer's RIP can tell two
different subsets of one font apart.  reportlab counts its subsets from
``AAAAAA``, so every book and box of a print run carries an ``AAAAAA+`` of each
font, each holding different glyphs.  Here the tag is six letters of a digest
of the font's name and the characters in the subset: it looks random, tells
different subsets apart, and the same subset always gets the same tag, so the
same input still gives the same bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from reportlab.pdfbase import ttfonts

from ..libraries.reportlab import subset_names

_LETTERS = 26


def subset_tag(font: str, characters: Sequence[int]) -> str:
    """Six capital letters from a digest of the font's name and its subset's characters (in order)."""
    digest = hashlib.sha256(f"{font}\0{','.join(map(str, characters))}".encode()).digest()
    n = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(6):
        n, r = divmod(n, _LETTERS)
        letters.append(chr(ord("A") + r))
    return "".join(letters)


class TaggedTTFont(ttfonts.TTFont):
    """A reportlab TrueType font whose subsets are tagged by :func:`subset_tag`."""

    def addObjects(self, doc: Any) -> None:
        state = self.state.get(doc)
        subsets = list(state.subsets) if state is not None else []
        name = self.face.name.decode("latin-1") if isinstance(self.face.name, bytes) else str(self.face.name)
        tags = [subset_tag(name, subset).encode("ascii") for subset in subsets]
        with subset_names(tags):
            super().addObjects(doc)
