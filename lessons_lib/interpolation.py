"""Blending two orientations: Euler-angle lerp, nlerp and slerp, and how fast each one turns.

Conventions are the project's (see ``lessons_lib.rotations``): angles in degrees, yaw about
Y, pitch about X, roll about Z, ``order`` names the gimbal rings from outer to inner
(``"YXZ"`` means ``R = Ry(yaw) @ Rx(pitch) @ Rz(roll)``), quaternions are
``quaternion.quaternion`` (w, x, y, z) and unit length.

All three blends return **orientations as unit quaternions**, so their results can be
compared, drawn and measured the same way:

* :func:`euler_lerp` blends the three angles one by one and turns the result into a
  rotation. ``wrap=True`` makes each angle go the short way round (yaw -175 -> 175 then
  moves 10 degrees, not 350), which fixes the worst surprise but still does not give a
  straight, steady turn once two or more angles change.
* :func:`nlerp` blends the two quaternions as plain 4D vectors and normalises the result.
* :func:`slerp` moves along the great circle of the unit 4D sphere at a steady rate.

``q`` and ``-q`` are the same rotation. With ``shortest=True`` (the default) nlerp and slerp
flip the end quaternion when needed so that the turn is the short one (at most 180
degrees); ``shortest=False`` keeps the quaternions exactly as given, which can mean the long
way round (a 60 degree turn then becomes a 300 degree one).

**The blend parameter ``t``** may be a number or an array of any shape (the result has the
same shape). It must lie in ``[0, 1]``: extrapolating an orientation is rarely what a game
wants, so a ``t`` outside that range is refused with a ``ValueError`` instead of silently
overshooting. Values within ``1e-9`` of the ends are clipped onto them.

:func:`angular_speed` and :func:`total_angle` measure a sampled path: degrees per unit of
``t`` and the total angle turned. :func:`angle_between` is the angle of the single rotation
that takes one orientation to another (0..180 degrees).
"""

from __future__ import annotations

import numpy as np
import quaternion

from . import validate as check
from .rotations import (
    UNIT_TOLERANCE,  # noqa: F401  (kept importable from here)
    _quaternion_angle,
    angle_between,
    as_unit_quaternion,
)

__all__ = [
    "angle_between",
    "angular_speed",
    "as_unit_quaternion",
    "euler_lerp",
    "lerp_angles",
    "nlerp",
    "slerp",
    "total_angle",
]

#: A quaternion whose length differs from 1 by more than :data:`UNIT_TOLERANCE` (the one
#: tolerance, from :mod:`lessons_lib.rotations`) is refused as a rotation.
#: ``t`` this close outside ``[0, 1]`` is treated as rounding and clipped onto the range.
T_SLACK = 1e-9
#: When ``|q0 + q1|`` (or ``|q0 - q1|``) is below this, the pair counts as antipodal
#: (or identical) and the special case is used instead of the general formula.
DEGENERATE = 1e-9


# -- input checks ---------------------------------------------------------------------------
# One quaternion check for every lesson: :func:`lessons_lib.rotations.as_unit_quaternion`.


def _as_t(t) -> np.ndarray:
    arr = check.numbers(t, "t")
    if arr.size and (arr.min() < -T_SLACK or arr.max() > 1 + T_SLACK):
        raise ValueError(f"t must lie in [0, 1] (0 = start, 1 = end), got values from "
                         f"{arr.min():g} to {arr.max():g}; these blends do not extrapolate")
    return np.clip(arr, 0.0, 1.0)


def _as_angles(e, name: str) -> np.ndarray:
    try:
        arr = check.array(e, name, (3,), what="degrees")
    except ValueError as exc:
        if "NaN" in str(exc):
            raise
        raise ValueError(f"{name} must be three angles (yaw, pitch, roll) in degrees: "
                         f"{exc}") from None
    return arr


def _wrap(result: np.ndarray, scalar: bool):
    """Float array (..., 4) -> quaternion, or array of quaternions of shape (...)."""
    q = quaternion.as_quat_array(np.ascontiguousarray(result))
    return q[()] if scalar else q


