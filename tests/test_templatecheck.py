"""The template check flags every SVG feature that prints otherwise than a browser shows it, with file and line,
and lets through what svg2pdf prints as Chromium draws it."""

from __future__ import annotations

import pytest

from generator.cli import main
from generator.faces.lint import check_svg, check_template_source, check_templates
from generator.faces.svg import parse_svg
from generator.pipeline.context import ProjectContext
from generator.pipeline.drawncheck import check_drawn

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">\n'

# still printed otherwise than shown: each refused in one line that says what to do instead
CASES = [
    ("unknown blend", '<rect width="5" height="5" mix-blend-mode="glow"/>', "mix-blend-mode: glow"),
    ("unquoted family", '<text x="1" y="5" font-family="Source Sans 3">Hi</text>', "quote it, font-family=\"'Source Sans 3'\""),
    ("unquoted family in a list", '<text x="1" y="5" style="font-family: Cinzel, Source Sans 3">Hi</text>', "Source Sans 3"),
    ("unquoted family in CSS", "<style>.t { font-family: Source Sans 3, serif }</style>", "font-family Source Sans 3"),
]

FINE = (
    '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>\n'
    '<rect width="5" height="5" fill="url(#g)" fill-opacity="0.5" stroke="#000" stroke-dasharray="1,1"/>\n'
    '<text x="1" y="5" text-anchor="middle" font-family="Cinzel">ok</text>\n'
)

# measured with svg2pdf against Chromium: these print as they are shown, so they pass the allow-list and the check
ALLOWED = [
    ("element opacity", '<rect width="5" height="5" opacity="0.4"/>'),
    ("group opacity", '<g opacity="0.5"><rect width="5" height="5"/></g>'),
    ("group opacity in style", '<g style="opacity: 0.5"><rect width="5" height="5"/></g>'),
    ("fill and stroke opacity", '<rect width="5" height="5" fill-opacity="0.3" stroke="#000" stroke-opacity="0.6"/>'),
    (
        "stop-opacity and gradientTransform",
        '<linearGradient id="t" gradientTransform="rotate(30)"><stop offset="0" stop-color="#000" stop-opacity="0.2"/>'
        '<stop offset="1" stop-color="#fff" style="stop-opacity: 0.9"/></linearGradient>',
    ),
    ("spreadMethod pad", '<linearGradient id="d" spreadMethod="pad"><stop offset="0"/></linearGradient>'),
    ("stroke gradient", '<rect width="5" height="5" fill="none" stroke="url(#g)"/>'),
    ("stroke gradient in style", '<path d="M0,0 L1,1" style="fill:none;stroke:url(#g)"/>'),
    ("text gradient", '<text x="1" y="5" fill="url(#g)">Hi<tspan fill="url(#g)">!</tspan></text>'),
    ("clip path", '<clipPath id="c"><circle cx="5" cy="5" r="4"/></clipPath><rect width="9" height="9" clip-path="url(#c)"/>'),
    ("luminance mask", '<mask id="m"><rect width="5" height="5" fill="#fff"/></mask><rect width="5" height="5" mask="url(#m)"/>'),
    (
        "alpha mask",
        '<mask id="a" mask-type="alpha" maskUnits="userSpaceOnUse" x="0" y="0" width="9" height="9">'
        '<circle cx="5" cy="5" r="3" fill-opacity="0.5"/></mask><rect width="9" height="9" style="mask: url(#a)"/>',
    ),
    ("alpha mask in style", '<mask id="s" style="mask-type: alpha"><rect width="5" height="5"/></mask>'),
    *[(f"{mode} blend", f'<rect width="5" height="5" mix-blend-mode="{mode}"/>') for mode in ("normal", "multiply", "screen")],
    *[
        (f"{mode} blend in style", f'<rect width="5" height="5" style="mix-blend-mode: {mode}"/>')
        for mode in ("overlay", "darken", "lighten", "color-dodge", "color-burn", "hard-light", "soft-light")
    ],
    ("difference and exclusion in CSS", "<style>.d { mix-blend-mode: difference } .e { mix-blend-mode: exclusion }</style>"),
    ("dashes", '<line x2="9" stroke="#000" stroke-dasharray="1 0.5" stroke-dashoffset="0.25"/>'),
    ("transforms", '<g transform="translate(1 1) rotate(15) scale(0.5) skewX(10)"><rect width="5" height="5"/></g>'),
    (
        "symbol viewBox through use",
        '<symbol id="s" viewBox="0 0 2 2"><rect width="1" height="1"/></symbol><use href="#s" width="4" height="4"/>',
    ),
    ("nested svg", '<svg x="1" y="1" width="4" height="4" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>'),
    ("letter-spacing", '<text x="1" y="5" letter-spacing="0.3">Hi</text>'),
    ("letter-spacing in style", '<text x="1" y="5" style="letter-spacing: 1px; word-spacing: 2px">Hi there</text>'),
    ("word-spacing", '<text x="1" y="5" word-spacing="0.5">Hi there</text>'),
    ("spacing in CSS", "<style>.t { letter-spacing: 2px; word-spacing: 1px }</style>"),
    ("no filter", '<rect width="5" height="5" filter="none"/>'),
    *[
        (f"{mode} blend (mixing colours whole)", f'<rect width="5" height="5" mix-blend-mode="{mode}"/>')
        for mode in ("hue", "saturation", "color", "luminosity")
    ],
    ("filter", '<filter id="f"><feGaussianBlur stdDeviation="1"/></filter><rect width="5" height="5" filter="url(#f)"/>'),
    ("filter in CSS", "<style>.s { filter: url(#f) }</style>"),
    ("textPath", '<text><textPath href="#p">Hi</textPath></text>'),
    ("quoted families", '<text x="1" y="5" font-family="\'Source Sans 3\', \'EB Garamond\', serif">Hi</text>'),
    ("families CSS reads unquoted", '<text x="1" y="5" style="font-family: EB Garamond, Cinzel, serif">Hi</text>'),
    ("a quoted family with a comma", '<text x="1" y="5" font-family="\'Odd, Sans 3\'">Hi</text>'),
]


