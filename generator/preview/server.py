"""The preview's HTTP server: loopback only, a fixed set of routes, nothing from the URL near the file system.

Routes (``DECK`` is a deck's slug as in ``output/``, e.g. ``imperial-academy``):

- ``/``, ``/card/DECK/CARD``, ``/back/DECK/BACK``, ``/hand/DECK``, ``/table/DECK`` (the playtest
  table), ``/deck/DECK`` (the deck's statistics): the pages;
- ``/cards/DECK/CARD.svg`` (the face as the build writes it), ``.png`` (300 dpi),
  and ``/backs/DECK/BACK.svg`` / ``.png``;
- ``/api/state``, ``/api/side/DECK/face|back/NAME``: JSON for the pages; ``/api/table|deal|hands|stats|textroom/DECK``:
  the table's and the statistics' (see :mod:`.playapi`);
- ``/events``: server-sent events (``state``, ``sides``);
- ``/static/NAME``: the pages' scripts and styles; ``/fonts/NAME``: the shipped fonts.

A deck, card or back is found only by looking its id up among the decks
being previewed; anything else is 404.  Requests whose ``Host`` is not
``127.0.0.1`` or ``localhost`` at our port are refused (a page elsewhere
cannot reach the server through a name that points here).  Every answer
carries ``X-Content-Type-Options: nosniff`` and a ``Content-Security-Policy``:
pages may run only their own scripts and talk only to this server; served
SVGs may run nothing and load nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import queue
import sys
import threading
from collections import OrderedDict
from concurrent.futures import TimeoutError as FutureTimeout
from functools import lru_cache
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

from .api import side_detail, state_json
from .assets import PAGES, asset
from .playapi import NAMES, answer
from .sidepng import side_png
from .sides import BACK, FACE
from .state import Preview
from .worker import Worker

HOST = "127.0.0.1"
_WAIT_SECONDS = 60.0  # the longest a request waits for a side to be drawn
_KEEPALIVE_SECONDS = 15.0
_PNGS_KEPT = 24

# Pages run only their own scripts and reach only this server.  Card art is put into the page as SVG
# (so it is set in the shipped fonts), and a card's SVG may carry style attributes (the allow-list
# lets their CSS properties through, never a url() other than #id or an inline picture): hence
# inline styles, which can neither run anything nor load anything under the rest of this policy.
_PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_SVG_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox"
_DATA_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox"
_ALWAYS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": _DATA_CSP,
}
_SIDE_FOLDERS = {"cards": FACE, "backs": BACK}
_SIDE_PAGES = {"card": FACE, "back": BACK}


@lru_cache(maxsize=64)
def tag(data: bytes) -> str:
    """An ETag for a file that never changes while the server runs."""
    return hashlib.sha256(data).hexdigest()[:20]


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True  # open event streams do not hold up the end

    def __init__(self, port: int, preview: Preview, worker: Worker, project_name: str):
        super().__init__((HOST, port), _Handler)
        self.preview = preview
        self.worker = worker
        self.project_name = project_name
        self.stopping = threading.Event()
        self.pngs: OrderedDict[str, bytes] = OrderedDict()  # by side version; used on the worker thread only

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_port}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that resets or drops its connection (a page closed mid-request) is nothing to tell; anything
        else that escapes a request is one line, and the server goes on."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        print(f"preview: internal error answering a request: {type(error).__name__}: {error} (please report it)", file=sys.stderr)

    def stop(self) -> None:
        self.stopping.set()
        self.preview.events.close()
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = "Aetherpress-preview"
    sys_version = ""
    timeout = 120  # an idle connection is closed after this long

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows the URL and problems only
        pass

    # --- every answer -------------------------------------------------------------

    def send_header(self, keyword: str, value: str) -> None:
        self._headers_sent = getattr(self, "_headers_sent", set()) | {keyword.lower()}
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        sent: set[str] = getattr(self, "_headers_sent", set())
        for keyword, value in _ALWAYS.items():
            if keyword.lower() not in sent:
                super().send_header(keyword, value)
        self._headers_sent = set()
        super().end_headers()

    def _send(self, status: int, data: bytes, content_type: str, csp: str = _DATA_CSP, etag: str | None = None) -> None:
        """Answer with ``data``; with an ``etag`` the browser may keep it, and a request that has it gets 304."""
        if etag is not None and self._unchanged(etag, csp):
            return
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Security-Policy", csp)
        if etag:
            self.send_header("ETag", f'"{etag}"')
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _unchanged(self, etag: str, csp: str) -> bool:
        """Answer 304 if the browser already has this version (its ``If-None-Match``).

        The browser takes the headers of a 304 for the copy it keeps, so the policy is the one the copy came with."""
        if self.headers.get("If-None-Match") != f'"{etag}"':
            return False
        self.send_response(304)
        self.send_header("ETag", f'"{etag}"')
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Security-Policy", csp)
        self.send_header("Content-Length", "0")
        self.end_headers()
        return True

    def _text(self, status: int, message: str) -> None:
        self._send(status, (message + "\n").encode("utf-8"), "text/plain; charset=utf-8")

    def _json(self, data: Any) -> None:
        self._send(200, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def _not_found(self) -> None:
        self._text(404, "not found")

    def do_GET(self) -> None:
        try:
            self._route()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as exc:  # a bug: answer, say so, keep serving
            self.close_connection = True
            with contextlib.suppress(OSError):
                self._text(500, f"internal error: {type(exc).__name__}: {exc}")

    do_HEAD = do_GET

    # --- routes --------------------------------------------------------------------

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        port = self.server.server_port
        return host in (f"{HOST}:{port}", f"localhost:{port}")

    def _route(self) -> None:
        if not self._host_ok():
            self._text(403, "refused: this preview answers only to http://127.0.0.1 and http://localhost")
            return
        address = urlsplit(self.path)
        parts = [unquote(p) for p in address.path.split("/")[1:]]
        preview = self.server.preview
        preview.loaded.wait(_WAIT_SECONDS)  # the first reading of the decks, when the server has just started
        match parts:
            case [""]:
                self._page("gallery")
            case ["events"]:
                self._events()
            case ["fonts", "fonts.css"]:
                css = preview.snapshot.fonts.css
                self._send(200, css, "text/css; charset=utf-8", etag=tag(css))
            case ["fonts", name] if name in preview.snapshot.fonts.files:
                data = preview.snapshot.fonts.files[name].read_bytes()
                self._send(200, data, "font/ttf" if name.endswith(".ttf") else "font/otf", etag=tag(data))
            case ["static", name] if asset(name) is not None:
                data, content_type = asset(name)  # type: ignore[misc]
                self._send(200, data, content_type, etag=tag(data))
            case ["api", "state"]:
                self._json(state_json(preview, self.server.project_name))
            case ["api", "side", deck, kind, name] if kind in (FACE, BACK):
                detail = side_detail(preview, deck, kind, name)
                if detail is None:
                    self._not_found()
                    return
                with contextlib.suppress(FutureTimeout):  # the findings need the side drawn once more
                    detail["findings"] += self.server.worker.call(lambda: preview.findings(deck, kind, name)).result(
                        _WAIT_SECONDS
                    )
                self._json(detail)
            case [page, deck, name] if page in _SIDE_PAGES and preview.snapshot.side(deck, _SIDE_PAGES[page], name):
                self._page("card")
            case [("hand" | "table" | "deck") as page, deck] if preview.snapshot.entry(deck) is not None:
                self._page(page)
            case ["api", name, deck] if name in NAMES:
                status, data = answer(preview, self.server.worker, name, deck, address.query)
                if isinstance(data, str):
                    self._text(status, data)
                else:
                    self._json(data)
            case [folder, deck, file] if folder in _SIDE_FOLDERS and file.endswith((".svg", ".png")):
                self._side(deck, _SIDE_FOLDERS[folder], file[:-4], file[-3:])
            case _:
                self._not_found()

    def _page(self, name: str) -> None:
        data, content_type = asset(PAGES[name])  # type: ignore[misc]
        self._send(200, data, content_type, _PAGE_CSP, tag(data))

    def _side(self, deck: str, kind: str, name: str, format: str) -> None:
        preview = self.server.preview
        side = preview.snapshot.side(deck, kind, name)
        if side is None:
            self._not_found()
            return
        if not side.settled:  # still waiting: have it drawn now
            try:
                side = self.server.worker.call(lambda: preview.draw_now(deck, kind, name)).result(_WAIT_SECONDS) or side
            except FutureTimeout:
                self._text(503, "still drawing; try again")
                return
        if side.svg is None:
            self._text(409, "\n".join(side.problems) or "this side could not be drawn")
            return
        if self._unchanged(f"{side.version}-{format}", _SVG_CSP if format == "svg" else _DATA_CSP):
            return
        if format == "svg":
            self._send(200, side.svg.encode("utf-8"), "image/svg+xml; charset=utf-8", _SVG_CSP, f"{side.version}-svg")
            return
        svg, version = side.svg, side.version
        entry = preview.snapshot.entry(deck)
        if entry is None:
            self._not_found()
            return
        geometry, source = entry.geometry, f"{entry.deck.source} {kind} {name}"
        fonts = preview.snapshot.fonts.renderer

        def draw_png() -> bytes:
            kept = self.server.pngs
            if version not in kept:
                kept[version] = side_png(svg, geometry, source, fonts)
                while len(kept) > _PNGS_KEPT:
                    kept.popitem(last=False)
            kept.move_to_end(version)
            return kept[version]

        try:
            data = self.server.worker.call(draw_png).result(_WAIT_SECONDS)
        except FutureTimeout:
            self._text(503, "still drawing; try again")
            return
        self._send(200, data, "image/png", _DATA_CSP, f"{version}-png")

    def _events(self) -> None:
        events = self.server.preview.events
        listener = events.subscribe()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            if self.command == "HEAD":
                return
            self.wfile.write(b"retry: 1000\n\n")
            while not self.server.stopping.is_set():
                try:
                    message = listener.get(timeout=_KEEPALIVE_SECONDS)
                except queue.Empty:
                    message = b": still here\n\n"
                if message is None:
                    break
                self.wfile.write(message)
        except OSError:  # the page went away
            pass
        finally:
            events.unsubscribe(listener)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Malformed requests (refused by the standard library before routing) get a short plain answer too,
        with the usual headers, and never an echo of what was sent."""
        self.close_connection = True
        if self.request_version == "HTTP/0.9":  # a request line that could not be read: answer in HTTP/1.0 all the same
            self.request_version = "HTTP/1.0"
        with contextlib.suppress(OSError, ValueError):
            self._text(code, f"{code} {HTTPStatus(code).phrase}")
