"""Card lists: CSV with any of three delimiters and encodings, .xlsx and .ods sheets, forgiving headers, precise places."""

from __future__ import annotations

import zipfile

import pytest

from generator.definitions import load_all
from generator.definitions.sheets import split_reference
from generator.definitions.sheets.csvfile import sniff
from generator.definitions.sheets.table import column_letter
from generator.errors import AetherpressError

from .conftest import write_deck
from .sheetfiles import parts_xlsx, strings_part, worksheet_part, write_far_ods, write_far_xlsx, write_ods, write_xlsx

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

DECK = """\
[deck]
id = "cl"
title = "Card lists"
{source}

[deck.attributes]
text = "text"
power = "int"
weight = "float"
lucky = "bool"
flavour_text = "text"

[[suits]]
id = "red"
name = "Red"

[[suits]]
id = "blue"
name = "Blue"

[[ranks]]
id = "1"
name = "One"

[[ranks]]
id = "2"
name = "Two"
"""
HEADER = ["Name", "RANK", " suits ", "Text", "Power", "Weight", "lucky", "Flavour Text"]
ROWS = [
    ["Fox", "1", "red", "Quick\nand clever", 3, 1.5, True, "Swift."],
    ["Owl", "2", "blue+red", "Wise", 12, 0.25, False, ""],
]


def _load(scratch, source: str):
    write_deck(scratch, DECK.format(source=source))
    return load_all(scratch)["cl"].build(())


def _error(scratch, source: str) -> str:
    with pytest.raises(AetherpressError) as info:
        _load(scratch, source)
    return str(info.value)


def _csv(rows: list[list], delimiter: str) -> str:
    def cell(v):
        text = ("true" if v else "false") if isinstance(v, bool) else str(v)
        if delimiter == ";" and isinstance(v, float):
            text = text.replace(".", ",")  # as a spreadsheet set to a European language saves it
        return f'"{text}"' if any(c in text for c in (delimiter, "\n", '"')) else text

    return "".join(delimiter.join(cell(v) for v in row) + "\r\n" for row in rows)


@pytest.mark.parametrize(("delimiter", "encoding"), [(",", "utf-8"), (";", "utf-8-sig"), ("\t", "utf-16")])
def test_every_format_gives_the_same_cards(scratch, delimiter, encoding):
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    (folder / "cards.csv").write_text(_csv([HEADER, *ROWS], delimiter), encoding=encoding)
    write_xlsx(folder / "cards.xlsx", {"Notes": [["not cards"]], "Cards": [HEADER, [], *ROWS]})
    write_ods(folder / "cards.ods", {"Cards": [HEADER, [], *ROWS]}, repeat={1: 40})
    from_csv = _load(scratch, 'cards = "cards.csv"').cards
    from_xlsx = _load(scratch, 'cards = "cards.xlsx#Cards"').cards
    from_ods = _load(scratch, 'cards = "cards.ods#cards"').cards  # sheet names match without regard to case
    assert from_csv == from_xlsx == from_ods
    fox = from_csv[0]
    assert (fox.name, fox.rank, fox.suits) == ("Fox", "1", ("red",))
    assert dict(fox.attributes) == {
        "text": "Quick\nand clever",
        "power": 3,
        "weight": 1.5,
        "lucky": True,
        "flavour_text": "Swift.",
    }
    assert from_csv[1].suits == ("blue", "red") and from_csv[1].attributes["weight"] == 0.25
    # rows keep the numbers a person sees: a blank row in the xlsx, 40 stored empty rows in the ods
    assert [c.origin.line for c in from_xlsx] == [3, 4]
    assert [c.origin.line for c in from_ods] == [42, 43]


