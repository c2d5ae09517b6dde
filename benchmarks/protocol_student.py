"""A simulated student that speaks the page's protocol instead of running a browser.

It does, over HTTP and the kernel websocket, what a student's Voila page does between
"open the link" and "the slider moved the figure":

1. fetch the lesson page with the token (gzip, as a browser asks), and optionally the
   scripts and styles a browser fetched for it (``assets``), over at most six kept-alive
   connections as a browser does;
2. keep the cookies the page sets, as a browser does (the room binds a kernel to the
   browser that opened its page), ask for the kernel's model (``GET /api/kernels/<id>``),
   open the page's kernel websocket with the v1 subprotocol and ask for kernel info;
3. open the ``jupyter.widget.control`` comm and request every widget's state;
4. find the figure (the first ipympl ``MPLCanvasModel`` among the widgets the page shows) and
   a slider (the first ``IntSliderModel``/``FloatSliderModel`` shown with it, depth-first
   in display order, as a reader's eye and the Tab key meet them);
5. initialise every canvas the page shows, in display order, as ipympl's front end does
   (``refresh``, ``send_image_mode``, ``initialized``; ``draw`` whenever the kernel asks
   for one, ``refresh`` after a ``resize``), and wait for each one's first image: a
   browser draws them all, off-screen ones included (Chromium's network log of lesson 1:
   three canvases initialised, seven images received);
6. set the slider one step up (down at its maximum), as an arrow key does, and wait for
   the next image; repeat ``moves`` times;
7. optionally, go on with a ``script`` of what the student does next (a whole session:
   :mod:`scripted_session`), given the :class:`Page` as it stands.

It relies on nothing in the lessons but "the page shows an ipympl canvas and a slider".
Every wait has a deadline; it only talks to loopback addresses (:func:`check_loopback`).
Many students share one event loop, so 30 can arrive in the same second from one process.
"""

from __future__ import annotations

import asyncio
import datetime
import gzip
import json
import re
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from ipaddress import ip_address

from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

V1 = "v1.kernel.websocket.jupyter.org"
SLIDERS = ("IntSliderModel", "FloatSliderModel")
CANVAS = "MPLCanvasModel"  # ipympl's model name (jupyter-matplotlib)
OUTPUT_RE = re.compile(
    r'<script type="application/vnd\.voila\.cell-output\+json">\s*(\{.*?\})\s*</script>', re.S)
VIEW = "application/vnd.jupyter.widget-view+json"
KERNEL_RE = re.compile(r'"kernelId"\s*:\s*"([0-9a-f-]{36})"')


class StudentError(RuntimeError):
    """The page did not do what a student's page must (no figure, no slider, no image)."""


def check_loopback(url: str) -> None:
    """Refuse anything but 127.0.0.0/8, ::1 and localhost: this is a load generator."""
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):   # RFC 6761: always loopback
        return
    try:
        if ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    raise ValueError(f"simulated students only visit loopback addresses, not {host!r}")


@dataclass
class ProtocolStudent:
    """One student's timings (seconds from the common start) and what they received."""

    index: int
    html_s: float | None = None
    assets_s: float | None = None
    assets_bytes: int = 0
    states_s: float | None = None
    first_image_s: float | None = None
    all_images_s: float | None = None
    first_image: bytes | None = field(default=None, repr=False)
    moves_ms: list[float] = field(default_factory=list)
    slider: str = ""
    widgets: int = 0
    canvases: int = 0
    kernel_id: str = ""
    error: str | None = None


@dataclass
class Page:
    """A student's page once every canvas shows its first image, for a ``script`` of
    :func:`visit`: the kernel websocket, the HTML and every widget's state, the app's canvas
    and slider, its first image, and ``listeners``: functions each called with
    ``(channel, msg, buffers)`` for every message the kernel sends from then on."""

    kernel: _Kernel
    html: str
    states: dict
    canvas: str
    slider: str
    first_image: bytes
    deadline: float
    listeners: list = field(default_factory=list)


