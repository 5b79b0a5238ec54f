"""The words Aetherpress writes into books, in every language it ships a catalogue for: the catalogues are
complete, a French edition builds end to end, and covers and colophons speak the edition's language."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from generator.cli import main

from .served import edit, new_game

ROOT = Path(__file__).parents[1]
NAME = "game"


def said() -> set[str]:
    """Every text the code passes to ``words`` (or to a credit's ``say``), both branches of a conditional."""
    found: set[str] = set()

    def texts(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.IfExp):
            return texts(node.body) + texts(node.orelse)
        return []

    for path in [*(ROOT / "generator" / "rulebook").glob("*.py"), ROOT / "generator" / "definitions" / "credits.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("words", "say") and node.args:
                found.update(texts(node.args[0]))
    return found


@pytest.mark.parametrize("language", ["de", "fr", "he", "ar"])
def test_every_word_a_book_writes_is_in_each_shipped_catalogue(language):
    from babel.messages.pofile import read_po

    path = ROOT / "generator" / "rulebook" / "messages" / f"{language}.po"
    with path.open("rb") as handle:
        catalogue = {m.id: m.string for m in read_po(handle) if m.id}
    wanted = said()
    assert len(wanted) > 30 and "by {name}" in wanted and "Players" in wanted
    assert sorted(wanted - {k for k, v in catalogue.items() if v}) == []
    for text in wanted:  # the same fields filled in
        assert set(re.findall(r"{\w+}", text)) == set(re.findall(r"{\w+}", catalogue[text])), text


FRENCH_BOOK = """# Règles du jeu

Attention: chaque joueur tient trois cartes! La meilleure main gagne.

## Les mains

![chart](chart:game)
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_a_french_edition_builds_end_to_end(tmp_path, capsys):
    from .test_languages import pdf_text

    root = new_game(tmp_path, NAME)
    deck = root / "decks" / NAME
    edit(deck / f"{NAME}.toml", '# editions = ["de"]', 'editions = ["fr"]')
    edit(deck / f"{NAME}.rulebook.toml", '# editions = ["de"]', 'editions = ["fr"]')
    (deck / f"{NAME}.fr.md").write_text(FRENCH_BOOK, encoding="utf-8")
    cards = deck / "cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    rows = [rows[0] + ",name@fr", rows[1] + ",Aube", *(row + "," for row in rows[2:])]
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["--project", str(root), "build", "--paper", "a4", "--out", str(tmp_path / "out")]) == 0
    out = tmp_path / "out"
    assert (out / f"{NAME}-fr" / f"{NAME}-fr-sheets.pdf").is_file()
    assert "Aube" in pdf_text(out / f"{NAME}-fr" / f"{NAME}-fr-sheets.pdf")
    book = pdf_text(out / "rulebooks" / f"{NAME}-fr.pdf").replace("\u00a0", " ")  # poppler writes a no-break space as a space
    assert "Sommaire" in book and "Contents" not in book
    assert "Attention : chaque" in book and "cartes ! La" in book  # the source has no space before them
    assert re.search(r"\d,\d+ %", book) and re.search(r"1 sur \d+,\d", book)
    assert "Toutes les mains" in book and "Probabilité" in book
    assert "Édition Aetherpress" in book and "Aetherpress edition" not in book


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_the_german_covers_and_colophon_speak_german(tmp_path, capsys):
    from .test_languages import pdf_text

    capsys.readouterr()
    book = "fivefold-arrangement"
    assert main(["--project", str(ROOT), "rulebook", book, "--lang", "de", "--out", str(tmp_path)]) == 0
    path = tmp_path / f"{book}-de.pdf"
    front, colophon = pdf_text(path, 1, 1), pdf_text(path, 4, 4)  # the colophon: the title page's back
    pages = int(
        re.search(r"Pages:\s+(\d+)", __import__("subprocess").run(["pdfinfo", str(path)], capture_output=True, text=True).stdout)[
            1
        ]
    )
    back = pdf_text(path, pages, pages)
    assert "von FrivYeti" in " ".join(front.split()) and "by FrivYeti" not in front
    colophon = " ".join(colophon.split())
    assert "Nach Angabe des Autors" in colophon and "Loosely inspired" not in colophon
    assert "Die Quelle sagt nicht" in colophon and "The source does not say" not in colophon
    back = " ".join(back.split())
    assert "Spieler 2 bis 5" in back and "Lege fünf Karten" in back  # the fact beside its icon
    assert "entworfen von FrivYeti" in back and "designed by" not in back
