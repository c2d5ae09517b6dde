"""The article's spline steering: Position Delta, Heading Delta and Crosstrack Error.

The computation runs in exactly the article's order:

1. look up the car's position and speed (and its progress along the spline);
2. the look-ahead distance from speed and curvature (:func:`look_ahead_distance`);
3. the spline's point and tangent at ``progress + look_ahead`` (wrapped when closed,
   clamped when open);
4. Position Delta (yaw to the target point), Heading Delta (yaw to the tangent there),
   Crosstrack Error (signed distance from the centre line at the progress point);
5. Position and Heading blended with a curvature-dependent weight;
6. the crosstrack correction added on top;
7. clamped to [-1, 1].

Signs (the README's Conventions): the plane is x right, y up, z out of the screen
(right-handed); yaw is counter-clockwise from +x in degrees. As in the article, Position
Delta and Heading Delta are **positive when the target / path direction is to the car's
right**, the Crosstrack Error is **positive when the car is right of the centre line**,
and steering **+1 is full right**, so
``steering = clamp(yaw_command / max_yaw_delta - crosstrack_error * crosstrack_gain, -1, 1)``
holds literally. The road's right vector is ``cross(tangent, road_normal)`` here; the article's
``cross(road_normal, tangent)`` is the same vector written in Unreal's left-handed frame.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import NamedTuple

import numpy as np

from . import validate as check
from .spline import Spline

__all__ = ["SteeringParams", "SteeringTerms", "TermValues", "look_ahead_distance", "steer",
           "delta_angle", "curvature_scale", "dynamic_heading_weight", "blend_weight",
           "yaw_command", "crosstrack", "Crosstrack", "steering_command", "road_right",
           "steering_terms", "WORLD_UP"]

#: World up: z, out of the screen.
WORLD_UP = (0.0, 0.0, 1.0)
#: The article's constants: curvature x 3 saturates at curvature 1/3 (radius 3 m).
CURVATURE_SCALE = 3.0
#: At full curvature the look-ahead shrinks to half and the heading weight to 0.3.
MIN_LOOK_AHEAD_SCALE = 0.5
CURVY_HEADING_WEIGHT = 0.3


@dataclass
class SteeringParams:
    """The article's tunables in snake_case, plus the term toggles.

    The defaults follow the article's final state (adaptive look-ahead, all three terms on).
    The article names the tunables but gives none of their values: the numbers are ours,
    tuned so the default car drives every built-in track at 5-15 m/s.
    """

    look_ahead_base: float = 3.0          # m
    look_ahead_speed_factor: float = 0.3  # s: metres of look-ahead per m/s of speed
    adaptive_look_ahead: bool = True
    fixed_look_ahead: float = 10.0        # m, used when adaptive_look_ahead is False
    heading_weight: float = 0.85          # 0 = only Position Delta, 1 = only Heading Delta
    max_yaw_delta: float = 60.0           # degrees of yaw command that mean full lock
    crosstrack_gain: float = 0.25         # steering per metre off the centre line
    use_position: bool = True
    use_heading: bool = True
    use_crosstrack: bool = True

    def __post_init__(self) -> None:
        self.validate()

    def __setattr__(self, name: str, value) -> None:
        # every assignment is checked, also after construction: p.max_yaw_delta = 0 is
        # refused at once, so a SteeringParams that exists is always a valid one
        object.__setattr__(self, name, _check_param(name, value))

    def validate(self) -> None:
        """Check every field again (each assignment is already checked on its own)."""
        for f in fields(self):
            _check_param(f.name, getattr(self, f.name))

    def replace(self, **changes) -> SteeringParams:
        """A copy with some fields changed (validated)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise ValueError(f"SteeringParams has no field(s) {sorted(unknown)}")
        return SteeringParams(**{**asdict(self), **changes})


#: What each number of :class:`SteeringParams` may be: (lowest, highest, unit).
_PARAM_RANGES = {
    "look_ahead_base": (0.0, None, "m"),
    "look_ahead_speed_factor": (0.0, None, "s"),
    "fixed_look_ahead": (0.0, None, "m"),
    "heading_weight": (0.0, 1.0, ""),
    "max_yaw_delta": (0.0, None, "degrees"),
    "crosstrack_gain": (0.0, None, "per m"),
}
_PARAM_FLAGS = ("adaptive_look_ahead", "use_position", "use_heading", "use_crosstrack")


