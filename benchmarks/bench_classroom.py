"""`make bench`'s share of the classroom load test (benchmarks/classroom.py).

A small room by default, so `make bench` stays short: CLASSROOM_STUDENTS=20 (or
`python benchmarks/classroom.py --sweep 5,10,20`) for the full measurement.
"""

from __future__ import annotations

import os
import sys

import classroom

from common import row


def run() -> list[dict]:
    n = int(os.environ.get("CLASSROOM_STUDENTS", "5"))
    lesson = os.environ.get("CLASSROOM_LESSON", "01_gimbal_lock")
    pool = int(os.environ.get("CLASSROOM_POOL", "4"))
    r = classroom.measure(n, lesson, pool, moves=3, deadline_s=180.0)
    print(classroom.table([r]), file=sys.stderr)
    if r["failures"]:
        raise RuntimeError(f"{len(r['failures'])} students failed: {r['failures'][:3]}")
    where = f"{n} students, {lesson}, pool {pool}"
    return [
        row("time to a working figure p50", r["ready_p50_s"], unit="s", note=where),
        row("time to a working figure p95", r["ready_p95_s"], unit="s", note=where),
        row("time to a working figure max", r["ready_max_s"], unit="s",
            budget=f"< {classroom.SLOW_LIMIT_S:.0f} s", note=where),
        row("slider key to new pixels p50", r["move_p50_ms"], note=where + ", under load"),
        row("slider key to new pixels p95", r["move_p95_ms"], note=where + ", under load"),
        row("peak memory, server + kernels", r["peak_server_mb"], unit="MB",
            note=f"idle before the class: {r['idle_server_mb']:.0f} MB"),
        row("server + kernels CPU per student", r["server_cpu_s"] / n, unit="s",
            note=f"whole machine incl. the {n} browsers: {r['machine_cpu_s']:.0f} s"),
    ]
