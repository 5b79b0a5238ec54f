"""Fuzzing: mutated deck files and templates either load or fail with Aetherpress's own error.

Any other exception (a KeyError, a TypeError, a crash inside a library) is a
bug that would show the user a traceback.
"""

from __future__ import annotations

import json
import math
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.definitions import load_definition
from generator.errors import AetherpressError
from generator.project import Project

from .conftest import examples

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "fixtures" / "catalogue-base"
ROOT = Path(__file__).resolve().parents[1]
BASE_TEXT = (FIXTURES / "decks" / "cat" / "deck.toml").read_text(encoding="utf-8")
BASE_CSV = (FIXTURES / "decks" / "cat" / "cards.csv").read_text(encoding="utf-8")
BASE = tomllib.loads(BASE_TEXT)
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]}


@pytest.fixture(scope="module")
def fuzz_project(tmp_path_factory) -> Project:
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(FIXTURES / "decks", root / "decks")
    (root / "templates").mkdir()
    return Project(root)


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def dump(data: dict) -> str:
    return "".join(f"{json.dumps(str(k))} = {toml_value(v)}\n" for k, v in data.items())


scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.sampled_from(
        [
            "*",
            "",
            "red",
            "blue",
            "1",
            "2",
            "poker",
            "plain",
            "../x",
            "/etc/passwd",
            "{rank}",
            "{suit.__class__}",
            "wizard.png",
            "cards.csv",
            "#zzzzzz",
            "the-wizard",
        ]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["id", "name", "rank", "suits", "copies", "x", "value", "width", "height", "unit"]), inner, max_size=3
        ),
    ),
    max_leaves=6,
)


def paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths(v, prefix + (i,))


ALL_PATHS = [p for p in paths(BASE) if p]


def mutate(data, path, value, mode):
    import copy

    data = copy.deepcopy(data)
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if mode == "delete":
        del parent[last]
    elif mode == "add" and isinstance(parent, dict):
        parent[f"{last}_extra"] = value
    else:
        parent[last] = value
    return data


def _expect_clean(project: Project, deck_text: str, csv_text: str = BASE_CSV) -> None:
    folder = project.decks_dir / "cat"
    (folder / "deck.toml").write_text(deck_text, encoding="utf-8")
    (folder / "cards.csv").write_text(csv_text, encoding="utf-8")
    try:
        definition = load_definition(folder / "deck.toml", project)
        for variant in definition.variant_specs:
            definition.build((variant,))
    except AetherpressError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)


@pytest.mark.slow
@settings(max_examples=examples(1200), **SETTINGS)
@given(path=st.sampled_from(ALL_PATHS), value=values, mode=st.sampled_from(["replace", "delete", "add"]))
def test_structured_mutations_of_a_deck(fuzz_project, path, value, mode):
    _expect_clean(fuzz_project, dump(mutate(BASE, path, value, mode)))


@pytest.mark.slow
@settings(max_examples=examples(500), **SETTINGS)
@given(data=st.data())
def test_text_mutations_of_deck_and_csv(fuzz_project, data):
    deck, csv = BASE_TEXT, BASE_CSV
    target = data.draw(st.sampled_from(["deck", "csv"]))
    text = deck if target == "deck" else csv
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 12)))
        insert = data.draw(
            st.one_of(st.text(max_size=8), st.sampled_from(['"', ",", "\n", "[", "]]", "=", "\ufeff", "\r", "+", "{", "}"]))
        )
        text = text[:start] + insert + text[end:]
    if target == "deck":
        _expect_clean(fuzz_project, text)
    else:
        _expect_clean(fuzz_project, deck, text)


