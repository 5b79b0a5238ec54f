"""The store's entries are written whole, each kind's folder confined once per command and made again if it goes."""

from __future__ import annotations

import os
import shutil

import pytest

from generator.pipeline.store import keeping, read_cached, read_cached_bytes, write_cached, write_cached_bytes
from generator.project import Project


@pytest.fixture
def project(tmp_path, monkeypatch) -> Project:
    monkeypatch.setenv("AETHERPRESS_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "decks").mkdir()
    found = Project(tmp_path)
    assert keeping(found)
    return found


def test_entries_are_whole_readable_by_others_and_leave_no_parts(project, tmp_path):
    old = os.umask(0o077)
    try:
        for n in range(20):
            write_cached(project, "sides", f"{n:064x}", {"n": n})
            write_cached_bytes(project, "pieces", f"{n:064x}", bytes([n]) * 5000)
    finally:
        os.umask(old)
    assert [read_cached(project, "sides", f"{n:064x}", lambda d: d) for n in range(20)] == [{"n": n} for n in range(20)]
    assert read_cached_bytes(project, "pieces", f"{7:064x}") == bytes([7]) * 5000
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert not [p for p in files if p.name.endswith(".part")]
    assert {oct(p.stat().st_mode & 0o777) for p in files if p.parent.name in ("sides", "pieces")} == {"0o644"}


def test_a_kinds_folder_removed_while_a_command_runs_is_made_again(project, tmp_path):
    write_cached_bytes(project, "pieces", "a" * 64, b"first")
    shutil.rmtree(tmp_path / "cache" / "pieces")
    write_cached_bytes(project, "pieces", "b" * 64, b"second")
    assert read_cached_bytes(project, "pieces", "b" * 64) == b"second"
    assert project.keeps


def test_a_file_where_a_kinds_folder_would_be_keeps_nothing_more_and_stops_nothing(project, tmp_path):
    write_cached_bytes(project, "pieces", "a" * 64, b"first")
    shutil.rmtree(tmp_path / "cache" / "pieces")
    (tmp_path / "cache" / "pieces").write_text("in the way")
    write_cached_bytes(project, "pieces", "b" * 64, b"second")  # no error: the command goes on
    assert project.keeps is False
    assert read_cached_bytes(project, "pieces", "b" * 64) is None
