"""The preview's model, without a server: what a save redraws, what the pages hear, which files wake it."""

from __future__ import annotations

import io
import json
import re
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

from generator.cli import main
from generator.cli.common import resolve_decks
from generator.errors import AetherpressError
from generator.faces.render import FaceRenderer
from generator.preview.events import Broadcaster
from generator.preview.sides import BACK, FACE
from generator.preview.state import Preview
from generator.preview.watcher import SourceFilter, changes, sources_state, watch_roots
from generator.project import Project

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow


def png(colour: tuple[int, int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A new project (12 cards from a CSV, one back); the card 'dawn' has a picture."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "game"]) == 0
    root = tmp_path / "game"
    deck = root / "decks" / "game"
    toml = deck / "game.toml"
    toml.write_text(toml.read_text().replace('text = "text"', 'text = "text"\nart = "image"'))
    csv = deck / "cards.csv"
    lines = csv.read_text().splitlines()
    lines[0] += ",art"
    lines = [lines[0]] + [line + (",art.png" if line.startswith("dawn,") else ",") for line in lines[1:]]
    csv.write_text("\n".join(lines) + "\n")
    (deck / "art.png").write_bytes(png((200, 30, 30)))
    monkeypatch.chdir(root)
    return root


class Heard:
    """A page listening to the events."""

    def __init__(self, events: Broadcaster):
        self.queue = events.subscribe()

    def take(self) -> list[tuple[str, dict]]:
        found = []
        while not self.queue.empty():
            message = self.queue.get_nowait()
            assert message is not None
            head, data = message.decode().strip().split("\n")
            found.append((head.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
        return found

    def sides(self) -> set[tuple[str, str]]:
        return {(s["kind"], s["name"]) for name, data in self.take() if name == "sides" for s in data["sides"]}


def preview_of(root: Path, specs: list[str] | None = None) -> Preview:
    project = Project(root)
    return Preview(project, lambda: resolve_decks(project, specs or []))


def settle(preview: Preview) -> None:
    while preview.pending:
        preview.draw_next()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_saved_row_redraws_that_card_alone(game):
    preview = preview_of(game)
    heard = Heard(preview.events)
    preview.refresh()
    assert len(preview.pending) == 13  # 12 faces and the back, all new
    settle(preview)
    first = heard.sides()
    assert len(first) == 13 and (BACK, "back") in first
    entry = preview.snapshot.entry("game")
    before = {k: (s, s.version, s.svg) for k, s in entry.sides.items()}
    assert "Draw a card." in before[(FACE, "dawn")][2]

    edit(
        game / "decks" / "game" / "cards.csv",
        "Noon,2,suns,Look at the top card of the deck.",
        "Noon,2,suns,Look at the top two cards.",
    )
    preview.refresh()
    assert [(s.kind, s.name) for _, s in preview.pending] == [(FACE, "noon")]
    settle(preview)
    assert heard.sides() == {(FACE, "noon")}
    after = preview.snapshot.entry("game").sides
    assert "top two cards" in after[(FACE, "noon")].svg and after[(FACE, "noon")].version != before[(FACE, "noon")][1]
    for key, (side, version, _) in before.items():
        if key != (FACE, "noon"):
            assert after[key] is side and side.version == version  # kept, not drawn again


def test_the_same_svg_as_the_build_writes(game, capsys):
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    assert main(["build", "game", "--paper", "a4"]) == 0
    for (kind, name), side in preview.snapshot.entry("game").sides.items():
        written = game / "output" / "game" / ("faces" if kind == FACE else "backs") / f"{name}.svg"
        assert side.svg == written.read_text(encoding="utf-8"), name


def test_a_new_picture_redraws_the_cards_that_show_it(game):
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    dawn = preview.snapshot.side("game", FACE, "dawn")
    assert dawn is not None and list(dawn.reads) == [str((game / "decks" / "game" / "art.png").resolve())]
    old_svg = dawn.svg
    (game / "decks" / "game" / "art.png").write_bytes(png((30, 30, 200)))  # the deck's files are untouched
    preview.refresh()
    assert [(s.kind, s.name) for _, s in preview.pending] == [(FACE, "dawn")]
    settle(preview)
    assert preview.snapshot.side("game", FACE, "dawn").svg != old_svg


def test_a_broken_file_shows_its_one_line_problem_and_the_preview_recovers(game, capsys):
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    good = preview.snapshot
    toml = game / "decks" / "game" / "game.toml"
    edit(toml, 'title = "Game"', 'title = "Game')
    assert main(["validate"]) == 2
    printed = capsys.readouterr().err.strip().splitlines()
    preview.refresh()
    assert preview.problems() == printed and printed[0].startswith("error: decks/game/game.toml:5: TOML syntax error")
    assert preview.snapshot.decks is good.decks  # the last good decks stay on show
    edit(toml, 'title = "Game', 'title = "Game"')
    preview.refresh()
    settle(preview)
    assert preview.problems() == [] and preview.state()["waiting"] == 0


def test_a_card_that_cannot_be_drawn_is_a_problem_of_its_own(game, capsys):
    csv = game / "decks" / "game" / "cards.csv"
    row = "Noon,2,suns,Look at the top card of the deck."
    edit(csv, row, "Noon,2,suns," + "Look again. " * 150)
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    noon = preview.snapshot.side("game", FACE, "noon")
    assert noon.settled and len(noon.problems) == 1
    assert main(["build", "game"]) == 2
    assert noon.problems[0] in capsys.readouterr().err.splitlines()  # the line the command prints
    assert "cards.csv:3" in noon.problems[0] and "does not fit" in noon.problems[0]
    others = [s for k, s in preview.snapshot.entry("game").sides.items() if k != (FACE, "noon")]
    assert all(s.svg and not s.problems for s in others)
    assert preview.problems() == list(noon.problems)
    edit(csv, "Noon,2,suns," + "Look again. " * 150, row)
    preview.refresh()
    assert [(s.kind, s.name) for _, s in preview.pending] == [(FACE, "noon")]
    settle(preview)
    assert preview.problems() == [] and "Look at the top" in preview.snapshot.side("game", FACE, "noon").svg


def test_the_pages_hear_the_state_only_when_it_changes_and_a_few_problems_of_it(game, monkeypatch):
    """Every face too long: each state event carries the problems the banner shows and how many there are,
    not the whole list; flushing with nothing changed sends the pages nothing at all."""
    from generator.preview import state as state_module

    monkeypatch.setattr(state_module, "BANNER_LINES", 3)
    csv = game / "decks" / "game" / "cards.csv"
    lines = csv.read_text().splitlines()
    csv.write_text(
        "\n".join([lines[0]] + [re.sub(r",[^,]*,([^,]*)$", r"," + "Look again. " * 150 + r",\1", row) for row in lines[1:]])
        + "\n"
    )
    preview = preview_of(game)
    heard = Heard(preview.events)
    preview.refresh()
    settle(preview)
    states = [data for name, data in heard.take() if name == "state"]
    assert len(preview.problems()) == 12 and len(preview.state()["problems"]) == 12  # /api/state has them all
    assert states[-1]["count"] == 12 and states[-1]["problems"] == preview.problems()[:3] and states[-1]["waiting"] == 0
    assert all(len(s["problems"]) <= 3 for s in states)
    for _ in range(5):  # the worker flushing with nothing new drawn
        preview.flush()
        preview.draw_next()
    assert heard.take() == []
    edit(csv, "Noon,2,suns," + "Look again. " * 150, "Noon,2,suns,Short.")
    preview.refresh()
    settle(preview)
    now = [data for name, data in heard.take() if name == "state"]
    assert now and now[-1]["count"] == 11


def test_what_would_print_otherwise_is_said_on_the_side_and_by_validate(game, capsys):
    """A pattern filling text shows in the browser but not the same in print: the side is shown, with validate's line."""
    template = game / "templates" / "game.svg.j2"
    edit(
        template,
        "{{ parts.field(style.paper) }}",
        '{{ parts.field(style.paper) }}\n<defs><pattern id="dots" width="4" height="4" patternUnits="userSpaceOnUse">'
        '<circle cx="2" cy="2" r="1" fill="#c33"/></pattern></defs><text x="8" y="25" font-size="12" fill="url(#dots)">Hi</text>',
    )
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    dawn = preview.snapshot.side("game", FACE, "dawn")
    assert dawn.svg is not None and "<pattern" in dawn.svg  # still shown as the browser draws it
    assert len(dawn.problems) == 1 and "pattern" in dawn.problems[0] and "card 'dawn'" in dawn.problems[0]
    assert dawn.problems[0].startswith(f"warning: {template.relative_to(game)}")
    (banner,) = preview.problems()  # the finding of all twelve faces, said once
    assert "drawn for 12 cards of deck 'game' ('dawn', 'noon', 'blaze' and 9 more)" in banner
    assert main(["validate"]) == 0  # a warning, in the same words as build's
    said = [line for line in capsys.readouterr().err.splitlines() if "card 'dawn'" in line]
    assert main(["build", "game"]) == 0  # it prints, but says so, once for the template
    warned = [line for line in capsys.readouterr().err.splitlines() if line.startswith("warning:")]
    assert len(warned) == 1 and "pattern" in warned[0] and dawn.problems[0] in warned[0] and said == warned
    for kind in ("svg", "png"):  # exports say it too, once for the template
        assert main(["export", kind, "game"]) == 0
        assert [line for line in capsys.readouterr().err.splitlines() if line.startswith("warning:")] == warned


def test_an_overflowing_card_is_shown_in_draft_with_how_much_to_cut(game):
    csv = game / "decks" / "game" / "cards.csv"
    edit(csv, "Noon,2,suns,Look at the top card of the deck.", "Noon,2,suns," + "Look again. " * 150)
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    noon = preview.snapshot.side("game", FACE, "noon")
    assert noon.draft and "does not fit" in noon.problems[0]  # the line a normal build prints
    entry = preview.snapshot.entry("game")
    draft = FaceRenderer(Project(game), entry.deck, draft=True)
    assert noon.svg == draft.face(noon.card)  # as a draft build draws it: in red, with how much to cut
    (told,) = draft.overflow_problems()
    assert re.search(r">cut \d+ characters<", noon.svg) and told.message.endswith(re.search(r"cut \d+ characters", noon.svg)[0])
    assert preview.snapshot.side("game", FACE, "dawn").draft is False


def test_the_safe_zone_findings_of_a_side_are_the_lines_validate_prints(game, capsys):
    edit(
        game / "templates" / "game.svg.j2",
        "{{ parts.field(style.paper) }}",
        '{{ parts.field(style.paper) }}\n<text x="{{ (trim.x + 1)|mm }}" y="{{ (trim.bottom - 1)|mm }}"'
        ' font-family="Cinzel" font-size="3">By hand</text>',
    )
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    found = preview.findings("game", FACE, "dawn")
    assert main(["validate"]) == 2
    printed = capsys.readouterr().err.splitlines()
    assert len(found) == 1 and found[0] in printed and "<text> 'By hand'" in found[0]
    assert preview.findings("game", BACK, "back") == []  # the built-in back keeps to its zones
    assert preview.findings("game", FACE, "no-such-card") == []


def test_the_pages_get_the_projects_fonts_and_the_shipped_ones(game):
    from generator.locations import FONTS_DIR
    from generator.resources.fonts import FAMILIES

    from .designer import renamed_font

    preview = preview_of(game)
    preview.refresh()
    shipped = preview.snapshot.fonts
    assert {re.search(r'font-family: "([^"]+)"', line)[1] for line in shipped.css.decode().splitlines()} == set(FAMILIES)
    renamed_font(FONTS_DIR / "SourceSans3-Regular.ttf", game / "fonts" / "Odd-Regular.ttf", 'Odd "Quoted" Sans')
    preview.refresh()
    fonts = preview.snapshot.fonts
    assert fonts.version != shipped.version and preview.state()["fonts"] == fonts.version
    rules = [line for line in fonts.css.decode().splitlines() if "Odd" in line]
    assert len(rules) == 4  # regular, bold, italic and bold italic, all drawn with the one file, as in print
    assert all(r.startswith('@font-face { font-family: "Odd \\22 Quoted\\22  Sans";') for r in rules)
    served = {re.search(r'url\("/fonts/([0-9a-f]{16}\.ttf)"\)', r)[1] for r in rules}
    assert len(served) == 1 and fonts.files[served.pop()] == (game / "fonts" / "Odd-Regular.ttf").resolve()


def test_a_removed_card_leaves_and_the_structure_changes(game):
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    structure = preview.snapshot.structure
    edit(game / "decks" / "game" / "cards.csv", "harvest,Harvest,4,leaves,Score one point for each card in your hand.,\n", "")
    preview.refresh()
    assert preview.snapshot.side("game", FACE, "harvest") is None and not preview.pending
    assert preview.snapshot.structure != structure


def test_a_side_asked_for_is_drawn_before_the_others(game):
    preview = preview_of(game)
    preview.refresh()
    side = preview.draw_now("game", FACE, "harvest")
    assert side is not None and side.settled and "Harvest" in side.svg
    assert preview.draw_now("game", FACE, "no-such-card") is None
    assert preview.draw_now("no-such-deck", FACE, "harvest") is None
    assert sum(1 for _, s in preview.pending if not s.settled) == 12


def test_a_wrong_deck_on_the_command_line_is_refused_at_once(game, capsys):
    assert main(["serve", "gmae", "--no-browser", "--port", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: command line: unknown deck 'gmae' (did you mean 'game'?)")


def test_the_watcher_hears_sources_only(game):
    project = Project(game)
    wanted = SourceFilter(project).wanted
    for path in (
        "decks/game/cards.csv",
        "decks/game/art.png",
        "templates/game.svg.j2",
        "styles/game.toml",
        "fonts/x.ttf",
        "icons/a.svg",
    ):
        assert wanted((game / path).resolve()), path
    for path in (
        "output/game/faces/dawn.svg",
        "output/.cache/sides/x.json",
        "decks/game/.cards.csv.swp",
        "decks/game/cards.csv~",
        "decks/.git/index",
        "README.md",
        "templates/.game.svg.j2.part",
    ):
        assert not wanted((game / path).resolve()), path
    assert watch_roots(project)[0] == game.resolve()


def test_a_save_is_heard_and_only_the_sources(game):
    stop = threading.Event()
    heard: list[set[Path]] = []

    def listen() -> None:
        for batch in changes(Project(game), stop):
            heard.append(batch)

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    probe = game / "decks" / "game" / "probe.png"  # a picture beside the deck: a source
    wait_for_watcher = time.monotonic() + 10
    while not heard and time.monotonic() < wait_for_watcher:  # saves until the watcher is running
        probe.write_bytes(png((0, 0, 0)))
        time.sleep(0.1)
    assert heard
    time.sleep(0.2)
    heard.clear()
    (game / "output").mkdir(exist_ok=True)
    (game / "output" / "noise.txt").write_text("written by a build")
    start = time.monotonic()
    edit(game / "styles" / "game.toml", 'paper = "#fcf8ef"', 'paper = "#fffaf0"')
    while not heard and time.monotonic() - start < 10:  # how soon: tests/bench/bench_preview.py
        time.sleep(0.005)
    stop.set()
    thread.join(2.0)
    assert set().union(*heard) == {(game / "styles" / "game.toml").resolve()}


def test_a_save_before_the_watcher_listens_comes_first(game):
    project = Project(game)
    before = sources_state(project)
    cards = game / "decks" / "game" / "cards.csv"
    edit(cards, "Look at the top card of the deck.", "Look at the top two cards.")  # during a first build, say
    (game / "decks" / "game" / "new.png").write_bytes(png((0, 0, 0)))
    (game / "output").mkdir(exist_ok=True)
    (game / "output" / "noise.txt").write_text("written by a build")
    stop = threading.Event()
    heard: list[set[Path]] = []

    def listen() -> None:
        for batch in changes(project, stop, since=before):
            heard.append(batch)
            stop.set()

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    thread.join(10)
    assert heard == [{cards.resolve(), (game / "decks" / "game" / "new.png").resolve()}]


def test_refresh_survives_what_goes_wrong(game):
    def broken() -> list:
        raise AetherpressError("the definitions went away")

    def buggy() -> list:
        raise OSError(13, "Permission denied")

    preview = Preview(Project(game), broken)
    preview.refresh()
    assert preview.problems() == ["error: aetherpress: the definitions went away"] and preview.loaded.is_set()
    preview.choose = buggy
    preview.refresh()
    assert preview.problems() == ["internal error: PermissionError: [Errno 13] Permission denied (please report it)"]


def test_a_card_that_cannot_be_drawn_now_keeps_its_last_good_drawing_under_the_problem(game):
    """As the banner promises: a face whose row now breaks its template shows its last drawing without
    problems, with the problem over it, not an empty placeholder; a card never drawn well has none to show."""
    preview = preview_of(game)
    preview.refresh()
    settle(preview)
    good = preview.snapshot.side("game", FACE, "noon").svg
    assert good is not None
    edit(
        game / "templates" / "game.svg.j2",
        "{{ parts.field(style.paper) }}",
        "{{ parts.field(style.paper) }}\n{{ card.attributes.text.nope() }}",
    )
    preview.refresh()
    settle(preview)
    noon = preview.snapshot.side("game", FACE, "noon")
    assert noon.problems and not noon.draft and noon.stale  # the page labels it as the last good drawing
    assert noon.svg == good
