"""Locked down: what a student's browser (or anything else on the room's network) can reach.

Headless part: a control that gets a value it cannot take through the widget channel keeps
the app working and shows a one-line message. Live part (against a real Voila started with
the repository's own ``voila.json``): sources are not downloadable, a kernel refuses
``execute_request`` from the websocket, with a token every page and websocket without it is
refused, and a crafted widget message in a running lesson leaves it answering.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import ipywidgets as widgets
import matplotlib.pyplot as plt
import pytest
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)

from lessons_lib import apps
from lessons_lib.apps.core import LessonApp, iter_widgets
from lessons_lib.apps.core.fitprobe import FitProbe
from lessons_server.classroom import V1_PROTOCOL

import browser as harness
from lessons import FIRST

APP_NAMES = sorted(apps.__all__)


# -- headless: guarded controls -----------------------------------------------------------
def update_msg(state: dict) -> dict:
    return {"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
            "buffers": []}


def numeric_controls(app: LessonApp):
    for w in iter_widgets(app.widget):
        if (hasattr(w, "min") and hasattr(w, "max") and isinstance(getattr(w, "value", None),
                                                                   int | float)
                and not isinstance(w.value, bool) and w.comm is not None
                and not getattr(w, "disabled", False)
                and not isinstance(w, widgets.FloatProgress | widgets.IntProgress)):
            yield w


@pytest.fixture(params=APP_NAMES)
def app(request):
    a = getattr(apps, request.param)()
    yield a
    plt.close(a.fig)


def test_every_app_has_numeric_controls(app):
    assert next(numeric_controls(app), None) is not None


def test_every_control_is_guarded(app):
    for w in iter_widgets(app.widget):
        if w.comm is not None and not type(w).__module__.startswith("ipympl"):
            assert getattr(w.comm, "_lesson_guarded", False), f"{w!r} is not guarded"


def choice_controls(app: LessonApp):
    """Controls whose value is a number, a bool or one of fixed options: 'banana' is wrong."""
    for w in iter_widgets(app.widget):
        if w.comm is None or "value" not in w.keys or getattr(w, "disabled", False):
            continue
        if isinstance(w, widgets.Text | widgets.Textarea | widgets.HTML | widgets.HTMLMath
                      | widgets.Label | widgets.Play | FitProbe):     # free text: its own test
            continue
        yield w


def _key(w) -> str:
    return "index" if "index" in w.keys else "value"


def test_wrong_type_keeps_value_and_says_so(app):
    controls = list(choice_controls(app))
    assert controls, "every lesson app has at least one control"
    for w in controls:
        app.clear_message()
        before = w.value
        w.comm.handle_msg(update_msg({_key(w): "banana"}))
        assert w.value == before, w
        assert app.last_error and "keeps its value" in app.last_error, w
        assert len(app.last_error) < 160 and "Traceback" not in app.status.value


def test_out_of_range_is_refused_and_said(app):
    for w in numeric_controls(app):
        before = w.value
        for bad in (1e9, -1e9, float("nan"), float("inf"), None):
            app.clear_message()
            w.comm.handle_msg(update_msg({"value": bad}))
            assert w.value == before, (w.description, bad)
            assert app.last_error and "keeps its value" in app.last_error, app.last_error


def test_in_range_update_is_silent_and_drives_the_app(app):
    """A good value goes through the same path and reaches the app's own observers."""
    w = next(numeric_controls(app))
    seen = []
    w.observe(lambda change: seen.append(change["new"]), names="value")
    target = w.min + (w.max - w.min) / 2
    target = type(w.value)(round(target)) if isinstance(w.value, int) else target
    if target == w.value:
        target = w.min
    app.clear_message()
    w.comm.handle_msg(update_msg({"value": target}))
    assert w.value == target and seen == [target]
    assert app.last_error is None, app.last_error


def test_foreign_keys_are_refused_and_other_methods_still_work(app):
    w = next(choice_controls(app))
    before = w.value
    w.comm.handle_msg(update_msg({"no_such_trait": 3}))
    assert w.value == before and "keeps its value" in (app.last_error or "")
    app.clear_message()
    w.comm.handle_msg({"content": {"data": {"method": "request_state"}}, "buffers": []})
    assert w.value == before and app.last_error is None


# -- live Voila ---------------------------------------------------------------------------
LESSON = FIRST.notebook


get = harness.get_once


def kernel_id_of(page_html: str) -> str:
    m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page_html)
    assert m, "no kernel id in the rendered page"
    return m.group(1)


def ws_url(server: harness.VoilaServer, kernel_id: str, token: str | None = None) -> str:
    url = server.url.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels"
    return url + (f"?token={token}" if token else "")


def connect(url: str, timeout: float = 30):
    """A kernel websocket speaking the v1 protocol, as Voila's page does."""
    import websocket

    return websocket.create_connection(url, timeout=timeout, subprotocols=[V1_PROTOCOL])


def shell_msg(msg_type: str, content: dict, metadata: dict | None = None) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "test",
                       "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": metadata or {}, "content": content,
            "channel": "shell", "buffers": []}


def send(ws, msg: dict) -> None:
    ws.send_binary(serialize_msg_to_ws_v1(msg, msg["channel"],
                                          pack=lambda part: json.dumps(part).encode()))


def replies(ws, seconds: float, until=None) -> list[dict]:
    """Every message the kernel sends within ``seconds`` (header fields flattened in), or
    up to and including the first one for which ``until(message)`` is true."""
    out, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        ws.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            raw = ws.recv()
        except Exception:  # timeout
            break
        if not isinstance(raw, bytes) or not raw:
            continue
        channel, parts = deserialize_msg_from_ws_v1(raw)
        header, parent, _meta, content = (json.loads(p) for p in parts[:4])
        out.append({"channel": channel, "msg_type": header.get("msg_type"), "header": header,
                    "parent_header": parent, "content": content})
        if until is not None and until(out[-1]):
            break
    return out


def reply_to(msg: dict, msg_type: str):
    """``until`` for :func:`replies`: the ``msg_type`` answering ``msg``."""
    msg_id = msg["header"]["msg_id"]
    return lambda m: m["msg_type"] == msg_type and m["parent_header"].get("msg_id") == msg_id


def idle_after(msg: dict):
    """``until`` for :func:`replies`: the kernel has finished handling ``msg``."""
    msg_id = msg["header"]["msg_id"]
    return lambda m: (m["msg_type"] == "status" and m["parent_header"].get("msg_id") == msg_id
                      and m["content"].get("execution_state") == "idle")


def _is_update_states(m: dict) -> bool:
    return m.get("msg_type") == "comm_msg" and \
        m.get("content", {}).get("data", {}).get("method") == "update_states"


SOURCE_PATHS = [
    f"voila/files/{FIRST.notebook}",
    "voila/files/index.ipynb",
    "voila/files/../lessons_lib/rotations.py",
    "voila/files/%2e%2e/lessons_lib/rotations.py",
    "voila/files/..%2flessons_lib%2frotations.py",
    "voila/files/%2e%2e/%2e%2e/etc/passwd",
    "voila/files/../environment.yml",
    "voila/files/%2e%2e/environment.yml",
    "voila/files/%2e%2e/voila.json",
    "voila/files/%2e%2e/.git/config",
    f"voila/files/.ipynb_checkpoints/{FIRST.slug}-checkpoint.ipynb",
    "voila/render/../lessons_lib/rotations.py",
    "voila/render/%2e%2e/lessons_lib/rotations.py",
    "voila/render/%2e%2e/environment.yml",
    "voila/tree/%2e%2e/lessons_lib",
    "voila/static/../../lessons_lib/rotations.py",
    "voila/static/%2e%2e/%2e%2e/%2e%2e/lessons_lib/rotations.py",
    "voila/templates/%2e%2e/%2e%2e/lessons_lib/rotations.py",
    "voila/templates/lab/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/lessons_lib/rotations.py",
    "voila/templates/lab/static/" + "%2e%2e/" * 12 + f"{harness.ROOT.relative_to('/')}/voila.json",
    "voila/labextensions/%2e%2e/%2e%2e/lessons_lib/rotations.py",
    "voila/api/themes/%2e%2e/%2e%2e/lessons_lib/rotations.py",
    "lessons_lib/rotations.py",
    ".git/config",
    "environment.yml",
    f"files/{FIRST.notebook}",
    f"api/contents/{FIRST.notebook}",
    "api/kernels",
    "api/sessions",
    "api/terminals",
]
#: Text that would only appear in a leaked source file.
LEAK_MARKERS = ("def euler_to_matrix", "import numpy", '"cell_type"', "[core]",
                "dependencies:", "VoilaConfiguration", "root:x:0:0")


@pytest.mark.browser
@pytest.mark.parametrize("path", SOURCE_PATHS)
def test_sources_are_not_downloadable(voila_server, path):
    status, body, _ = get(f"{voila_server.url}/{path}")
    # refused: 4xx, a redirect to a page that is itself refused, or (Voila's template route
    # trips an assert on a malformed path) a 500, as long as nothing leaks
    assert not 200 <= status < 300, (status, body[:200])
    for marker in LEAK_MARKERS:
        assert marker not in body, f"{path} leaks {marker!r}"


@pytest.mark.browser
def test_contents_api_lists_but_never_sends_a_notebook(voila_server):
    status, body, _ = get(f"{voila_server.url}/voila/api/contents/{LESSON}?content=1")
    assert status == 200
    assert json.loads(body)["content"] is None
    status, _, _ = get(f"{voila_server.url}/voila/api/contents/%2e%2e?content=1")
    assert status in (400, 403, 404)


@pytest.mark.browser
def test_images_are_served_and_nothing_else(voila_server, tmp_path_factory):
    """The allowlist lets a lesson's pictures through: the check above is not vacuous."""
    status, body, _ = get(f"{voila_server.url}/voila/files/index.ipynb")
    assert status == 403
    # every image the notebooks folder holds is reachable; none may be a hidden path
    images = [p for p in harness.NOTEBOOKS.rglob("*")
              if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".gif", ".webp")
              and not any(part.startswith(".") for part in p.parts)]
    for img in images[:3]:
        rel = img.relative_to(harness.NOTEBOOKS).as_posix()
        status, _, _ = get(f"{voila_server.url}/voila/files/{urllib.parse.quote(rel)}")
        assert status == 200, rel


@pytest.mark.browser
def test_rendered_page_carries_no_code(voila_server):
    status, body, _ = get(voila_server.render_url(LESSON), timeout=120)
    assert status == 200
    assert "from lessons_lib" not in body and "GimbalApp()" not in body
    assert "Traceback" not in body


@pytest.mark.browser
def test_kernel_refuses_execute_request(voila_server, tmp_path):
    """Over the page's own websocket: kernel_info is answered, execute_request is dropped."""
    status, body, _ = get(voila_server.render_url(LESSON), timeout=120)
    assert status == 200
    kid = kernel_id_of(body)
    marker = tmp_path / "executed"
    ws = connect(ws_url(voila_server, kid))
    try:
        info = shell_msg("kernel_info_request", {})
        send(ws, info)
        got = replies(ws, 30, until=reply_to(info, "kernel_info_reply"))
        assert any(m.get("msg_type") == "kernel_info_reply"
                   and m["parent_header"].get("msg_id") == info["header"]["msg_id"]
                   for m in got), "the socket works: kernel_info_request must be answered"
        code = f"open({str(marker)!r}, 'w').write('ran')"
        for msg_type, content in [
            ("execute_request", {"code": code, "silent": False, "store_history": False,
                                 "user_expressions": {}, "allow_stdin": False,
                                 "stop_on_error": True}),
            ("inspect_request", {"code": "open", "cursor_pos": 4, "detail_level": 1}),
            ("complete_request", {"code": "import o", "cursor_pos": 8}),
            ("history_request", {"output": True, "raw": True, "hist_access_type": "tail",
                                 "n": 10}),
        ]:
            send(ws, shell_msg(msg_type, content))
        # shell requests are answered in order: once this later one is, any answer to the
        # four above would have come (one more second for other channels' stragglers)
        last = shell_msg("kernel_info_request", {})
        send(ws, last)
        got = replies(ws, 30, until=reply_to(last, "kernel_info_reply"))
        assert got and reply_to(last, "kernel_info_reply")(got[-1]), "the socket stopped"
        got += replies(ws, 1)
        types = {m.get("msg_type") for m in got}
        assert not types & {"execute_reply", "execute_input", "inspect_reply",
                            "complete_reply", "history_reply"}, types
        assert not marker.exists(), "execute_request ran code in the kernel"
    finally:
        ws.close()


@pytest.fixture(scope="module")
def token_server():
    """A second Voila, as `make classroom` runs it: same config, a random token."""
    token = uuid.uuid4().hex[:12]
    server = harness.VoilaServer(token=token)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.mark.browser
def test_token_refuses_everything_without_it(token_server):
    base, token = token_server.url, token_server.token
    for path in ["", "voila/tree", f"voila/render/{LESSON}", "voila/render/index.ipynb",
                 "voila/api/contents/", f"voila/api/contents/{LESSON}", "voila/files/x.png",
                 "api/kernels"]:
        for query in ("", "?token=wrong" + token[:4]):
            status, body, headers = get(f"{base}/{path}{query}")
            assert status in (302, 401, 403, 404), (path, query, status)
            assert "kernelId" not in body and "jupyter-matplotlib" not in body, path
            if status == 302:
                assert "/login" in headers.get("Location", ""), headers.get("Location")
    status, body, _ = get(token_server.render_url(LESSON), timeout=120)
    assert status == 200 and "kernelId" in body, "with the token the lesson renders"


@pytest.mark.browser
def test_token_refuses_websocket_without_it(token_server):
    import websocket

    status, body, _ = get(token_server.render_url(LESSON), timeout=120)
    kid = kernel_id_of(body)
    with pytest.raises(websocket.WebSocketBadStatusException) as err:
        connect(ws_url(token_server, kid), timeout=15)
    assert err.value.status_code in (401, 403)
    with pytest.raises(websocket.WebSocketBadStatusException):
        connect(ws_url(token_server, kid, "wrong"), timeout=15)
    ws = connect(ws_url(token_server, kid, token_server.token), timeout=15)
    try:
        info = shell_msg("kernel_info_request", {})
        send(ws, info)
        got = replies(ws, 30, until=reply_to(info, "kernel_info_reply"))
        assert any(m["msg_type"] == "kernel_info_reply" for m in got)
    finally:
        ws.close()


@pytest.mark.browser
def test_crafted_widget_message_leaves_the_lesson_working(voila_server, page):
    """A second client on the page's kernel pushes bad values into a slider through the
    widget channel (what a student with the browser's developer tools could do): the page
    shows a one-line message, no traceback, and the slider still drives the figure."""

    harness.open_lesson(page, voila_server, LESSON)
    kid = kernel_id_of(page.content())
    ws = connect(ws_url(voila_server, kid))
    try:
        control = uuid.uuid4().hex
        send(ws, shell_msg("comm_open", {"comm_id": control, "data": {},
                                         "target_name": "jupyter.widget.control"},
                           {"version": "1.0.0"}))
        send(ws, shell_msg("comm_msg", {"comm_id": control,
                                        "data": {"method": "request_states"}}))
        states = None
        got = replies(ws, 30, until=_is_update_states)
        for m in got:
            data = m.get("content", {}).get("data", {})
            if m.get("msg_type") == "comm_msg" and data.get("method") == "update_states":
                states = data["states"]
                break
        assert states, ("no widget states from the control comm",
                        [str(m.get("content"))[:300] for m in got])
        slider = next(mid for mid, st in states.items()
                      if st["model_name"] == "FloatSliderModel"
                      and st["state"].get("description", "").startswith("pitch"))

        def push(value):
            send(ws, shell_msg("comm_msg", {
                "comm_id": slider,
                "data": {"method": "update", "state": {"value": value}, "buffer_paths": []}}))

        push("banana")
        page.get_by_text("takes a number, not 'banana'").wait_for(timeout=15_000)
        push(1e9)
        page.get_by_text("goes from -180 to 180").wait_for(timeout=15_000)
        harness.wait_idle(page)
        page.evaluate("""() => document.querySelector('.jupyter-matplotlib-figure')
                            .closest('.widget-hbox').scrollIntoView({block: 'start'})""")
        harness.screenshot(page, "security_crafted_widget_message")
        status = page.locator(".lesson-status").inner_text()
        assert len(status) < 160 and "Traceback" not in page.inner_text("body")
    finally:
        ws.close()
    harness.assert_no_error_text(page)
    before = harness.canvas_images(page)
    harness.move_slider(page, "pitch (X)", key="ArrowLeft", times=10)
    harness.wait_for_pixels_change(page, before)
    harness.assert_no_error_text(page)


@pytest.mark.browser
def test_legacy_websocket_protocol_is_refused_and_the_server_keeps_answering(voila_server):
    """Voila 0.5 mis-reads binary messages for legacy-protocol clients and spins on one
    ipympl image (see lessons_server/classroom.py): such a client is closed at once."""
    import websocket

    status, body, _ = get(voila_server.render_url(LESSON), timeout=120)
    kid = kernel_id_of(body)
    ws = websocket.create_connection(ws_url(voila_server, kid), timeout=15)  # no subprotocol
    try:
        ws.settimeout(15)
        opcode, frame = ws.recv_data(control_frame=True)
        assert opcode == websocket.ABNF.OPCODE_CLOSE, opcode
        assert int.from_bytes(frame[:2], "big") == 1008
    finally:
        ws.close()
    t0 = time.monotonic()
    status, _, headers = get(f"{voila_server.url}/voila/tree", timeout=15)   # to the index
    assert status == 302 and headers["Location"] == "/voila/render/index.ipynb"
    assert time.monotonic() - t0 < 15


