"""A deck with a few changed cards: the unchanged sides' files are linked from their kept facts, and the sheets are
the last file of the same skeleton with only the changed forms filled anew, to the bytes of a cold build."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.render import assemble, refill
from generator.render.assemble import Filled

from .conftest import ROOT
from .test_catalogue import make_project
from .test_pipeline import _files

pytestmark = pytest.mark.slow


def _started(tmp_path: Path, monkeypatch, *options: str) -> Path:
    """The catalogue's project, built once with its cache in ``tmp_path/cache`` (``options`` added to the build)."""
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "cat", "--jobs", "1", *options]) == 0
    return root


def _counting(monkeypatch) -> dict[str, list]:
    """Count the sheets files filled whole and those filled again form by form (and with how many forms)."""
    counts: dict[str, list] = {"whole": [], "refilled": []}
    from generator.pipeline import sheets

    original_whole, original_refill = sheets.fill_whole, sheets.refill

    def whole(forms):
        counts["whole"].append(len(forms.order))
        return original_whole(forms)

    def again(previous, forms, changed):
        found = original_refill(previous, forms, changed)
        if found is not None:
            counts["refilled"].append(len(changed))
        return found

    monkeypatch.setattr(sheets, "fill_whole", whole)
    monkeypatch.setattr(sheets, "refill", again)
    return counts


def _cold(root: Path, tmp: Path, monkeypatch, deck: str, *options: str) -> dict[str, bytes]:
    """The deck's folder as a build with an empty cache into an empty folder writes it."""
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp / "cold-cache"))
    shutil.rmtree(tmp / "cold-cache", ignore_errors=True)
    shutil.rmtree(tmp / "cold", ignore_errors=True)
    assert main(["build", deck, "--jobs", "1", "--out", str(tmp / "cold"), *options]) == 0
    found = _files(tmp / "cold" / deck)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp / "cache"))
    return found


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_changed_card_refills_its_sheets_to_the_bytes_of_a_cold_build(tmp_path, monkeypatch):
    root = _started(tmp_path, monkeypatch)
    counts = _counting(monkeypatch)
    cards = root / "decks" / "cat" / "cards.csv"

    # a text, then a picture (a card with art), then two cards at once
    edits = [
        lambda: _edit(cards, "Quick and clever.", "Quick and bright."),
        lambda: (root / "decks" / "cat" / "wizard.png").write_bytes(_png((30, 90, 200))),
        lambda: (_edit(cards, "Quick and bright.", "Quick and so bright."), _edit(cards, "Wise.", "Wiser.")),
    ]
    for n, edit in enumerate(edits):
        edit()
        counts["whole"].clear()
        counts["refilled"].clear()
        assert main(["build", "cat", "--jobs", "1"]) == 0
        built = _files(root / "output" / "cat")
        sheets = sorted(name for name in built if name.endswith(".pdf"))
        assert len(sheets) == 2  # A4 and Letter
        assert counts["whole"] == [] and len(counts["refilled"]) == 2, (n, counts)
        cold = _cold(root, tmp_path, monkeypatch, "cat")
        assert [name for name in sheets if built[name] != cold[name]] == [], n
        assert {k: v for k, v in built.items() if k.endswith(".svg")} == {k: v for k, v in cold.items() if k.endswith(".svg")}


def _png(rgb: tuple[int, int, int]) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (16, 16), rgb).save(out, format="PNG")
    return out.getvalue()


def test_a_built_in_deck_refilled_is_a_cold_builds_bytes(tmp_path, monkeypatch):
    """The spell deck (icons, rich text, a back of its own) with one spell's text changed."""
    root = tmp_path / "project"
    for folder in ("decks", "templates"):
        shutil.copytree(ROOT / folder, root / folder)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "aetherial", "--jobs", "1", "--paper", "a4"]) == 0
    counts = _counting(monkeypatch)
    _edit(root / "decks" / "imperial" / "aetherial.csv", "Deal one more hand", "Deal another hand")
    assert main(["build", "aetherial", "--jobs", "1", "--paper", "a4"]) == 0
    assert counts["whole"] == [] and counts["refilled"] == [1]
    built = _files(root / "output" / "aetherial")
    cold = _cold(root, tmp_path, monkeypatch, "aetherial", "--paper", "a4")
    assert built["aetherial-sheets.pdf"] == cold["aetherial-sheets.pdf"]


def test_unchanged_sides_are_linked_from_their_kept_facts_without_being_read(tmp_path, monkeypatch):
    from generator.pipeline import keptsides

    root = _started(tmp_path, monkeypatch, "--paper", "a4")
    folder = root / "output" / "cat"
    first = _files(folder)
    read: list[tuple[str | None, str]] = []
    original = keptsides.Sides.side

    def side(self, card, which):
        read.append((card.id if card is not None else None, which))
        return original(self, card, which)

    monkeypatch.setattr(keptsides.Sides, "side", side)
    cards = root / "decks" / "cat" / "cards.csv"
    _edit(cards, "Quick and clever.", "Quick and bright.")
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    assert read == [("fox", "front")]

    # an SVG file changed by hand in the folder the build replaces is not linked: the side is read and written again
    owl = folder / "faces" / "owl.svg"
    owl.write_bytes(owl.read_bytes().replace(b"Wise.", b"Foolish."))
    _edit(cards, "Quick and bright.", "Quick and clever.")
    read.clear()
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    assert sorted(read) == [("fox", "front"), ("owl", "front")]
    assert _files(folder) == first


def test_a_fill_that_could_not_be_made_alike_is_not_filled_again():
    """A file some copy of which a form filled again would not make alike is filled whole (refill says None)."""
    forms = refill.ToFill(b"", [], ["card0"], {"card0": "k"}, lambda name: assemble.Known({}), lambda name: b"")
    assert refill.refill(Filled(b"%PDF", {"card0": []}, exact=False), forms, ["card0"]) is None


def test_damaged_facts_and_fills_are_made_again(tmp_path, monkeypatch):
    """A kept side's facts or a kept fill that does not check out is not used: the files are those of a cold build."""
    root = _started(tmp_path, monkeypatch, "--paper", "a4")
    cache = tmp_path / "cache"
    entries = [*(cache / "side-facts").iterdir(), *(cache / "fills").iterdir()]
    assert entries
    for entry in entries:
        data = entry.read_bytes()
        at = len(data) * 2 // 3
        entry.write_bytes(data[:at] + (b"y" if data[at : at + 1] != b"y" else b"z") + data[at + 1 :])
    _edit(root / "decks" / "cat" / "cards.csv", "Quick and clever.", "Quick and bright.")
    assert main(["build", "cat", "--jobs", "1", "--paper", "a4"]) == 0
    built = _files(root / "output" / "cat")
    cold = _cold(root, tmp_path, monkeypatch, "cat", "--paper", "a4")
    assert [name for name in cold if not name.startswith(".") and built.get(name) != cold[name]] == []