TEMPLATE = (ROOT / "templates" / "cards" / "plain.svg.j2").read_text(encoding="utf-8")
BOOK = (FIXTURES / "decks" / "cat" / "cat.md").read_text(encoding="utf-8")
SNIPPETS = [
    "{{",
    "}}",
    "{%",
    "%}",
    "{{ card.name }}",
    "{{ card.nope }}",
    "{% for x in card.suits %}",
    "{% endfor %}",
    "<",
    ">",
    "</svg>",
    "<text>",
    "&",
    "&amp;",
    '"',
    "{{ symbol('x', 1, 2, 3, 'red') }}",
    "{{ 1/0 }}",
    "{{ wrap(card.name, 'Nope', 3, 10) }}",
    "{{ ''.__class__ }}",
    "<image href='/etc/passwd'/>",
    "{{ card.rank.value * 'a' }}",
    "{% include 'back.svg.j2' %}",
    "{% extends 'nope' %}",
    "{{ range(10**9)|list }}",
    # hostile: reach out, run, loop, grow
    "{% include '../../outside/secret.txt' %}",
    "{% include 'leak.svg.j2' %}",
    "<script>alert(1)</script>",
    '<rect onload="x()"/>',
    "<foreignObject/>",
    "<style>@import url(x);</style>",
    '<use href="http://x/y#z"/>',
    "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
    "{{ 'x' * 10**8 }}",
    "{{ 9 ** (9 ** 9) }}",
    "{% set ns = namespace(s='ab') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
]
BOOK_SNIPPETS = [
    "{{",
    "}}",
    "{% include 'part.md' %}",
    "{% include '../../../outside/secret.txt' %}",
    "![x](card:cat/fox?w=1e9)",
    "![x](chart:snap)",
    "![x](file:///etc/passwd)",
    "[x](file:///etc/passwd)",
    "<script>x</script>",
    ">" * 40,
    "a" * 300,
    "{{ deck('cat').cards|length }}",
    "{{ 'x' * 10**8 }}",
    "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
    "\n# Heading\n",
    "- item\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "```\ncode\n```",
    "{{ book.__class__.__mro__ }}",
]
CANARY = b"CANARY fuzz: never read, never written\n"


def _mutate(text: str, snippets: list[str], data) -> str:
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 20)))
        text = text[:start] + data.draw(st.sampled_from(snippets)) + text[end:]
    return text


@pytest.fixture(scope="module")
def hostile_project(tmp_path_factory) -> Path:
    """A project with a canary beside it and links that lead to it."""
    base = tmp_path_factory.mktemp("hostile")
    root = base / "project"
    shutil.copytree(FIXTURES / "decks", root / "decks")
    (root / "templates").mkdir()
    (base / "outside").mkdir()
    (base / "outside" / "secret.txt").write_bytes(CANARY)
    (root / "templates" / "leak.svg.j2").symlink_to(base / "outside" / "secret.txt")
    (root / "decks" / "cat" / "part.md").symlink_to(base / "outside" / "secret.txt")
    return root


def _everything_but(folder: Path, skip: set[Path]) -> dict[str, bytes]:
    return {
        str(p): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and not any(p == s or s in p.parents for s in skip)
    }


def _run_confined(root: Path, args: list[str], changed: set[Path], monkeypatch, capsys) -> None:
    """Run a command under short limits; it must succeed or fail in one-line errors and touch nothing but ``out``."""
    base = root.parent
    out = base / "out"
    shutil.rmtree(out, ignore_errors=True)
    before = _everything_but(base, changed | {out})
    monkeypatch.setenv("AETHERPRESS_TEMPLATE_SECONDS", "0.3")
    monkeypatch.setenv("AETHERPRESS_RULEBOOK_SECONDS", "0.5")
    code = main(["--project", str(root), *args, "--out", str(out)])
    stdout, stderr = capsys.readouterr()
    assert code in (0, 2), stderr
    assert all(line.startswith("error: ") for line in stderr.splitlines()), stderr
    assert "CANARY" not in stdout + stderr
    assert (base / "outside" / "secret.txt").read_bytes() == CANARY
    assert _everything_but(base, changed | {out}) == before
    for written in (p for p in out.rglob("*") if p.is_file()) if out.exists() else ():
        assert b"CANARY" not in written.read_bytes()


@pytest.mark.slow
@settings(max_examples=examples(150), **SETTINGS)
@given(data=st.data())
def test_mutated_templates_stay_in_bounds_and_inside(hostile_project, data, monkeypatch, capsys):
    template = hostile_project / "templates" / "fuzz.svg.j2"
    template.write_text(_mutate(TEMPLATE, SNIPPETS, data), encoding="utf-8")
    deck = hostile_project / "decks" / "cat" / "deck.toml"
    deck.write_text(BASE_TEXT.replace('template = "plain"', 'template = "fuzz"'), encoding="utf-8")
    _run_confined(hostile_project, ["build", "cat"], {template, deck}, monkeypatch, capsys)


