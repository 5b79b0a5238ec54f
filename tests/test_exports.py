"""The exports plug in: one registry that the command line, the README's table and these tests read."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

import pytest

from generator.cli import main, parser
from generator.outputs.exports import EXPORTS, Export, ExportJob, Option, exports_table, register

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
# the export of a print shop's files is the long one: its test runs with the slow ones
KINDS = [pytest.param(name, marks=pytest.mark.slow) if name == "pod" else name for name in EXPORTS]


def _sub(name: str):
    """The argparse parser of ``aetherpress export NAME``."""
    export_parser = parser()._subparsers._group_actions[0].choices["export"]  # type: ignore[union-attr]
    return export_parser._subparsers._group_actions[0].choices.get(name)


def test_the_readme_table_of_exports_is_the_registry():
    start = README.index("<!-- exports -->")
    assert README[start:].split("\n", 1)[1].startswith(exports_table() + "\n")


@pytest.mark.parametrize("name", list(EXPORTS))
def test_the_command_line_takes_every_option_an_export_declares(name):
    sub = _sub(name)
    assert sub is not None
    flags = {flag for action in sub._actions for flag in action.option_strings}
    assert {option.flag for option in EXPORTS[name].options} | {"--out", "--lang", "-h", "--help"} == flags
    assert sub.description is None and EXPORTS[name].examples[0] in (sub.epilog or "")


@pytest.mark.parametrize("name", KINDS)
def test_every_export_writes_what_it_declares(started, name):
    assert main(["export", name]) == 0
    folder = started / "output" / "g" / name
    kept = {".aetherpress-manifest.json"}  # the folder's record of what it holds, as every output folder has
    written = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name not in kept)
    assert written
    patterns = [pattern.format(slug="g") for pattern in EXPORTS[name].files]
    assert [f for f in written if not any(fnmatch.fnmatch(f, p) for p in patterns)] == []


def test_a_new_export_is_one_registration(started):
    """An export registered from outside (as a new module does) is a command with its options at once."""

    def write(job: ExportJob) -> list[Path]:
        ids = [card.id for card in job.deck.cards]
        fronts = [job.source.sides(job.deck).side(card, "front").key for card in job.deck.cards]
        target = job.folder / f"{job.deck.slug}-{job.options['suffix']}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"cards": ids, "sides": fronts}), encoding="utf-8")
        return [target]

    option = Option("--suffix", "what the file's name ends with", "text", "list")
    register(Export("card-list", "the card ids as JSON", "`<deck>-list.json`", write, (option,), ("x",), ("{slug}-*.json",)))
    try:
        assert _sub("card-list") is not None
        assert main(["export", "card-list", "--suffix", "ids"]) == 0
        listed = json.loads((started / "output" / "g" / "card-list" / "g-ids.json").read_text(encoding="utf-8"))
        assert listed["cards"] and len(set(listed["sides"])) == len(listed["cards"])
    finally:
        del EXPORTS["card-list"]


def test_a_second_export_of_a_name_is_refused():
    with pytest.raises(ValueError, match="two exports named 'png'"):
        register(Export("png", "again", "again", lambda job: []))
    with pytest.raises(ValueError, match="--out"):
        register(Export("elsewhere", "x", "x", lambda job: [], (Option("--out", "x", "text"),)))
    assert "elsewhere" not in EXPORTS


def test_an_option_of_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown kind 'colour'"):
        Option("--tint", "a colour", "colour")
