"""Server CPU per student for a scripted session of lesson 1, page-drawn against kernel-drawn
(issue 43).

Each simulated student (:mod:`protocol_student`, no browser) opens lesson 1 from a room
server (:class:`classroom.Server`), waits for the rest of the room, then repeats the same
cycle on the app's figure as many times as fit in about ``seconds``, at the same moments
whatever comes back (so both variants ask the kernel for the same work): four
slider steps, "Lock it", a drag of the aircraft (a pointer move every 25 ms, or every
``pan_zoom_throttle`` ms of the canvas if that is longer, as ipympl's page sends them),
"Reset". Two variants of student, one after the other on the same server:

- **kernel**: the page never says its player is ready, so the kernel renders a PNG for
  every frame of Lock it and every move of a drag (the path before issue 43);
- **page**: the page says ``ready`` to the app's MotionPlayer, answers ``shown`` while an
  animation plays and ``ended`` when its time is up, and ``drawn`` for each frame of a
  drag, as ``player.js`` does.

Measured for each: the CPU seconds (user + system) of the students' own kernel processes
and of the server process from the start of the session until the kernels are quiet again,
per student. Checked on the way: the page variant got frames of its drags to draw and no
PNG of the figure while it drew one (between the drag's ``begin`` and ``hide``), the kernel
variant PNGs during its drags and no frame to draw. Only loopback is contacted; every wait
has a deadline; the server stops in ``finally``.

    python benchmarks/scripted_session.py --students 10
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import classroom  # noqa: E402
import protocol_student as ps  # noqa: E402

VARIANTS = ("kernel", "page")
PLAYER = "AnyModel"           # anywidget's model name: a MotionPlayer's, with its ``_esm``
LOCK_ICON, RESET_ICON = "lock", "undo"   # the app's "Lock it" and "Reset" buttons
#: Where a drag of the aircraft starts and turns back: fractions of the figure's width and
#: height from its top left (as benchmarks/bench_browser.py drags it).
DRAG_FROM, DRAG_TO = (0.513, 0.486), (0.63, 0.486)
DRAG_MOVES, MOVE_S = 60, 0.025
#: Seconds each part of the cycle lasts: a slider step, Lock it, after a drag, Reset.
STEP_S, LOCK_S, AFTER_DRAG_S, RESET_S = 0.5, 2.0, 1.0, 1.5
SHOWN_S = 0.2                 # how often the page says which frame it shows (player.js)
PHASES = ("sliders", "lock", "drag", "reset")
SAMPLE_S = 0.1                # how often the kernels' and server's CPU is read
#: After the session: the kernels are quiet once they spend less than this share of a core
#: each over :data:`QUIET_S` (at most :data:`TAIL_S` of waiting).
QUIET_SHARE, QUIET_S, TAIL_S = 0.05, 0.5, 30.0


def cycle_s(move_s: float = MOVE_S) -> float:
    """How long one cycle of the session lasts, with a pointer move every ``move_s``."""
    return 4 * STEP_S + LOCK_S + (DRAG_MOVES + 1) * move_s + AFTER_DRAG_S + RESET_S


def session_lesson() -> str:
    """Lesson 1's notebook stem, from the catalogue."""
    from lessons_lib.catalogue import LESSONS

    return LESSONS[0].slug


def find_controls(html: str, states: dict, canvas: str, player_esm: str | None = None) -> dict:
    """The model ids of the MotionPlayer (the anywidget whose front end is ``player_esm``,
    by default ``player.js``) and of the Lock it and Reset buttons shown in the same app as
    ``canvas`` (a StudentError when one is missing)."""
    if player_esm is None:
        from lessons_lib.apps.fastdraw.player import ESM as player_esm
    order = ps.shown_models(html, states)
    top = next((t for t, m in order if m == canvas), None)
    mine = [m for t, m in order if t == top]
    found = {}
    for key, wanted in (("lock", LOCK_ICON), ("reset", RESET_ICON)):
        found[key] = next((m for m in mine if states[m]["model_name"] == "ButtonModel"
                           and states[m]["state"].get("icon") == wanted), None)
    found["player"] = next((m for m in mine if states[m]["model_name"] == PLAYER
                            and states[m]["state"].get("_esm") == player_esm), None)
    missing = [k for k, v in found.items() if v is None]
    if missing:
        raise ps.StudentError(f"the app shows no {', '.join(missing)}")
    return found


