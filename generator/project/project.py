"""A designer's project over the built-in data: where decks, templates and output live.

A project is a folder with ``decks/`` and, optionally, ``templates/`` (card
templates), ``styles/``, ``fonts/`` and ``icons/``.  Its files
come first; the built-in templates, styles, presets and example decks stay
underneath, so a project file overrides the built-in one of the same name and
every built-in deck stays reachable.  Without a project, the built-in data is
all there is and output goes to ``./output``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import AetherpressError, Problem
from ..locations import FONTS_DIR, builtin_root, display_path, real
from .readings import Readings


@dataclass(frozen=True)
class Layer:
    """One place files come from: a designer's project, or the built-in data."""

    kind: str  # "project" or "built-in"
    root: Path
    decks: Path  # deck, game and rulebook definitions
    templates: Path  # card templates (*.svg.j2)
    styles: Path  # style files (*.toml)
    presets: Path  # sizes.toml and papers.toml
    fonts: Path  # TrueType fonts


def _builtin_layer() -> Layer:
    root = builtin_root()
    return Layer(
        "built-in",
        root,
        root / "decks",
        root / "templates" / "cards",
        root / "templates" / "styles",
        root / "templates",
        FONTS_DIR,
    )


def _project_layer(root: Path) -> Layer:
    return Layer("project", root, root / "decks", root / "templates", root / "styles", root / "templates", root / "fonts")


def _walk_toml(folder: Path, root: Path, problems: list[Problem]) -> list[Path]:
    """The ``*.toml`` files under ``folder`` in sorted order, following links that stay inside ``root``."""
    found: list[Path] = []
    seen: set[Path] = set()

    def visit(current: Path) -> None:
        found_at = real(current)
        if found_at in seen:
            return
        seen.add(found_at)
        for entry in sorted(current.iterdir()):
            if entry.is_symlink() and (entry.is_dir() or entry.suffix == ".toml") and not real(entry).is_relative_to(root):
                problems.append(
                    Problem(display_path(entry), "is a link to a place outside the project; copy the files in instead")
                )
            elif entry.is_dir():
                visit(entry)
            elif entry.suffix == ".toml" and entry.is_file():
                found.append(entry)

    visit(folder)
    return found


def _leaves(path: Path, root: Path, what: str) -> Problem | None:
    """A folder the project itself names (not one given on the command line) may not lead out of it by a link:
    a project from elsewhere could otherwise have a build read or write anywhere."""
    if (path.is_symlink() or path.exists()) and not real(path).is_relative_to(root):
        return Problem(display_path(path), f"is a link to a place outside the project; {what}")
    return None


def _stays_inside(path: Path, root: Path, what: str) -> None:
    problem = _leaves(path, root, what)
    if problem is not None:
        raise AetherpressError(problem)