class _Connection:
    """One kept-alive HTTP/1.1 connection, as a browser holds six to a server. Small on
    purpose: 30 students' worth of requests must cost this process little CPU."""

    def __init__(self, host: str, port: int, timeout: float, headers: str = "",
                 cookies: dict | None = None) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.headers = headers  # extra request header lines, each ending in CRLF
        self.reader = self.writer = None
        #: the browser's cookies (shared by its connections): sent, and kept from answers
        self.cookies = {} if cookies is None else cookies

    async def get(self, path: str) -> tuple[int, dict, bytes]:
        """GET ``path``; (status, lower-cased headers, body as sent, i.e. still gzipped)."""
        for attempt in (0, 1):  # a kept-alive connection the server closed: reconnect once
            if self.writer is None:
                self.reader, self.writer = await asyncio.wait_for(
                    asyncio.open_connection(self.host, self.port), self.timeout)
            cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                              f"Accept-Encoding: gzip\r\nConnection: keep-alive\r\n"
                              f"{self.headers}"
                              f"{'Cookie: ' + cookie + chr(13) + chr(10) if cookie else ''}"
                              "\r\n".encode())
            try:
                return await asyncio.wait_for(self._response(), self.timeout)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, dict, bytes]:
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
                if k.strip().lower() == "set-cookie":   # as a browser keeps them
                    name, _, value = v.strip().split(";", 1)[0].partition("=")
                    self.cookies[name.strip()] = value.strip()
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                parts.append(await self.reader.readexactly(size + 2))
                if size == 0:
                    break
            body = b"".join(p[:-2] for p in parts)
        else:
            body = await self.reader.read()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def _header(msg_type: str, session: str) -> dict:
    return {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student",
            "session": session, "version": "5.3",
            "date": datetime.datetime.now(datetime.UTC).isoformat()}


class _Kernel:
    """The page's kernel websocket: send shell messages, dispatch what comes back."""

    def __init__(self, ws, session: str) -> None:
        self.ws = ws
        self.session = session
        self.inbox: asyncio.Queue = asyncio.Queue()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            raw = await self.ws.read_message()
            if raw is None:
                await self.inbox.put(None)
                return
            if isinstance(raw, str):  # never on v1, kept for clarity if the server changes
                msg = json.loads(raw)
                await self.inbox.put((msg.get("channel"), msg, []))
                continue
            channel, parts = deserialize_msg_from_ws_v1(raw)
            header, parent, metadata, content = (json.loads(p) for p in parts[:4])
            msg = {"header": header, "parent_header": parent, "metadata": metadata,
                   "content": content, "msg_type": header.get("msg_type")}
            await self.inbox.put((channel, msg, parts[4:]))

    def send(self, msg_type: str, content: dict, metadata: dict | None = None) -> str:
        header = _header(msg_type, self.session)
        parts = [json.dumps(x).encode() for x in (header, {}, metadata or {}, content)]
        self.ws.write_message(serialize_msg_to_ws_v1(parts, "shell"), binary=True)
        return header["msg_id"]

    def comm(self, comm_id: str, data: dict) -> None:
        self.send("comm_msg", {"comm_id": comm_id, "data": data})

    async def next(self, deadline: float):
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise TimeoutError("deadline passed")
        async with asyncio.timeout(timeout):  # unlike wait_for, never swallows a cancel
            item = await self.inbox.get()
        if item is None:
            raise StudentError("the server closed the kernel websocket")
        return item

    def close(self) -> None:
        self._reader.cancel()
        self.ws.close()


def shown_models(html: str, states: dict) -> list[tuple[str, str]]:
    """(top-level view, model id) of every widget the page shows, depth-first in display
    order: a top-level view is one the page's HTML embeds, such as an app's whole widget."""
    order: list[tuple[str, str]] = []
    seen: set[str] = set()

    def visit(top: str, model_id: str) -> None:
        if model_id in seen or model_id not in states:
            return
        seen.add(model_id)
        order.append((top, model_id))
        for child in states[model_id]["state"].get("children", []) or []:
            if isinstance(child, str) and child.startswith("IPY_MODEL_"):
                visit(top, child.removeprefix("IPY_MODEL_"))

    for output in OUTPUT_RE.findall(html):
        try:
            top = json.loads(output)["data"][VIEW]["model_id"]
        except (ValueError, KeyError, TypeError):
            continue  # an output that is not a widget
        visit(top, top)
    return order


def shown_canvases(html: str, states: dict) -> list[str]:
    """Every ipympl canvas the page shows, in display order."""
    return [m for _, m in shown_models(html, states) if states[m]["model_name"] == CANVAS]


def pick_canvas_and_slider(html: str, states: dict) -> tuple[str, str]:
    """The first canvas the page shows, and the first usable slider shown in the same
    top-level view (the app's own controls), else the first usable slider on the page."""
    order = shown_models(html, states)
    canvases = [(top, m) for top, m in order if states[m]["model_name"] == CANVAS]
    if not canvases:
        raise StudentError("the page shows no ipympl canvas")
    top, canvas = canvases[0]

    def usable(m: str) -> bool:
        s = states[m]["state"]
        return (states[m]["model_name"] in SLIDERS and not s.get("disabled")
                and s.get("max", 0) > s.get("min", 0))

    same_view = [m for t, m in order if t == top and usable(m)]
    anywhere = [m for _, m in order if usable(m)]
    if not anywhere:
        raise StudentError("the page shows no slider")
    return canvas, (same_view or anywhere)[0]


