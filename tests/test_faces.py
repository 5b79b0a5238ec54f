"""Card faces: print geometry, text fitting and the safe zone, colourless output, backs, contact sheets."""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pytest
from lxml import etree
from PIL import Image
from pypdf import PdfReader

from generator.definitions import load_all
from generator.definitions.presets import load_sizes
from generator.errors import AetherpressError
from generator.faces.render import FaceRenderer
from generator.faces.svg import parse_svg
from generator.faces.textfit import TextDoesNotFit, fit_lines
from generator.geometry import Box
from generator.imposition.layout import Layout
from generator.outputs.proof import proof_png
from generator.pipeline.build import all_targets
from generator.pipeline.context import ProjectContext
from generator.pipeline.sheets import write_sheets
from generator.render.vector import side_pdf

from .conftest import A4, write_deck

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

PT = 72 / 25.4  # points per millimetre


@pytest.fixture(scope="module")
def every_deck(definitions):
    return [t.deck for t in all_targets(definitions)]


def _svg_size(svg: str) -> tuple[float, float, list[float]]:
    root = parse_svg(svg, "test")
    return (
        float(root.get("width").removesuffix("mm")),
        float(root.get("height").removesuffix("mm")),
        [float(v) for v in root.get("viewBox").split()],
    )


# --- geometry -------------------------------------------------------------------------------


def test_faces_and_backs_are_trim_plus_bleed(project, every_deck):
    presets = load_sizes(project)
    for deck in every_deck:
        faces = FaceRenderer(project, deck)
        g = faces.geometry
        assert (g.trim_w, g.trim_h) == (presets[deck.size.name].width, presets[deck.size.name].height), deck.key
        for svg in [faces.face(c) for c in deck.cards] + [faces.back(c) for c in deck.cards[:1]]:
            w, h, box = _svg_size(svg)
            assert w == pytest.approx(deck.size.width + 2 * g.bleed, abs=1e-3), deck.key
            assert h == pytest.approx(deck.size.height + 2 * g.bleed, abs=1e-3), deck.key
            assert box == pytest.approx([0, 0, w, h], abs=1e-3)


def test_bleed_is_configurable(project, definitions):
    deck = definitions["decktet"].build(())
    wide = FaceRenderer(project, deck, bleed=5.0)
    w, h, _ = _svg_size(wide.face(deck.cards[0]))
    assert (w, h) == pytest.approx((63.5 + 10, 88.9 + 10))
    assert wide.geometry.safe_box.x == pytest.approx(5.0 + 3.0)


def test_size_presets_and_custom_sizes(project, scratch):
    presets = load_sizes(project)
    assert {"poker", "bridge", "tarot", "mini", "square"} <= set(presets)
    assert (presets["poker"].width, presets["poker"].height) == (63.5, 88.9)
    assert (presets["tarot"].width, presets["tarot"].height) == (69.85, 120.65)
    assert presets["jumbo"].width == pytest.approx(3.5 * 25.4)
    write_deck(scratch, DECK.replace('size = "poker"', 'size = { width = 2.25, height = 3.5, unit = "in" }'))
    deck = load_all(scratch)["test"].build(())
    w, h, _ = _svg_size(FaceRenderer(scratch, deck).face(deck.cards[0]))
    assert (w, h) == pytest.approx((2.25 * 25.4 + 6, 3.5 * 25.4 + 6))


def test_pdf_page_of_one_card_is_exactly_the_bleed_size(project, definitions, tmp_path):
    for deck_id in ("aetherial", "pernese"):
        deck = definitions[deck_id].build(())
        faces = FaceRenderer(project, deck)
        g = faces.geometry
        target = tmp_path / f"{deck_id}.pdf"
        target.write_bytes(side_pdf(faces.face(deck.cards[0]), "test"))
        box = PdfReader(str(target)).pages[0].mediabox
        assert float(box.width) == pytest.approx(g.width * PT, abs=0.01)
        assert float(box.height) == pytest.approx(g.height * PT, abs=0.01)


def _content(page) -> str:
    data = page.get_contents().get_data()
    return data.decode("latin-1")