def _check_param(name: str, value):
    if name in _PARAM_FLAGS:
        return check.flag(value, name)
    if name not in _PARAM_RANGES:
        raise ValueError(f"SteeringParams has no field {check.describe(name)}")
    lo, hi, unit = _PARAM_RANGES[name]
    if name == "max_yaw_delta":  # a division by it: strictly positive
        return check.real(value, name, lo=0.0, lo_open=True, unit=unit)
    if name == "crosstrack_gain" and check.is_number(value) and value < 0:
        raise ValueError(f"crosstrack_gain must be >= 0 (the sign is built in), got {value}")
    return check.real(value, name, lo=lo, hi=hi, unit=unit)


def _params(params) -> SteeringParams:
    if type(params) is not SteeringParams and not isinstance(params, SteeringParams):
        raise ValueError(f"params must be a SteeringParams, got {type(params).__name__}")
    return params


def _slow_reals(**values) -> None:
    """Raise the clear ValueError for the first argument that is not a finite number."""
    for name, v in values.items():
        check.real(v, name)


class TermValues(NamedTuple):
    """Every intermediate value of one steering computation, as Python floats and 3-tuples
    (z = 0 on the plane). :func:`steering_terms` returns it; the simulation records it."""

    progress: float              # m along the spline (the blue point)
    progress_point: tuple        # blue point
    progress_tangent: tuple
    curvature: float             # 1/m at the progress point ("CurrentCurvature")
    look_ahead: float            # m
    target_progress: float       # m along the spline (wrapped / clamped)
    target: tuple                # red point
    target_direction: tuple      # green arrow: unit tangent at the target
    position_delta: float        # deg, + = target to the right
    heading_delta: float         # deg, + = path direction to the right
    heading_weight: float        # weight actually used for Heading Delta
    yaw_command: float           # deg
    perpendicular_offset: tuple  # orange arrow: centre line -> car, tangent part removed
    path_right: tuple            # road's right vector at the progress point
    crosstrack_error: float      # m, + = car right of the centre line
    steering_unclamped: float
    steering: float              # [-1, 1], + = right


@dataclass
class SteeringTerms:
    """What :func:`steer` returns: the fields of :class:`TermValues`, vectors as numpy arrays
    of the spline's dimension."""

    progress: float
    progress_point: np.ndarray
    progress_tangent: np.ndarray
    curvature: float
    look_ahead: float
    target_progress: float
    target: np.ndarray
    target_direction: np.ndarray
    position_delta: float
    heading_delta: float
    heading_weight: float
    yaw_command: float
    perpendicular_offset: np.ndarray
    path_right: np.ndarray
    crosstrack_error: float
    steering_unclamped: float
    steering: float


#: The fields that are vectors (stored as (N, dim) arrays in a Trajectory).
VECTOR_FIELDS = ("progress_point", "progress_tangent", "target", "target_direction",
                 "perpendicular_offset", "path_right")
TERM_FIELDS = TermValues._fields


def _clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


def delta_angle(from_deg: float, to_deg: float) -> float:
    """Shortest signed angle from ``from_deg`` to ``to_deg``, in (-180, 180] (CCW positive).

    Unreal's ``FindDeltaAngleDegrees(A, B)``; note the article's deltas are
    ``delta_angle(target, vehicle)`` in our counter-clockwise frame (positive = right).
    """
    try:
        d = (to_deg - from_deg) % 360.0
    except (TypeError, OverflowError):
        d = math.nan
    if not d - d == 0.0:  # NaN or inf: a bad argument, or a difference that overflowed
        _slow_reals(from_deg=from_deg, to_deg=to_deg)
        d = (math.fmod(float(to_deg), 360.0) - math.fmod(float(from_deg), 360.0)) % 360.0
    return d - 360.0 if d > 180.0 else d


