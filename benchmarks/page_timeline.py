"""Where a lesson page's first seconds go: a timeline from opening the page to its first figure.

Voila serves ``notebooks/`` with ``voila.json`` (pre-heated kernels, as in class) and
Debian's Chromium opens one lesson at 1280x720 through Playwright, with the flags of
``tests/browser.py``. Everything is timed in ms from the moment ``page.goto`` is called:

- each request: when it was sent, its first byte and its end (the browser's Resource
  Timing), its bytes on the wire, and whether it failed (a CDN with no internet);
- the kernel's websocket: when it opened, and each message in and out (its channel,
  ``msg_type``, the comm's target or widget model and its size) until the first image;
- the page's own marks: DOMContentLoaded, load, the first PNG decoded, the first repaint;
- the main thread: Chromium's trace, summed per top-level task kind (script, parse, style
  and layout, paint) and the longest tasks.

Run: ``python benchmarks/page_timeline.py [gimbal|slerp|steering|funnel] [--cold]
[--runs=N] [--env=NAME=VALUE ...]`` (``--env``: the server's and kernels' environment).
Each page opens in a fresh browser context (an empty cache, as
``bench_browser.first_figure_s``); the first is thrown away, ``--runs`` pages follow, each
once the server and its kernels are quiet. The kernels are traced as in ``bench_browser``
(``browser_trace.py``): when the page's messages reached the kernel and were answered.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from bench_browser import LESSONS, PAGE_HOOKS, refilled, start_server  # noqa: E402

import browser as harness  # noqa: E402  (tests/browser.py)

FIRST_PAINT = """() => { const B = window.__bench; return B.decoded.length > 0 &&
                 B.paints.some(p => p[0] >= B.decoded[0]); }"""
# Every websocket message in and out, timed in the page (Playwright's own websocket events
# reach Python late): the v1 frame's channel and header, read where it is cheap.
WS_HOOKS = r"""
(() => {
  const log = window.__ws = [];
  const now = () => performance.timeOrigin + performance.now();
  const describe = (data) => {
    try {
      if (typeof data === 'string') return ['text', data.length, ''];
      const buf = data instanceof ArrayBuffer ? data : data.buffer;
      const v = new DataView(buf), n = Number(v.getBigUint64(0, true));
      const off = i => Number(v.getBigUint64(8 + 8 * i, true));
      const dec = new TextDecoder();
      const channel = dec.decode(new Uint8Array(buf, off(0), off(1) - off(0)));
      const header = JSON.parse(dec.decode(new Uint8Array(buf, off(1), off(2) - off(1))));
      let about = '';
      if (off(5) - off(4) < 1e6 || header.msg_type !== "comm_msg") {
        const c = JSON.parse(dec.decode(new Uint8Array(buf, off(4), off(5) - off(4))));
        const d = c.data || {};
        about = c.target_name || c.execution_state || d.method || '';
        if (d.content && d.content.data) {
          try { about += ' ' + JSON.parse(d.content.data).type; } catch (e) {}
        }
      } else { about = 'big comm_msg'; }
      return [channel + ':' + header.msg_type, buf.byteLength, about];
    } catch (e) { return ['?', (data.byteLength || data.length || 0), String(e)]; }
  };
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    log.push([now(), "open?", "", 0, String(args[0])]);
    ws.addEventListener("open", () => log.push([now(), "opened", "", 0, ""]));
    ws.addEventListener('message', (e) => log.push([now(), 'in', ...describe(e.data)]));
    const send = ws.send.bind(ws);
    ws.send = (data) => { log.push([now(), 'out', ...describe(data)]); return send(data); };
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""
PAGE_MARKS = """() => {
  const B = window.__bench, o = performance.timeOrigin;
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').map(r => ({
    name: r.name, start: o + r.startTime, ttfb: o + r.responseStart, end: o + r.responseEnd,
    bytes: r.transferSize, body: r.decodedBodySize, type: r.initiatorType}));
  return {origin: o, domContentLoaded: o + nav.domContentLoadedEventEnd,
          load: o + nav.loadEventEnd, html_end: o + nav.responseEnd,
          decoded: B.decoded[0], paint: B.paints.find(p => p[0] >= B.decoded[0])[0],
          resources: res, ws: window.__ws};
}"""


def _v1_message(buf: bytes) -> dict | None:
    """Decode Jupyter's ``v1.kernel.websocket.jupyter.org`` frame (offsets, channel, parts)."""
    try:
        n = int.from_bytes(buf[0:8], "little")
        offsets = [int.from_bytes(buf[8 + 8 * i:16 + 8 * i], "little") for i in range(n)]
        parts = [buf[offsets[i]:offsets[i + 1]] for i in range(n - 1)]
        channel = parts[0].decode()
        header, _parent, _meta, content = (json.loads(p) for p in parts[1:5])
        return {"channel": channel, "header": header, "content": content}
    except (ValueError, IndexError, UnicodeDecodeError):
        return None


def main_thread(trace_path: Path, t0_ms: float, t1_ms: float) -> dict:
    """Top-level main-thread tasks of the renderer in [t0, t1] (page ms), summed by kind."""
    events = json.loads(trace_path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    renderer = {e["pid"] for e in events if e.get("name") == "thread_name"
                and e.get("args", {}).get("name") == "CrRendererMain"}
    main_tids = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
                 and e.get("args", {}).get("name") == "CrRendererMain"}
    # map trace clock to wall clock with the navigation start mark
    kinds: Counter = Counter()
    tasks = []
    for e in events:
        if e.get("pid") not in renderer or (e.get("pid"), e.get("tid")) not in main_tids:
            continue
        if e.get("ph") != "X" or "dur" not in e:
            continue
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask"):
            tasks.append(e)
        elif e["name"] in ("EvaluateScript", "v8.compile", "FunctionCall", "ParseHTML",
                           "UpdateLayoutTree", "Layout", "Paint", "v8.evaluateModule",
                           "EventDispatch", "TimerFire", "FireAnimationFrame", "MajorGC",
                           "MinorGC", "V8.GC_MC_BACKGROUND_MARKING", "v8.parseOnBackground",
                           "ParseAuthorStyleSheet", "Decode Image", "PrePaint", "Commit"):
            kinds[e["name"]] += e["dur"] / 1000
    busy = sum(t["dur"] for t in tasks) / 1000
    longest = sorted((t["dur"] / 1000 for t in tasks), reverse=True)[:5]
    return {"busy_ms": round(busy), "kinds_ms": {k: round(v) for k, v in kinds.most_common()},
            "longest_tasks_ms": [round(x) for x in longest]}


def js_profile(profile: dict) -> dict:
    """Self time of a CDP CPU profile, summed by script file and by function (top ones)."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    self_us: Counter = Counter()
    deltas = profile["timeDeltas"]
    for sample, dt in zip(profile["samples"][1:], deltas[1:], strict=False):
        self_us[sample] += dt
    by_file: Counter = Counter()
    by_fn: Counter = Counter()
    for nid, us in self_us.items():
        frame = nodes[nid]["callFrame"]
        url = frame.get("url", "").split("?")[0]
        where = _origin_of(url) + "/" + url.rsplit("/", 1)[-1] if url else "(native)"
        fn = frame.get("functionName") or "(anonymous)"
        by_file[where] += us / 1000
        by_fn[f"{fn} {url.rsplit('/', 1)[-1]}:{frame.get('lineNumber', 0)}"] += us / 1000
    return {"by_file": [(k, round(v)) for k, v in by_file.most_common(14)],
            "by_function": [(k, round(v)) for k, v in by_fn.most_common(14)]}


def one_page(browser, server, notebook: str, trace: bool, profile: bool = False) -> dict:
    context = browser.new_context(viewport=harness.VIEWPORT)
    context.add_init_script(PAGE_HOOKS)
    context.add_init_script(WS_HOOKS)
    page = context.new_page()
    cdp = None
    if profile:
        cdp = context.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        cdp.send("Profiler.start")
    failed = []
    page.on("requestfailed", lambda r: failed.append((time.time() * 1000, r.url, r.failure)))
    trace_file = None
    if trace:
        trace_file = Path(tempfile.mkstemp(suffix=".json")[1])
        browser.start_tracing(page=page, path=str(trace_file),
                              categories=["devtools.timeline", "v8.execute", "blink",
                                          "disabled-by-default-devtools.timeline"])
    try:
        t0 = time.time() * 1000
        page.goto(server.render_url(notebook), timeout=180_000)
        page.wait_for_function(FIRST_PAINT, timeout=180_000, polling=10)
        marks = page.evaluate(PAGE_MARKS)
        js = js_profile(cdp.send("Profiler.stop")["profile"]) if cdp else None
    finally:
        if trace:
            browser.stop_tracing()
        context.close()
    out = {"t0": t0, "marks": marks, "failed": failed}
    if cdp is not None:
        out["js"] = js
    if trace_file is not None:
        out["main"] = main_thread(trace_file, t0, marks["paint"])
        trace_file.unlink()
    return out


def _origin_of(url: str) -> str:
    """Which part of Voila (or which extension) a file belongs to."""
    path = url.split("?")[0].split("/voila/", 1)[-1]
    parts = path.split("/")
    if parts[0] == "labextensions":
        return "/".join(parts[:3] if parts[1].startswith("@") else parts[:2])
    return "/".join(parts[:-1]) or path


def report(r: dict) -> None:
    t0, m = r["t0"], r["marks"]

    def ms(t):
        return f"{t - t0:7.0f}"
    res = m["resources"]
    by_ext: dict = defaultdict(lambda: [0, 0, 0.0])
    for x in res:
        ext = x["name"].split("?")[0].rsplit(".", 1)[-1][:6]
        by_ext[ext][0] += 1
        by_ext[ext][1] += x["body"]
        by_ext[ext][2] = max(by_ext[ext][2], x["end"] - t0)
    print(f"  HTML done          {ms(m['html_end'])} ms")
    print(f"  DOMContentLoaded   {ms(m['domContentLoaded'])} ms")
    print(f"  load               {ms(m['load'])} ms")
    for t, what, *_ in m["ws"]:
        if what in ("open?", "opened"):
            print(f"  websocket {'asked' if what == 'open?' else 'opened'}    {ms(t)} ms")
    print(f"  first PNG decoded  {ms(m['decoded'])} ms")
    print(f"  first repaint      {ms(m['paint'])} ms")
    print(f"  resources: {len(res)} files, {sum(x['body'] for x in res) / 1e6:.2f} MB decoded")
    for ext, (n, b, end) in sorted(by_ext.items(), key=lambda kv: -kv[1][1]):
        print(f"    .{ext:6s} {n:4d} files {b / 1e3:8.0f} kB   last ends {end:6.0f} ms")
    by_dir: dict = defaultdict(lambda: [0, 0, 1e18, 0.0])
    for x in res:
        d = _origin_of(x["name"])
        by_dir[d][0] += 1
        by_dir[d][1] += x["body"]
        by_dir[d][2] = min(by_dir[d][2], x["start"] - t0)
        by_dir[d][3] = max(by_dir[d][3], x["end"] - t0)
    for d, (n, b, first, end) in sorted(by_dir.items(), key=lambda kv: kv[1][2]):
        print(f"    {d:58s} {n:4d} files {b / 1e3:7.0f} kB  {first:6.0f} -> {end:6.0f} ms")
    late = sorted(res, key=lambda x: x["end"])[-8:]
    print("  last files to arrive:")
    for x in late:
        print(f"    {x['start'] - t0:6.0f} -> {x['end'] - t0:6.0f} ms {x['body'] / 1e3:7.0f} kB "
              f" {x['name'].split('/voila/')[-1][:90]}")
    for t, url, why in r["failed"]:
        print(f"  FAILED at {t - t0:.0f} ms: {url} ({why})")
    print("  websocket messages until the first repaint (timed in the page):")
    counts: Counter = Counter()
    for t, d, kind, size, about in m["ws"]:
        if t > m["paint"] + 5:
            break
        key = (d, kind, about)
        counts[key] += 1
        if counts[key] <= 2:
            print(f"    {t - t0:6.0f} ms {d:6s} {kind:28s} {str(about)[:30]:30s} {size:8d} B")
    for key, n in counts.items():
        if n > 2:
            print(f"    ... {n} x {key}")
    if r.get("kernel"):
        print("  in the kernel (traced):")
        for e in r["kernel"][:12]:
            what = e.get("method") or ""
            what += f" {e.get('cls', '')} {e.get('type') or ''}".rstrip()
            print(f"    {e['t0'] * 1000 - t0:6.0f} -> {e['t1'] * 1000 - t0:6.0f} ms "
                  f"{e['ev']:9s} {what}")
    inits = [e["t1"] for e in r.get("kernel", []) if e.get("type") == "initialized"]
    sends = [e["t0"] for e in r.get("kernel", []) if e["ev"] == "send"]
    if inits and sends:
        state = next(t for t, _, _, _, a in m["ws"] if a == "update_states")
        print(f"  kernel: first view initialized -> first PNG sent "
              f"{(min(sends) - min(inits)) * 1000:.0f} ms; state arrived -> PNG decoded "
              f"{m['decoded'] - state:.0f} ms")
    if "js" in r:
        print("  JS self time by file (ms):")
        for k, v in r["js"]["by_file"]:
            print(f"    {v:6d}  {k}")
        print("  JS self time by function (ms):")
        for k, v in r["js"]["by_function"]:
            print(f"    {v:6d}  {k[:100]}")
    if "main" in r:
        print(f"  main thread: {r['main']}")


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    name = next((a for a in argv if not a.startswith("--")), "gimbal")
    lesson = next(ls for ls in LESSONS if name in ls.name)
    runs = int(next((a.split("=")[1] for a in argv if a.startswith("--runs=")), "3"))
    tmp = tempfile.TemporaryDirectory(prefix="page-timeline-")
    env = dict(a[len("--env="):].split("=", 1) for a in argv if a.startswith("--env="))
    server, trace = start_server(Path(tmp.name), "t", "--cold" not in argv, env)
    try:
        refilled(server, -float("inf"))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=harness.CHROMIUM, headless=True,
                                        args=harness.CHROMIUM_FLAGS)
            try:
                taken = time.monotonic()
                one_page(browser, server, lesson.notebook, trace=False)
                firsts = []
                for i in range(runs):
                    refilled(server, taken)
                    taken = time.monotonic()
                    r = one_page(browser, server, lesson.notebook, trace=(i == 0),
                                 profile=(i == 1))
                    r["kernel"] = trace.events(r["t0"], r["marks"]["paint"])
                    print(f"{lesson.name} run {i} (load {os.getloadavg()[0]:.2f}):")
                    report(r)
                    firsts.append(r["marks"]["paint"] - r["t0"])
                print(f"first repaint: {[round(f) for f in firsts]} ms, "
                      f"median {statistics.median(firsts):.0f} ms")
            finally:
                browser.close()
    finally:
        server.stop()
        tmp.cleanup()


if __name__ == "__main__":
    main(sys.argv[1:])