@pytest.mark.parametrize("name,snippet,expected", CASES, ids=[c[0] for c in CASES])
def test_source_check_flags_feature_with_its_line(name, snippet, expected):
    source = "{# a template #}\n" + HEAD + FINE + "{% if card %}\n" + snippet + "\n{% endif %}\n</svg>\n"
    findings = check_template_source(source)
    assert len(findings) == 1, findings
    assert expected in findings[0].message and "svglib" not in findings[0].message
    assert findings[0].line == 7


@pytest.mark.parametrize("name,snippet,expected", CASES, ids=[c[0] for c in CASES])
def test_rendered_check_flags_feature(name, snippet, expected):
    findings = check_svg(HEAD + FINE + snippet + "\n</svg>\n")
    assert len(findings) == 1, findings
    assert expected in findings[0].message
    assert findings[0].line == 5
    assert "\n" not in findings[0].message and "svglib" not in findings[0].message


REPEATS = [
    '<defs><pattern id="p" width="2" height="2" patternUnits="userSpaceOnUse"><rect width="1" height="1"/></pattern></defs>'
    '<rect width="8" height="8" fill="url(#p)"/>',
    '<defs><linearGradient id="r" x2="0.3" spreadMethod="reflect"><stop offset="0"/><stop offset="1" stop-color="#fff"/>'
    '</linearGradient></defs><rect width="8" height="8" fill="url(#r)"/>',
    '<defs><radialGradient id="q" r="0.2" spreadMethod="repeat"><stop offset="0"/><stop offset="1" stop-color="#fff"/>'
    '</radialGradient></defs><circle cx="5" cy="5" r="4" fill="url(#q)"/>',
]