def drag_events(width: int, height: int, moves: int = DRAG_MOVES) -> list[dict]:
    """A drag as ipympl's page sends it, in canvas pixels from the top left: a press at
    :data:`DRAG_FROM`, ``moves`` moves with the button held out to :data:`DRAG_TO` and
    back, a release where it started."""
    if width < 1 or height < 1 or moves < 2:
        raise ValueError("a drag needs a canvas of at least 1 x 1 and two moves")
    (x0, y0), (x1, y1) = DRAG_FROM, DRAG_TO

    def at(kind: str, f: float, buttons: int) -> dict:
        return {"type": kind, "x": (x0 + f * (x1 - x0)) * width,
                "y": (y0 + f * (y1 - y0)) * height, "button": 0, "buttons": buttons,
                "modifiers": [], "guiEvent": {}}

    half = moves // 2
    out = [at("button_press", 0.0, 1)]
    out += [at("motion_notify", 1 - abs(1 - 2 * (i + 1) / (2 * half)), 1)
            for i in range(2 * half)]
    out += [at("motion_notify", 0.0, 1)] * (moves - 2 * half)
    return [*out, at("button_release", 0.0, 0)]


@dataclass
class Room:
    """What the students of one variant wait for together."""

    n: int
    arrived: int = 0
    done: int = 0
    all_arrived: asyncio.Event = field(default_factory=asyncio.Event)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    all_done: asyncio.Event = field(default_factory=asyncio.Event)
    leave: asyncio.Event = field(default_factory=asyncio.Event)

    def count(self, what: str) -> None:
        setattr(self, what, getattr(self, what) + 1)
        if getattr(self, what) == self.n:
            getattr(self, f"all_{what}").set()


