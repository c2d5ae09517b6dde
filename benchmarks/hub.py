"""The lessons through JupyterHub against the same lessons on ``make classroom``.

N protocol students (:mod:`protocol_student`) open the same lesson at the same moment, first
through a trial JupyterHub of deploy/jupyterhub_config.py (each student logged in, with
their own single-user server already running and the lessons pulled into their home by
nbgitpuller, as after the login page), then on ``make classroom`` (tools/classroom.py, one
pre-heated kernel per student), on the same machine in the same run. Reported for each:
first figure p50/p95, slider step to new image p50/p95, memory per student (the servers and
kernels at the peak, divided by N) and CPU-seconds per arriving student (everything the
server side spent until the last student's page had all its figures, divided by N), and for
the hub the time a student's server takes to start and the CPU that costs. ``--sizes``
measures what the memory limits rest on: a student's server, and each lesson's kernel.
``--sign-in`` times what a student sees in Chromium from "Sign in" on the hub's login page
(:func:`measure_sign_in`), for one student or several arriving within ``--arrive-within``
seconds, and writes benchmarks/results/hub-sign-in.md.

:class:`Hub` (start a trial hub on loopback, create students through the REST API, spawn
their servers, pull the lessons, stop it all) is what tests/test_hub.py drives too.

    python benchmarks/hub.py --students 10
    python benchmarks/hub.py --students 10 --json hub.json
    python benchmarks/hub.py --sizes
    python benchmarks/hub.py --sign-in --students 1    # a real browser: "Sign in" to figure

Bounded like benchmarks/classroom.py: loopback only, a deadline per student, every server
stopped in ``finally``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

import psutil
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "deploy"))

import trial  # noqa: E402  (deploy/trial.py: the environment of `make hub`)

LESSONS_DIR = "game-maths-lessons"  # nbgitpuller's targetpath in deploy/z2jh/values.yaml


def free_port_run(count: int = 3) -> int:
    """A port p with p .. p+count-1 all free on loopback (the hub uses three)."""
    import socket

    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + count > 65535:
            continue
        try:
            for k in range(1, count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port + k))
            return port
        except OSError:
            continue
    raise RuntimeError("no run of free ports on loopback")


def resolve_localhost_subdomains() -> None:
    """Let this process reach ``<name>.localhost`` (each student's origin on the trial hub)
    as browsers do, on loopback: glibc resolves ``localhost`` but not its subdomains."""
    import socket

    if getattr(socket.getaddrinfo, "lessons_localhost", False):
        return
    system = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if isinstance(host, (str, bytes)) and \
                (host.decode() if isinstance(host, bytes) else host).endswith(".localhost"):
            host = "127.0.0.1"
        return system(host, *args, **kwargs)

    getaddrinfo.lessons_localhost = True
    socket.getaddrinfo = getaddrinfo


class HubError(RuntimeError):
    """The hub did not do what a student or the teacher needs."""


class Hub:
    """deploy/jupyterhub_config.py in trial mode (what ``make hub`` runs) on free loopback
    ports, with its state in a temporary folder and a service token for the REST API."""

    def __init__(self, cull_timeout: int | None = None, cull_every: int | None = None,
                 state: Path | None = None) -> None:
        resolve_localhost_subdomains()
        self.port = free_port_run()
        self.url = trial.public_url({"LESSONS_HUB_URL": f"http://127.0.0.1:{self.port}"})
        self._tmp = None if state else tempfile.TemporaryDirectory(prefix="lessons-hub-")
        self.state = Path(state or self._tmp.name)
        self.api_token = secrets.token_hex(32)
        self.env = trial.trial_env(self.port, self.state, cull_timeout, cull_every,
                                   self.api_token)
        self.password = self.env["LESSONS_HUB_PASSWORD"]
        self.admin_password = self.env["LESSONS_HUB_ADMIN_PASSWORD"]
        self.log_path = self.state / "hub.log"
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(trial.command(), cwd=self.state, env=self.env,
                                     stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.api = requests.Session()
        self.api.headers["Authorization"] = f"token {self.api_token}"
        self.peak_rss = 0
        self.cpu_samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._sampler: threading.Thread | None = None

    def user_url(self, name: str) -> str:
        """``name``'s server, on an origin of its own (deploy/jupyterhub_config.py)."""
        return f"http://{name}.localhost:{self.port}/user/{name}"

    # -- lifecycle ---------------------------------------------------------------------
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def log_about(self, name: str, lines: int = 60) -> str:
        """The log's warnings, errors and lines naming ``name``, the last ``lines`` of them:
        what a failed visit needs (the log's tail is mostly the culler's polling)."""
        keep = [line for line in self.log().splitlines()
                if name in line or line.startswith(("[W ", "[E ", "[C ", "Traceback"))
                or "Error" in line]
        return "\n".join(keep[-lines:])

    def wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise HubError("the hub exited:\n" + self.log()[-4000:])
            try:
                if self.api.get(f"{self.url}/hub/api/", timeout=5).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise HubError("the hub did not answer in time:\n" + self.log()[-4000:])

    def stop(self) -> None:
        """Stop the hub, its proxy and every student's server (SIGTERM, then SIGKILL)."""
        self._stop.set()
        if self._sampler is not None:
            self._sampler.join(timeout=5)
        try:
            tree = [self.proc.pid] + [p.pid for p in self.processes()]
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGTERM)  # the hub stops its servers
                try:
                    self.proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    pass
            for pid in tree[1:]:  # anything this hub started that outlived it
                try:
                    psutil.Process(pid).kill()
                except psutil.NoSuchProcess:
                    pass
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait(timeout=10)
        finally:
            self._log.close()
            self.api.close()
            if self._tmp is not None:
                self._tmp.cleanup()

    # -- REST API ----------------------------------------------------------------------
    def rest(self, method: str, path: str, expect: tuple[int, ...] = (200, 201),
             **kwargs) -> dict | None:
        # a request of its own, not the shared session: students spawn from many threads
        r = requests.request(method, f"{self.url}/hub/api{path}", timeout=60,
                             headers={"Authorization": f"token {self.api_token}"}, **kwargs)
        if r.status_code not in expect:
            raise HubError(f"{method} /hub/api{path}: HTTP {r.status_code} {r.text[:300]}")
        return r.json() if r.content else None

    def create_students(self, names: list[str]) -> None:
        self.rest("POST", "/users", json={"usernames": names}, expect=(201,))

    def token_for(self, name: str) -> str:
        return self.rest("POST", f"/users/{name}/tokens",
                         json={"note": "lessons test", "expires_in": 7200})["token"]

    def spawn(self, name: str) -> None:
        self.rest("POST", f"/users/{name}/server", expect=(201, 202))

    def spawn_all(self, names: list[str], timeout: float = 300.0) -> list[float]:
        """Start every student's server at once, as a class logging in together; the
        seconds each took, from the request to a ready server."""
        from concurrent.futures import ThreadPoolExecutor

        def one(name: str) -> float:
            t0 = time.monotonic()
            self.spawn(name)
            self.wait_running(name, timeout)
            return time.monotonic() - t0

        with ThreadPoolExecutor(max_workers=min(len(names), 16)) as pool:
            return list(pool.map(one, names))

    def server(self, name: str) -> dict | None:
        return self.rest("GET", f"/users/{name}")["servers"].get("")

    def wait_running(self, name: str, timeout: float = 180.0) -> float:
        """Until ``name``'s server is ready; the seconds it took."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            server = self.server(name)
            if server and server.get("ready"):
                return time.monotonic() - t0
            if server is None and time.monotonic() - t0 > 5:
                raise HubError(f"{name}'s server is not starting:\n" + self.log()[-3000:])
            time.sleep(0.25)
        raise HubError(f"{name}'s server did not start in {timeout:.0f} s:\n"
                       + self.log()[-3000:])

    def wait_stopped(self, name: str, timeout: float) -> float:
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.server(name) is None:
                return time.monotonic() - t0
            time.sleep(1.0)
        raise HubError(f"{name}'s server was not stopped in {timeout:.0f} s")

    def lessons_query(self) -> dict:
        """repo, branch and targetpath of the default URL the hub gave the students'
        servers (the nbgitpuller link they land on), as a server's log states it."""
        for line in self.log().splitlines():
            if "$JUPYTERHUB_DEFAULT_URL:" in line:
                url = line.split("$JUPYTERHUB_DEFAULT_URL:", 1)[1].strip()
                return dict(urllib.parse.parse_qsl(url.partition("?")[2]))
        raise HubError("no student server has said its default URL yet")

    def pull_lessons(self, name: str, token: str, timeout: float = 120.0) -> list[dict]:
        """What the default URL's page does: nbgitpuller's event stream, to 'finished'."""
        q = self.lessons_query()
        params = {"repo": q["repo"], "branch": q["branch"], "targetpath": q["targetpath"]}
        events = []
        with requests.get(f"{self.user_url(name)}/git-pull/api", params=params,
                          headers={"Authorization": f"token {token}"}, stream=True,
                          timeout=timeout) as r:
            if r.status_code != 200:
                raise HubError(f"git-pull for {name}: HTTP {r.status_code}")
            for line in r.iter_lines(decode_unicode=True):
                if line and line.startswith("data: "):
                    events.append(json.loads(line[6:]))
                    if events[-1].get("phase") in ("finished", "error"):
                        break
        if not events or events[-1].get("phase") != "finished":
            raise HubError(f"git-pull for {name} did not finish: {events[-3:]}")
        return events

    # -- what it costs -------------------------------------------------------------------
    def processes(self) -> list[psutil.Process]:
        """The proxy, the culler, the students' servers and their kernels."""
        try:
            return psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def servers_rss(self) -> int:
        """Memory of the students' servers and kernels (``jupyterhub-singleuser`` trees)."""
        total = 0
        for p in self.processes():
            try:
                if "jupyterhub-singleuser" in " ".join(p.cmdline()):
                    total += sum(q.memory_info().rss for q in [p, *p.children(recursive=True)])
            except psutil.NoSuchProcess:
                pass
        return total

    def cpu_s(self) -> float:
        """CPU seconds of the hub, proxy, servers and kernels so far."""
        total = 0.0
        for p in [psutil.Process(self.proc.pid), *self.processes()]:
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.NoSuchProcess:
                pass
        return total

    def start_sampling(self) -> None:
        def sample() -> None:
            while not self._stop.is_set():
                rss = 0
                for p in [psutil.Process(self.proc.pid), *self.processes()]:
                    try:
                        rss += p.memory_info().rss
                    except psutil.NoSuchProcess:
                        pass
                self.peak_rss = max(self.peak_rss, rss)
                self.cpu_samples.append((time.monotonic(), self.cpu_s()))
                self._stop.wait(0.25)

        self._sampler = threading.Thread(target=sample, daemon=True)
        self._sampler.start()

    def cpu_at(self, when: float) -> float:
        after = [c for t, c in self.cpu_samples if t >= when]
        return after[0] if after else self.cpu_s()


