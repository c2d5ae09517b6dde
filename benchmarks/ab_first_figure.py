"""A/B of a pre-heated lesson's first figure: Voila served two (or more) ways, taking turns.

    python benchmarks/ab_first_figure.py gimbal --rounds=6 \
        --refill=5 --variant="fill 1 s:--VoilaKernelManager.fill_delay=1" \
        --variant="fill 5 s:--VoilaKernelManager.fill_delay=5"

Each ``--variant`` is ``label:arg arg ...`` (extra Voila arguments; ``env:NAME=VALUE``
words set the server's environment, a ``query:?...`` word is added to the page's address,
e.g. ``query:?lessons_defer=0`` for the page without the lessons' template's deferrals).
Every server serves ``notebooks/`` with ``voila.json``;
before each page all of them must have refilled their pool and be quiet
(``bench_browser.refilled``: a refilling pool would share the machine, an empty one would
make the page wait; ``--refill=S`` for variants that set another ``fill_delay`` than
voila.json's, the largest of them), then one page is opened in a fresh browser context, as
``bench_browser.first_figure_s`` does. Printed per variant: the median and every sample of
the websocket's opening, the widget state's arrival and the first repaint (ms from
``page.goto``), with the load average.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from bench_browser import LESSONS, REFILL_DELAY_S, new_context, refilled  # noqa: E402
from page_timeline import FIRST_PAINT, _v1_message  # noqa: E402

import browser as harness  # noqa: E402  (tests/browser.py)


def parse_variant(text: str) -> tuple[str, list[str], dict, str]:
    label, _, rest = text.partition(":")
    args, env, query = [], {}, ""
    for word in rest.split():
        if word.startswith("env:"):
            k, _, v = word[4:].partition("=")
            env[k] = v
        elif word.startswith("query:"):
            query = word[len("query:"):]
        else:
            args.append(word)
    return label, args, env, query


def start(args: list[str], env: dict) -> harness.VoilaServer:
    server = harness.VoilaServer(extra_args=args, env=env)
    server.wait_ready(120)
    return server


def one(browser, server, notebook: str, query: str = "") -> dict:
    context = new_context(browser)
    page = context.new_page()
    marks: dict = {}

    def on_ws(ws):
        marks.setdefault("ws", time.time() * 1000)

        def got(payload):
            if "state" in marks or isinstance(payload, str):
                return
            msg = _v1_message(payload)
            data = ((msg or {}).get("content") or {}).get("data") or {}
            if isinstance(data, dict) and data.get("method") == "update_states":
                marks["state"] = time.time() * 1000
        ws.on("framereceived", got)
    page.on("websocket", on_ws)
    try:
        t0 = time.time() * 1000
        page.goto(server.render_url(notebook) + query, timeout=180_000)
        page.wait_for_function(FIRST_PAINT, timeout=180_000, polling=10)
        paint = page.evaluate("""() => { const B = window.__bench;
                                   return B.paints.find(p => p[0] >= B.decoded[0])[0]; }""")
    finally:
        context.close()
    return {"ws": marks.get("ws", float("nan")) - t0,
            "state": marks.get("state", float("nan")) - t0, "paint": paint - t0}


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    name = next((a for a in argv if not a.startswith("--")), "gimbal")
    lesson = next(ls for ls in LESSONS if name in ls.name)
    rounds = int(next((a.split("=")[1] for a in argv if a.startswith("--rounds=")), "6"))
    delay = float(next((a.split("=")[1] for a in argv if a.startswith("--refill=")),
                       REFILL_DELAY_S))
    variants = [parse_variant(a.split("=", 1)[1]) for a in argv if a.startswith("--variant=")]
    servers = []
    try:
        for _, args, env, _ in variants:
            servers.append(start(args, env))
        results = {label: [] for label, _, _, _ in variants}
        loads, taken = [], {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=harness.CHROMIUM, headless=True,
                                        args=harness.CHROMIUM_FLAGS)
            try:
                for k in range(rounds):
                    order = list(zip(variants, servers, strict=True))
                    for (label, _, _, query), server in (order if k % 2 == 0 else order[::-1]):
                        for s in servers:
                            refilled(s, taken.get(id(s), -float("inf")), delay)
                        loads.append(os.getloadavg()[0])
                        taken[id(server)] = time.monotonic()
                        r = one(browser, server, lesson.notebook, query)
                        results[label].append(r)
                        print(f"  {label}: ws {r['ws']:.0f}  state {r['state']:.0f}  "
                              f"paint {r['paint']:.0f} ms  (load {loads[-1]:.1f})",
                              file=sys.stderr, flush=True)
            finally:
                browser.close()
    finally:
        for s in servers:
            s.stop()
    print(f"{lesson.name}, {rounds} rounds, load {min(loads):.1f}-{max(loads):.1f}")
    for label, rs in results.items():
        cols = []
        for key in ("ws", "state", "paint"):
            vals = [r[key] for r in rs]
            cols.append(f"{key} {statistics.median(vals):5.0f}")
        print(f"  {label:24s} " + "  ".join(cols)
              + "   paints: " + " ".join(f"{r['paint']:.0f}" for r in rs))


if __name__ == "__main__":
    main(sys.argv[1:])
