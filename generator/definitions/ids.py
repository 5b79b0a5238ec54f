"""Ids: the names that become file names and command-line words.

An id is a slug: letters, digits, ``-`` and ``_``, starting with a letter or
digit, at most 64 characters.  So no id can name a path (``../x``, ``/etc``),
a hidden file, or something a file system refuses.  Ids that become files in
one folder must also differ in more than letter case.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from .schema import Context, KeyPath

MAX_ID = 64
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


# German's own spellings without the dots (a name's reader expects Müller -> Mueller, not Muller); the rest is
# transliterated by anyascii: Straße -> Strasse, Ωμέγα -> Omega, Москва -> Moskva, 夜明け -> YeMingke
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_APOSTROPHE = re.compile(r"(?<=\w)['’ʼ](?=\w)")  # Müller's -> Muellers, not muller-s
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_SHORT = 24  # a CJK name's id is cut to this, with a digest of the name to keep it apart


def id_from_name(name: str) -> str:
    """The id made from a name: its letters transliterated into Latin, lower case, words joined by ``-``
    (``Müller's Dock`` -> ``muellers-dock``, ``Straße`` -> ``strasse``).  A Chinese, Japanese or Korean name whose
    transliteration is long is cut short and given a digest of the name, so its id is short and stays the same.
    A name with no letter or digit to transliterate makes no id ("")."""
    # the transliteration tables load when an id is made from a name
    from anyascii import anyascii

    text = unicodedata.normalize("NFC", name)
    plain = anyascii(_APOSTROPHE.sub("", text.translate(_GERMAN)))
    made = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
    if _CJK.search(text) and len(made) > _SHORT:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
        return f"{made[: _SHORT - 9].rstrip('-')}-{digest}"
    return made


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