class Project:
    """The designer's folder (``root``; None for the built-in data alone) and the layers under it."""

    def __init__(
        self, root: Path | None = None, output: Path | None = None, cache: Path | None = None, keeps: bool | None = None
    ):
        """``cache`` and ``keeps`` (can entries be kept in it?) as another process of the same build found them;
        by default the cache is found below and ``keeps`` is found out on first use (see ``pipeline.store.keeping``)."""
        builtin = _builtin_layer()
        self.root = real(root) if root is not None else None
        if self.root is None or self.root == real(builtin.root):
            self.layers: tuple[Layer, ...] = (builtin,)
        else:
            self.layers = (_project_layer(self.root), builtin)
            own = self.layers[0]
            for folder in dict.fromkeys([own.decks, own.templates, own.styles, own.fonts, self.root / "icons"]):
                _stays_inside(folder, self.root, "copy the files in instead")
        base = self.root if self.root is not None else Path.cwd()
        self.output_path = real(output or base / "output")  # as given: see output_dir
        self._output_problem = (
            _leaves(
                self.root / "output",
                self.root,
                "remove the link, or name the folder with --out (and the cache's with AETHERPRESS_CACHE_DIR)",
            )
            if output is None and self.root is not None
            else None
        )
        self._cache = real(cache) if cache is not None else None
        self.keeps = keeps
        self._cache_found: tuple[tuple[str | None, str | None], Path] | None = None
        self.readings = Readings()  # what this command has read of the project's files (see .readings)

    @property
    def output_dir(self) -> Path:
        """Where the output goes by default, and the cache with it: refused when the project's ``output``
        is a link to a place outside it (a command given ``--out`` writes there instead)."""
        if self._output_problem is not None:
            raise AetherpressError(self._output_problem)
        return self.output_path

    def __repr__(self) -> str:
        return f"Project({str(self.root)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Project) and (self.root, self.output_path) == (other.root, other.output_path)

    def __hash__(self) -> int:
        return hash((self.root, self.output_path))

    @property
    def key(self) -> str:
        """A name for this project in caches kept per process."""
        return str(self.root)

    @property
    def own(self) -> Layer:
        """The layer whose decks a plain ``build`` or ``validate`` covers: the project's, or the built-in data."""
        return self.layers[0]

    @property
    def builtin(self) -> Layer:
        return self.layers[-1]

    @property
    def decks_dir(self) -> Path:
        return self.own.decks

    @property
    def cache_dir(self) -> Path:
        """Where counted odds and other derived data are kept between runs.

        ``AETHERPRESS_CACHE_DIR`` chooses the folder; otherwise a project keeps it
        in ``output/.cache`` and the built-in data in the user's cache folder.
        A folder that cannot be written keeps nothing (see ``pipeline.store.keeping``).
        Found out once while the variables that choose it stay the same (a build reads thousands of entries).
        """
        if self._cache is not None:  # chosen by whoever made this project (another process of the same build)
            return self._cache
        chosen = (os.environ.get("AETHERPRESS_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME"))
        if self._cache_found is None or self._cache_found[0] != chosen:
            self._cache_found = (chosen, self._find_cache(*chosen))
        return self._cache_found[1]

    def _find_cache(self, chosen: str | None, xdg: str | None) -> Path:
        if chosen:
            return real(chosen)
        if self.root is not None:
            kept = self.output_dir / ".cache"
            _stays_inside(kept, self.output_dir, "remove the link (the cache is kept inside the output folder)")
            return kept
        return Path(xdg or str(Path.home() / ".cache")) / "aetherpress"

    def picture_folders(self) -> list[Path]:
        """Where card pictures may be (each layer's decks, resolved): a record naming a file elsewhere is not believed."""
        return [real(layer.decks) for layer in self.layers]

    def input_folders(self) -> list[Path]:
        """Every folder whose files a build reads: each layer's decks (with the card pictures), templates, styles,
        presets, fonts and icons."""
        folders: list[Path] = []
        for layer in self.layers:
            folders += [layer.decks, layer.templates, layer.styles, layer.presets, layer.fonts]
            folders.append(layer.root / "icons")
        return list(dict.fromkeys(folders))

    def layer_of(self, path: Path) -> Layer:
        resolved = real(path)
        for layer in self.layers:
            if resolved.is_relative_to(real(layer.root)):
                return layer
        return self.own

    def deck_files(self) -> list[Path]:
        """Every definition file (``*.toml`` under ``decks/``), the project's before the built-in ones.

        Links are followed while they stay inside their layer's folder; one that leads outside is an error.
        """
        files: list[Path] = []
        problems: list[Problem] = []
        for layer in self.layers:
            if layer.decks.is_dir():
                files.extend(_walk_toml(layer.decks, real(layer.root), problems))
        if problems:
            raise AetherpressError(problems)
        return files

    @classmethod
    def find(cls, start: Path | None = None, output: Path | None = None) -> Project:
        """The nearest folder at or above ``start`` that holds ``decks/``; else the built-in data alone."""
        start = real(start or Path.cwd())
        for folder in (start, *start.parents):
            if (folder / "decks").is_dir():
                return cls(folder, output)
        return cls(None, output)

    @classmethod
    def at(cls, folder: Path, output: Path | None = None) -> Project:
        """The project in ``folder`` (``--project``): it must exist and hold ``decks/``."""
        if not folder.is_dir():
            raise AetherpressError(Problem(display_path(folder), "--project: no such folder"))
        if not (folder / "decks").is_dir():
            raise AetherpressError(
                Problem(
                    display_path(folder),
                    "--project: not an Aetherpress project (it has no decks/ folder); start one with: aetherpress new NAME",
                )
            )
        return cls(folder, output)
