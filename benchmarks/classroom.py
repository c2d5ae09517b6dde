"""How many students one laptop serves: a bounded load test on loopback.

N simulated students open the same lesson at the same moment, each in its own Chromium
browser context (Debian's /usr/bin/chromium through Playwright), from a server started
exactly as ``make classroom`` starts it (tools/classroom.py: voila.json, a token, a pool of
pre-heated kernels for the lesson) but listening on 127.0.0.1 only. Each student waits for
a drawn figure, then moves the first slider a few times from the keyboard.

Reported per N: time until the student sees a working figure (p50, p95, max), time from a
key press to new pixels under load (p50, p95), peak memory of the server and its kernels,
and failures (a page that never draws, a slider that never answers). A sweep stops at the
first N whose slowest student waits 10 s or more (or that has any failure) and reports the
largest N under 10 s.

Everything is bounded: each student has a deadline, each run a hard timeout, and every
browser context, the browser and the server are closed in ``finally``. The students'
browsers run on the same 2 cores as the server here, so the numbers are pessimistic for a
room where each student brings a device.

    python benchmarks/classroom.py                      # 20 students
    python benchmarks/classroom.py --students 5 --moves 2
    python benchmarks/classroom.py --sweep 5,10,15,20,25,30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
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
SLOW_LIMIT_S = 10.0


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
    """tools/classroom.py on 127.0.0.1 with a token; memory of its process tree sampled."""

    def __init__(self, lesson: str, pool: int) -> None:
        self.port = free_port()
        self.token = "".join(secrets.choice("0123456789") for _ in range(12))
        self.lesson = lesson
        self.pool = pool
        self.log_file = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)  # noqa: SIM115
        pool_args = ["--lesson", lesson, "--pool", str(pool)] if pool > 0 else ["--no-preheat"]
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tools" / "classroom.py"), "--ip", "127.0.0.1",
             "--port", str(self.port), "--token", self.token, *pool_args],
            cwd=ROOT, stdout=self.log_file, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}"
        self.peak_rss = 0
        self.idle_rss = 0
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

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak_rss = max(self.peak_rss, self.rss())
            self._stop.wait(0.25)

    def wait_ready(self, timeout: float = 240.0) -> None:
        """Until every notebook's pool is full and the machine is quiet again, as when a
        teacher starts the server before the class comes in."""
        deadline = time.monotonic() + timeout
        notebooks = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("classroom server exited:\n" + self.log()[-3000:])
            log = self.log()
            if self.pool == 0:
                ready = "Voilà is running at" in log or "is running at" in log
            else:
                ready = all(f"Kernel pool of {nb} is filled" in log for nb in notebooks)
            if ready:
                psutil.cpu_percent(None)
                time.sleep(2.0)
                if psutil.cpu_percent(None) > 60:  # kernels still drawing their first figure
                    continue
                self.idle_rss = self.rss()
                self._sampler.start()
                return
            time.sleep(0.5)
        raise TimeoutError(f"the pool for {self.lesson} was not filled within {timeout} s")

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


def measure(n: int, lesson: str, pool: int, moves: int, deadline_s: float) -> dict:
    server = Server(lesson, pool)
    try:
        server.wait_ready()
        cpu0 = psutil.cpu_times()
        server0 = server.cpu_s()
        t0 = time.monotonic()
        students = asyncio.run(run_students(server, n, moves, deadline_s))
        wall = time.monotonic() - t0
        cpu1 = psutil.cpu_times()
        server_cpu = server.cpu_s() - server0
        busy = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
        used_pool = server.log().count("Using pre-heated kernel")
    finally:
        failed = any(s.error for s in students) if "students" in locals() else True
        log_path = server.stop(keep_log=failed)
    ready = [s.ready_s for s in students if s.ready_s is not None]
    moves_ms = [m for s in students for m in s.moves_ms]
    failures = [f"student {s.index}: {s.error}" for s in students if s.error]
    failures += [f"student {s.index}: {len(s.moves_ms)} of {moves} slider moves answered"
                 for s in students if not s.error and len(s.moves_ms) != moves]
    return {
        "students": n, "lesson": lesson, "pool": pool, "moves": moves,
        "ready_p50_s": pct(ready, 0.5), "ready_p95_s": pct(ready, 0.95),
        "ready_max_s": max(ready) if ready else float("nan"),
        "html_p50_s": pct([s.html_s for s in students if s.html_s is not None], 0.5),
        "move_p50_ms": pct(moves_ms, 0.5), "move_p95_ms": pct(moves_ms, 0.95),
        "peak_server_mb": server.peak_rss / 2**20, "idle_server_mb": server.idle_rss / 2**20,
        "pre_heated_pages": used_pool, "machine_cpu_s": busy, "server_cpu_s": server_cpu,
        "wall_s": wall,
        "failures": failures, "server_log": log_path,
        "per_student": [asdict(s) for s in students],
    }


def table(results: list[dict]) -> str:
    head = ("| students | ready p50 | ready p95 | ready max | slider→pixels p50 | p95 "
            "| peak server+kernels | failures |\n|---:|---:|---:|---:|---:|---:|---:|---:|")
    lines = [head]
    for r in results:
        lines.append(
            f"| {r['students']} | {r['ready_p50_s']:.1f} s | {r['ready_p95_s']:.1f} s "
            f"| {r['ready_max_s']:.1f} s | {r['move_p50_ms']:.0f} ms | {r['move_p95_ms']:.0f} ms "
            f"| {r['peak_server_mb']:.0f} MB | {len(r['failures'])} |")
    return "\n".join(lines)


def largest_under_limit(results: list[dict]) -> int | None:
    ok = [r["students"] for r in results
          if not r["failures"] and r["ready_max_s"] < SLOW_LIMIT_S]
    return max(ok) if ok else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="classroom load test (loopback only)")
    ap.add_argument("--students", type=int, default=20)
    ap.add_argument("--sweep", help="comma-separated student counts, e.g. 5,10,20")
    ap.add_argument("--lesson", default="01_gimbal_lock")
    ap.add_argument("--pool", type=int, default=4,
                    help="pre-heated kernels for the lesson, as `make classroom POOL=`; "
                         "0: no pre-heating at all")
    ap.add_argument("--moves", type=int, default=3)
    ap.add_argument("--deadline", type=float, default=180.0,
                    help="seconds a student may wait for the page or a slider before it "
                         "counts as a failure")
    ap.add_argument("--keep-going", action="store_true",
                    help="measure every count of --sweep, even past the 10 s limit")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"Debian's Chromium is missing at {CHROMIUM}", file=sys.stderr)
        return 2
    counts = [int(x) for x in args.sweep.split(",")] if args.sweep else [args.students]
    if any(n < 1 or n > 60 for n in counts):
        raise SystemExit("student counts must be between 1 and 60 (this runs on one machine)")
    if not re.fullmatch(r"[\w-]+", args.lesson):
        raise SystemExit(f"--lesson takes a notebook stem, got {args.lesson!r}")
    results = []
    for n in counts:
        print(f"-- {n} students on {args.lesson} (pool {args.pool}) ...", file=sys.stderr,
              flush=True)
        r = measure(n, args.lesson, args.pool, args.moves, args.deadline)
        results.append(r)
        print(table([r]).splitlines()[-1], file=sys.stderr, flush=True)
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
          f" students' browsers ran on the same machine")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if any(r["failures"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
