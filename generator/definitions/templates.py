"""Card template names: ``NAME.svg.j2`` in the project's ``templates/`` or among the built-in templates."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import AetherpressError, Problem, display_path
from ..locations import real
from ..project import Project
from .schema import Context, KeyPath, suggest, type_name

TEMPLATE_SUFFIX = ".svg.j2"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def template_file(project: Project, name: str) -> Path | None:
    """The file of template ``name``, the project's first; None if there is none."""
    if not _NAME.fullmatch(name) or ".." in name:
        return None
    for layer in project.layers:
        path = layer.templates / f"{name}{TEMPLATE_SUFFIX}"
        if path.is_file():
            if not real(path).is_relative_to(real(layer.root)):
                raise AetherpressError(Problem(display_path(path), "is a link to a place outside the project"))
            return path
    return None


def _template_names(project: Project) -> list[str]:
    names: set[str] = set()
    for layer in project.layers:
        if layer.templates.is_dir():
            names.update(p.name[: -len(TEMPLATE_SUFFIX)] for p in layer.templates.glob(f"*{TEMPLATE_SUFFIX}"))
    return sorted(n for n in names if not n.startswith("_"))


def check_template(ctx: Context, name: str, path: KeyPath, project: Project) -> str:
    """``name`` after checking that such a card template exists."""
    if not _NAME.fullmatch(name) or ".." in name:
        ctx.error(path, f"template name '{name}' must be a plain name of a file in templates/")
    elif template_file(project, name) is None:
        ctx.error(
            path, f"template '{name}' not found in templates/ or the built-in templates{suggest(name, _template_names(project))}"
        )
    return name


def check_group_templates(ctx: Context, raw: dict[str, Any], path: KeyPath, project: Project) -> dict[str, str]:
    """A table of card group -> template name."""
    out = {}
    for group, name in raw.items():
        if not isinstance(name, str):
            ctx.error(path + (group,), f"must be a template name, not {type_name(name)}")
        else:
            out[group] = check_template(ctx, name, path + (group,), project)
    return out
