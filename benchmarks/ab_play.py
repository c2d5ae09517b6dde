"""A/B of Play (and of a lesson's animation): the frames a page shows per second, two or
more ways of running the kernels, taking turns.

    python benchmarks/ab_play.py slerp --rounds=4 \
        --variant="rest 0.5:lessons_lib.apps.core.app.PLAY_REST=0.5" \
        --variant="rest 0.25:lessons_lib.apps.core.app.PLAY_REST=0.25"

Each ``--variant`` is ``label:module.NAME=value ...``: module constants set in every kernel
of that variant's Voila server before the notebook runs (``browser_trace.set_constants``;
an empty list keeps the code as it is). One page per variant stays open; each round runs
Play once on every page (``bench_browser.Session.play``: 3 s, new images decoded per
second, and how far the frame moved against Play's own clock), and the lesson's
animations (lesson 1's "Lock it"). Printed per variant: the median and every sample.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from bench_browser import (  # noqa: E402
    JS_TAG_BUTTON,
    LESSONS,
    Session,
    new_context,
    refilled,
    server_quiet,
    start_server,
)

import browser as harness  # noqa: E402  (tests/browser.py)


def parse_variant(text: str) -> tuple[str, str]:
    label, _, rest = text.partition(":")
    return label, ";".join(rest.split())


def rewind(page) -> None:
    """Back to the first frame (the Start button), so every round plays the same frames."""
    if page.evaluate(JS_TAG_BUTTON, ["pause and go back to the start", "rewind"]) is not None:
        page.locator('[data-bench="rewind"]').first.click()
        page.wait_for_timeout(500)


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    name = next((a for a in argv if not a.startswith("--")), "slerp")
    lesson = next(ls for ls in LESSONS if name in ls.name)
    rounds = int(next((a.split("=")[1] for a in argv if a.startswith("--rounds=")), "4"))
    variants = [parse_variant(a.split("=", 1)[1]) for a in argv if a.startswith("--variant=")]
    if not variants or not (lesson.play or lesson.animations):
        raise SystemExit("give a lesson with Play or an animation, and --variant=... twice")
    results: dict = {label: {} for label, _ in variants}
    loads = []
    with tempfile.TemporaryDirectory(prefix="ab-play-") as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=harness.CHROMIUM, headless=True,
                                    args=harness.CHROMIUM_FLAGS)
        servers, contexts = [], []
        try:
            for i, (_, spec) in enumerate(variants):
                servers.append(start_server(Path(tmp), f"v{i}", True,
                                            {"BENCH_SET": spec} if spec else {}))
            sessions = []
            for (label, _), (server, trace) in zip(variants, servers, strict=True):
                server_quiet(server)
                context = new_context(browser)
                contexts.append(context)
                page = context.new_page()
                harness.open_lesson(page, server, lesson.notebook, figures=lesson.figures)
                refilled(server, -float("inf"))
                sessions.append(Session(page, server, trace, lesson, f" [{label}]"))
            for k in range(rounds):
                order = list(zip(variants, sessions, strict=True))
                for (label, _), session in (order if k % 2 == 0 else order[::-1]):
                    loads.append(os.getloadavg()[0])
                    session.extra = []
                    if lesson.play:
                        rewind(session.page)
                        session.play()
                    for args in lesson.animations:
                        session.animation(*args)
                    for r in session.extra:
                        what = r["name"].split(": ", 1)[1]
                        results[label].setdefault(what, []).append(r)
                        print(f"  {label}: {what} {r['median']:.1f}  ({r['note']})",
                              file=sys.stderr, flush=True)
        finally:
            for context in contexts:
                context.close()
            for server, _ in servers:
                server.stop()
            browser.close()
    print(f"{lesson.name}, {rounds} rounds, load {min(loads):.1f}-{max(loads):.1f}")
    for label, whats in results.items():
        for what, rows in whats.items():
            vals = [r["median"] for r in rows]
            print(f"  {label:16s} {what:45s} median {statistics.median(vals):5.1f}   "
                  + " ".join(f"{v:.1f}" for v in vals))


if __name__ == "__main__":
    main(sys.argv[1:])