def render_path(name: str, lesson: str) -> str:
    return f"/user/{name}/voila/render/{LESSONS_DIR}/notebooks/{lesson}.ipynb"


async def visit_all(hub: Hub, names: list[str], tokens: dict[str, str], lesson: str,
                    moves: int, deadline_s: float) -> list:
    import protocol_student as ps

    students = [ps.ProtocolStudent(i) for i in range(len(names))]
    start = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(
        ps.visit(s, hub.user_url(name), render_path(name, lesson), tokens[name], start,
                 deadline_s, moves, None, token_in_header=True)
        for s, name in zip(students, names, strict=True))), timeout=deadline_s + 30)
    return students


def class_of(n: int) -> list[str]:
    return [f"student{i:02d}" for i in range(1, n + 1)]


def measure_hub(n: int, lesson: str, moves: int, deadline_s: float) -> dict:
    import protocol_student as ps
    from classroom import pct

    hub = Hub()
    try:
        hub.wait_ready()
        names = class_of(n)
        hub.create_students(names)
        tokens = {name: hub.token_for(name) for name in names}
        t0, login_cpu0 = time.monotonic(), hub.cpu_s()
        spawn_s = hub.spawn_all(names)
        spawn_all_s = time.monotonic() - t0
        login_cpu = hub.cpu_s() - login_cpu0  # the servers' start, hub and proxy included
        for name in names:
            hub.pull_lessons(name, tokens[name])
        time.sleep(3.0)  # the servers settle, as before a class
        idle_rss = hub.servers_rss()
        hub.start_sampling()
        cpu0 = hub.cpu_s()
        t0 = time.monotonic()
        students = asyncio.run(visit_all(hub, names, tokens, lesson, moves, deadline_s))
        wall = time.monotonic() - t0
        time.sleep(0.5)
        busy_rss = hub.servers_rss()
        peak = hub.peak_rss
        arrived = [s.all_images_s for s in students if s.all_images_s is not None]
        arrival_cpu = (hub.cpu_at(t0 + max(arrived)) - cpu0 if len(arrived) == n
                       else float("nan"))
        total_cpu = hub.cpu_s() - cpu0
    finally:
        hub.stop()
    failures = [f"student {s.index}: {s.error}" for s in students if s.error]
    failures += [f"student {s.index}: the first image is blank" for s in students
                 if s.first_image is not None and ps.image_ink(s.first_image) < 50]
    ready = [s.first_image_s for s in students if s.first_image_s is not None]
    moves_ms = [m for s in students for m in s.moves_ms]
    return {"route": "hub", "students": n, "lesson": lesson,
            "ready_p50_s": pct(ready, 0.5), "ready_p95_s": pct(ready, 0.95),
            "move_p50_ms": pct(moves_ms, 0.5), "move_p95_ms": pct(moves_ms, 0.95),
            "mb_per_student": busy_rss / n / 2**20, "idle_mb_per_student": idle_rss / n / 2**20,
            "peak_gb": peak / 2**30, "arrival_cpu_s": arrival_cpu / n,
            "visit_cpu_s": total_cpu / n, "login_cpu_s": login_cpu / n,
            "spawn_p50_s": pct(spawn_s, 0.5),
            "spawn_p95_s": pct(spawn_s, 0.95), "spawn_all_s": spawn_all_s, "wall_s": wall,
            "failures": failures}


