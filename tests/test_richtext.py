"""Rich card text (bold, italic, icons, line breaks), a project's own fonts and icons, drafts and the safe-zone check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.cli import main
from generator.definitions import load_all
from generator.errors import AetherpressError
from generator.faces.render import FaceRenderer
from generator.faces.richtext import ICON_HEIGHT, ICON_PAD, Icon, parse
from generator.faces.safezone import card_findings
from generator.faces.svg import parse_svg
from generator.faces.textfit import OVERFLOW_INK, TextDoesNotFit, fit_lines
from generator.geometry import Box
from generator.locations import FONTS_DIR
from generator.pipeline.context import ProjectContext
from generator.pipeline.drawncheck import check_drawn
from tests.designer import renamed_font

from .conftest import write_deck

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

SVG = "{http://www.w3.org/2000/svg}"


# --- parsing ------------------------------------------------------------------------------------


def test_markers_pair_up_and_a_lone_one_stays_text():
    (para,) = parse("Deal **3** damage, *then* 2*4 more")
    assert [(p.text, p.bold, p.italic) for p in para] == [
        ("Deal ", False, False),
        ("3", True, False),
        (" damage, ", False, False),
        ("then", False, True),
        (" 2*4 more", False, False),
    ]
    (para,) = parse(r"a \*b\* c\: d \\ :moon: at 10:30:45")
    assert "".join(p.text for p in para if p.icon is None) == r"a *b* c: d \  at 10:30:45"
    assert [p.icon for p in para if p.icon] == ["moon"]
    assert [len(p) for p in parse("one\n\n**two\nthree**")] == [1, 0, 1, 1]
    assert parse("**two\nthree**")[1][0].bold  # bold runs on over a line break


# --- measuring ----------------------------------------------------------------------------------


def test_bold_runs_and_icons_are_measured_in_their_own_faces():
    frame = Box(0, 0, 200, 20)
    fitted = fit_lines("Gain **three** :moon: now", frame, "EB Garamond", 4.0, 2.0, icons={"moon": Icon("moon", symbol="moon")})
    (line,) = fitted.lines
    expected = (
        stringWidth("Gain ", "EBGaramond-Regular", 4.0)
        + stringWidth("three", "EBGaramond-Bold", 4.0)
        + stringWidth(" ", "EBGaramond-Regular", 4.0)
        + 4.0 * (ICON_HEIGHT + 2 * ICON_PAD)
        + stringWidth(" now", "EBGaramond-Regular", 4.0)
    )
    assert line.width == pytest.approx(expected)
    assert fitted.box.w == pytest.approx(expected)
    assert [(r.text, r.weight) for r in line.runs if r.icon is None and r.text] == [
        ("Gain", "normal"),
        ("three", "bold"),
        ("now", "normal"),
    ]
    # the bold word is wider than the same word upright: the measure is not the plain text's
    assert expected > stringWidth("Gain three ", "EBGaramond-Regular", 4.0) + stringWidth(" now", "EBGaramond-Regular", 4.0)


@pytest.mark.parametrize(
    "text",
    [
        "**Once per turn:** draw a card, then *discard* one. " * 3,
        ":moon: :moon: :moon: **Bold words wrap** like any other words do " * 2,
        "*A whole flavour text set in italic, long enough to wrap over several lines of the box.*",
    ],
)
def test_every_rich_line_fits_the_box_it_was_fitted_to(text):
    frame = Box(5, 5, 30, 25)
    fitted = fit_lines(text, frame, "EB Garamond", 4.0, 1.5, icons={"moon": Icon("moon", symbol="moon")})
    assert len(fitted.lines) > 1
    for line in fitted.lines:
        assert line.width <= frame.w + 1e-9
    assert frame.contains(fitted.box)
    bigger = fitted.size + 0.05
    if fitted.size < 4.0:  # the next size up does not fit
        with pytest.raises(TextDoesNotFit):
            fit_lines(text, frame, "EB Garamond", bigger, bigger, icons={"moon": Icon("moon", symbol="moon")})


def test_plain_text_is_drawn_exactly_as_before():
    from generator.faces.textfit import _metrics

    fitted = fit_lines("A plain line", Box(0, 0, 40, 10), "Cinzel", 4.0, 2.0)
    baseline = f"{4.0 * _metrics('Cinzel-Regular')[0]:.3f}".rstrip("0").rstrip(".")
    assert str(fitted.svg()) == (
        f'<text x="20" y="{baseline}" font-family="\'Cinzel\'" font-size="4" fill="#000000" text-anchor="middle">A plain line</text>'
    )
    assert fitted.lines[0].runs == ()


# --- a project with its own fonts and icons -----------------------------------------------------

COIN = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 24 12">
<title>coin</title><metadata>made by hand</metadata>
<g inkscape:label="coin" transform="translate(1,0)"><circle cx="5" cy="6" r="5" fill="#d4a017"/>
<rect x="12" y="1" width="10" height="10" rx="2" style="fill:currentColor;stroke:#000;stroke-width:0.5"/>
<polygon points="14,9 20,9 17,3"/></g></svg>
"""

