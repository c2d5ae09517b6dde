"""What a person feels: from a key press, drag or click in Chromium to new pixels on the canvas.

Voila serves ``notebooks/`` (with ``voila.json``, as in class) and Debian's Chromium opens
each lesson at 1280x720 through Playwright, with the flags of ``tests/browser.py``. A script
in the page hooks ``drawImage`` on every ipympl figure's canvas (the repaint), the PNG's
arrival (``URL.createObjectURL``) and its decoding (the image drawn onto ipympl's offscreen
canvas), and listens for input events in the capture phase. Every latency runs from the
input event's own timestamp to the first repaint of a figure after it; the page is left
quiet (no repaint for a while, the kernels idle) before each sample.

Interactions, per lesson (see ``LESSONS``): a slider from the keyboard (one arrow key per
sample), a slider dragged with the mouse, buttons, a click and a drag on the figure, Play.
The controls are found on the page by what a person reads: sliders by ``.widget-slider``
and their label, buttons by their text or tooltip, so the benchmark does not depend on how
an app builds its widgets.

The breakdown comes from the kernel: ``browser_trace.py`` runs in every kernel (an IPython
startup file in a temporary ``IPYTHONDIR``) and logs, on the wall clock, each message from
the page and each Agg draw, PNG encoding and send. For each sample: *compute* is the time
in the control's callbacks (model, artists, panels), *draw* the Agg render, *encode* the
difference image and its PNG, *browser* the PNG's decoding and the repaint, and *transport*
the rest (messages through Voila's proxy and back, the kernel's queue, ipympl's draw
request round trip).

Also: painted frames per second during Play (and the real-time factor where the page shows
a ``t = ... s`` readout), and the time from opening the page to the first painted figure,
with Voila's pre-heated kernels and without them.

Run alone: ``python benchmarks/bench_browser.py [--compare[=data_url]] [gimbal slerp steering
funnel]``. ``--compare`` (or ``BENCH_BROWSER_COMPARE=1`` under ``make bench``) serves the
lessons twice, with the lessons' drawing path off (``LESSONS_FAST_DRAW=0``: plain ipympl) and
on, and the two pages take turns sample by sample so a shared machine's load hits both
alike. ``--compare=data_url`` does the same with pages that re-encode every new frame as a
data URL, as ipympl's page does, against the lessons' page, which skips that.
``--compare=screens``: the first keyboard slider of each lesson at 100%, at 150% browser
zoom and in presenter mode at 1920x1080 and at 1280x720 (issue 29), taking turns likewise.
``--compare=commit:REV``: the same pages served from commit REV's files (exported with
``git archive``, its package first on the kernels' path) and from this checkout, taking
turns: the A/B against the commit of ``results/latest.md`` that issue 42 asks for.
``BENCH_BROWSER_SAMPLES`` sets the samples per keyboard slider (12).
"""

from __future__ import annotations

import importlib
import json
import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))

from lessons_lib.apps.gimbal.model import LOCK_FRAMES, LOCK_INTERVAL_MS  # noqa: E402

import browser as harness  # noqa: E402  (tests/browser.py)
from common import row  # noqa: E402

SAMPLES = int(os.environ.get("BENCH_BROWSER_SAMPLES", "12"))
PLAY_SECONDS = 3.0
#: Pages opened per lesson for the first figure with a pre-heated kernel (a single one varies
#: by +-0.5 s on this machine).
FIRST_FIGURE_PAGES = int(os.environ.get("BENCH_FIRST_FIGURE_PAGES", "5"))
PAINT_TIMEOUT_MS = 20_000
MAX_MISSES = 2  # samples without a repaint before an interaction is given up

# -- what the page records ----------------------------------------------------------------
PAGE_HOOKS = r"""
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const B = window.__bench = {paints: [], decoded: [], received: [], inputs: [],
                              overlay: [], hidden: []};
  // the page's motion overlay taken away: what it covered shows (a visible change too)
  new MutationObserver((changes) => {
    for (const c of changes) {
      const el = c.target;
      if (el.classList && el.classList.contains('lesson-motion-overlay')
          && el.style.display === 'none' && !/display:\s*none/.test(c.oldValue || '')) {
        B.hidden.push(now());
      }
    }
  }).observe(document, {attributes: true, attributeFilter: ['style'], attributeOldValue: true,
                        subtree: true});
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (src, ...rest) {
    const out = draw.call(this, src, ...rest);
    const target = this.canvas;
    if (target && target.classList && target.classList.contains('lesson-motion-overlay')) {
      B.overlay.push(now());       // a frame drawn by the page (its background drawn first)
    } else if (src instanceof HTMLImageElement) {
      // a PNG drawn onto the offscreen canvas; ipympl also draws its image before any PNG
      // has come (on the canvas's first resize), which is not a picture
      if (src.naturalWidth > 0) B.decoded.push(now());
    } else if (target && target.isConnected && src instanceof HTMLCanvasElement) {
      const fig = target.closest('.jupyter-matplotlib-figure');
      if (fig) B.paints.push([now(), fig]);             // the visible canvas repainted
    }
    return out;
  };
  const createURL = URL.createObjectURL;
  URL.createObjectURL = function (blob) {
    if (blob && blob.type === 'image/png') B.received.push(now());
    return createURL.call(URL, blob);
  };
  for (const type of ['keydown', 'pointerdown', 'pointermove', 'pointerup', 'click']) {
    document.addEventListener(type, (e) => {
      B.inputs.push([performance.timeOrigin + e.timeStamp, type]);
    }, true);
  }
  B.figureIndex = (fig) =>
    Array.from(document.querySelectorAll('.jupyter-matplotlib-figure')).indexOf(fig);
})();
"""

def _rate(times: list[float]) -> float:
    """Events per second over the span of ``times`` (page ms); nan with fewer than two."""
    if len(times) < 2 or times[-1] <= times[0]:
        return float("nan")
    return (len(times) - 1) / ((times[-1] - times[0]) / 1000)