def curvature_scale(curvature: float) -> float:
    """Lerp(1.0, 0.5, Clamp(curvature x 3, 0, 1))."""
    if not (type(curvature) is float and 0.0 <= curvature < math.inf):
        curvature = check.real(curvature, "curvature", lo=0.0, unit="1/m")
    a = _clamp(curvature * CURVATURE_SCALE, 0.0, 1.0)
    return 1.0 + (MIN_LOOK_AHEAD_SCALE - 1.0) * a


def dynamic_heading_weight(heading_weight: float, curvature: float) -> float:
    """Lerp(heading_weight, 0.3, Clamp(curvature x 3, 0, 1))."""
    if not (type(curvature) is float and 0.0 <= curvature < math.inf):
        curvature = check.real(curvature, "curvature", lo=0.0, unit="1/m")
    if not (type(heading_weight) is float and 0.0 <= heading_weight <= 1.0):
        heading_weight = check.probability(heading_weight, "heading_weight")
    a = _clamp(curvature * CURVATURE_SCALE, 0.0, 1.0)
    return heading_weight + (CURVY_HEADING_WEIGHT - heading_weight) * a


def look_ahead_distance(speed: float, curvature: float, params: SteeringParams) -> float:
    """(base + speed x factor) x Lerp(1, 0.5, Clamp(curvature x 3, 0, 1)), or the fixed one."""
    if not (type(speed) is float and type(curvature) is float
            and 0.0 <= speed < math.inf and 0.0 <= curvature < math.inf):
        for name, v in (("speed", speed), ("curvature", curvature)):
            if not check.is_finite(v):
                raise ValueError(f"speed and curvature must be finite numbers (within float "
                                 f"range), got {name} = {check.describe(v)}")
        speed, curvature = float(speed), float(curvature)
        if speed < 0 or curvature < 0:
            raise ValueError(f"speed and curvature must be >= 0, got {speed} and {curvature}")
    params = _params(params)
    if not params.adaptive_look_ahead:
        return float(params.fixed_look_ahead)
    return (params.look_ahead_base + speed * params.look_ahead_speed_factor) \
        * curvature_scale(curvature)


def blend_weight(params: SteeringParams, curvature: float) -> float:
    """The weight Heading Delta gets: :func:`dynamic_heading_weight` with both angle terms on;
    a term that is off gives its weight to the other one (1 with Heading only, 0 without)."""
    params = _params(params)
    if params.use_position and params.use_heading:
        return dynamic_heading_weight(params.heading_weight, curvature)
    return 1.0 if params.use_heading else 0.0


def yaw_command(position_delta: float, heading_delta: float, weight: float,
                params: SteeringParams) -> float:
    """PositionDelta x (1 - w) + HeadingDelta x w, or 0 when both angle terms are off."""
    if not (type(weight) is float and 0.0 <= weight <= 1.0):
        weight = check.probability(weight, "weight")
    if not (type(position_delta) is float and type(heading_delta) is float
            and position_delta - position_delta == heading_delta - heading_delta == 0.0):
        _slow_reals(position_delta=position_delta, heading_delta=heading_delta)
        position_delta, heading_delta = float(position_delta), float(heading_delta)
    if not (_params(params).use_position or params.use_heading):
        return 0.0
    return position_delta * (1.0 - weight) + heading_delta * weight


class Crosstrack(NamedTuple):
    """:func:`crosstrack`'s answer: the orange arrow, the road's right vector, the error."""

    perpendicular_offset: tuple
    path_right: tuple
    error: float


def _right3(t, up) -> tuple:
    """cross(t, normalise(up - t (up . t))) for a unit 3-tuple ``t`` (see :func:`road_right`)."""
    tx, ty, tz = t
    ux, uy, uz = up
    up_t = ux * tx + uy * ty + uz * tz
    nx, ny, nz = ux - tx * up_t, uy - ty * up_t, uz - tz * up_t
    nn = math.sqrt(nx * nx + ny * ny + nz * nz)
    if nn < 1e-9:
        raise ValueError("the path is vertical here: world up has no part across it, so the "
                         "road's right vector is undefined")
    nx, ny, nz = nx / nn, ny / nn, nz / nn
    return (ty * nz - tz * ny, tz * nx - tx * nz, tx * ny - ty * nx)


