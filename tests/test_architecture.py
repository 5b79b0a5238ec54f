"""The shape of the code: packages by pipeline stage, no import cycles, small modules, tools clean."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from functools import cache
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
    "libraries": "base",
    "__main__": "top",
    "__init__": "base",
}
# the stages of the pipeline: functions of values, which keep nothing between runs (see generator/pipeline/store.py)
STAGES = ("resources", "definitions", "art", "faces", "imposition", "render", "outputs", "hands", "rulebook")
STORE = "generator.pipeline.store"
# module state that is no memo of a build: each is the same whatever the project, for the life of the process
MODULE_STATE = {
    "generator.project.digests": ["_KNOWN"],  # a file's digest by its identity (path, size, time, inode), never stale
    "generator.project.seal": ["global _secret"],  # the process's secret, which a build's workers adopt
    "generator.hands.blocks.registry": ["BLOCKS"],  # the kinds of block, registered as their modules load
    "generator.outputs.exports.exportkinds": ["EXPORTS"],  # the exports, registered as their modules load
    "generator.rulebook.blocks.blockkinds": ["BLOCK_KINDS"],  # a book's kinds of picture, the same way
    "generator.libraries.reportlab": ["global _undrawn_users"],  # sketch passes running: Flowable.drawOn is swapped meanwhile
}
MUTATORS = {"append", "add", "update", "setdefault", "pop", "popitem", "clear", "extend", "insert", "remove", "discard"}


@cache
def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@cache
def _tree(path: Path) -> ast.Module:
    """``path`` parsed once for all the checks (they only read the trees)."""
    return ast.parse(_source(path))


@cache
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
    for node in ast.walk(_tree(path)):
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
    """Strongly connected components of the import graph are single modules, package faces included: a package's
    ``__init__`` that imports its modules is imported by none of them (a registry lies below its members)."""
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
        if path.name != "__init__.py":
            by_name.setdefault(path.name, []).append(place)
    assert {name: sorted(places) for name, places in by_name.items() if len(places) > 1} == {}


def test_no_stage_keeps_anything():
    """A stage neither imports the store nor names the folder it keeps in: whether a build is right never depends
    on a stage's own cache protocol."""
    wrong = []
    for name, path in modules().items():
        if name.split(".")[1] not in STAGES if "." in name else True:
            continue
        if STORE in GRAPH[name] or "generator.project.seal" in GRAPH[name]:
            wrong.append(f"{name} imports the store")
        if "cache_dir" in _source(path):
            wrong.append(f"{name} names the cache folder")
    assert wrong == []


def _module_memos(path: Path) -> list[str]:
    """The module-level containers of ``path`` that its functions change (process-wide memo stores), and the
    names its functions rebind with ``global``."""
    tree = _tree(path)
    containers = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        mutable = isinstance(value, (ast.Dict, ast.Set, ast.List, ast.DictComp, ast.SetComp, ast.ListComp)) or (
            isinstance(value, ast.Call)
            and isinstance(value.func, (ast.Name, ast.Attribute))
            and (value.func.id if isinstance(value.func, ast.Name) else value.func.attr)
            in {"dict", "set", "list", "OrderedDict", "defaultdict", "WeakValueDictionary", "WeakKeyDictionary"}
        )
        if mutable:
            containers |= {t.id for t in targets if isinstance(t, ast.Name)}
    found = set()
    for function in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                found |= {f"global {name}" for name in node.names}
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
                for target in node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]:
                    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in containers:
                        found.add(target.value.id)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in containers
            ):
                found.add(node.func.value.id)
    return sorted(found)


def test_no_process_wide_memo_stores():
    """What a process keeps from one call to the next is kept in one place, the store's memory
    (``pipeline/store.py``): no other module-level container is changed by the functions of its module."""
    found = {name: memos for name, path in modules().items() if name != STORE and (memos := _module_memos(path))}
    assert found == MODULE_STATE