def _shown(state: dict, end: float) -> list[float]:
    """When new frames reached the screen up to ``end``: PNGs decoded onto a figure's
    canvas, and frames the page drew on its motion overlay (Play drawn by the page)."""
    return sorted(t for t in [*state["decoded"], *state["overlay"]] if t <= end)


JS_NOW = "() => performance.timeOrigin + performance.now()"
JS_STATE = """(since) => {
  const B = window.__bench;
  return {paints: B.paints.filter(p => p[0] > since).map(p => [p[0], B.figureIndex(p[1])]),
          decoded: B.decoded.filter(t => t > since),
          overlay: B.overlay.filter(t => t > since),
          hidden: B.hidden.filter(t => t > since),
          received: B.received.filter(t => t > since),
          inputs: B.inputs.filter(i => i[0] > since),
          now: performance.timeOrigin + performance.now()};
}"""
# A drag on a figure driven by the page itself: a press, then one mouse move at each of the
# display's frames (requestAnimationFrame, 60 a second here: faster than Playwright's mouse
# with its round trips, which moved every 25-30 ms), then the release; ipympl listens to
# these mouse events on its top canvas. Each is logged as the bench's own inputs are.
JS_FRAME_DRAG = """async ([x0, y0, x1, y1, steps]) => {
  const B = window.__bench;
  const now = () => performance.timeOrigin + performance.now();
  const target = document.elementFromPoint(x0, y0);
  const fire = (type, x, y, buttons) => target.dispatchEvent(new MouseEvent(type, {
      clientX: x, clientY: y, button: 0, buttons, bubbles: true, cancelable: true,
      view: window}));
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  await frame();
  B.inputs.push([now(), 'pointerdown']);
  fire('mousedown', x0, y0, 1);
  for (let j = 1; j <= steps; j++) {
    await frame();
    B.inputs.push([now(), 'pointermove']);
    fire('mousemove', x0 + (x1 - x0) * j / steps, y0 + (y1 - y0) * j / steps, 1);
  }
  await frame();
  B.inputs.push([now(), 'pointerup']);
  fire('mouseup', x1, y1, 0);
  return now();
}"""
JS_PAINTED_AFTER = """(since) => window.__bench.paints.some(p => p[0] > since)"""

# Tag the slider whose label reads best like `want`: exact, then prefix, then substring.
JS_TAG_SLIDER = r"""([want, tag]) => {
  const norm = s => s.replace(/\u00a0/g, ' ').trim().toLowerCase();
  const w = norm(want);
  const sliders = Array.from(document.querySelectorAll('.widget-slider'))
    .filter(s => s.offsetParent !== null && s.querySelector('.noUi-handle'));
  const label = s => norm((s.querySelector('.widget-label') || {}).textContent || '');
  const found = sliders.find(s => label(s) === w) || sliders.find(s => label(s).startsWith(w))
             || sliders.find(s => label(s).includes(w));
  if (!found) return null;
  found.setAttribute('data-bench', tag);
  return label(found);
}"""

# Tag the visible button whose text (or tooltip) reads best like `want`.
JS_TAG_BUTTON = r"""([want, tag]) => {
  const norm = s => (s || '').replace(/\u00a0/g, ' ').trim().toLowerCase();
  const w = norm(want);
  const buttons = Array.from(document.querySelectorAll('button'))
    .filter(b => b.offsetParent !== null && !b.disabled);
  const text = b => norm(b.textContent), tip = b => norm(b.title);
  const found = buttons.find(b => text(b) === w) || buttons.find(b => tip(b) === w)
             || buttons.find(b => text(b).startsWith(w)) || buttons.find(b => tip(b).includes(w));
  if (!found) return null;
  found.setAttribute('data-bench', tag);
  return text(found) || tip(found);
}"""

# The Play control: a visible button saying Play (a toggle), or ipywidgets' Play widget.
JS_TAG_PLAY = r"""(tag) => {
  const norm = s => (s || '').replace(/\u00a0/g, ' ').trim().toLowerCase();
  const visible = b => b.offsetParent !== null && !b.disabled;
  const buttons = Array.from(document.querySelectorAll('button')).filter(visible);
  let found = buttons.find(b => norm(b.textContent) === 'play')
           || buttons.find(b => norm(b.title) === 'play');
  if (!found) {
    const play = Array.from(document.querySelectorAll('.widget-play')).find(
      p => p.offsetParent !== null);
    found = play && play.querySelector('button');
  }
  if (!found) return null;
  found.setAttribute('data-bench', tag);
  return norm(found.textContent) || norm(found.title) || 'play widget';
}"""

JS_SLIDER_INFO = """(tag) => {
  const s = document.querySelector(`[data-bench="${tag}"]`);
  const h = s.querySelector('.noUi-handle');
  const num = k => parseFloat(h.getAttribute(k));
  return {now: num('aria-valuenow'), min: num('aria-valuemin'), max: num('aria-valuemax')};
}"""



# -- what each lesson offers --------------------------------------------------------------
@dataclass
class Lesson:
    name: str
    notebook: str
    keyboard: list[str]                       # slider labels, moved by arrow keys
    drag: list[str] = field(default_factory=list)                 # slider labels, dragged
    buttons: list[tuple[str, str]] = field(default_factory=list)  # pairs clicked in turn
    clicks: list[tuple[int, list[tuple[float, float]]]] = field(default_factory=list)
    figure_drag: list[tuple[int, tuple[float, float], tuple[float, float]]] = field(
        default_factory=list)                 # (figure, start, end) as canvas fractions
    #: (figure, start, end, what): drags that must start on an object (lesson 1's
    #: aircraft): each pressed at start, to end or to end's mirror image through start
    object_drag: list[tuple[int, tuple[float, float], tuple[float, float], str]] = field(
        default_factory=list)
    play: str | None = None                   # "module:Class" of the app Play runs in
    figures: int = 1
    #: (button, reset button, seconds, frames asked): an animation a button starts
    animations: list[tuple[str, str, float, int]] = field(default_factory=list)

    @property
    def frame(self):
        """The :class:`Frame` spec of the app Play moves (interval, step, label)."""
        module, cls = self.play.split(":")
        return getattr(importlib.import_module(module), cls).frame


