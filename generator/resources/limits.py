"""Bounds for code that designers (or strangers) write: templates and rulebook sources.

Templates run in Jinja2's sandbox, which keeps them from Python internals.
This adds bounds on what they may spend:

- time: every render has a deadline.  It is checked at every call and every
  piece of output, and, on the main thread, enforced by an interval timer, so
  even a loop that calls nothing and writes nothing is stopped;
- size: ``*``, ``**`` and ``+`` on strings, lists and numbers may not make
  values larger than :data:`_MAX_VALUE`, arithmetic may not work on whole
  numbers longer than :data:`_MAX_OPERAND_BITS` (one such step cannot be
  interrupted), a template file may not be longer than :data:`MAX_TEMPLATE_CHARS`,
  and the output may not grow past the caller's limit;
- nothing is worked out while a template compiles (Jinja's optimiser is off,
  and a filter on a constant waits for the run), and compiling counts against
  the deadline; ``round`` and ``sum`` are bounded, being single steps;
- memory: the command line caps the process's address space
  (:func:`cap_memory`), so what slips past the size checks ends in a
  ``MemoryError``, reported as one line.

A counting sandbox in the same process was chosen over a separate process per
template: a deck renders hundreds of faces, and starting a process (or
pickling faces back) for each would cost more than the whole render.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from jinja2 import filters as jinja_filters
from jinja2 import nodes, pass_environment

from ..libraries.jinja2 import RewritingEnvironment

_MAX_VALUE = 1_000_000  # characters of a string, items of a list, digits of a number
_MAX_OPERAND_BITS = 100_000  # a whole number this long (30,000 digits) is far past any card's need
MAX_COPIES = 1_000  # times a card may be printed or exported (--copies)
MAX_TEMPLATE_CHARS = 1_000_000  # a template file, or a file it includes
# brackets and blocks open at once in a template: Jinja's parser recurses a dozen frames for each bracket, so a
# deeper template would be refused or not by whatever the interpreter's recursion limit happens to be
MAX_TEMPLATE_NESTING = 32
_OPENERS, _CLOSERS = frozenset("([{"), frozenset(")]}")
_BLOCKS = frozenset({"if", "for", "macro", "call", "filter", "block", "with", "autoescape", "trans"})
_DEFAULT_MEMORY_MB = 4096


def _env_number(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def template_seconds() -> float:
    """How long one card face or back may take (``AETHERPRESS_TEMPLATE_SECONDS``, default 10)."""
    return _env_number("AETHERPRESS_TEMPLATE_SECONDS", 10.0)


def rulebook_seconds() -> float:
    """How long one rulebook source may take to fill in (``AETHERPRESS_RULEBOOK_SECONDS``, default 120)."""
    return _env_number("AETHERPRESS_RULEBOOK_SECONDS", 120.0)


class LimitExceeded(Exception):
    """A template or source went past one of its bounds (the message says which)."""


_DEADLINE: ContextVar[float] = ContextVar("aetherpress_deadline", default=float("inf"))


def _check_time() -> None:
    if time.monotonic() > _DEADLINE.get():
        raise LimitExceeded("took too long")


def check_deadline() -> None:
    """Raise :class:`LimitExceeded` once the enclosing deadline has passed: for long work between template calls
    (the write-out of a side), which the timer cannot interrupt off the main thread (the preview's worker)."""
    _check_time()


def _on_alarm(signum: int, frame: Any) -> None:
    left = _DEADLINE.get() - time.monotonic()
    if left <= 0.001:
        raise LimitExceeded("took too long")
    signal.setitimer(signal.ITIMER_REAL, left)  # woken early: wait for the rest


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Stop the block after ``seconds`` (the sooner of this and any enclosing deadline)."""
    end = min(time.monotonic() + seconds, _DEADLINE.get())
    token = _DEADLINE.set(end)
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if timer:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        outer_left, _ = signal.setitimer(signal.ITIMER_REAL, max(end - time.monotonic(), 0.001))
    try:
        yield
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        _DEADLINE.reset(token)
        if timer and outer_left:
            signal.setitimer(signal.ITIMER_REAL, max(_DEADLINE.get() - time.monotonic(), 0.001))


def _size(value: Any) -> int:
    if isinstance(value, (str, bytes, list, tuple)):
        return len(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value.bit_length() // 3
    return 0


_PLAIN_NUMBERS = (float, int, bool)


class LimitedSandbox(RewritingEnvironment):
    """The sandbox with bounded values and a deadline checked at every call."""

    intercepted_binops = frozenset({"*", "**", "+", "-", "/", "//", "%"})

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("optimized", False)  # nothing is worked out at compile time, outside the deadline
        super().__init__(*args, **kwargs)
        self.filters["round"] = _bounded_round
        self.filters["sum"] = _bounded_sum
        self.globals[_RUNTIME] = _at_run_time

    def checked(self, source: str, name: str | None, filename: str | None) -> None:
        """Refuse a template that opens more than :data:`MAX_TEMPLATE_NESTING` brackets and blocks at once, counted
        on its tokens (read without recursion) before the parser sees it."""
        depth, tag_opened = 0, False
        for _, kind, value in self.lex(source, name, filename):
            if kind == "operator" and value in _OPENERS:
                depth += 1
            elif kind == "operator" and value in _CLOSERS:
                depth -= 1
            elif kind == "name" and tag_opened:
                depth += 1 if value in _BLOCKS else -1 if value.startswith("end") and value != "endset" else 0
            if depth > MAX_TEMPLATE_NESTING:
                raise LimitExceeded(f"nests brackets and blocks more than {MAX_TEMPLATE_NESTING} deep")
            if kind != "whitespace":
                tag_opened = kind == "block_begin"

    def rewritten(self, tree: nodes.Template) -> nodes.Template:
        """The template's tree, with every filter or test whose input could be a constant made to wait for the
        run: Jinja works such an expression out while compiling, before any deadline, even with the optimiser off."""
        for node in tree.find_all((nodes.Filter, nodes.Test)):
            if node.node is not None and not _varies(node.node):
                node.node = nodes.Call(nodes.Name(_RUNTIME, "load"), [node.node], [], None, None, lineno=node.lineno)
        return tree

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        for value in (left, right):
            if type(value) is int and value.bit_length() > _MAX_OPERAND_BITS and operator not in ("+", "-"):
                raise LimitExceeded(f"worked on a number of more than {_MAX_OPERAND_BITS * 3 // 10:,} digits")
        if type(left) in _PLAIN_NUMBERS and type(right) in _PLAIN_NUMBERS and operator != "**":
            return self.binop_table[operator](left, right)  # arithmetic on numbers: nothing to grow
        if operator == "**":
            big = isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 0
            if big and right * max(abs(left), 2).bit_length() > _MAX_VALUE * 3:
                raise LimitExceeded(f"made a number of more than {_MAX_VALUE:,} digits")
        elif operator == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(count, int) and _size(seq) and _size(seq) * max(count, 0) > _MAX_VALUE:
                    raise LimitExceeded(f"made a text or list longer than {_MAX_VALUE:,}")
        elif operator == "+" and _size(left) + _size(right) > _MAX_VALUE:
            raise LimitExceeded(f"made a text or list longer than {_MAX_VALUE:,}")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _check_time()
        return super().call(__context, __obj, *args, **kwargs)


_RUNTIME = "_aetherpress_at_run_time"


def _at_run_time(value: Any) -> Any:
    return value


def _varies(node: nodes.Node) -> bool:
    """Can the expression only be known when the template runs (it names a variable, an attribute or a call)?"""
    kinds = (nodes.Name, nodes.Getattr, nodes.Getitem, nodes.Call)
    return isinstance(node, kinds) or any(True for _ in node.find_all(kinds))


def _bounded_round(value: Any, precision: Any = 0, method: str = "common") -> float:
    """Jinja's ``round``, with a precision a card could use (a huge one is one step that cannot be stopped)."""
    if not isinstance(precision, int) or abs(precision) > 100:
        raise LimitExceeded("rounded to more than 100 places")
    return jinja_filters.do_round(value, precision, method)  # type: ignore[arg-type]


@pass_environment
def _bounded_sum(environment: Any, iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
    """Jinja's ``sum``, of numbers only (summing lists copies them over and over, in steps that cannot be stopped)."""
    if type(start) not in _PLAIN_NUMBERS:
        raise LimitExceeded("summed something other than numbers")
    return jinja_filters.sync_do_sum(environment, iterable, attribute, start)


def render_bounded(generate: Iterator[str], max_chars: int) -> str:
    """Join the pieces a template generates, stopping past ``max_chars`` or the deadline."""
    pieces: list[str] = []
    total = 0
    for piece in generate:
        total += len(piece)
        if total > max_chars:
            raise LimitExceeded(f"made more than {max_chars:,} characters of output")
        _check_time()
        pieces.append(piece)
    return "".join(pieces)


def cap_memory(megabytes: float | None = None) -> None:
    """Cap this process's address space (``AETHERPRESS_MEMORY_MB``, default 4096 MB), where the system allows."""
    try:
        # Unix only
        import resource
    except ImportError:  # not on this system
        return
    limit = int((megabytes or _env_number("AETHERPRESS_MEMORY_MB", _DEFAULT_MEMORY_MB)) * 1024 * 1024)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
