"""`make bench`'s share of issue 43's server CPU: ten protocol-level students each do a 60 s
scripted session of lesson 1 (slider steps, Lock it, drags, Reset), first with the kernel
drawing every frame, then with the page drawing Lock it and the drags
(benchmarks/scripted_session.py). It takes about five minutes, so it runs only with
BENCH_SESSION=1 (`BENCH_SESSION=1 make bench`); SESSION_STUDENTS sets the room's size.
"""

from __future__ import annotations

import os
import sys

from common import row


def run() -> list[dict]:
    if os.environ.get("BENCH_SESSION") != "1":
        print("  skipped: set BENCH_SESSION=1 (about five minutes)", file=sys.stderr)
        return []
    import scripted_session

    n = int(os.environ.get("SESSION_STUDENTS", "10"))
    result = scripted_session.measure(n)
    print(scripted_session.table(result), file=sys.stderr)
    broken = [p for r in result["variants"] for p in r["problems"]]
    if broken:
        raise RuntimeError(f"the scripted session went wrong: {broken[:3]}")
    where = (f"{n} students at once, {result['lesson']}, {result['seconds']:.0f} s each: "
             "kernels' and server's CPU")
    rows = [row(f"server CPU per student, session drawn by the {r['variant']}",
                r["cpu_per_student_s"], unit="s",
                note=f"{where}; {r['pngs']} PNGs, {r['live_frames']} page-drawn drag frames")
            for r in result["variants"]]
    rows.append(row("server CPU per student, page / kernel", result["page_to_kernel"],
                    unit="ratio", budget="<= 0.5", note=where))
    return rows
