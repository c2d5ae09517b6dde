"""Do the doubtful caches pay for themselves? Same-run A/B of each, the variants taking turns.

Two parts, each measuring the CPU time of the process that does the work, so that a busy
machine slows every variant alike:

``text``: the kernel's CPU per redraw (the painter's render and PNG, as
``bench_painter.py``), for every app on the shared loop, with the text cache
(:mod:`lessons_lib.apps.fastdraw.textcache`: layouts and glyph bitmaps kept per renderer)
installed or not, and with lesson 3's ``StampedText`` labels pasted or drawn as plain
``Text``: four variants, taking turns move after move in one process (a Latin square over
the move's values, see :func:`run_text`). Two kinds of move per app: its frame control
(Play's t, time or step) and its first other slider (which recomputes and changes the
background).

``server``: Voila's own CPU-seconds per student for the files a lesson page fetches (its
scripts, styles and fonts), from room servers (``python -m lessons_server.room``) that
differ only in ``--no-static-cache`` / ``--no-gzip-cache``, all running at once and visited
in turn, round after round. Students are :mod:`protocol_student` connections (six kept
alive each, gzip accepted, as a browser); the file list is found without a browser by
:func:`page_files`.

    python benchmarks/ab_caches.py text [--moves 30]
    python benchmarks/ab_caches.py server [--rounds 5] [--students 10]
    python benchmarks/ab_caches.py all --json /tmp/ab_caches.json

Each cache's saving is a mean of paired differences with a 95 % bootstrap interval
(:func:`saving`). Numbers are reported, never asserted; the load average is printed with
them. The results and what was decided: ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} {five:.1f} {fifteen:.1f}"


def _summary(samples: list[float]) -> dict:
    s = sorted(samples)
    return {"median": float(np.median(s)), "mean": float(np.mean(s)),
            "p90": s[int(0.9 * (len(s) - 1))], "n": len(s)}


def saving(without: list[float], with_: list[float], resamples: int = 2000) -> dict:
    """How much less the mean is with the cache than without, from paired samples (the
    same value or round in each variant), and a 95 % bootstrap interval of that mean
    difference: an interval that holds 0 is a saving lost in the noise."""
    rng = np.random.default_rng(0)
    d = np.asarray(without) - np.asarray(with_)
    means = [rng.choice(d, d.size).mean() for _ in range(resamples)]
    low, high = np.percentile(means, [2.5, 97.5])
    return {"saved": float(d.mean()), "low": float(low), "high": float(high),
            "share": float(d.mean() / np.mean(without))}


# -- the text cache and StampedText (in-process) ------------------------------------------
TEXT_VARIANTS = {            # name: (text cache installed, StampedText pasted)
    "as shipped": (True, True),
    "no text cache": (False, True),
    "no stamps": (True, False),
    "neither": (False, False),
}


def _set_text_variant(renderer, cache_on: bool, stamps_on: bool, cache_works: bool) -> None:
    """Switch the text cache and StampedText for the next render of ``renderer``: the
    cache is off when the renderer has matplotlib's own ``draw_text`` and ``works()`` says
    no (so the painter does not install it again); StampedText reads ``ENABLED``."""
    from lessons_lib.apps.fastdraw import textcache

    textcache._works = cache_works if cache_on else False
    if not cache_on:
        renderer.__dict__.pop("draw_text", None)
    textcache.ENABLED = stamps_on


def _slider_moves(app, skip: str | None):
    """The first usable slider other than ``skip``: its name, ten steps up and back from
    where it is, and how to set it."""
    import ipywidgets as widgets

    for spec in app.controls:
        w = getattr(app, spec.name)
        if spec.name != skip and isinstance(w, widgets.FloatSlider | widgets.IntSlider) \
                and not w.disabled:
            start = w.value if w.value + 10 * w.step <= w.max else w.max - 10 * w.step
            path = [start + i * w.step for i in range(11)]
            path = path + path[-2:0:-1]
            if isinstance(w, widgets.IntSlider):
                path = [int(v) for v in path]
            return spec.name, path, lambda v, w=w: setattr(w, "value", v)
    return None, [], None


def _frame_moves(app):
    if app.frame is None:
        return None, [], None
    return (app.frame.name, list(app.frame_values(step=max(1, app.frame.count // 40))),
            app.show_frame)


def run_text(moves: int = 30) -> list[dict]:
    """At least ``moves`` redraws per variant and kind of move. The moves walk a cycle of
    values; in each block of as many cycles as there are variants, every value is drawn
    once in every variant (a Latin square: the variants take turns move after move, and a
    value that costs more, such as one that rebuilds the background, costs every variant
    alike), so each variant's redraw of a value pairs with the others'."""
    import matplotlib.pyplot as plt
    from bench_painter import _apps

    from lessons_lib.apps.fastdraw import textcache

    cache_works = textcache.works()
    stamps_were = textcache.ENABLED
    names = list(TEXT_VARIANTS)
    rows = []
    try:
        for app_name, cls in _apps():
            app = cls()
            try:
                canvas, painter = app.fig.canvas, app.painter
                frame_name, frame_values, show = _frame_moves(app)
                slider_name, slider_values, set_slider = _slider_moves(app, frame_name)
                for kind, what, values, apply in (
                        ("frame", frame_name, frame_values, show),
                        ("slider", slider_name, slider_values, set_slider)):
                    if apply is None:
                        continue
                    n = len(values)
                    blocks = -(-moves // n)
                    times: dict[str, list[float]] = {v: [] for v in names}
                    moving: list[float] = []     # the move itself: the same in every variant
                    for k in range(2 * len(names)):             # warm every variant up
                        apply(values[k % n])
                        _set_text_variant(canvas.get_renderer(),
                                          *TEXT_VARIANTS[names[k % len(names)]], cache_works)
                        painter.render()
                    drawn: dict[tuple, float] = {}
                    for k in range(blocks * len(names) * n):
                        cycle, i = divmod(k, n)
                        variant = names[(i + cycle) % len(names)]
                        t0 = time.process_time()
                        apply(values[i])         # compute and set_data; nothing is drawn
                        t1 = time.process_time()
                        _set_text_variant(canvas.get_renderer(), *TEXT_VARIANTS[variant],
                                          cache_works)
                        t2 = time.process_time()
                        painter.render()
                        canvas._png_is_old = True
                        painter._diff_image()
                        drawn[variant, cycle // len(names), i] = (time.process_time() - t2) * 1000
                        moving.append((t1 - t0) * 1000)
                    for (variant, *_), ms in sorted(drawn.items()):   # paired by block, value
                        times[variant].append(ms)
                    move_ms = float(np.median(moving))
                    for variant in names:
                        rows.append({"part": "text", "app": app_name, "move": f"{kind} {what}",
                                     "variant": variant, "move_ms": move_ms,
                                     "samples": times[variant], **_summary(times[variant])})
                    print(f"  {app_name} {kind} {what} (move {move_ms:.1f} ms): " + ", ".join(
                        f"{v} {np.mean(times[v]):.1f}" for v in names) + " ms (means)",
                        file=sys.stderr, flush=True)
            finally:
                plt.close(app.fig)
    finally:
        textcache._works = cache_works
        textcache.ENABLED = stamps_were
    return rows


# -- the static-file and gzip caches (Voila's process CPU) --------------------------------
SERVER_VARIANTS = {
    "as shipped": (),
    "no static cache": ("--no-static-cache",),
    "no gzip cache": ("--no-gzip-cache",),
    "neither": ("--no-static-cache", "--no-gzip-cache"),
}
_SRC_HREF = re.compile(r'(?:src|href)="(/[^"#]+)"')
_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                     re.S)
_CHUNK = re.compile(r"\.e\((\d+)\)")
_CHUNK_NAMES = re.compile(r"\.u=e=>[^{]*(\{[0-9]+:\"[0-9a-f]+\"[^}]*\})")
_CSS_SRC = re.compile(r"src:\s*url\(([^)]+)\)")


def page_files(base: str, token: str, render_path: str) -> list[str]:
    """The files a lesson page loads, found without a browser: the scripts and styles its
    HTML names; every chunk ``voila.js`` can load (a browser loads most of them); each lab
    extension's ``remoteEntry`` and every chunk it names; the first font of each
    ``@font-face`` in those styles. Only files that answer 200 are kept."""
    from urllib.parse import urljoin
    from urllib.request import urlopen

    def text(path: str) -> str | None:
        sep = "&" if "?" in path else "?"
        try:
            with urlopen(f"{base}{path}{sep}token={token}", timeout=120) as r:
                return r.read().decode("utf-8", "replace") if r.status == 200 else None
        except OSError:
            return None

    html = text(render_path)
    if html is None:
        raise RuntimeError(f"{render_path} did not answer 200")
    config = json.loads(_CONFIG.search(html).group(1))
    found = [p for p in _SRC_HREF.findall(html) if not p.startswith("/voila/render/")]
    static = config["fullStaticUrl"]
    for path in list(found):
        if path.split("?")[0].endswith("/voila.js"):
            entry = text(path) or ""
            found += [f"{static}/{n}.voila.js" for n in sorted(set(_CHUNK.findall(entry)), key=int)]
    for ext in config.get("federated_extensions", []):
        where = f"{config['fullLabextensionsUrl']}/{ext['name']}"
        remote = f"{where}/{ext['load']}"
        found.append(remote)
        names = _CHUNK_NAMES.search(text(remote) or "")
        for n, h in (re.findall(r'(\d+):"([0-9a-f]+)"', names.group(1)) if names else ()):
            found.append(f"{where}/static/{n}.{h}.js?v={h}")
    for path in [p for p in found if p.split("?")[0].endswith(".css")]:
        css = text(path) or ""
        found += [urljoin(path, u.strip("'\"")) for u in _CSS_SRC.findall(css)
                  if not u.startswith(("data:", "'data:", '"data:'))]
    ok = []
    for path in dict.fromkeys(found):
        if text(path) is not None:
            ok.append(path)
    return ok


async def _fetch_all(base: str, token: str, files: list[str], students: int) -> int:
    """``students`` at once, each fetching ``files`` over six kept-alive connections with
    gzip accepted (as a browser); the bytes each received, as sent."""
    import asyncio
    import urllib.parse

    from protocol_student import _Connection

    where = urllib.parse.urlsplit(base)

    async def one() -> int:
        queue = list(files)
        got = 0
        connections = [_Connection(where.hostname, where.port, 120.0) for _ in range(6)]

        async def worker(connection) -> None:
            nonlocal got
            while queue:
                path = queue.pop(0)
                sep = "&" if "?" in path else "?"
                status, _, body = await connection.get(f"{path}{sep}token={token}")
                if status != 200:
                    raise RuntimeError(f"{path} answered HTTP {status}")
                got += len(body)

        try:
            await asyncio.gather(*(worker(c) for c in connections))
        finally:
            for c in connections:
                c.close()
        return got

    sizes = await asyncio.wait_for(asyncio.gather(*(one() for _ in range(students))), 600)
    return sizes[0]


def run_server(rounds: int = 5, students: int = 10,
               lesson: str = "02_euler_vs_slerp") -> list[dict]:
    import asyncio

    import psutil
    from classroom import Server

    names = list(SERVER_VARIANTS)
    servers = {n: Server(lesson, 0, extra=SERVER_VARIANTS[n]) for n in names}
    rows = []
    try:
        for server in servers.values():
            server.wait_ready()
        first = servers[names[0]]
        files = page_files(first.url, first.token, f"/voila/render/{lesson}.ipynb")
        print(f"  {len(files)} files a page loads", file=sys.stderr, flush=True)

        def cpu(server) -> float:
            t = psutil.Process(server.proc.pid).cpu_times()
            return t.user + t.system

        per_student: dict[str, list[float]] = {n: [] for n in names}
        wall: dict[str, list[float]] = {n: [] for n in names}   # until the last file came
        first_visit: dict[str, float] = {}
        sent: dict[str, int] = {}
        for n in names:                       # one student each: the caches fill
            c0 = cpu(servers[n])
            sent[n] = asyncio.run(_fetch_all(servers[n].url, servers[n].token, files, 1))
            first_visit[n] = cpu(servers[n]) - c0
        for r in range(rounds):
            for n in (names if r % 2 == 0 else names[::-1]):
                server = servers[n]
                time.sleep(1.0)               # the last round's sockets close
                c0, t0 = cpu(server), time.monotonic()
                asyncio.run(_fetch_all(server.url, server.token, files, students))
                wall[n].append(time.monotonic() - t0)
                per_student[n].append((cpu(server) - c0) / students)
            print(f"  round {r + 1}: " + ", ".join(
                f"{n} {1000 * per_student[n][-1]:.0f}" for n in names)
                + " ms of Voila CPU per student", file=sys.stderr, flush=True)
        for n in names:
            rows.append({"part": "server", "variant": n, "files": len(files),
                         "sent_mb": sent[n] / 2**20, "first_student_s": first_visit[n],
                         "rounds_s": per_student[n], "wall_s": wall[n],
                         **_summary(per_student[n])})
    finally:
        for server in servers.values():
            server.stop()
    return rows


def report(rows: list[dict]) -> str:
    """What each cache saves, with its 95 % interval, as Markdown table rows."""
    lines = []
    text = {(r["app"], r["move"], r["variant"]): r for r in rows if r["part"] == "text"}
    if text:
        lines += ["| app, move | move (ms) | render + PNG as shipped (ms, mean) "
                  "| text cache saves (ms, 95 % interval, share) | StampedText saves |",
                  "|---|---:|---:|---:|---:|"]
        for app, move in dict.fromkeys((a, m) for a, m, _ in text):
            shipped = text[app, move, "as shipped"]
            cells = []
            for off in ("no text cache", "no stamps"):
                d = saving(text[app, move, off]["samples"], shipped["samples"])
                cells.append(f"{d['saved']:.1f} ({d['low']:.1f} to {d['high']:.1f}), "
                             f"{100 * d['share']:.0f} %")
            lines.append(f"| {app}, {move} | {shipped['move_ms']:.1f} "
                         f"| {shipped['mean']:.1f} | {cells[0]} | {cells[1]} |")
    server = {r["variant"]: r for r in rows if r["part"] == "server"}
    if server:
        shipped = server["as shipped"]
        lines += ["", f"{shipped['files']} files, {shipped['sent_mb']:.2f} MB as sent; "
                  "Voila CPU per student (ms), rounds:",
                  "| variant | mean | rounds | first student | a round's students, "
                  "all files (s, median) |", "|---|---:|---|---:|---:|"]
        for n, r in server.items():
            lines.append(f"| {n} | {1000 * r['mean']:.0f} | "
                         + " ".join(f"{1000 * x:.0f}" for x in r["rounds_s"])
                         + f" | {1000 * r['first_student_s']:.0f} "
                         f"| {np.median(r['wall_s']):.2f} |")
        for what, off in (("static-file cache", "no static cache"),
                          ("gzip cache", "no gzip cache")):
            d = saving(server[off]["rounds_s"], shipped["rounds_s"])
            lines.append(f"- the {what} saves {1000 * d['saved']:.0f} ms per student "
                         f"(95 % interval {1000 * d['low']:.0f} to {1000 * d['high']:.0f}), "
                         f"{100 * d['share']:.0f} % of Voila's CPU for the files")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("text", "server", "all"))
    ap.add_argument("--moves", type=int, default=30, help="text: moves per variant")
    ap.add_argument("--rounds", type=int, default=5, help="server: rounds")
    ap.add_argument("--students", type=int, default=10, help="server: students per round")
    ap.add_argument("--lesson", default="02_euler_vs_slerp", help="server: the page")
    ap.add_argument("--json", help="write the rows here too")
    args = ap.parse_args(argv)
    start = load()
    print(f"load average at the start: {start}", file=sys.stderr, flush=True)
    rows = []
    if args.part in ("text", "all"):
        rows += run_text(args.moves)
    if args.part in ("server", "all"):
        rows += run_server(args.rounds, args.students, args.lesson)
    end = load()
    print(f"load average at the end: {end}", file=sys.stderr, flush=True)
    print(report(rows))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"load_start": start, "load_end": end,
                                                "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