LESSONS = [
    Lesson("gimbal", "01_gimbal_lock.ipynb", keyboard=["pitch (X)", "yaw (Y)"],
           drag=["roll (Z)"], buttons=[("Lock it", "Reset"), ("top", "3/4")],
           animations=[("Lock it", "Reset", LOCK_FRAMES * LOCK_INTERVAL_MS / 1000,
                         LOCK_FRAMES)],
           figure_drag=[(0, (0.3, 0.5), (0.55, 0.58))],
           # from the centre of the rings (on the fuselage, whatever the pose) to the right
           # and to the left: turns about the fin (issue 31's Fly it); the orbit above starts
           # off the aircraft
           object_drag=[(0, (0.513, 0.486), (0.63, 0.486), "the aircraft")]),
    # the figure: the start keyframe's ○ dragged across the sphere and back (issue 31; the
    # canvas fractions of its opening place and of (0.45, 0.3) on the sphere, wide layout)
    Lesson("slerp", "02_euler_vs_slerp.ipynb", keyboard=["t", "yaw"], drag=["t"],
           figure_drag=[(0, (0.783, 0.322), (0.86, 0.245))],
           play="lessons_lib.apps.interpolation:InterpolationApp"),
    Lesson("steering", "03_spline_steering.ipynb", keyboard=["Speed", "Time"],
           drag=["Time", "Speed"], clicks=[(0, [(0.25, 0.3), (0.42, 0.15)])],
           # the map of the big app; then the car of the Position Delta figure (figure 1)
           # dragged 4.5 m to the left of its line and back (its sign flips each way)
           figure_drag=[(0, (0.25, 0.3), (0.42, 0.15)), (1, (0.401, 0.77), (0.401, 0.612))],
           play="lessons_lib.apps.steering.app:SteeringApp", figures=2),
    Lesson("funnel", "04_funnel_algorithm.ipynb", keyboard=["step", "agent radius"],
           drag=["step"], buttons=[("previous step", "next step"),
                    ("pause and go back to the start", "finish")],
           # the grid: one cell's wall toggled; the map: the goal put on the floor 1.2 m
           # east, then 1.2 m north of where the lesson starts it (both away from either end)
           clicks=[(0, [(0.5, 0.5), (0.5, 0.5)]), (1, [(0.225, 0.296), (0.153, 0.184)])],
           # the map's goal (where the clicks above leave it) dragged about 3 m east and 3 m
           # south over the floor, and back (issue 43)
           figure_drag=[(1, (0.153, 0.184), (0.35, 0.45))],
           play="lessons_lib.apps.funnel.app:FunnelApp", figures=4),
]


# -- statistics -----------------------------------------------------------------------------
def stats(samples: list[float]) -> dict:
    s = sorted(samples)
    if not s:
        return {"median": float("nan"), "p90": float("nan"), "max": float("nan"), "n": 0}
    return {"median": statistics.median(s), "p90": s[min(len(s) - 1, int(0.9 * len(s)))],
            "max": s[-1], "n": len(s)}


# -- the kernels' trace -----------------------------------------------------------------------
class Trace:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def events(self, t0_ms: float, t1_ms: float) -> list[dict]:
        """The events that started between ``t0_ms`` and ``t1_ms``, from the one kernel that
        received messages from the page then (other kernels may be pre-heating)."""
        out = []
        for path in self.directory.glob("*.jsonl"):
            pid = int(path.stem)
            for line in path.read_text().splitlines():
                try:
                    e = json.loads(line)
                except ValueError:
                    continue  # a line being written
                if t0_ms <= e["t0"] * 1000 <= t1_ms:
                    e["pid"] = pid
                    out.append(e)
        counts: dict[int, int] = {}
        for e in out:
            if e["ev"] == "msg":
                counts[e["pid"]] = counts.get(e["pid"], 0) + 1
        if counts:
            pid = max(counts, key=counts.get)
            out = [e for e in out if e["pid"] == pid]
        return sorted(out, key=lambda e: e["t0"])


def breakdown(events: list[dict], t_in: float, t_paint: float, received: list[float]) -> dict:
    """Split ``t_paint - t_in`` (ms) into compute, draw, encode, browser and transport;
    ``round_trip`` (part of transport) is ipympl's draw request: from the end of the
    control's callbacks to the browser's "draw" message arriving back in the kernel."""
    def ms(e):
        return (e["t1"] - e["t0"]) * 1000

    def inside(e, msgs):
        return any(m["t0"] <= e["t0"] <= m["t1"] for m in msgs)

    def top(kind):  # a painter's render holds an Agg draw: count the outer one only
        found = [e for e in events if e["ev"] == kind]
        return [e for e in found
                if not any(o is not e and o["t0"] <= e["t0"] and e["t1"] <= o["t1"]
                           for o in found)]

    draws = top("agg_draw")
    encodes = top("encode")
    msgs = [e for e in events if e["ev"] == "msg"]
    requests = [m for m in msgs if m.get("type") == "draw"]
    controls = [m for m in msgs if m.get("type") != "draw"]
    draw = sum(ms(e) for e in draws)
    encode = sum(ms(e) for e in encodes)
    # the control's callbacks (model, artists, panels) without any drawing done inside them
    compute = (sum(ms(m) for m in controls)
               - sum(ms(e) for e in draws + encodes if inside(e, controls)))
    round_trip = float("nan")
    if controls and requests:
        round_trip = max(0.0, (requests[0]["t0"] - controls[0]["t1"]) * 1000)
    elif requests:
        round_trip = 0.0
    before = [r for r in received if r <= t_paint]
    browser = t_paint - before[-1] if before else float("nan")
    total = t_paint - t_in
    transport = total - compute - draw - encode - (browser if before else 0.0)
    # the kernel thread's own CPU in all of it: far below compute + draw + encode when the
    # kernel waited for a core (Chromium and Voila share the machine's two)
    cpu = 1000 * (sum(m.get("cpu", float("nan")) for m in msgs)
                  + sum(e.get("cpu", float("nan")) for e in draws + encodes
                        if not inside(e, msgs)))
    return {"total": total, "compute": compute, "draw": draw, "encode": encode,
            "browser": browser, "transport": transport, "round_trip": round_trip,
            "kernel_cpu": cpu}


# -- the server and the page ----------------------------------------------------------------
#: Seconds after a page takes a pre-heated kernel before Voila starts its replacement
#: (``VoilaKernelManager.fill_delay`` in voila.json): a page opened sooner waits for it.
REFILL_DELAY_S = float(json.loads((ROOT / "voila.json").read_text())
                       .get("VoilaKernelManager", {}).get("fill_delay", 1.0))


def refilled(server: harness.VoilaServer, since: float, delay: float = REFILL_DELAY_S) -> None:
    """Wait until the kernel a page took at ``since`` (``time.monotonic()``) has been
    replaced: its refill has started, then the server and its kernels are quiet."""
    time.sleep(max(0.0, since + delay + 0.5 - time.monotonic()))
    server_quiet(server)


def server_quiet(server: harness.VoilaServer, idle_share: float = 0.12, quiet_s: float = 1.5,
                 timeout: float = 120.0, tick: float = 0.5) -> None:
    """Wait until Voila and its kernels have used under ``idle_share`` of a core for
    ``quiet_s`` (a pre-heated kernel being refilled would otherwise share the machine)."""
    root = psutil.Process(server.proc.pid)
    deadline = time.monotonic() + timeout
    quiet_since = None
    while time.monotonic() < deadline:
        procs = [root, *root.children(recursive=True)]
        before = {}
        for p in procs:
            try:
                t = p.cpu_times()
                before[p.pid] = t.user + t.system
            except psutil.Error:
                pass
        time.sleep(tick)
        used = 0.0
        for p in procs:
            try:
                t = p.cpu_times()
                used += t.user + t.system - before.get(p.pid, t.user + t.system)
            except psutil.Error:
                pass
        if used / tick < idle_share:
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since >= quiet_s:
                return
        else:
            quiet_since = None


