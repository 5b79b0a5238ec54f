"""``rulebook --print``: a book as a print shop takes it, an interior file and a cover file.

Bleed, PDF/X version and ink limit are a PDF shop's of ``shops.toml`` when one
is named (``--shop``), else :data:`BOOK_BLEED`, PDF/X-4 and the stock's limit;
the colours go through the same ICC profile as the cards' shop files.  See
:mod:`generator.render.bookpdf` for what the files hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..definitions.shops import DEFAULT_PDFX, BookFiles, Shop
from ..errors import AetherpressError, Problem, display_path
from ..imposition.printbook import PAPER_THICKNESS, BookError
from ..render.bookpdf import Look, Press, PrintBook, print_book
from ..render.colour import ProcessColour
from ..render.icc import STOCKS, OutputProfile, shipped_profile
from . import BuildContext, lay_out_book, pdf_author, typesetting
from .definition import RulebookDefinition

BOOK_BLEED = 3.0  # mm, when no shop names its own


@dataclass(frozen=True)
class PrintOptions:
    """What ``rulebook --print`` was asked for: a shop (or none), the binding, paper and colour."""

    shop: Shop | None = None
    binding: str = "saddle"
    thickness: float = PAPER_THICKNESS  # mm a leaf of the interior
    stock: str = "coated"
    profile: OutputProfile | None = None

    def press(self) -> Press:
        limit = STOCKS[self.stock].ink_limit
        if self.shop is not None and self.shop.ink_limit is not None:
            limit = min(limit, self.shop.ink_limit)
        process = ProcessColour(self.profile or shipped_profile(self.stock), limit)
        bleed = self.shop.bleed if self.shop is not None else BOOK_BLEED
        level = self.shop.pdfx if self.shop is not None else DEFAULT_PDFX
        files = self.shop.book if self.shop is not None else BookFiles()
        return Press(bleed, process, level, self.binding, self.thickness, files.marks, files.slug, files.cover == "spreads")


def print_files(
    context: BuildContext, book: RulebookDefinition, paper: str, options: PrintOptions
) -> tuple[list[tuple[str, bytes]], PrintBook]:
    """The interior's and the cover's file names and PDF bytes, and what was made (pages, spine)."""
    from reportlab.lib import colors

    with typesetting(context, book):
        data, layout = lay_out_book(context, book, paper)
        design = layout.cover  # the spine continues the covers' ground, its title in their accent and title face
        ground = colors.HexColor(design.ground)
        look = Look(
            ground,
            ground,
            colors.HexColor(design.accent),
            design.title_font,
            book.title,
            pdf_author(context, book),
            book.language_set,
        )
        try:
            made = print_book(data, options.press(), look)
        except BookError as exc:
            raise AetherpressError(Problem(display_path(book.file), str(exc))) from None
    stem = book.name if paper == "a5" else f"{book.name}-{paper}"
    tag = options.shop.id if options.shop is not None else "print"
    return [(f"{stem}-{tag}-interior.pdf", made.interior), (f"{stem}-{tag}-cover.pdf", made.cover)], made