def measure_sizes(n: int = 2, deadline_s: float = 240.0) -> list[dict]:
    """What the memory limits of deploy/z2jh/values.yaml rest on: the RSS of ``n``
    students' servers (idle, lessons pulled) and of each lesson's kernel, the lessons
    opened one after another and kept open; the largest of the ``n`` students."""
    from lessons_lib.catalogue import LESSONS

    def sizes() -> dict[str, tuple[float, list[float]]]:
        out = {}
        for p in hub.processes():
            try:
                if "jupyterhub-singleuser" not in " ".join(p.cmdline()):
                    continue
                user = p.environ().get("JUPYTERHUB_USER", str(p.pid))
                kernels = [k.memory_info().rss / 2**20 for k in p.children(recursive=True)]
                out[user] = (p.memory_info().rss / 2**20, kernels)
            except psutil.NoSuchProcess:
                pass
        return out

    hub = Hub()
    rows = []
    try:
        hub.wait_ready()
        names = class_of(n)
        hub.create_students(names)
        tokens = {name: hub.token_for(name) for name in names}
        hub.spawn_all(names)
        for name in names:
            hub.pull_lessons(name, tokens[name])
        time.sleep(2.0)
        now = sizes()
        rows.append({"after": "login", "server_mb": max(v[0] for v in now.values()),
                     "kernel_mb": float("nan")})
        for lesson in LESSONS:
            students = asyncio.run(visit_all(hub, names, tokens, lesson.slug, 1, deadline_s))
            errors = [s.error for s in students if s.error]
            if errors:
                raise HubError(f"{lesson.slug}: {errors}")
            now = sizes()
            rows.append({"after": lesson.slug, "server_mb": max(v[0] for v in now.values()),
                         "kernel_mb": max(v[1][-1] for v in now.values())})
        rows.append({"after": "(the hub itself)",
                     "server_mb": psutil.Process(hub.proc.pid).memory_info().rss / 2**20,
                     "kernel_mb": float("nan")})
    finally:
        hub.stop()
    return rows