def crosstrack(position, centre, tangent, up=WORLD_UP) -> Crosstrack:
    """Crosstrack Error of a car at ``position`` beside the centre-line point ``centre`` with
    unit ``tangent`` (3-tuples): offset = position - centre, its tangent part removed, dotted
    with the road's right vector (up projected off the tangent, then cross(tangent, normal)).
    Positive when the car is right of the line."""
    try:
        tx, ty, tz = tangent
        ox, oy, oz = position[0] - centre[0], position[1] - centre[1], position[2] - centre[2]
        unit = abs(tx * tx + ty * ty + tz * tz - 1.0) < 1e-6
    except (TypeError, ValueError, IndexError, KeyError, OverflowError):
        unit = None
    if not unit or not (ox - ox == oy - oy == oz - oz == 0.0):
        _check_crosstrack(position, centre, tangent, up)
    along = ox * tx + oy * ty + oz * tz
    ox, oy, oz = ox - tx * along, oy - ty * along, oz - tz * along
    rx, ry, rz = _right3(tangent, up)
    return Crosstrack((ox, oy, oz), (rx, ry, rz), ox * rx + oy * ry + oz * rz)


def _check_crosstrack(position, centre, tangent, up) -> None:
    """The clear message for :func:`crosstrack`'s arguments (the fast path found a problem)."""
    p = check.point(position, "position", 3)
    c = check.point(centre, "centre", 3)
    t = check.point(tangent, "tangent", 3)
    check.point(up, "up", 3)
    if abs(float(t @ t) - 1.0) >= 1e-6:
        raise ValueError(f"tangent must be a unit vector, got length {np.linalg.norm(t):.6g}: "
                         "divide it by its length")
    with np.errstate(over="ignore"):
        apart = p - c
    if not np.isfinite(apart).all():
        raise ValueError("position and centre are too far apart to subtract (overflow): "
                         "give coordinates below about 1e300")


def steering_command(yaw_cmd: float, crosstrack_error: float,
                     params: SteeringParams) -> tuple[float, float]:
    """(unclamped, clamped): YawCommand / MaxYawDelta - Crosstrack x Gain, clamped to [-1, 1]
    (the crosstrack part only when that term is on)."""
    if not (type(yaw_cmd) is float and type(crosstrack_error) is float
            and yaw_cmd - yaw_cmd == crosstrack_error - crosstrack_error == 0.0):
        _slow_reals(yaw_cmd=yaw_cmd, crosstrack_error=crosstrack_error)
        yaw_cmd, crosstrack_error = float(yaw_cmd), float(crosstrack_error)
    raw = yaw_cmd / _params(params).max_yaw_delta
    if params.use_crosstrack:
        raw -= crosstrack_error * params.crosstrack_gain
    if not raw - raw == 0.0:
        raise ValueError(f"the steering command overflows (yaw_cmd {yaw_cmd:.3g} / max_yaw_delta "
                         f"{params.max_yaw_delta:.3g}, crosstrack {crosstrack_error:.3g}): give "
                         "values whose ratio and product stay within float range (1.8e308)")
    return raw, _clamp(raw, -1.0, 1.0)


def road_right(tangent, up=WORLD_UP) -> np.ndarray:
    """The road's right vector: up projected off the tangent, then cross(tangent, normal).

    Works for a sloped road: the normal is the part of world up perpendicular to the
    tangent, so the right vector stays horizontal-ish and exactly perpendicular to travel.
    """
    t = check.array(tangent, "tangent", (None,), what="2 or 3 numbers (a direction)")
    if t.shape not in ((2,), (3,)):
        raise ValueError(f"tangent must have 2 or 3 coordinates, got shape {t.shape}")
    t3 = np.append(t, 0.0) if t.shape == (2,) else t
    big = float(np.abs(t3).max())
    if big == 0.0:
        raise ValueError("the tangent is the zero vector: it has no direction, so the road "
                         "has no right side; give the direction of travel")
    t3 = t3 / big
    t3 = t3 / np.linalg.norm(t3)
    u = check.point(up, "up", 3)
    if not np.abs(u).max() > 0:
        raise ValueError("up is the zero vector: give the world's up direction, e.g. (0, 0, 1)")
    u = u / np.abs(u).max()
    right = np.array(_right3(t3.tolist(), tuple(float(c) for c in u)))
    return right[:2] if t.shape == (2,) else right