DECK = """\
[deck]
id = "rich"
title = "Rich"
template = "plain"
style = "rich"

[deck.attributes]
text = "text"
flavour = "text"

[[suits]]
id = "moons"
name = "Moons"
symbol = "moon"
colour = "royalblue"

[[ranks]]
id = "1"
name = "One"

[[cards]]
name = "Trader"
rank = "1"
suits = ["moons"]
text = "Pay 2 :coin: to draw.\\n**Once per turn:** gain 1 :coin: for each :moons: card; *then* discard."
flavour = "*Every coin remembers.*"
"""


@pytest.fixture(scope="module")
def rich(tmp_path_factory):
    from generator.project import Project

    root = tmp_path_factory.mktemp("rich")
    (root / "decks").mkdir()
    (root / "fonts").mkdir()
    (root / "icons").mkdir()
    (root / "styles").mkdir()
    renamed_font(FONTS_DIR / "SourceSans3-Regular.ttf", root / "fonts" / "TestSans-Regular.ttf", "Test Sans")
    renamed_font(FONTS_DIR / "SourceSans3-Bold.ttf", root / "fonts" / "TestSans-Bold.ttf", "Test Sans")
    (root / "fonts" / "OFL.txt").write_text("a licence file is not a font", encoding="utf-8")
    (root / "icons" / "coin.svg").write_text(COIN, encoding="utf-8")
    (root / "styles" / "rich.toml").write_text('text_font = "Test Sans"\nink = "darkslategrey"\n', encoding="utf-8")
    project = Project(root)
    write_deck(project, DECK, "rich.toml", "rich")
    return project


def test_a_project_font_is_found_by_its_family_and_measured_with_its_own_metrics(rich):
    deck = load_all(rich)["rich"].build(())
    faces = FaceRenderer(rich, deck)
    assert {f.family for f in faces.fonts.files} == {"Test Sans"}
    regular = faces.fonts.name("Test Sans")
    bold = faces.fonts.name("Test Sans", "bold")
    assert regular != bold and re.fullmatch(r"TestSans-Regular-[0-9a-f]{12}", regular)
    assert deck.style["ink"] == "#2f4f4f"
    svg = faces.face(deck.cards[0])
    root = parse_svg(svg, "test")
    texts = [t for t in root.iter(f"{SVG}text") if t.get("font-family") == "'Test Sans'"]
    assert any(t.get("font-weight") == "bold" and t.text == "Once per turn:" for t in texts)
    upright = " ".join(t.text for t in texts if t.get("font-style") != "italic")
    assert "Every coin remembers." in upright  # *..* inside the italic flavour is set upright, on however many lines
    fitted = fit_lines("Pay 2 now", Box(0, 0, 100, 10), "Test Sans", 3.0, 2.0, fonts=faces.fonts)
    assert fitted.lines[0].width == pytest.approx(stringWidth("Pay 2 now", regular, 3.0))


