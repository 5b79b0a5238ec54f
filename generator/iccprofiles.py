"""The ICC profiles Aetherpress ships (``generator/icc/``, CC0, see ``LICENSE.txt`` there) and the paper they describe.

Two CMYK printer profiles: GRACoL TR 006 for coated paper and FOGRA47L for
uncoated paper.  Print files separate into them (``generator.render.icc``),
and a CMYK card picture that names no profile of its own is read through the
coated one (``generator.faces.bitmaps``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .locations import PACKAGE_DIR

_ICC_DIR = PACKAGE_DIR / "icc"


@dataclass(frozen=True)
class _Stock:
    """A kind of paper: the shipped profile that describes printing on it and its default ink limit."""

    name: str
    profile_file: str
    ink_limit: float  # total area coverage, 3.0 = 300 %
    identifier: str  # the characterization's name in the ICC registry
    condition: str


STOCKS = {
    "coated": _Stock(
        "coated",
        "GRACoL-TR006-coated.icc",
        3.0,
        "CGATS TR 006",
        "GRACoL 2006, sheetfed offset on grade 1 coated paper (ISO 12647-2 paper type 1)",
    ),
    "uncoated": _Stock(
        "uncoated",
        "FOGRA47L-uncoated.icc",
        2.4,
        "FOGRA47",
        "Offset printing on uncoated white paper, ISO 12647-2:2004/Amd1 paper type 4",
    ),
}


@cache
def shipped_profile_data(stock: str) -> bytes:
    """The bytes of the profile Aetherpress ships for a paper stock (``coated`` or ``uncoated``)."""
    return (_ICC_DIR / STOCKS[stock].profile_file).read_bytes()
