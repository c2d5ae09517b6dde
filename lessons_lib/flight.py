"""Fly it: turn the aircraft about its own axes and solve the rings that follow.

Lesson 1's second way in (issue 31, "Fly it"): instead of turning a ring, the student turns
the aircraft a little about its own nose, wing or top axis, and the three ring angles are
solved from the new orientation. Near the lock a small turn about the lost direction makes
the outer and inner rings swing through large angles; each ring's *rate* (degrees of ring
per degree of turn) says how much.

Conventions as in :mod:`lessons_lib.rotations`: right-handed, Y up; the aircraft's nose is
its +Z, its top (the fin) +Y and its left wing +X; ``order`` names the rings outer to inner;
angles in degrees. A body-frame turn by ``angle`` about the unit body axis ``a`` is
``R_new = R @ axis_angle_matrix(a, angle)`` (the axis turns with the aircraft).

The solve. Away from the lock each orientation has exactly two ring triples up to whole
turns: ``(outer, middle, inner)`` and ``(outer + 180, 180 - middle, inner + 180)``. Of these,
each angle moved by whole turns to lie within 180° of the old angle, :func:`body_turn` keeps
the one that moves the rings least (smallest sum of squared changes), so the rings move
continuously as the aircraft turns, and a slider that was at 200° stays near 200°.

At the lock (middle angle ±90°) the solve is not unique: the outer and inner rings turn
about one shared axis, and only their sum (same sense) or difference (opposite senses) is
fixed by the orientation. :func:`body_turn` then picks the split that moves the rings least:
the needed change of that sum or difference is shared equally by the outer and inner rings.
Any other split shows the same orientation. The even split is the smallest ring motion,
the same split as the smallest solution :func:`ring_rates` gives there, and it treats the two
rings alike (a rule such as "the inner ring takes it all" would favour one); the result says
``locked`` so that a page can say the choice was made.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import rotations as rot
from . import validate as check

__all__ = ["BODY_AXES", "BodyTurn", "aim_nose", "body_turn", "ring_rates"]

#: The aircraft's own axes, in its body frame: about the nose is a roll-like turn, about
#: the wing a pitch-like one, about the top (fin) a yaw-like one.
BODY_AXES = {"nose": np.array([0.0, 0.0, 1.0]), "wing": np.array([1.0, 0.0, 0.0]),
             "top": np.array([0.0, 1.0, 0.0])}

#: A middle ring whose cosine is below this is at the lock (the outer and inner axes are
#: one line to rounding): the solve is not unique there.
LOCK_COS = 1e-12


@dataclass(frozen=True)
class BodyTurn:
    """The rings after a body-frame turn.

    ``angles``: the new (yaw, pitch, roll), on the branch nearest the old ones.
    ``rates``: degrees of each ring per degree of this turn, in ring order (outer, middle,
    inner), at the old angles (the derivative; for a small turn the change is about
    ``rate * angle``). ``inf`` for the outer and inner rings when the turn needs the
    direction the lock has lost. ``locked``: the new orientation is at the lock, where the
    outer/inner split is a choice (see the module's docstring).
    """

    angles: tuple[float, float, float]
    rates: tuple[float, float, float]
    locked: bool



def _body_axis(axis) -> np.ndarray:
    if isinstance(axis, str):
        if axis not in BODY_AXES:
            raise ValueError(f"unknown body axis {check.describe(axis)}: choose one of "
                             f"{', '.join(BODY_AXES)}"
                             " or give a 3-vector in the aircraft's frame")
        return BODY_AXES[axis]
    a = check.array(axis, "axis", (3,), what="'nose', 'wing', 'top' or a finite 3-vector")
    n = float(np.linalg.norm(a))
    if n == 0:
        raise ValueError("the zero vector has no direction: give a non-zero body axis")
    return a / n


def _scalar_angles(yaw, pitch, roll) -> tuple[float, float, float]:
    out = []
    for name, v in (("yaw", yaw), ("pitch", pitch), ("roll", roll)):
        d = check.degrees(v, name)
        if np.ndim(d) != 0:
            raise ValueError(f"{name} must be one number, not an array of shape {np.shape(d)}")
        if abs(float(d)) > 1e6:
            raise ValueError(f"{name} = {float(d):g}° is too large to track a turn from: "
                             "give an angle within ±1e6°")
        out.append(float(d))
    return tuple(out)


def _rings(order: str, yaw, pitch, roll) -> list[float]:
    """The angles in ring order (outer, middle, inner)."""
    named = {"yaw": yaw, "pitch": pitch, "roll": roll}
    return [named[n] for n in rot.ring_angle_names(order)]


def _ypr(order: str, rings) -> tuple[float, float, float]:
    named = dict(zip(rot.ring_angle_names(order), rings, strict=True))
    return named["yaw"], named["pitch"], named["roll"]


def _wrap(d):
    """Degrees into [-180, 180)."""
    return (np.asarray(d, dtype=float) + 180.0) % 360.0 - 180.0


def ring_rates(yaw, pitch, roll, axis, order: str = "YXZ") -> tuple[float, float, float]:
    """Degrees of each ring (outer, middle, inner) per degree of turn about the body
    ``axis`` ('nose', 'wing', 'top' or a 3-vector in the aircraft's frame), at these angles.

    The turn's angular velocity in the world is ``R @ axis``; the rings' rates ``r`` solve
    ``euler_rate_matrix @ r = R @ axis``. Near the lock the outer and inner rates grow like
    1 / cos(middle); at the lock a turn with any part along the lost direction has no
    solution (``inf`` for the outer and inner rings), and any other turn has many (the
    smallest is given).
    """
    order = rot.check_order(order)
    yaw, pitch, roll = _scalar_angles(yaw, pitch, roll)
    a = _body_axis(axis)
    omega = rot.euler_to_matrix(yaw, pitch, roll, order) @ a
    E = rot.euler_rate_matrix(yaw, pitch, roll, order)
    middle = _rings(order, yaw, pitch, roll)[1]
    if abs(np.cos(np.radians(middle))) >= LOCK_COS:
        return tuple(float(v) for v in np.linalg.solve(E, omega))
    r, *_ = np.linalg.lstsq(E, omega, rcond=1e-9)
    lost = np.cross(E[:, 0], E[:, 1])               # square to the shared and middle axes
    lost /= np.linalg.norm(lost)
    if abs(lost @ omega) > 1e-9:
        return (float("inf"), float(r[1]), float("inf"))
    return tuple(float(v) for v in r)


def body_turn(yaw, pitch, roll, axis, angle, order: str = "YXZ") -> BodyTurn:
    """Turn the aircraft at (yaw, pitch, roll) by ``angle`` degrees about its own ``axis``
    and solve the new ring angles on the branch nearest the old ones (module docstring)."""
    order = rot.check_order(order)
    yaw, pitch, roll = _scalar_angles(yaw, pitch, roll)
    a = _body_axis(axis)
    angle = float(check.degrees(angle, "angle"))
    if abs(angle) > 360:
        raise ValueError(f"angle = {angle:g}°: a body turn is a small step, give at most 360°")
    R_new = rot.euler_to_matrix(yaw, pitch, roll, order) @ rot.axis_angle_matrix(a, angle)
    old = np.array(_rings(order, yaw, pitch, roll))
    outer, middle, inner = _rings(order, *rot.matrix_to_euler(R_new, order))
    if abs(np.cos(np.radians(middle))) < LOCK_COS:
        # only outer + sense * inner is fixed: share its change equally
        axes = rot.gimbal_axes(*_ypr(order, (outer, middle, inner)), order)
        sense = float(np.sign(axes[0] @ axes[2]))
        need = _wrap((outer + sense * inner) - (old[0] + sense * old[2]))
        mid = old[1] + _wrap(middle - old[1])
        new = np.array([old[0] + need / 2, mid, old[2] + sense * need / 2])
        locked = True
    else:
        candidates = np.array([[outer, middle, inner],
                               [outer + 180.0, 180.0 - middle, inner + 180.0]])
        moved = old + _wrap(candidates - old)
        cost = np.sum((moved - old) ** 2, axis=1)
        new = moved[int(np.argmin(cost))]
        locked = False
    new = np.where(np.abs(new) < 1e-12, 0.0, new) + 0.0
    return BodyTurn(angles=tuple(float(v) for v in _ypr(order, new)),
                    rates=ring_rates(yaw, pitch, roll, a, order), locked=locked)


# -- aiming the nose (lesson 2's drag of a keyframe on the sphere) -----------------------------
#: Within this many degrees of the lock (middle ring at +-90) the outer ring's angle is kept:
#: there every value of it points the nose the same way.
AIM_LOCK_DEG = 1e-6


def aim_nose(angles, direction, order: str = "YXZ") -> tuple[float, float, float]:
    """The (yaw, pitch, roll) in degrees of a keyframe whose nose points along ``direction``
    (a 3-vector, any length but zero), starting from ``angles``: what a drag of the
    keyframe's nose marker on the sphere sets.

    When the roll ring is the inner or the outer one (orders YXZ, XYZ, ZXY, ZYX) the roll is
    kept and yaw and pitch are solved. At the lock (the middle ring at +-90) the nose points
    along the outer ring's axis whatever the outer angle: that angle is kept, so a drag
    through the pole does not spin the slider. With the roll ring in the middle (XZY, YZX)
    a fixed roll cannot reach every direction: the keyframe is turned the shortest way onto
    the new direction and all three angles follow.
    """
    order = rot.check_order(order)
    yaw, pitch, roll = (float(a) for a in check.array(
        angles, "angles", (3,), what="3 numbers (yaw, pitch, roll in degrees)"))
    d = check.array(direction, "direction", (3,), what="3 numbers (a finite 3-vector)")
    size = float(np.linalg.norm(d))
    if not size > 0:
        raise ValueError("the zero vector has no direction: give where the nose should point")
    d = d / size
    if order[1] == "Z":                                   # roll in the middle
        R = rot.euler_to_matrix(yaw, pitch, roll, order=order)
        turned = rot.turn_onto(R @ BODY_AXES["nose"], d) @ R
        return rot.matrix_to_euler(turned, order=order)
    if order[0] == "Z":                                   # roll outside: undo it first
        d = rot.axis_rotation("z", roll).T @ d
        aim_order = order[1:] + "Z"
    else:
        aim_order = order
    # the two other rings, as they are, turned the shortest way onto d; the roll ring is
    # innermost in aim_order and does not move the nose
    two = rot.euler_to_matrix(yaw, pitch, 0.0, order=aim_order)
    turned = rot.turn_onto(two @ BODY_AXES["nose"], d) @ two
    new_yaw, new_pitch, _ = rot.matrix_to_euler(turned, order=aim_order)
    middle = {"X": new_pitch, "Y": new_yaw}[aim_order[1]]
    if abs(abs(middle) - 90.0) < AIM_LOCK_DEG:           # locked: keep the outer angle
        if aim_order[0] == "Y":
            new_yaw = yaw
        else:
            new_pitch = pitch
    return new_yaw, new_pitch, roll