def test_icons_are_drawn_as_paths_in_the_card(rich):
    deck = load_all(rich)["rich"].build(())
    faces = FaceRenderer(rich, deck)
    svg = faces.face(deck.cards[0])
    root = parse_svg(svg, "test")  # passes the allow-list
    assert "coin.svg" not in svg and "<image" not in svg and "<circle" not in svg and "<title" not in svg
    groups = [g for g in root.iter(f"{SVG}g") if "scale(" in (g.get("transform") or "")]
    assert len(groups) == 2  # two coins
    paths = groups[0].findall(f".//{SVG}path")
    assert [p.get("fill") for p in paths] == ["#d4a017", "#2f4f4f", None]  # currentColor takes the ink
    suit = [p for p in root.iter(f"{SVG}path") if p.get("fill") == "#4169e1"]
    assert len(suit) >= 3  # the :moons: icon in the suit's colour, besides the suit symbols
    width = 24 / 12 * ICON_HEIGHT  # the coin is twice as wide as high
    assert faces.icons["coin"].advance(1.0) == pytest.approx(width + 2 * ICON_PAD)


def test_an_unknown_icon_names_the_card_and_a_near_name(rich):
    deck = load_all(rich)["rich"].build(())
    faces = FaceRenderer(rich, deck)
    card = deck.cards[0]
    from dataclasses import replace

    from generator.definitions.model import frozen_mapping

    broken = replace(card, attributes=frozen_mapping({**card.attributes, "text": "Pay :coins:"}))
    with pytest.raises(AetherpressError) as info:
        faces.face(broken)
    assert "card 'trader': text: unknown icon ':coins:' (did you mean ':coin:'?)" in str(info.value)


@pytest.mark.parametrize(
    ("svg", "message"),
    [
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><text>x</text></svg>',
            "<text> (line 1) is not allowed in an icon",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><image href="x.png"/></svg>',
            "<image> (line 1): refers to 'x.png'",
        ),
        ('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0,0 L1,1"/></svg>', "it needs a viewBox"),
        ('<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"/>', "declares a DOCTYPE"),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0,0" onclick="x()"/></svg>', "event handler"),
        ('<svg viewBox="0 0 1 1"><path d="M0,0"/></svg>', "not an <svg> document"),
    ],
)
def test_a_broken_icon_is_a_one_line_error_naming_its_file(tmp_path, svg, message):
    from generator.faces.icons import project_icons
    from generator.project import Project

    (tmp_path / "decks").mkdir()
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "bad.svg").write_text(svg, encoding="utf-8")
    with pytest.raises(AetherpressError) as info:
        project_icons(Project(tmp_path))
    (problem,) = info.value.problems
    assert problem.file.endswith("icons/bad.svg") and message in problem.message, problem


def test_fonts_the_pdf_library_cannot_embed_are_refused_in_one_line(tmp_path):
    from fontTools.ttLib import TTFont, newTable

    from generator.project import Project
    from generator.resources.fonts import font_book

    (tmp_path / "decks").mkdir()
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / "Post.otf").write_bytes(b"OTTO" + bytes(200))
    (fonts / "Web.woff2").write_bytes(b"wOF2" + bytes(200))
    (fonts / "Junk.ttf").write_bytes(b"\x00\x01\x00\x00" + bytes(50))
    variable = TTFont(FONTS_DIR / "Cinzel-Regular.ttf")
    variable["fvar"] = newTable("fvar")
    variable["fvar"].axes, variable["fvar"].instances = [], []
    variable.save(fonts / "Variable.ttf")
    renamed_font(FONTS_DIR / "Cinzel-Regular.ttf", fonts / "Copy.ttf", "Cinzel")
    with pytest.raises(AetherpressError) as info:
        font_book(Project(tmp_path))
    messages = {Path(p.file).name: p.message for p in info.value.problems}
    assert "PostScript (CFF) outlines, which the PDF library cannot embed" in messages["Post.otf"]
    assert "web font (.woff2)" in messages["Web.woff2"]
    assert "is not a complete TrueType font" in messages["Junk.ttf"]
    assert "is a variable font; only its default instance would be drawn" in messages["Variable.ttf"]
    assert len(messages) == 4
    for name in ("Post.otf", "Web.woff2", "Junk.ttf", "Variable.ttf"):
        (fonts / name).unlink()
    with pytest.raises(AetherpressError) as info:
        font_book(Project(tmp_path))
    assert "family 'Cinzel', which ships with Aetherpress" in str(info.value)