@dataclass
class Session:
    """One student's scripted session (``visit``'s ``script``) and what it received."""

    variant: str
    room: Room
    seconds: float
    pngs: int = 0
    pngs_in_drags: int = 0
    pngs_while_page_drew: int = 0
    live_frames: int = 0
    moves: int = 0
    page_plays: int = 0
    drags: int = 0
    locks: int = 0
    dragging: bool = False
    page_draws: bool = False      # between a drag's "begin" and its "hide"
    move_s: float = MOVE_S
    shown: int = 0
    counted: set = field(default_factory=set)
    marks: list = field(default_factory=list)         # (monotonic time, phase begun)
    heard: Counter = field(default_factory=Counter)   # the player's messages, by type
    _token: int = 0
    _frames: int = 0
    _playing: asyncio.Task | None = None

    async def __call__(self, page: ps.Page) -> None:
        from PIL import Image

        self.page = page
        ids = find_controls(page.html, page.states, page.canvas)
        self.player = ids["player"]
        value = dict(page.states[page.slider]["state"])
        page.listeners.append(self.hear)
        if self.variant == "page":
            self.say({"type": "ready"})
        width, height = Image.open(io.BytesIO(page.first_image)).size
        drag = drag_events(width, height)
        throttle_ms = page.states[page.canvas]["state"].get("pan_zoom_throttle") or 0
        self.move_s = max(MOVE_S, throttle_ms / 1000)     # ipympl's page waits that long
        self.count("arrived")
        await self.room.go.wait()
        try:
            for _ in range(max(1, round(self.seconds / cycle_s(self.move_s)))):
                self.mark("sliders")
                for _ in range(4):
                    value["value"] = ps.next_value(value)
                    page.kernel.comm(page.slider, {"method": "update", "buffer_paths": [],
                                                   "state": {"value": value["value"]}})
                    await asyncio.sleep(STEP_S)
                self.mark("lock")
                self.click(ids["lock"])
                self.locks += 1
                await asyncio.sleep(LOCK_S)
                self.mark("drag")
                self.drags += 1
                began = time.monotonic()
                for i, event in enumerate(drag):
                    self.dragging = event["type"] != "button_release"
                    self.moves += event["type"] == "motion_notify"
                    page.kernel.comm(page.canvas, {"method": "custom", "content": event})
                    if i < len(drag) - 1:    # on the clock: a late move makes none later
                        await asyncio.sleep(max(0.0, began + (i + 1) * self.move_s
                                                - time.monotonic()))
                await asyncio.sleep(AFTER_DRAG_S)
                self.mark("reset")
                self.click(ids["reset"])
                await asyncio.sleep(RESET_S)
        finally:
            self.mark("end")
            self.dragging = False
            self._cancel()
        self.count("done")
        await self.room.leave.wait()

    def count(self, what: str) -> None:
        """Tell the room this student ``arrived`` or is ``done``, once each."""
        if what not in self.counted:
            self.counted.add(what)
            self.room.count(what)

    def mark(self, phase: str) -> None:
        self.marks.append((time.monotonic(), phase))

    def click(self, button: str) -> None:
        self.page.kernel.comm(button, {"method": "custom", "content": {"event": "click"}})

    def say(self, content: dict) -> None:
        self.page.kernel.comm(self.player, {"method": "custom", "content": content})

    def hear(self, _channel, msg: dict, buffers: list) -> None:
        c = msg["content"]
        if msg["msg_type"] != "comm_msg" or c.get("data", {}).get("method") != "custom":
            return
        if c.get("comm_id") == self.page.canvas:
            kind = json.loads(c["data"]["content"].get("data", "{}")).get("type")
            if kind == "binary" and buffers:
                self.pngs += 1
                self.pngs_in_drags += self.dragging
                self.pngs_while_page_drew += self.page_draws
        elif c.get("comm_id") == self.player:
            self.player_says(c["data"]["content"])

    def player_says(self, m: dict) -> None:
        """What player.js does with the kernel's messages, minus the drawing."""
        kind = m.get("type")
        self.heard[kind] += 1
        if kind == "begin":
            self._cancel()
            self._token, self._frames = m["token"], m["frames"]
            self.page_draws = m["frames"] == 1        # a drag's: one frame at a time
        elif kind == "frames" and m.get("show"):
            self.live_frames += 1             # drawn at once, and said so (flow control)
            self.say({"type": "drawn", "token": self._token, "frame": m.get("first", 0)})
        elif kind == "hide":
            self.page_draws = False
        elif kind == "play" and m.get("token") == self._token:
            self._cancel()
            self.page_plays += 1
            self._playing = asyncio.ensure_future(
                self._play(m["frame"], m["interval_ms"] / 1000))
        elif kind in ("stop", "hide") and self._playing is not None:
            self._cancel(answer="stopped" if kind == "stop" else None)

    async def _play(self, first: int, interval_s: float) -> None:
        last, start = self._frames - 1, time.monotonic()
        self.shown = first
        while self.shown < last:
            await asyncio.sleep(min(SHOWN_S, (last - self.shown) * interval_s))
            self.shown = min(last, first + int((time.monotonic() - start) / interval_s))
            if self.shown < last:
                self.say({"type": "shown", "token": self._token, "frame": self.shown})
        self._playing = None
        self.say({"type": "ended", "token": self._token, "frame": last})

    def _cancel(self, answer: str | None = None) -> None:
        if self._playing is not None:
            self._playing.cancel()
            self._playing = None
            if answer:
                self.say({"type": answer, "token": self._token, "frame": self.shown})


