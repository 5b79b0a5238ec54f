"""A build's tasks and what each needs, declared once, and run by an existing engine.

A build adds its tasks to a :class:`Graph`: a plain function with its
arguments, any of which may be the result of another task (a :class:`Ref`),
and the tasks it must wait for.  Work several decks or books need (a side two
variants print alike, an odds table) is added once under its key, and each
asker gets the same task.  The same graph runs

- here or in a pool of processes, by ``concurrent.futures`` (:func:`run_local`:
  a task is handed to the executor once the tasks it needs are done);
- on a Dask cluster, by Dask's own scheduler (:func:`run_dask`: every task is
  submitted at once with the futures it needs as its arguments, so a task
  starts on the cluster when its inputs are ready, without a word from here).

What the command does with the results in this process (a deck's report, its
proof) is a step after the tasks it needs (:meth:`Graph.then`), run here as soon
as they are done.  After a failure nothing new starts; the failure of the
earliest task (in the order they were added) is raised once the running ones
end, so the message does not depend on which process was quicker.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from typing import Any

from ..render.sheetpdf import Progress
from .executor import InProcess, Portable

CHUNKS_PER_WORKER = 4  # tasks per worker and stage: enough to even out, few enough to start cheaply
MAX_CHUNK = 64


def chunks(items: list, workers: int) -> list[list]:
    """``items`` in runs of about len / (workers x CHUNKS_PER_WORKER), at most MAX_CHUNK long."""
    size = max(1, min(MAX_CHUNK, -(-len(items) // max(1, workers * CHUNKS_PER_WORKER))))
    return [items[i : i + size] for i in range(0, len(items), size)]


@dataclass(frozen=True)
class Ref:
    """The result of the task of a graph numbered ``index`` (as an argument of another task)."""

    index: int


@dataclass
class _Task:
    fn: Callable[..., Any]
    args: tuple
    needs: tuple[int, ...]  # every task it waits for: those whose results it takes, and the others it names


@dataclass
class _Step:
    needs: tuple[int, ...]
    then: Callable[[], Any]


@dataclass
class Graph:
    """The tasks of a build (see the module's text); ``workers``: how many run at once, to size chunks by."""

    workers: int = 1
    tasks: list[_Task] = field(default_factory=list)
    steps: list[_Step] = field(default_factory=list)
    keys: dict[Hashable, Ref] = field(default_factory=dict)

    def add(self, fn: Callable[..., Any], *args: Any, needs: Sequence[Ref] = (), key: Hashable | None = None) -> Ref:
        """The task ``fn(*args)`` (each :class:`Ref` among ``args`` its task's result), after ``needs``; a task
        added before under ``key`` stands for it."""
        if key is not None and key in self.keys:
            return self.keys[key]
        taken = tuple(a.index for a in args if isinstance(a, Ref))
        ref = Ref(len(self.tasks))
        self.tasks.append(_Task(fn, args, tuple(dict.fromkeys(taken + tuple(r.index for r in needs)))))
        if key is not None:
            self.keys[key] = ref
        return ref

    def known(self, key: Hashable) -> Ref | None:
        """The task added under ``key``, if any."""
        return self.keys.get(key)

    def name(self, key: Hashable, ref: Ref) -> None:
        """``ref`` does the work of ``key`` too (whoever asks for ``key`` gets it)."""
        self.keys.setdefault(key, ref)

    def then(self, needs: Sequence[Ref], then: Callable[[], Any]) -> None:
        """Call ``then()`` in this process once every task of ``needs`` is done (in the order the steps were added)."""
        self.steps.append(_Step(tuple(r.index for r in needs), then))


def _resolved(args: tuple, results: dict[int, Any]) -> tuple:
    return tuple(results[a.index] if isinstance(a, Ref) else a for a in args)


class Results:
    """The results of a graph's tasks as they become known, by :class:`Ref` (see :func:`run_local`)."""

    def __init__(self) -> None:
        self.values: dict[int, Any] = {}

    def __getitem__(self, ref: Ref) -> Any:
        return self.values[ref.index]


def _earliest(failures: list[tuple[int, BaseException]]) -> BaseException:
    return min(failures, key=lambda failure: failure[0])[1]


def run_local(graph: Graph, executor: Executor, results: Results, progress: Progress | None = None) -> None:
    """Run ``graph`` on a ``concurrent.futures`` executor (this process or a pool): each task is handed out once
    the tasks it needs are done; each step runs here once its tasks are.  ``results`` receives every result."""
    waiting = list(range(len(graph.tasks)))
    steps = list(graph.steps)
    running: dict[Future, int] = {}
    failures: list[tuple[int, BaseException]] = []
    done: set[int] = set()
    while True:
        if not failures:
            steps = _run_steps(steps, done)
            ready = [i for i in waiting if all(n in done for n in graph.tasks[i].needs)]
            waiting = [i for i in waiting if i not in set(ready)]
            for i in ready:
                task = graph.tasks[i]
                # a failure in this process is raised as it is, with its history for --debug; elsewhere it must travel
                fn = task.fn if isinstance(executor, InProcess) else Portable(task.fn)
                running[executor.submit(fn, *_resolved(task.args, results.values))] = i
        if not running:
            break
        finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
        for future in sorted(finished, key=running.__getitem__):
            i = running.pop(future)
            error = None if future.cancelled() else future.exception()
            if future.cancelled():
                continue
            if error is not None:
                failures.append((i, error))
                for other in running:
                    other.cancel()
                continue
            results.values[i] = future.result()
            done.add(i)
            if progress:
                progress(len(done), len(graph.tasks))
    if failures:
        raise _earliest(failures)


def _run_steps(steps: list[_Step], done: set[int]) -> list[_Step]:
    """Run the steps whose tasks are done, in order; return those still waiting."""
    left = []
    for step in steps:
        if all(n in done for n in step.needs):
            step.then()
        else:
            left.append(step)
    return left


def _after(fn: Callable[..., Any], taken: int) -> Callable[..., Any]:
    """``fn`` of its first ``taken`` arguments: the others are futures Dask waits for before it starts."""
    return _Dropping(fn, taken)


class _Dropping:
    def __init__(self, fn: Callable[..., Any], taken: int):
        self.fn, self.taken = fn, taken

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args[: self.taken])


