"""What a build needs to know of a side, told by the task that has the side, and kept for the next build.

A task that has a side tells the build its :class:`SideFacts`: the keys of
its pieces, the pictures it read, what does not fit or prints otherwise, its
front's colour at the edge (which lays out the sheets) and the SVG file
written of it.  The store keeps the facts beside the side, under the side's
key with the fonts, size and colour modes of the pieces (see :func:`facts_key`),
with the digest of the SVG file's bytes; the next build of a deck with one
changed card takes each unchanged side's facts from there and links its SVG
file from the folder it replaces (when that file still holds those bytes),
without reading the side or its pieces again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Problem
from ..faces.lint import Finding
from ..project.digests import Known, digests_hold, known_digest
from ..project.files import link_same
from ..render.edgecolour import Colour
from .store import Codec, Store

KIND = "side-facts"


@dataclass(frozen=True)
class SideFacts:
    """What the build needs to know of a side, worked out where the side is: the keys of its pieces (by colour
    mode: greyscale or not), the pictures it read, its texts that do not fit (drafts), what it draws that prints
    otherwise than a browser shows it, the SVG file written of it (with its digest), and a front's colour at its
    edge as each of its pieces draws it."""

    pieces: dict[bool, str]
    reads: dict[str, str]
    overflows: tuple[Problem, ...]
    differs: tuple[Finding, ...]
    written: Known | None
    edges: dict[bool, Colour] = field(default_factory=dict)


@dataclass(frozen=True)
class KeptFacts:
    """A side's facts as the store keeps them: with its SVG file's length and digest instead of the file."""

    svg: tuple[int, str]
    facts: SideFacts


def facts_key(side: str, fonts: str, size_mm: tuple[float, float], greyscales: Sequence[bool]) -> str:
    """The key of the facts of the side whose key is ``side``, with pieces of these fonts, size and colour modes."""
    return Store.key(KIND, [side, fonts, list(size_mm), sorted(greyscales)])


def _dump(kept: KeptFacts) -> dict[str, Any]:
    f = kept.facts
    return {
        "svg": list(kept.svg),
        "pieces": [[grey, key] for grey, key in sorted(f.pieces.items())],
        "reads": f.reads,
        "overflows": [[p.file, p.message, p.line] for p in f.overflows],
        "differs": [[d.line, d.message] for d in f.differs],
        "edges": [[grey, list(rgb)] for grey, rgb in sorted(f.edges.items())],
    }


def _load(data: Any) -> KeptFacts:
    length, sha = data["svg"]
    if type(length) is not int or not isinstance(sha, str):
        raise ValueError("an SVG file of another shape")
    pieces = {bool(grey): str(key) for grey, key in data["pieces"]}
    edges: dict[bool, Colour] = {}
    for grey, rgb in data["edges"]:
        if len(rgb) != 3 or not all(type(c) is int and 0 <= c <= 255 for c in rgb):
            raise ValueError("an edge colour of another shape")
        edges[bool(grey)] = (rgb[0], rgb[1], rgb[2])
    if not isinstance(data["reads"], dict):
        raise ValueError("reads of another shape")
    overflows = tuple(Problem(file, message, line) for file, message, line in data["overflows"])
    differs = tuple(Finding(line, message) for line, message in data["differs"])
    return KeptFacts((length, sha), SideFacts(pieces, dict(data["reads"]), overflows, differs, None, edges))


CODEC: Codec[KeptFacts] = Codec(_dump, _load)


def linked_facts(
    store: Store,
    key: str,
    target: Path,
    previous: Path,
    folder: Path,
    pictures: Sequence[Path],
    kept_piece: Mapping[bool, Any],
) -> SideFacts | None:
    """The kept facts under ``key`` when they still hold, with ``target`` (in ``folder``) linked from
    ``previous``: every picture the side read unchanged (inside ``pictures``), every piece kept
    (``kept_piece[grey](key)``), and ``previous`` holding the SVG file's bytes.  None, and nothing
    written, otherwise: the side is then taken as ever."""
    kept = store.get(KIND, key, CODEC)
    if kept is None:
        return None
    facts = kept.facts
    if not digests_hold(facts.reads, pictures):
        return None
    if set(facts.pieces) != set(kept_piece) or not all(kept_piece[grey](k) for grey, k in facts.pieces.items()):
        return None
    length, sha = kept.svg
    if not link_same(target, previous, sha, length, folder):
        return None
    return SideFacts(facts.pieces, facts.reads, facts.overflows, facts.differs, known_digest(target), facts.edges)


def keep_facts(store: Store, key: str, svg: str, facts: SideFacts) -> None:
    """Keep ``facts`` of a side whose SVG file holds ``svg``, under ``key`` (see :func:`facts_key`)."""
    data = svg.encode("utf-8")
    store.put(KIND, key, KeptFacts((len(data), hashlib.sha256(data).hexdigest()), facts), CODEC)