def test_print_sheet_cards_are_clipped_to_the_trim(project, definitions, tmp_path):
    """Every card on the print sheet is cut to a rectangle exactly its trim size."""
    for deck_id in ("aetherial", "dragons-gambit"):
        deck = definitions[deck_id].build(())
        g = FaceRenderer(project, deck).geometry
        pdf = write_sheets(ProjectContext(project), deck, tmp_path / f"{deck_id}.pdf", Layout(A4))
        page = PdfReader(str(pdf)).pages[0]
        rects = re.findall(r"(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re", _content(page))
        trims = [r for r in rects if abs(float(r[2]) - g.trim_w * PT) < 0.01 and abs(float(r[3]) - g.trim_h * PT) < 0.01]
        assert trims, deck_id


# --- text fitting and the safe zone ---------------------------------------------------------


def test_every_text_and_index_lies_inside_the_safe_zone(project, every_deck):
    checked = 0
    for deck in every_deck:
        faces = FaceRenderer(project, deck)
        safe = faces.geometry.safe_box
        renders = [(c.id, lambda c=c, f=faces: f.face(c)) for c in deck.cards]
        renders += [(f"back of {c.id}", lambda c=c, f=faces: f.back(c)) for c in deck.cards[:1]]
        for name, render in renders:
            render()
            for field, box in faces.text_boxes:
                assert box.w >= 0 and box.h > 0, (deck.key, name, field)
                assert safe.contains(box), (deck.key, name, field, box, safe)
                checked += 1
    assert checked > 500


def test_text_boxes_are_measured_from_the_font():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    frame = Box(10, 20, 40, 30)
    fitted = fit_lines("Every player discards their Thumb and draws a new card for it", frame, "EB Garamond", 4.0, 2.0)
    assert len(fitted.lines) > 1
    widest = max(stringWidth(line.text, "EBGaramond-Regular", fitted.size) for line in fitted.lines)
    assert fitted.box.w == pytest.approx(widest)
    assert all(stringWidth(line.text, "EBGaramond-Regular", fitted.size) <= frame.w for line in fitted.lines)
    assert frame.contains(fitted.box)
    # the next size up would not have fitted
    if fitted.size < 4.0:
        larger = fitted.size + 0.05
        with pytest.raises(TextDoesNotFit):
            fit_lines("Every player discards their Thumb and draws a new card for it", frame, "EB Garamond", larger, larger)


def test_texts_shrink_before_they_wrap_out_of_their_box():
    frame = Box(0, 0, 30, 12)
    short = fit_lines("Short", frame, "Cinzel", 5.0, 2.0, weight="bold")
    long = fit_lines("A much longer spell name that must shrink", frame, "Cinzel", 5.0, 2.0, weight="bold")
    assert short.size == 5.0
    assert 2.0 <= long.size < 5.0
    assert frame.contains(long.box)


def test_aetherial_longest_spell_fits_at_a_readable_size(project, definitions):
    deck = definitions["aetherial"].build(())
    faces = FaceRenderer(project, deck)
    longest = max(deck.cards, key=lambda c: len(c.attributes["text"]) + len(c.attributes.get("flavour") or ""))
    faces.face(longest)
    sizes = dict(faces.text_boxes)
    assert "text" in sizes and "title" in sizes
    assert deck.size.name == "tarot"
    # the effect text's lines are at least the style's minimum (2.4 mm, about 6.8 pt)
    svg = faces.face(longest)
    root = parse_svg(svg, "test")
    garamond = [float(t.get("font-size")) for t in root.iter("{*}text") if t.get("font-family") == "'EB Garamond'"]
    assert garamond and min(garamond) >= deck.style["min_text_size"]


DECK = """\
[deck]
id = "test"
title = "Test deck"
size = "poker"
style = "aetherial"
template = "spell"
back = "aetherial-back"

[deck.attributes]
text = "text"
flavour = "text"

[[cards]]
id = "short"
name = "A Short Spell"
text = "Draw a card."
"""