# -- Euler angles ---------------------------------------------------------------------------
def lerp_angles(e0, e1, t, wrap: bool = False) -> np.ndarray:
    """Blend (yaw, pitch, roll) component by component; returns angles of shape ``t.shape + (3,)``.

    ``wrap=False`` is the naive blend ``e0 + t * (e1 - e0)``. ``wrap=True`` first replaces
    each difference by the equivalent one in ``[-180, 180)``, so every angle turns the short
    way round (a difference of exactly 180 degrees goes the negative way).
    """
    a0 = _as_angles(e0, "e0")
    a1 = _as_angles(e1, "e1")
    tt = _as_t(t)[..., None]
    if check.flag(wrap, "wrap"):
        with np.errstate(over="ignore"):
            diff = a1 - a0
        if not np.isfinite(diff).all():  # huge angles: the difference mod 360 is still exact
            diff = np.fmod(a1, 360.0) - np.fmod(a0, 360.0)
        # into [-180, 180) with exact steps: fmod, then one +-360 (no rounding at the edge,
        # where (diff + 180) % 360 - 180 turned 179.99999999999997 into -180)
        diff = np.fmod(diff, 360.0)
        diff = np.where(diff >= 180.0, diff - 360.0, np.where(diff < -180.0, diff + 360.0, diff))
        return a0 + tt * diff
    with np.errstate(over="ignore", invalid="ignore"):
        out = a0 + tt * (a1 - a0)
    if not np.isfinite(out).all():  # e1 - e0 overflowed: blend without the difference
        out = (1.0 - tt) * a0 + tt * a1
    return out


def euler_lerp(e0, e1, t, order: str = "YXZ", wrap: bool = False):
    """The orientation reached by blending Euler angles component by component.

    ``e0`` and ``e1`` are (yaw, pitch, roll) in degrees, turned into a rotation with the
    gimbal ``order`` (outer to inner). Returns a unit quaternion for a scalar ``t``, or an
    array of quaternions of ``t``'s shape. See :func:`lerp_angles` for ``wrap``.

    This is what happens when a game stores keyframes as three angles and blends them: it
    works for a turn about one axis and goes wrong, in speed and in path, once several
    angles change together.
    """
    from .rotations import euler_to_quaternion

    angles = lerp_angles(e0, e1, t, wrap=wrap)
    # one vectorised call; its sign follows the angles continuously, so neighbouring
    # samples of a path stay on the same side of the 4D sphere
    q = euler_to_quaternion(angles[..., 0], angles[..., 1], angles[..., 2], order=order)
    return q if np.ndim(t) else quaternion.quaternion(*quaternion.as_float_array(q))


# -- quaternion blends ----------------------------------------------------------------------
def _pair(q0, q1, shortest: bool) -> tuple[np.ndarray, np.ndarray]:
    a = as_unit_quaternion(q0, "q0", single=True)
    b = as_unit_quaternion(q1, "q1", single=True)
    if check.flag(shortest, "shortest") and np.dot(a, b) < 0:
        b = -b
    return a, b


def _full_turn_partner(a: np.ndarray) -> np.ndarray:
    """A unit quaternion at 90 degrees (in 4D) from ``a``: ``a * j``.

    Used when the long way from ``q`` to ``-q`` is asked for: every half great circle
    between them is equally long, so one is chosen, ``a * exp(pi t j)``, which is a full
    360-degree turn about the object's own up (Y) axis.
    """
    return quaternion.as_float_array(quaternion.as_quat_array(a) * quaternion.y)


def nlerp(q0, q1, t, shortest: bool = True):
    """Normalised linear interpolation: ``normalise((1 - t) q0 + t q1)``.

    Cheap (no trigonometry) and it ends exactly on ``q0`` and ``q1``, but it sweeps the
    angle unevenly: fastest in the middle, slowest at the ends, more so the wider the turn.
    With ``shortest=True`` ``q1`` is negated first when ``q0 . q1 < 0``.

    When ``shortest=False`` and ``q1 = -q0`` the straight 4D line passes through zero and
    names no rotation at its middle; then the same full turn as :func:`slerp` is returned
    (see there), so the result never contains NaN.
    """
    a, b = _pair(q0, q1, shortest)
    tt = _as_t(t)
    if np.linalg.norm(a + b) < DEGENERATE:
        return slerp(q0, q1, t, shortest=False)
    blend = (1.0 - tt)[..., None] * a + tt[..., None] * b
    blend /= np.linalg.norm(blend, axis=-1, keepdims=True)
    return _wrap(blend, np.ndim(t) == 0)