@pytest.mark.browser
def test_token_guards_kernel_shutdown_and_delete(token_server):
    """Another student cannot stop a kernel without the token (shutdown or DELETE)."""
    status, body, _ = get(token_server.render_url(LESSON), timeout=120)
    kid = kernel_id_of(body)
    for method, path in (("POST", f"voila/api/shutdown/{kid}"), ("DELETE", f"api/kernels/{kid}"),
                         ("GET", f"api/kernels/{kid}")):
        req = urllib.request.Request(f"{token_server.url}/{path}", method=method, data=None)
        try:
            with urllib.request.urlopen(req, timeout=15) as r:
                code = r.status
        except urllib.error.HTTPError as e:
            code = e.code
        assert code in (401, 403), (method, path, code)
    # the kernel is still there for its owner
    status, _, _ = get(f"{token_server.url}/api/kernels/{kid}?token={token_server.token}")
    assert status == 200


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of the Voila server and every kernel it started, in MB."""
    import psutil

    root = psutil.Process(pid)
    total = 0
    for p in [root, *root.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20


def _widget_states(ws, tries: int = 3) -> dict:
    """Every widget's state, from ipywidgets' control comm (opened afresh for each try: the
    kernel may still be busy with the page's first draw when the first one arrives)."""
    got = []
    for _ in range(tries):
        control = uuid.uuid4().hex
        send(ws, shell_msg("comm_open", {"comm_id": control, "data": {},
                                         "target_name": "jupyter.widget.control"},
                           {"version": "1.0.0"}))
        send(ws, shell_msg("comm_msg", {"comm_id": control,
                                        "data": {"method": "request_states"}}))
        got = replies(ws, 20, until=_is_update_states)
        for m in got:
            data = m.get("content", {}).get("data", {})
            if m.get("msg_type") == "comm_msg" and data.get("method") == "update_states":
                return data["states"]
    raise AssertionError(("no widget states from the control comm",
                          [str(m.get("content"))[:200] for m in got]))


@pytest.mark.browser
def test_issue_13_messages_leave_a_running_lesson_working_and_memory_flat(voila_server, page):
    """Issue 13's messages 1-3 from a second client on the page's kernel, against lesson 1
    (a Play, sliders, a choice): ``max`` 10**9 to the Play, ``max`` and ``value`` 1e9 to every
    slider, NaN (as JSON's NaN) to every float slider, ``index`` None to every choice. The
    kernel keeps every control as it was, the Voila server and its kernels use no more
    memory than before (within 150 MB), and the page still answers a slider move."""
    harness.open_lesson(page, voila_server, LESSON)
    harness.wait_idle(page)
    kid = kernel_id_of(page.content())
    ws = connect(ws_url(voila_server, kid))
    try:
        states = _widget_states(ws)
        kinds = {mid: s["model_name"] for mid, s in states.items()}
        plays = [m for m, k in kinds.items() if k == "PlayModel"]
        sliders = [m for m, k in kinds.items() if k in ("FloatSliderModel", "IntSliderModel")]
        floats = [m for m in sliders if kinds[m] == "FloatSliderModel"]
        choices = [m for m, k in kinds.items() if k in ("DropdownModel", "ToggleButtonsModel")]
        assert plays and floats and choices, sorted(set(kinds.values()))
        memory_before = _tree_rss_mb(voila_server.proc.pid)

        def push(model_id, state):
            msg = shell_msg("comm_msg", {
                "comm_id": model_id,
                "data": {"method": "update", "state": state, "buffer_paths": []}})
            send(ws, msg)
            return msg

        for _ in range(3):  # three rounds: growth would show, one-off caches would not
            for m in plays:
                push(m, {"max": 10**9})
                push(m, {"interval": 0, "playing": True})
            for m in sliders:
                push(m, {"max": 1e9, "value": 1e9})
            for m in floats:
                push(m, {"value": float("nan")})
            for m in choices:
                last = push(m, {"index": None})
            # the kernel handles a socket's messages in order: idle after the last, done
            got = replies(ws, 60, until=idle_after(last))
            assert got and idle_after(last)(got[-1]), "the kernel did not get through a round"
        after = _widget_states(ws)
        memory_after = _tree_rss_mb(voila_server.proc.pid)
    finally:
        ws.close()
    for m in plays:
        assert after[m]["state"]["max"] == states[m]["state"]["max"], "the Play's max moved"
    for m in sliders:
        s0, s1 = states[m]["state"], after[m]["state"]
        assert (s1["min"], s1["max"]) == (s0["min"], s0["max"]), s1.get("description")
        assert s1["min"] <= s1["value"] <= s1["max"], s1.get("description")
    for m in choices:
        assert after[m]["state"].get("index") is not None, after[m]["state"].get("description")
    grown = memory_after - memory_before
    assert grown < 150, f"server and kernels grew by {grown:.0f} MB"
    print(f"memory before {memory_before:.0f} MB, after {memory_after:.0f} MB")
    harness.wait_idle(page)
    page.evaluate("""() => document.querySelector('.jupyter-matplotlib-figure')
                        .closest('.widget-hbox').scrollIntoView({block: 'start'})""")
    harness.screenshot(page, "security_issue13_messages")
    status = page.locator(".lesson-status").first.inner_text()
    assert len(status) < 160 and "Traceback" not in page.inner_text("body")
    harness.assert_no_error_text(page)
    before = harness.canvas_images(page)
    harness.move_slider(page, "pitch (X)", key="ArrowLeft", times=10)
    harness.wait_for_pixels_change(page, before)
    harness.assert_no_error_text(page)