# what a function does that reads a file (by the name it calls)
FILE_READS = {
    "open", "read_bytes", "read_text", "stat", "lstat", "iterdir", "scandir", "listdir", "glob", "rglob", "walk", "realpath",
    "real", "resolve", "is_file", "is_dir", "exists", "read_regular", "open_regular", "read_po", "read_catalogue",
    "read_toml", "load_font_file", "read_font_file", "TTFont", "TaggedTTFont", "files", "getmtime", "getsize",
}  # fmt: skip
# parameters by which a cache would be keyed by a file's stamps
STAMPS = {"path", "paths", "file", "files", "folder", "places", "mtime", "stamps", "changed", "identity", "listing"}
# functools caches on functions that read files: each reads only what ships inside the package, never a project's
# file, so it is the same for the life of the process
SHIPPED_CACHES = {
    "generator.locations.builtin_root": "the folder of the built-in data",
    "generator.project.digests.code_digest": "Aetherpress's own code and the versions of its libraries",
    "generator.iccprofiles.shipped_profile_data": "the shipped colour profiles",
    "generator.rulebook.words._catalogue": "the shipped catalogues of the books' own words",
    "generator.preview.assets._assets": "the preview's own pages, scripts and styles",
    "generator.resources.fonts.register_fonts": "the shipped fonts, registered with reportlab",
    "generator.rulebook.scripts.register_script_fonts": "the shipped script fonts, registered with reportlab",
    "generator.render.vector._shipped": "the renderer's database of the shipped fonts alone",
    # a project font, registered with reportlab's own process-wide registry under a name that holds the digest of
    # its content: the name never stands for other bytes
    "generator.resources.fonts._register_file": "reportlab's registry, by a name holding the font's digest",
    # no project file: the temporary folder of the process, made (and stale ones swept) once a process
    "generator.project.scratch.run_folder": "the run's temporary folder, swept and made once a process",
}
# context variables: none carries what a project's files say from one call to the next
CONTEXT_VARIABLES = {
    "generator.project.files._ROOTS": "where the command may write: a guard every writer consults",
    "generator.resources.limits._DEADLINE": "when the command's bounded work must end",
    "generator.faces.sandbox.CURRENT": "the side being drawn, out of the templates' reach",
}
# the book being made, read (among other places) inside reportlab's paragraphs: their words' shaping, fallback fonts
# and inline icons, which reportlab works out without arguments of ours; each is set for one book's making and reset
BOOK_CONTEXT_VARIABLES = {
    "generator.rulebook.words._LANGUAGE": "the book's language",
    "generator.rulebook.scripts._PROJECT_FONTS": "the project's fonts the book falls back on",
    "generator.rulebook.inlineicons.BOOK_ICONS": "the book's icons",
}


