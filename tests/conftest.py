from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.load import load_all
from generator.project import Project

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def project() -> Project:
    return Project(ROOT)


@pytest.fixture(scope="session")
def definitions(project):
    return load_all(project)


@pytest.fixture
def scratch(tmp_path) -> Project:
    """An empty project with the real templates, for writing broken decks into."""
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    (tmp_path / "decks").mkdir()
    return Project(tmp_path)


def write_deck(project: Project, text: str, name: str = "test.toml", folder: str = "test") -> Path:
    path = project.decks_dir / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
