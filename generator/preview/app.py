"""``aetherpress serve``: the server, the watcher and the worker started together."""

from __future__ import annotations

import os
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

from ..definitions.model import Deck
from ..errors import AetherpressError, Problem
from ..project import Project
from .server import PreviewServer
from .state import Preview
from .watcher import changes, sources_state
from .worker import Worker


def _watch(project: Project, worker: Worker, stop: threading.Event, since: dict[Path, tuple[int, int]]) -> None:
    try:
        for _ in changes(project, stop, since):
            worker.changed()
    except Exception as exc:  # e.g. the system's limit of watched folders: say so, keep serving
        print(f"note: cannot watch the project for changes ({exc}); restart the preview to see edits", file=sys.stderr)


def _can_open_a_window() -> bool:
    """Whether a browser window can be opened here; elsewhere a text browser would take over the terminal."""
    if sys.platform == "darwin" or sys.platform.startswith("win"):
        return True
    return any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"))


def serve(project: Project, choose: Callable[[], list[Deck]], port: int, open_browser: bool = True) -> int:
    """Serve the decks ``choose`` names on ``http://127.0.0.1:PORT/`` until Ctrl-C; the first line printed is the URL."""
    before = sources_state(project)  # a save before the watcher listens is still seen
    preview = Preview(project, choose)
    worker = Worker(preview)
    try:
        server = PreviewServer(port, preview, worker, project.root.name if project.root else "built-in decks")
    except OSError as exc:
        raise AetherpressError(
            Problem("command line", f"--port {port}: {exc.strerror or exc}; choose another port (--port 0 picks a free one)")
        ) from None
    print(server.url, flush=True)
    stop = threading.Event()
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, name="preview-server", daemon=True).start()
    threading.Thread(target=_watch, args=(project, worker, stop, before), name="preview-watcher", daemon=True).start()
    if open_browser and _can_open_a_window():
        threading.Thread(target=webbrowser.open, args=(server.url,), name="preview-browser", daemon=True).start()
    elif open_browser:
        print("note: no browser window can be opened here; open the address above in one", file=sys.stderr, flush=True)
    try:
        worker.run(stop)
    finally:
        stop.set()
        server.stop()
    return 0