def measure_classroom(n: int, lesson: str, moves: int, deadline_s: float) -> dict:
    import classroom

    r = classroom.measure(n, lesson, None, moves, deadline_s, "protocol", "none")
    return {"route": "classroom", "students": n, "lesson": lesson,
            "ready_p50_s": r["ready_p50_s"], "ready_p95_s": r["ready_p95_s"],
            "move_p50_ms": r["move_p50_ms"], "move_p95_ms": r["move_p95_ms"],
            "mb_per_student": r["peak_server_mb"] / n,
            "idle_mb_per_student": r["idle_server_mb"] / n,
            "peak_gb": r["peak_server_mb"] / 1024, "arrival_cpu_s": r["arrival_cpu_s"] / n,
            "visit_cpu_s": r["server_cpu_s"] / n, "login_cpu_s": float("nan"),
            "spawn_p50_s": float("nan"),
            "spawn_p95_s": float("nan"), "spawn_all_s": float("nan"), "wall_s": r["wall_s"],
            "preheat_s": r["preheat_s"], "failures": r["failures"]}


# -- "Sign in" to the first figure, in a browser ------------------------------------------
SIGN_IN_RESULTS = ROOT / "benchmarks" / "results" / "hub-sign-in.md"
#: The steps of a student's sign-in, in order, with what each one waits for.
SIGN_IN_STEPS = (("server_up_s", "server up: the first answer from the student's own server"),
                 ("index_s", "index shown: lesson 1's link on the lessons' index"),
                 ("lesson_html_s", "lesson 1's page in (its notebook run by Voila), "
                                   "clicked at once"),
                 ("figure_s", "lesson 1's first figure drawn"))
