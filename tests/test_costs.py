"""Work proportional to the input: suggestions, nesting, kept files and preview events are bounded where they cost."""

from __future__ import annotations

import difflib
import json

import pytest

from generator.cli import main
from generator.definitions import schema
from generator.project.seal import MAX_KEPT_JSON, opened_json
from generator.project.staging import MANIFEST
from generator.rulebook import markup
from generator.rulebook.markup import MAX_NESTING, nesting

from .test_catalogue import make_project


class _CountingMatcher(difflib.SequenceMatcher):
    compared = 0

    def set_seq1(self, a):
        _CountingMatcher.compared += bool(a)  # each choice compared (not the empty one a matcher starts with)
        super().set_seq1(a)


def test_did_you_mean_is_worked_out_for_a_bounded_number_of_names(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    deck = root / "decks" / "cat" / "deck.toml"
    suits = "".join(
        f'[[suits]]\nid = "suit{i:04d}"\nname = "Suit {i}"\nsymbol = "circle"\ncolour = "#123456"\n\n' for i in range(600)
    )
    deck.write_text(deck.read_text().replace("[[ranks]]", suits + "[[ranks]]", 1))
    rows = ["name,rank,suits,text,power,lucky"] + [f"C{i},1,suitx{i:04d}+suity{i:04d},t,1,yes" for i in range(600)]
    (root / "decks" / "cat" / "cards.csv").write_text("\n".join(rows) + "\n")
    monkeypatch.chdir(root)
    monkeypatch.setattr(difflib, "SequenceMatcher", _CountingMatcher)
    _CountingMatcher.compared = 0
    assert main(["validate"]) == 2
    err = capsys.readouterr().err.splitlines()
    unknown = [line for line in err if "unknown suit 'suit" in line]
    assert len(unknown) == 1200  # every unknown name is still said
    assert sum("did you mean" in line for line in unknown) == schema.SUGGESTIONS
    assert "unknown suit 'suitx0000' (did you mean 'suit0000'?)" in err[0]
    # 1,200 names among 1,200 choices would be 1,440,000 comparisons; a run makes at most this many
    assert 0 < _CountingMatcher.compared <= schema.SUGGESTIONS * schema.SUGGEST_FROM

    # a second run has its own count
    _CountingMatcher.compared = 0
    assert main(["validate"]) == 2
    assert sum("did you mean" in line for line in capsys.readouterr().err.splitlines()) == schema.SUGGESTIONS


@pytest.mark.parametrize(
    ("line", "depth"),
    [
        ("- " * 1400 + "deep", 13),  # counting stops past the limit
        ("> 1. " * 3 + "x", 6),
        ("\t\t- x", 3),
        ("  \t- x", 2),
        ("        - x", 3),
        (">>>> x", 4),
        ("- - -", 0),  # a rule
        ("* * * * * * * * * * * * * * * *", 0),
        ("*emphasis* and -- dashes", 0),
        ("2024. A good year", 1),
    ],
)
def test_nesting_is_measured_from_the_line_alone(line, depth):
    assert nesting(line) == depth


def test_a_list_nested_past_the_limit_never_reaches_the_markdown_parser(tmp_path, monkeypatch, capsys):
    root = make_project(tmp_path)
    (root / "decks" / "cat" / "cat.md").write_text("# Playing\n\nText.\n\n" + "> - " * 700 + "deep\n")
    parsed = []
    monkeypatch.setattr(markup.markdown, "Markdown", lambda *a, **k: parsed.append(a) or pytest.fail("parsed"))
    monkeypatch.chdir(root)
    assert main(["rulebook", "cat", "--out", "output"]) == 2
    assert capsys.readouterr().err == f"error: decks/cat/cat.md:5: quotes and lists are nested more than {MAX_NESTING} deep\n"
    assert parsed == []
    assert not (root / "output").exists() or not any(p.is_file() for p in (root / "output").rglob("*"))


def test_kept_files_are_checked_by_size_and_seal_before_they_are_parsed(tmp_path, monkeypatch, capsys):
    """A 150 MB manifest (sparse: it costs no disk) is refused by its size, and a small one sealed by someone
    else by its bytes: neither reaches the JSON parser, and the build goes on as over a folder not ours."""
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "cat"]) == 0
    manifest = root / "output" / "cat" / MANIFEST
    record = next((tmp_path / "cache" / "builds").glob("*.json"))
    assert opened_json(manifest.read_bytes(), MANIFEST) is not None  # ours: the check could pass
    parsed: list[int] = []
    real_loads = json.loads

    def loads(text, *args, **kwargs):
        parsed.append(len(text))
        return real_loads(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", loads)
    for size in (150_000_000, MAX_KEPT_JSON + 1):
        for path in (manifest, record):
            with open(path, "r+b") as handle:
                handle.truncate(size)
        parsed.clear()
        assert main(["build", "cat"]) == 0
        assert parsed and max(parsed) < 1_000_000, size  # the cache's small entries, never a kept giant
        assert (root / "output" / "cat" / "faces" / "fox.svg").is_file()
        capsys.readouterr()

    # under the limit, with a seal that does not hold: refused from its bytes, unparsed
    text = manifest.read_text(encoding="utf-8")
    forged = text.replace('"files": [', '"files": [\n  "planted.svg",', 1)
    assert forged != text
    manifest.write_text(forged + " " * 2_000_000, encoding="utf-8")
    parsed.clear()
    assert opened_json(manifest.read_bytes(), MANIFEST) is None
    assert not parsed


def test_a_binary_entrys_header_is_read_only_so_far(tmp_path, monkeypatch):
    """A kept binary entry with no line break is not read whole to find its header."""
    from generator.pipeline.store import HEADER_BYTES, read_cached_bytes
    from generator.project import Project

    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    project = Project(make_project(tmp_path))
    (tmp_path / "cache" / "pieces").mkdir(parents=True)
    with open(tmp_path / "cache" / "pieces" / "abc.bin", "wb") as handle:
        handle.truncate(100_000_000)
    lines: list[int] = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda text, *a, **k: lines.append(len(text)) or real(text, *a, **k))
    assert read_cached_bytes(project, "pieces", "abc") is None
    assert lines and max(lines) <= HEADER_BYTES


def test_toml_nesting_is_measured_in_one_pass_before_the_parser_recurses():
    """Lists and inline tables nested past the limit are found with their line, strings and comments aside; an
    escaped quote run costs one pass."""
    from generator.definitions.toml import MAX_DEPTH, _deep_brackets

    deep = "[" * (MAX_DEPTH + 3) + "]" * (MAX_DEPTH + 3)
    assert _deep_brackets(f"a = 1\nb = {deep}\n") == 2
    assert _deep_brackets(f'a = "{deep}"\n# {deep}\nc = """\n{deep}\n"""\nd = \'{deep}\'\n') is None
    assert _deep_brackets("t = " + "{a=" * (MAX_DEPTH + 3) + "1" + "}" * (MAX_DEPTH + 3)) == 1
    assert _deep_brackets("[[cards]]\nv = [[1, 2], [3, 4]]\n") is None
    steps = 0
    text = 'x = """' + '\\"""' * 50_000

    class Counted(str):
        def startswith(self, *args):  # every look at the text is a step
            nonlocal steps
            steps += 1
            return str.startswith(self, *args)

    _deep_brackets(Counted(text))
    assert steps <= 2 * len(text)  # one pass, whatever the quotes