def steering_terms(px: float, py: float, pz: float, yaw_deg: float, speed: float,
                   spline: Spline, progress: float, params: SteeringParams) -> TermValues:
    """The article's whole computation, step by step, with the public functions above, on
    Python floats (``progress`` already wrapped). :func:`steer` checks its inputs and calls
    it; the simulation calls it every step."""
    if not (type(spline) is Spline and type(params) is SteeringParams
            and type(px) is float and type(py) is float and type(pz) is float
            and type(yaw_deg) is float and type(speed) is float and type(progress) is float
            and px - px == py - py == pz - pz == yaw_deg - yaw_deg == progress - progress
            == 0.0 and 0.0 <= speed < math.inf):
        _check_inputs((px, py, pz)[: spline.dim] if isinstance(spline, Spline) else (px,),
                      yaw_deg, speed, spline, progress, params)
        px, py, pz, yaw_deg, speed = (float(v) for v in (px, py, pz, yaw_deg, speed))
        progress = float(spline.wrap(float(progress)))
    # 1. the progress point, its tangent and curvature ("CurrentCurvature")
    here = spline.frame_at(progress)
    tangent = here.tangent
    curvature = here.curvature
    # 2.-3. look-ahead distance and the target point (wrapped or clamped by the spline)
    look = look_ahead_distance(speed, curvature, params)
    s_t = spline.wrap(progress + look)
    ahead = spline.frame_at(s_t)
    gx, gy, gz = ahead.tangent
    # 4. Position Delta and Heading Delta: positive when the target / path is to the right
    path_yaw = math.degrees(math.atan2(gy, gx))
    vx, vy = ahead.x - px, ahead.y - py
    if vx * vx + vy * vy > 1e-18:
        target_yaw = math.degrees(math.atan2(vy, vx))
    else:  # standing on the target (open end): aim along the path, no division by zero
        target_yaw = path_yaw
    pos_delta = delta_angle(target_yaw, yaw_deg)
    head_delta = delta_angle(path_yaw, yaw_deg)
    # 5. blend the two angles
    w = blend_weight(params, curvature)
    yaw_cmd = yaw_command(pos_delta, head_delta, w, params)
    # 6. Crosstrack Error at the progress point, with up projected off the tangent
    ct = crosstrack((px, py, pz), here.point, tangent)
    # 7. the crosstrack correction on top, and the clamp
    raw, steering = steering_command(yaw_cmd, ct.error, params)
    return TermValues(progress, here.point, tangent, curvature, look, s_t, ahead.point,
                      (gx, gy, gz), pos_delta, head_delta, w, yaw_cmd, ct.perpendicular_offset,
                      ct.path_right, ct.error, raw, steering)


