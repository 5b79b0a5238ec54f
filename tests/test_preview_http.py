"""``aetherpress serve`` over HTTP, without a browser: routes, headers, hostile requests, live events, recovery."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import struct
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

from generator.definitions import load_all
from generator.faces.render import FaceRenderer
from generator.locations import FONTS_DIR
from generator.project import Project
from generator.units import pixels

from .served import Command, Server, edit, new_game, wait_for

# whole builds, rulebooks, servers or property tests: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow

NOON = "Noon,2,suns,Look at the top card of the deck."


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return new_game(tmp_path_factory.mktemp("served"))


def test_the_first_line_is_the_url_and_only_loopback_listens(server):
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", server.url)
    listening = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, port = local.split(":")
        if int(port, 16) == server.port and state == "0A":  # LISTEN
            listening.append(address)
    assert listening == ["0100007F"]  # 127.0.0.1, nothing else


def test_the_gallery_lists_every_face_and_back_with_its_id(server):
    state = server.settled()
    assert state["problems"] == [] and state["project"] == "game"
    (deck,) = state["decks"]
    assert (deck["slug"], deck["key"], deck["cards"]) == ("game", "game", 12)
    names = [(s["kind"], s["name"]) for s in deck["sides"]]
    assert len(names) == 13 and names[0] == ("face", "dawn") and names[-1] == ("back", "back")
    assert all(s["v"] and s["image"] and not s["problems"] for s in deck["sides"])
    page = server.get("/").decode()
    assert '<main id="gallery">' in page and "/static/gallery.js" in page


def test_a_face_is_the_svg_the_build_writes(server, game):
    project = Project(game)
    deck = load_all(project)["game"].build(())
    drawn = FaceRenderer(project, deck)
    for card in deck.cards[:3]:
        assert server.get(f"/cards/game/{card.id}.svg").decode() == drawn.face(card)
    assert server.get("/backs/game/back.svg").decode() == drawn.back(deck.cards[0])


def test_the_raster_view_is_300_dpi_with_bleed(server):
    image = Image.open(io.BytesIO(server.get("/cards/game/dawn.png")))
    assert image.format == "PNG" and image.size == (pixels(63.5 + 6, 300), pixels(88.9 + 6, 300))
    assert round(image.info["dpi"][0]) == 300
    assert image.getpixel((image.width // 2, 5)) != (255, 255, 255)  # the art runs into the bleed


def test_a_side_comes_with_its_data_row_its_place_and_its_findings(server):
    detail = json.loads(server.get("/api/side/game/face/noon"))
    assert detail["origin"] == "decks/game/cards.csv:3" and detail["template"] == "game" and detail["back"] == "back"
    assert dict(detail["data"]) == {
        "id": "noon",
        "name": "Noon",
        "rank": "2",
        "suits": "suns",
        "group": "default",
        "copies": 1,
        "text": "Look at the top card of the deck.",
    }
    assert (detail["previous"], detail["next"], detail["findings"]) == ("dawn", "blaze", [])
    back = json.loads(server.get("/api/side/game/back/back"))
    assert dict(back["data"]) == {"back": "back", "cards printed with it": 12} and back["next"] is None


def test_the_pages_are_set_in_the_shipped_fonts(server):
    css = server.get("/fonts/fonts.css").decode()
    rule = next(line for line in css.splitlines() if '"Cinzel"; font-weight: 700; font-style: normal' in line)
    served = re.search(r'url\("(/fonts/[0-9a-f]{16}\.ttf)"\)', rule)[1]
    assert server.get(served) == (FONTS_DIR / "Cinzel-Bold.ttf").read_bytes()


def test_a_browser_keeps_what_has_not_changed(server):
    for path in ("/cards/game/dawn.svg", "/cards/game/dawn.png", "/fonts/fonts.css", "/static/preview.css", "/"):
        first = server.request(path)
        etag = first.getheader("ETag")
        assert first.status == 200 and etag, path
        again = server.request(path, if_none_match=etag)
        assert again.status == 304 and again.body == b"" and again.getheader("ETag") == etag, path
        assert again.getheader("Content-Security-Policy") == first.getheader("Content-Security-Policy"), path
        assert server.request(path, if_none_match='"other"').status == 200, path


def test_every_answer_carries_the_security_headers(server):
    for path in ("/", "/card/game/dawn", "/hand/game", "/static/preview.js", "/cards/game/dawn.svg", "/api/state", "/nothing"):
        response = server.request(path)
        policy = response.getheader("Content-Security-Policy")
        assert response.getheader("X-Content-Type-Options") == "nosniff", path
        assert policy and "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, path
        assert "http" not in policy and "*" not in policy, path  # nothing beyond this server
    page = server.request("/").getheader("Content-Security-Policy")
    assert "script-src 'self';" in page and "connect-src 'self';" in page
    svg = server.request("/cards/game/dawn.svg").getheader("Content-Security-Policy")
    assert "script-src" not in svg and "sandbox" in svg  # default-src 'none': no script, no loads


@pytest.mark.parametrize("host", ["evil.example:80", "127.0.0.1.evil.example", "localhost", "127.0.0.1", "[::1]", None])
def test_a_request_for_another_host_is_refused(server, host):
    response = server.request("/api/state", host=host)
    assert response.status == 403 and b"decks" not in response.body


def test_localhost_at_our_port_is_answered(server):
    assert server.request("/api/state", host=f"localhost:{server.port}").status == 200


@pytest.mark.parametrize(
    "path",
    [
        "/cards/game/nosuch.svg",
        "/cards/nodeck/dawn.svg",
        "/backs/game/dawn.svg",
        "/cards/game/back.svg",
        "/card/game/nosuch",
        "/hand/nodeck",
        "/api/side/game/face/nosuch",
        "/api/side/game/spine/dawn",
        "/cards/game/dawn.svg/",
        "/cards/game/dawn.txt",
        "/cards/game/../../../../etc/passwd",
        "/cards/game/..%2f..%2f..%2fetc%2fpasswd.svg",
        "/cards/game/%2e%2e%2fcards.csv.svg",
        "/static/../server.py",
        "/static/%2e%2e%2fserver.py",
        "/static/..%5cserver.py",
        "/static/preview.js%00.html",
        "/fonts/../../etc/passwd",
        "/fonts/%2e%2e%2f__init__.py",
        "//etc/passwd",
        "/decks/game/cards.csv",
        "/output/game/faces/dawn.svg",
        "/etc/passwd",
        "/" + "a" * 5000,
    ],
)
def test_unknown_ids_and_path_tricks_are_not_found(server, path):
    response = server.request(path)
    assert response.status == 404, path
    assert b"Noon" not in response.body and b"root:" not in response.body


def test_requests_no_client_would_send(server):
    for request in (
        b"GET http://evil.example/cards/game/dawn.svg HTTP/1.1\r\nHost: evil.example\r\n\r\n",
        b"GET /../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port,
        b"GET \\..\\etc\\passwd HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port,
        b"BREW /pot HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port,
        b"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 0\r\n\r\n" % server.port,
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
    ):
        answer = server.raw(request)
        status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
        assert status in (400, 403, 404, 405, 501, 505), (request, answer[:80])
        assert b"root:" not in answer
    assert server.request("/api/state").status == 200  # still serving


def test_a_saved_row_reaches_the_pages_as_one_changed_card(server, game):
    csv = game / "decks" / "game" / "cards.csv"
    events = server.events()
    name, first = next(events)
    assert name == "state" and first["waiting"] == 0 and first["problems"] == []  # a page joining hears the state first
    heard: list[tuple[str, dict]] = []

    def listen() -> None:
        for event in events:
            heard.append(event)

    threading.Thread(target=listen, daemon=True).start()
    edit(csv, NOON, "Noon,2,suns,Look at the top three cards.")
    try:  # how soon is measured by tests/bench/bench_preview.py; here only that it comes, alone
        changed = wait_for(lambda: [d for n, d in heard if n == "sides"], 5)
        assert [(s["kind"], s["name"]) for s in changed[0]["sides"]] == [("face", "noon")]
        assert "top three cards" in server.get(f"/cards/game/noon.svg?v={changed[0]['sides'][0]['v']}").decode()
    finally:
        edit(csv, "Noon,2,suns,Look at the top three cards.", NOON)
    wait_for(lambda: "top card of the" in server.get("/cards/game/noon.svg").decode())


def test_a_broken_deck_file_shows_in_the_page_and_the_page_recovers(server, game, tmp_path):
    toml = game / "decks" / "game" / "game.toml"
    edit(toml, 'title = "Game"', 'title = "Game')
    try:
        validate = Command(["--project", str(game), "validate"], game)
        assert validate.process.wait(30) == 2
        time.sleep(0.05)
        problems = wait_for(lambda: server.state()["problems"], 5)
        assert problems == validate.err and problems[0].startswith("error: decks/game/game.toml:5: TOML syntax error")
        assert server.request("/cards/game/dawn.svg").status == 200  # the last good drawing stays
    finally:
        edit(toml, 'title = "Game', 'title = "Game"')
    wait_for(lambda: server.state()["problems"] == [], 5)


def test_a_template_error_is_the_cards_problem_and_the_server_lives_on(server, game):
    template = game / "templates" / "game.svg.j2"
    original = template.read_text()
    template.write_text(original.replace("{{ parts.open() }}", "{{ parts.open() }}{{ card.nmae }}"))
    try:
        state = wait_for(lambda: (s := server.state())["problems"] and s["waiting"] == 0 and s, 10)
        sides = state["decks"][0]["sides"]
        faces = [s for s in sides if s["kind"] == "face"]
        assert all(s["image"] and s["stale"] and s["problems"] for s in faces)  # each face's last good drawing, said so
        assert all(s["image"] and not s["problems"] for s in sides if s["kind"] == "back")  # the back uses another template
        assert state["problems"][0].startswith("error: templates/game.svg.j2:5: card has no field 'nmae' (did you mean 'name'?)")
        kept = server.request("/cards/game/dawn.svg")
        assert kept.status == 200 and b"<svg" in kept.body and b"nmae" not in kept.body
    finally:
        template.write_text(original)
    state = wait_for(lambda: (s := server.state())["problems"] == [] and s["waiting"] == 0 and s, 10)
    assert all(s["image"] for s in state["decks"][0]["sides"])


def test_ctrl_c_ends_the_server_quietly(game):
    served = Server(game)
    try:
        served.settled()
        assert served.interrupt() == 130
        assert served.err == [] and served.out == [served.url]
    finally:
        served.kill()


def test_a_browser_resetting_its_connections_leaves_the_terminal_quiet(game):
    """A page closed mid-request resets its connection, whether the request was half sent or being answered: the
    server goes on and says nothing (no traceback on the preview's terminal)."""
    served = Server(game)
    try:
        served.settled()
        whole = f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode()
        for sent in (b"GET / HTTP/1.1\r\nHo", b"GE", b"", whole):
            connection = socket.create_connection(("127.0.0.1", served.port))
            connection.sendall(sent)
            time.sleep(0.1)
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
            connection.close()
        time.sleep(0.5)
        assert served.state()["problems"] == []
        assert served.err == []
    finally:
        served.kill()


def test_a_port_in_use_is_a_one_line_error(server, game):
    taken = Command(["--project", str(game), "serve", "--no-browser", "--port", str(server.port)], game)
    assert taken.process.wait(30) == 2
    time.sleep(0.05)
    assert taken.out == [] and len(taken.err) == 1
    assert taken.err[0].startswith(f"error: command line: --port {server.port}: ") and "--port 0" in taken.err[0]


def test_the_browser_opens_at_the_address(game, tmp_path):
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(0o755)
    served = Server(game, env={**os.environ, "BROWSER": str(browser)})
    try:
        wait_for(opened.exists, 10)
        assert wait_for(lambda: opened.read_text().strip(), 5) == served.url.strip()
    finally:
        served.kill()


def test_without_a_display_no_browser_takes_over_the_terminal(game):
    quiet = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    served = Server(game, env=quiet)
    try:
        wait_for(lambda: served.err, 10)
        assert served.err == ["note: no browser window can be opened here; open the address above in one"]
        assert served.out == [served.url]
    finally:
        served.kill()
