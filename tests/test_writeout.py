"""The write-out of patterns and repeating gradients: one budget with the allow-list, within the template's deadline,
each reference found once; and the numbers of a card's SVG, checked where they enter.

A side whose repeats, spelt out, would draw more than the allow-list lets a card draw is refused before anything
is written, in the same words by ``validate``, the preview and ``build``, naming its template and output line; every
side that is written out passes the allow-list as it stands.  No number a template writes, however large, small or
not a number at all, makes a check of the drawn side fail with anything but that one line.
"""

from __future__ import annotations

import threading
import time
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from generator.cli import main
from generator.errors import AetherpressError
from generator.faces import spread, svgrefs, tiles
from generator.faces.repeats import TooMuchToDraw, write_out
from generator.faces.sanitise import MAX_DRAWN, drawn_counter
from generator.faces.svg import parse_svg
from generator.resources.limits import LimitExceeded, deadline

from .conftest import examples
from .test_catalogue import make_project

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="69.5mm" height="94.9mm" viewBox="0 0 69.5 94.9">\n'


def _svg(body: str) -> etree._Element:
    return parse_svg(HEAD + body + "\n</svg>\n", "x")


def _unused_patterns(n: int) -> str:
    defs = "".join(
        f'<pattern id="p{i}" width="1" height="1" patternUnits="userSpaceOnUse"><rect width="0.5" height="0.5"/></pattern>'
        for i in range(n)
    )
    return f'<defs>{defs}</defs><rect width="10" height="10" fill="url(#p0)"/>'


def _gradients(n: int) -> str:
    return "".join(
        f'<linearGradient id="g{i}" x2="0.5" spreadMethod="repeat"><stop offset="0"/><stop offset="1" stop-color="#fff"/>'
        f'</linearGradient><rect width="10" height="10" fill="url(#g{i})"/>'
        for i in range(n)
    )


def _visits(monkeypatch, body: str) -> int:
    """How many times the write-out of ``body`` reads an element's name or paint (the steps of a walk)."""
    calls = [0]

    def counted(function):
        def wrapper(*args, **kwargs):
            calls[0] += 1
            return function(*args, **kwargs)

        return wrapper

    originals = {name: getattr(svgrefs, name) for name in ("local", "fill_ref")}
    for module in (svgrefs, tiles, spread):
        for name, function in originals.items():
            if hasattr(module, name):
                monkeypatch.setattr(module, name, counted(function))
    root = _svg(body)
    write_out(root)
    monkeypatch.undo()
    return calls[0]


@pytest.mark.parametrize("make", [_unused_patterns, _gradients], ids=["unused patterns", "repeating gradients"])
def test_the_write_out_reads_each_element_a_bounded_number_of_times(monkeypatch, make):
    """References and their users are found once, by dictionary: four times the patterns or gradients, about four
    times the reading (a walk per pattern or gradient would make it sixteen)."""
    small, large = _visits(monkeypatch, make(40)), _visits(monkeypatch, make(160))
    assert large < 6 * small, (small, large)


def test_unused_patterns_go_and_used_ones_are_written_out():
    root = _svg(_unused_patterns(300))
    assert write_out(root)
    drawn = etree.tostring(root, encoding="unicode")
    assert "<pattern" not in drawn
    assert drawn.count('href="#ap-repeat-1-row"') == 10 and drawn.count('href="#ap-repeat-1-tile"') == 10  # 10 x 10 tiles


def test_the_write_out_keeps_the_templates_deadline():
    """Off the main thread (the preview's worker) no timer interrupts it: the write-out looks at the deadline."""
    root = _svg(_gradients(5))
    raised: list[BaseException] = []

    def late() -> None:
        with deadline(0.01):
            time.sleep(0.05)
            try:
                write_out(root)
            except LimitExceeded as exc:
                raised.append(exc)

    worker = threading.Thread(target=late)
    worker.start()
    worker.join()
    assert raised


ROUNDS_TO_NONE = (
    '<defs><pattern id="p" patternUnits="userSpaceOnUse" width="{w}" height="1" patternTransform="translate(0 1000000)">'
    '<rect width="0.000005" height="1"/></pattern></defs><rect x="0" y="5" width="{x}" height="0.00000000001" fill="url(#p)"/>'
)


