"""How many students one laptop serves: a bounded load test on loopback.

N simulated students open the same lesson at the same moment, from a server started exactly
as ``make classroom`` starts it (lessons_server/room.py: voila.json, a token, one pre-heated
kernel per student for the lesson, refills deferred until the room has arrived) but
listening on 127.0.0.1 only. Two kinds of student:

- **protocol** (default): :mod:`protocol_student`, which does over HTTP and the kernel
  websocket what the page does (page, the scripts and styles a browser fetched for it,
  widget state, canvas initialisation, first image, a slider step, the next image). Many
  share one process, so the server's two cores are not spent on 30 browsers.
- **chromium**: each student a Chromium browser context (Debian's /usr/bin/chromium through
  Playwright) that waits for drawn pixels and presses an arrow key on the first slider.

Reported per N: time until each student has a working first figure (p50, p95, max), slider
step to new image under load (p50, p95), CPU-seconds the server and its kernels spent per
student, peak memory of the server and its kernels, and failures. ``--check-browser K``
compares K Chromium students' first canvas pixel for pixel with a protocol student's first
image.

Everything is bounded: each student has a deadline, each run a hard timeout, and every
browser, websocket and the server are closed in ``finally``. Only loopback is contacted.

    python benchmarks/classroom.py                          # 30 protocol students
    python benchmarks/classroom.py --sweep 1,10,20,30
    python benchmarks/classroom.py --kind chromium --students 3
    python benchmarks/classroom.py --check-browser 3
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-quic",
                  "--no-first-run", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1280, "height": 720}
FIGURE = ".jupyter-matplotlib-figure canvas"
SLIDER_HANDLE = ".widget-slider .noUi-handle"
ERROR_MARKERS = ("Traceback (most recent call last)", "Error executing", "There was an error",
                 "Something went wrong")
#: "Working": the figure's canvas holds drawn (non-white, non-transparent) pixels.
#: A cheap signature of the canvas: a sparse grid of pixel values, to spot a redraw.
JS_SIGNATURE = """() => {
  const c = document.querySelector('.jupyter-matplotlib-figure canvas');
  if (!c || !c.width || !c.height) return null;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let h = 0, ink = 0;
  for (let i = 0; i < d.length; i += 4 * 7) {
    const v = d[i] + 3 * d[i + 1] + 7 * d[i + 2] + 11 * d[i + 3];
    h = (h * 31 + v) >>> 0;
    if (d[i + 3] > 0 && (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250)) ink++;
  }
  return ink > 50 ? String(h) : null;
}"""
SLOW_LIMIT_S = 6.0  # the target: every student's figure within 6 s


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


class Server:
    """lessons_server/room.py on 127.0.0.1 with a token (and ``extra`` arguments); memory of
    its process tree sampled."""

    def __init__(self, lesson: str, pool: int, refill_after: float = 20.0,
                 extra: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.token = "".join(secrets.choice("0123456789") for _ in range(12))
        self.lesson = lesson
        self.pool = pool
        self.log_file = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)  # noqa: SIM115
        pool_args = (["--lesson", lesson, "--students", str(pool)] if pool > 0
                     else ["--no-preheat"])
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lessons_server.room", "--ip", "127.0.0.1",
             "--port", str(self.port), "--token", self.token, "--refill-after",
             str(refill_after), *pool_args, *extra],
            cwd=ROOT, stdout=self.log_file, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}"
        self.peak_rss = 0
        self.idle_rss = 0
        self.preheat_s = float("nan")
        self.cpu_samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)

    def log(self) -> str:
        return Path(self.log_file.name).read_text(errors="replace")

    def rss(self) -> int:
        try:
            proc = psutil.Process(self.proc.pid)
            tree = [proc, *proc.children(recursive=True)]
        except psutil.NoSuchProcess:
            return 0
        total = 0
        for p in tree:
            try:
                total += p.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total

    def cpu_s(self) -> float:
        """CPU seconds of the server and its kernels so far (ended kernels included)."""
        try:
            proc = psutil.Process(self.proc.pid)
            t = proc.cpu_times()
            total = t.user + t.system + t.children_user + t.children_system
            for child in proc.children(recursive=True):
                try:
                    c = child.cpu_times()
                    total += c.user + c.system
                except psutil.NoSuchProcess:
                    pass
        except psutil.NoSuchProcess:
            return 0.0
        return total

    def main_cpu_s(self) -> float:
        """CPU seconds of the Voila process alone (pages, files, websockets)."""
        try:
            t = psutil.Process(self.proc.pid).cpu_times()
        except psutil.NoSuchProcess:
            return 0.0
        return t.user + t.system

    def cpu_at(self, when: float) -> float:
        """Server + kernels CPU seconds at monotonic time ``when``: the first sample taken
        at or after it (so a little more, never less, than was spent by then)."""
        after = [c for t, c in self.cpu_samples if t >= when]
        return after[0] if after else self.cpu_s()

    def _sample(self) -> None:
        while not self._stop.is_set():
            rss, cpu = self._tree()
            self.peak_rss = max(self.peak_rss, rss)
            self.cpu_samples.append((time.monotonic(), cpu))
            self._stop.wait(0.25)

    def _tree(self) -> tuple[int, float]:
        """RSS and CPU seconds of the server and its kernels in one pass (cheap enough to
        sample four times a second while 30 kernels run)."""
        try:
            proc = psutil.Process(self.proc.pid)
            t = proc.cpu_times()
            cpu = t.user + t.system + t.children_user + t.children_system
            rss = proc.memory_info().rss
            children = proc.children(recursive=True)
        except psutil.NoSuchProcess:
            return 0, 0.0
        for child in children:
            try:
                with child.oneshot():
                    c = child.cpu_times()
                    cpu += c.user + c.system
                    rss += child.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return rss, cpu

    def wait_ready(self, timeout: float = 600.0) -> None:
        """Until lessons_server/room.py prints the address, which it does once every pooled
        kernel has run its lesson, as when a teacher starts the server before the class."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("classroom server exited:\n" + self.log()[-3000:])
            log = self.log()
            if "Students open" in log:
                found = re.search(r"Pre-heated (\d+) kernels in (\d+) s", log)
                self.preheat_s = float(found.group(2)) if found else float("nan")
                time.sleep(2.0)  # the last kernel's output settles
                self.idle_rss = self.rss()
                self._sampler.start()
                return
            time.sleep(0.5)
        raise TimeoutError(f"the pool for {self.lesson} was not ready within {timeout} s")

    def stop(self, keep_log: bool = False) -> str | None:
        """Stop the server; with ``keep_log`` its log survives and its path is returned."""
        self._stop.set()
        if self._sampler.is_alive():
            self._sampler.join(2)
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.log_file.close()
        if keep_log:
            return self.log_file.name
        Path(self.log_file.name).unlink(missing_ok=True)
        return None

    def render_url(self) -> str:
        return f"{self.url}/voila/render/{self.lesson}.ipynb?token={self.token}"