@pytest.mark.parametrize("snippet", REPEATS, ids=["pattern", "reflect", "repeat"])
def test_repeats_are_written_out_for_screen_and_print_alike(snippet):
    """A template may use patterns and repeating gradients: the faces stage writes them out, so neither the
    template's source nor the drawn side is flagged."""
    from lxml import etree

    from generator.faces.repeats import needs_writing_out, write_out

    svg = HEAD + snippet + "\n</svg>\n"
    assert check_template_source(svg) == []
    assert needs_writing_out(svg)
    root = parse_svg(svg, "x")
    assert write_out(root)
    drawn = etree.tostring(root, encoding="unicode")
    assert "spreadMethod" not in drawn and "<pattern" not in drawn
    parse_svg(drawn, "x")  # still within the allow-list
    assert check_svg(drawn) == []


@pytest.mark.parametrize(
    "snippet,expected",
    [
        (
            '<defs><pattern id="p" width="2" height="2" patternUnits="userSpaceOnUse"><rect width="1" height="1"/></pattern>'
            '</defs><text x="1" y="8" fill="url(#p)">Hi</text>',
            "cannot be drawn out as tiles",
        ),
        (
            '<defs><pattern id="p" width="0.01" height="0.01" patternUnits="userSpaceOnUse"><rect width="0.005" height="0.005"/>'
            '</pattern></defs><rect width="10" height="10" fill="url(#p)"/>',
            "cannot be drawn out as tiles",
        ),
        (
            '<defs><radialGradient id="q" r="0.2" fx="0.9" spreadMethod="repeat"><stop offset="0"/></radialGradient></defs>'
            '<circle cx="5" cy="5" r="4" fill="url(#q)"/>',
            'spreadMethod="repeat" cannot be written out',
        ),
    ],
    ids=["pattern on text", "too many tiles", "focus outside"],
)
def test_repeats_that_cannot_be_written_out_are_flagged_in_the_drawn_side(snippet, expected):
    from lxml import etree

    from generator.faces.repeats import write_out

    root = parse_svg(HEAD + snippet + "\n</svg>\n", "x")
    write_out(root)
    findings = check_svg(etree.tostring(root, encoding="unicode"))
    assert len(findings) == 1 and expected in findings[0].message, findings


def test_supported_features_pass():
    assert check_template_source(HEAD + FINE + "</svg>") == []
    assert check_svg(HEAD + FINE + "</svg>") == []


@pytest.mark.parametrize("name,snippet", ALLOWED, ids=[c[0] for c in ALLOWED])
def test_features_that_print_as_shown_pass_the_allow_list_and_the_check(name, snippet):
    svg = HEAD + FINE + snippet + "\n</svg>\n"
    parse_svg(svg, "templates/cards/x.svg.j2")  # the allow-list: raises on anything outside it
    assert check_svg(svg) == []
    assert check_template_source(svg) == []


def test_blend_modes_hidden_by_template_markup_are_left_to_the_drawn_check():
    source = HEAD + '<rect width="5" height="5" mix-blend-mode="{{ mode }}" spreadMethod="{{ spread }}"/>\n</svg>'
    assert check_template_source(source) == []
    assert [f.line for f in check_svg(HEAD + '<rect width="5" height="5" mix-blend-mode="plus-lighter"/>\n</svg>')] == [2]


def test_jinja_markup_inside_tags_does_not_confuse_the_source_check():
    source = HEAD + '<rect width="{{ 5 if a > b else 3 }}" height="5" {% if x %}fill="#000"{% endif %}/>\n</svg>'
    assert check_template_source(source) == []
    source = HEAD + '<g\n  {{ "x" }}\n  mix-blend-mode="plus-lighter">\n</g>\n</svg>'
    assert [f.line for f in check_template_source(source)] == [2]


def test_shipped_templates_and_decks_pass(project, definitions):
    from generator.pipeline.build import all_targets

    assert check_templates(project) == []
    assert check_drawn(ProjectContext(project), [t.deck for t in all_targets(definitions)]) == ([], [], [])


