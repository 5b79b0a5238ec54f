"""The preview's one working thread: reloading, drawing, and what the server asks of it.

Templates run here, on the main thread, where their time limit is enforced
by an interval timer (see :mod:`generator.resources.limits`); one thread also
means no two sides are drawn at once.  Server threads hand work over with
:meth:`Worker.call` and wait for its result; the watcher marks the sources
changed with :meth:`Worker.changed`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from .state import Preview

_IDLE_SECONDS = 0.5  # how often an idle worker looks at the stop flag


class Worker:
    def __init__(self, preview: Preview):
        self.preview = preview
        self.jobs: queue.Queue[tuple[Callable[[], Any], Future] | None] = queue.Queue()
        self.dirty = threading.Event()

    def changed(self) -> None:
        """The sources changed (called from the watcher's thread): reload before anything else."""
        self.dirty.set()
        self.jobs.put(None)  # wake the worker

    def call(self, job: Callable[[], Any]) -> Future:
        """Run ``job`` on the worker's thread, ahead of the sides still waiting to be drawn."""
        future: Future = Future()
        self.jobs.put((job, future))
        return future

    def run(self, stop: threading.Event) -> None:
        """Load the decks, then reload, answer and draw until ``stop`` is set (Ctrl-C stops it too)."""
        self.preview.refresh()
        while not stop.is_set():
            if self.dirty.is_set():
                self.dirty.clear()
                self.preview.refresh()
            elif not self._answer(block=not self.preview.pending) and self.preview.pending:
                self.preview.draw_next()

    def _answer(self, block: bool) -> bool:
        """Run the jobs waiting (the first one waited for when ``block``); True if there were any."""
        try:
            item = self.jobs.get(timeout=_IDLE_SECONDS) if block else self.jobs.get_nowait()
        except queue.Empty:
            return False
        while True:
            if item is not None:
                job, future = item
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(job())
                    except Exception as exc:  # handed to the server thread, which answers with an error
                        future.set_exception(exc)
            try:
                item = self.jobs.get_nowait()
            except queue.Empty:
                return True
