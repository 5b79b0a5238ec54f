"""Print-shop presets (``shops.toml``): bleed, safe zone, resolution, colour and file kind per shop.

The built-in presets are in ``templates/shops.toml``; a project's
``templates/shops.toml`` adds shops and overrides shops of the same name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import AetherpressError
from ..project import Project
from ..units import MAX_IMAGE_PIXELS, UnitError, pixels, to_mm
from .ids import check_id
from .model import CardSize
from .presets import preset_files, read_presets
from .schema import check_table
from .schema import field as key

POD_BLEED = 3.175  # mm: the 1/8 inch print shops ask for when they say nothing else

_SHOP_SPEC = {
    "name": key(str, required=True),
    "format": key(str, required=True),
    "bleed": key(str, float, required=True),
    "safe": key(str, float),
    "colour": key(str, required=True),
    "ink_limit": key(float),
    "dpi": key(float, required=True),
    "pixels": key(dict),
    "pdfx": key(str),
    "book": key(dict),
    "intent": key(dict),
}
_INTENT_SPEC = {"identifier": key(str, required=True), "condition": key(str, required=True)}
_BOOK_SPEC = {"marks": key(bool), "slug": key(str, float), "cover": key(str)}
BOOK_COVERS = ("spreads", "outside")  # a book's cover file: outside and inside spreads, or the outside alone
FORMATS = ("pdf", "png")
PDFX_LEVELS = ("4", "1a", "1a:2003")  # PDF/X-4, PDF/X-1a:2001, PDF/X-1a:2003 (see generator.render.pdfx)
DEFAULT_PDFX = "4"  # for a PDF shop that names no PDF/X version
_COLOURS = ("cmyk", "rgb")
MAX_BLEED = 10.0  # mm
_MAX_SHOP_PIXELS = 20_000  # a side of a published image size: more than any shop asks, and a card image still fits in memory


@dataclass(frozen=True)
class BookFiles:
    """What a shop's guide asks of a book's print files: crop and fold marks (and how much sheet past them, the
    slug), or none, the sheet then ending at the bleed; and whether the cover file holds the inside spread too."""

    marks: bool = True
    slug: float = 1.0  # mm
    cover: str = "spreads"


@dataclass(frozen=True)
class Intent:
    """The printing condition a shop's guide names for a print file's output intent: the ICC registry's
    characterization (``CGATS TR 001``) and the profile's name (``U.S. Web Coated (SWOP) v2``)."""

    identifier: str
    condition: str


@dataclass(frozen=True)
class Shop:
    id: str
    name: str
    format: str
    bleed: float  # mm
    safe: float  # mm
    colour: str
    dpi: float
    ink_limit: float | None = None  # total ink, 2.4 = 240 %
    pixels: dict[str, tuple[int, int]] = field(default_factory=dict)  # as published, per card size
    pdfx: str = DEFAULT_PDFX  # the PDF/X version the shop's guide asks for (a PDF shop)
    book: BookFiles = field(default_factory=lambda: BookFiles())  # what its guide asks of a rulebook's files
    intent: Intent | None = None  # the printing condition its guide names (None: it names none)

    def image_size(self, size: CardSize) -> tuple[int, int]:
        """Pixels of one card image with bleed: as the shop publishes it for this size, else trim plus bleed at dpi."""
        if size.name in self.pixels:
            return self.pixels[size.name]
        return computed_pixels(size.width, size.height, self.bleed, self.dpi)


def computed_pixels(width: float, height: float, bleed: float, dpi: float) -> tuple[int, int]:
    return pixels(width + 2 * bleed, dpi), pixels(height + 2 * bleed, dpi)


def load_shops(project: Project) -> dict[str, Shop]:
    shops: dict[str, Shop] = {}
    problems = []
    for ctx, name, entry in read_presets(preset_files(project, "shops.toml"), "shops"):
        path = ("shops", name)
        if not check_id(ctx, name, path, "shop"):  # a shop's id names its folder of files
            problems.extend(ctx.problems)
            continue
        good = check_table(ctx, entry, _SHOP_SPEC, path, f"shop '{name}'")
        for choice, allowed in (("format", FORMATS), ("colour", _COLOURS), ("pdfx", PDFX_LEVELS)):
            if choice in good and good[choice] not in allowed:
                ctx.error(path + (choice,), f"must be one of {', '.join(allowed)}, not '{good[choice]}'")
                good.pop(choice)
        lengths = {}
        for what in ("bleed", "safe"):
            try:
                lengths[what] = to_mm(good.get(what, 0.0), what=what, maximum=MAX_BLEED)
            except UnitError as exc:
                ctx.error(path + (what,), str(exc))
        if not 10 <= good.get("dpi", 300) <= 1200:
            ctx.error(path + ("dpi",), "must be 10 to 1200")
        if not 100 <= good.get("ink_limit", 300) <= 400:
            ctx.error(path + ("ink_limit",), "must be a percentage from 100 to 400")
        pixels = {}
        for size, value in good.get("pixels", {}).items():
            if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and v > 0 for v in value)):
                ctx.error(path + ("pixels", size), "must be [width, height] in whole pixels")
            elif max(value) > _MAX_SHOP_PIXELS or value[0] * value[1] > MAX_IMAGE_PIXELS:
                ctx.error(
                    path + ("pixels", size),
                    f"[{value[0]}, {value[1]}] is too large: at most {_MAX_SHOP_PIXELS:,} pixels a side "
                    f"and {MAX_IMAGE_PIXELS // 1_000_000} megapixels an image",
                )
            else:
                pixels[size] = (value[0], value[1])
        book = _book_files(ctx, good.get("book", {}), path + ("book",))
        intent = _intent(ctx, good["intent"], path + ("intent",)) if "intent" in good else None
        if not ctx.problems and all(k in good for k in ("name", "format", "colour", "dpi")) and "bleed" in lengths:
            limit = good.get("ink_limit")
            shops[name] = Shop(
                name,
                good["name"],
                good["format"],
                lengths["bleed"],
                lengths.get("safe", 0.0),
                good["colour"],
                float(good["dpi"]),
                limit / 100 if limit is not None else None,
                pixels,
                good.get("pdfx", DEFAULT_PDFX),
                book,
                intent,
            )
        problems.extend(ctx.problems)
    if problems:
        raise AetherpressError(list(dict.fromkeys(problems)))
    return shops


def _intent(ctx, table: dict, path: tuple) -> Intent | None:
    """A shop's ``[intent]`` table, checked."""
    good = check_table(ctx, table, _INTENT_SPEC, path, "a shop's output intent")
    return Intent(good["identifier"], good["condition"]) if "identifier" in good and "condition" in good else None


def _book_files(ctx, table: dict, path: tuple) -> BookFiles:
    """A shop's ``[book]`` table, checked."""
    good = check_table(ctx, table, _BOOK_SPEC, path, "a shop's book files")
    if good.get("cover", "spreads") not in BOOK_COVERS:
        ctx.error(path + ("cover",), f"must be one of {', '.join(BOOK_COVERS)}, not '{good['cover']}'")
    try:
        slug = to_mm(good.get("slug", 1.0), what="slug", maximum=MAX_BLEED)
    except UnitError as exc:
        ctx.error(path + ("slug",), str(exc))
        slug = 1.0
    return BookFiles(good.get("marks", True), slug, good.get("cover", "spreads"))
