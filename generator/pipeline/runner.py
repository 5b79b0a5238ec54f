"""Running a build's tasks: futures on an executor, each stage started when the futures it needs are done.

A build hands its tasks to :meth:`Runner.submit` (run by the executor: this
process, a process pool or a Dask cluster) and chains what comes next with
:meth:`Runner.after`, which runs in this process once the futures it waits
for are done and may hand out more tasks.  Work that several decks or books
of one build need (a piece two variants print alike, an odds table) is done
once: :meth:`Runner.once` gives every caller the future of the first.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

from ..render.sheetpdf import Progress
from .executor import InProcess, Portable

CHUNKS_PER_WORKER = 4  # tasks per worker and stage: enough to even out, few enough to start cheaply
MAX_CHUNK = 64


def chunks(items: list, workers: int) -> list[list]:
    """``items`` in runs of about len / (workers x CHUNKS_PER_WORKER), at most MAX_CHUNK long."""
    size = max(1, min(MAX_CHUNK, -(-len(items) // max(1, workers * CHUNKS_PER_WORKER))))
    return [items[i : i + size] for i in range(0, len(items), size)]


_Waiting = tuple[list[Future], Callable[[], Any], Future]  # the futures a stage waits for, the stage, its own future


def _done(value: Any = None) -> Future:
    future: Future = Future()
    future.set_result(value)
    return future


class Runner:
    """Runs tasks on an executor, each stage after the futures it needs, until none is left.

    After a failure nothing new starts; the failure of the earliest task (in
    the order they were handed out) is raised once the running ones end, so
    the message does not depend on which process was quicker.
    """

    def __init__(self, executor: Executor, workers: int, progress: Progress | None = None):
        self.executor = executor
        self.workers = workers
        self.progress = progress
        self.handed_out: dict[Future, int] = {}  # the executor's futures, by the order they were handed out
        self.done = 0
        self.failures: list[tuple[int, BaseException]] = []
        self._seen: set[Future] = set()
        self._after: list[_Waiting] = []  # waiting to run here, in order
        self._once: dict[Hashable, Future] = {}

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """The future of ``fn(*args)``, run by the executor (nothing new runs after a failure)."""
        if self.failures:
            return _done()
        # a failure in this process is raised as it is, with its history for --debug; elsewhere it must travel
        future = self.executor.submit(fn if isinstance(self.executor, InProcess) else Portable(fn), *args)
        self.handed_out[future] = len(self.handed_out)
        return future

    def after(self, futures: Sequence[Future], then: Callable[[], Any]) -> Future:
        """The future of ``then()``, called in this process once every one of ``futures`` is done; when ``then``
        returns a future, the future of that."""
        out: Future = Future()
        self._after.append((list(futures), then, out))
        return out

    def all(self, futures: Sequence[Future]) -> Future:
        """A future done when every one of ``futures`` is."""
        return self.after(futures, lambda: None)

    def once(self, key: Hashable) -> Future | None:
        """The future of work someone of this build has taken on under ``key``; None when nobody has."""
        return self._once.get(key)

    def take_on(self, keys: Sequence[Hashable], future: Future) -> None:
        """``future`` does the work of ``keys``: whoever needs one of them waits for it (see :meth:`once`)."""
        for key in keys:
            self._once.setdefault(key, future)

    def run(self) -> None:
        """Run until every task and every stage after it is done; raise the earliest failure."""
        while True:
            self._count()
            if self.failures:
                self._after.clear()
            if self._resume():
                continue
            running = [f for f in self.handed_out if f not in self._seen]
            if not running:
                break
            wait(running, return_when=FIRST_COMPLETED)
        if self.failures:
            raise min(self.failures, key=lambda failure: failure[0])[1]

    def _count(self) -> None:
        """Take note of the tasks done since last looked: failures, and the progress of the others."""
        for future in sorted((f for f in self.handed_out if f.done() and f not in self._seen), key=self.handed_out.__getitem__):
            self._seen.add(future)
            error = None if future.cancelled() else future.exception()
            if future.cancelled():
                continue
            if error is not None:
                self.failures.append((self.handed_out[future], error))
                for other in self.handed_out:
                    other.cancel()
                continue
            self.done += 1
            if self.progress:
                self.progress(self.done, len(self.handed_out))

    def _resume(self) -> bool:
        """Run the stages whose futures are all done, in the order they were chained; True when any ran."""
        ready: list[_Waiting] = []
        waiting: list[_Waiting] = []
        for entry in self._after:  # each entry looked at once: a future may finish between two looks
            (ready if all(f.done() for f in entry[0]) else waiting).append(entry)
        if not ready:
            return False
        self._after = waiting
        for _, then, out in ready:
            if self.failures:
                break
            result = then()
            if isinstance(result, Future):
                self._after.append(([result], result.result, out))
            else:
                out.set_result(result)
        return True
