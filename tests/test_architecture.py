"""The shape of the code: packages by pipeline stage, no import cycles, small modules, tools clean."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "generator"
MAX_LINES = 500

# Each package may import from the packages listed before it (and from itself).
# ``validation`` and ``cli`` sit on top and may import anything.
LAYERS = [
    "base",
    "project",
    "resources",
    "definitions",
    "art",
    "faces",
    "imposition",
    "render",
    "outputs",
    "hands",
    "rulebook",
    "pipeline",
    "preview",
    "top",
]
PACKAGE_LAYER = {
    "errors": "base",
    "locations": "base",
    "units": "base",
    "geometry": "base",
    "pathpoints": "base",
    "project": "project",
    "resources": "resources",
    "definitions": "definitions",
    "art": "art",
    "faces": "faces",
    "imposition": "imposition",
    "render": "render",
    "outputs": "outputs",
    "hands": "hands",
    "rulebook": "rulebook",
    "pipeline": "pipeline",
    "preview": "preview",
    "validation": "top",
    "cli": "top",
    "fonts": "base",
    "iccprofiles": "base",
    "__main__": "top",
    "__init__": "base",
}
# the three modules whose memo stores the keeping rewrite takes out, and which it renames then: the only ones
# whose file name may still be another package's module's (``odds``, ``pictures``); empty it when they are renamed
MEMO_MODULES_BEING_REWRITTEN = {"hands/odds.py", "rulebook/odds.py", "rulebook/pictures.py"}


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "builtin" in path.parts:
            continue
        name = ".".join(("generator",) + path.relative_to(PACKAGE).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every module of the package that ``name`` imports, at any place in the file."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            candidates = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        out |= {c for c in candidates if c in known and c != name}
    return out


GRAPH = {name: imports(name, path, modules()) for name, path in modules().items()}


def test_no_import_cycles():
    """Strongly connected components of the import graph (a package and its own modules aside) are single modules."""

    def related(a: str, b: str) -> bool:
        return a.startswith(b + ".") or b.startswith(a + ".")

    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if related(v, w):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert cycles == []


def test_stages_import_only_earlier_stages():
    wrong = []
    for name, targets in GRAPH.items():
        layer = PACKAGE_LAYER[name.split(".")[1] if "." in name else "__init__"]
        for target in targets:
            target_layer = PACKAGE_LAYER[target.split(".")[1] if "." in target else "__init__"]
            if LAYERS.index(target_layer) > LAYERS.index(layer):
                wrong.append(f"{name} -> {target}")
    assert wrong == []


def test_no_module_name_has_two_jobs():
    """No two modules of different packages share a file name (each package's face, ``__init__.py``, aside)."""
    by_name: dict[str, list[str]] = {}
    for path in modules().values():
        place = path.relative_to(PACKAGE).as_posix()
        if path.name != "__init__.py" and place not in MEMO_MODULES_BEING_REWRITTEN:
            by_name.setdefault(path.name, []).append(place)
    assert {name: sorted(places) for name, places in by_name.items() if len(places) > 1} == {}


def test_modules_are_small():
    big = {name: n for name, path in modules().items() if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert big == {}


@pytest.mark.slow  # runs ruff and mypy over everything
@pytest.mark.parametrize(
    "tool", [["ruff", "check", "generator", "tests"], ["ruff", "format", "--check", "generator", "tests"], ["mypy"]]
)
def test_tools_are_clean(tool):
    executable = shutil.which(tool[0], path=str(Path(sys.executable).parent))
    assert executable is not None, f"{tool[0]} is not installed: pip install '.[test]'"
    result = subprocess.run([executable, *tool[1:]], cwd=PACKAGE.parent, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_reading_decks_loads_no_drawing():
    """The definitions check symbol and font names against the resources: reading and building every built-in deck
    loads neither the game art nor the faces stage."""
    script = (
        "import sys\n"
        "from generator.definitions import load_all\n"
        "from generator.project import Project\n"
        "decks = load_all(Project(None))\n"
        "assert decks, 'no built-in decks'\n"
        "for definition in decks.values():\n"
        "    definition.build(())\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(('generator.art', 'generator.faces')))))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=PACKAGE.parent, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []
