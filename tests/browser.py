"""Reusable browser harness: Voila on a free loopback port, Debian's Chromium via Playwright.

Lesson tests use the fixtures in ``conftest.py`` (``voila_url``, ``page``) and the helpers
here: open a notebook, wait for its figure and sliders, move a slider from the keyboard,
wait until a canvas's pixels change, check that no error text shows, keep a screenshot.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SCREENSHOTS = ROOT / "tests" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
VIEWPORT = {"width": 1280, "height": 720}
#: The lessons' Voila template (share/jupyter/voila/templates/lessons), found through
#: JUPYTER_PATH; ``make voila`` and ``make classroom`` serve the lessons with it too.
TEMPLATE_ROOT = ROOT / "share" / "jupyter"
TEMPLATE_ARGS = ["--VoilaConfiguration.template=lessons"]
FIGURE = ".jupyter-matplotlib-figure canvas"
SLIDER = ".widget-slider"
#: Text that means a learner is looking at an error.
ERROR_MARKERS = ("Traceback (most recent call last)", "Error executing", "There was an error",
                 "Something went wrong")


def run_async(coro, timeout: float = 600.0):
    """``asyncio.run(coro)`` in a thread of its own: its result, or its error raised here.
    Once a browser test has run, Playwright's sync API keeps an event loop running in the
    test thread, where ``asyncio.run`` refuses to start; so a test that runs a coroutine
    works whatever ran before it."""
    pool = ThreadPoolExecutor(1)
    try:
        return pool.submit(asyncio.run, coro).result(timeout)
    finally:
        pool.shutdown(wait=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(proc: subprocess.Popen, grace: float = 15.0) -> None:
    """Ask a server to stop, and kill it if it has not stopped after ``grace`` seconds."""
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


class VoilaServer:
    """A Voila process serving ``notebooks/`` on 127.0.0.1, started and stopped by a fixture."""

    def __init__(self, extra_args: list[str] | None = None, token: str | None = None,
                 command: list[str] | None = None, port: int | None = None,
                 root: Path = NOTEBOOKS, env: dict[str, str] | None = None,
                 cwd: Path = ROOT) -> None:
        """Start Voila on ``root`` (notebooks/), or ``command`` (which must listen on ``port``),
        with ``env`` added to this process's environment, in folder ``cwd``."""
        self.port = port or free_port()
        self.token = token
        self.url = f"http://127.0.0.1:{self.port}"
        environ = dict(os.environ)
        if command is None:
            # what `make voila` runs: Voila whose tree root lands on the index
            command = [sys.executable, "-m", "lessons_server.landing", str(root), "--no-browser",
                       f"--port={self.port}", "--Voila.ip=127.0.0.1", *TEMPLATE_ARGS]
            if token is not None:
                command.append(f"--token={token}")
            environ = dict(with_template_path(os.environ))
        environ.update(env or {})
        command = command + (extra_args or [])
        self.log_path = ROOT / "tests" / "screenshots" / f"voila-{self.port}.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(command, cwd=cwd, stdout=self._log,
                                     stderr=subprocess.STDOUT, env=environ)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        url = self.url + "/" + (f"?token={self.token}" if self.token else "")
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"voila exited early; see {self.log_path}:\n"
                                   + self.log_path.read_text()[-3000:])
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.25)
        raise TimeoutError(f"voila did not answer on {self.url} within {timeout} s")

    def stop(self) -> None:
        stop_process(self.proc)
        self._log.close()

    def render_url(self, notebook: str) -> str:
        url = f"{self.url}/voila/render/{notebook}"
        return url + (f"?token={self.token}" if self.token else "")