def test_text_that_cannot_fit_is_an_error_naming_deck_card_and_field(scratch):
    write_deck(scratch, DECK + '\n[[cards]]\nid = "wordy"\nname = "Wordy"\ntext = "' + "Far too many words here. " * 80 + '"\n')
    deck = load_all(scratch)["test"].build(())
    faces = FaceRenderer(scratch, deck)
    faces.face(deck.card("short"))
    with pytest.raises(AetherpressError) as info:
        faces.face(deck.card("wordy"))
    message = str(info.value)
    assert "deck 'test'" in message and "card 'wordy'" in message and "text" in message
    assert "minimum size" in message


def test_build_stops_on_text_that_cannot_fit(scratch, capsys):
    from generator.cli import main

    write_deck(scratch, DECK + '\n[[cards]]\nid = "wordy"\nname = "' + "Name " * 40 + '"\ntext = "x"\n')
    assert main(["--project", str(scratch.root), "build"]) == 2
    err = capsys.readouterr().err
    assert "card 'wordy'" in err and "title does not fit" in err
    assert not list((scratch.root / "output").rglob("*.pdf"))


# --- colour ---------------------------------------------------------------------------------

COLOUR_ATTRS = ("fill", "stroke", "stop-color", "color", "flood-color", "lighting-color")


def _colours(svg: str) -> list[str]:
    root = etree.fromstring(svg.encode("utf-8"))
    found = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in COLOUR_ATTRS:
            if el.get(attr):
                found.append(el.get(attr))
        for part in (el.get("style") or "").split(";"):
            if ":" in part and part.split(":")[0].strip() in COLOUR_ATTRS:
                found.append(part.split(":", 1)[1].strip())
    return found


def _is_grey(value: str) -> bool:
    value = value.strip().lower()
    if value in ("none", "black", "white", "currentcolor") or value.startswith("url("):
        return True  # gradients are checked through their stops
    match = re.fullmatch(r"#([0-9a-f]{6}|[0-9a-f]{3})", value)
    assert match, f"unexpected colour syntax {value!r}"
    h = match.group(1)
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return h[0:2] == h[2:4] == h[4:6]


def test_colourless_pernese_has_no_colour_in_any_face_or_back(project, definitions):
    deck = definitions["pernese"].build(("colourless",))
    faces = FaceRenderer(project, deck)
    svgs = [faces.face(c) for c in deck.cards] + [faces.back(c) for c in deck.cards]
    colours = [c for svg in svgs for c in _colours(svg)]
    assert len(colours) > 500
    assert [c for c in colours if not _is_grey(c)] == []
    # the same check finds colour in the coloured deck
    coloured = definitions["pernese"].build(("coloured",))
    cf = FaceRenderer(project, coloured)
    assert [c for card in coloured.cards for c in _colours(cf.face(card)) if not _is_grey(c)]


