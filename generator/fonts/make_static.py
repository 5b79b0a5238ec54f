"""Regenerate the static font files shipped in this folder.

The families come from the ``fontpkg-*`` packages on PyPI as variable fonts;
reportlab draws only a variable font's default instance, so each weight and
style the templates use is cut here as a static TrueType file with its own
family and PostScript names.  Run with those packages installed:

    python -m generator.fonts.make_static
"""

from __future__ import annotations

import importlib
from pathlib import Path

from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

HERE = Path(__file__).parent

# (package, source file, weight, output stem, family name, subfamily)
_INSTANCES = [
    ("fontpkg_cinzel", "Cinzel[wght].ttf", 400, "Cinzel-Regular", "Cinzel", "Regular"),
    ("fontpkg_cinzel", "Cinzel[wght].ttf", 700, "Cinzel-Bold", "Cinzel", "Bold"),
    ("fontpkg_eb_garamond", "EBGaramond[wght].ttf", 400, "EBGaramond-Regular", "EB Garamond", "Regular"),
    ("fontpkg_eb_garamond", "EBGaramond[wght].ttf", 700, "EBGaramond-Bold", "EB Garamond", "Bold"),
    ("fontpkg_eb_garamond", "EBGaramond-Italic[wght].ttf", 400, "EBGaramond-Italic", "EB Garamond", "Italic"),
    ("fontpkg_eb_garamond", "EBGaramond-Italic[wght].ttf", 700, "EBGaramond-BoldItalic", "EB Garamond", "Bold Italic"),
    ("fontpkg_source_sans_3", "SourceSans3[wght].ttf", 400, "SourceSans3-Regular", "Source Sans 3", "Regular"),
    ("fontpkg_source_sans_3", "SourceSans3[wght].ttf", 700, "SourceSans3-Bold", "Source Sans 3", "Bold"),
    ("fontpkg_source_sans_3", "SourceSans3-Italic[wght].ttf", 400, "SourceSans3-Italic", "Source Sans 3", "Italic"),
]


def _rename(font: TTFont, family: str, subfamily: str, stem: str) -> None:
    name = font["name"]
    full = f"{family} {subfamily}" if subfamily != "Regular" else family
    for record in list(name.names):
        if record.nameID in (16, 17, 21, 22, 25):
            name.removeNames(nameID=record.nameID)
    for name_id, value in ((1, family), (2, subfamily), (3, stem), (4, full), (6, stem)):
        name.setName(value, name_id, 3, 1, 0x409)
        name.setName(value, name_id, 1, 0, 0)


def main() -> None:
    for package, source, weight, stem, family, subfamily in _INSTANCES:
        module = importlib.import_module(package)
        folder = Path(str(module.__file__)).parent
        path = folder / "files" / source
        font = TTFont(path)
        static = instancer.instantiateVariableFont(font, {"wght": weight}, updateFontNames=False)
        _rename(static, family, subfamily, stem)
        static.save(HERE / f"{stem}.ttf")
        licence = (folder / "LICENSE").read_text(encoding="utf-8")
        (HERE / f"{family.replace(' ', '')}-OFL.txt").write_text(licence, encoding="utf-8")
        print(f"{stem}.ttf")


if __name__ == "__main__":
    main()
