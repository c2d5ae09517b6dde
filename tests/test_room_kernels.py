"""The room's kernels, probed: with the room's token and another kernel's id, a page cannot
read, connect to, interrupt, restart or shut down a kernel it did not start.

A room is started as ``make classroom`` starts it. Two students open lesson 1 (each a
browser of its own, with the token); a third browser has the token but never opened a
lesson. Student B, and the stranger, try everything the room's server answers about
student A's kernel, knowing its id. What stays possible is in docs/classroom.md ("What a
page can reach").
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.request
import uuid

import pytest
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

import browser as harness
from lessons import FIRST

pytestmark = pytest.mark.slow

LESSON = FIRST.notebook
TOKEN = "141421356237"
KERNEL_RE = re.compile(r'"kernelId"\s*:\s*"([0-9a-f-]{36})"')
V1 = "v1.kernel.websocket.jupyter.org"


@pytest.fixture(scope="module")
def room():
    server = harness.start_room(TOKEN, "--lesson", LESSON.removesuffix(".ipynb"),
                                "--students", "2", "--default-pool", "0")
    try:
        yield server
    finally:
        server.stop()


class Browser:
    """One student's browser: its own cookies, the room's token in every address."""

    def __init__(self, server) -> None:
        self.base = server.url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def open_lesson(self) -> str:
        with self.opener.open(f"{self.base}/voila/render/{LESSON}?token={TOKEN}",
                              timeout=120) as r:
            return KERNEL_RE.search(r.read().decode()).group(1)

    def status(self, method: str, path: str) -> int:
        sep = "&" if "?" in path else "?"
        req = urllib.request.Request(f"{self.base}{path}{sep}token={TOKEN}", method=method,
                                     data=b"" if method == "POST" else None)
        try:
            with self.opener.open(req, timeout=60) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code

    def websocket(self, path: str) -> int:
        """101 when the websocket opens, else the HTTP status it was refused with."""
        async def connect():
            cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
            req = HTTPRequest(self.base.replace("http", "ws", 1) + path,
                              headers={"Cookie": cookies} if cookies else {})
            try:
                conn = await websocket_connect(req, subprotocols=[V1])
            except HTTPClientError as exc:
                return exc.code
            conn.close()
            return 101

        return harness.run_async(connect(), timeout=120)


def test_a_page_cannot_reach_a_kernel_it_did_not_start(room):
    a, b, stranger = Browser(room), Browser(room), Browser(room)
    kernel_a = a.open_lesson()
    assert a.status("GET", f"/api/kernels/{kernel_a}") == 200       # the page's own request
    kernel_b = b.open_lesson()
    assert kernel_b != kernel_a and b.status("GET", f"/api/kernels/{kernel_b}") == 200

    channels = f"/api/kernels/{kernel_a}/channels?session_id={uuid.uuid4().hex}&token={TOKEN}"
    for who in (b, stranger):
        assert who.status("GET", f"/api/kernels/{kernel_a}") == 403
        assert who.status("DELETE", f"/api/kernels/{kernel_a}") == 403
        assert who.status("POST", f"/voila/api/shutdown/{kernel_a}") == 403
        # Voila serves no interrupt, restart, list or sessions route at all
        for path in (f"/api/kernels/{kernel_a}/interrupt", f"/api/kernels/{kernel_a}/restart",
                     "/api/kernels", "/api/sessions"):
            assert who.status("POST" if "/" in path[13:] else "GET", path) in (403, 404), path
        assert who.websocket(channels) == 403
        assert who.websocket(f"/voila/query/{kernel_a}?token={TOKEN}") == 403
    assert Browser(room).websocket(f"/voila/query/{kernel_a}") == 403   # no token either

    # A's kernel is untouched and still A's: its model, its websocket, its own shutdown
    assert a.status("GET", f"/api/kernels/{kernel_a}") == 200
    assert a.websocket(channels) == 101
    assert "Refused a request about kernel" in room.log_path.read_text()
    assert a.status("POST", f"/voila/api/shutdown/{kernel_a}") == 204
    assert b.status("GET", f"/api/kernels/{kernel_b}") == 200