def page_quiet(page, quiet_ms: float = 350, timeout_s: float = 15.0) -> None:
    """Wait until no figure has repainted for ``quiet_ms``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        last = page.evaluate("() => { const p = window.__bench.paints; "
                             "return p.length ? p[p.length - 1][0] : 0; }")
        now = page.evaluate(JS_NOW)
        if now - last >= quiet_ms:
            return
        page.wait_for_timeout(max(30, quiet_ms - (now - last)))


def wait_paint_after(page, since: float, timeout_ms: float = PAINT_TIMEOUT_MS) -> bool:
    try:
        page.wait_for_function(JS_PAINTED_AFTER, arg=since, timeout=timeout_ms, polling=10)
        return True
    except Exception:  # playwright's TimeoutError: a sample with no repaint
        return False


class Session:
    """One lesson page of one variant; interactions add samples, :meth:`rows` sums up.

    Every interaction can be called several times with a few samples each, so that two
    variants (pages on two servers) can take turns and share the machine's load alike.
    """

    def __init__(self, page, server, trace: Trace, lesson: Lesson, tag: str = "") -> None:
        self.page, self.server, self.trace, self.lesson = page, server, trace, lesson
        self.tag = tag
        self.latency: dict[str, list[dict]] = {}     # what -> samples (breakdowns)
        self.drags: dict[str, list[tuple[float, float]]] = {}   # what -> (lag, repaints/s)
        self.drag_moves: dict[str, str] = {}     # what -> how its pointer moved
        self.moves: dict[str, list[float]] = {}      # what -> each move's first repaint, ms
        self.missed: dict[str, int] = {}
        self.extra: list[dict] = []
        self._turn: dict[str, int] = {}

    @property
    def prefix(self) -> str:
        return f"{self.lesson.name}{self.tag}"

    def _settle(self) -> None:
        page_quiet(self.page)
        server_quiet(self.server, quiet_s=0.5, timeout=30, tick=0.25)

    def _next(self, what: str) -> int:
        """How many samples of ``what`` this session took so far (to alternate inputs)."""
        i = self._turn.get(what, 0)
        self._turn[what] = i + 1
        return i

    def _sample(self, what: str, act, input_type: str) -> None:
        """Run ``act``; keep the latency from its input event to the first repaint."""
        page = self.page
        if self.missed.get(what, 0) >= MAX_MISSES:
            return  # this interaction repaints nothing here: say so once, do not wait again
        self._settle()
        start = page.evaluate(JS_NOW)
        act()
        st = None
        if wait_paint_after(page, start):
            page_quiet(page)
            st = page.evaluate(JS_STATE, start)
        inputs = [t for t, kind in st["inputs"] if kind == input_type] if st else []
        t_in = inputs[0] if inputs else start
        paints = [t for t, _ in st["paints"] if t > t_in] if st else []
        if not paints:
            self.missed[what] = self.missed.get(what, 0) + 1
            return
        b = breakdown(self.trace.events(t_in, paints[0]), t_in, paints[0], st["received"])
        b["settled"] = paints[-1] - t_in
        self.latency.setdefault(what, []).append(b)

    def _unavailable(self, what: str, why: str) -> None:
        if not any(r["name"].endswith(what) for r in self.extra):
            self.extra.append(row(f"{self.prefix}: {what}", float("nan"), note=why))

    # -- interactions ---------------------------------------------------------------------
    def _find_slider(self, label: str, what: str, tag: str):
        """Tag the slider labelled ``label``; its locator, or None (and a row) if missing."""
        if self.page.evaluate(JS_TAG_SLIDER, [label, tag]) is None:
            self._unavailable(what, "slider not found")
            return None
        return self.page.locator(f'[data-bench="{tag}"]')

    def keyboard(self, label: str, n: int) -> None:
        """``n`` arrow-key presses on a slider, away from its nearer end and back in turn."""
        page, what, tag = self.page, f"slider '{label}' key", "kbd-" + label
        slider = self._find_slider(label, what, tag)
        if slider is None:
            return
        handle = slider.locator(".noUi-handle").first
        handle.scroll_into_view_if_needed()
        info = page.evaluate(JS_SLIDER_INFO, tag)
        up = info["max"] - info["now"] >= info["now"] - info["min"]
        keys = ("ArrowRight", "ArrowLeft") if up else ("ArrowLeft", "ArrowRight")
        handle.focus()
        for _ in range(n):
            key = keys[self._next(what) % 2]
            self._sample(what, lambda key=key: handle.press(key), "keydown")

    def buttons(self, pair: tuple[str, str], n: int) -> None:
        page, what = self.page, f"buttons '{pair[0]}' / '{pair[1]}'"
        locs = []
        for j, text in enumerate(pair):
            tag = f"btn-{j}-{text}"
            if page.evaluate(JS_TAG_BUTTON, [text, tag]) is None:
                # behind an app's "More controls" (lesson 1's views): opened as a person would
                more = page.locator("button", has_text="More controls")
                for k in range(more.count()):
                    found = page.evaluate(JS_TAG_BUTTON, [text, tag]) is not None
                    if not found and more.nth(k).is_visible():
                        more.nth(k).click()
                        page.wait_for_timeout(300)
            if page.evaluate(JS_TAG_BUTTON, [text, tag]) is None:
                return self._unavailable(what, f"button '{text}' not found")
            locs.append(page.locator(f'[data-bench="{tag}"]').first)
        locs[0].scroll_into_view_if_needed()
        for _ in range(n):
            button = locs[self._next(what) % 2]
            self._sample(what, button.click, "click")

    def figure_clicks(self, figure: int, points: list[tuple[float, float]], n: int) -> None:
        page, what = self.page, f"click on figure {figure}"
        canvas = harness.figure_canvas(page, figure)
        canvas.scroll_into_view_if_needed()
        for _ in range(n):
            fx, fy = points[self._next(what) % len(points)]

            def act(fx=fx, fy=fy):
                box = canvas.bounding_box()
                page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])

            self._sample(what, act, "pointerdown")

    def _drag(self, what: str, points, steps: int, figure: int | None = None) -> None:
        """Press at ``points[0]``, move through ``steps`` moves to ``points[1]``, release;
        keep (release -> last repaint, repaints/s while dragging) and, for each move, the
        time to the next repaint of ``figure`` (any figure when None): what the hand feels
        while it drags. On a figure (``figure`` given) the page moves the mouse at each
        display frame (:data:`JS_FRAME_DRAG`); a slider is dragged by Playwright's mouse,
        ~16 ms apart (its pointer events need a real pointer)."""
        page = self.page
        self._settle()
        (x0, y0), (x1, y1) = points()
        start = page.evaluate(JS_NOW)
        if figure is not None:
            up = page.evaluate(JS_FRAME_DRAG, [x0, y0, x1, y1, steps])
            self.drag_moves[what] = "a move at each display frame"
        else:
            page.mouse.move(x0, y0)
            page.mouse.down()
            for j in range(1, steps + 1):
                page.mouse.move(x0 + (x1 - x0) * j / steps, y0 + (y1 - y0) * j / steps)
                page.wait_for_timeout(16)
            page.mouse.up()
            up = page.evaluate(JS_NOW)
            self.drag_moves[what] = "moves every ~16 ms"
        wait_paint_after(page, start, timeout_ms=5000)
        page_quiet(page, quiet_ms=500)
        st = page.evaluate(JS_STATE, start)
        # a repaint: of a figure's canvas, or a frame the page drew over it (a drag drawn
        # by the page, issue 43: only the dragged figure's overlay draws during a drag)
        paints = sorted([t for t, _ in st["paints"]] + st["overlay"])
        # settled: the last change on the screen, the overlay's going included (until then
        # it covers the kernel's picture)
        changes = sorted(paints + st["hidden"])
        if not paints:
            self.missed[what] = self.missed.get(what, 0) + 1
            return
        down = next((t for t, kind in st["inputs"] if kind == "pointerdown"), start)
        rate = len([t for t in paints if t <= up]) / max((up - down) / 1000, 1e-3)
        self.drags.setdefault(what, []).append((max(0.0, changes[-1] - up), rate))
        mine = sorted([t for t, f in st["paints"] if figure is None or f == figure]
                      + st["overlay"])
        for t in (t for t, kind in st["inputs"] if kind == "pointermove" and down <= t <= up):
            later = [p for p in mine if p > t]
            if later:
                self.moves.setdefault(what, []).append(later[0] - t)

    def slider_drag(self, label: str, n: int) -> None:
        what = f"slider '{label}' drag"
        slider = self._find_slider(label, what, "drag-" + label)
        if slider is None:
            return
        track = slider.locator(".noUi-target").first
        handle = slider.locator(".noUi-handle").first
        track.scroll_into_view_if_needed()

        def points():
            tb, hb = track.bounding_box(), handle.bounding_box()
            x0, y = hb["x"] + hb["width"] / 2, hb["y"] + hb["height"] / 2
            right = (x0 - tb["x"]) / tb["width"] <= 0.5
            return (x0, y), (tb["x"] + tb["width"] * (0.8 if right else 0.2), y)

        for _ in range(n):
            self._drag(what, points, 24)

    def figure_drag(self, figure: int, a: tuple[float, float], b: tuple[float, float],
                    n: int) -> None:
        page, what = self.page, f"drag on figure {figure}"
        canvas = harness.figure_canvas(page, figure)
        canvas.scroll_into_view_if_needed()
        for _ in range(n):
            p, q = (a, b) if self._next(what) % 2 == 0 else (b, a)

            def points(p=p, q=q):
                box = canvas.bounding_box()
                return ((box["x"] + p[0] * box["width"], box["y"] + p[1] * box["height"]),
                        (box["x"] + q[0] * box["width"], box["y"] + q[1] * box["height"]))

            self._drag(what, points, 30, figure=figure)

    def object_drag(self, figure: int, a: tuple[float, float], b: tuple[float, float],
                    label: str, n: int) -> None:
        """Drags that must start on an object (at ``a``, canvas fractions): to ``b``, then to
        its mirror image through ``a``, in turn (so the object ends about where it began)."""
        page, what = self.page, f"drag on {label} (figure {figure})"
        canvas = harness.figure_canvas(page, figure)
        canvas.scroll_into_view_if_needed()
        for _ in range(n):
            q = b if self._next(what) % 2 == 0 else (2 * a[0] - b[0], 2 * a[1] - b[1])

            def points(q=q):
                box = canvas.bounding_box()
                return ((box["x"] + a[0] * box["width"], box["y"] + a[1] * box["height"]),
                        (box["x"] + q[0] * box["width"], box["y"] + q[1] * box["height"]))

            self._drag(what, points, 30, figure=figure)

    def play(self) -> None:
        """New frames shown per second during Play, and how far the frame moved against
        how far Play asks it to move in that time (its step per interval): x1.00 is a Play
        that keeps time (real time for steering's seconds)."""
        page, frame = self.page, self.lesson.frame
        if page.evaluate(JS_TAG_PLAY, "play") is None:
            return self._unavailable("Play", "Play not found")
        if page.evaluate(JS_TAG_SLIDER, [frame.label, "frame"]) is None:
            return self._unavailable("Play", f"no slider {frame.label!r}")
        button = page.locator('[data-bench="play"]').first
        readout = page.locator('[data-bench="frame"] .widget-readout').first
        button.scroll_into_view_if_needed()
        self._settle()
        value0 = float(readout.inner_text())
        start = page.evaluate(JS_NOW)
        button.click()
        page.wait_for_timeout(1000)                 # past the start (the click's trip)
        value_mid, mid = float(readout.inner_text()), page.evaluate(JS_NOW)
        page.wait_for_timeout(PLAY_SECONDS * 1000 - 1000)
        value1 = float(readout.inner_text())
        end = page.evaluate(JS_NOW)
        self._stop_play()
        st = page.evaluate(JS_STATE, start)
        paints = [t for t, _ in st["paints"] if t <= end]
        # a frame shown is a new image decoded onto the canvas (a repaint may show the
        # same image again: the page repaints the visible canvas for other reasons too), or
        # a frame the page drew itself on the overlay (issue 43)
        frames = _shown(st, end)
        seconds = (end - start) / 1000
        def asked(a, b):          # Play's own seconds from frame value a to b
            return (b - a) / frame.step * frame.interval_ms / 1000

        restarted = value1 < value0     # Play at the last frame starts again from the first
        if restarted:
            value0 = float(frame.at(0))
        if value1 < value_mid:          # it ran to the end and started again in the window
            value_mid = float(frame.at(0))
        steady = asked(value_mid, value1) / ((end - mid) / 1000)
        note = [f"{PLAY_SECONDS:.0f} s of Play",
                f"asks {1000 / frame.interval_ms:.1f} fps (interval {frame.interval_ms} ms)",
                f"{_rate(paints):.1f} repaints/s",
                f"{frame.label} {value0:g}{' (Play started again there)' if restarted else ''}"
                f" -> {value1:g} in {seconds:.2f} s "
                f"(x{asked(value0, value1) / seconds:.2f} of Play's own time from the click, "
                f"x{steady:.2f} after its first second)"]
        self.extra.append(row(f"{self.prefix}: Play, new frames shown per second",
                              _rate(frames), unit="fps", note="; ".join(note)))

    def animation(self, button: str, reset: str, seconds: float, asked: int) -> None:
        """New frames shown per second while the animation ``button`` starts runs (it asks
        for ``asked`` frames in ``seconds``), and how long it took on the page."""
        page, what = self.page, f"'{button}' animation"
        for j, text in enumerate((button, reset)):
            if page.evaluate(JS_TAG_BUTTON, [text, f"anim-{j}"]) is None:
                return self._unavailable(what, f"button '{text}' not found")
        start_button = page.locator('[data-bench="anim-0"]').first
        page.locator('[data-bench="anim-1"]').first.click()
        self._settle()
        start = page.evaluate(JS_NOW)
        start_button.click()
        page.wait_for_timeout(int((seconds + 1.0) * 1000))
        frames = _shown(page.evaluate(JS_STATE, start), math.inf)
        if len(frames) < 2:
            return self._unavailable(what, f"{len(frames)} frames shown")
        span = (frames[-1] - frames[0]) / 1000
        self.extra.append(row(
            f"{self.prefix}: {what}, new frames shown per second", (len(frames) - 1) / span,
            unit="fps", note=f"asks {asked / seconds:.0f} fps ({asked} frames in {seconds:g} s); "
            f"{len(frames)} frames shown, first {frames[0] - start:.0f} ms after the click, "
            f"the last {span:.2f} s after the first"))

    def _stop_play(self) -> None:
        page = self.page
        for want in ("pause", "stop"):
            if page.evaluate(JS_TAG_BUTTON, [want, "stop-" + want]) is not None:
                page.locator(f'[data-bench="stop-{want}"]').first.click()
                return
        play = page.locator(".widget-play button")
        if play.count() > 1:
            play.nth(1).click()

    # -- the table ------------------------------------------------------------------------
    def rows(self) -> list[dict]:
        out = []
        for what, samples in self.latency.items():
            total = stats([s["total"] for s in samples])
            parts = {k: statistics.median([s[k] for s in samples if s[k] == s[k]]
                                          or [float("nan")])
                     for k in ("compute", "draw", "encode", "transport", "round_trip",
                               "browser", "kernel_cpu")}
            split = ", ".join(f"{k.replace('_', ' ')} {v:.0f}" for k, v in parts.items())
            miss = self.missed.get(what, 0)
            out.append(row(f"{self.prefix}: {what} -> repaint", total,
                           note=f"n={total['n']}" + (f" ({miss} without repaint)" if miss else "")
                                + f"; median ms: {split}"))
        for what, miss in self.missed.items():
            if what not in self.latency and what not in self.drags:
                out.append(row(f"{self.prefix}: {what}", float("nan"),
                               note=f"no repaint within {PAINT_TIMEOUT_MS / 1000:.0f} s "
                                    f"({miss} tries)"))
        for what, samples in self.drags.items():
            total = stats([lag for lag, _ in samples])
            rate = statistics.median([r for _, r in samples])
            out.append(row(f"{self.prefix}: {what}, release -> settled", total,
                           note=f"n={total['n']}; {rate:.1f} repaints/s while dragging "
                                f"({self.drag_moves.get(what, '')})"))
        for what, samples in self.moves.items():
            out.append(row(f"{self.prefix}: {what}, move -> repaint", stats(samples),
                           note=f"n={len(samples)} moves; each pointer move to the next "
                                "repaint of that figure"))
        return out + self.extra


# -- time to the first figure --------------------------------------------------------------
def first_figure_s(context, server, lesson: Lesson) -> float:
    page = context.new_page()
    try:
        t0 = time.time() * 1000
        page.goto(server.render_url(lesson.notebook), timeout=180_000)
        page.wait_for_function(
            """() => { const B = window.__bench; return B.decoded.length > 0 &&
                 B.paints.some(p => p[0] >= B.decoded[0]); }""", timeout=180_000, polling=20)
        t = page.evaluate("""() => { const B = window.__bench;
                               return B.paints.find(p => p[0] >= B.decoded[0])[0]; }""")
        return (t - t0) / 1000
    finally:
        page.close()


# -- the run ----------------------------------------------------------------------------------
@dataclass
class Variant:
    """One way of serving the lessons: a tag for the table, environment for Voila and a
    script for its pages (run before the page's own)."""
    tag: str = ""
    env: dict = field(default_factory=dict)
    init_script: str = ""
    viewport: tuple[int, int] = (harness.VIEWPORT["width"], harness.VIEWPORT["height"])
    scale: float = 1.0                        # the page's zoom (device pixel ratio)
    checkout: Path | None = None              # serve another commit's files (commit:REV)


#: Gives the page back the browser's own toDataURL once the lessons' template has replaced it
#: (it skips ipympl's re-encoding of every frame): the page as Voila's lab template makes it.
KEEP_DATA_URL = """(() => {
  const real = HTMLCanvasElement.prototype.toDataURL;
  document.addEventListener('DOMContentLoaded', () => {
    HTMLCanvasElement.prototype.toDataURL = real;
  });
})();"""
#: The page in presenter mode from the start (as ``?present=1`` or the P key leave it). Set
#: when the document is parsed, before the page's own DOMContentLoaded handler reads it: set
#: from the init script directly (before the page's markup is parsed) the class did not
#: survive, and the "presenter" rows measured the normal page at that size until 2026-12-04.
PRESENTER = ("document.addEventListener('DOMContentLoaded', () => "
             "document.documentElement.classList.add('lessons-present'));")
COMPARISONS = {
    "1": [Variant(" [off]", {"LESSONS_FAST_DRAW": "0"}),
          Variant(" [on]", {"LESSONS_FAST_DRAW": "1"})],
    "data_url": [Variant(" [every frame re-encoded]", init_script=KEEP_DATA_URL),
                 Variant(" [not re-encoded]")],
    # issue 29: the first keyboard slider of each lesson at 100%, at 150% browser zoom
    # (1280x720 seen as 853x480 CSS px at pixel ratio 1.5), in presenter mode at 1920x1080,
    # and in presenter mode at 1280x720 (lessons 2-4's figures over their controls there)
    "screens": [Variant(" [100%]"), Variant(" [150% zoom]", viewport=(853, 480), scale=1.5),
                Variant(" [presenter 1920x1080]", viewport=(1920, 1080),
                        init_script=PRESENTER),
                Variant(" [presenter 1280x720]", viewport=(1280, 720), init_script=PRESENTER)],
}
#: Comparisons that measure one keyboard slider per lesson and no cold start.
SLIDER_ONLY = {"screens"}


def other_commit(rev: str, tmp: Path) -> Variant:
    """The lessons as commit ``rev`` had them (``--compare=commit:REV``): its files exported
    to ``tmp`` (``git archive``: no worktree to clean up), served by Voila with that
    checkout's package, template and ``voila.json`` (it comes first on the kernels' path),
    in this environment's Python and libraries."""
    import subprocess
    import tarfile

    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    where = tmp / f"commit-{sha}"
    where.mkdir()
    archive = subprocess.run(["git", "archive", "--format=tar", sha], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    env = {"PYTHONPATH": str(where), "LESSONS_BENCH_CHECKOUT": sha,
           "JUPYTER_PATH": str(where / "share" / "jupyter")}
    return Variant(f" [{sha}]", env=env, checkout=where)


def start_server(tmp: Path, name: str, preheat: bool, env: dict,
                 checkout: Path | None = None) -> tuple:
    trace_dir = tmp / f"trace-{name}"
    trace_dir.mkdir()
    profile = tmp / f"ipython-{name}"
    startup = profile / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-bench-trace.py").write_text(
        f"exec(compile(open({str(HERE / 'browser_trace.py')!r}).read(), "
        f"'browser_trace.py', 'exec'))\n")
    settings = {"IPYTHONDIR": str(profile), "BENCH_TRACE_DIR": str(trace_dir), **env}
    extra = [] if preheat else ["--VoilaConfiguration.preheat_kernel=False"]
    command = None
    if checkout is not None:      # that commit's Voila command (the landing page is newer)
        port = harness.free_port()
        command = [sys.executable, "-m", "voila", str(checkout / "notebooks"), "--no-browser",
                   f"--port={port}", "--Voila.ip=127.0.0.1", *harness.TEMPLATE_ARGS]
        server = harness.VoilaServer(command=command + extra, port=port, env=settings,
                                     cwd=checkout)
        server.wait_ready(timeout=120)
        return server, Trace(trace_dir)
    server = harness.VoilaServer(extra_args=extra, env=settings)
    server.wait_ready(timeout=120)
    return server, Trace(trace_dir)


def new_context(browser, variant: Variant | None = None):
    variant = variant or Variant()
    width, height = variant.viewport
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=variant.scale)
    context.add_init_script(PAGE_HOOKS)
    if variant is not None and variant.init_script:
        context.add_init_script(variant.init_script)
    return context