@dataclass
class Student:
    index: int
    html_s: float | None = None
    ready_s: float | None = None
    moves_ms: list[float] = field(default_factory=list)
    error: str | None = None


async def one_student(browser, server: Server, student: Student, moves: int,
                      start: float, deadline_s: float) -> None:
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        page = await context.new_page()
        timeout_ms = deadline_s * 1000
        await page.goto(server.render_url(), timeout=timeout_ms)
        student.html_s = time.monotonic() - start
        await page.wait_for_selector(SLIDER_HANDLE, state="visible", timeout=timeout_ms)
        await page.wait_for_function(JS_SIGNATURE, timeout=timeout_ms, polling=100)
        student.ready_s = time.monotonic() - start
        text = await page.inner_text("body")
        shown = [m for m in ERROR_MARKERS if m in text]
        if shown:
            student.error = f"error text on the page: {shown}"
            return
        handle = page.locator(SLIDER_HANDLE).first
        await handle.scroll_into_view_if_needed(timeout=timeout_ms)
        await page.wait_for_timeout(300)  # let the first draw settle
        for _ in range(moves):
            before = await page.evaluate(JS_SIGNATURE)
            await handle.focus()
            t0 = time.monotonic()
            await handle.press("ArrowRight")
            await page.wait_for_function(f"(before) => ({JS_SIGNATURE})() !== before",
                                         arg=before, timeout=timeout_ms, polling=20)
            student.moves_ms.append((time.monotonic() - t0) * 1000)
            await page.wait_for_timeout(150)
    except Exception as exc:  # reported, never hidden: a failure fails the run
        student.error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    finally:
        await context.close()


async def run_students(server: Server, n: int, moves: int, deadline_s: float) -> list[Student]:
    from playwright.async_api import async_playwright

    students = [Student(i) for i in range(n)]
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_FLAGS)
        try:
            start = time.monotonic()
            await asyncio.wait_for(
                asyncio.gather(*(one_student(browser, server, s, moves, start, deadline_s)
                                 for s in students)),
                timeout=deadline_s + 60 * moves + 60)
        finally:
            await browser.close()
    return students


