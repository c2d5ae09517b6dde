"""Lesson 2 (InterpolationApp): what one control change costs on the kernel side.

Each row is the callback plus a full Agg render of the figure (``common.full_draw``).
ipympl also PNG-encodes a copy of the figure for the notebook file on every draw, but only
until a browser front-end connects; the rows marked "live" switch that off, as a connected
page does, and the "headless" row keeps it, as a kernel with no page does. The "CPU time"
rows repeat the main cases in this process's CPU time, which other work on a shared
machine does not inflate.
"""

from __future__ import annotations

import itertools

from common import cpu_ms, full_draw, row, time_ms

BUDGET = "<= 50 ms"



def run() -> list[dict]:
    import numpy as np
    import quaternion

    from lessons_lib.apps.interpolation import InterpolationApp
    from lessons_lib.interpolation import nlerp, slerp

    app = InterpolationApp()
    rows = []
    ts = itertools.cycle(np.round(np.linspace(0.0, 1.0, 37), 2))

    def scrub():
        app.t.value = float(next(ts))
        full_draw(app.fig)

    app.fig.canvas.syncing_data_url = True
    rows.append(row("scrub t, headless (with data-URL PNG)", time_ms(scrub), budget=BUDGET))
    app.fig.canvas.syncing_data_url = False
    rows.append(row("scrub t + full draw (live)", time_ms(scrub), budget=BUDGET,
                    note=f"Play frame interval {app.frame.interval_ms} ms"))
    yaws = itertools.cycle(range(-60, 61, 7))

    def move_start_yaw():
        app.yaw0.value = next(yaws)
        full_draw(app.fig)

    rows.append(row("start yaw slider + full draw (live)", time_ms(move_start_yaw),
                    budget=BUDGET))
    presets = itertools.cycle([p.name for p in app.preset_list()])

    def preset():
        app.preset.value = next(presets)
        full_draw(app.fig)

    rows.append(row("preset change + full draw (live)", time_ms(preset, repeat=15),
                    budget=BUDGET))
    flips = itertools.cycle([True, False])

    def long_way():
        app.long_way.value = next(flips)
        full_draw(app.fig)

    rows.append(row("long-way toggle + full draw (live)", time_ms(long_way), budget=BUDGET))
    rows.append(row("scrub t + full draw (live), CPU time", cpu_ms(scrub), budget=BUDGET))
    rows.append(row("start yaw + full draw (live), CPU time", cpu_ms(move_start_yaw),
                    budget=BUDGET))
    rows.append(row("preset + full draw (live), CPU time", cpu_ms(preset, repeat=15),
                    budget=BUDGET))

    q0 = quaternion.from_rotation_vector([0.3, 1.0, -0.2])
    q1 = quaternion.from_rotation_vector([-1.0, 0.4, 2.0])
    t = np.linspace(0.0, 1.0, 10_000)
    rows.append(row("slerp, 10 000 samples", time_ms(lambda: slerp(q0, q1, t))))
    rows.append(row("nlerp, 10 000 samples", time_ms(lambda: nlerp(q0, q1, t))))
    return rows
