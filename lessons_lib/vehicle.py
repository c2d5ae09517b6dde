"""A kinematic bicycle model whose steering wheel cannot jump, and the closed-loop simulation.

The car's reference point is the middle of the rear axle, its yaw is counter-clockwise from +x
in degrees (the README, Conventions). Each step (``dt``, semi-implicit Euler):

* the controller's command ``c`` in [-1, 1] (+1 = full right) goes through a first-order lag
  (time constant ``steer_lag``) and a rate limit (``steer_rate`` per second), like a real
  steering rack: this is why a too-short look-ahead makes the car oscillate;
* wheel angle ``delta = -input x max_wheel_angle`` (counter-clockwise positive);
* ``yaw' = speed / wheelbase x tan(delta)``, ``x' = speed cos(yaw)``, ``y' = speed sin(yaw)``.

On a circle of radius R the steady wheel angle is ``atan(wheelbase / R)``.

:func:`simulate` runs the article's steering (:mod:`lessons_lib.steering`) on this car;
:func:`simulate_controller` runs any controller (pure pursuit and Stanley live in
:mod:`lessons_lib.controllers`) on the same car and tracks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import validate as check
from .spline import Spline
from .steering import (
    VECTOR_FIELDS,
    SteeringParams,
    TermValues,
    _steering_terms_inlined,
    crosstrack,
)

__all__ = ["Vehicle", "Trajectory", "simulate", "simulate_controller", "start_pose",
           "run_metrics", "SETTLE_TOLERANCE", "MAX_STEPS", "MAX_SPEED", "MAX_START_OFFSET"]

#: |crosstrack error| below this (m) counts as "on the centre line" for the settle time.
SETTLE_TOLERANCE = 0.2
#: The most steps one simulation runs (duration / dt): 27 minutes at 60 Hz. A step costs
#: about 1.6 kB while the run is recorded (160 MB at the cap) and tens of microseconds.
MAX_STEPS = 100_000
#: The fastest car simulated (m/s): 360 km/h, a racing car.
MAX_SPEED = 100.0
#: The farthest a car may start from the centre line (m).
MAX_START_OFFSET = 1000.0


@dataclass(frozen=True)
class Vehicle:
    """A car: wheelbase (m), maximum wheel angle (deg), steering lag (s) and rate (1/s)."""

    wheelbase: float = 2.7
    max_wheel_angle: float = 35.0
    steer_lag: float = 0.12
    steer_rate: float = 2.0  # full lock to full lock (2 units) in one second
    length: float = 4.4      # body, for drawing
    width: float = 1.8
    rear_overhang: float = 0.85

    def __post_init__(self) -> None:
        for name in ("wheelbase", "max_wheel_angle", "steer_rate", "length", "width"):
            v = getattr(self, name)
            if not (check.is_finite(v) and v > 0):
                raise ValueError(f"Vehicle.{name} must be a positive number, got "
                                 f"{check.describe(v)}")
        for name, unit in (("steer_lag", "s"), ("rear_overhang", "m")):
            check.real(getattr(self, name), f"Vehicle.{name}", lo=0.0, unit=unit)
        if not self.max_wheel_angle < 89:
            raise ValueError(f"Vehicle.max_wheel_angle must be below 89 degrees, got "
                             f"{self.max_wheel_angle}")

    @property
    def nose(self) -> float:
        """Distance (m) from the reference point (rear axle) to the front of the body."""
        return self.length - self.rear_overhang

    def outline(self, x: float, y: float, yaw_deg: float) -> np.ndarray:
        """Closed (6, 2) outline of the body (a pointed nose shows the heading)."""
        x, y = check.real(x, "x"), check.real(y, "y")
        yaw_deg = float(check.reduce_degrees(check.real(yaw_deg, "yaw_deg")))
        r, f, w = -self.rear_overhang, self.length - self.rear_overhang, 0.5 * self.width
        local = np.array([[r, -w], [f - 0.6, -w], [f, 0.0], [f - 0.6, w], [r, w], [r, -w]])
        c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
        return local @ np.array([[c, s], [-s, c]]) + (x, y)


@dataclass
class Trajectory:
    """Arrays per step: ``t, x, y, yaw, progress``, every SteeringTerms field, and the car.

    ``steering`` is the controller's command; ``steering_input`` what the rack actually did;
    ``wheel_angle`` the front wheel angle in degrees (counter-clockwise positive).
    ``ended`` is True when an open road's end stopped the run early: the run stops at the
    step where the car's nose reaches the end of the road (the look-ahead target is then
    clamped to the end, under the car, and steering towards it would be meaningless).
    """

    t: np.ndarray
    x: np.ndarray
    y: np.ndarray
    yaw: np.ndarray
    progress: np.ndarray
    steering_input: np.ndarray
    wheel_angle: np.ndarray
    terms: dict = field(default_factory=dict)
    ended: bool = False
    vehicle: Vehicle = field(default_factory=Vehicle)
    dt: float = 1 / 60

    def __getattr__(self, name):
        terms = self.__dict__.get("terms", {})
        if name in terms:
            return terms[name]
        raise AttributeError(f"Trajectory has no field {name!r}")

    def __len__(self) -> int:
        return len(self.t)

    def metrics(self, tolerance: float = SETTLE_TOLERANCE) -> dict:
        return run_metrics(self, tolerance)


def run_metrics(traj: Trajectory, tolerance: float = SETTLE_TOLERANCE) -> dict:
    """RMS and max |crosstrack error| (m), total steering movement, time to settle (s).

    *Total steering movement* is the sum of |change| of the actual steering input (a
    twitchy controller scores high). *Time to settle* is the first time after which
    |crosstrack error| stays below ``tolerance`` to the end (NaN if it never does).
    """
    if not isinstance(traj, Trajectory):
        raise ValueError(f"traj must be a Trajectory (from simulate), got {type(traj).__name__}")
    tolerance = check.length(tolerance, "tolerance")
    cte = np.asarray(traj.crosstrack_error, dtype=float)
    if len(cte) == 0:
        raise ValueError("the trajectory is empty")
    off = np.abs(cte) >= tolerance
    if not off.any():
        settle = 0.0
    elif off[-1]:
        settle = math.nan
    else:
        last = int(np.flatnonzero(off)[-1])
        settle = float(traj.t[last + 1])
    return {"rms_crosstrack": float(np.sqrt(np.mean(cte ** 2))),
            "max_crosstrack": float(np.max(np.abs(cte))),
            "steering_movement": float(np.sum(np.abs(np.diff(traj.steering_input)))),
            "settle_time": settle}


def start_pose(spline: Spline, start_distance: float = 0.0, start_offset: float = 0.0,
               start_heading_error: float = 0.0):
    """(x, y, yaw_deg) of a car ``start_offset`` m right of the centre line at
    ``start_distance``, pointing ``start_heading_error`` degrees left (counter-clockwise) of
    the path, so that its Heading Delta measured there is ``+start_heading_error``."""
    if not isinstance(spline, Spline):
        raise ValueError(f"spline must be a lessons_lib.spline.Spline, got {type(spline)}")
    start_distance = check.real(start_distance, "start_distance", unit="m")
    start_offset = check.real(start_offset, "start_offset", lo=-MAX_START_OFFSET,
                              hi=MAX_START_OFFSET, unit="m")
    start_heading_error = float(check.reduce_degrees(
        check.real(start_heading_error, "start_heading_error", unit="degrees")))
    s0 = float(spline.wrap(float(start_distance)))
    p = spline.location_at(s0)[:2]
    t = spline.direction_at(s0)[:2]
    t = t / np.linalg.norm(t)  # on a 3D road: the horizontal direction of travel
    right = np.array([t[1], -t[0]])
    x, y = p + float(start_offset) * right
    yaw = math.degrees(math.atan2(t[1], t[0])) + float(start_heading_error)
    return float(x), float(y), yaw


def _check_run(spline, speed, duration, dt, vehicle):
    if not isinstance(spline, Spline):
        raise ValueError(f"spline must be a lessons_lib.spline.Spline, got {type(spline)}")
    for name, v in (("speed", speed), ("duration", duration), ("dt", dt)):
        check.real(v, name, unit="m/s" if name == "speed" else "s")
    speed, duration, dt = float(speed), float(duration), float(dt)
    if speed < 0:
        raise ValueError(f"speed must be >= 0 m/s, got {speed}")
    if speed > MAX_SPEED:
        raise ValueError(f"speed = {speed:g} m/s is faster than the {MAX_SPEED:g} m/s this car "
                         "model is meant for: give a road speed")
    if duration <= 0 or dt <= 0:
        raise ValueError(f"duration and dt must be > 0 s, got {duration} and {dt}")
    if dt > 0.2:
        raise ValueError(f"dt = {dt} s is too coarse for the steering lag: use 0.2 s or less")
    if duration / dt > MAX_STEPS:
        raise ValueError(f"{duration / dt:.0f} steps is too many (at most {MAX_STEPS}): "
                         "shorten duration or grow dt")
    if vehicle is not None and not isinstance(vehicle, Vehicle):
        raise ValueError(f"vehicle must be a Vehicle, got {type(vehicle)}")
    return vehicle or Vehicle()


def _loop(spline, control, speed, duration, dt, start, vehicle):
    """Shared integrator. ``control(x, y, yaw, progress) -> (command, extras_tuple)``.

    ``start`` is (x, y, yaw, start distance). On a 3D road the car drives in plan (x, y)
    and sits on the road surface at the height of its progress point."""
    x, y, yaw = start[:3]
    steps = int(round(duration / dt)) + 1
    L = vehicle.wheelbase
    max_wheel = math.radians(vehicle.max_wheel_angle)
    lag = vehicle.steer_lag
    alpha = 1.0 if lag <= 0 else min(1.0, dt / lag)
    max_du = vehicle.steer_rate * dt
    ts, xs, ys, yaws, progs, inputs, wheels, extras = [], [], [], [], [], [], [], []
    flat = spline.dim == 2
    progress = spline.closest_distance((x, y) if flat else (x, y, spline.frame_at(
        spline.wrap(float(start[3]))).z))
    u = None
    length = spline.length
    ended = False
    window = min(10.0, 0.25 * length)
    nose = vehicle.nose
    end = spline.frame_at(length)
    for k in range(steps):
        if k:
            # Newton starts where the car should be now: one step further along
            guess = spline.wrap(progress + speed * dt)
            z = 0.0 if flat else spline.frame_at(guess).z
            progress = spline.closest_near(x, y, z, guess, window)
        command, extra = control(x, y, yaw, progress)
        if u is None:
            u = command  # the run starts with the wheel already where the driver wants it
        else:
            target = u + (command - u) * alpha
            du = target - u
            u += max_du if du > max_du else -max_du if du < -max_du else du
        delta = -u * max_wheel
        ts.append(k * dt)
        xs.append(x)
        ys.append(y)
        yaws.append(yaw)
        progs.append(progress)
        inputs.append(u)
        wheels.append(math.degrees(delta))
        extras.append(extra)
        if not spline.closed and progress >= length - nose - 1.0:
            yaw_rad = math.radians(yaw)
            if ((x + nose * math.cos(yaw_rad) - end.x) * end.dx
                    + (y + nose * math.sin(yaw_rad) - end.y) * end.dy >= 0.0):
                ended = True  # the nose has reached the end of the road: stop here
                break
        # semi-implicit: yaw first, then move along the new heading's midpoint
        yaw_rad = math.radians(yaw)
        new_yaw = yaw_rad + speed / L * math.tan(delta) * dt
        mid = 0.5 * (yaw_rad + new_yaw)
        x += speed * math.cos(mid) * dt
        y += speed * math.sin(mid) * dt
        yaw = math.degrees(new_yaw)
    return (np.array(ts), np.array(xs), np.array(ys), np.array(yaws), np.array(progs),
            np.array(inputs), np.array(wheels), extras, ended)


def simulate(spline: Spline, params: SteeringParams | None, speed: float, duration: float,
             dt: float = 1 / 60, start_distance: float = 0.0, start_offset: float = 0.0,
             start_heading_error: float = 0.0, vehicle: Vehicle | None = None) -> Trajectory:
    """Drive the article's steering on the bicycle model for ``duration`` seconds.

    ``start_offset``: metres to the right of the centre line (the article's sign).
    ``start_heading_error``: degrees the car points left (counter-clockwise) of the path.
    An open road stops the run when the car's nose reaches its end.
    """
    params = SteeringParams() if params is None else params
    if not isinstance(params, SteeringParams):
        raise ValueError(f"params must be a SteeringParams, got {type(params)}")
    params.validate()
    vehicle = _check_run(spline, speed, duration, dt, vehicle)
    start = (*start_pose(spline, start_distance, start_offset, start_heading_error),
             float(start_distance))
    speed = float(speed)
    flat = spline.dim == 2

    def control(x, y, yaw, progress):
        z = 0.0 if flat else spline.frame_at(progress).z  # on a 3D road: on its surface
        out = _steering_terms_inlined(x, y, z, yaw, speed, spline, progress, params)
        return out.steering, out

    t, x, y, yaw, prog, u, wheel, rows, ended = _loop(spline, control, speed, duration, dt,
                                                      start, vehicle)
    terms = {}
    for name, col in zip(TermValues._fields, zip(*rows, strict=True), strict=True):
        terms[name] = np.array(col)[:, :2] if name in VECTOR_FIELDS else np.array(col)
    return Trajectory(t=t, x=x, y=y, yaw=yaw, progress=prog, steering_input=u,
                      wheel_angle=wheel, terms=terms, ended=ended, vehicle=vehicle, dt=dt)


def simulate_controller(spline: Spline, controller: Callable, speed: float, duration: float,
                        dt: float = 1 / 60, start_distance: float = 0.0,
                        start_offset: float = 0.0, start_heading_error: float = 0.0,
                        vehicle: Vehicle | None = None) -> Trajectory:
    """Drive any controller on the same car.

    ``controller(x, y, yaw_deg, speed, progress, spline, vehicle) -> command`` in [-1, 1]
    (+1 = full right). The trajectory also records the crosstrack error (article's sign) so
    that :func:`run_metrics` compares controllers on equal terms.
    """
    vehicle = _check_run(spline, speed, duration, dt, vehicle)
    start = (*start_pose(spline, start_distance, start_offset, start_heading_error),
             float(start_distance))
    speed = float(speed)

    if not callable(controller):
        raise ValueError(f"controller must be a function (x, y, yaw_deg, speed, progress, "
                         f"spline, vehicle) -> command, got {type(controller).__name__}")

    def control(x, y, yaw, progress):
        command = controller(x, y, yaw, speed, progress, spline, vehicle)
        if not check.is_number(command):
            raise ValueError(f"the controller returned {check.describe(command)}, not a "
                             "number in [-1, 1]")
        command = float(command)
        if not math.isfinite(command):
            raise ValueError(f"the controller returned {command}, not a number in [-1, 1]")
        command = max(-1.0, min(1.0, command))
        f = spline.frame_at(progress)
        return command, (command, crosstrack((x, y, f.z), f.point, f.tangent).error)

    t, x, y, yaw, prog, u, wheel, rows, ended = _loop(spline, control, speed, duration, dt,
                                                      start, vehicle)
    terms = {"steering": np.array([r[0] for r in rows]),
             "crosstrack_error": np.array([r[1] for r in rows])}
    return Trajectory(t=t, x=x, y=y, yaw=yaw, progress=prog, steering_input=u,
                      wheel_angle=wheel, terms=terms, ended=ended, vehicle=vehicle, dt=dt)