def get_once(url: str, timeout: float = 30, cookies: str | None = None):
    """(status, body, headers) of a GET that does not follow redirects."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    req = urllib.request.Request(url, headers={"Cookie": cookies} if cookies else {})
    try:
        with opener.open(req, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace"), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace"), e.headers


def start_room(token: str, *args: str, timeout: float = 300.0) -> VoilaServer:
    """``python -m lessons_server.room`` (``make classroom``) on loopback with ``token`` and
    ``args``, once it has printed the address (its pool is pre-heated). Stop it with
    ``.stop()``."""
    port = free_port()
    server = VoilaServer(port=port, command=[
        sys.executable, "-m", "lessons_server.room", "--ip", "127.0.0.1", "--port", str(port),
        "--token", token, *args])
    server.token = token
    deadline = time.monotonic() + timeout
    while "Students open" not in server.log_path.read_text():
        if server.proc.poll() is not None or time.monotonic() > deadline:
            server.stop()
            raise RuntimeError("the room did not start:\n" + server.log_path.read_text()[-3000:])
        time.sleep(0.3)
    return server


def with_template_path(environ) -> dict:
    """``environ`` with the lessons' template folder first on JUPYTER_PATH."""
    paths = [str(TEMPLATE_ROOT), *filter(None, environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    return {**environ, "JUPYTER_PATH": os.pathsep.join(dict.fromkeys(paths))}


def chromium_missing_message() -> str:
    return (f"Debian's Chromium is not installed at {CHROMIUM}. Install it with "
            "`sudo apt-get update && sudo apt-get install -y chromium` to run the browser "
            "tests (never `playwright install`).")


def open_lesson(page, server: VoilaServer, notebook: str, timeout: float = 120_000,
                figures: int = 1, sliders: bool = True) -> None:
    """Open a notebook in Voila and wait until its figure(s) and sliders are on the page."""
    page.goto(server.render_url(notebook), timeout=timeout)
    page.wait_for_selector(FIGURE, timeout=timeout, state="visible")
    if sliders:   # a visible one: the first may be behind "More controls"
        page.wait_for_selector(f"{SLIDER} >> visible=true", timeout=timeout)
    if figures > 1:
        page.wait_for_function(
            f"document.querySelectorAll('.jupyter-matplotlib-figure').length >= {figures}",
            timeout=timeout)
    wait_idle(page)


def wait_idle(page, quiet_ms: int = 400, timeout: float = 10.0) -> None:
    """Wait until the main canvases stop changing for ``quiet_ms`` (the first draw is done)."""
    deadline = time.monotonic() + timeout
    last = canvas_images(page)
    stable_since = time.monotonic()
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        now = canvas_images(page)
        if now != last:
            last, stable_since = now, time.monotonic()
        elif (time.monotonic() - stable_since) * 1000 >= quiet_ms and any(now):
            return


def wait_layout_settled(locator, quiet_ms: int = 600, timeout: float = 20.0) -> None:
    """Wait until ``locator``'s element keeps its size for ``quiet_ms``: under load the
    page may still be laying out a panel (a feedback's lines, a zoom) after the pictures
    have settled."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        box = locator.evaluate("e => { const b = e.getBoundingClientRect(); "
                               "return [Math.round(b.width), Math.round(b.height)]; }")
        if box != last:
            last, since = box, time.monotonic()
        elif (time.monotonic() - since) * 1000 >= quiet_ms:
            return
        locator.page.wait_for_timeout(100)


def canvas_images(page) -> list[str]:
    """``toDataURL()`` of each figure's image canvas, in page order."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.jupyter-matplotlib-figure'))
              .map(f => { const c = f.querySelector('canvas');
                          return c ? c.toDataURL() : ''; })""")


def figure_canvas(page, index: int = 0):
    """The image canvas of figure ``index`` (each ipympl figure also has an overlay canvas,
    so ``page.locator(FIGURE).nth(i)`` is not figure i)."""
    return page.locator(".jupyter-matplotlib-figure").nth(index).locator("canvas").first


def slider_handle(page, label: str | None = None, index: int = 0):
    """The keyboard-focusable handle of a slider, found by its label (the whole label, or its
    first words: "Time" finds "Time (s)", and "t" does not find "to b") or by position."""
    sliders = page.locator(SLIDER)
    if label is not None:
        words = re.compile(rf"^\s*{re.escape(label)}(\s.*)?$", re.S)
        sliders = sliders.filter(has=page.locator(".widget-label", has_text=words))
    return sliders.nth(0 if label is not None else index).locator(".noUi-handle").first


def move_slider(page, label: str | None = None, index: int = 0, key: str = "ArrowRight",
                times: int = 1) -> None:
    """Focus a slider handle and press ``key`` ``times`` times, like a keyboard user."""
    handle = slider_handle(page, label, index)
    handle.scroll_into_view_if_needed()
    handle.focus()
    for _ in range(times):
        handle.press(key)


def wait_for_pixels_change(page, before: list[str], figure: int | None = None,
                           timeout: float = 15.0) -> list[str]:
    """Wait until a figure's canvas differs from ``before`` (any figure if None)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = canvas_images(page)
        if figure is None:
            changed = now != before
        else:
            changed = len(now) > figure and now[figure] != before[figure]
        if changed:
            return now
        page.wait_for_timeout(50)
    raise AssertionError(f"the figure's pixels did not change within {timeout} s")


