"""Card sizes and paper sizes: named presets (``sizes.toml``, ``papers.toml``) and sizes written out.

The built-in presets are in ``templates/``; a project's ``templates/sizes.toml``
and ``templates/papers.toml`` add to them and override presets of the same name.
This is the one table of paper sizes every output uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AetherpressError, Problem, display_path
from ..locations import real
from ..project import Project
from ..units import UnitError, format_mm, parse_size, unit_factor
from .model import CardSize
from .schema import Context, KeyPath, check_table, field, suggest
from .toml import read_toml

_SIZE_SPEC = {"width": field(float, required=True), "height": field(float, required=True), "unit": field(str)}
_PAPER_SPEC = {"name": field(str), **_SIZE_SPEC}
_MAX_CARD = 500.0  # mm
_MAX_PAPER = 2000.0  # mm


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    def oriented(self, landscape: bool) -> Paper:
        short, long_ = sorted((self.width, self.height))
        base = self.name.removesuffix(" landscape")
        if landscape:
            return Paper(f"{base} landscape", long_, short)
        return Paper(base, short, long_)


Files = tuple[tuple[str, int, int, int], ...]  # preset files, built-in first, each by (path, size, time, inode)


def preset_files(project: Project, file: str) -> Files:
    """The layers' files named ``file``, built-in first, by their identities (the same files, the same presets)."""
    found = []
    for layer in reversed(project.layers):
        path = layer.presets / file
        if not path.is_file():
            continue
        if not real(path).is_relative_to(real(layer.root)):
            raise AetherpressError(Problem(display_path(path), "is a link to a place outside the project"))
        st = path.stat()
        found.append((str(path), st.st_size, st.st_mtime_ns, st.st_ino))
    return tuple(found)


def read_presets(files: Files, table: str) -> list[tuple[Context, str, dict[str, Any]]]:
    """Every entry of ``[table.NAME]`` in ``files``, built-in first so a project's entries override."""
    entries: list[tuple[Context, str, dict[str, Any]]] = []
    for name, *_ in files:
        data, ctx = read_toml(Path(name))
        raw = data.get(table, {})
        if not isinstance(raw, dict):
            ctx.error((table,), f"[{table}] must be a table of presets")
            ctx.raise_if_any()
        entries.extend((ctx, name, entry) for name, entry in raw.items())
    return entries


def _measure(ctx: Context, good: dict[str, Any], path: KeyPath, maximum: float, what: str) -> tuple[float, float] | None:
    try:
        factor = unit_factor(good.get("unit", "mm"))
    except UnitError:
        ctx.error(path + ("unit",), f"unknown unit '{good.get('unit')}'; use one of mm, cm, in, pt")
        return None
    width, height = good["width"] * factor, good["height"] * factor
    if not (width > 0 and height > 0):
        ctx.error(path, f"{what} width and height must be greater than zero")
        return None
    if width > maximum or height > maximum:
        ctx.error(path, f"{what} is larger than {format_mm(maximum)} mm; check the unit")
        return None
    return round(width, 4), round(height, 4)


def load_sizes(project: Project) -> dict[str, CardSize]:
    """Card size presets by name."""
    files = preset_files(project, "sizes.toml")
    return dict(project.readings.get("sizes", files, lambda: _sizes(files)))


def _sizes(files: Files) -> dict[str, CardSize]:
    """The card sizes of ``files`` (read once per command while they are the same files: a command builds many decks)."""
    sizes: dict[str, CardSize] = {}
    problems = []
    for ctx, name, entry in read_presets(files, "sizes"):
        good = check_table(ctx, entry, _SIZE_SPEC, ("sizes", name), f"size '{name}'")
        if "width" in good and "height" in good:
            measured = _measure(ctx, good, ("sizes", name), _MAX_CARD, "card")
            if measured:
                sizes[name] = CardSize(name, *measured)
        problems.extend(ctx.problems)
    if problems:
        raise AetherpressError(list(dict.fromkeys(problems)))
    return sizes


def card_size(ctx: Context, value: Any, path: KeyPath, project: Project) -> CardSize:
    """A deck's ``size``: a preset name or ``{ width, height, unit }``."""
    fallback = CardSize("poker", 63.5, 88.9)
    if isinstance(value, str):
        sizes = load_sizes(project)
        if value not in sizes:
            ctx.error(path, f"unknown card size '{value}'{suggest(value, sizes)}; presets: {', '.join(sizes)}")
            return fallback
        return sizes[value]
    good = check_table(ctx, value, _SIZE_SPEC, path, "a card size")
    if "width" not in good or "height" not in good:
        return fallback
    measured = _measure(ctx, good, path, _MAX_CARD, "card")
    return CardSize("custom", *measured) if measured else fallback


def load_papers(project: Project) -> dict[str, Paper]:
    """Paper presets by lower-case name."""
    files = preset_files(project, "papers.toml")
    return dict(project.readings.get("papers", files, lambda: _papers(files)))


def _papers(files: Files) -> dict[str, Paper]:
    """The papers of ``files`` (read once per command while they are the same files)."""
    papers: dict[str, Paper] = {}
    problems = []
    for ctx, key, entry in read_presets(files, "papers"):
        good = check_table(ctx, entry, _PAPER_SPEC, ("papers", key), f"paper '{key}'")
        if "width" in good and "height" in good:
            measured = _measure(ctx, good, ("papers", key), _MAX_PAPER, "paper")
            if measured:
                papers[key.lower()] = Paper(good.get("name", key), *measured)
        problems.extend(ctx.problems)
    if problems:
        raise AetherpressError(list(dict.fromkeys(problems)))
    return papers


def parse_paper(spec: str, presets: dict[str, Paper]) -> Paper:
    """``A4``, ``letter:landscape``, ``210x297`` (mm), ``8.5x11in`` or ``100x150mm:landscape``.

    Names are matched without regard to case.  Raises ``ValueError`` with a one-line message.
    """
    text = spec.strip()
    landscape = None
    if ":" in text:
        text, _, orientation = text.rpartition(":")
        orientation = orientation.strip().lower()
        if orientation not in ("portrait", "landscape"):
            raise ValueError(f"paper orientation '{orientation}' is not 'portrait' or 'landscape'")
        landscape = orientation == "landscape"
    key = text.strip().lower()
    if key in presets:
        paper = presets[key]
    else:
        try:
            w, h = parse_size(text, what="paper")
        except UnitError:
            raise ValueError(
                f"unknown paper '{spec}'; use one of {', '.join(p.name for p in presets.values())} "
                "or a size such as 210x297mm or 8.5x11in"
            ) from None
        if w <= 0 or h <= 0:
            raise ValueError(f"paper '{spec}' has no area")
        if w > _MAX_PAPER or h > _MAX_PAPER:
            raise ValueError(f"paper '{spec}' is larger than {format_mm(_MAX_PAPER)} mm on a side")
        paper = Paper(f"{format_mm(w)}x{format_mm(h)}mm", round(w, 4), round(h, 4))
        if landscape is None:
            return paper
    return paper.oriented(landscape) if landscape is not None else paper
