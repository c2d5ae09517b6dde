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



def _aircraft_drag(app) -> list[dict]:
    """Fly it: one pointer move of a drag on the aircraft (the canvas event through the
    app's drag handler: the body turn, the sliders, the compute, the panel) plus a full
    draw; and the turn alone (the screen drag to a body turn and its ring solve)."""
    from matplotlib.backend_bases import MouseEvent

    from lessons_lib.apps.gimbal import model

    app.set_angles(yaw=35.0, pitch=-20.0, roll=15.0)
    full_draw(app.fig)
    canvas = app.fig.canvas
    x0, y0 = app.view.centre_px()
    press = MouseEvent("button_press_event", canvas, x0, y0, button=1)
    canvas.callbacks.process("button_press_event", press)
    steps = itertools.cycle([6.0] * 10 + [-6.0] * 10)       # to and fro, 60 px each way
    at = [x0]

    def step():
        at[0] += next(steps)
        event = MouseEvent("motion_notify_event", canvas, at[0], y0, button=1)
        event.buttons = {1}
        canvas.callbacks.process("motion_notify_event", event)
        full_draw(app.fig)

    rows = [row("drag on the aircraft: one move + full draw", time_ms(step), budget=BUDGET,
                note="a turn about the fin, wall clock"),
            row("drag on the aircraft: one move + full draw", cpu_ms(step), budget=BUDGET,
                note="a turn about the fin, CPU time")]
    canvas.callbacks.process("button_release_event", MouseEvent(
        "button_release_event", canvas, at[0], y0, button=1))
    assert app.flight is not None, "the drag did not turn the aircraft"
    R, frame = app.state.matrix, app.view.camera_frame()
    angles = app.angles()

    def turn_alone():
        axis, angle = model.drag_turn(R, frame, 6.0, 0.0)
        model.fly(angles, axis, angle)

    rows.append(row("drag on the aircraft: the turn alone", time_ms(turn_alone),
                    note="drag -> body axis and angle -> rings solved (no draw)"))
    return rows


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

        rows.extend(_aircraft_drag(app))

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
