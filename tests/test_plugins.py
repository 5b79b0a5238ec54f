"""Adding an export or a block kind is one new module: the README's own examples, loaded as modules, plug in."""

from __future__ import annotations

import json
import re
import types
from pathlib import Path

import pytest

from generator.cli import main
from generator.definitions import load_all
from generator.outputs.exports import EXPORTS
from generator.pipeline.context import ProjectContext
from generator.project import Project
from generator.rulebook.blocks import BLOCK_KINDS, kinds_said, kinds_table

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
SECTION = README.split("### Adding an export or a block kind", 1)[1].split("\n## ", 1)[0]
EXAMPLES = re.findall(r"```python\n(.*?)```", SECTION, re.S)


def _load(package: str, name: str, code: str) -> types.ModuleType:
    """``code`` run as the module ``package.name`` (as if it were a file of the package)."""
    module = types.ModuleType(f"{package}.{name}")
    module.__package__ = package
    exec(compile(code, f"{name}.py", "exec"), module.__dict__)
    return module


def test_the_readme_shows_an_export_and_a_block_kind():
    assert len(EXAMPLES) == 2
    assert "register(\n    Export(" in EXAMPLES[0] and "register(BlockKind(" in EXAMPLES[1]


def test_the_readme_table_of_block_kinds_is_the_registry():
    start = README.index("<!-- block kinds -->")
    assert README[start:].split("\n", 1)[1].startswith(kinds_table() + "\n")
    assert kinds_said() == "card:, back:, hand: or chart:"


def test_the_readme_export_example_is_an_export(started):
    _load("generator.outputs.exports", "cardlist_export", EXAMPLES[0])
    try:
        assert main(["export", "card-list", "--indent", "0"]) == 0
        written = started / "output" / "g" / "card-list" / "g-cards.json"
        cards = json.loads(written.read_text(encoding="utf-8"))
        assert "\n" not in written.read_text(encoding="utf-8").strip()  # --indent 0 reached the export
        deck = ProjectContext(Project(started)).deck("g")
        assert [c["id"] for c in cards] == [c.id for c in deck.cards]
        assert len({c["side"] for c in cards}) == len(cards)
    finally:
        EXPORTS.pop("card-list", None)


def test_the_readme_block_kind_example_is_a_block_kind(project):
    import xml.etree.ElementTree as ET

    from generator.definitions.presets import load_papers
    from generator.errors import AetherpressError
    from generator.rulebook.cardart import CardLibrary, HandPicture
    from generator.rulebook.flow import Converter
    from generator.rulebook.markup import SourceMap
    from generator.rulebook.style import make_styles

    text = "![](pair:imperial/magist)\n"
    converter = Converter(
        make_styles(load_papers(project)["a5"], 1.0),
        CardLibrary(project, load_all(project), ProjectContext(project).sides),
        SourceMap("book.md", text, text),
        None,
    )

    def picture(src: str):
        img = ET.Element("img", src=src)
        return converter.picture(img, img)

    _load("generator.rulebook.blocks", "pairkind", EXAMPLES[1])
    try:
        pair = picture("pair:imperial/magist?w=20")
        assert isinstance(pair, HandPicture) and len(pair.arts) == 2
        assert pair.arts[0].form != pair.arts[1].form and pair.card_w == pytest.approx(20 * 72 / 25.4)
        with pytest.raises(AetherpressError, match="no card 'nobody'"):
            picture("pair:imperial/nobody")
    finally:
        BLOCK_KINDS.pop("pair", None)
    with pytest.raises(AetherpressError, match="use card:, back:, hand: or chart:"):
        picture("pair:imperial/magist")
