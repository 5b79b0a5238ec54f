"""Every named resource a page or form uses is in its own resource dictionary.

Viewers such as pdfium forgive a form that names a shading or graphics state
it does not carry; poppler, preflight tools and print-shop RIPs drop the
gradient or the transparency instead.  Card faces use both.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib

import pytest
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from generator.pipeline.build import build_deck
from generator.pipeline.context import ProjectContext
from generator.project import Project

from .conftest import A4_SHEETS, ROOT

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

OPERATORS = {b"sh": "/Shading", b"gs": "/ExtGState", b"Do": "/XObject", b"Tf": "/Font"}
NAMED = re.compile(rb"/([A-Za-z0-9_.+-]+)\s+(?:[-\d.]+\s+)?(sh|gs|Do|Tf)\b")


def _missing(container, seen, where) -> list[str]:
    resources = container.get("/Resources")
    resources = resources.get_object() if isinstance(resources, IndirectObject) else (resources or {})
    data = container.get_data() if hasattr(container, "get_data") else container.get_contents().get_data()
    problems = []
    for name, op in set(NAMED.findall(data)):
        kind = OPERATORS[op]
        table = resources.get(kind)
        table = table.get_object() if table is not None else {}
        if "/" + name.decode() not in table:
            problems.append(f"{where}: {kind} /{name.decode()} used but not in its resources")
    xobjects = resources.get("/XObject")
    for key, ref in xobjects.get_object().items() if xobjects is not None else []:
        obj = ref.get_object()
        if obj.get("/Subtype") == "/Form" and id(obj) not in seen:
            seen.add(id(obj))
            problems += _missing(obj, seen, f"{where} form {key}")
    return problems


def check_pdf(path) -> list[str]:
    reader = PdfReader(str(path))
    seen: set[int] = set()
    problems = []
    for number, page in enumerate(reader.pages, start=1):
        problems += _missing(page, seen, f"page {number}")
    return problems


@pytest.mark.parametrize("deck_key", [("imperial", ("standard",)), ("aetherial", ()), ("pernese", ("coloured",))])
def test_card_sheets_carry_their_resources(tmp_path, project, definitions, deck_key):
    deck = definitions[deck_key[0]].build(deck_key[1])
    pdf = next(p for p in build_deck(project, deck, tmp_path, A4_SHEETS) if p.suffix == ".pdf")
    assert check_pdf(pdf) == []
    assert shutil.which("pdftoppm"), "poppler-utils is needed for the tests (see the README)"
    result = subprocess.run(
        ["pdftoppm", "-r", "8", "-png", str(pdf), str(tmp_path / "page")], capture_output=True, text=True, check=True
    )
    assert result.stderr == ""


def test_the_check_sees_a_form_without_its_fonts(tmp_path, project, definitions, monkeypatch):
    from generator.render import assemble

    copied = assemble._resources

    def without_fonts(*args):
        resources, whole = copied(*args)
        if "/Font" in resources:
            del resources["/Font"]
        return resources, whole

    monkeypatch.setattr(assemble, "_resources", without_fonts)
    from generator.render.cardpdf import card_pdf_bytes

    deck = definitions["imperial"].build(("standard",))
    sides = [(card, "front") for card in deck.cards] * 2  # each face twice: each is a form
    out = tmp_path / "cards.pdf"
    out.write_bytes(card_pdf_bytes(ProjectContext(project), deck, 3.0, sides))
    assert any("/Font" in problem for problem in check_pdf(out))


def test_rulebook_pictures_carry_their_resources(tmp_path, project):
    from generator.rulebook import build_all

    paths = [
        p for p in build_all(project, tmp_path, ProjectContext(project).book_context()) if p.name.startswith("founders-flip")
    ]
    assert paths and check_pdf(paths[0]) == []


def test_a_piece_placed_from_what_is_known_of_it_is_the_piece_opened(tmp_path, project, definitions, monkeypatch):
    """Assembling may place a piece whose resources are in the file already without opening it; the file is
    the same byte for byte as when every piece is opened."""
    from generator.render import assemble

    deck = definitions["pernese"].build(("coloured",))
    fresh = Project(ROOT, cache=tmp_path / "cache")  # its sheets assembled here, not taken from a fill kept earlier
    placed = []
    short = assemble._placed
    monkeypatch.setattr(assemble, "_placed", lambda *args: placed.append(short(*args)) or placed[-1])
    quick = next(p for p in build_deck(fresh, deck, tmp_path / "quick", A4_SHEETS) if p.suffix == ".pdf")
    assert len(placed) > 40
    monkeypatch.setattr(assemble, "_placed", lambda *args: False)
    shutil.rmtree(tmp_path / "cache" / "fills")  # the pieces kept, the fill not: assembled again, every piece opened
    opened = next(p for p in build_deck(fresh, deck, tmp_path / "opened", A4_SHEETS) if p.suffix == ".pdf")
    assert quick.read_bytes() == opened.read_bytes() and check_pdf(quick) == []


def test_ascii85_over_flate_becomes_the_flate_data_alone():
    from reportlab.lib.rl_accel import asciiBase85Encode

    from generator.render.assemble import flate_alone

    data = zlib.compress(b"0 0 m 10 10 l S\n" * 50) + bytes(8)  # four zero bytes: ASCII85 writes 'z'
    encoded = asciiBase85Encode(data).encode("latin-1")
    assert b"z" in encoded and encoded.endswith(b"~>")
    assert flate_alone(encoded, ["/ASCII85Decode", "/FlateDecode"]) == (data, "/FlateDecode")
    assert flate_alone(encoded, "/ASCII85Decode") == (encoded, "/ASCII85Decode")  # anything else is kept as it is
    assert flate_alone(data, ["/FlateDecode"]) == (data, ["/FlateDecode"])


def test_card_forms_reach_the_writer_as_flate_data_alone(tmp_path, project, definitions, monkeypatch):
    """The card forms reach the writer as Flate alone (nothing for it to decode and compress again), and the
    sides' drawings are in them."""
    import pikepdf

    seen: list[tuple] = []
    save = pikepdf.Pdf.save

    def looked_at(pdf, *args, **kwargs):
        for o in pdf.objects:
            if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form" and len(o.read_raw_bytes()):
                seen.append((o.get("/Filter"), b" m" in o.read_bytes() or b" re" in o.read_bytes()))
        return save(pdf, *args, **kwargs)

    monkeypatch.setattr(pikepdf.Pdf, "save", looked_at)
    deck = definitions["aetherial"].build(())
    build_deck(Project(ROOT, cache=tmp_path / "cache"), deck, tmp_path / "out", A4_SHEETS)  # assembled, not kept
    assert len(seen) > 20
    assert all(flt == "/FlateDecode" for flt, _ in seen), seen[:3]
    assert sum(drawn for _, drawn in seen) > 20  # the sides' drawings (each card form places its side's)