def drag(page, a, b, steps: int = 10) -> None:
    """Press at page point ``a``, move to ``b`` in ``steps`` moves, release; lingering on
    ``b`` first, so that the last move reaches the kernel before the release."""
    page.mouse.move(*a)
    page.mouse.down()
    for k in range(1, steps + 1):
        page.mouse.move(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
        page.wait_for_timeout(60)
    for _ in range(3):
        page.wait_for_timeout(250)
        page.mouse.move(b[0] + 0.5, b[1])
        page.mouse.move(b[0], b[1])
    page.mouse.up()


def settled(page, read, timeout: float = 40.0):
    """``read()`` once it has returned the same for 1.5 s (the kernel has worked through
    every move of a drag), or its last value after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        now = read()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since > 1.5:
            break
        page.wait_for_timeout(250)
    return last


def page_errors(page) -> list[str]:
    """Error text a learner would see: tracebacks, Voila's cell errors, stderr outputs."""
    text = page.inner_text("body")
    found = [m for m in ERROR_MARKERS if m in text]
    stderr = page.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
    if stderr.count():
        found.append("stderr output: " + stderr.first.inner_text()[:300])
    return found


def assert_no_error_text(page) -> None:
    errors = page_errors(page)
    assert not errors, f"error text on the page: {errors}"


def screenshot(page, name: str, full_page: bool = False) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name.replace('/', '-')}.png"      # ko/01_x: one folder
    page.screenshot(path=str(path), full_page=full_page)
    return path


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


# -- JupyterLab, with the file browser open (a first visit's default) ---------------------
def lab_command(port: int, settings: Path) -> list[str]:
    """JupyterLab on notebooks/ with fresh settings under ``settings`` (so the file browser
    is open, as on a first visit), no token, no news or update checks, and no autosave (a
    notebook run by a test would be saved back with its outputs)."""
    for plugin, name, value in (("apputils-extension", "notification", '{"fetchNews": "false"}'),
                                ("docmanager-extension", "plugin", '{"autosave": false}')):
        folder = settings / "settings" / "@jupyterlab" / plugin
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.jupyterlab-settings").write_text(value)
    return [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
            "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
            "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={NOTEBOOKS}",
            f"--LabApp.user_settings_dir={settings / 'settings'}",
            f"--LabApp.workspaces_dir={settings / 'workspaces'}", "--allow-root",
            "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]


def open_in_lab(page, server: VoilaServer, notebook: str, figures: int = 1) -> None:
    """Open ``notebook`` in JupyterLab, run all its cells, and wait until the kernel is idle
    and ``figures`` figures have their first picture."""
    # ?reset: a fresh workspace, so a notebook an earlier test opened is not there too
    page.goto(f"{server.url}/lab/tree/{notebook}?reset", timeout=120_000)
    page.wait_for_selector(".jp-DirListing", state="visible", timeout=120_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
    page.wait_for_selector("text=| Idle", timeout=120_000)
    page.wait_for_timeout(1500)
    page.locator(".jp-Notebook").first.click()
    page.get_by_role("menuitem", name="Run").first.click()
    page.get_by_text("Run All Cells", exact=True).click()
    page.wait_for_function(
        f"document.querySelectorAll('.jupyter-matplotlib-figure').length >= {figures}",
        timeout=240_000)
    page.wait_for_selector("text=| Idle", timeout=240_000)
    page.locator(FIGURE).first.scroll_into_view_if_needed()
    page.wait_for_function("""() => { const c = document.querySelector(
        '.jupyter-matplotlib-figure canvas');
        if (!c || !c.width || !c.height) return false;     // no picture yet
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4000) if (d[i] < 200) return true;
        return false; }""", timeout=120_000)
    wait_idle(page, timeout=60)


def outside_output(page, figure: int = 0) -> list[str]:
    """What of the app around figure ``figure`` reaches past the right edge of its output
    area (clipped or hidden in JupyterLab), as "tag.class: right edge" strings."""
    return page.evaluate("""(i) => {
        const fig = document.querySelectorAll('.jupyter-matplotlib-figure')[i];
        const out = fig.closest('.jp-OutputArea-output') || document.body;
        const edge = out.getBoundingClientRect().right;
        const app = out.firstElementChild || out;
        return [...app.querySelectorAll('*')].filter(e => {
            const b = e.getBoundingClientRect();
            return b.width > 0 && b.height > 0 && b.right > edge + 1; })
          .slice(0, 8).map(e => `${e.tagName.toLowerCase()}.${e.className}: `
                                + Math.round(e.getBoundingClientRect().right)); }""", figure)
