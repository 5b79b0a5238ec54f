"""Running a build's tasks: each followed by what depends on it, and work that several parts share done once."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any, TypeVar

from ..render.sheetpdf import Progress
from .executor import InProcess, Portable

CHUNKS_PER_WORKER = 4  # tasks per worker and stage: enough to even out, few enough to start cheaply
MAX_CHUNK = 64
K = TypeVar("K", bound=Hashable)


def chunks(items: list, workers: int) -> list[list]:
    """``items`` in runs of about len / (workers x CHUNKS_PER_WORKER), at most MAX_CHUNK long."""
    size = max(1, min(MAX_CHUNK, -(-len(items) // max(1, workers * CHUNKS_PER_WORKER))))
    return [items[i : i + size] for i in range(0, len(items), size)]


class Shared:
    """Work that several decks or books of one build need (a piece two variants print alike, an odds
    table), done once: the first to claim a key does the work, and the others wait for it."""

    def __init__(self) -> None:
        self._waiting: dict[Hashable, list[Callable[[], None]]] = {}
        self._done: set[Hashable] = set()

    def claim(self, keys: Iterable[K]) -> list[K]:
        """The keys nobody has claimed yet, each once, in order: they are now the caller's to do."""
        mine: list[K] = []
        for key in keys:
            if key not in self._waiting and key not in self._done:
                self._waiting[key] = []
                mine.append(key)
        return mine

    def finished(self, keys: Iterable[Hashable]) -> None:
        """The caller's work for ``keys`` is done: tell whoever waits for it."""
        for key in keys:
            self._done.add(key)
            for then in self._waiting.pop(key, []):
                then()

    def when_done(self, keys: Iterable[Hashable], then: Callable[[], None]) -> None:
        """Call ``then`` once every one of ``keys`` (each claimed already) is done; at once if all are."""
        left = [key for key in dict.fromkeys(keys) if key not in self._done]
        if not left:
            then()
            return
        count = [len(left)]

        def one_done() -> None:
            count[0] -= 1
            if count[0] == 0:
                then()

        for key in left:
            self._waiting[key].append(one_done)


class Runner:
    """Runs tasks on an executor, each followed by what depends on it, until none is left.

    After a failure nothing new starts; the failure of the earliest task (in
    the order they were handed out) is raised once the running ones end, so
    the message does not depend on which process was quicker.
    """

    def __init__(self, executor: Executor, workers: int, progress: Progress | None = None):
        self.executor = executor
        self.workers = workers
        self.progress = progress
        self.pending: dict[Future, tuple[int, Callable[[Any], None] | None]] = {}
        self.handed_out = 0
        self.done = 0
        self.failures: list[tuple[int, BaseException]] = []
        self.shared = Shared()

    def submit(self, then: Callable[[Any], None] | None, fn: Callable[..., Any], *args: Any) -> None:
        if self.failures:
            return
        # a failure in this process is raised as it is, with its history for --debug; elsewhere it must travel
        future = self.executor.submit(fn if isinstance(self.executor, InProcess) else Portable(fn), *args)
        self.pending[future] = (self.handed_out, then)
        self.handed_out += 1

    def fan_out(self, calls: Sequence[tuple[Callable[..., Any], tuple]], then: Callable[[], None]) -> None:
        """Run every ``fn(*args)`` of ``calls``, then ``then`` once all are done (at once when there are none)."""
        if not calls:
            then()
            return
        left = [len(calls)]

        def one_done(_: Any) -> None:
            left[0] -= 1
            if left[0] == 0:
                then()

        for fn, args in calls:
            self.submit(one_done, fn, *args)

    def run(self) -> None:
        while self.pending:
            finished, _ = wait(list(self.pending), return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: self.pending[f][0]):
                order, then = self.pending.pop(future)
                error = None if future.cancelled() else future.exception()
                if future.cancelled():
                    continue
                if error is not None:
                    self.failures.append((order, error))
                    for other in self.pending:
                        other.cancel()
                    continue
                self.done += 1
                if self.progress:
                    self.progress(self.done, self.handed_out)
                if then is not None and not self.failures:
                    then(future.result())
            self.pending = {f: v for f, v in self.pending.items() if not f.cancelled()}
        if self.failures:
            raise min(self.failures, key=lambda failure: failure[0])[1]
