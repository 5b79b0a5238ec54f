"""The template check flags every SVG feature svglib cannot draw, with file and line."""

from __future__ import annotations

import pytest

from generator.cli import main
from generator.faces.drawncheck import check_drawn
from generator.faces.lint import check_svg, check_template_source, check_templates

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">\n'

CASES = [
    ("stroke gradient", '<rect width="5" height="5" fill="none" stroke="url(#g)"/>', "gradient or pattern stroke"),
    ("stroke gradient in style", '<path d="M0,0 L1,1" style="fill:none;stroke:url(#g)"/>', "gradient or pattern stroke"),
    ("text gradient", '<text x="1" y="5" fill="url(#g)">Hi</text>', "fill on text"),
    ("pattern fill", '<pattern id="p" width="2" height="2"><rect width="1" height="1"/></pattern>', "<pattern>"),
    ("group opacity", '<g opacity="0.5"><rect width="5" height="5"/></g>', "group opacity"),
    ("symbol viewBox", '<symbol id="s" viewBox="0 0 2 2"><rect width="1" height="1"/></symbol>', "<symbol viewBox>"),
    (
        "nested svg",
        '<svg x="1" y="1" width="4" height="4" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
        "nested <svg viewBox>",
    ),
    ("letter-spacing", '<text x="1" y="5" letter-spacing="0.3">Hi</text>', "letter-spacing"),
    ("letter-spacing in style", '<text x="1" y="5" style="letter-spacing: 1px">Hi</text>', "letter-spacing"),
    ("textPath", '<text><textPath href="#p">Hi</textPath></text>', "<textPath>"),
    ("mask", '<mask id="m"><rect width="5" height="5" fill="#fff"/></mask>', "masks"),
    ("mask reference", '<rect width="5" height="5" mask="url(#m)"/>', "masks"),
    ("filter", '<filter id="f"><feGaussianBlur stdDeviation="1"/></filter>', "filters"),
    ("filter reference", '<rect width="5" height="5" filter="url(#f)"/>', "filters"),
    ("css letter-spacing", "<style>.t { letter-spacing: 2px }</style>", "letter-spacing in CSS"),
]

FINE = (
    '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>\n'
    '<rect width="5" height="5" fill="url(#g)" fill-opacity="0.5" stroke="#000" stroke-dasharray="1,1"/>\n'
    '<text x="1" y="5" text-anchor="middle" font-family="Cinzel">ok</text>\n'
)


@pytest.mark.parametrize("name,snippet,expected", CASES, ids=[c[0] for c in CASES])
def test_source_check_flags_feature_with_its_line(name, snippet, expected):
    source = "{# a template #}\n" + HEAD + FINE + "{% if card %}\n" + snippet + "\n{% endif %}\n</svg>\n"
    findings = check_template_source(source)
    assert len(findings) == 1, findings
    assert expected in findings[0].message
    assert findings[0].line == 7


@pytest.mark.parametrize("name,snippet,expected", CASES, ids=[c[0] for c in CASES])
def test_rendered_check_flags_feature(name, snippet, expected):
    findings = check_svg(HEAD + FINE + snippet + "\n</svg>\n")
    assert len(findings) == 1, findings
    assert expected in findings[0].message
    assert findings[0].line == 5


def test_supported_features_pass():
    assert check_template_source(HEAD + FINE + "</svg>") == []
    assert check_svg(HEAD + FINE + "</svg>") == []


def test_jinja_markup_inside_tags_does_not_confuse_the_source_check():
    source = HEAD + '<rect width="{{ 5 if a > b else 3 }}" height="5" {% if x %}fill="#000"{% endif %}/>\n</svg>'
    assert check_template_source(source) == []
    source = HEAD + '<g\n  {{ "x" }}\n  opacity="0.4">\n</g>\n</svg>'
    assert [f.line for f in check_template_source(source)] == [2]


def test_shipped_templates_and_decks_pass(project, definitions):
    from generator.pipeline.build import all_targets

    assert check_templates(project) == []
    assert check_drawn(project, [t.deck for t in all_targets(definitions)]) == ([], [])