def test_a_project_font_is_embedded_in_the_sheets(rich, tmp_path, monkeypatch, capsys):
    from pypdf import PdfReader

    monkeypatch.chdir(rich.root)
    assert main(["build", "rich", "--paper", "a4", "--out", str(tmp_path)]) == 0
    reader = PdfReader(str(tmp_path / "rich" / "rich-sheets.pdf"))
    fonts = set()
    for page in reader.pages:
        for xobject in _xobjects(page):
            fonts |= {str(f["/BaseFont"]) for f in _fonts(xobject)}
        fonts |= {str(f["/BaseFont"]) for f in _fonts(page)}
    assert {f.split("+")[-1] for f in fonts} == {"Cinzel-Bold", "TestSans-Regular", "TestSans-Bold"}, fonts
    # the italic flavour is drawn in the family's regular face: no font of the machine is ever picked


def _fonts(holder):
    resources = holder.get("/Resources") or {}
    fonts = resources.get("/Font") or {}
    return [fonts[k].get_object() for k in fonts]


def _xobjects(holder):
    resources = holder.get("/Resources") or {}
    xobjects = resources.get("/XObject") or {}
    out = []
    for key in xobjects:
        x = xobjects[key].get_object()
        out.append(x)
        out += _xobjects(x)
    return out


# --- drafts -------------------------------------------------------------------------------------


def test_a_draft_draws_what_does_not_fit_in_red_with_how_much_to_cut():
    frame = Box(0, 0, 30, 12)
    text = "Every player draws **two** cards and discards one of them at the end of the round. " * 3
    with pytest.raises(TextDoesNotFit):
        fit_lines(text, frame, "EB Garamond", 3.0, 2.5)
    fitted = fit_lines(text, frame, "EB Garamond", 3.0, 2.5, overflow=True)
    assert fitted.size == 2.5 and fitted.overflow > 0
    assert fitted.box.bottom > frame.bottom  # it runs out of its box
    svg = str(fitted.svg())
    assert f'fill="{OVERFLOW_INK}"' in svg and f"cut {fitted.overflow} characters" in svg
    # the count is exact: the text without that many characters fits, with one more it does not
    visible = text.replace("**", "")
    fit_lines(visible[: len(visible) - fitted.overflow], frame, "EB Garamond", 2.5, 2.5)
    with pytest.raises(TextDoesNotFit):
        fit_lines(visible[: len(visible) - fitted.overflow + 1], frame, "EB Garamond", 2.5, 2.5)


def test_build_draft_shows_every_overflow_at_once_and_a_normal_build_refuses(scratch, tmp_path, monkeypatch, capsys):
    words = "Far too many words for so small a box. " * 40
    cards = "".join(f'\n[[cards]]\nname = "Card {n}"\ntext = "{words}"\n' for n in range(3))
    write_deck(scratch, DECK.split("[[cards]]")[0].replace('style = "rich"', "") + cards)
    monkeypatch.chdir(scratch.root)
    assert main(["build", "rich", "--paper", "a4", "--out", str(tmp_path / "normal")]) == 2
    assert "card-0': text does not fit" in capsys.readouterr().err
    assert main(["build", "rich", "--paper", "a4", "--draft", "--out", str(tmp_path / "draft")]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "does not fit" in line]
    assert [re.search(r"card '(card-\d)'", line).group(1) for line in lines] == ["card-0", "card-1", "card-2"]
    assert all(re.search(r"cut \d+ characters$", line) for line in lines)
    face = (tmp_path / "draft" / "rich" / "faces" / "card-1.svg").read_text(encoding="utf-8")
    assert OVERFLOW_INK in face
    assert (tmp_path / "draft" / "rich" / "rich-sheets.pdf").is_file()


