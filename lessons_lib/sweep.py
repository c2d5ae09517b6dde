"""Many runs of the article's steering at once: the speed sweep behind the look-ahead claim.

The article argues that no fixed look-ahead suits every speed and every bend, and that a
look-ahead that grows with speed and shrinks with curvature does. One run at one speed cannot
show that; a sweep over speeds can. :func:`speed_sweep` drives fixed long, fixed short and
adaptive look-ahead at every speed of a range on one track and returns their crosstrack
errors.

:func:`simulate_many` steps all the cars together with numpy, one array entry per car. Each
step is the same computation as :func:`lessons_lib.vehicle.simulate` (same car, steering
rack, closest-point search, open-road end), written on arrays, so its metrics equal the
one-car simulation's (the tests compare them); 66 runs of 30 s take about the time of ten
single runs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import validate as check
from .spline import Spline
from .steering import (
    CURVATURE_SCALE,
    CURVY_HEADING_WEIGHT,
    MIN_LOOK_AHEAD_SCALE,
    SteeringParams,
)
from .tracks import ROAD_HALF_WIDTH
from .vehicle import SETTLE_TOLERANCE, Vehicle, _check_run, start_pose

__all__ = ["simulate_many", "Runs", "speed_sweep", "SpeedSweep", "SWEEP_MODES",
           "FIXED_LONG", "FIXED_SHORT", "SWEEP_SPEEDS", "MAX_CAR_STEPS", "NO_BEST", "ALL_OFF"]

#: The lesson's two fixed look-ahead distances (m): one long, one short.
FIXED_LONG, FIXED_SHORT = 25.0, 1.5
#: Look-ahead modes of a sweep, in the order of :attr:`SpeedSweep.rms`.
SWEEP_MODES = ("Fixed long", "Fixed short", "Adaptive")
#: :meth:`SpeedSweep.best` at a speed where every mode leaves the road: none is best there.
NO_BEST = -1
#: What :meth:`SpeedSweep.regions` names a run of speeds where every mode leaves the road.
ALL_OFF = "All off the road"
#: The most car-steps one :func:`simulate_many` runs (cars x duration / dt): 550 cars for
#: 60 s at 60 Hz. Its memory is two floats per car-step (32 MB at the cap).
MAX_CAR_STEPS = 2_000_000
#: Default speeds of a sweep (m/s).
SWEEP_SPEEDS = tuple(float(v) for v in range(4, 26))


@dataclass(frozen=True)
class Runs:
    """Per-step arrays of ``n`` runs stepped together: shape (steps, n); NaN after a run's
    open road ended. ``steps[i]`` is how many steps run ``i`` recorded."""

    t: np.ndarray
    crosstrack_error: np.ndarray
    steering_input: np.ndarray
    steps: np.ndarray
    ended: np.ndarray

    def metrics(self, tolerance: float = SETTLE_TOLERANCE) -> dict[str, np.ndarray]:
        """:func:`lessons_lib.vehicle.run_metrics` for every run, as arrays of length n."""
        tolerance = check.length(tolerance, "tolerance")
        cte = self.crosstrack_error
        valid = np.isfinite(cte)
        a = np.where(valid, np.abs(cte), 0.0)
        n = self.steps
        rms = np.sqrt(np.sum(a ** 2, axis=0) / n)
        du = np.abs(np.diff(self.steering_input, axis=0))
        movement = np.sum(np.where(np.isfinite(du), du, 0.0), axis=0)
        off = valid & (a >= tolerance)
        settle = np.full(cte.shape[1], math.nan)
        for i in range(cte.shape[1]):
            rows = np.flatnonzero(off[:, i])
            if len(rows) == 0:
                settle[i] = 0.0
            elif rows[-1] < n[i] - 1:
                settle[i] = self.t[rows[-1] + 1]
        return {"rms_crosstrack": rms, "max_crosstrack": np.max(a, axis=0),
                "steering_movement": movement, "settle_time": settle}


def _field(params: Sequence[SteeringParams], name: str) -> np.ndarray:
    return np.array([getattr(p, name) for p in params], dtype=float)


def simulate_many(spline: Spline, params: Sequence[SteeringParams], speeds: Sequence[float],
                  duration: float, dt: float = 1 / 60, start_distance: float = 0.0,
                  start_offset: float = 0.0, start_heading_error: float = 0.0,
                  vehicle: Vehicle | None = None) -> Runs:
    """Run ``simulate(spline, params[i], speeds[i], ...)`` for every ``i`` at once, from the
    same start, and keep what the metrics need (crosstrack error, steering input)."""
    params = check.items(params, "params", "SteeringParams")
    speed = check.array(speeds, "speeds", (None,), what="speeds (m/s)", ravel=True)
    if len(params) != len(speed) or not params:
        raise ValueError(f"give one speed per SteeringParams, got {len(params)} params and "
                         f"{len(speed)} speeds")
    for p in params:
        if not isinstance(p, SteeringParams):
            raise ValueError(f"params must be SteeringParams, got {type(p)}")
        p.validate()
    for v in (speed.min(), speed.max()):  # every speed lies between these two
        vehicle = _check_run(spline, float(v), duration, dt, vehicle)
    if len(speed) * float(duration) / float(dt) > MAX_CAR_STEPS:
        raise ValueError(f"{len(speed)} cars for {float(duration) / float(dt):.0f} steps is more "
                         f"than {MAX_CAR_STEPS} car-steps: fewer speeds or a shorter run")
    n = len(speed)
    x0, y0, yaw0 = start_pose(spline, start_distance, start_offset, start_heading_error)
    x, y = np.full(n, x0), np.full(n, y0)
    yaw = np.full(n, math.radians(yaw0))
    adaptive = np.array([p.adaptive_look_ahead for p in params])
    use_pos = np.array([p.use_position for p in params])
    use_head = np.array([p.use_heading for p in params])
    use_ct = np.array([p.use_crosstrack for p in params])
    base, factor = _field(params, "look_ahead_base"), _field(params, "look_ahead_speed_factor")
    fixed, hw = _field(params, "fixed_look_ahead"), _field(params, "heading_weight")
    max_yaw, gain = _field(params, "max_yaw_delta"), _field(params, "crosstrack_gain")
    gain = np.where(use_ct, gain, 0.0)
    any_angle = use_pos | use_head

    steps = int(round(duration / dt)) + 1
    L, max_wheel = vehicle.wheelbase, math.radians(vehicle.max_wheel_angle)
    alpha = 1.0 if vehicle.steer_lag <= 0 else min(1.0, dt / vehicle.steer_lag)
    max_du = vehicle.steer_rate * dt
    length, closed = spline.length, spline.closed
    window = min(10.0, 0.25 * length)
    nose = vehicle.nose
    end = spline.frame_at(length)
    cte_rec = np.full((steps, n), np.nan)
    u_rec = np.full((steps, n), np.nan)
    alive = np.ones(n, dtype=bool)
    count = np.zeros(n, dtype=np.intp)
    progress = np.full(n, spline.closest_distance((x0, y0)))
    u = None
    for k in range(steps):
        if k:
            progress = spline.closest_near_many(np.column_stack((x, y)),
                                                spline.wrap(progress + speed * dt), window)
        here, d1, d2 = spline.frames_at(progress)
        sp2 = d1[:, 0] ** 2 + d1[:, 1] ** 2
        tx, ty = d1[:, 0] / np.sqrt(sp2), d1[:, 1] / np.sqrt(sp2)
        curvature = np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]) / (sp2 * np.sqrt(sp2))
        a = np.clip(curvature * CURVATURE_SCALE, 0.0, 1.0)
        look = np.where(adaptive, (base + speed * factor) * (1.0 + (MIN_LOOK_AHEAD_SCALE - 1.0)
                                                              * a), fixed)
        target, e1, _ = spline.frames_at(spline.wrap(progress + look))
        path_yaw = np.degrees(np.arctan2(e1[:, 1], e1[:, 0]))
        vx, vy = target[:, 0] - x, target[:, 1] - y
        target_yaw = np.where(vx * vx + vy * vy > 1e-18, np.degrees(np.arctan2(vy, vx)),
                              path_yaw)
        yaw_deg = np.degrees(yaw)
        pos_delta = (yaw_deg - target_yaw) % 360.0
        pos_delta -= 360.0 * (pos_delta > 180.0)
        head_delta = (yaw_deg - path_yaw) % 360.0
        head_delta -= 360.0 * (head_delta > 180.0)
        w = np.where(use_pos & use_head, hw + (CURVY_HEADING_WEIGHT - hw) * a,
                     np.where(use_head, 1.0, 0.0))
        yaw_cmd = np.where(any_angle, pos_delta * (1.0 - w) + head_delta * w, 0.0)
        cte = (x - here[:, 0]) * ty - (y - here[:, 1]) * tx  # dot(offset, right), right=(ty,-tx)
        command = np.clip(yaw_cmd / max_yaw - cte * gain, -1.0, 1.0)
        if u is None:
            u = command
        else:
            u = u + np.clip((command - u) * alpha, -max_du, max_du)
        cte_rec[k] = np.where(alive, cte, np.nan)
        u_rec[k] = np.where(alive, u, np.nan)
        count += alive
        if not closed:
            near_end = progress >= length - nose - 1.0
            past = ((x + nose * np.cos(yaw) - end.x) * end.dx
                    + (y + nose * np.sin(yaw) - end.y) * end.dy >= 0.0)
            alive &= ~(near_end & past)
            if not alive.any():
                break
        delta = -u * max_wheel
        new_yaw = yaw + speed / L * np.tan(delta) * dt
        mid = 0.5 * (yaw + new_yaw)
        x = x + speed * np.cos(mid) * dt
        y = y + speed * np.sin(mid) * dt
        yaw = new_yaw
    last = int(count.max())
    return Runs(t=np.arange(last) * dt, crosstrack_error=cte_rec[:last],
                steering_input=u_rec[:last], steps=count, ended=~alive)


@dataclass(frozen=True)
class SpeedSweep:
    """RMS and max crosstrack error (and steering movement) for each look-ahead mode at each
    speed: arrays of shape (3, n_speeds), rows in :data:`SWEEP_MODES` order."""

    speeds: np.ndarray
    rms: np.ndarray
    max: np.ndarray
    movement: np.ndarray
    look_ahead: tuple[float, float]  # the fixed long and fixed short distances (m)

    @property
    def off_road(self) -> np.ndarray:
        """(3, n_speeds) bools: the mode's car got further than :data:`ROAD_HALF_WIDTH` from
        the centre line at that speed (it left the road)."""
        return self.max > ROAD_HALF_WIDTH

    def best(self, metric: str = "rms") -> np.ndarray:
        """Index into :data:`SWEEP_MODES` of the mode with the smallest ``metric`` at each
        speed among the modes that stay on the road; :data:`NO_BEST` where every mode leaves
        it (a car off the road wins nothing)."""
        if metric not in ("rms", "max", "movement"):
            raise ValueError(f"metric must be 'rms', 'max' or 'movement', got {metric!r:.40}")
        values = np.where(self.off_road, np.inf, getattr(self, metric))
        return np.where(self.off_road.all(axis=0), NO_BEST, np.argmin(values, axis=0))

    def regions(self, metric: str = "rms") -> list[tuple[str, float, float]]:
        """(mode, first speed, last speed) of each run of consecutive speeds one mode wins,
        :data:`ALL_OFF` for a run where every mode leaves the road."""
        best = self.best(metric)
        out = []
        start = 0
        for i in range(1, len(best) + 1):
            if i == len(best) or best[i] != best[start]:
                name = ALL_OFF if best[start] == NO_BEST else SWEEP_MODES[best[start]]
                out.append((name, float(self.speeds[start]), float(self.speeds[i - 1])))
                start = i
        return out

    def index(self, speed: float) -> int:
        """The index of the sweep speed nearest to ``speed``."""
        speed = check.real(speed, "speed", unit="m/s")
        return int(np.argmin(np.abs(self.speeds - speed)))

    def at(self, speed: float) -> dict[str, tuple[float, float]]:
        """mode -> (RMS, max) at the sweep speed nearest to ``speed``."""
        i = self.index(speed)
        return {m: (float(self.rms[j, i]), float(self.max[j, i]))
                for j, m in enumerate(SWEEP_MODES)}


def speed_sweep(spline: Spline, params: SteeringParams | None = None,
                speeds: Sequence[float] = SWEEP_SPEEDS, duration: float = 30.0,
                fixed_long: float = FIXED_LONG, fixed_short: float = FIXED_SHORT,
                start_distance: float = 0.0, start_offset: float = 0.0,
                start_heading_error: float = 0.0, dt: float = 1 / 60,
                vehicle: Vehicle | None = None) -> SpeedSweep:
    """Fixed long, fixed short and adaptive look-ahead at every speed, with ``params``' other
    settings (terms, weights, gains, adaptive base and factor)."""
    params = SteeringParams() if params is None else params
    if not isinstance(params, SteeringParams):
        raise ValueError(f"params must be a SteeringParams or None, got {type(params).__name__}")
    speeds = check.array(speeds, "speeds", (None,), what="speeds (m/s)", ravel=True)
    fixed_long = check.length(fixed_long, "fixed_long")
    fixed_short = check.length(fixed_short, "fixed_short")
    if len(speeds) == 0:
        raise ValueError("give at least one speed")
    modes = (params.replace(adaptive_look_ahead=False, fixed_look_ahead=float(fixed_long)),
             params.replace(adaptive_look_ahead=False, fixed_look_ahead=float(fixed_short)),
             params.replace(adaptive_look_ahead=True))
    runs = simulate_many(spline, [m for m in modes for _ in speeds], np.tile(speeds, 3),
                         duration, dt, start_distance, start_offset, start_heading_error,
                         vehicle)
    m = runs.metrics()
    shape = (3, len(speeds))
    return SpeedSweep(speeds=speeds, rms=m["rms_crosstrack"].reshape(shape),
                      max=m["max_crosstrack"].reshape(shape),
                      movement=m["steering_movement"].reshape(shape),
                      look_ahead=(float(fixed_long), float(fixed_short)))
