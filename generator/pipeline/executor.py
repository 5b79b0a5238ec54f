"""Where a build's tasks run: here, in a pool of processes, or on a Dask cluster.

Every task is a plain function of plain values (see :mod:`.tasks`), so any
``concurrent.futures`` executor can run it: this process (``--jobs 1``), a
process pool (``--jobs N``; the default is one process per core), or a Dask
cluster's client (``--dask tcp://HOST:PORT``), which offers the same
interface.  The files are the same whichever runs them.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import pickle
import signal
import socket
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from ..errors import AetherpressError, Problem
from ..project.scratch import run_folder
from ..resources.cores import usable_cores

PR_SET_PDEATHSIG = 1


class InProcess(Executor):
    """Runs each task at once, in this process: the serial build, and the reference the others must match."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to whoever waits on the future, as a pool does
            future.set_exception(exc)
        return future


class Portable:
    """A task whose failure reaches the waiting process whole, however the worker pickles exceptions.

    The exception a task raises travels back by pickle.  Some libraries (Dask's, through tblib)
    make that pickle carry the exceptions it arose from as well, which can hold what no pickle
    takes (lxml's error log, for one), and the worker then dies instead of reporting.  Here a
    failure leaves without its history, and one that still cannot travel is told as text.
    """

    def __init__(self, fn: Callable[..., Any]):
        self.fn = fn

    def __call__(self, *args: Any) -> Any:
        try:
            return self.fn(*args)
        except Exception as exc:
            exc.__cause__ = exc.__context__ = None
            exc.__suppress_context__ = True
            try:
                pickle.dumps(exc)
            except Exception:
                raise RuntimeError(f"{type(exc).__name__}: {exc}") from None
            raise


STOPS = {signal.SIGINT, signal.SIGTERM}


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the build's own process, stops at once when told to, and dies with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # Linux: a killed build leaves no worker behind
    except (OSError, AttributeError):
        pass


def _knock(address: str) -> None:
    """A TCP scheduler that refuses the connection is said at once (Dask's client would try again for seconds)."""
    scheme, _, rest = address.rpartition("://")
    host, _, port = rest.rpartition(":")
    if scheme not in ("", "tcp") or not host or not port.isdigit():
        return  # another protocol, or no port given: the client decides
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=3).close()
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
        raise AetherpressError(Problem("command line", f"--dask {address}: cannot reach the scheduler ({reason})")) from None


def resolved_jobs(jobs: int | None) -> int:
    """How many tasks a build on this machine runs at once: ``--jobs`` when given, else one per core (the one
    place ``--jobs`` is worked out)."""
    return jobs if jobs is not None and jobs > 0 else usable_cores()


def dask_workers(client: Any) -> int:
    """How many tasks a Dask cluster runs at once: the threads of its workers (at least one)."""
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(info.get("nthreads", 1)) for info in workers.values()))


def _dask_executor(address: str) -> Executor:
    try:
        from distributed import Client
    except ImportError:
        raise AetherpressError(Problem("command line", "--dask needs the dask extra: pip install 'aetherpress[dask]'")) from None
    _knock(address)
    try:
        client = Client(address, timeout=3, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise AetherpressError(Problem("command line", f"--dask {address}: cannot reach the scheduler ({exc})")) from None
    executor = client.get_executor(pure=False)
    executor._aetherpress_client = client  # closed with the executor
    return executor


def _nothing() -> None:
    return None


def _start_workers(pool: ProcessPoolExecutor) -> None:
    """Start the pool's processes now, with Ctrl-C and SIGTERM held back until they are running.

    A signal handled while the process forks runs inside Python's fork hooks, where the exception
    that stops a build is printed and dropped; held back, it arrives a moment later and stops it.
    """
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        pool.submit(_nothing)  # a pool that forks starts every worker with its first task
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextmanager
def executor(jobs: int | None = None, dask: str | None = None) -> Iterator[tuple[Executor, int]]:
    """The executor of a build and how many tasks it runs at once (a cluster's by its workers, this machine's
    by ``--jobs``); its workers are shut down when the block ends."""
    if dask:
        chosen = _dask_executor(dask)
        workers = dask_workers(chosen._aetherpress_client)  # type: ignore[attr-defined]
    elif (workers := resolved_jobs(jobs)) <= 1:
        chosen = InProcess()
    else:
        run_folder()  # made here, so the workers' temporary files go in it and leave with it
        methods = multiprocessing.get_all_start_methods()
        # fork starts workers with Aetherpress already imported and the definitions already read
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        chosen = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start)
        _start_workers(chosen)
    try:
        try:
            yield chosen, workers
        except KeyboardInterrupt:
            _stop_now(chosen)
            raise
        except BaseException:
            _shut_down(chosen)  # the running tasks end; the failure is reported
            raise
        try:
            chosen.shutdown(wait=True)
        except KeyboardInterrupt:
            _stop_now(chosen)
            raise
    finally:
        client = getattr(chosen, "_aetherpress_client", None)
        if client is not None:
            client.close()


def _shut_down(chosen: Executor) -> None:
    """Let the running tasks end and start no other (a Dask client's executor cancels none itself)."""
    try:
        chosen.shutdown(wait=True, cancel_futures=True)
    except TypeError:
        chosen.shutdown(wait=True)


def _stop_now(chosen: Executor) -> None:
    """Interrupted: nothing a worker does now is wanted, and nothing waits for one."""
    if isinstance(chosen, ProcessPoolExecutor):
        for child in multiprocessing.active_children():
            child.terminate()
    chosen.shutdown(wait=False, cancel_futures=True)
