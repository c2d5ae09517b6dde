"""Server side of the classroom setup: loaded by Voila (``voila.json``) and by
``lessons_server/room.py`` (``make classroom``), never by a lesson.

Voila 0.5's kernel websocket handler reads the header of every binary message it forwards
as if the client spoke the ``v1.kernel.websocket.jupyter.org`` protocol. A client that
connects without that subprotocol gets the legacy framing instead, whose first bytes,
read as the v1 offset count, are a number in the billions: one ipympl image sent to such a
client keeps Voila's only thread busy building a list of that length, and every student's
page stops answering. Browsers running Voila's page always ask for v1, so this connection
class refuses the legacy protocol up front (websocket close code 1008, policy violation).

Kept apart from :mod:`lessons_lib.apps` and the maths: it imports jupyter_server.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import math
import os
import secrets
import time
from collections import OrderedDict

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado import httputil
from tornado.log import app_log
from tornado.web import GZipContentEncoding, HTTPError

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


class V1OnlyWebsocketConnection(ZMQChannelsWebsocketConnection):
    """A kernel websocket that only speaks the v1 protocol; legacy clients are closed."""

    _refused = False

    def connect(self):
        if self.subprotocol != V1_PROTOCOL:
            self._refused = True
            self.log.warning("Refused a kernel websocket without the %s subprotocol (kernel %s)",
                             V1_PROTOCOL, self.kernel_id)
            self.websocket_handler.close(1008, f"only the {V1_PROTOCOL} protocol is served")
            done = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        return super().connect()

    def disconnect(self):
        if self._refused:
            return None
        return super().disconnect()

    def handle_incoming_message(self, incoming_msg) -> None:
        if self._refused:
            return
        super().handle_incoming_message(incoming_msg)


#: The most one message from a page may hold, in bytes. What a lesson page sends is small: a
#: slider's value, a pointer event, the room report (a few hundred bytes each); 64 KiB leaves
#: a wide margin and keeps a page from handing a kernel megabytes to hold.
MAX_PAGE_MESSAGE = 64 * 2**10
#: The most parts a page's message may have on the wire (channel, header, parent header,
#: metadata, content and up to four buffers; a lesson page sends none).
MAX_PAGE_PARTS = 9
#: The comms a page may open. ipywidgets' front end opens its control channel to ask the
#: kernel for every widget's state; every widget model itself is created by the kernel, so a
#: page that opens ``jupyter.widget`` (to make a widget of its own, an Image with a large
#: buffer, say) is refused.
PAGE_COMM_TARGETS = frozenset({"jupyter.widget.control"})


def page_message_problem(ws_msg) -> str | None:
    """Why a v1 websocket message from a page must not reach the kernel, or None.

    The framing is checked before anything reads it (its offset count, read as a number,
    could otherwise make the server build a list billions long), then its size and, for a
    ``comm_open``, the comm's target. Which message types may pass at all is Jupyter
    Server's own ``MappingKernelManager.allowed_message_types`` (``voila.json``)."""
    if not isinstance(ws_msg, bytes):
        return "a text frame (the v1 protocol sends binary frames)"
    if len(ws_msg) > MAX_PAGE_MESSAGE:
        return f"{len(ws_msg)} bytes (a page may send at most {MAX_PAGE_MESSAGE})"
    count = int.from_bytes(ws_msg[:8], "little") if len(ws_msg) >= 8 else 0
    if not 6 <= count <= MAX_PAGE_PARTS + 1 or len(ws_msg) < 8 * (count + 1):
        return f"a frame with {count} offsets (a message has 6 to {MAX_PAGE_PARTS + 1})"
    offsets = [int.from_bytes(ws_msg[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    if offsets[0] != 8 * (count + 1) or offsets != sorted(offsets) or offsets[-1] > len(ws_msg):
        return "a frame whose offsets do not fit it"
    if ws_msg[offsets[0]:offsets[1]] != b"shell":
        return "a message on a channel other than shell"
    try:
        header = json.loads(ws_msg[offsets[1]:offsets[2]])
        if header.get("msg_type") != "comm_open":
            return None
        target = json.loads(ws_msg[offsets[4]:offsets[5]]).get("target_name")
    except (ValueError, AttributeError, RecursionError):   # nested past the parser's limit
        return "a header or content that is not a JSON object"
    if target not in PAGE_COMM_TARGETS:
        return f"a comm_open for {str(target)[:40]!r} (the kernel makes every widget itself)"
    return None


class PageWebsocketConnection(V1OnlyWebsocketConnection):
    """The kernel websocket of a lesson page: v1 only, and no message the page has no use
    for reaches the kernel (:func:`page_message_problem`); with ``voila.json``'s
    ``allowed_message_types`` only widget and comm messages and ``kernel_info_request``
    pass, so no page can run code. Used by Voila in ``make voila``, ``make classroom`` and on
    every student's server behind a hub; a teacher's JupyterLab keeps the plain v1 one."""

    def handle_incoming_message(self, incoming_msg) -> None:
        problem = page_message_problem(incoming_msg)
        if problem is not None:
            self.log.warning("Refused a message from a page to kernel %s: %s",
                             self.kernel_id, problem)
            return
        super().handle_incoming_message(incoming_msg)


# -- the room's kernel pool ---------------------------------------------------------------
def _kernel_pid(km) -> int | None:
    provisioner = getattr(km, "provisioner", None)
    pid = getattr(provisioner, "pid", None)
    return int(pid) if pid else None


def can_restore_priority() -> bool:
    """Whether this process may lower a kernel's nice value back to 0 after raising it
    (root, or an RLIMIT_NICE that allows it). Without that a kernel started at low priority
    would stay slow for the student who gets it, so refills then run at normal priority."""
    if os.name != "posix":
        return False
    if os.geteuid() == 0:
        return True
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NICE)
    except (ImportError, AttributeError, ValueError, OSError):
        return False
    return soft == resource.RLIM_INFINITY or 20 - soft <= 0


def set_nice(pid: int, value: int) -> bool:
    """Set the nice value of every thread of process ``pid`` (Linux keeps one per thread;
    ipykernel has started its threads by the time a kernel is pooled)."""
    task_dir = f"/proc/{pid}/task"
    try:
        threads = [int(t) for t in os.listdir(task_dir)] if os.path.isdir(task_dir) else [pid]
        for tid in threads:
            try:
                os.setpriority(os.PRIO_PROCESS, tid, value)
            except ProcessLookupError:
                pass  # a thread that just ended
    except OSError:
        return False
    return True


def process_memory(pids: list[int]) -> dict[str, float]:
    """RSS and unique (USS) memory of these processes in bytes, skipping ended ones."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - IPython depends on psutil
        return {"rss": float("nan"), "uss": float("nan")}
    rss = uss = 0.0
    for pid in pids:
        try:
            info = psutil.Process(pid).memory_full_info()
        except (psutil.Error, OSError):
            continue
        rss += info.rss
        uss += getattr(info, "uss", info.rss)
    return {"rss": rss, "uss": uss}


#: Run in a pooled kernel once its notebook has run: one Agg render of every figure, so that
#: the text layout and font caches a figure's first draw fills are filled before the room
#: comes in (after the lesson ports a first draw cost up to 0.2 CPU-s more than a second),
#: and, for a figure with a :class:`~lessons_lib.apps.fastdraw.painter.Painter`, its first frame
#: and that frame's PNG (lesson 1's three PNGs cost 20-35 ms each). The plain Agg render
#: stays first: with the painter's frame alone, a burst's slider moves cost the kernels
#: more (10 students' visits, three A/B pairs: 3.3-4.5 CPU-s against 2.95-3.1). No image is sent and
#: ipympl's own state is not touched: the page still asks for its first image as usual.
WARM_UP = """
def _lessons_warm_up():
    import sys
    if "ipympl.backend_nbagg" not in sys.modules:
        return
    from matplotlib._pylab_helpers import Gcf
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    for manager in Gcf.get_all_fig_managers():
        try:
            FigureCanvasAgg.draw(manager.canvas)
            painter = getattr(manager.canvas, "_lesson_painter", None)
            if painter is not None:
                painter.prepare_first_frame()
        except Exception:
            pass
_lessons_warm_up()
del _lessons_warm_up
"""


async def warm_up(km, timeout: float = 60.0, code: str = WARM_UP) -> bool:
    """Run ``code`` (:data:`WARM_UP`) in the kernel of ``km`` (a jupyter_client async kernel
    manager); True if the kernel answered ``ok``."""
    kc = km.client()
    kc.start_channels()
    try:
        msg_id = kc.execute(code, silent=True, store_history=False)
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            reply = await kc.get_shell_msg(timeout=left)
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply["content"].get("status") == "ok"
        return False
    finally:
        kc.stop_channels()


def classroom_kernel_manager(base: type) -> type:
    """Voila's pre-heating kernel manager, changed for a room that arrives all at once.

    - **Refill later.** Voila starts a replacement kernel one second after a student takes a
      pooled one, so while the room arrives every new student competes with kernels that
      are running the lesson for nobody yet. Here a taken kernel is only noted; the pool is
      topped up one kernel at a time once no student has asked for a page for
      ``refill_after`` seconds and the server itself has been idle that long (it used less
      than ``busy_above`` of a core each second: the pages' files and websockets of a room
      still settling in keep it busier than that), at low priority (nice ``refill_nice``)
      where the priority can be given back when a student takes the kernel.
    - **Pre-heat a few at a time.** At start-up at most ``preheat_parallel`` kernels start
      and run their lesson together, so none of them waits long enough to time out.
    - A pooled kernel counts as ready only when its notebook has run to the end and its
      figures have been rendered once (:data:`WARM_UP`).

    A student who arrives when the pool is empty gets a kernel started for them at once, as
    in plain Voila. ``base`` is what ``voila_kernel_manager_factory`` returned.
    """
    if not hasattr(base, "fill_if_needed"):
        return base  # pre-heating is off: nothing to defer

    from traitlets import Float, Int

    class ClassroomKernelManager(base):
        refill_after = Float(
            20.0, config=True,
            help="Seconds with no new student before the kernel pool is topped up again.")
        refill_nice = Int(
            10, config=True,
            help="Nice value of a refill kernel until a student takes it (0: normal).")
        busy_above = Float(
            0.25, config=True,
            help="Share of one core the server may use in a second and still count as idle.")
        preheat_parallel = Int(
            0, config=True,
            help="Kernels started together while pre-heating (0: one per CPU core).")

        def __init__(self, **kwargs):
            self._last_arrival = -math.inf
            self._last_busy = -math.inf
            self._refilling: asyncio.Task | None = None
            self._niced: set[str] = set()
            self._startup_tasks: list[asyncio.Future] = []
            self._gate: asyncio.Semaphore | None = None
            self._starting_up = True
            self.preheat_started = time.monotonic()
            super().__init__(**kwargs)
            self._starting_up = False
            self._nice_refills = self.refill_nice > 0 and can_restore_priority()
            try:
                loop = asyncio.get_event_loop()
            except RuntimeError:  # as Voila's own fill_if_needed does
                loop = asyncio.new_event_loop()
                asyncio.set_event_loop(loop)
            self._refiller = loop.create_task(self._refill_loop())

        # -- Voila's hooks ---------------------------------------------------------
        def fill_if_needed(self, delay=None, notebook_name=None,
                           extra_kernel_env_variables=None, **kwargs):
            if delay is None:  # a student just took a pooled kernel: refill later
                self._last_arrival = time.monotonic()
                return
            pool_before = len(self._pools.get(notebook_name, ()))
            super().fill_if_needed(delay=delay, notebook_name=notebook_name,
                                   extra_kernel_env_variables=extra_kernel_env_variables or {},
                                   **kwargs)
            if self._starting_up:
                self._startup_tasks.extend(self._pools[notebook_name][pool_before:])

        async def get_rendered_notebook(self, notebook_name, *args, **kwargs):
            self._last_arrival = time.monotonic()
            result = await super().get_rendered_notebook(notebook_name, *args, **kwargs)
            kernel_id = result[2]
            if kernel_id in self._niced:
                self._niced.discard(kernel_id)
                pid = _kernel_pid(self.get_kernel(kernel_id))
                if pid:
                    set_nice(pid, 0)
            return result

        async def start_kernel(self, *args, **kwargs):
            # only the page handler calls this one, for a student the pool could not serve
            self._last_arrival = time.monotonic()
            return await super().start_kernel(*args, **kwargs)

        async def _initialize(self, notebook_path, kernel_id=None, **kwargs):
            if self._gate is None:
                self._gate = asyncio.Semaphore(self.preheat_parallel or os.cpu_count() or 2)
            async with self._gate:
                content = await super()._initialize(notebook_path, kernel_id, **kwargs)
                if kwargs.get("env", {}).get("LESSONS_REFILL") == "1" and self._nice_refills:
                    pid = _kernel_pid(self.get_kernel(content["kernel_id"]))
                    if pid and set_nice(pid, self.refill_nice):
                        self._niced.add(content["kernel_id"])
                try:
                    await asyncio.shield(content["task"])
                except Exception:  # the page shows it as Voila would; the pool goes on
                    self.log.exception("Pre-heating %s failed", notebook_path)
                else:
                    try:
                        await warm_up(self.get_kernel(content["kernel_id"]))
                    except Exception:  # a cold first draw is slower, not wrong
                        self.log.warning("Could not warm up the figures of %s", notebook_path)
            return content

        async def shutdown_kernel(self, kernel_id, *args, **kwargs):
            self._niced.discard(kernel_id)
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)

        # -- what the room sees ----------------------------------------------------
        def target_size(self, notebook_name: str) -> int:
            default = self.kernel_pools_config.get("default", {})
            return int(self.kernel_pools_config.get(notebook_name, default)
                       .get("pool_size", default.get("pool_size", 1)))

        async def preheated(self) -> dict:
            """Wait until every kernel started at start-up has run its notebook; return
            how long that took, how many kernels there are and their memory (bytes)."""
            await asyncio.gather(*self._startup_tasks, return_exceptions=True)
            pids = [p for p in (_kernel_pid(self.get_kernel(k)) for k in self.list_kernel_ids())
                    if p]
            memory = process_memory(pids)
            return {"seconds": time.monotonic() - self.preheat_started, "kernels": len(pids),
                    "rss": memory["rss"], "uss": memory["uss"],
                    "per_notebook": {nb: len(pool) for nb, pool in self._pools.items()}}

        async def _refill_loop(self) -> None:
            cpu = time.process_time()
            while True:
                await asyncio.sleep(1.0)
                used, cpu = time.process_time() - cpu, time.process_time()
                refilling = self._refilling is not None and not self._refilling.done()
                if used > self.busy_above and not refilling:  # serving students, not us
                    self._last_busy = time.monotonic()
                try:
                    self._maybe_refill()
                except Exception:  # never let the refiller die: log and try again later
                    self.log.exception("Refilling the kernel pool failed")

        def _maybe_refill(self) -> None:
            if self._refilling is not None and not self._refilling.done():
                return
            if self._startup_tasks and not all(t.done() for t in self._startup_tasks):
                return
            last_activity = max(self._last_arrival, self._last_busy)
            if time.monotonic() - last_activity < self.refill_after:
                return
            short = [(len(pool) - self.target_size(nb), nb) for nb, pool in self._pools.items()
                     if len(pool) < self.target_size(nb)]
            if not short:
                return
            _, notebook_name = min(short)  # the emptiest pool first
            pool = self._pools[notebook_name]
            config = dict(self.kernel_pools_config)
            one_more = dict(config.get(notebook_name, config.get("default", {})))
            one_more["pool_size"] = len(pool) + 1
            self.kernel_pools_config = {**config, notebook_name: one_more}
            try:
                super().fill_if_needed(delay=0, notebook_name=notebook_name,
                                       extra_kernel_env_variables={"LESSONS_REFILL": "1"})
            finally:
                self.kernel_pools_config = config
            self._refilling = pool[-1]
            self.log.info("Refilling the pool of %s (%d of %d)", notebook_name, len(pool),
                          self.target_size(notebook_name))

    return ClassroomKernelManager


# -- one gzip per file, not per student ---------------------------------------------------
class CachedGzipContentEncoding(GZipContentEncoding):
    """Tornado's gzip transform that compresses each version of a static file once.

    A Voila page brings about a hundred scripts and styles, 5 MB before compression; gzip
    on every request is most of what the server spends on an arriving student. Static
    files are kept compressed, up to ``LIMIT`` bytes in all, oldest out first: those with
    an ``Etag`` (a hash of the content) by that tag, the lab extensions' scripts, which
    Jupyter serves without one, by path, ``Last-Modified`` and ``Content-Length``, as a
    browser's cache validates them. The lesson pages themselves carry neither and are
    compressed as before."""

    LIMIT = 64 * 2**20
    _cache: OrderedDict[str, bytes] = OrderedDict()
    _cached_bytes = 0

    def __init__(self, request) -> None:
        super().__init__(request)
        self._path = request.uri or ""

    def transform_first_chunk(self, status_code, headers, chunk, finishing):
        self._hit = False
        self._key = None
        key = self._version(status_code, headers)
        if self._gzipping and key and "Content-Encoding" not in headers:
            body = self._cache.get(key)
            if body is not None:
                self._cache.move_to_end(key)
                self._hit = True
                headers["Vary"] = (headers["Vary"] + ", Accept-Encoding" if "Vary" in headers
                                   else "Accept-Encoding")
                headers["Content-Encoding"] = "gzip"
                headers["Content-Length"] = str(len(body))
                return status_code, headers, body
            self._key = key
            self._parts: list[bytes] = []
        # (the parent compresses the first chunk through transform_chunk, which keeps it)
        status_code, headers, chunk = super().transform_first_chunk(
            status_code, headers, chunk, finishing)
        if not self._gzipping:
            self._key = None
        return status_code, headers, chunk

    def _version(self, status_code, headers) -> str | None:
        """What names this version of a static file, or None for any other response."""
        if status_code != 200:
            return None
        kind = headers.get("Content-Type", "")
        if headers.get("Etag"):
            return f"{headers['Etag']}|{kind}"
        if headers.get("Last-Modified") and headers.get("Content-Length"):
            return f"{self._path}|{headers['Last-Modified']}|{headers['Content-Length']}|{kind}"
        return None

    def transform_chunk(self, chunk, finishing):
        if self._hit:
            return b""  # the whole compressed file went out with the first chunk
        chunk = super().transform_chunk(chunk, finishing)
        self._keep(chunk, finishing)
        return chunk

    def _keep(self, chunk: bytes, finishing: bool) -> None:
        if self._key is None:
            return
        self._parts.append(chunk)
        if finishing:
            body = b"".join(self._parts)
            cls = type(self)
            if len(body) <= cls.LIMIT // 8:
                cls._cache[self._key] = body
                cls._cached_bytes += len(body)
                while cls._cached_bytes > cls.LIMIT:
                    _, old = cls._cache.popitem(last=False)
                    cls._cached_bytes -= len(old)
            self._key = None


# -- static files from memory -------------------------------------------------------------
class _Kept:
    """One static file as a handler answered it: the file it resolved and checked, that
    file's stamp when it was read, the headers before any transform, and the bytes."""

    __slots__ = ("path", "stamp", "headers", "body")

    def __init__(self, path: str, stamp: tuple, headers, body: bytes) -> None:
        self.path, self.stamp, self.headers, self.body = path, stamp, headers, body


def _stamp(path: str) -> tuple[int, int, int]:
    st = os.stat(path)
    return st.st_mtime_ns, st.st_size, st.st_ino


class StaticMemory:
    """The answers :func:`serve_from_memory` keeps, by request URI, oldest out first once
    they pass ``limit`` bytes; a file larger than an eighth of that is never kept."""

    def __init__(self, limit: int = 64 * 2**20) -> None:
        self.limit = limit
        self.kept: OrderedDict[str, _Kept] = OrderedDict()
        self.size = 0

    def get(self, uri: str) -> _Kept | None:
        kept = self.kept.get(uri)
        if kept is not None:
            self.kept.move_to_end(uri)
        return kept

    def put(self, uri: str, kept: _Kept) -> None:
        if len(kept.body) > self.limit // 8:
            return
        self.drop(uri)
        self.kept[uri] = kept
        self.size += len(kept.body)
        while self.size > self.limit:
            _, old = self.kept.popitem(last=False)
            self.size -= len(old.body)

    def drop(self, uri: str) -> None:
        old = self.kept.pop(uri, None)
        if old is not None:
            self.size -= len(old.body)


STATIC_MEMORY = StaticMemory()
#: Requests the cached answer cannot serve: tornado's own handler decides those.
_CONDITIONAL = ("Range", "If-None-Match", "If-Modified-Since")


def serve_from_memory(base: type, memory: StaticMemory = STATIC_MEMORY) -> type:
    """``base`` (a tornado ``StaticFileHandler``) that answers a GET it answered before
    from memory: the same headers (a new ``Date``) and the same bytes, without resolving
    the path again (Voila's template handler searches every template folder, and every
    handler follows symlinks to check the file stays inside its root), reading the file
    or hashing it. One ``stat`` checks the file has not changed since; a changed or gone
    file, a range, a conditional request (304) and HEAD go to ``base`` as before, and so
    does anything but a 200. Authentication (``prepare``) runs as before."""

    class FromMemory(base):
        _keep_headers = None

        def get(self, path, include_body=True):
            uri = self.request.uri or ""
            plain = include_body and not any(h in self.request.headers for h in _CONDITIONAL)
            kept = memory.get(uri) if plain else None
            if kept is not None:
                try:
                    fresh = _stamp(kept.path) == kept.stamp
                except OSError:
                    fresh = False
                if fresh:
                    self._headers = kept.headers.copy()
                    self._headers["Date"] = httputil.format_timestamp(time.time())
                    self.write(kept.body)
                    return None
                memory.drop(uri)
            if plain:
                self._keep_headers = True  # flush() notes the headers it is about to send
            return self._get_and_keep(uri, path, include_body)

        async def _get_and_keep(self, uri, path, include_body) -> None:
            await super().get(path, include_body)
            headers, self._keep_headers = self._keep_headers, None
            where = getattr(self, "absolute_path", None)
            if (self.get_status() != 200 or not where
                    or not isinstance(headers, httputil.HTTPHeaders)):
                return
            try:
                stamp = _stamp(where)
                if stamp[1] > memory.limit // 8:
                    return
                with open(where, "rb") as f:
                    body = f.read()
                if _stamp(where) != stamp or len(body) != stamp[1]:
                    return  # changed while we read it: keep nothing
            except OSError:
                return
            memory.put(uri, _Kept(where, stamp, headers, body))

        def flush(self, include_footers=False):
            if self._keep_headers is True and not self._headers_written:
                self._keep_headers = self._headers.copy()
            return super().flush(include_footers)

    if getattr(base.get, "__allow_unauthenticated", False):  # Jupyter's public files
        setattr(FromMemory.get, "__allow_unauthenticated", True)
    FromMemory.__name__ = FromMemory.__qualname__ = f"{base.__name__}FromMemory"
    return FromMemory


def static_from_memory(handlers: list) -> list:
    """Voila's routes with its handlers of installed files (templates' static folders,
    Voila's own scripts, the lab extensions) answering from memory
    (:func:`serve_from_memory`). The lesson folder's own files are left as they are."""
    from jupyter_server.base.handlers import FileFindHandler
    from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler

    installed = (TemplateStaticFileHandler, MultiStaticFileHandler, FileFindHandler)
    wrapped = {cls: serve_from_memory(cls) for cls in installed}
    return [(route[0], wrapped.get(route[1], route[1]), *route[2:]) for route in handlers]


# -- a page's kernel is that page's ---------------------------------------------------------
#: The cookie that tells one browser from another in a room where everyone has the token.
PAGE_COOKIE = "lessons_page"


class KernelOwners:
    """Which browser each kernel belongs to.

    Everyone in a room has the same token, so the token cannot tell one student from
    another. Each browser that opens a lesson gets a random cookie (:data:`PAGE_COOKIE`),
    and the first request about a kernel (the page's own, right after the page arrives with
    the kernel's id in it) binds the kernel to the browser that sent it. Any later request
    about that kernel from another browser (its model, its websocket, shutting it down,
    Voila's request-info socket) is refused with 403, even with the token and the id.
    A browser without the cookie (one that never opened a lesson) owns no kernel.
    """

    def __init__(self) -> None:
        self._owner: dict[str, str] = {}

    def allows(self, kernel_id: str, browser: str | None, alive=None) -> bool:
        if not kernel_id or not browser:
            return False
        if alive is not None and len(self._owner) > 64:   # forget kernels that are gone
            self._owner = {k: v for k, v in self._owner.items() if k in alive}
        owner = self._owner.setdefault(kernel_id, browser)
        return secrets.compare_digest(owner, browser)


KERNEL_OWNERS = KernelOwners()


def _kernel_id_of(handler) -> str:
    kernel_id = handler.path_kwargs.get("kernel_id")
    if kernel_id is None and handler.path_args:
        kernel_id = handler.path_args[0]
    return kernel_id or ""


def owned_by_page(base: type, owners: KernelOwners = KERNEL_OWNERS) -> type:
    """``base`` (a handler of requests about one kernel) refusing a browser that does not
    own the kernel (:class:`KernelOwners`)."""

    class Owned(base):
        async def prepare(self, *args, **kwargs):
            result = super().prepare(*args, **kwargs)
            if inspect.isawaitable(result):
                await result
            if self._finished:
                return
            manager = self.settings.get("kernel_manager")
            alive = set(manager.list_kernel_ids()) if manager is not None else None
            if not owners.allows(_kernel_id_of(self), self.get_cookie(PAGE_COOKIE), alive):
                app_log.warning("Refused a request about kernel %s from a page that did not "
                                "start it", _kernel_id_of(self))
                raise HTTPError(403, "this kernel belongs to another page")

    Owned.__name__ = Owned.__qualname__ = f"Owned{base.__name__}"
    return Owned


def gives_page_cookie(base: type) -> type:
    """``base`` (the lesson page handler) giving a browser its :data:`PAGE_COOKIE` before
    anything is written, if it has none."""

    class WithCookie(base):
        def prepare(self, *args, **kwargs):
            if not self.get_cookie(PAGE_COOKIE):
                self.set_cookie(PAGE_COOKIE, secrets.token_urlsafe(18), httponly=True,
                                samesite="Strict")
            return super().prepare(*args, **kwargs)

    WithCookie.__name__ = WithCookie.__qualname__ = f"Cookie{base.__name__}"
    return WithCookie


def kernels_owned_by_pages(handlers: list) -> list:
    """Voila's routes with every request about one kernel restricted to the browser whose
    page started it, and the lesson pages handing out the cookie that tells browsers apart.
    What stays open and why is in docs/classroom.md."""
    about_a_kernel = ("/api/kernels/", "/voila/api/shutdown/", "/voila/query/")
    out = []
    for route in handlers:
        pattern, cls = route[0], route[1]
        if any(part in pattern for part in about_a_kernel):
            cls = owned_by_page(cls)
        elif pattern.endswith("/voila/render/(.*)"):
            cls = gives_page_cookie(cls)
        out.append((pattern, cls, *route[2:]))
    return out