def _deck_with_a_faulty_back(scratch, cards: list[str]) -> None:
    """Deck "t" of these cards in ``scratch``, its back (the built-in one) given group opacity on line 13."""
    from .conftest import write_deck

    rows = "".join(f'\n[[cards]]\nid = "{card}"\nname = "{card.title()}"\n' for card in cards)
    write_deck(scratch, '[deck]\nid = "t"\ntitle = "T"\n' + rows)
    back = scratch.own.templates / "back.svg.j2"
    back.parent.mkdir()
    lines = (scratch.builtin.templates / "back.svg.j2").read_text(encoding="utf-8").splitlines()
    lines.insert(12, '<g opacity="0.3"><rect width="1" height="1"/></g>')
    back.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _counted_renders(monkeypatch) -> list:
    """A list that grows by one for every side a renderer draws from here on."""
    from generator.faces import render

    drawn: list = []
    render_side = render.FaceRenderer._render
    monkeypatch.setattr(render.FaceRenderer, "_render", lambda self, *a, **k: drawn.append(1) or render_side(self, *a, **k))
    return drawn


def test_validate_reports_template_file_and_line(scratch, capsys):
    _deck_with_a_faulty_back(scratch, ["a"])
    assert main(["--project", str(scratch.root), "validate"]) == 2
    err = capsys.readouterr().err
    assert "templates/back.svg.j2:13: opacity on <g>" in err
    assert "in the SVG drawn for the back of card 'a' of deck 't'" in err


def test_validate_reports_text_that_does_not_fit_in_every_deck(scratch, capsys):
    from .conftest import write_deck

    deck = (
        '[deck]\nid = "{id}"\ntitle = "T"\nstyle = "aetherial"\ntemplate = "spell"\n\n'
        '[deck.attributes]\ntext = "text"\n\n[[cards]]\nid = "long"\nname = "Long"\ntext = "' + "word " * 600 + '"\n'
    )
    write_deck(scratch, deck.replace("{id}", "one"), name="one.toml", folder="one")
    write_deck(scratch, deck.replace("{id}", "two"), name="two.toml", folder="two")
    assert main(["--project", str(scratch.root), "validate"]) == 2
    err = capsys.readouterr().err
    assert "deck 'one', card 'long': text does not fit" in err
    assert "deck 'two', card 'long': text does not fit" in err


def test_validate_checks_each_side_once_and_a_back_shared_by_every_card_once(scratch, monkeypatch, capsys):
    """Each side is drawn once for every check; a side that comes out as one already checked (one back for
    every card) is not checked again, and what is wrong with it is still told."""
    from generator.faces import lint

    _deck_with_a_faulty_back(scratch, [f"c{n}" for n in range(30)])
    checked: list = []
    monkeypatch.setattr(lint, "check_svg", lambda svg, _check=lint.check_svg: checked.append(svg) or _check(svg))
    drawn = _counted_renders(monkeypatch)
    assert main(["--project", str(scratch.root), "validate"]) == 2
    assert "templates/back.svg.j2:13: opacity on <g>" in capsys.readouterr().err
    assert len(drawn) == 60  # thirty faces and thirty backs, each drawn once
    assert len(checked) == 31  # thirty faces, and the back they share


def test_validate_takes_the_sides_a_build_drew(scratch, monkeypatch, capsys):
    """After a build, validate checks the sides the build kept (with the boxes their texts were fitted to)
    instead of drawing them again, and finds the same problems."""
    _deck_with_a_faulty_back(scratch, ["c0", "c1", "c2"])
    assert main(["--project", str(scratch.root), "build", "t", "--jobs", "1"]) == 0
    drawn = _counted_renders(monkeypatch)
    capsys.readouterr()
    assert main(["--project", str(scratch.root), "validate"]) == 2
    assert "templates/back.svg.j2:13: opacity on <g>" in capsys.readouterr().err
    assert drawn == []