def next_value(state: dict) -> float | int:
    """One arrow-key step up, or down when the slider is at its maximum."""
    step = state.get("step") or 1
    value = state["value"]
    new = value + step if value + step <= state["max"] else value - step
    return round(new, 10) if isinstance(step, float) else int(new)


async def visit(student: ProtocolStudent, base_url: str, render_path: str, token: str,
                start: float, deadline_s: float = 60.0, moves: int = 3,
                assets: list[str] | None = None, settle_s: float = 0.3,
                token_in_header: bool = False, script=None) -> ProtocolStudent:
    """One student from opening the link to their last slider move. Never raises: an
    error is stored in ``student.error``.

    ``base_url`` is the server's root, path included (``http://127.0.0.1:8000/user/ada``
    behind a JupyterHub's proxy): the kernel API is under it. The token goes in each URL
    (``?token=``, as ``make classroom``'s link does), or with ``token_in_header`` in an
    ``Authorization: token ...`` header, as a JupyterHub single-user server wants it.
    ``script``: an async function of the :class:`Page`, awaited after the slider moves."""
    check_loopback(base_url)
    deadline = start + deadline_s
    kernel = None
    where = urllib.parse.urlsplit(base_url)
    prefix = where.path.rstrip("/")
    auth = f"Authorization: token {token}\r\n" if token_in_header else ""
    with_token = "" if token_in_header else f"token={token}"
    # like one browser: up to six kept-alive connections to the server, gzip accepted
    cookies: dict = {}
    connections = [_Connection(where.hostname, where.port or 80, deadline_s, auth, cookies)
                   for _ in range(6)]
    try:
        sep = "&" if "?" in render_path else "?"
        status, headers, body = await connections[0].get(
            f"{render_path}{sep}{with_token}" if with_token else render_path)
        if status != 200:
            raise StudentError(f"the page answered HTTP {status}")
        if headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        html = body.decode("utf-8", "replace")
        student.html_s = time.monotonic() - start
        found = KERNEL_RE.search(html)
        if not found:
            raise StudentError("the page names no kernel (login page? wrong token?)")
        kernel_id = student.kernel_id = found.group(1)
        if assets:
            # a browser fetches about six at a time from one host; paths are under the
            # server's root (``base_url``'s path)
            queue = list(assets)

            async def worker(connection: _Connection) -> None:
                while queue:
                    path = queue.pop(0)
                    status, _, body = await connection.get(prefix + path)
                    if status != 200:
                        raise StudentError(f"{path} answered HTTP {status}")
                    student.assets_bytes += len(body)  # as sent: gzip is not unpacked

            await asyncio.gather(*(worker(c) for c in connections))
            student.assets_s = time.monotonic() - start

        # what the page's kernel connection asks first (a cache-busting timestamp, as there)
        status, _, _ = await connections[0].get(
            f"{prefix}/api/kernels/{kernel_id}?{time.time_ns() // 10**6}"
            + (f"&{with_token}" if with_token else ""))
        if status != 200:
            raise StudentError(f"the kernel model answered HTTP {status}")
        session = uuid.uuid4().hex
        ws_url = (base_url.rstrip("/").replace("http", "ws", 1)
                  + f"/api/kernels/{kernel_id}/channels?session_id={session}"
                  + (f"&{with_token}" if with_token else ""))
        ws_headers = {"Authorization": f"token {token}"} if token_in_header else {}
        if cookies:
            ws_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        request = HTTPRequest(ws_url, headers=ws_headers or None)
        ws = await asyncio.wait_for(websocket_connect(request, subprotocols=[V1]),
                                    max(deadline - time.monotonic(), 0.1))
        kernel = _Kernel(ws, session)
        info_id = kernel.send("kernel_info_request", {})
        while True:
            channel, msg, _ = await kernel.next(deadline)
            if channel == "shell" and msg["parent_header"].get("msg_id") == info_id:
                break

        control = uuid.uuid4().hex
        kernel.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                  "data": {}}, metadata={"version": "1.0.0"})
        kernel.comm(control, {"method": "request_states"})
        states = None
        while states is None:
            channel, msg, _ = await kernel.next(deadline)
            c = msg["content"]
            if (msg["msg_type"] == "comm_msg" and c.get("comm_id") == control
                    and c.get("data", {}).get("method") == "update_states"):
                states = c["data"]["states"]
        kernel.send("comm_close", {"comm_id": control, "data": {}})  # as the page does
        student.states_s = time.monotonic() - start
        student.widgets = len(states)
        canvas, slider = pick_canvas_and_slider(html, states)
        student.slider = states[slider]["state"].get("description", slider)
        canvases = shown_canvases(html, states)
        student.canvases = len(canvases)

        waiting: set[str] = set()
        images: asyncio.Queue = asyncio.Queue()  # the app canvas's images
        first_seen: dict[str, float] = {}

        def canvas_says(comm_id: str, content: dict, buffers: list) -> None:
            kind = json.loads(content.get("data", "{}")).get("type")
            if kind == "draw" and comm_id not in waiting:
                waiting.add(comm_id)
                kernel.comm(comm_id, {"method": "custom", "content": {"type": "draw"}})
            elif kind == "resize":
                kernel.comm(comm_id, {"method": "custom", "content": {"type": "refresh"}})
            elif kind == "binary" and buffers:
                waiting.discard(comm_id)
                first_seen.setdefault(comm_id, time.monotonic())
                if comm_id == canvas:
                    images.put_nowait((time.monotonic(), bytes(buffers[0])))
                if len(first_seen) == len(canvases):
                    everyone.set()

        everyone = asyncio.Event()
        listeners: list = []

        async def pump() -> None:
            while True:
                channel, msg, buffers = await kernel.next(deadline)
                for listener in listeners:
                    listener(channel, msg, buffers)
                c = msg["content"]
                if (msg["msg_type"] == "comm_msg" and c.get("comm_id") in canvases
                        and c.get("data", {}).get("method") == "custom"):
                    canvas_says(c["comm_id"], c["data"]["content"], buffers)

        pumping = asyncio.ensure_future(pump())
        try:
            for comm_id in canvases:
                for kind in ("refresh", "send_image_mode", "initialized"):
                    kernel.comm(comm_id, {"method": "custom", "content": {"type": kind}})
            t_image, png = await _next_image(images, pumping, deadline)
            student.first_image_s = t_image - start
            student.first_image = png
            await _wait_or_fail(everyone.wait(), pumping, deadline,
                                "not every canvas on the page got its first image")
            student.all_images_s = max(first_seen.values()) - start
            value_state = dict(states[slider]["state"])
            for _ in range(moves):
                await asyncio.sleep(settle_s)
                while not images.empty():  # a late diff of the first draw is not an answer
                    images.get_nowait()
                value_state["value"] = next_value(value_state)
                t0 = time.monotonic()
                kernel.comm(slider, {"method": "update", "state": {"value": value_state["value"]},
                                     "buffer_paths": []})
                t1, _ = await _next_image(images, pumping, deadline)
                student.moves_ms.append((t1 - t0) * 1000)
            if script is not None:
                page = Page(kernel, html, states, canvas, slider, png, deadline, listeners)
                await _wait_or_fail(script(page), pumping, deadline, "the script did not end")
        finally:
            pumping.cancel()
            await asyncio.gather(pumping, return_exceptions=True)
    except Exception as exc:  # reported, never hidden: a failure fails the run
        text = str(exc).splitlines()[0][:160] if str(exc) else ""
        student.error = f"{type(exc).__name__}: {text}"
    finally:
        if kernel is not None:
            kernel.close()
        for connection in connections:
            connection.close()
    return student


async def _wait_or_fail(awaitable, pumping: asyncio.Future, deadline: float, what: str):
    """``awaitable``'s result, unless the websocket stops first (its error) or the deadline
    passes (TimeoutError ``what``)."""
    getter = asyncio.ensure_future(awaitable)
    done, _ = await asyncio.wait({getter, pumping}, timeout=max(deadline - time.monotonic(), 0),
                                 return_when=asyncio.FIRST_COMPLETED)
    if getter in done:
        return getter.result()
    getter.cancel()
    if pumping in done:
        pumping.result()  # raises what stopped the websocket
    raise TimeoutError(f"{what} before the deadline")


async def _next_image(images: asyncio.Queue, pumping: asyncio.Future, deadline: float):
    return await _wait_or_fail(images.get(), pumping, deadline, "no image from the kernel")


def image_ink(png: bytes) -> int:
    """Drawn (opaque, not white) pixels in a PNG: a first image with none is no figure."""
    import io

    import numpy as np
    from PIL import Image

    rgba = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))
    opaque = rgba[..., 3] > 0
    coloured = (rgba[..., :3] < 250).any(axis=-1)
    return int((opaque & coloured).sum())
