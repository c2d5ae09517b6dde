"""Play's frames per second delivered to the screen, drawn by the page (issue 43) against
Play in the kernel, in Chromium at 1280x720, the two taking turns.

    python benchmarks/bench_motion.py [slerp] [steering] [gimbal] [funnel] [--rounds=3]

Each lesson named (default: slerp) is measured in turn, on the same two servers: its Play,
or where it has none (lesson 1) its first button animation (Lock it).

Two Voila servers serve the lessons as in class: one as they are (Play drawn by the page,
:mod:`lessons_lib.apps.fastdraw.player`), one with ``PAGE_PLAY=False`` set in its kernels
(``browser_trace.set_constants``): Play runs in the kernel and each frame is a PNG, as
before. One page per server stays open; each round goes back to the first frame, presses
Play, and counts for ``WINDOW`` seconds from one second after the click the new frames
that reached the figure: PNGs decoded onto ipympl's canvas, and frames drawn on the
overlay canvas (each starts with one ``drawImage`` of the background). Also: the display's
own rate (``requestAnimationFrame`` callbacks a second) and the time from the click to the
first new frame. Printed: per variant, the median and every round.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from ab_play import rewind  # noqa: E402
from bench_browser import (  # noqa: E402
    JS_NOW,
    JS_TAG_BUTTON,
    JS_TAG_PLAY,
    LESSONS,
    new_context,
    refilled,
    server_quiet,
    start_server,
)

import browser as harness  # noqa: E402  (tests/browser.py)

#: Seconds counted, from one second after the click (Play from the start lasts 4 s in
#: lesson 2, 30 s in lesson 3).
WINDOW = 2.5
#: A button animation (1 s): frames counted from this many seconds after the click.
LOCK_SKIP = 0.25
VARIANTS = (("page", {}),
            ("kernel", {"BENCH_SET": "lessons_lib.apps.fastdraw.player.PAGE_PLAY=False"}))

#: Frames drawn on the overlay, and the display's frames (one rAF callback each).
MOTION_HOOKS = r"""
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const M = window.__motion = {overlay: [], raf: []};
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (src, ...rest) {
    if (this.canvas && this.canvas.classList &&
        this.canvas.classList.contains('lesson-motion-overlay')) M.overlay.push(now());
    return draw.call(this, src, ...rest);
  };
  const tick = () => { M.raf.push(now()); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();
"""
JS_COUNTS = """([a, b]) => {
  const inside = t => t > a && t <= b;
  return {decoded: window.__bench.decoded.filter(inside).length,
          overlay: window.__motion.overlay.filter(inside).length,
          raf: window.__motion.raf.filter(inside).length};
}"""


def one_round(page) -> dict:
    rewind(page)
    page.wait_for_timeout(800)
    if page.evaluate(JS_TAG_PLAY, "play") is None:
        raise SystemExit("Play not found")
    button = page.locator('[data-bench="play"]').first
    click = page.evaluate(JS_NOW)
    button.click()
    page.wait_for_timeout(int((1.0 + WINDOW) * 1000) + 200)
    a = click + 1000.0
    counts = page.evaluate(JS_COUNTS, [a, a + WINDOW * 1000])
    first = page.evaluate(
        "(c) => Math.min(...[...window.__bench.decoded, ...window.__motion.overlay]"
        ".filter(t => t > c))", click)
    if page.evaluate(JS_TAG_BUTTON, ["pause", "pause"]) is not None:
        page.locator('[data-bench="pause"]').first.click()
    page.wait_for_timeout(1500)
    return {"fps": (counts["decoded"] + counts["overlay"]) / WINDOW,
            "overlay": counts["overlay"] / WINDOW, "png": counts["decoded"] / WINDOW,
            "display": counts["raf"] / WINDOW, "first_ms": first - click}


def animation_round(page, animation: tuple) -> dict:
    """One button animation (lesson 1's Lock it) after its reset button."""
    button, reset, seconds, _frames = animation
    for label, tag in ((reset, "reset"), (button, "start")):
        if page.evaluate(JS_TAG_BUTTON, [label, tag]) is None:
            raise SystemExit(f"button {label!r} not found")
    page.locator('[data-bench="reset"]').first.click()
    page.wait_for_timeout(1500)
    click = page.evaluate(JS_NOW)
    page.locator('[data-bench="start"]').first.click()
    page.wait_for_timeout(int((seconds + 1.5) * 1000))
    a, b = click + LOCK_SKIP * 1000.0, click + seconds * 1000.0
    counts = page.evaluate(JS_COUNTS, [a, b])
    every = page.evaluate(JS_COUNTS, [click, click + (seconds + 1.5) * 1000.0])
    first = page.evaluate(
        "(c) => Math.min(...[...window.__bench.decoded, ...window.__motion.overlay]"
        ".filter(t => t > c))", click)
    span = seconds - LOCK_SKIP
    return {"fps": (counts["decoded"] + counts["overlay"]) / span,
            "overlay": counts["overlay"] / span, "png": counts["decoded"] / span,
            "display": counts["raf"] / span, "first_ms": first - click,
            "frames": every["decoded"] + every["overlay"]}


def measure(browser, servers, lesson, rounds: int) -> dict:
    """``rounds`` rounds of ``lesson``'s Play on a page of each server, taking turns."""
    results: dict = {label: [] for label, _ in VARIANTS}
    contexts, pages = [], []
    try:
        for (server, _trace) in servers:
            server_quiet(server)
            context = new_context(browser)
            context.add_init_script(MOTION_HOOKS)
            contexts.append(context)
            page = context.new_page()
            harness.open_lesson(page, server, lesson.notebook, figures=lesson.figures)
            refilled(server, -float("inf"))
            pages.append(page)
        for k in range(rounds):
            order = list(zip(VARIANTS, pages, strict=True))
            for (label, _), page in (order if k % 2 == 0 else order[::-1]):
                r = (one_round(page) if lesson.play
                     else animation_round(page, lesson.animations[0]))
                results[label].append(r)
                print(f"  {lesson.name} {label}: {r}", file=sys.stderr, flush=True)
    finally:
        for context in contexts:
            context.close()
    return results


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    names = [a for a in argv if not a.startswith("--")] or ["slerp"]
    lessons = [next(ls for ls in LESSONS if name in ls.name) for name in names]
    rounds = int(next((a.split("=")[1] for a in argv if a.startswith("--rounds=")), "3"))
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="bench-motion-") as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=harness.CHROMIUM, headless=True,
                                    args=harness.CHROMIUM_FLAGS)
        servers = []
        try:
            for label, env in VARIANTS:
                servers.append(start_server(Path(tmp), label, True, env))
            for lesson in lessons:
                results[lesson.name] = measure(browser, servers, lesson, rounds)
        finally:
            for server, _ in servers:
                server.stop()
            browser.close()
    for lesson in lessons:
        what = (f"Play, new frames delivered to the screen per second, {rounds} rounds, "
                f"{WINDOW} s each" if lesson.play else
                f"{lesson.animations[0][0]}, new frames delivered to the screen per second, "
                f"{rounds} rounds, from {LOCK_SKIP} s after the click to its end")
        print(f"{lesson.name}: {what}")
        for label, rows in results[lesson.name].items():
            for key in ("fps", "overlay", "png", "display", "first_ms",
                        *(() if lesson.play else ("frames",))):
                vals = [r[key] for r in rows]
                print(f"  {label:7s} {key:9s} median {statistics.median(vals):7.1f}   "
                      + " ".join(f"{v:.1f}" for v in vals))


if __name__ == "__main__":
    main(sys.argv[1:])
