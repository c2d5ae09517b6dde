"""No kernel can take the room down: each room kernel runs under a memory cap
(lessons_server/memcap.py), and one that reaches it dies alone.

A room is started as ``make classroom`` starts it (``python -m lessons_server.room``), with a
small cap, serving lesson 1 and one more notebook whose text box makes its kernel allocate
that many MB (a page cannot run code in Voila: only widget messages reach a kernel, so this
is how a page makes a kernel allocate). One student opens lesson 1, another the allocating
page and asks for more than the cap: that kernel dies (its page hears "dead" on its
websocket), the server still serves pages and the first student's kernel still answers a
slider step with a new picture. In a browser the dead page says so in one line and its
reload button brings a working page back.
"""

from __future__ import annotations

import gzip
import re
import shutil
import sys
import time
import urllib.request
import uuid

import nbformat
import pytest
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

import attacks
import browser as harness
from lessons import FIRST

pytestmark = pytest.mark.slow

ROOT = harness.ROOT
LESSON = FIRST.slug
HOG = "allocate"
CAP_MB = 1024
TOKEN = "161803398874"


def hog_notebook() -> nbformat.NotebookNode:
    """A page with one number box: the kernel allocates (and holds, written, so resident)
    that many MB."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import ipywidgets as widgets\n"
        "held = []\n"
        "box = widgets.IntText(value=0, description='MB')\n"
        "box.observe(lambda change: held.append(bytearray(b'x') * (change['new'] * 2**20)),"
        " names='value')\n"
        "box")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    folder = tmp_path_factory.mktemp("room")
    shutil.copy(ROOT / "notebooks" / f"{LESSON}.ipynb", folder)
    nbformat.write(hog_notebook(), str(folder / f"{HOG}.ipynb"))
    server = harness.start_room(TOKEN, "--lesson", LESSON, "--students", "1",
                                "--default-pool", "0", "--memory-mb", str(CAP_MB),
                                "--notebooks", str(folder))
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def _protocol():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import protocol_student as ps

    return ps


async def _hog_page(server, ps):
    """Open the allocating page: its kernel's websocket and the number box's comm id."""
    cookies: dict = {}      # the room binds the kernel to the browser that opened the page
    connection = ps._Connection("127.0.0.1", server.port, 120, cookies=cookies)
    try:
        status, headers, body = await connection.get(
            f"/voila/render/{HOG}.ipynb?token={server.token}")
    finally:
        connection.close()
    assert status == 200
    html = (gzip.decompress(body) if headers.get("content-encoding") == "gzip"
            else body).decode()
    kernel_id = ps.KERNEL_RE.search(html).group(1)
    box = re.search(r'"model_id"\s*:\s*"([0-9a-f]{32})"', html).group(1)
    session = uuid.uuid4().hex
    ws = await websocket_connect(HTTPRequest(
        f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels"
        f"?session_id={session}&token={server.token}",
        headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}),
        subprotocols=[ps.V1])
    return kernel_id, box, ps._Kernel(ws, session)


async def _until_dead(kernel, deadline: float) -> list[str]:
    states = []
    while True:
        channel, msg, _ = await kernel.next(deadline)
        if msg["msg_type"] == "status":
            states.append(msg["content"]["execution_state"])
            if states[-1] == "dead":
                return states


def test_a_kernel_past_its_cap_dies_alone(room):
    ps = _protocol()
    log = room.log_path.read_text
    assert f"Each kernel may use up to {CAP_MB} MB" in log()

    async def scenario():
        kernel_id, box, hog = await _hog_page(room, ps)
        try:
            # within the cap: the kernel holds 100 MB and answers
            hog.comm(box, {"method": "update", "state": {"value": 100}, "buffer_paths": []})
            info = hog.send("kernel_info_request", {})
            deadline = time.monotonic() + 60
            while True:
                channel, msg, _ = await hog.next(deadline)
                if msg["parent_header"].get("msg_id") == info:
                    break
            # past the cap: the kernel dies, and its page is told so
            hog.comm(box, {"method": "update", "state": {"value": 2 * CAP_MB},
                           "buffer_paths": []})
            states = await _until_dead(hog, time.monotonic() + 60)
        finally:
            hog.close()
        # the other student: lesson 1's pre-heated kernel still draws a slider step
        student = await ps.visit(ps.ProtocolStudent(0), room.url,
                                 f"/voila/render/{LESSON}.ipynb", room.token,
                                 time.monotonic(), deadline_s=120.0, moves=2)
        return kernel_id, states, student

    kernel_id, states, student = harness.run_async(scenario(), timeout=400)
    assert states[-1] == "dead"
    assert student.error is None, student.error
    assert ps.image_ink(student.first_image) > 1000 and len(student.moves_ms) == 2
    text = log()
    assert f"reached its memory cap of {CAP_MB} MB" in text
    assert f"Kernel {kernel_id} died" in text or "restart failed" in text
    assert text.count("reached its memory cap") == 1     # that kernel alone
    # the server goes on serving pages
    with urllib.request.urlopen(f"{room.url}/voila/render/{HOG}.ipynb?token={TOKEN}",
                                timeout=120) as response:
        assert response.status == 200
    assert room.proc.poll() is None


@pytest.mark.browser
def test_the_dead_kernels_page_says_so_and_reloads(room, chromium):
    context = chromium.new_context(viewport=harness.VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{room.url}/voila/render/{HOG}.ipynb?token={TOKEN}", timeout=120_000)
        box = page.locator(".widget-text input").first
        box.wait_for(timeout=120_000)
        page.wait_for_timeout(500)
        assert page.locator(".lessons-kernel-stopped").count() == 0
        box.fill(str(2 * CAP_MB))
        box.press("Enter")
        bar = page.locator(".lessons-kernel-stopped")
        bar.wait_for(timeout=60_000)
        text = bar.inner_text()
        assert "stopped running" in text and "memory" in text
        assert len(text.strip().splitlines()) == 1
        harness.screenshot(page, "room_kernel_past_its_cap")
        bar.get_by_role("button", name="Reload the page").click()
        page.locator(".widget-text input").first.wait_for(timeout=120_000)
        page.wait_for_timeout(1000)
        assert page.locator(".lessons-kernel-stopped").count() == 0
        harness.assert_no_error_text(page)
    finally:
        context.close()


def _kernel_rss_mb(room, kernel_id: str) -> float:
    import psutil

    for p in psutil.Process(room.proc.pid).children(recursive=True):
        if any(kernel_id in part for part in p.cmdline()):
            return p.memory_info().rss / 2**20
    raise AssertionError(f"no process for kernel {kernel_id}")


def test_a_kernel_that_fills_its_memory_stops_before_its_cap(room):
    """Resident memory past 5/8 of the cap (640 of 1024 MB) stops the kernel: the address
    space cap alone let one sit at 1017 of 1024 MB for as long as its page was open."""
    ps = _protocol()

    async def scenario():
        kernel_id, box, hog = await _hog_page(room, ps)
        try:
            hog.comm(box, {"method": "update", "state": {"value": 700}, "buffer_paths": []})
            return await _until_dead(hog, time.monotonic() + 60)
        finally:
            hog.close()

    assert harness.run_async(scenario(), timeout=200)[-1] == "dead"
    assert "reached its resident memory limit of 640 MB" in room.log_path.read_text()


def test_a_page_cannot_run_code_make_widgets_or_hand_its_kernel_megabytes(room, tmp_path):
    """Issue 40's attacks on a room, through a page's own kernel websocket: code, a flood of
    the page's own Image widgets (8 MiB each), a small widget of its own, a 5 MB state."""
    ps = _protocol()
    marker = tmp_path / "ran"

    async def scenario():
        kernel_id, box, page = await _hog_page(room, ps)
        try:
            ran = attacks.execute(page, f"open({str(marker)!r}, 'w').close()")
            flood = [attacks.open_image_widget(page) for _ in range(40)]
            small = attacks.open_image_widget(page, 0)
            page.comm(box, {"method": "update", "buffer_paths": [],
                            "state": {"description": "x" * (5 * 2**20)}})
            replied = await attacks.replies_after(
                page, {ran}, attacks.send(page, "kernel_info_request", {}))
            comms = await attacks.comm_ids(page)
            state = await attacks.widget_state(page, box)
        finally:
            page.close()
        # another student's lesson still draws a slider step
        student = await ps.visit(ps.ProtocolStudent(0), room.url,
                                 f"/voila/render/{LESSON}.ipynb", room.token,
                                 time.monotonic(), deadline_s=120.0, moves=1)
        assert student.error is None and len(student.moves_ms) == 1, student.error
        return kernel_id, comms, flood + [small], replied, box, state

    kernel_id, comms, opened, replied, box, state = harness.run_async(scenario(), timeout=300)
    assert not marker.exists() and not replied        # the code never reached the kernel
    assert box in comms and not comms & set(opened)   # the page's own widgets were refused
    assert state["description"] == "MB"              # and the 5 MB state
    assert _kernel_rss_mb(room, kernel_id) < 300
    log = room.log_path.read_text()
    assert 'Received message of type "execute_request", which is not allowed' in log
    assert "a comm_open for 'jupyter.widget'" in log
    assert "bytes (a page may send at most 65536)" in log