def test_a_row_count_that_rounds_to_none_is_counted_as_one():
    """The shape's box, moved a million units away, has no height left in the pattern's space: it still takes a
    row of tiles, so its columns count (and more than MAX_TILES of them is too many to write out)."""
    root = _svg(ROUNDS_TO_NONE.format(w="0.01", x="20"))
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    fills, _ = tiles.plan_fills(root, by_id, drawn_counter(root))
    assert [(fill.columns[1] - fill.columns[0], fill.rows[1] - fill.rows[0]) for fill in fills] == [(2000, 1)]
    assert fills[0].drawn > 2 * 2000 * 3
    root = _svg(ROUNDS_TO_NONE.format(w="0.00001", x="50"))
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    assert tiles.plan_fills(root, by_id, drawn_counter(root))[0] == []  # 5,000,000 columns: left for the check


@settings(max_examples=examples(200), deadline=None)
@given(
    fills=st.lists(
        st.tuples(
            st.sampled_from(["0.3", "1", "2.5", "0.05", "7"]),
            st.integers(1, 60),
            st.sampled_from(["", ' patternTransform="rotate(30)"', ' patternTransform="scale(0.1)"']),
        ),
        min_size=1,
        max_size=6,
    ),
    gradients=st.lists(st.tuples(st.sampled_from(["0.5", "0.01", "0.002", "3"]), st.integers(1, 40)), max_size=4),
    copies=st.integers(1, 30),
)
def test_a_side_written_out_keeps_within_the_allow_lists_budget(fills, gradients, copies):
    """Whatever mix of patterns and repeating gradients a side has: either it is refused before it is written, or
    the side written out passes the allow-list, drawing no more than MAX_DRAWN elements."""
    parts = []
    for n, (size, width, transform) in enumerate(fills):
        parts.append(
            f'<pattern id="p{n}" width="{size}" height="{size}" patternUnits="userSpaceOnUse"{transform}>'
            f'<rect width="0.1" height="0.1"/><circle cx="0.2" cy="0.2" r="0.1"/></pattern>'
        )
        parts += [f'<rect x="1" y="1" width="{width}" height="{width}" fill="url(#p{n})"/>'] * copies
    for n, (x2, height) in enumerate(gradients):
        stops = "".join(f'<stop offset="{k / 7:.3f}"/>' for k in range(7))
        parts.append(f'<linearGradient id="g{n}" x2="{x2}" spreadMethod="reflect">{stops}</linearGradient>')
        parts += [f'<rect width="10" height="{height}" fill="url(#g{n})"/>'] * copies
    root = _svg("\n".join(parts))
    try:
        write_out(root)
    except TooMuchToDraw as exc:
        assert exc.line is not None and exc.line >= 2
        return
    drawn = etree.tostring(root, encoding="unicode")
    parse_svg(drawn, "written out")  # raises if the allow-list refuses it
    assert drawn_counter(root)(root) <= MAX_DRAWN


FILLS = (
    '<defs><pattern id="p" width="1" height="1" patternUnits="userSpaceOnUse"><rect width="0.5" height="0.5"/></pattern>'
    '</defs>\n{% for i in range(400) %}<rect x="10" y="10" width="40" height="40" fill="url(#p)"/>{% endfor %}'
)


def _template(root, body: str) -> None:
    (root / "templates").mkdir(exist_ok=True)
    (root / "templates" / "broken.svg.j2").write_text(HEAD + body + "\n</svg>\n", encoding="utf-8")
    deck = root / "decks" / "cat" / "deck.toml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('template = "plain"', 'template = "broken"'), encoding="utf-8")


@pytest.mark.slow
def test_a_refused_side_replaces_no_earlier_export_and_is_told_alike_everywhere(tmp_path, monkeypatch, capsys):
    """An SVG export refused for one side leaves the earlier export as it was; build, export and the preview tell
    the refusal in one line, naming the template and the output line, and never speak of <use> elements."""
    from generator.definitions import load_all
    from generator.pipeline.context import ProjectContext
    from generator.preview.sides import FACE, Side, draw
    from generator.project import Project

    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["export", "svg", "cat", "--out", "output"]) == 0
    before = {p: p.read_bytes() for p in (root / "output").rglob("*.svg")}
    assert before
    capsys.readouterr()
    _template(root, FILLS)
    told = []
    for command in (["export", "svg", "cat", "--out", "output"], ["build", "cat", "--out", "output"]):
        assert main(command) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "Traceback" not in err[0]
        told.append(err[0])
    assert {p: p.read_bytes() for p in (root / "output").rglob("*.svg")} == before
    project = Project(root)
    deck = load_all(project)["cat"].build(())
    card = deck.cards[0]
    context = ProjectContext(project)
    faces = context.sides(deck)
    side = Side(deck.slug, FACE, card.id, card, faces.key(card, "front"))
    draw(faces, context.sides(deck, draft=True), side)
    told.append(side.problems[0])
    expected = (
        "error: templates/broken.svg.j2: card 'fox' of deck 'cat': its patterns and repeating gradients, spelt out "
        "as tiles and stops to print as shown, would draw more than 25,000 elements; use larger tiles or fewer "
        "repeats, or fill fewer shapes with them (output line 3)"
    )
    assert told == [expected] * 3
    assert not any("<use>" in line for line in told)