def test_rows_far_down_a_sheet_cost_only_the_rows_that_hold_data(scratch, monkeypatch):
    """A gap of empty rows is not read as rows of empty cells: one cell at row 200,000 (or at Excel's last row,
    1,048,576) is two rows of work, and keeps its number in messages."""
    from generator.definitions.sheets import read_table
    from generator.definitions.sheets.table import Collector

    added: list[int] = []
    original = Collector.add

    def counted(self, number, cells):
        added.append(number)
        return original(self, number, cells)

    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    write_far_xlsx(folder / "far.xlsx", {1: ["name", "power"], 200_000: ["Fox", "many"]})
    write_far_xlsx(folder / "last.xlsx", {1: ["name"], 5: [" ", None, ""], 1_048_576: ["Fox"]})
    write_far_ods(folder / "far.ods", ["name"], ["Fox"], 1_048_574)
    monkeypatch.setattr(Collector, "add", counted)
    for name, last in (("far.xlsx", 200_000), ("last.xlsx", 1_048_576), ("far.ods", 1_048_576)):
        added.clear()
        table = read_table(folder / name, name.rsplit(".")[-1], None)
        assert [row.number for row in table.rows] == [1, last]
        assert added == [1, last]  # the rows between, and a stored row of blanks, are no work
    monkeypatch.undo()
    message = _error(scratch, 'cards = "far.xlsx"')
    assert "far.xlsx: sheet 'Cards', row 200000, column B (power): 'many' is not a whole number" in message
    assert [c.origin.line for c in _load(scratch, 'cards = "far.ods"').cards] == [1_048_576]


