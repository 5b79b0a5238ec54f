"""Where a project's decks, templates and output live, and safe paths inside it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import AetherpressError, Problem, display_path

PACKAGE_DIR = Path(__file__).resolve().parent
FONTS_DIR = PACKAGE_DIR / "fonts"


@dataclass(frozen=True)
class Project:
    root: Path

    @classmethod
    def find(cls, start: Path | None = None) -> "Project":
        """The nearest folder at or above ``start`` that holds ``decks/``."""
        start = (start or Path.cwd()).resolve()
        for folder in (start, *start.parents):
            if (folder / "decks").is_dir():
                return cls(folder)
        raise AetherpressError(Problem(display_path(start), "no 'decks/' folder here or above; run aetherpress inside a project"))

    @property
    def decks_dir(self) -> Path:
        return self.root / "decks"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def output_dir(self) -> Path:
        return self.root / "output"

    def deck_files(self) -> list[Path]:
        return sorted(self.decks_dir.rglob("*.toml"))


def inside(path: Path, *folders: Path) -> bool:
    resolved = path.resolve()
    for folder in folders:
        try:
            resolved.relative_to(folder.resolve())
            return True
        except ValueError:
            continue
    return False


def safe_join(base: Path, relative: str, *allowed: Path) -> Path | None:
    """``base / relative`` if it stays inside ``allowed`` (default: ``base``), else None.

    Absolute paths, ``..`` escapes and links that lead outside are refused.
    """
    if not relative or Path(relative).is_absolute() or relative.startswith(("/", "\\")) or ":" in relative:
        return None
    path = base / relative
    if ".." in Path(relative).parts or not inside(path, *(allowed or (base,))):
        return None
    return path
