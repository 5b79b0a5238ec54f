"""The user's seal on what Aetherpress keeps between runs.

Everything a build keeps to skip work next time (the cache's entries, each
output folder's manifest, the record of the last build) is sealed with a
keyed digest (HMAC-SHA256) under a secret kept in the user's own
configuration folder, outside every project.  An entry is believed only
when its seal holds, so a project folder that arrives with an ``output/``
or a cache made elsewhere (by another user, on another machine, or forged
to match) gets nothing drawn from it: the work is done again.

The secret is made on first use: 32 random bytes, readable by the user
alone.  When it cannot be read or made, this process (and the workers it
starts) uses a secret of its own, and nothing kept outlives the run.  A
Dask worker takes the secret of the build that sent it its task.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
from pathlib import Path
from typing import Any

from .files import open_regular

SECRET_BYTES = 32
_SECRET_FILE = "cache-secret"
_SEAL = re.compile(r"[0-9a-f]{64}")

log = logging.getLogger("aetherpress")
_secret: bytes | None = None


def secret_file() -> Path:
    """Where the user's secret is kept: ``$XDG_CONFIG_HOME/aetherpress`` (by default ``~/.config/aetherpress``;
    a relative ``XDG_CONFIG_HOME`` is ignored, as the XDG specification says, since it would name a folder
    inside whatever folder the command runs in)."""
    home = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(home):
        home = str(Path.home() / ".config")  # RuntimeError when there is no home at all: see _load
    return Path(home) / "aetherpress" / _SECRET_FILE


def _read(path: Path) -> bytes | None:
    """The secret in ``path``; None when the file holds none, or others than the user may read or change it."""
    with open_regular(path) as handle:
        if os.fstat(handle.fileno()).st_mode & 0o077:
            return None
        text = handle.read(4 * SECRET_BYTES).decode("ascii", "replace").strip()
    try:
        found = bytes.fromhex(text)
    except ValueError:
        return None
    return found if len(found) == SECRET_BYTES else None


def _made(path: Path) -> bytes:
    """A new secret put at ``path`` whole, unless another process put one there first (then that one):
    it is written to a file of its own and linked into place, so no one ever reads a secret half written."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    value = secrets.token_bytes(SECRET_BYTES)
    partial = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(value.hex() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.link(partial, path)  # fails if the name is taken: the first secret stands
    except FileExistsError:
        found = _read(path)
        if found is None:
            raise
        return found
    finally:
        partial.unlink(missing_ok=True)
    return value


def _load() -> bytes:
    try:
        path = secret_file()
        try:
            found = _read(path)
        except FileNotFoundError:
            found = _made(path)
        if found is not None:
            return found
        log.info("%s is not a secret of yours alone (mode 600); nothing kept will outlive this run", path)
    except (OSError, RuntimeError) as exc:  # RuntimeError: no home folder to keep it in
        log.info("cannot keep a secret (%s); nothing kept will outlive this run", getattr(exc, "strerror", None) or exc)
    return secrets.token_bytes(SECRET_BYTES)


def secret() -> bytes:
    """This process's secret: the user's (read or made once), or one of its own."""
    global _secret
    if _secret is None:
        _secret = _load()
    return _secret


def adopt(value: bytes) -> None:
    """Use ``value`` as this process's secret (a worker of a cluster, running a build's tasks)."""
    global _secret
    if len(value) != SECRET_BYTES:
        raise ValueError("a secret of the wrong length")
    _secret = value


def seal(*parts: str | bytes) -> str:
    """The seal of ``parts`` (each told apart from the next, so no two sequences share one)."""
    mac = hmac.new(secret(), digestmod=hashlib.sha256)
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        mac.update(len(data).to_bytes(8, "big"))
        mac.update(data)
    return mac.hexdigest()


def holds(mark: object, *parts: str | bytes) -> bool:
    """Is ``mark`` the seal of ``parts``?  (Anything but 64 hexadecimal digits is not.)"""
    return isinstance(mark, str) and _SEAL.fullmatch(mark) is not None and hmac.compare_digest(mark, seal(*parts))


MAX_KEPT_JSON = 32_000_000  # a manifest or build record: the largest Aetherpress writes is a few megabytes
_TAIL = b',\n "seal": "'


def sealed_json(data: dict, *parts: str) -> str:
    """``data`` as JSON text whose last key is its seal, taken over the bytes before it (and ``parts``), so
    that :func:`opened_json` can check it before parsing anything."""
    body = json.dumps(data, sort_keys=True, indent=1)
    if not data or not body.endswith("\n}"):
        raise ValueError("only a table with keys is sealed this way")
    body = body[:-2]
    return f'{body}{_TAIL.decode()}{seal(*parts, body)}"\n}}\n'


def opened_json(raw: bytes, *parts: str) -> Any | None:
    """The data of a text :func:`sealed_json` wrote with ``parts``; None for anything else, found out from
    the raw bytes and the seal alone, before any of it is parsed."""
    at = raw.rfind(_TAIL)
    if at < 0 or len(raw) - at != len(_TAIL) + 64 + 4:
        return None
    mark = raw[at + len(_TAIL) : at + len(_TAIL) + 64].decode("ascii", "replace")
    if raw[-4:] != b'"\n}\n' or not holds(mark, *parts, raw[:at]):
        return None
    return json.loads(raw)
