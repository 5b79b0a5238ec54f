"""A whole build skipped when nothing it reads has changed and everything it wrote is intact.

The build's key is a digest of Aetherpress itself, every file of every layer
of the project and what the command line asked for (not the folder it was
asked in: the report keeps its paths whole, see :func:`marked`, and names them
as the working folder shows them when it is told).  After a build, the
cache keeps, for its output folder, that key, the key of each folder the
build made and what the build reported, under the user's seal.  A later build
with the same key, whose folders all still hold exactly what was written,
reports the same and does nothing else, without reading a single deck.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..project import Project
from ..project.digests import code_digest, digest, folder_digest
from ..project.files import read_regular, write_text
from ..project.seal import MAX_KEPT_JSON, opened_json, sealed_json
from ..project.staging import read_key, unchanged
from .store import keep

KIND = "builds"


def _record(project: Project, out: Path) -> Path:
    return project.cache_dir / KIND / f"{digest(str(out))}.json"


def build_key(project: Project, asked: dict[str, Any]) -> str:
    return digest("build", code_digest(), folder_digest(project.input_folders()), asked)


_MARK = "\0"  # no path holds it
_MARKED = re.compile(f"{_MARK}([^{_MARK}]*){_MARK}")


def marked(path: Path) -> str:
    """``path`` in a report as it is kept: whole, marked, to be shown by :func:`shown` wherever the command runs."""
    return f"{_MARK}{path}{_MARK}"


def shown(report: Sequence[str], show: Callable[[Path], str]) -> list[str]:
    """The lines of a report made with :func:`marked`, each path as ``show`` names it."""
    return [_MARKED.sub(lambda found: show(Path(found.group(1))), line) for line in report]


def up_to_date(project: Project, out: Path, key: str) -> list[str] | None:
    """What the last build into ``out`` reported, if it had ``key`` and its folders are intact; else None."""
    try:
        sealed = opened_json(read_regular(_record(project, out), MAX_KEPT_JSON), KIND)
        if sealed is None:  # another's, or altered: found out from the bytes, before they are parsed
            return None
        record = sealed["record"]
        if record["key"] != key:
            return None
        folders, report = dict(record["folders"]), [str(line) for line in record["report"]]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    pictures = project.picture_folders()
    if all(unchanged(out / name, folder_key, pictures) is not None for name, folder_key in folders.items()):
        return report
    return None


def remember(project: Project, out: Path, key: str, folders: list[str], report: list[str]) -> None:
    """Keep the build's key, its folders' keys and its report in the cache (if it can be written)."""
    keys = {name: read_key(out / name) for name in folders}
    if any(k is None for k in keys.values()):
        return  # a folder without a key cannot be checked: the next build looks at every deck
    record = {"key": key, "folders": keys, "report": report}
    text = sealed_json({"record": record}, KIND)
    keep(project, lambda _cache: write_text(_record(project, out), text))