JS_FIRST_FIGURE = """() => { const B = window.__bench; return B.decoded.length > 0 &&
    B.paints.some(p => p[0] >= B.decoded[0]); }"""
JS_FIRST_FIGURE_AT = """() => { const B = window.__bench;
    return B.paints.find(p => p[0] >= B.decoded[0])[0]; }"""


async def sign_in(browser, hub: Hub, name: str, first: str, delay: float) -> dict:
    """One student in a browser of their own: the hub's login page, "Sign in", the index,
    lesson ``first``'s link at once; seconds from the click to each of SIGN_IN_STEPS."""
    import bench_browser

    await asyncio.sleep(delay)
    context = await browser.new_context(viewport={"width": 1280, "height": 720})
    await context.add_init_script(bench_browser.PAGE_HOOKS)
    page = await context.new_page()
    seen: dict[str, float] = {}
    page.on("response", lambda r: seen.setdefault(
        "server", time.time()) if r.url.startswith(hub.user_url(name)) else None)
    try:
        await page.goto(f"{hub.url}/hub/login", timeout=120_000)
        await page.fill("#username_input", name)
        await page.fill("#password_input", hub.password)
        t0 = time.time()
        await page.click("#login_submit")
        link = page.locator(f"a[href='{first}']").first
        await link.wait_for(timeout=180_000)
        index_s = time.time() - t0
        async with page.expect_navigation(wait_until="commit", timeout=180_000):
            await link.click()
        await page.wait_for_load_state("domcontentloaded", timeout=180_000)
        lesson_html_s = time.time() - t0
        await page.wait_for_function(JS_FIRST_FIGURE, timeout=180_000, polling=20)
        figure_at = await page.evaluate(JS_FIRST_FIGURE_AT) / 1000
        return {"name": name, "server_up_s": seen.get("server", float("nan")) - t0,
                "index_s": index_s, "lesson_html_s": lesson_html_s,
                "figure_s": figure_at - t0, "error": None}
    except Exception as exc:  # noqa: BLE001 - one student's failure is reported, not fatal
        return {"name": name, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    finally:
        await context.close()


async def sign_in_all(hub: Hub, names: list[str], first: str, within_s: float) -> list[dict]:
    from playwright.async_api import async_playwright

    import browser as harness

    gap = within_s / max(len(names) - 1, 1) if len(names) > 1 else 0.0
    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=harness.CHROMIUM, headless=True,
                                           args=harness.CHROMIUM_FLAGS)
        try:
            return await asyncio.gather(*(sign_in(chromium, hub, name, first, i * gap)
                                          for i, name in enumerate(names)))
        finally:
            await chromium.close()


def measure_sign_in(n: int, within_s: float, state: Path | None = None) -> dict:
    """``n`` students, never logged in before, sign in on a fresh trial hub within
    ``within_s`` seconds of each other; each opens lesson 1 from the index at once. The
    hub's log is kept in ``state`` when given (for a timeline)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from lessons import FIRST

    load = os.getloadavg()[0]
    hub = Hub(state=state)
    try:
        hub.wait_ready()
        names = class_of(n)
        hub.create_students(names)
        students = asyncio.run(sign_in_all(hub, names, FIRST.notebook, within_s))
    finally:
        hub.stop()
    return {"students": n, "within_s": within_s, "lesson": FIRST.slug, "rows": students,
            "load_before": load, "load_after": os.getloadavg()[0]}


def sign_in_table(result: dict) -> str:
    from classroom import pct

    ok = [r for r in result["rows"] if r["error"] is None]
    head = (f"{result['students']} student(s) arriving within {result['within_s']:.0f} s, "
            f"lesson {result['lesson']}; load average (1 min) {result['load_before']:.2f} "
            f"before, {result['load_after']:.2f} after; {len(ok)} of {result['students']} "
            "reached the figure")
    lines = [head, "", "| from \"Sign in\" to | p50 | max |", "|---|---:|---:|"]
    for key, what in SIGN_IN_STEPS:
        values = [r[key] for r in ok]
        if values:
            lines.append(f"| {what} | {pct(values, 0.5):.1f} s | {max(values):.1f} s |")
    lines += [f"- {r['name']}: {r['error']}" for r in result["rows"] if r["error"]]
    return "\n".join(lines)


def append_sign_in(text: str) -> None:
    """Add a run to benchmarks/results/hub-sign-in.md, dated, under the commit measured."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    if not SIGN_IN_RESULTS.exists():
        SIGN_IN_RESULTS.write_text("# A hub student from \"Sign in\" to the first figure\n\n"
                                   "`python benchmarks/hub.py --sign-in --students N` "
                                   "(Chromium, the trial hub on loopback, 2 cores).\n")
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with SIGN_IN_RESULTS.open("a") as out:
        out.write(f"\n## {stamp}, commit {commit}\n\n{text}\n")