def run_dask(graph: Graph, client: Any, results: Results, progress: Progress | None = None) -> None:
    """Run ``graph`` on a Dask cluster: every task submitted at once, with the futures it needs among its arguments,
    for Dask's scheduler to start when they are ready; each step runs here once its tasks are done."""
    from distributed import as_completed

    futures: list[Any] = []
    for task in graph.tasks:
        args = tuple(futures[a.index] if isinstance(a, Ref) else a for a in task.args)
        taken = {a.index for a in task.args if isinstance(a, Ref)}
        others = [futures[n] for n in task.needs if n not in taken]
        fn = Portable(task.fn)
        futures.append(client.submit(_after(fn, len(args)) if others else fn, *args, *others, pure=False))
    index = {future.key: i for i, future in enumerate(futures)}
    steps = list(graph.steps)
    done: set[int] = set()
    with client.as_current():  # the build's client, which is no process-wide default
        for future in as_completed(futures):
            if future.status != "finished":  # failed: nothing more is wanted of the cluster
                client.cancel([f for f in futures if not f.done()])
                break
            i = index[future.key]
            results.values[i] = future.result()
            done.add(i)
            if progress:
                progress(len(done), len(graph.tasks))
            steps = _run_steps(steps, done)
    failures = [(i, future.exception()) for i, future in enumerate(futures) if future.status == "error"]
    if failures:
        raise _earliest(failures)
    _run_steps(steps, done)


def run(graph: Graph, executor: Executor, results: Results, progress: Progress | None = None) -> None:
    """Run ``graph`` by the engine of ``executor``: Dask's scheduler for a cluster's, else ``concurrent.futures``."""
    client = getattr(executor, "_aetherpress_client", None)
    if client is not None:
        run_dask(graph, client, results, progress)
    else:
        run_local(graph, executor, results, progress)