def test_every_part_a_reader_may_parse_is_counted_whatever_its_name(scratch):
    """The element limit holds for a worksheet stored as sheet1.bin and shared strings stored as strings.txt
    (the workbook points at them by content type and relationship), while pictures and other binary parts
    of a real workbook are no obstacle."""
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    small = strings_part(1)
    parts_xlsx(folder / "bin.xlsx", "xl/worksheets/sheet1.bin", worksheet_part(6_000, 100, shared=True), "xl/s.xml", small)
    parts_xlsx(folder / "txt.xlsx", "xl/worksheets/sheet1.xml", worksheet_part(1), "xl/strings.txt", strings_part(600_000))
    limit = "the spreadsheet holds more than {:,} elements (counted to its part '{}'), far more than a card list of {} KB"
    bin_limit = min(1_000_000, 10 * (folder / "bin.xlsx").stat().st_size)
    txt_limit = min(1_000_000, 10 * (folder / "txt.xlsx").stat().st_size)
    bin_kb, txt_kb = round((folder / "bin.xlsx").stat().st_size / 1000), round((folder / "txt.xlsx").stat().st_size / 1000)
    assert "bin.xlsx: " + limit.format(bin_limit, "xl/worksheets/sheet1.bin", bin_kb) in _error(scratch, 'cards = "bin.xlsx"')
    assert "txt.xlsx: " + limit.format(txt_limit, "xl/strings.txt", txt_kb) in _error(scratch, 'cards = "txt.xlsx"')
    parts_xlsx(folder / "ok.xlsx", "xl/worksheets/sheet1.bin", worksheet_part(1), "xl/strings.txt", small)
    with zipfile.ZipFile(folder / "ok.xlsx", "a") as archive:
        archive.writestr("xl/media/image1.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4000)
        archive.writestr("xl/printerSettings/printerSettings1.bin", "Printer\x00".encode("utf-16-le") * 100)
        archive.writestr("docProps/thumbnail.jpeg", b"\xff\xd8\xff\xe0" + b"<" * 1000)
    assert [c.name for c in _load(scratch, 'cards = "ok.xlsx"').cards] == ["x"]
    with zipfile.ZipFile(folder / "ok.xlsx", "a") as archive:
        archive.writestr("xl/broken.xml", b"<a><b></a>")
    assert "ok.xlsx: the file cannot be read as a .xlsx spreadsheet (XMLSyntaxError in its part 'xl/broken.xml')" in _error(
        scratch, 'cards = "ok.xlsx"'
    )


def test_a_value_past_the_last_column_is_refused_not_dropped(scratch):
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    row = ["Fox"] + [None] * 298 + ["stray"]
    write_far_xlsx(folder / "wide.xlsx", {1: ["name"], 2: row})
    assert "row 2 has more than 256 columns" in _error(scratch, 'cards = "wide.xlsx"')


def test_the_old_key_csv_still_works_and_both_keys_are_refused(scratch):
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    (folder / "cards.csv").write_text(_csv([HEADER, *ROWS], ","), encoding="utf-8")
    assert len(_load(scratch, 'csv = "cards.csv"').cards) == 2
    assert "give the card list once" in _error(scratch, 'csv = "cards.csv"\ncards = "cards.csv"')


def test_sniffing_picks_the_delimiter_the_rows_agree_with():
    assert sniff("name;text\nFox;Quick, clever, sly.\nOwl;Wise, old.\n") == ";"
    assert sniff("name,text\nFox,Quick; clever.\n") == ","
    assert sniff("name\ttext\nFox\tA, b; c.\n") == "\t"
    assert sniff("name\nFox\n") == ","


def test_places_name_the_sheet_row_and_column_letter(scratch):
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    bad = [HEADER, ROWS[0], ["Cat", "3", "red", "Sly", "many", 1, "no", ""]]
    write_xlsx(folder / "cards.xlsx", {"Cards": bad})
    message = _error(scratch, 'cards = "cards.xlsx"')
    assert "cards.xlsx: sheet 'Cards', row 3, column B (rank): unknown rank '3'" in message
    assert "cards.xlsx: sheet 'Cards', row 3, column E (power): 'many' is not a whole number" in message
    (folder / "cards.csv").write_text(_csv(bad, ";"), encoding="utf-8")
    message = _error(scratch, 'cards = "cards.csv"')
    assert "cards.csv:4: column E (power): 'many' is not a whole number" in message  # row 2's cell holds a line break


def test_headers_are_forgiving_but_an_unknown_one_says_what_was_meant(scratch):
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    write_ods(folder / "cards.ods", {"Sheet1": [["Name", "Flavor text", "Name "], ["Fox", "x", "y"]]})
    message = _error(scratch, 'cards = "cards.ods"')
    assert "sheet 'Sheet1', row 1, column B: unknown column 'Flavor text' (did you mean 'flavour_text'?)" in message
    assert "column C: 'Name' names 'name' again (column A)" in message
    write_xlsx(folder / "cards.xlsx", {"Cards": [["name", "text"], ["Fox", "Quick", "stray"]]})
    message = _error(scratch, 'cards = "cards.xlsx#Cards"')
    assert "row 2, column C: a value in a column with no header" in message


def test_a_sheet_that_is_not_there_is_named_with_the_sheets_there_are(scratch):
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    write_xlsx(folder / "cards.xlsx", {"Cards": [["name"], ["Fox"]], "Spells": [["name"]]})
    message = _error(scratch, 'cards = "cards.xlsx#Card"')
    assert "no sheet named 'Card' (did you mean 'Cards'?); its sheets: 'Cards', 'Spells'" in message


def test_hostile_spreadsheets_are_refused_before_they_are_unpacked(scratch):
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    (folder / "text.xlsx").write_text("name\nFox\n", encoding="utf-8")
    assert "not a .xlsx file: it is not a zip archive" in _error(scratch, 'cards = "text.xlsx"')
    with zipfile.ZipFile(folder / "bomb.ods", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("content.xml", b"\0" * 40_000_000)
    assert (folder / "bomb.ods").stat().st_size < 100_000
    assert "would unpack to 40 MB; the limit is 30 MB" in _error(scratch, 'cards = "bomb.ods"')
    write_xlsx(folder / "wide.xlsx", {"Cards": [["name"] + [f"c{i}" for i in range(300)]]})
    assert "row 1 has more than 256 columns" in _error(scratch, 'cards = "wide.xlsx"')
    write_xlsx(folder / "long.xlsx", {"Cards": [["name", "text"], ["Fox", "x" * 10_001]]})
    assert "row 2, column B: the cell holds 10,001 characters; the limit is 10,000" in _error(scratch, 'cards = "long.xlsx"')
    assert "an old Excel .xls file cannot be read" in _error(scratch, 'cards = "cards.xls"')
    assert "must stay inside the deck's folder" in _error(scratch, 'cards = "../../x.xlsx#Cards"')


def test_names_of_places():
    assert [column_letter(i) for i in (0, 25, 26, 27, 701, 702)] == ["A", "Z", "AA", "AB", "ZZ", "AAA"]
    assert split_reference("game.xlsx#Cards") == ("game.xlsx", "Cards")
    assert split_reference("Game.ODS#My sheet") == ("Game.ODS", "My sheet")
    assert split_reference("cards.csv") == ("cards.csv", None)


def test_a_csv_file_has_no_sheets(scratch):
    folder = scratch.decks_dir / "test"
    folder.mkdir(parents=True)
    (folder / "cards.csv").write_text("name\nFox\n", encoding="utf-8")
    assert "cards.csv: a CSV file has no sheets" in _error(scratch, 'cards = "cards.csv#Cards"')