def _cache_decorated(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")) in ("cache", "lru_cache"):
            return True
    return False


def _file_caches(path: Path) -> dict[str, set[str]]:
    """The functions of ``path`` with a functools cache, each with what makes it read files: the file functions it
    calls (itself or through the module's other functions) and the parameters named like a file's stamps."""
    tree = _tree(path)
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def called(function: ast.AST, seen: set[str]) -> set[str]:
        names = set()
        for node in ast.walk(function):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
                if node.func.id in functions and node.func.id not in seen:
                    seen.add(node.func.id)
                    names |= called(functions[node.func.id], seen)
            elif isinstance(node.func, ast.Attribute) and node.func.attr != "open":  # Image.open of bytes, say
                names.add(node.func.attr)
        return names

    return {
        name: (called(function, {name}) & FILE_READS) | ({a.arg for a in function.args.args} & STAMPS)
        for name, function in functions.items()
        if _cache_decorated(function)
    }


def test_no_cache_keeps_a_project_file():
    """What a project's files say is kept in one place: the store (on disk) or the project's readings, which last
    one command (see ``generator/project/readings.py``).  A functools cache is for pure functions of values, or
    for files that ship inside the package (listed above, each with what it reads)."""
    reading = {
        f"{name}.{function}": sorted(why)
        for name, path in modules().items()
        for function, why in _file_caches(path).items()
        if why
    }
    assert {name: why for name, why in reading.items() if name not in SHIPPED_CACHES} == {}
    assert sorted(set(SHIPPED_CACHES) - set(reading)) == []  # every entry of the list still reads what it says


def _made(class_name: str) -> list[str]:
    """Every place the package makes an object of ``class_name`` (a call of it, or a class deriving from it)."""
    found = []
    for name, path in modules().items():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == class_name:
                found.append(f"{name}:{node.lineno}")
            elif isinstance(node, ast.ClassDef) and any(
                getattr(b, "id", getattr(b, "attr", "")) == class_name for b in node.bases
            ):
                found.append(f"{name}:{node.lineno} (class {node.name})")
    return found


def test_the_store_is_made_by_the_project_context_alone():
    """A command's store is made once, with its project context, and handed down: no other module makes one."""
    made = _made("Store")
    assert len(made) == 1 and made[0].startswith("generator.pipeline.context:")


def test_the_face_renderer_is_made_in_one_place():
    """One way to a side: every command asks the project context for sides, and the context alone makes the face
    renderer that draws them (no other module makes or derives one)."""
    made = _made("FaceRenderer")
    assert len(made) == 1 and made[0].startswith("generator.pipeline.context:")


def test_context_variables_carry_no_project_state():
    """Every ``ContextVar`` of the package is listed with what it carries: none keeps what a project's files say."""
    found = set()
    for name, path in modules().items():
        for node in _tree(path).body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", "")) == "ContextVar":
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found |= {f"{name}.{t.id}" for t in targets if isinstance(t, ast.Name)}
    assert found == set(CONTEXT_VARIABLES) | set(BOOK_CONTEXT_VARIABLES)


def _declared_all(path: Path) -> list[str] | None:
    """The names a module's ``__all__`` lists (None when it has none, or not as a literal list of strings)."""
    for node in _tree(path).body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else getattr(node, "target", None)
        if isinstance(target, ast.Name) and target.id == "__all__" and isinstance(node, (ast.Assign, ast.AnnAssign)):
            value = node.value
            if isinstance(value, (ast.List, ast.Tuple)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
            ):
                return [e.value for e in value.elts]  # type: ignore[attr-defined]
    return None


def _top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in _tree(path).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


FACES = {name: path for name, path in modules().items() if path.name == "__init__.py"}


def test_every_package_face_declares_all():
    """Each package's ``__init__`` says what it offers in ``__all__``, naming only what it defines or imports."""
    missing = [name for name, path in FACES.items() if _declared_all(path) is None]
    assert missing == [], f"package faces without a literal __all__: {missing}"
    unknown = {
        name: sorted(set(declared) - _top_level_names(path))
        for name, path in FACES.items()
        if (declared := _declared_all(path)) and set(declared) - _top_level_names(path)
    }
    assert unknown == {}, f"__all__ names nothing of that name: {unknown}"


def test_names_taken_from_a_package_face_are_in_its_all():
    """``from generator.X import name`` (a name, not a module) takes only what X's ``__all__`` offers."""
    known = modules()
    taken = []
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(_tree(path)):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            if base not in FACES or base == name:
                continue
            offered = _declared_all(FACES[base]) or []
            taken += [
                f"{name}: {base}.{alias.name}"
                for alias in node.names
                if f"{base}.{alias.name}" not in known and alias.name not in offered
            ]
    assert taken == []


MAX_COMPLEXITY = 25
# functions being rewritten elsewhere, each with its count today: the count may only fall
COMPLEX_FOR_NOW = {"generator.faces.tiles._write_pattern": 38}


def test_no_function_is_too_complex():
    """No function or method above a cyclomatic complexity of 25 as radon counts it (ruff's mccabe check counts
    fewer branches: boolean operators and comprehensions' conditions are branches too)."""
    from radon.complexity import cc_visit

    over = {}
    for name, path in modules().items():
        for block in cc_visit(_source(path)):
            where = f"{name}.{block.classname + '.' if getattr(block, 'classname', None) else ''}{block.name}"
            if block.complexity > COMPLEX_FOR_NOW.get(where, MAX_COMPLEXITY):
                over[where] = block.complexity
    assert over == {}


def test_modules_are_small():
    big = {name: n for name, path in modules().items() if (n := len(_source(path).splitlines())) > MAX_LINES}
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