def by_phase(samples: list[tuple[float, float]], marks: list[tuple[float, str]]) -> dict:
    """CPU seconds spent in each phase: ``samples`` of (time, CPU seconds so far), each
    rise between two samples given to the phase begun last before their midpoint
    (``marks``: (time, phase) in time order; before the first mark or after ``"end"``,
    nothing)."""
    out = dict.fromkeys(PHASES, 0.0)
    for (t0, c0), (t1, c1) in zip(samples, samples[1:], strict=False):
        mid = (t0 + t1) / 2
        begun = [phase for t, phase in marks if t <= mid]
        if begun and begun[-1] in out:
            out[begun[-1]] += c1 - c0
    return out


def kernel_pids(server: classroom.Server, kernel_ids: list[str]) -> list[int]:
    """The processes of these kernels (each named in its connection file's path)."""
    pids = []
    for child in psutil.Process(server.proc.pid).children(recursive=True):
        try:
            line = " ".join(child.cmdline())
        except psutil.NoSuchProcess:
            continue
        if any(k in line for k in kernel_ids):
            pids.append(child.pid)
    return pids


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            t = psutil.Process(pid).cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system
    return total


async def run_variant(server: classroom.Server, n: int, variant: str, seconds: float,
                      deadline_s: float) -> dict:
    """``n`` students of ``variant`` at once: they open the lesson, then the session runs
    for all of them together while their kernels' and the server's CPU is counted."""
    room = Room(n)
    sessions = [Session(variant, room, seconds) for _ in range(n)]
    students = [ps.ProtocolStudent(i) for i in range(n)]
    path = f"/voila/render/{server.lesson}.ipynb"
    start = time.monotonic()

    async def one(student: ps.ProtocolStudent, session: Session) -> None:
        await ps.visit(student, server.url, path, server.token, start, deadline_s, moves=0,
                       script=session)
        session.count("arrived")    # a student who failed holds up no one
        session.count("done")

    visits = asyncio.gather(*(one(st, se) for st, se in zip(students, sessions, strict=True)))

    async def until(event: asyncio.Event) -> None:
        waiting = asyncio.ensure_future(event.wait())
        await asyncio.wait({waiting, visits}, timeout=deadline_s,
                           return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if not event.is_set():
            room.go.set()
            room.leave.set()
            await visits
            raise RuntimeError("the room broke up: " + "; ".join(
                f"student {s.index}: {s.error}" for s in students if s.error)[:600])

    await until(room.all_arrived)
    pids = kernel_pids(server, [s.kernel_id for s in students])
    samples: list[tuple[float, float]] = []

    async def sample() -> None:
        while True:
            samples.append((time.monotonic(), cpu_of(pids) + server.main_cpu_s()))
            await asyncio.sleep(SAMPLE_S)

    kernels0, server0, t0 = cpu_of(pids), server.main_cpu_s(), time.monotonic()
    sampling = asyncio.ensure_future(sample())
    room.go.set()
    await until(room.all_done)
    tail = time.monotonic()
    while time.monotonic() - tail < TAIL_S:  # what the kernels still had to do is counted
        before = cpu_of(pids)
        await asyncio.sleep(QUIET_S)
        if cpu_of(pids) - before < QUIET_SHARE * QUIET_S * len(pids):
            break
    tail = time.monotonic() - tail
    kernels_cpu = cpu_of(pids) - kernels0
    server_cpu = server.main_cpu_s() - server0
    wall = time.monotonic() - t0
    sampling.cancel()
    room.leave.set()
    await visits
    phases = by_phase(samples, sessions[0].marks)
    return {
        "variant": variant, "students": n, "seconds": wall, "tail_s": tail,
        "kernel_processes": len(pids),
        "kernels_cpu_s": kernels_cpu, "server_cpu_s": server_cpu,
        "cpu_per_student_s": (kernels_cpu + server_cpu) / n,
        "phase_cpu_per_student_s": {k: v / n for k, v in phases.items()},
        "pngs": sum(s.pngs for s in sessions),
        "pngs_in_drags": sum(s.pngs_in_drags for s in sessions),
        "pngs_while_page_drew": sum(s.pngs_while_page_drew for s in sessions),
        "live_frames": sum(s.live_frames for s in sessions),
        "moves": sum(s.moves for s in sessions),
        "page_plays": sum(s.page_plays for s in sessions),
        "drags": sum(s.drags for s in sessions), "locks": sum(s.locks for s in sessions),
        "move_ms": max(s.move_s for s in sessions) * 1000,
        "player_said": dict(sum((s.heard for s in sessions), Counter())),
        "errors": [f"student {s.index}: {s.error}" for s in students if s.error],
    }


def problems(r: dict) -> list[str]:
    """What is wrong with a variant's run: errors, a kernel per student not found, and the
    check that each variant drew its drags where it says."""
    out = list(r["errors"])
    if r["kernel_processes"] != r["students"]:
        out.append(f"{r['kernel_processes']} kernel processes for {r['students']} students")
    if r["variant"] == "page" and (r["pngs_while_page_drew"] or not r["live_frames"]):
        out.append(f"page variant: {r['pngs_while_page_drew']} PNGs while the page drew a "
                   f"drag, {r['live_frames']} frames of drags to draw")
    if r["variant"] == "kernel" and (not r["pngs_in_drags"] or r["live_frames"]):
        out.append(f"kernel variant: {r['pngs_in_drags']} PNGs during the drags, "
                   f"{r['live_frames']} frames of drags to draw")
    return out


def measure(n: int, seconds: float = 60.0, variants: tuple[str, ...] = VARIANTS) -> dict:
    """Every variant in turn, ``n`` students each, on one server with a pre-heated kernel
    for each student of each variant (no refill while they work)."""
    server = classroom.Server(session_lesson(), n * len(variants), refill_after=3600.0)
    results = []
    try:
        server.wait_ready()
        for variant in variants:
            time.sleep(3.0)         # the previous variant's kernels settle
            r = asyncio.run(run_variant(server, n, variant, seconds, seconds + 180.0))
            r["problems"] = problems(r)
            results.append(r)
    finally:
        server.stop()
    by = {r["variant"]: r for r in results}
    ratio = (by["page"]["cpu_per_student_s"] / by["kernel"]["cpu_per_student_s"]
             if {"page", "kernel"} <= by.keys() else float("nan"))
    return {"lesson": server.lesson, "students": n, "seconds": seconds, "variants": results,
            "page_to_kernel": ratio, "preheat_s": server.preheat_s}


def table(result: dict) -> str:
    lines = ["| variant | CPU / student | kernels | server | PNGs | PNGs during drags "
             "| PNGs while the page drew | drag frames for the page | drag moves "
             "| Lock it in the page | tail | problems |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    n = result["students"]
    for r in result["variants"]:
        lines.append(
            f"| {r['variant']} | {r['cpu_per_student_s']:.2f} s "
            f"| {r['kernels_cpu_s'] / n:.2f} s | {r['server_cpu_s'] / n:.2f} s | {r['pngs']} "
            f"| {r['pngs_in_drags']} | {r['pngs_while_page_drew']} | {r['live_frames']} "
            f"| {r['moves']} | {r['page_plays']} of {r['locks']} | {r['tail_s']:.1f} s "
            f"| {'; '.join(r['problems'])[:200] or '-'} |")
    lines.append("\nCPU per student by part of the cycle (from the moment the first student "
                 "began it):")
    for r in result["variants"]:
        lines.append(f"  {r['variant']}: " + ", ".join(
            f"{k} {v:.2f} s" for k, v in r["phase_cpu_per_student_s"].items()))
    return "\n".join(lines) + f"\n\npage / kernel: {result['page_to_kernel']:.2f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="scripted session, page- against kernel-drawn")
    ap.add_argument("--students", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--json", help="also write the result here")
    args = ap.parse_args(argv)
    if not 1 <= args.students <= 30 or not 5 <= args.seconds <= 600:
        raise SystemExit("1 to 30 students, 5 to 600 seconds")
    result = measure(args.students, args.seconds)
    print(table(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 1 if any(r["problems"] for r in result["variants"]) else 0


if __name__ == "__main__":
    raise SystemExit(main())