@pytest.mark.slow
@settings(max_examples=examples(100), **SETTINGS)
@given(data=st.data())
def test_mutated_rulebooks_stay_in_bounds_and_inside(hostile_project, data, monkeypatch, capsys):
    book = hostile_project / "decks" / "cat" / "cat.md"
    book.write_text(_mutate(BOOK, BOOK_SNIPPETS, data), encoding="utf-8")
    _run_confined(hostile_project, ["rulebook", "cat"], {book}, monkeypatch, capsys)


NUMBER_TEXT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-(10**400), max_value=10**400).map(str),
    st.sampled_from(["1e999", "-1e999", "nan", "inf", "1e-400", "0x10", "1e6", "-1000001", "", "5%"]),
)


@settings(max_examples=examples(60), **SETTINGS)
@given(
    rows=st.dictionaries(
        st.integers(min_value=2, max_value=1_048_576),
        st.lists(
            st.one_of(
                st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=12),
                st.integers(-(10**30), 10**30),
                st.floats(),
                st.none(),
            ),
            max_size=6,
        ),
        max_size=5,
    ),
)
def test_sparse_spreadsheets_cost_their_rows_and_fail_in_one_line(tmp_path_factory, rows):
    """A workbook storing a few rows anywhere down the sheet (to Excel's last row), of any values: the reader
    does the work of the rows stored, and the deck loads or is refused with problems that name the file."""
    from generator.definitions.sheets import SheetError, read_table
    from generator.definitions.sheets.table import Collector

    from .sheetfiles import write_far_xlsx

    folder = tmp_path_factory.mktemp("sheet")
    stored = {1: ["name", "rank", "suits", "text"], **rows}
    path = write_far_xlsx(folder / "cards.xlsx", stored)
    added: list[int] = []
    original = Collector.add

    def counted(self, number, cells):
        added.append(number)
        return original(self, number, cells)

    Collector.add = counted  # type: ignore[method-assign]
    try:
        read_table(path, "xlsx", None)
    except AetherpressError as exc:
        assert all("cards.xlsx" in str(p) and "\n" not in p.message for p in exc.problems)
    except SheetError as exc:  # a cell the reader refuses (a formula with no saved result): one line, at its cell
        assert "\n" not in exc.message and exc.row is not None
    finally:
        Collector.add = original  # type: ignore[method-assign]
    assert len(added) <= len(stored)  # never the empty rows between


@settings(max_examples=examples(80), **SETTINGS)
@given(
    shape=st.sampled_from(
        [
            '<rect x="{0}" y="{1}" width="{2}" height="{3}"/>',
            '<circle cx="{0}" cy="{1}" r="{2}"/>',
            '<path d="M{0},{1} L{2},{3} Z"/>',
            '<polygon points="{0},{1} {2},{3} 1,1"/>',
            '<g transform="scale({0}) translate({1} {2})"><rect width="{3}" height="1"/></g>',
            '<g transform="matrix({0} 0 0 {1} {2} {3})"><circle r="1"/></g>',
        ]
    ),
    numbers=st.lists(NUMBER_TEXT, min_size=4, max_size=4),
)
@example(shape='<path d="M{0},{1} L{2},{3} Z"/>', numbers=["0.0", "0.0", "0.0", "nan"])  # a word in path data
@example(shape='<g transform="matrix({0} 0 0 {1} {2} {3})"><circle r="1"/></g>', numbers=["0.0", "0.0", "0.0", "nan"])
def test_icons_with_any_numbers_draw_or_fail_in_one_line(tmp_path_factory, shape, numbers):
    """An icon's numbers may be anything a file can hold: the icon is drawn with finite numbers only, or refused
    in one line that names it; never an internal error, never ``inf`` or ``nan`` in a drawn side."""
    from generator.faces.icons import IconError, _read_icon

    folder = tmp_path_factory.mktemp("icon")
    icon = folder / "coin.svg"
    icon.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' + shape.format(*numbers) + "</svg>", encoding="utf-8"
    )
    status = icon.stat()
    try:
        drawn = _read_icon(str(icon), status.st_size, status.st_mtime_ns)
    except IconError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    text = repr(drawn).lower()
    assert "inf" not in text.replace("info", "") and "nan" not in text
