"""Every private name an adapter in ``generator/libraries`` uses is still in the installed library."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from generator.libraries import jinja2, openpyxl, pypdf, reportlab

ADAPTERS = (jinja2, openpyxl, pypdf, reportlab)
LIBRARIES = Path(__file__).resolve().parents[1] / "generator" / "libraries"


def present(owner: object, name: str) -> bool:
    """``name`` is a member of ``owner``, or ``owner``'s own code sets or reads it on its objects."""
    if hasattr(owner, name):
        return True
    return re.search(rf"\.{re.escape(name)}\b", inspect.getsource(owner)) is not None  # type: ignore[arg-type]


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda a: a.__name__)
def test_private_names_are_in_the_library(adapter):
    gone = [f"{getattr(owner, '__name__', owner)}.{name}" for owner, name in adapter.PRIVATE_NAMES if not present(owner, name)]
    assert not gone, f"{adapter.__name__} uses names its library no longer has: {gone}"


def test_a_missing_name_is_caught():
    class Owner:
        def method(self):
            self._kept = 1

    assert present(Owner, "_kept")
    assert not present(Owner, "_gone")


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id == "self"


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda a: a.__name__)
def test_every_private_name_used_is_listed(adapter):
    """A private member read or written in an adapter (``x._name``, not ``self._name``) is in its PRIVATE_NAMES."""
    tree = ast.parse((LIBRARIES / f"{adapter.__name__.rsplit('.', 1)[1]}.py").read_text(encoding="utf-8"))
    defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and node.attr not in defined and not on_self(node):
            used.add(node.attr)
        if isinstance(node, ast.ImportFrom):
            used |= {alias.name for alias in node.names if alias.name.startswith("_")}
            used |= {part for part in (node.module or "").split(".") if private(part)}
    listed = {name for _, name in adapter.PRIVATE_NAMES}
    assert used <= listed, f"not in PRIVATE_NAMES: {sorted(used - listed)}"