def _pdf_colours(pdf) -> list[tuple[float, ...]]:
    """Every RGB colour the file sets: in page and form contents (``rg``, or three components with ``sc``/``scn``)
    and at the ends of its gradients; no CMYK colour may be set at all."""
    import pikepdf

    found: list[tuple[float, ...]] = []
    with pikepdf.open(pdf) as doc:
        for obj in doc.objects:
            if isinstance(obj, pikepdf.Dictionary) and "/C0" in obj:  # a gradient's function
                found += [tuple(float(v) for v in obj[key]) for key in ("/C0", "/C1") if len(obj[key]) == 3]
            if not (isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"):
                continue
            for operands, operator in pikepdf.parse_content_stream(obj):
                op = str(operator)
                assert op not in ("k", "K")
                numbers = [float(v) for v in operands if isinstance(v, int | float | Decimal)]
                if op in ("rg", "RG") or (op in ("sc", "scn", "SC", "SCN") and len(numbers) == len(operands) == 3):
                    found.append(tuple(numbers))
    return found


def test_colourless_print_pdf_is_grey(project, definitions, tmp_path):
    deck = definitions["pernese"].build(("colourless",))
    colours = _pdf_colours(write_sheets(ProjectContext(project), deck, tmp_path / "colourless.pdf", Layout(A4)))
    assert colours
    assert [c for c in colours if not (c[0] == c[1] == c[2])] == []
    coloured = _pdf_colours(
        write_sheets(ProjectContext(project), definitions["pernese"].build(("coloured",)), tmp_path / "c.pdf", Layout(A4))
    )
    assert [c for c in coloured if not (c[0] == c[1] == c[2])]


# --- backs ----------------------------------------------------------------------------------


def test_every_deck_has_a_back_and_aetherial_differs_from_imperial(project, definitions):
    backs = {}
    for deck_id in definitions:
        deck = definitions[deck_id].build(())
        backs[deck_id] = FaceRenderer(project, deck).back(deck.cards[0])
        assert "<svg" in backs[deck_id]
    assert backs["aetherial"] != backs["imperial"]
    assert definitions["aetherial"].base.back_template != definitions["imperial"].base.back_template


def test_backs_per_card_group(scratch):
    write_deck(
        scratch,
        DECK.replace('back = "aetherial-back"', 'back = "aetherial-back"\nbacks = { special = "back" }')
        + '\n[[cards]]\nid = "odd"\nname = "Odd One"\ntext = "x"\ngroup = "special"\n',
    )
    deck = load_all(scratch)["test"].build(())
    faces = FaceRenderer(scratch, deck)
    assert deck.back_for(deck.card("odd")) == "back"
    assert faces.back(deck.card("odd")) != faces.back(deck.card("short"))


def test_founding_cards_print_no_name_unless_labelled(project, definitions):
    plain = definitions["imperial"].build(("standard",))
    labelled = definitions["imperial"].build(("standard", "labelled"))
    for deck, expect in ((plain, False), (labelled, True)):
        faces = FaceRenderer(project, deck)
        svg = faces.face(deck.card("emperor"))
        assert ("The Emperor" in svg) is expect
        assert ("<text" in svg) is expect


# --- contact sheets -------------------------------------------------------------------------


def test_contact_sheet_is_a_reproducible_png_of_every_face_and_back(project, definitions):
    deck = definitions["dragons-gambit"].build(())
    first = proof_png(ProjectContext(project), deck)
    assert first == proof_png(ProjectContext(project), deck)
    image = Image.open(io.BytesIO(first))
    assert image.format == "PNG"
    # 40 faces and a back in a grid of cards about 180 px wide at 72 dpi
    g = FaceRenderer(project, deck).geometry
    card_px = g.trim_w / 25.4 * 72
    cells = (image.width // card_px) * (image.height // (g.trim_h / 25.4 * 72 + 10))
    assert cells >= 41


def test_proof_option_writes_contact_sheets(project, tmp_path, capsys):
    from generator.cli import main

    assert main(["--project", str(project.root), "build", "aetherial", "--out", str(tmp_path), "--proof"]) == 0
    png = tmp_path / "aetherial" / "aetherial-proof.png"
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "aetherial-proof.png" in capsys.readouterr().out


def test_shipped_templates_set_all_text_through_fit(project):
    """Text placed by hand would escape the safe-zone check above: every text goes through fit()."""
    from generator.faces.lint import _JINJA, _blank

    for path in sorted(project.builtin.templates.glob("*.svg.j2")):
        source = _JINJA.sub(_blank, path.read_text(encoding="utf-8"))
        assert "<text" not in source and "<tspan" not in source, path.name


def test_a_family_css_must_quote_is_quoted_and_still_drawn_in_its_font(tmp_path, monkeypatch):
    """font-family="Source Sans 3" is ignored by a browser and by svg2pdf (a CSS word may not start with a digit):
    the face names it in quotes, as it names every family, and the PDF path still draws it in Source Sans 3."""
    from generator.cli import main

    from .test_catalogue import make_project

    root = make_project(tmp_path)
    deck = root / "decks" / "cat" / "deck.toml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(
        text.replace("[deck.attributes]", '[style]\ntext_font = "Source Sans 3"\n\n[deck.attributes]'), encoding="utf-8"
    )
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["--project", str(root), "build", "cat", "--paper", "a4", "--out", str(tmp_path / "out")]) == 0
    face = etree.fromstring((tmp_path / "out" / "cat" / "faces" / "fox.svg").read_bytes())
    families = {node.get("font-family") for node in face.iter() if node.get("font-family")}
    assert "'Source Sans 3'" in families and "Source Sans 3" not in families
    assert all(family[0] == family[-1] == "'" for family in families), families  # every family, in one form
    assert b"font-family=\"'Source Sans 3'\"" in (tmp_path / "out" / "cat" / "faces" / "fox.svg").read_bytes()
    import pikepdf

    with pikepdf.open(tmp_path / "out" / "cat" / "cat-sheets.pdf") as pdf:
        fonts = {str(o.get("/BaseFont")) for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"}
    assert any("SourceSans3" in f for f in fonts), fonts


def test_plain_texts_keep_clear_of_wide_corner_indices(tmp_path):
    """The plain face (the one `aetherpress new` copies) widens its text margins for a wide rank label, so a long
    flavour line never runs into the bottom-right index, which is the top-left one turned half round."""
    from generator.definitions import load_definition
    from generator.geometry import Box
    from generator.project import Project

    from .test_catalogue import make_project

    root = make_project(tmp_path)
    deck_file = root / "decks" / "cat" / "deck.toml"
    text = deck_file.read_text(encoding="utf-8")
    text = text.replace('id = "1"\nname = "One"', 'id = "1"\nname = "One"\nlabel = "XIV"').replace(
        'text = "text"', 'text = "text"\nflavour = "text"'
    )
    deck_file.write_text(text, encoding="utf-8")
    cards = root / "decks" / "cat" / "cards.csv"
    lines = cards.read_text(encoding="utf-8").splitlines()
    long = "The old gardeners say that every moon remembers the seed it first watched over and the long night too"
    cards.write_text("\n".join([lines[0] + ",flavour", *(f"{row},{long}" for row in lines[1:])]) + "\n", encoding="utf-8")
    project = Project(root)
    deck = load_definition(deck_file, project).build(())
    faces = FaceRenderer(project, deck)
    width, height = faces.geometry.width, faces.geometry.height
    checked = 0
    for card in deck.cards:
        faces.face(card)
        corners = [b for field, b in faces.text_boxes if field.startswith("index")]
        corners += [Box(width - b.right, height - b.bottom, b.w, b.h) for b in corners]  # the turned copy
        for field, box in faces.text_boxes:
            if field in ("text", "flavour", "foot"):
                assert not any(box.overlaps(c) for c in corners), (card.id, field, box)
                checked += 1
    assert checked >= 3


@pytest.mark.parametrize(
    "family", ["Source Sans 3", "EB Garamond", "serif", "O'Brien Sans", 'Say "Cheese" Sans', "Both ' and \" Sans", "Back\\slash"]
)
def test_a_family_is_written_as_one_css_string_and_read_back_as_itself(family):
    from generator.resources.fonts import css_family, family_attribute, first_family

    written = etree.fromstring(f"<text {family_attribute(family)}/>").get("font-family")
    assert written == css_family(family) and written[0] in "'\"" and written[-1] == written[0]
    assert first_family(written) == family and first_family(f"{written}, serif") == family
    assert css_family("Source Sans 3") == "'Source Sans 3'"


def test_hand_set_text_in_a_quoted_family_is_measured_in_that_family():
    """The safe-zone check reads a quoted family (and a list of them) as the family itself, not as the fallback."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.faces.safezone import _drawn_boxes
    from generator.resources.fonts import FontBook, register_fonts

    register_fonts()
    widths = {}
    for value in ("'Source Sans 3'", "&quot;Source Sans 3&quot;, serif", "Cinzel"):
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<text x="10" y="20" font-family="{value}" font-size="4">Measured words</text></svg>'
        )
        [(_, _, box, _)] = list(_drawn_boxes(svg, FontBook()))
        widths[value] = box.w
    sans = stringWidth("Measured words", "SourceSans3-Regular", 4)
    assert widths["'Source Sans 3'"] == pytest.approx(sans) and widths["&quot;Source Sans 3&quot;, serif"] == pytest.approx(sans)
    assert widths["Cinzel"] == pytest.approx(stringWidth("Measured words", "Cinzel-Regular", 4)) != pytest.approx(sans)


def test_the_family_filter_quotes_a_family_for_a_hand_set_text(tmp_path):
    from generator.faces.sandbox import _environment

    env = _environment(((str(tmp_path), str(tmp_path)),))
    text = env.from_string('<text font-family="{{ font|family }}">x</text>').render(font="Source Sans 3")
    assert etree.fromstring(text).get("font-family") == "'Source Sans 3'"


def test_a_project_font_replaced_under_the_same_name_is_used_at_once(tmp_path):
    """A designer replaces a font file while the preview runs (same name, another family): the next side drawn
    finds the new family."""
    import numpy as np

    from generator.locations import FONTS_DIR
    from generator.render.pagepng import render_pages
    from generator.render.vector import font_files, side_pdf
    from tests.designer import renamed_font

    font = tmp_path / "Swap-Regular.ttf"

    def inked(family: str) -> int:
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="12mm" viewBox="0 0 40 12"><rect width="40" '
            f'height="12" fill="#fff"/><text x="2" y="9" font-family="\'{family}\'" font-size="8">Ragged</text></svg>'
        )
        pdf = side_pdf(svg, "test", None, (*font_files(), str(font)))
        return int((np.asarray(next(render_pages(pdf, (160, 48))).convert("L")) < 128).sum())

    renamed_font(FONTS_DIR / "Cinzel-Regular.ttf", font, "Swap Sans")
    assert inked("Swap Sans") > 50
    renamed_font(FONTS_DIR / "EBGaramond-Regular.ttf", font, "Swap Serif")
    assert inked("Swap Serif") > 50  # not a blank: the file's new family is known


@pytest.mark.parametrize(
    "names,weight,family",
    [
        ({1: "Atelier Semi", 2: "Regular", 16: "Atelier", 17: "SemiBold"}, 600, "Atelier Semi"),
        ({1: "Atelier Light", 2: "Italic", 16: "Atelier", 17: "Light Italic"}, 300, "Atelier Light"),
    ],
    ids=["semibold", "light italic"],
)
def test_a_project_font_with_typographic_names_prints_under_the_family_templates_use(tmp_path, names, weight, family):
    """A static font of a large family (Montserrat SemiBold, Roboto Light Italic) names its family twice: the
    family word processors show (name 1), used by templates and the preview's browser, and the typographic one
    (name 16) with its weight.  Text set in it prints in it."""
    import numpy as np
    from fontTools.ttLib import TTFont

    from generator.locations import FONTS_DIR
    from generator.render.pagepng import render_pages
    from generator.render.vector import font_files, side_pdf
    from generator.resources.fontfiles import read_font_file

    source = TTFont(FONTS_DIR / "EBGaramond-Regular.ttf")
    table = source["name"]
    for ident in (1, 2, 4, 6, 16, 17, 21, 22):
        table.removeNames(nameID=ident)
    for ident, text in names.items():
        table.setName(text, ident, 3, 1, 0x409)
    table.setName(family.replace(" ", "") + "-Face", 6, 3, 1, 0x409)
    source["OS/2"].usWeightClass = weight
    if "Italic" in names[2]:
        source["OS/2"].fsSelection = 0x01
    font = tmp_path / "Face.ttf"
    source.save(font)
    assert read_font_file(font).family == family  # how templates and the preview name it
    slant = ' font-style="italic"' if "Italic" in names[2] else ""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="12mm" viewBox="0 0 40 12"><rect width="40" '
        f'height="12" fill="#fff"/><text x="2" y="9" font-family="\'{family}\'" font-size="8"{slant}>Ragged</text></svg>'
    )
    pdf = side_pdf(svg, "test", None, (*font_files(), str(font)))
    assert int((np.asarray(next(render_pages(pdf, (160, 48))).convert("L")) < 128).sum()) > 50  # drawn, not dropped
    assert f"{family.replace(' ', '')}-Face".encode() in pdf  # in that font
    assert side_pdf(svg, "test", None, (*font_files(), str(font))) == pdf  # the same bytes every time