def slerp(q0, q1, t, shortest: bool = True):
    """Spherical linear interpolation, at a constant angular speed.

    With ``Omega`` the 4D angle between the quaternions (half the rotation angle)::

        slerp(q0, q1, t) = sin((1 - t) Omega) / sin(Omega) q0 + sin(t Omega) / sin(Omega) q1

    ``shortest=True`` negates ``q1`` first when ``q0 . q1 < 0`` (numpy-quaternion's own
    slerp always does this); ``shortest=False`` keeps the given sign and so can take the
    long way round. Identical inputs give a constant result. For ``q1 = -q0`` with
    ``shortest=False`` (the same rotation, asked to go the long way) the path is a full
    360-degree turn about the object's own up axis. No input gives NaN.
    """
    a, b = _pair(q0, q1, shortest)
    tt = _as_t(t)
    scalar = np.ndim(t) == 0
    if np.linalg.norm(a + b) < DEGENERATE:
        b = _full_turn_partner(a)
        angle = tt * np.pi
        out = np.cos(angle)[..., None] * a + np.sin(angle)[..., None] * b
        return _wrap(out, scalar)
    # Omega from both chord lengths: accurate for tiny and for nearly opposite pairs.
    omega = 2.0 * np.arctan2(np.linalg.norm(a - b), np.linalg.norm(a + b))
    # sin(x Omega) / sin(Omega) written with sinc, so that Omega -> 0 gives the lerp weights.
    denom = np.sinc(omega / np.pi)
    w0 = (1.0 - tt) * np.sinc((1.0 - tt) * omega / np.pi) / denom
    w1 = tt * np.sinc(tt * omega / np.pi) / denom
    out = w0[..., None] * a + w1[..., None] * b
    out /= np.linalg.norm(out, axis=-1, keepdims=True)  # removes rounding drift only
    return _wrap(out, scalar)


# -- measuring a path -----------------------------------------------------------------------
def _float_path(qs) -> np.ndarray:
    try:
        arr = np.asarray(qs)
    except (TypeError, ValueError):
        raise ValueError("a path must be a 1D array of quaternions (or N x 4 numbers), not a "
                         "ragged list") from None
    if arr.ndim != (1 if arr.dtype == np.quaternion else 2):
        raise ValueError(f"a path must be a 1D array of quaternions (or N x 4 numbers), "
                         f"got shape {np.shape(qs)}")
    return as_unit_quaternion(qs, "the path")


_angles = _quaternion_angle


def _step_angles(path: np.ndarray) -> np.ndarray:
    """Rotation angle (degrees) between each pair of neighbouring samples."""
    return _angles(path[:-1], path[1:])


def total_angle(qs) -> float:
    """Total angle turned (degrees) along a sampled path of unit quaternions.

    The sum of the angles between neighbouring samples: sample finely enough that no
    single step turns 180 degrees or more.
    """
    path = _float_path(qs)
    if len(path) < 2:
        raise ValueError("a path needs at least two samples to have turned by any angle")
    return float(np.sum(_step_angles(path)))


def angular_speed(qs, t) -> np.ndarray:
    """Angular speed in degrees per unit ``t`` at each sample of a path.

    ``qs`` is a 1D array of unit quaternions sampled at the increasing values ``t`` (same
    length). Inside the path the speed is the angle between the two neighbours divided by
    their ``t`` distance (a central difference). At the ends, the speeds of the first two
    (last two) steps, each the speed halfway along its step, are extended in a straight line
    to the end sample (with three samples or more): a plain one-sided difference gives the
    speed half a step in, which on lesson 2's wide three-axis turn read 208 where the path
    starts at 209 degrees per unit t.
    """
    path = _float_path(qs)
    tt = check.numbers(t, "t")
    if tt.shape != (len(path),):
        raise ValueError(f"t must be a 1D array with one value per sample ({len(path)}), "
                         f"got shape {tt.shape}")
    if len(path) < 2:
        raise ValueError("a path needs at least two samples to have a speed")
    if not np.all(np.isfinite(tt)) or np.any(np.diff(tt) <= 0):
        raise ValueError("t must be finite and strictly increasing")
    steps = _step_angles(path)
    dt = np.diff(tt)
    speed = np.empty(len(path))
    mid = steps / dt                           # the speed halfway along each step
    speed[0], speed[-1] = mid[0], mid[-1]
    if len(path) > 2:
        # central difference: the angle between samples i-1 and i+1
        speed[1:-1] = _angles(path[:-2], path[2:]) / (tt[2:] - tt[:-2])
        speed[0] = max(0.0, mid[0] + (mid[0] - mid[1]) * dt[0] / (dt[0] + dt[1]))
        speed[-1] = max(0.0, mid[-1] + (mid[-1] - mid[-2]) * dt[-1] / (dt[-1] + dt[-2]))
    return speed
