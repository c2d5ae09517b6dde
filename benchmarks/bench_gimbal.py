"""Lesson 1: what one slider move costs on the kernel side (callback + full Agg draw).

Budget from the issue: at most 50 ms median on the 2-core teaching machine.
"""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np

from lessons_lib import rotations as rot
from lessons_lib.apps.gimbal import GimbalApp

from common import cpu_ms, full_draw, row, time_ms

BUDGET = "<= 50 ms"



def run() -> list[dict]:
    rows = []
    app = GimbalApp()
    # With a browser attached, ipympl stops re-encoding the whole figure as a PNG data URL
    # on every draw (it only sends the diff image): measure that, the case a learner has.
    app.fig.canvas.syncing_data_url = False
    try:
        for name in ("yaw", "pitch", "roll"):
            slider = app.sliders[name]
            values = itertools.cycle(np.arange(-170.0, 171.0, 7.0))

            def move(slider=slider, values=values):
                slider.value = float(next(values))
                full_draw(app.fig)

            rows.append(row(f"{name} slider: callback + full draw", time_ms(move),
                            budget=BUDGET, note="order YXZ, wall clock"))
            rows.append(row(f"{name} slider: callback + full draw", cpu_ms(move),
                            budget=BUDGET, note="order YXZ, CPU time of this process"))

        app.set_angles(pitch=90.0)
        values = itertools.cycle(np.arange(-170.0, 171.0, 7.0))

        def move_locked():
            app.yaw.value = float(next(values))
            full_draw(app.fig)

        rows.append(row("yaw slider at the lock: callback + full draw", time_ms(move_locked),
                        budget=BUDGET, note="LOCKED, wall clock"))
        rows.append(row("yaw slider at the lock: callback + full draw", cpu_ms(move_locked),
                        budget=BUDGET, note="LOCKED, CPU time"))

        orders = itertools.cycle(rot.ORDERS)

        def switch_order():
            app.order.value = next(orders)
            full_draw(app.fig)

        rows.append(row("order dropdown: re-nest + full draw", time_ms(switch_order, repeat=18),
                        budget=BUDGET))
        rows.append(row("full draw alone", time_ms(lambda: full_draw(app.fig)),
                        note="the floor under every control"))
    finally:
        plt.close(app.fig)

    ypr = np.random.default_rng(1).uniform(-180, 180, (10_000, 3)).T
    R = rot.euler_to_matrix(*ypr)
    rows.append(row("matrix_to_euler, 10k matrices (vectorised)",
                    time_ms(lambda: rot.matrix_to_euler(R), repeat=10)))
    return rows