# -- protocol-level students --------------------------------------------------------------
async def browser_visit(server: Server, count: int = 1, deadline_s: float = 120.0) -> dict:
    """``count`` Chromium pages of the lesson at once: the same-origin files each one fetched
    (what a protocol student fetches too) and each one's first canvas as PNG bytes."""
    from playwright.async_api import async_playwright

    out = {"assets": [], "canvases": [], "errors": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_FLAGS)

        async def one(i: int) -> None:
            context = await browser.new_context(viewport=VIEWPORT)
            seen: list[str] = []

            def on_request(request) -> None:
                url = request.url
                if url.startswith(server.url) and request.resource_type not in ("websocket",):
                    path = url[len(server.url):]
                    if not path.startswith(("/api/", "/voila/render/", "/login")):
                        seen.append(path)

            context.on("request", on_request)
            try:
                page = await context.new_page()
                await page.goto(server.render_url(), timeout=deadline_s * 1000)
                await page.wait_for_function(JS_SIGNATURE, timeout=deadline_s * 1000,
                                             polling=100)
                await page.wait_for_timeout(1500)  # the last diff image is painted
                data_url = await page.evaluate(
                    "() => document.querySelector('.jupyter-matplotlib-figure canvas')"
                    ".toDataURL('image/png')")
                out["canvases"].append(base64.b64decode(data_url.split(",", 1)[1]))
                if i == 0:
                    out["assets"] = list(dict.fromkeys(seen))
            except Exception as exc:
                out["errors"].append(f"browser {i}: {type(exc).__name__}: "
                                     f"{str(exc).splitlines()[0][:160]}")
            finally:
                await context.close()

        try:
            await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(count))),
                                   timeout=deadline_s + 30)
        finally:
            await browser.close()
    return out


def page_assets(server: Server) -> list[str]:
    """Without Chromium: the scripts and styles the page's HTML names (fewer than a
    browser fetches, since those load more themselves)."""
    html = urllib.request.urlopen(server.render_url(), timeout=120).read().decode()
    paths = re.findall(r'(?:src|href)="(/[^"]+\.(?:js|css)[^"]*)"', html)
    return list(dict.fromkeys(paths))


async def run_protocol_students(server: Server, n: int, moves: int, deadline_s: float,
                                assets: list[str] | None) -> list:
    import protocol_student as ps

    students = [ps.ProtocolStudent(i) for i in range(n)]
    path = f"/voila/render/{server.lesson}.ipynb"
    start = time.monotonic()
    await asyncio.wait_for(
        asyncio.gather(*(ps.visit(s, server.url, path, server.token, start, deadline_s,
                                  moves, assets) for s in students)),
        timeout=deadline_s + 30)
    return students


