"""Two classic path-tracking controllers, for comparison with the article's steering.

Both return a steering command in [-1, 1] with the article's sign (+1 = full right) for the
car of :mod:`lessons_lib.vehicle`, so :func:`lessons_lib.vehicle.simulate_controller` can
drive them on the same car and tracks.

* **Pure pursuit** (Coulter, 1992): aim the rear axle along the circular arc through a
  look-ahead point ``ld`` ahead on the path: ``delta = atan(2 L sin(alpha) / ld)``, where
  ``alpha`` is the angle from the car's heading to that point.
* **Stanley** (Thrun et al., 2006, the DARPA Grand Challenge car): at the front axle, turn by
  the heading error plus ``atan(k e / (k_soft + v))`` where ``e`` is the crosstrack error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import validate as check
from .spline import Spline
from .vehicle import MAX_SPEED, Vehicle

__all__ = ["PurePursuit", "Stanley", "compare"]


def _check_call(x, y, yaw_deg, speed, progress, spline, vehicle) -> None:
    """The clear ValueError for a controller called with arguments it cannot use."""
    for name, v in (("x", x), ("y", y), ("yaw_deg", yaw_deg), ("progress", progress)):
        check.real(v, name)
    check.real(speed, "speed", lo=0.0, hi=MAX_SPEED, unit="m/s")
    if not isinstance(spline, Spline) or spline.dim != 2:
        raise ValueError(f"spline must be a 2D lessons_lib.spline.Spline, got {spline!r:.60}")
    if not isinstance(vehicle, Vehicle):
        raise ValueError(f"vehicle must be a Vehicle, got {type(vehicle).__name__}")


def _fine(x, y, yaw_deg, speed, progress, spline, vehicle) -> bool:
    """The fast path's test: five finite Python floats, a speed in range, a 2D spline and a
    Vehicle."""
    return (type(vehicle) is Vehicle and type(spline) is Spline and spline.dim == 2
            and type(x) is float and type(y) is float and type(yaw_deg) is float
            and type(speed) is float and type(progress) is float
            and x - x == y - y == yaw_deg - yaw_deg == progress - progress == 0.0
            and 0.0 <= speed <= MAX_SPEED)


def _wrap_rad(a: float) -> float:
    return (a + math.pi) % (2 * math.pi) - math.pi


@dataclass(frozen=True)
class PurePursuit:
    """Pure pursuit with a speed-proportional look-ahead ``ld = base + gain x speed``."""

    look_ahead_base: float = 3.0
    look_ahead_gain: float = 0.5

    def __post_init__(self) -> None:
        check.real(self.look_ahead_base, "look_ahead_base", unit="m")
        check.real(self.look_ahead_gain, "look_ahead_gain", unit="s")
        if not (self.look_ahead_base > 0 and self.look_ahead_gain >= 0):
            raise ValueError("pure pursuit needs look_ahead_base > 0 and look_ahead_gain >= 0, "
                             f"got {float(self.look_ahead_base):g} and "
                             f"{float(self.look_ahead_gain):g}")

    def __call__(self, x, y, yaw_deg, speed, progress, spline, vehicle) -> float:
        if not _fine(x, y, yaw_deg, speed, progress, spline, vehicle):
            _check_call(x, y, yaw_deg, speed, progress, spline, vehicle)
            x, y, yaw_deg, speed, progress = map(float, (x, y, yaw_deg, speed, progress))
        ld = self.look_ahead_base + self.look_ahead_gain * speed
        f = spline.frame_at(spline.wrap(progress + ld))
        dx, dy = f.x - x, f.y - y
        dist = math.hypot(dx, dy)
        if dist < 1e-9:
            return 0.0
        alpha = _wrap_rad(math.atan2(dy, dx) - math.radians(yaw_deg))
        delta = math.atan2(2.0 * vehicle.wheelbase * math.sin(alpha), dist)  # CCW
        return -delta / math.radians(vehicle.max_wheel_angle)


@dataclass(frozen=True)
class Stanley:
    """Stanley's front-axle law: ``delta = heading error + atan(k e / (k_soft + v))``."""

    gain: float = 1.5
    softening: float = 1.0

    def __post_init__(self) -> None:
        check.real(self.gain, "gain")
        check.real(self.softening, "softening", unit="m/s")
        if not (self.gain > 0 and self.softening > 0):
            raise ValueError(f"Stanley needs gain > 0 and softening > 0, got "
                             f"{float(self.gain):g} and {float(self.softening):g}")

    def __call__(self, x, y, yaw_deg, speed, progress, spline, vehicle) -> float:
        if not _fine(x, y, yaw_deg, speed, progress, spline, vehicle):
            _check_call(x, y, yaw_deg, speed, progress, spline, vehicle)
            x, y, yaw_deg, speed, progress = map(float, (x, y, yaw_deg, speed, progress))
        yaw = math.radians(math.fmod(yaw_deg, 360.0))
        fx = x + vehicle.wheelbase * math.cos(yaw)
        fy = y + vehicle.wheelbase * math.sin(yaw)
        s = spline.closest_near(fx, fy, 0.0, spline.wrap(progress + vehicle.wheelbase))
        f = spline.frame_at(s)
        tx, ty, _ = f.tangent
        right_error = (fx - f.x) * ty - (fy - f.y) * tx  # + = front axle right of the path
        heading_error = _wrap_rad(math.atan2(ty, tx) - yaw)  # + = path turns left of the car
        delta = heading_error + math.atan2(self.gain * right_error, self.softening + speed)
        return -delta / math.radians(vehicle.max_wheel_angle)


def compare(track_names, speed: float = 10.0, duration: float = 30.0,
            start_offset: float = 2.0, params=None, pure_pursuit: PurePursuit | None = None,
            stanley: Stanley | None = None) -> list[dict]:
    """Run the article's steering, pure pursuit and Stanley on the same car and tracks.

    Returns one row per (track, controller) with :func:`lessons_lib.vehicle.run_metrics`.
    """
    from .steering import SteeringParams
    from .tracks import track
    from .vehicle import simulate, simulate_controller

    params = SteeringParams() if params is None else params
    if isinstance(track_names, str):
        raise ValueError(f"track_names must be a list of track names, got {track_names!r:.60}")
    track_names = check.items(track_names, "track_names", "track names")
    for name, ctrl, kind in (("pure_pursuit", pure_pursuit, PurePursuit),
                             ("stanley", stanley, Stanley)):
        if ctrl is not None and not isinstance(ctrl, kind):
            raise ValueError(f"{name} must be a {kind.__name__} or None, got {ctrl!r:.60}")
    controllers = {"pure pursuit": pure_pursuit or PurePursuit(),
                   "Stanley": stanley or Stanley()}
    rows = []
    for name in track_names:
        sp = track(name)
        runs = {"article (3 terms)": simulate(sp, params, speed, duration,
                                              start_offset=start_offset)}
        for label, ctrl in controllers.items():
            runs[label] = simulate_controller(sp, ctrl, speed, duration,
                                              start_offset=start_offset)
        for label, traj in runs.items():
            rows.append({"track": name, "controller": label, **traj.metrics()})
    return rows
