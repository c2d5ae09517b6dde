"""`make bench`'s share of the classroom load test (benchmarks/classroom.py).

Ten protocol-level students by default, so `make bench` stays short:
CLASSROOM_STUDENTS=30 (or `python benchmarks/classroom.py --sweep 1,10,20,30`) for the full
measurement, CLASSROOM_KIND=chromium for browsers instead.
"""

from __future__ import annotations

import os
import sys

import classroom

from common import row


def run() -> list[dict]:
    n = int(os.environ.get("CLASSROOM_STUDENTS", "10"))
    lesson = os.environ.get("CLASSROOM_LESSON", "01_gimbal_lock")
    kind = os.environ.get("CLASSROOM_KIND", "protocol")
    r = classroom.measure(n, lesson, None, moves=3, deadline_s=120.0, kind=kind)
    print(classroom.table([r]), file=sys.stderr)
    if r["failures"]:
        raise RuntimeError(f"{len(r['failures'])} students failed: {r['failures'][:3]}")
    where = f"{n} {kind} students at once, {lesson}, one pre-heated kernel each"
    return [
        row("time to a working figure p50", r["ready_p50_s"], unit="s", note=where),
        row("time to a working figure p95", r["ready_p95_s"], unit="s", budget="< 4 s",
            note=where),
        row("time to a working figure max", r["ready_max_s"], unit="s",
            budget=f"< {classroom.SLOW_LIMIT_S:.0f} s", note=where),
        row("slider step to new image p50", r["move_p50_ms"], note=where + ", under load"),
        row("slider step to new image p95", r["move_p95_ms"], budget="<= 300 ms",
            note=where + ", under load"),
        row("peak memory, server + kernels", r["peak_server_mb"], unit="MB",
            note=f"idle before the class: {r['idle_server_mb']:.0f} MB; pre-heating took "
                 f"{r['preheat_s']:.0f} s"),
        row("server + kernels CPU per student, arrival", r["arrival_cpu_s"] / n, unit="s",
            budget="<= 0.3 s", note="until every student's page has every figure drawn"),
        row("server + kernels CPU per student, visit", r["server_cpu_s"] / n, unit="s",
            note=f"incl. 3 slider steps; whole machine {r['machine_cpu_s']:.0f} CPU-s, "
                 "shared with other work"),
    ]