def measure(n: int, lesson: str, pool: int | None, moves: int, deadline_s: float,
            kind: str = "protocol", assets: str = "browser") -> dict:
    """One burst of ``n`` students of ``kind`` on a fresh server with ``pool`` kernels for
    the lesson (default: one per student, plus one for the browser that lists the files a
    page fetches)."""
    import protocol_student as ps

    record = kind == "protocol" and assets == "browser" and Path(CHROMIUM).exists()
    pool = pool if pool is not None else n + (1 if record else 0)
    server = Server(lesson, pool)
    students: list = []
    asset_list: list[str] | None = None
    self_cpu0 = psutil.Process().cpu_times()
    try:
        server.wait_ready()
        if kind == "protocol" and assets != "none":
            asset_list = (asyncio.run(browser_visit(server))["assets"] if record
                          else page_assets(server))
            time.sleep(3.0)  # that browser's page settles before the room arrives
        cpu0 = psutil.cpu_times()
        server0 = server.cpu_s()
        main0 = server.main_cpu_s()
        me0 = psutil.Process().cpu_times()
        t0 = time.monotonic()
        if kind == "protocol":
            students = asyncio.run(run_protocol_students(server, n, moves, deadline_s,
                                                         asset_list))
        else:
            students = asyncio.run(run_students(server, n, moves, deadline_s))
        wall = time.monotonic() - t0
        cpu1 = psutil.cpu_times()
        me1 = psutil.Process().cpu_times()
        server_cpu = server.cpu_s() - server0
        main_cpu = server.main_cpu_s() - main0
        busy = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
        used_pool = server.log().count("Using pre-heated kernel")
        refills = server.log().count("Refilling the pool")
    finally:
        failed = not students or any(s.error for s in students)
        log_path = server.stop(keep_log=failed)
    failures = [f"student {s.index}: {s.error}" for s in students if s.error]
    if kind == "protocol":
        ready = [s.first_image_s for s in students if s.first_image_s is not None]
        for s in students:
            if s.first_image is not None and ps.image_ink(s.first_image) < 50:
                failures.append(f"student {s.index}: the first image is blank")
    else:
        ready = [s.ready_s for s in students if s.ready_s is not None]
    moves_ms = [m for s in students for m in s.moves_ms]
    # CPU until the last student's page had every figure drawn (protocol students), or
    # their first figure (browsers): the arrival, and whatever slider moves overlapped it
    arrived = ([s.all_images_s for s in students if s.all_images_s is not None]
               if kind == "protocol" else ready)
    arrival_cpu = (server.cpu_at(t0 + max(arrived)) - server0 if arrived and not failures
                   else float("nan"))
    failures += [f"student {s.index}: {len(s.moves_ms)} of {moves} slider moves answered"
                 for s in students if not s.error and len(s.moves_ms) != moves]
    per_student = [{k: v for k, v in asdict(s).items() if k != "first_image"} for s in students]
    return {
        "kind": kind, "students": n, "lesson": lesson, "pool": pool, "moves": moves,
        "ready_p50_s": pct(ready, 0.5), "ready_p95_s": pct(ready, 0.95),
        "ready_max_s": max(ready) if ready else float("nan"),
        "html_p50_s": pct([s.html_s for s in students if s.html_s is not None], 0.5),
        "move_p50_ms": pct(moves_ms, 0.5), "move_p95_ms": pct(moves_ms, 0.95),
        "peak_server_mb": server.peak_rss / 2**20, "idle_server_mb": server.idle_rss / 2**20,
        "preheat_s": server.preheat_s,
        "pre_heated_pages": used_pool, "refills_started": refills,
        "machine_cpu_s": busy, "server_cpu_s": server_cpu, "voila_cpu_s": main_cpu,
        "arrival_cpu_s": arrival_cpu,
        "students_cpu_s": (me1.user + me1.system) - (me0.user + me0.system),
        "bench_cpu_total_s": (me1.user + me1.system) - (self_cpu0.user + self_cpu0.system),
        "assets": len(asset_list or []),
        "asset_mb": (students[0].assets_bytes / 2**20
                     if students and kind == "protocol" else float("nan")),
        "wall_s": wall, "failures": failures, "server_log": log_path,
        "per_student": per_student,
    }


def check_browser(lesson: str, k: int, deadline_s: float) -> dict:
    """A protocol student's first image against ``k`` Chromium students' first canvas."""
    import io

    import numpy as np
    import protocol_student as ps
    from PIL import Image

    server = Server(lesson, k + 1)
    try:
        server.wait_ready()
        student = asyncio.run(run_protocol_students(server, 1, 1, deadline_s, None))[0]
        if student.error:
            raise RuntimeError(f"the protocol student failed: {student.error}")
        seen = asyncio.run(browser_visit(server, k, deadline_s))
    finally:
        server.stop()

    def rgba(png: bytes):
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")).astype(int)

    ours = rgba(student.first_image)
    rows = []
    for png in seen["canvases"]:
        theirs = rgba(png)
        same_size = theirs.shape == ours.shape
        # a figure of a fractional pixel size: the canvas may show one row or column fewer
        h, w = min(theirs.shape[0], ours.shape[0]), min(theirs.shape[1], ours.shape[1])
        differ = (np.abs(theirs[:h, :w] - ours[:h, :w]).max(axis=-1) > 0).mean()
        # what the canvas cannot show must be blank, or the browser loses part of the figure
        drawn = (ours[..., 3] > 0) & (ours[..., :3] < 250).any(axis=-1)
        drawn[:h, :w] = False
        rows.append({"size": list(theirs.shape[:2]), "same_size": same_size,
                     "pixels_differing": float(differ), "cut_off_ink": int(drawn.sum())})
    return {"lesson": lesson, "protocol_size": list(ours.shape[:2]),
            "protocol_ink": ps.image_ink(student.first_image), "browsers": rows,
            "slider": student.slider, "errors": seen["errors"]}


