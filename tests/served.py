"""Running ``aetherpress`` as its own process for the preview tests: a project to serve, the server, its output."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from generator.cli import main

ROOT = Path(__file__).resolve().parents[1]


def new_game(folder: Path, name: str = "game") -> Path:
    """A project made by ``aetherpress new`` (12 cards in a CSV, one back), made from ``folder``."""
    here = Path.cwd()
    os.chdir(folder)
    try:
        assert main(["new", name]) == 0
    finally:
        os.chdir(here)
    return folder / name


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def run(capsys, root: Path, *args: str) -> tuple[int, str, str]:
    """``aetherpress --project ROOT ARGS``: (exit status, what it printed, what it told on stderr)."""
    capsys.readouterr()
    code = main(["--project", str(root), *args])
    out, err = capsys.readouterr()
    return code, out, err


def wait_for(check: Callable[[], object], seconds: float = 5.0, every: float = 0.02) -> object:
    """The first true value of ``check()`` within ``seconds``; fails the test otherwise.

    A file missing counts as not yet: a build swaps its output folder in whole, and for a moment
    between the old folder leaving and the new one arriving there is none.
    """
    end = time.monotonic() + seconds
    while True:
        try:
            value = check()
        except FileNotFoundError:
            value = None
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"not so within {seconds} s: {check}")
        time.sleep(every)


def _default_interrupt() -> None:
    """In the child: Ctrl-C as in a terminal, even when these tests run where it is ignored (a background job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Command:
    """``python -m generator ARGS`` in ``cwd``; stdout and stderr gathered line by line as they come."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str] | None = None):
        env = dict(env if env is not None else os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", *args],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            preexec_fn=_default_interrupt,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=self._gather, args=(stream, lines), daemon=True).start()

    @staticmethod
    def _gather(stream, lines: list[str]) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))

    def interrupt(self, timeout: float = 10.0) -> int:
        """Ctrl-C, and the exit status."""
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout)
        time.sleep(0.05)  # the last lines reach the readers
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


class Server(Command):
    """``aetherpress serve --no-browser --port 0`` on a project; its URL is the first line it prints.

    With ``env``, the server runs in that environment and may open a browser (``BROWSER`` says which)."""

    def __init__(self, project: Path, *args: str, env: dict[str, str] | None = None):
        browser = [] if env is not None else ["--no-browser"]  # a test that sets the environment watches the browser open
        super().__init__(["--project", str(project), "serve", *browser, "--port", "0", *args], project, env)
        wait_for(lambda: self.out or self.process.poll() is not None, 30)
        assert self.out, f"the server did not start: {self.err}"
        self.url = self.out[0]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def request(
        self, path: str, method: str = "GET", host: str | None = "default", if_none_match: str | None = None
    ) -> http.client.HTTPResponse:
        """A request with the ``Host`` header given (None: no Host header at all)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", f"127.0.0.1:{self.port}" if host == "default" else host)
        if if_none_match is not None:
            connection.putheader("If-None-Match", if_none_match)
        connection.endheaders()
        response = connection.getresponse()
        response.body = response.read() if path != "/events" else b""  # type: ignore[attr-defined]
        return response

    def get(self, path: str) -> bytes:
        response = self.request(path)
        assert response.status == 200, (path, response.status, response.body)  # type: ignore[attr-defined]
        return response.body  # type: ignore[attr-defined]

    def state(self) -> dict:
        return json.loads(self.get("/api/state"))

    def settled(self) -> dict:
        """The state once every side is drawn."""
        return wait_for(lambda: (s := self.state())["waiting"] == 0 and s, 30)  # type: ignore[return-value]

    def raw(self, request: bytes) -> bytes:
        """Send ``request`` as it is (a request line no client would send) and read the whole answer."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall(request)
            chunks = []
            while True:
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    break
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and b"Content-Length: " in chunks[0]:
                    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
                    length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                    if len(body) >= length:
                        break
            return b"".join(chunks)

    def events(self) -> Iterator[tuple[str, dict]]:
        """The server-sent events, as (name, data), as they come."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/events", headers={"Host": f"127.0.0.1:{self.port}"})
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        name = None
        while True:
            try:
                line = response.fp.readline().decode("utf-8")
            except OSError:  # the test is over and nobody reads any more
                return
            if not line:
                return
            line = line.rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name:
                yield name, json.loads(line[6:])
                name = None
