"""Cache entries that arrive with a project are read only as far as a seal of the user's vouches for.

A kept piece (a card side's PDF) is an entry of two parts whose small head can be read alone.  The head's length is
written in the entry; someone else's entry can say anything there, so the length carries a seal of its own, checked
before it says how many bytes to read: an entry claiming more bytes than any file holds (or a length that is no
number) is taken as damaged and the piece drawn again, never an internal error.
"""

from __future__ import annotations

import json
import shutil

import pytest

from generator.cli import main

from .test_catalogue import make_project

pytestmark = pytest.mark.slow  # whole builds


@pytest.mark.parametrize("length", [9_223_372_036_854_775_808, 10**12, 1 << 40, -1, "7", 3.5, None])
def test_an_unsealed_length_never_says_how_much_is_read(tmp_path, monkeypatch, capsys, length):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["build", "cat"]) == 0
    entries = sorted((tmp_path / "cache" / "pieces").glob("*.bin"))
    assert entries
    for path in entries:
        header, part, rest = path.read_bytes().split(b"\n", 2)
        found = json.loads(part)
        found["length"] = length
        path.write_bytes(header + b"\n" + json.dumps(found).encode() + b"\n" + rest)
    shutil.rmtree(root / "output")
    capsys.readouterr()
    assert main(["--verbose", "build", "cat", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "internal error" not in err and "the cached pieces entry" in err
    assert (root / "output" / "cat" / "cat-sheets.pdf").is_file()
