"""The fonts shipped with the package, registered by name with reportlab and svglib.

Templates ask for a family (``font-family="EB Garamond"``) with a weight and a
style; every combination used maps to one TrueType file in ``generator/fonts``,
so output never depends on the fonts of the machine.
"""

from __future__ import annotations

from functools import cache

from ..locations import FONTS_DIR

# family -> {(weight, style): file stem}; the stem is also the reportlab font name
FAMILIES: dict[str, dict[tuple[str, str], str]] = {
    "Cinzel": {("normal", "normal"): "Cinzel-Regular", ("bold", "normal"): "Cinzel-Bold"},
    "EB Garamond": {
        ("normal", "normal"): "EBGaramond-Regular",
        ("bold", "normal"): "EBGaramond-Bold",
        ("normal", "italic"): "EBGaramond-Italic",
        ("bold", "italic"): "EBGaramond-BoldItalic",
    },
    "Source Sans 3": {
        ("normal", "normal"): "SourceSans3-Regular",
        ("bold", "normal"): "SourceSans3-Bold",
        ("normal", "italic"): "SourceSans3-Italic",
    },
}
DEFAULT_FONT = "EBGaramond-Regular"


def font_name(family: str, weight: str = "normal", style: str = "normal") -> str:
    """The reportlab name of a shipped font, falling back within the family."""
    faces = FAMILIES[family]
    return faces.get((weight, style)) or faces.get((weight, "normal")) or faces[("normal", "normal")]


@cache
def register_fonts() -> None:
    """Register every shipped font with reportlab and with svglib's font map."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from svglib import fonts as svg_fonts

    for family, faces in FAMILIES.items():
        for (weight, style), stem in faces.items():
            path = FONTS_DIR / f"{stem}.ttf"
            pdfmetrics.registerFont(TTFont(stem, str(path)))
            svg_fonts.register_font(family, str(path), weight, style, stem)
        regular = font_name(family)
        addMapping(family, 0, 0, regular)
        addMapping(family, 1, 0, font_name(family, "bold"))
        addMapping(family, 0, 1, font_name(family, "normal", "italic"))
        addMapping(family, 1, 1, font_name(family, "bold", "italic"))
    # reportlab's graphics start every drawing in Helvetica, which would then be
    # named (unembedded) in the PDF; start them in a shipped font instead.
    from reportlab.graphics import shapes

    shapes.STATE_DEFAULTS["fontName"] = DEFAULT_FONT


def text_width(text: str, family: str, size: float, weight: str = "normal", style: str = "normal") -> float:
    """Advance width of ``text`` in the units of ``size``."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    return stringWidth(text, font_name(family, weight, style), size)
