"""`make bench`'s share of the hub: a student from "Sign in" to lesson 1's first figure, in
Chromium, on the trial hub (benchmarks/hub.py --sign-in), for one student and for ten
arriving within 10 s. It needs the hub extra and the proxy (`make hub-setup`) and takes
a few minutes, so it runs only with BENCH_HUB=1 (`BENCH_HUB=1 make bench`); every run is
also appended to benchmarks/results/hub-sign-in.md.
"""

from __future__ import annotations

import os
import sys

from common import row


def run() -> list[dict]:
    if os.environ.get("BENCH_HUB") != "1":
        print("  skipped: set BENCH_HUB=1 (needs `make hub-setup`)", file=sys.stderr)
        return []
    import hub
    from classroom import pct

    rows = []
    for students, within in ((1, 0.0), (10, 10.0)):
        result = hub.measure_sign_in(students, within)
        text = hub.sign_in_table(result)
        print(text, file=sys.stderr)
        hub.append_sign_in(text)
        failed = [r for r in result["rows"] if r["error"]]
        if failed:
            raise RuntimeError(f"{len(failed)} students failed: {failed[:2]}")
        where = (f"{students} student(s) within {within:.0f} s; load "
                 f"{result['load_before']:.1f} before")
        for key, what in hub.SIGN_IN_STEPS:
            values = sorted(r[key] for r in result["rows"])
            rows.append(row(f"Sign in -> {what.split(':')[0].split(' (')[0]}",
                            {"median": pct(values, 0.5), "p90": pct(values, 0.9),
                             "max": values[-1]}, unit="s",
                            budget="< 6 s" if key == "figure_s" and students == 1 else "",
                            note=where))
    return rows