def measure_lesson(browser, servers, lesson: Lesson, variants: list[Variant]) -> list[dict]:
    """Every interaction of ``lesson`` on a page per variant, the variants taking turns."""
    rows = []
    contexts = [new_context(browser, v) for v in variants]
    try:
        firsts: dict = {v.tag: [] for v in variants}
        taken = {id(server): -float("inf") for server, _ in servers}
        for _ in range(FIRST_FIGURE_PAGES):
            for (server, _), v in zip(servers, variants, strict=True):
                refilled(server, taken[id(server)])   # a pre-heated kernel in the pool
                fresh = new_context(browser, v)   # an empty cache: a student's first visit
                taken[id(server)] = time.monotonic()
                try:
                    firsts[v.tag].append(first_figure_s(fresh, server, lesson))
                finally:
                    fresh.close()
        for v in variants:
            rows.append(row(f"{lesson.name}{v.tag}: first figure, pre-heated kernel",
                            stats(firsts[v.tag]), unit="s",
                            note=f"page opened -> first repaint, {FIRST_FIGURE_PAGES} pages, "
                                 "each in a fresh browser context"))
        sessions = []
        for context, (server, trace), v in zip(contexts, servers, variants, strict=True):
            refilled(server, taken[id(server)])
            page = context.new_page()
            harness.open_lesson(page, server, lesson.notebook, figures=lesson.figures)
            sessions.append(Session(page, server, trace, lesson, v.tag))
        per_round = 2 if len(sessions) > 1 else SAMPLES
        rounds = max(1, SAMPLES // per_round)
        tasks = ([("keyboard", (label,), rounds, per_round) for label in lesson.keyboard]
                 + [("slider_drag", (label,), 3, 1) for label in lesson.drag]
                 + [("buttons", (pair,), max(3, rounds // 2), per_round)
                    for pair in lesson.buttons]
                 + [("figure_clicks", (f, pts), max(3, rounds // 2), per_round)
                    for f, pts in lesson.clicks]
                 + [("figure_drag", (f, a, b), 3, 1) for f, a, b in lesson.figure_drag]
                 + [("object_drag", args, 4, 1) for args in lesson.object_drag])
        for method, args, times, n in tasks:
            print(f"  {lesson.name}: {method}{args[:1]}", file=sys.stderr, flush=True)
            for k in range(times):
                order = sessions if k % 2 == 0 else sessions[::-1]
                for session in order:
                    getattr(session, method)(*args, n=n)
        if lesson.play:
            for session in sessions:
                session.play()
        for args in lesson.animations:
            for session in sessions:
                session.animation(*args)
        for session in sessions:
            rows.extend(session.rows())
    finally:
        for context in contexts:
            context.close()
    return rows


def run(only: list[str] | None = None, compare: str | None = None) -> list[dict]:
    """Measure every lesson (or those whose name contains a word of ``only``). With
    ``compare`` (or ``BENCH_BROWSER_COMPARE``) "1", measure the lessons' drawing path off
    (``LESSONS_FAST_DRAW=0``, tagged [off]) and on ([on]) side by side, taking turns; with
    "data_url", pages that re-encode every frame as ipympl does against the lessons' page."""
    if not os.path.exists(harness.CHROMIUM):
        raise RuntimeError(harness.chromium_missing_message())
    from playwright.sync_api import sync_playwright

    if compare is None:
        compare = os.environ.get("BENCH_BROWSER_COMPARE", "")
    commit = compare.removeprefix("commit:") if compare.startswith("commit:") else ""
    if compare and not commit and compare not in COMPARISONS:
        raise ValueError(f"BENCH_BROWSER_COMPARE is one of {', '.join(COMPARISONS)} or "
                         f"commit:REV, not {compare!r}")
    variants = [Variant()] if not compare or commit else COMPARISONS[compare]
    lessons = [ls for ls in LESSONS if not only or any(w in ls.name for w in only)]
    if compare in SLIDER_ONLY:
        lessons = [Lesson(ls.name, ls.notebook, keyboard=ls.keyboard[:1], figures=ls.figures)
                   for ls in lessons]
    rows: list[dict] = []
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as tmp, sync_playwright() as p:
        tmp = Path(tmp)
        if commit:
            variants = [other_commit(commit, tmp), Variant(" [this checkout]")]
        browser = p.chromium.launch(executable_path=harness.CHROMIUM, headless=True,
                                    args=harness.CHROMIUM_FLAGS)
        try:
            servers = []
            try:
                for i, v in enumerate(variants):
                    servers.append(start_server(tmp, f"hot{i}", True, v.env, v.checkout))
                for server, _ in servers:
                    server_quiet(server)
                for lesson in lessons:
                    rows.extend(measure_lesson(browser, servers, lesson, variants))
            finally:
                for server, _ in servers:
                    server.stop()
            servers = []
            try:
                for i, v in enumerate(variants if compare not in SLIDER_ONLY else []):
                    servers.append(start_server(tmp, f"cold{i}", False, v.env, v.checkout))
                for server, _ in servers:
                    server_quiet(server)
                for lesson in lessons if servers else []:
                    for (server, _), v in zip(servers, variants, strict=True):
                        context = new_context(browser, v)
                        try:
                            cold = first_figure_s(context, server, lesson)
                        finally:
                            context.close()
                        rows.append(row(f"{lesson.name}{v.tag}: first figure, no pre-heated "
                                        "kernel", cold, unit="s",
                                        note="kernel start + notebook + repaint"))
                        server_quiet(server)
            finally:
                for server, _ in servers:
                    server.stop()
        finally:
            browser.close()
    for r in rows:
        r["note"] = (r.get("note", "") + f"; load {load:.1f}").lstrip("; ")
    return rows


if __name__ == "__main__":
    args = sys.argv[1:]
    modes = [a.removeprefix("--compare").lstrip("=") or "1" for a in args
             if a.startswith("--compare")]
    args = [a for a in args if not a.startswith("--compare")]
    for r in run(args or None, compare=modes[0] if modes else None):
        print(f"{r['name']:66s} {r['median']:7.1f} {r['p90']:7.1f} {r['max']:7.1f} "
              f"{r['unit']:3s}  {r['note']}")
