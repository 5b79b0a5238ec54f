"""The cores this process may use: the one count behind ``--jobs``'s default, and work spread over threads where
the libraries doing it let go of the interpreter (zlib, Pillow's filters, numpy, littleCMS)."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on this system
        return max(1, os.cpu_count() or 1)


def in_threads(function: Callable[[Item], Result], items: Iterable[Item]) -> Iterator[Result]:
    """``function`` of each item, in order, on one thread per core while the next items are made; at most two a
    thread wait for their turn, so the items of a large deck (pictures) are never all held at once."""
    threads = usable_cores()
    if threads == 1:
        yield from map(function, items)
        return
    waiting: deque[Future[Result]] = deque()
    with ThreadPoolExecutor(threads) as pool:
        for item in items:
            waiting.append(pool.submit(function, item))
            if len(waiting) >= 2 * threads:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()
