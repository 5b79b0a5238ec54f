"""Ids: the names that become file names and command-line words.

An id is a slug: letters, digits, ``-`` and ``_``, starting with a letter or
digit, at most 64 characters.  So no id can name a path (``../x``, ``/etc``),
a hidden file, or something a file system refuses.  Ids that become files in
one folder must also differ in more than letter case.
"""

from __future__ import annotations

import re

from .schema import Context, KeyPath

MAX_ID = 64
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def id_problem(value: str, what: str) -> str | None:
    """Why ``value`` is not a usable id, or None."""
    if not value:
        return f"{what} id is empty"
    if len(value) > MAX_ID:
        return f"{what} id is {len(value)} characters long; the limit is {MAX_ID}"
    if not ID.fullmatch(value):
        shown = value.encode("unicode_escape").decode("ascii") if any(ord(c) < 32 for c in value) else value
        return f"{what} id '{shown}' may hold only letters, digits, '-' and '_', and must start with a letter or digit"
    return None


def check_id(ctx: Context, value: str, path: KeyPath, what: str) -> bool:
    problem = id_problem(value, what)
    if problem:
        ctx.error(path, problem)
    return problem is None