def _steering_terms_inlined(px: float, py: float, pz: float, yaw_deg: float, speed: float,
                            spline: Spline, progress: float,
                            params: SteeringParams) -> TermValues:
    """:func:`steering_terms` with the public functions' calls and argument checks written
    out, for the simulation's inner loop only (1800 steps per slider move): a third less time
    than the public functions (see docs/performance.md). The inputs come from the simulation
    itself (checked once per run), so nothing is lost; tests check that both give the same
    numbers field by field. Read :func:`steering_terms` to learn the method; change both
    together.
    """
    x0, y0, z0, dx, dy, dz, ddx, ddy, ddz = spline.frame_at(progress)
    sp2 = dx * dx + dy * dy + dz * dz
    sp = math.sqrt(sp2)
    tx, ty, tz = dx / sp, dy / sp, dz / sp
    cx, cy, cz = dy * ddz - dz * ddy, dz * ddx - dx * ddz, dx * ddy - dy * ddx
    curvature = math.sqrt(cx * cx + cy * cy + cz * cz) / (sp2 * sp)
    a = _clamp(curvature * CURVATURE_SCALE, 0.0, 1.0)  # curvature_scale, dynamic weight
    if params.adaptive_look_ahead:
        look = (params.look_ahead_base + speed * params.look_ahead_speed_factor) \
            * (1.0 + (MIN_LOOK_AHEAD_SCALE - 1.0) * a)
    else:
        look = float(params.fixed_look_ahead)
    s_t = spline.wrap(progress + look)
    qx, qy, qz, ex, ey, ez, _, _, _ = spline.frame_at(s_t)
    en = math.sqrt(ex * ex + ey * ey + ez * ez)
    gx, gy, gz = ex / en, ey / en, ez / en
    path_yaw = math.degrees(math.atan2(gy, gx))
    vx, vy = qx - px, qy - py
    target_yaw = math.degrees(math.atan2(vy, vx)) if vx * vx + vy * vy > 1e-18 else path_yaw
    pos_delta = (yaw_deg - target_yaw) % 360.0  # delta_angle(target_yaw, yaw_deg)
    if pos_delta > 180.0:
        pos_delta -= 360.0
    head_delta = (yaw_deg - path_yaw) % 360.0
    if head_delta > 180.0:
        head_delta -= 360.0
    if params.use_position and params.use_heading:  # blend_weight
        w = params.heading_weight + (CURVY_HEADING_WEIGHT - params.heading_weight) * a
    else:
        w = 1.0 if params.use_heading else 0.0
    if params.use_position or params.use_heading:  # yaw_command
        yaw_cmd = pos_delta * (1.0 - w) + head_delta * w
    else:
        yaw_cmd = 0.0
    ox, oy, oz = px - x0, py - y0, pz - z0  # crosstrack
    along = ox * tx + oy * ty + oz * tz
    ox, oy, oz = ox - tx * along, oy - ty * along, oz - tz * along
    rx, ry, rz = _right3((tx, ty, tz), WORLD_UP)
    cte = ox * rx + oy * ry + oz * rz
    raw = yaw_cmd / params.max_yaw_delta  # steering_command
    if params.use_crosstrack:
        raw -= cte * params.crosstrack_gain
    return TermValues(progress, (x0, y0, z0), (tx, ty, tz), curvature, look, s_t,
                      (qx, qy, qz), (gx, gy, gz), pos_delta, head_delta, w, yaw_cmd,
                      (ox, oy, oz), (rx, ry, rz), cte, raw, _clamp(raw, -1.0, 1.0))


def _check_inputs(position, yaw_deg, speed, spline, progress, params):
    if not isinstance(spline, Spline):
        raise ValueError(f"spline must be a lessons_lib.spline.Spline, got {type(spline)}")
    _params(params)
    p = check.array(position, "position", (None,), finite=False, what="coordinates", ravel=True)
    if p.shape != (spline.dim,):
        raise ValueError(f"position must have {spline.dim} coordinates like the spline, "
                         f"got {p.shape[0]}")
    check.real(yaw_deg, "yaw_deg", unit="degrees")
    check.real(speed, "speed", lo=0.0, unit="m/s")
    check.real(progress, "progress", unit="m")

    if not np.all(np.isfinite(p)):
        raise ValueError(f"position must be finite, got {p.tolist()}")
    return p


def steer(position, yaw_deg: float, speed: float, spline: Spline, progress: float,
          params: SteeringParams | None = None) -> SteeringTerms:
    """One steering computation for a car at ``position`` heading ``yaw_deg`` (CCW from +x).

    ``progress`` is the car's distance along the spline (usually
    ``spline.closest_distance(position, hint=last_progress)``). Returns every term.
    """
    params = SteeringParams() if params is None else params
    p = _check_inputs(position, yaw_deg, speed, spline, progress, params)
    progress = float(spline.wrap(float(progress)))
    pz = float(p[2]) if spline.dim == 3 else 0.0
    yaw = float(check.reduce_degrees(float(yaw_deg)))
    out = steering_terms(float(p[0]), float(p[1]), pz, yaw, float(speed), spline, progress,
                         params)
    values = {}
    for name, v in out._asdict().items():
        values[name] = np.array(v[: spline.dim]) if name in VECTOR_FIELDS else float(v)
    return SteeringTerms(**values)
