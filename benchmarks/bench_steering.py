"""Lesson 3: re-simulate + redraw on a parameter change, redraw on a time scrub (kernel side,
full Agg draw), and ``simulate`` alone for a 40 s run at 60 Hz next to a plain pure-pursuit
loop on the same track."""

from __future__ import annotations

import math

from lessons_lib.apps.steering import SteeringApp
from lessons_lib.controllers import PurePursuit
from lessons_lib.steering import SteeringParams
from lessons_lib.tracks import track
from lessons_lib.vehicle import Vehicle, simulate, simulate_controller

from common import full_draw, row, time_ms


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
    speeds = iter([9.5, 10.5] * 200)
    n = app.time.max

    def param_change():
        app.speed.value = next(speeds)  # the observer re-simulates 30 s and redraws
        full_draw(app.fig)

    def scrub():
        app.time.value = (app.time.value + 97) % n
        full_draw(app.fig)

    # With a browser attached, ipympl sends only a PNG of the changed pixels; with no
    # front-end (as here) it also re-encodes the whole image into _data_url on every draw.
    # Measure the live-page case (what a learner waits for) and the headless one.
    for live in (True, False):
        app.fig.canvas.syncing_data_url = not live
        where = "live page" if live else "headless, +data_url PNG"
        rows.append(row(f"parameter change: re-simulate 30 s + full redraw ({where})",
                        time_ms(param_change, repeat=20), budget="<= 80 ms" if live else ""))
        rows.append(row(f"time scrub: move artists + full redraw ({where})",
                        time_ms(scrub, repeat=30), budget="<= 50 ms" if live else ""))
    app.fig.canvas.syncing_data_url = False
    rows.append(row("full Agg redraw alone (live page)",
                    time_ms(lambda: full_draw(app.fig), repeat=20)))

    oval = track("oval")
    params = SteeringParams()
    rows.append(row("simulate(): 40 s at 60 Hz, oval, 3 terms",
                    time_ms(lambda: simulate(oval, params, 10.0, 40.0), repeat=10),
                    note="2401 steps, every term recorded"))
    rows.append(row("plain pure-pursuit loop (numpy API): 40 s at 60 Hz",
                    time_ms(lambda: pure_pursuit_loop(oval, 10.0, 40.0), repeat=5),
                    note="reference: same track, per-step numpy calls"))
    rows.append(row("simulate_controller(PurePursuit): 40 s at 60 Hz",
                    time_ms(lambda: simulate_controller(oval, PurePursuit(), 10.0, 40.0),
                            repeat=10)))
    return rows