def table(results: list[dict]) -> str:
    lines = ["| route | students | first figure p50 | p95 | slider → image p50 | p95 "
             "| memory / student | CPU / arriving student | whole visit | server start p50 "
             "| CPU / server start | failures |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        nan = r["spawn_p50_s"] != r["spawn_p50_s"]
        start = "—" if nan else f"{r['spawn_p50_s']:.1f} s"
        login = "—" if nan else f"{r['login_cpu_s']:.2f} s"
        lines.append(
            f"| {r['route']} | {r['students']} | {r['ready_p50_s']:.1f} s "
            f"| {r['ready_p95_s']:.1f} s | {r['move_p50_ms']:.0f} ms | {r['move_p95_ms']:.0f} ms "
            f"| {r['mb_per_student']:.0f} MB | {r['arrival_cpu_s']:.2f} s "
            f"| {r['visit_cpu_s']:.2f} s | {start} | {login} | {len(r['failures'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="lessons through JupyterHub vs make classroom "
                                             "(loopback only)")
    ap.add_argument("--students", type=int, default=10)
    ap.add_argument("--lesson", default="01_gimbal_lock")
    ap.add_argument("--moves", type=int, default=3)
    ap.add_argument("--deadline", type=float, default=180.0)
    ap.add_argument("--routes", default="hub,classroom",
                    help="comma-separated, in the order run (default hub,classroom)")
    ap.add_argument("--sizes", action="store_true",
                    help="measure a student's server and each lesson's kernel, and stop")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--sign-in", action="store_true",
                    help="time --students signing in with Chromium, and stop")
    ap.add_argument("--arrive-within", type=float, default=10.0,
                    help="with --sign-in: seconds over which the students arrive")
    ap.add_argument("--state", type=Path,
                    help="with --sign-in: keep the hub's state and log in this new folder")
    args = ap.parse_args(argv)
    if args.sign_in:
        result = measure_sign_in(args.students, args.arrive_within, args.state)
        text = sign_in_table(result)
        print(text)
        append_sign_in(text)
        return 1 if any(r["error"] for r in result["rows"]) else 0
    if args.sizes:
        rows = measure_sizes()
        print("| opened | student's server | the lesson's kernel |\n|---|---:|---:|")
        for r in rows:
            kernel = "" if r["kernel_mb"] != r["kernel_mb"] else f"{r['kernel_mb']:.0f} MB"
            print(f"| {r['after']} | {r['server_mb']:.0f} MB | {kernel} |")
        return 0
    if not 1 <= args.students <= 40:
        raise SystemExit("--students must be 1 to 40 (this runs on one machine)")
    load = os.getloadavg()
    results = []
    for route in args.routes.split(","):
        print(f"-- {args.students} students on {args.lesson} through {route} ...",
              file=sys.stderr, flush=True)
        fn = {"hub": measure_hub, "classroom": measure_classroom}[route]
        r = fn(args.students, args.lesson, args.moves, args.deadline)
        results.append(r)
        print(table([r]).splitlines()[-1], file=sys.stderr, flush=True)
        for f in r["failures"]:
            print("   FAILED", f, file=sys.stderr)
    print(table(results))
    print(f"\ncores: {psutil.cpu_count()}, memory: {psutil.virtual_memory().total / 2**30:.1f} GB; "
          f"load average at the start {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}, "
          f"at the end {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if any(r["failures"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
