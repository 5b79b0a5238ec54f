"""``aetherpress build --watch``: a build after every save, a broken save said in one line, Ctrl-C quietly."""

from __future__ import annotations

import pytest

from .served import Command, edit, new_game, wait_for

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow


def test_build_watch_rebuilds_on_save_and_survives_a_broken_file(tmp_path):
    game = new_game(tmp_path)
    face = game / "output" / "game" / "faces" / "noon.svg"
    sheets = game / "output" / "game" / "game-sheets.pdf"
    watch = Command(["--project", str(game), "build", "game", "--paper", "a4", "--watch"], game)
    try:
        wait_for(lambda: "watching for changes (Ctrl-C stops)" in watch.err, 60)
        # stdout and stderr are read by threads of their own: the report may come a moment after
        wait_for(lambda: any(line.endswith("output/game/game-sheets.pdf") for line in watch.out), 10)
        assert face.is_file()
        built = sheets.stat().st_mtime_ns

        csv = game / "decks" / "game" / "cards.csv"
        edit(csv, "Look at the top card of the deck.", "Look at the top two cards.")
        wait_for(lambda: "top two cards" in face.read_text(encoding="utf-8"), 30)
        wait_for(lambda: sheets.stat().st_mtime_ns != built, 30)  # the sheets were built again too

        toml = game / "decks" / "game" / "game.toml"
        edit(toml, 'title = "Game"', 'title = "Game')
        problem = wait_for(lambda: [line for line in watch.err if line.startswith("error: ")], 30)
        assert problem == [
            "error: decks/game/game.toml:5: TOML syntax error: Illegal character '\\n' at column 14 "
            '(a string not closed on its line? every "..." needs its closing quote)'
        ]
        assert "top two cards" in face.read_text(encoding="utf-8")  # the last good build is left as it was

        edit(toml, 'title = "Game', 'title = "Game"')
        edit(csv, "Look at the top two cards.", "Look at the top three cards.")
        wait_for(lambda: "top three cards" in face.read_text(encoding="utf-8"), 30)
        assert watch.process.poll() is None  # still watching
        assert watch.interrupt() == 130
        assert not [line for line in watch.err if "Traceback" in line or "interrupted" in line]
        saves = [line for line in watch.err if line.startswith("changed: ")]
        assert saves and not [line for line in saves if "output" in line]  # its own output never wakes it
    finally:
        watch.kill()
