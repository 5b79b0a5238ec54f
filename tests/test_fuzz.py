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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.definitions import load_definition
from generator.errors import AetherpressError
from generator.faces.render import FaceRenderer
from generator.project import Project

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


@settings(max_examples=1200, **SETTINGS)
@given(path=st.sampled_from(ALL_PATHS), value=values, mode=st.sampled_from(["replace", "delete", "add"]))
def test_structured_mutations_of_a_deck(fuzz_project, path, value, mode):
    _expect_clean(fuzz_project, dump(mutate(BASE, path, value, mode)))


@settings(max_examples=500, **SETTINGS)
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
]


@settings(max_examples=300, **SETTINGS)
@given(data=st.data())
def test_mutated_templates(fuzz_project, data):
    from generator.render.drawing import svg_to_drawing

    text = TEMPLATE
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 20)))
        text = text[:start] + data.draw(st.sampled_from(SNIPPETS)) + text[end:]
    (fuzz_project.own.templates / "fuzz.svg.j2").write_text(text, encoding="utf-8")
    (fuzz_project.decks_dir / "cat" / "deck.toml").write_text(
        BASE_TEXT.replace('template = "plain"', 'template = "fuzz"'), encoding="utf-8"
    )
    (fuzz_project.decks_dir / "cat" / "cards.csv").write_text(BASE_CSV, encoding="utf-8")
    deck = load_definition(fuzz_project.decks_dir / "cat" / "deck.toml", fuzz_project).build(())
    renderer = FaceRenderer(fuzz_project, deck)
    try:
        svg_to_drawing(renderer.face(deck.cards[0]), "templates/fuzz.svg.j2", "card")
    except AetherpressError as exc:
        assert exc.problems