# --- numbers ------------------------------------------------------------------------------------------

NUMBERS = st.sampled_from(
    ["1e999", "-1e999", "nan", "inf", "1e-320", "1e-200", "1e300", "1000000", "-1000000", "1000001", "0", "2.5", "-3", "1e6"]
)
PLACES = [
    '<defs><linearGradient id="g" x1="{n}" x2="{m}" spreadMethod="repeat"><stop offset="0"/><stop offset="1" stop-color="#fff"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/>',
    '<defs><radialGradient id="g" r="{n}" fx="{m}" spreadMethod="reflect"><stop offset="0"/><stop offset="1" stop-color="#fff"/></radialGradient></defs><rect x="-5" y="-5" width="80" height="105" fill="url(#g)"/>',
    '<defs><pattern id="p" width="{n}" height="{m}" patternUnits="userSpaceOnUse"><rect width="0.5" height="0.5"/></pattern></defs><rect width="20" height="20" fill="url(#p)"/>',
    '<rect width="10" height="10" stroke="#000" fill="none" transform="matrix({n} 0 0 {m} 0 0)"/>',
    '<rect width="10" height="10" stroke="#000" fill="none" transform="rotate({n} {m} 3)"/>',
    '<path d="M 10 10 A {n} {m} 0 0 1 20 20" stroke="#000" fill="none"/>',
    '<g transform="scale({n})"><g transform="scale({m})"><rect width="60" height="60" stroke="#000" fill="none"/><text x="1" y="5">Hi</text></g></g>',
    '<text x="{n}" y="{m}" font-size="{n}">Hi</text>',
    '<circle cx="{m}" cy="5" r="{n}" stroke="#000" stroke-width="{n}" fill="none"/>',
    '<style>rect {{ stroke-width: {n}; opacity: {m} }}</style><rect width="10" height="10" stroke="#000"/>',
]


@settings(max_examples=examples(300), deadline=None)
@given(place=st.sampled_from(PLACES), n=NUMBERS, m=NUMBERS)
def test_any_number_is_refused_where_it_enters_or_drawn_and_checked_in_silence(place, n, m):
    """A side holding a number out of bounds is refused by the allow-list, a line for each, naming the element; any
    other is written out with finite numbers only, and the cut and safe-zone checks read it without an
    internal error or a warning."""
    from generator.faces.cut import check_cut
    from generator.faces.render import Geometry
    from generator.faces.safezone import _svg_findings
    from generator.resources.fonts import register_fonts

    register_fonts()

    text = HEAD + place.format(n=n, m=m) + "\n</svg>\n"
    try:
        root = parse_svg(text, "x")
    except AetherpressError as exc:
        assert exc.problems and all("(output line 2)" in str(p) for p in exc.problems)  # every one told, once each
        assert len({p.message for p in exc.problems}) == len(exc.problems)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy or library warning would reach the terminal
        try:
            write_out(root)
        except TooMuchToDraw:
            return
        drawn = etree.tostring(root, encoding="unicode")
        assert "inf" not in drawn and "nan" not in drawn
        geometry = Geometry(63.5, 88.9, 3.0, 3.0, 3.0)
        check_cut(drawn, geometry.trim)
        _svg_findings(drawn, geometry, [], None)


@pytest.mark.parametrize(
    "raised,code,said",
    [
        (LimitExceeded("took too long"), 2, "error: templates/broken.svg.j2: template took too long (drawing card 'fox'"),
        (KeyError("a fault of ours"), 1, "internal error: KeyError: 'a fault of ours'"),
    ],
    ids=["the template's time", "a fault of Aetherpress's"],
)
def test_the_write_out_runs_in_the_templates_time_and_a_fault_in_it_is_no_templates(
    tmp_path, monkeypatch, capsys, raised, code, said
):
    """Time (or memory) running out while a side is written out is the template's, told as a build tells it; a
    fault of the write-out itself is an internal error, never put down to the template."""
    from generator.faces import render

    def failing(root):
        raise raised

    root = make_project(tmp_path)
    _template(root, _unused_patterns(3))
    monkeypatch.chdir(root)
    monkeypatch.setattr(render, "write_out", failing)
    assert main(["build", "cat", "--jobs", "1", "--out", "output"]) == code
    assert capsys.readouterr().err.startswith(said)
