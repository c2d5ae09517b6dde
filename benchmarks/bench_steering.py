"""Lesson 3: what a learner waits for, kernel side with a full Agg draw: a parameter change
(re-simulate 30 s + redraw), a click on the map (place the car + re-simulate + redraw), a time
scrub (move artists + redraw, no simulation), the speed sweep (66 runs stepped together), and
``simulate`` alone for a 40 s run at 60 Hz next to a plain pure-pursuit loop. CPU time: the
machine is shared, the wall clock mostly measures the neighbours."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from lessons_lib.apps.steering import SteeringApp
from lessons_lib.controllers import PurePursuit
from lessons_lib.steering import SteeringParams
from lessons_lib.sweep import speed_sweep
from lessons_lib.tracks import track
from lessons_lib.vehicle import Vehicle, simulate, simulate_controller

from common import cpu_ms, full_draw, row


def pure_pursuit_loop(spline, speed, duration, dt=1 / 60, look_ahead=8.0):
    """The straightforward reference: pure pursuit on a bicycle with an instant wheel,
    nearest point by the spline's hinted search. No recording beyond x, y."""
    car = Vehicle()
    x, y, yaw = (*spline.location_at(0.0), 0.0)
    d = spline.direction_at(0.0)
    yaw = math.atan2(d[1], d[0])
    progress = 0.0
    xs, ys = [], []
    max_wheel = math.radians(car.max_wheel_angle)
    for _ in range(int(round(duration / dt)) + 1):
        progress = spline.closest_distance((x, y), hint=progress)
        tx, ty = spline.location_at(progress + look_ahead)
        alpha = math.atan2(ty - y, tx - x) - yaw
        delta = math.atan2(2 * car.wheelbase * math.sin(alpha), look_ahead)
        delta = max(-max_wheel, min(max_wheel, delta))
        yaw += speed / car.wheelbase * math.tan(delta) * dt
        x += speed * math.cos(yaw) * dt
        y += speed * math.sin(yaw) * dt
        xs.append(x)
        ys.append(y)
    return xs, ys


def run() -> list[dict]:
    rows = []
    app = SteeringApp(preset="All three: back to the centre line")
    app.fig.canvas.syncing_data_url = False  # the live-page case: a browser takes the diff
    gains = iter([0.2 + 0.0007 * i for i in range(400)])  # new values: no cached run

    def param_change():
        app.crosstrack_gain.value = next(gains)
        full_draw(app.fig)

    times = iter([1.0, 7.5, 13.0, 22.25] * 400)

    def scrub():
        app.time.value = next(times)
        full_draw(app.fig)

    oval = track("oval")
    spots = []
    for i in range(400):  # each click a new start: along the track, 0-2 m to the right
        s = 5.0 + 0.7 * i
        d = oval.direction_at(s)
        spots.append(oval.location_at(s) + 0.4 * (i % 6) * np.array([d[1], -d[0]]))
    points = iter(spots)

    def click():
        x, y = next(points)
        app.drag._press(SimpleNamespace(inaxes=app.ax_map, xdata=x, ydata=y))
        app.drag._end(None)
        full_draw(app.fig)

    rows.append(row("parameter change: re-simulate 30 s + full redraw",
                    cpu_ms(param_change, repeat=15), budget="<= 100 ms"))
    rows.append(row("click on the map: place the car, re-simulate, full redraw",
                    cpu_ms(click, repeat=15), budget="<= 100 ms"))
    rows.append(row("time scrub: move artists + full redraw (no simulation)",
                    cpu_ms(scrub, repeat=30), budget="<= 50 ms"))
    app.view.value = "Phase portrait"
    rows.append(row("time scrub, phase portrait view", cpu_ms(scrub, repeat=20)))
    app.view.value = "Terms"
    rows.append(row("full Agg redraw alone", cpu_ms(lambda: full_draw(app.fig), repeat=20)))

    params = SteeringParams()
    pos = SteeringParams(use_heading=False, use_crosstrack=False)
    rows.append(row("speed sweep: 3 modes x 22 speeds x 30 s, stepped together",
                    cpu_ms(lambda: speed_sweep(oval, pos), repeat=3, warmup=1),
                    note="the app caches it; the speed and mode controls do not re-run it"))
    rows.append(row("simulate(): 40 s at 60 Hz, oval, 3 terms",
                    cpu_ms(lambda: simulate(oval, params, 10.0, 40.0), repeat=10),
                    note="2401 steps, every term recorded"))
    rows.append(row("plain pure-pursuit loop (numpy API): 40 s at 60 Hz",
                    cpu_ms(lambda: pure_pursuit_loop(oval, 10.0, 40.0), repeat=5),
                    note="reference: same track, per-step numpy calls"))
    rows.append(row("simulate_controller(PurePursuit): 40 s at 60 Hz",
                    cpu_ms(lambda: simulate_controller(oval, PurePursuit(), 10.0, 40.0),
                           repeat=10)))
    return rows