def test_a_draft_build_draws_the_rulebooks_pictures_in_red_too(tmp_path, monkeypatch, capsys):
    """The starter's rulebook pictures Dawn: in a draft its text that does not fit is drawn in red there
    as on the sheets (told once, in one line that agrees in number), and a normal build refuses it."""
    from .served import edit, new_game

    game = new_game(tmp_path)
    edit(
        game / "decks" / "game" / "cards.csv", "Dawn,1,suns,Draw a card.", "Dawn,1,suns," + "Draw a card and then another. " * 40
    )
    monkeypatch.chdir(game)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "--draft"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if "card 'dawn'" in line and "text does not fit" in line] != []
    assert err[-1] == "draft: 1 text does not fit (drawn in red); a build without --draft refuses it"
    assert (game / "output" / "rulebooks" / "game.pdf").is_file()
    assert main(["build"]) == 2
    assert "card 'dawn': text does not fit" in capsys.readouterr().err


# --- the safe zone ------------------------------------------------------------------------------


def test_the_built_in_templates_have_no_safe_zone_findings(project, definitions):
    decks = [d.build(()) for d in definitions.values()]
    assert check_drawn(ProjectContext(project), decks)[1] == []


def test_a_designers_template_is_told_about_text_and_frames_out_of_place(rich, tmp_path, monkeypatch, capsys):
    from generator.project import Project

    root = tmp_path / "edgy"
    (root / "templates").mkdir(parents=True)
    (root / "decks").mkdir()
    plain = (Path(__file__).resolve().parents[1] / "templates" / "cards" / "plain.svg.j2").read_text(encoding="utf-8")
    edgy = plain.replace(
        "{{ parts.field(style.paper) }}",
        '{{ parts.field(style.paper) }}\n{{ parts.frame(trim.inset(-1), style.accent, 0.5) }}\n<text x="{{ (trim.x + 1)|mm }}"'
        ' y="{{ (trim.bottom - 1)|mm }}" font-family="Cinzel" font-size="3">By hand</text>',
    )
    assert edgy != plain
    (root / "templates" / "edgy.svg.j2").write_text(edgy, encoding="utf-8")
    deck_text = DECK.replace('template = "plain"', 'template = "edgy"').replace('style = "rich"', "").replace(":coin:", "2")
    write_deck(Project(root), deck_text)
    project = Project(root)
    deck = load_all(project)["rich"].build(())
    found = card_findings(ProjectContext(project).sides(deck), deck.cards[0])
    assert {f.what for f in found} == {"frame <rect>", "<text> 'By hand'"}
    frame = next(f for f in found if f.what == "frame <rect>")
    assert frame.message.startswith("reaches 1.2 mm into the bleed")  # 1 mm out, and half the 0.5 mm stroke
    monkeypatch.chdir(root)
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert "templates/edgy.svg.j2: frame <rect> reaches 1.2 mm into the bleed" in err
    assert "<text> 'By hand' reaches 3.1 mm outside the safe zone at the bottom" in err
    assert "keep text 3 mm inside the trim" in err


def test_icons_and_project_fonts_convert_for_print(rich):
    """The icon's shapes and the project's font reach the PDF: every text in a face is set in the fonts it names."""
    import io

    import pikepdf

    from generator.render.vector import font_files, side_pdf

    deck = load_all(rich)["rich"].build(())
    faces = FaceRenderer(rich, deck)
    pdf = side_pdf(faces.face(deck.cards[0]), "test", None, font_files(faces.fonts))
    names = set()
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for obj in doc.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/BaseFont" in obj:
                names.add(str(obj.BaseFont)[1:].split("+", 1)[-1])
    project_fonts = {Path(f.path).name: f for f in faces.fonts.files}
    assert len(project_fonts) == 2
    # the subsets are named by the files' PostScript names: Cinzel's bold and the project's two faces
    assert names == {"Cinzel-Bold", "TestSans-Regular", "TestSans-Bold"}, names