def _deck_with_a_faulty_back(scratch, cards: list[str]) -> None:
    """Deck "t" of these cards in ``scratch``, its back (the built-in one) given an unquoted family on line 13."""
    from .conftest import write_deck

    rows = "".join(f'\n[[cards]]\nid = "{card}"\nname = "{card.title()}"\n' for card in cards)
    write_deck(scratch, '[deck]\nid = "t"\ntitle = "T"\n' + rows)
    back = scratch.own.templates / "back.svg.j2"
    back.parent.mkdir()
    lines = (scratch.builtin.templates / "back.svg.j2").read_text(encoding="utf-8").splitlines()
    lines.insert(12, '<text x="20" y="40" font-family="Source Sans 3">faulty</text>')
    back.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _counted_renders(monkeypatch) -> list:
    """A list that grows by one for every side a renderer draws from here on."""
    from generator.faces import render

    drawn: list = []
    render_side = render.FaceRenderer._render
    monkeypatch.setattr(render.FaceRenderer, "_render", lambda self, *a, **k: drawn.append(1) or render_side(self, *a, **k))
    return drawn


def test_validate_reports_template_file_and_line(scratch, capsys):
    """What prints otherwise than shown is a warning, in validate as in build: the same words, the same status."""
    _deck_with_a_faulty_back(scratch, ["a"])
    assert main(["--project", str(scratch.root), "validate"]) == 0
    err = capsys.readouterr().err
    assert any(
        line.startswith("warning: ") and "templates/back.svg.j2:13: font-family Source Sans 3 is no family unquoted" in line
        for line in err.splitlines()
    )
    told = [line for line in err.splitlines() if "in the SVG drawn for the back of card 'a' of deck 't'" in line]
    assert main(["--project", str(scratch.root), "build", "t", "--jobs", "1"]) == 0
    assert told and told[0] in capsys.readouterr().err.splitlines()


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
    from generator.pipeline import drawncheck

    _deck_with_a_faulty_back(scratch, [f"c{n}" for n in range(30)])
    checked: list = []
    told = drawncheck.print_problems
    monkeypatch.setattr(drawncheck, "print_problems", lambda *args: checked.append(args[3]) or told(*args))
    drawn = _counted_renders(monkeypatch)
    assert main(["--project", str(scratch.root), "validate"]) == 0
    assert "templates/back.svg.j2:13: font-family Source Sans 3 is no family unquoted" in capsys.readouterr().err
    assert len(drawn) == 60  # thirty faces and thirty backs, each drawn once
    assert len(checked) == 31  # thirty faces, and the back they share


def test_validate_takes_the_sides_a_build_drew(scratch, monkeypatch, capsys):
    """After a build, validate checks the sides the build kept (with the boxes their texts were fitted to)
    instead of drawing them again, and finds the same problems."""
    _deck_with_a_faulty_back(scratch, ["c0", "c1", "c2"])
    assert main(["--project", str(scratch.root), "build", "t", "--jobs", "1"]) == 0
    drawn = _counted_renders(monkeypatch)
    capsys.readouterr()
    assert main(["--project", str(scratch.root), "validate"]) == 0
    assert "templates/back.svg.j2:13: font-family Source Sans 3 is no family unquoted" in capsys.readouterr().err
    assert drawn == []


@pytest.mark.parametrize(
    "snippet",
    [
        '<rect width="5" height="5" mix-blend-mode="url(http://127.0.0.1:9/m)"/>',
        '<mask id="m" mask-type="url(http://127.0.0.1:9/m.png)"/>',
        '<rect width="5" height="5" style="mix-blend-mode: image(http://127.0.0.1:9/m.png)"/>',
        "<style>.m { mask-type: url(http://127.0.0.1:9/m.png) }</style>",
        '<rect width="5" height="5" mask="url(http://127.0.0.1:9/m.svg#m)"/>',
        '<rect width="5" height="5" style="mix-blend-mode: multiply; behavior: url(x.htc)"/>',
    ],
)
def test_the_newly_allowed_properties_refer_to_nothing_outside_the_card(snippet):
    from generator.errors import AetherpressError

    with pytest.raises(AetherpressError):
        parse_svg(HEAD + snippet + "\n</svg>\n", "templates/cards/x.svg.j2")
