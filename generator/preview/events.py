"""Server-sent events: every open page hears what changed, as ``event: NAME`` with JSON data."""

from __future__ import annotations

import json
import queue
import threading

_MAX_QUEUED = 256  # events waiting for one slow page; past this it is told to reload its state instead
_RESYNC = b"event: resync\ndata: {}\n\n"


def encode(event: str, data: object) -> bytes:
    """One event in the ``text/event-stream`` format (JSON has no line breaks of its own)."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class Broadcaster:
    """Pages listening for events, each with its own queue (``None`` in a queue ends its stream)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[queue.Queue[bytes | None]] = []
        self.last: dict[str, bytes] = {}  # the latest event of each name, for pages that join later

    def subscribe(self) -> queue.Queue[bytes | None]:
        listener: queue.Queue[bytes | None] = queue.Queue(_MAX_QUEUED)
        with self._lock:
            self._listeners.append(listener)
            for message in self.last.values():
                listener.put_nowait(message)
        return listener

    def unsubscribe(self, listener: queue.Queue[bytes | None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def publish(self, event: str, data: object) -> None:
        message = encode(event, data)
        with self._lock:
            if event == "state":
                self.last[event] = message
            for listener in self._listeners:
                try:
                    listener.put_nowait(message)
                except queue.Full:  # a page that does not read: drop what it missed, it reloads everything
                    _drain(listener)
                    listener.put_nowait(_RESYNC)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        with self._lock:
            for listener in self._listeners:
                _drain(listener)
                listener.put_nowait(None)
            self._listeners = []

    @property
    def listening(self) -> int:
        with self._lock:
            return len(self._listeners)


def _drain(listener: queue.Queue[bytes | None]) -> None:
    while True:
        try:
            listener.get_nowait()
        except queue.Empty:
            return