def table(results: list[dict]) -> str:
    head = ("| students | first figure p50 | p95 | slowest | slider → new image p50 | p95 "
            "| server CPU / student: arrival | whole visit | peak server+kernels | failures |\n"
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    lines = [head]
    for r in results:
        lines.append(
            f"| {r['students']} | {r['ready_p50_s']:.1f} s | {r['ready_p95_s']:.1f} s "
            f"| {r['ready_max_s']:.1f} s | {r['move_p50_ms']:.0f} ms | {r['move_p95_ms']:.0f} ms "
            f"| {r['arrival_cpu_s'] / r['students']:.2f} s "
            f"| {r['server_cpu_s'] / r['students']:.2f} s "
            f"| {r['peak_server_mb'] / 1024:.2f} GB | {len(r['failures'])} |")
    return "\n".join(lines)


def largest_under_limit(results: list[dict]) -> int | None:
    ok = [r["students"] for r in results
          if not r["failures"] and r["ready_max_s"] < SLOW_LIMIT_S]
    return max(ok) if ok else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="classroom load test (loopback only)")
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--sweep", help="comma-separated student counts, e.g. 1,10,20,30")
    ap.add_argument("--kind", choices=("protocol", "chromium"), default="protocol")
    ap.add_argument("--lesson", default="01_gimbal_lock")
    ap.add_argument("--pool", type=int, default=None,
                    help="pre-heated kernels for the lesson (default: one per student); "
                         "0: no pre-heating at all")
    ap.add_argument("--assets", choices=("browser", "html", "none"), default="browser",
                    help="files a protocol student fetches besides the page: those a "
                         "Chromium page fetched (default), those the HTML names, or none")
    ap.add_argument("--moves", type=int, default=3)
    ap.add_argument("--deadline", type=float, default=120.0,
                    help="seconds a student may take from arriving to the last slider "
                         "answer before it counts as a failure")
    ap.add_argument("--check-browser", type=int, metavar="K",
                    help="compare K Chromium students' first canvas with a protocol "
                         "student's first image, and stop")
    ap.add_argument("--keep-going", action="store_true",
                    help="measure every count of --sweep, even past the 6 s target")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args(argv)
    if not re.fullmatch(r"[\w-]+", args.lesson):
        raise SystemExit(f"--lesson takes a notebook stem, got {args.lesson!r}")
    if (args.kind == "chromium" or args.check_browser) and not Path(CHROMIUM).exists():
        print(f"Debian's Chromium is missing at {CHROMIUM}", file=sys.stderr)
        return 2
    if args.check_browser:
        if not 1 <= args.check_browser <= 10:
            raise SystemExit("--check-browser takes 1 to 10 browsers")
        r = check_browser(args.lesson, args.check_browser, args.deadline)
        print(json.dumps(r, indent=1))
        if args.json:
            Path(args.json).write_text(json.dumps(r, indent=1))
        same = all(b["pixels_differing"] == 0 and b["cut_off_ink"] == 0 for b in r["browsers"])
        return 0 if same and len(r["browsers"]) == args.check_browser else 1
    counts = [int(x) for x in args.sweep.split(",")] if args.sweep else [args.students]
    limit = 60 if args.kind == "protocol" else 30
    if any(n < 1 or n > limit for n in counts):
        raise SystemExit(f"student counts must be between 1 and {limit} for {args.kind} "
                         "students (this runs on one machine)")
    results = []
    for n in counts:
        print(f"-- {n} {args.kind} students on {args.lesson} ...", file=sys.stderr, flush=True)
        r = measure(n, args.lesson, args.pool, args.moves, args.deadline, args.kind,
                    args.assets)
        results.append(r)
        print(table([r]).splitlines()[-1], file=sys.stderr, flush=True)
        print(f"   pre-heat {r['preheat_s']:.0f} s; server+kernels {r['server_cpu_s']:.1f} "
              f"CPU-s (Voila alone {r['voila_cpu_s']:.1f}; until the last first figure "
              f"{r['arrival_cpu_s']:.1f}), students' process {r['students_cpu_s']:.1f} CPU-s, "
              "whole machine "
              f"{r['machine_cpu_s']:.1f} CPU-s in {r['wall_s']:.1f} s; pages from the pool "
              f"{r['pre_heated_pages']}, refills started {r['refills_started']}; "
              f"{r['assets']} files besides the page", file=sys.stderr, flush=True)
        for f in r["failures"]:
            print("   FAILED", f, file=sys.stderr)
        if r["server_log"]:
            print("   server log kept at", r["server_log"], file=sys.stderr)
        if (r["failures"] or r["ready_max_s"] >= SLOW_LIMIT_S) and not args.keep_going:
            break
    print(table(results))
    best = largest_under_limit(results)
    print(f"\nlargest N with every student's figure working within {SLOW_LIMIT_S:.0f} s: "
          f"{best if best is not None else 'none of those tried'}")
    print(f"cores: {psutil.cpu_count()}, memory: {psutil.virtual_memory().total / 2**30:.1f} GB;"
          f" {args.kind} students ran on the same machine")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if any(r["failures"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
