"""Rotation matrices, yaw/pitch/roll in any of the six orders, quaternions and gimbal axes.

Conventions (the same in every lesson):

* right-handed, **Y up**, column vectors, active rotations, angles in **degrees**;
* yaw turns about Y, pitch about X, roll about Z;
* ``order`` is a permutation of ``"XYZ"`` naming the gimbal rings from **outer to inner**,
  which is also the matrix product from left to right: ``"YXZ"`` (the default, the
  Roll -> Pitch -> Yaw of most engines) means ``R = Ry(yaw) @ Rx(pitch) @ Rz(roll)``, so roll
  acts on the object first. This equals scipy's intrinsic ``Rotation.from_euler("YXZ", ...)``
  given the angles in ring order;
* quaternions are :class:`quaternion.quaternion` (w, x, y, z), Hamilton product.

Every function takes scalars or arrays that broadcast together; a scalar call returns a
``(3, 3)`` matrix or a tuple of floats, an array call adds the leading batch shape.

Reading angles back (:func:`matrix_to_euler`, :func:`quaternion_to_euler`) is exact
everywhere: the middle angle comes from ``atan2(sine, cosine)`` (never a bare ``asin``),
the inner angle is then computed from well-conditioned entries given the outer one, and
the locked branch (inner angle 0, outer angle carrying the rest) is taken only when the
middle ring's cosine is within a few machine epsilons of zero.
:func:`quaternion_to_euler_naive` is article 004's ``QuaternionToYawPtichRoll`` (the
common ``test > 0.4995`` recipe), kept so the lesson can show how far it is off.
"""

from __future__ import annotations

import math

import numpy as np
import quaternion

from . import validate as check

__all__ = [
    "ORDERS",
    "ANGLE_OF_AXIS",
    "LOCK_EPS",
    "NAIVE_THRESHOLD",
    "check_order",
    "ring_angle_names",
    "middle_angle_name",
    "axis_rotation",
    "euler_to_matrix",
    "matrix_to_euler",
    "euler_to_quaternion",
    "quaternion_to_matrix",
    "matrix_to_quaternion",
    "quaternion_to_euler",
    "quaternion_to_euler_naive",
    "gimbal_axes",
    "euler_rate_matrix",
    "lock_measure",
    "lock_angle",
    "angle_between",
    "axis_angle_matrix",
    "turn_onto",
    "as_unit_quaternion",
    "UNIT_TOLERANCE",
]

#: The six rotation orders, outer ring first.
ORDERS = ("XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX")

#: Which of yaw, pitch and roll turns about each axis.
ANGLE_OF_AXIS = {"X": "pitch", "Y": "yaw", "Z": "roll"}

#: The locked branch of :func:`matrix_to_euler` is taken when the cosine of the middle
#: angle is below this: a few machine epsilons, i.e. within about 1e-13 degrees of +-90.
LOCK_EPS = 8 * np.finfo(float).eps

#: ``test > 0.4995`` in the naive recipe: sin(pitch) > 0.999, i.e. |pitch| > 87.44 degrees.
NAIVE_THRESHOLD = 0.4995

_INDEX = {"X": 0, "Y": 1, "Z": 2}
#: How far from unit length a quaternion (or from orthonormal a matrix) may be and still be
#: taken as a rotation; the one tolerance of every lesson.
UNIT_TOLERANCE = 1e-6


# -- validation ------------------------------------------------------------------------------
def check_order(order) -> str:
    """Return ``order`` if it names the three axes once each (e.g. ``"YXZ"``), else raise."""
    if not isinstance(order, str):
        raise ValueError(f"order must be a string such as 'YXZ', got {type(order).__name__}")
    if order.upper() in ORDERS and order != order.upper():
        raise ValueError(
            f"order {check.describe(order)}: write it in capitals ({order.upper()!r:.12}). "
            "Rings are named outer to inner with X, Y, Z (lower case means extrinsic "
            "rotations in scipy, not here)")
    if order not in ORDERS:
        raise ValueError(
            f"order {check.describe(order)} is not a permutation of 'XYZ': use each of X, Y "
            f"and Z exactly once, outer ring first, one of {', '.join(ORDERS)}")
    return order


def _angles(yaw, pitch, roll):
    """The three angles as float arrays that broadcast together, reduced mod 360 exactly
    (in degrees, before any radians: 1e300 degrees is 1e300 mod 360, not rounding noise)."""
    out = [check.reduce_degrees(check.degrees(value, name))
           for name, value in (("yaw", yaw), ("pitch", pitch), ("roll", roll))]
    try:
        return np.broadcast_arrays(*out)
    except ValueError:
        raise ValueError("yaw, pitch and roll have shapes "
                         f"{[a.shape for a in out]} that do not broadcast together") from None


def _parity(order: str) -> int:
    """+1 when the order is a cyclic shift of XYZ (XYZ, YZX, ZXY), -1 otherwise."""
    return 1 if order in ("XYZ", "YZX", "ZXY") else -1


def ring_angle_names(order: str = "YXZ") -> tuple[str, str, str]:
    """The angle each ring carries, outer to inner: ``"YXZ"`` -> ``("yaw", "pitch", "roll")``."""
    check_order(order)
    return tuple(ANGLE_OF_AXIS[a] for a in order)


def middle_angle_name(order: str = "YXZ") -> str:
    """The angle on the middle ring: the one that locks the gimbal at +-90 degrees."""
    return ring_angle_names(order)[1]


def _by_axis(order, yaw, pitch, roll):
    """The three angles in ring order (outer, middle, inner) for ``order``."""
    value = {"X": pitch, "Y": yaw, "Z": roll}
    return tuple(value[a] for a in order)


def _to_ypr(order, outer, middle, inner):
    named = dict(zip(order, (outer, middle, inner), strict=True))
    return named["Y"], named["X"], named["Z"]


def _as_rotation_matrix(R) -> np.ndarray:
    try:
        raw = np.asarray(R)
    except (TypeError, ValueError):
        raise ValueError("R must be a 3x3 rotation matrix of numbers") from None
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"R must be a 3x3 rotation matrix of numbers, got elements of type "
                         f"{raw.dtype}")
    R = raw.astype(float)
    if R.ndim < 2 or R.shape[-2:] != (3, 3):
        raise ValueError(f"R must be a 3x3 rotation matrix (or a stack of them), got shape "
                         f"{R.shape}")
    if not np.all(np.isfinite(R)):
        raise ValueError("R contains NaN or infinity: it is not a rotation")
    gram = np.swapaxes(R, -1, -2) @ R
    if not np.all(np.abs(gram - np.eye(3)) < UNIT_TOLERANCE):
        raise ValueError("R is not orthonormal (R.T @ R is not the identity): it is not a "
                         "rotation matrix")
    if not np.all(np.linalg.det(R) > 0):
        raise ValueError("R has determinant -1: it is a reflection, not a rotation")
    return R


# -- matrices --------------------------------------------------------------------------------
def _radians(angle_deg) -> np.ndarray:
    """Degrees (a number or an array) as radians, reduced mod 360 in degrees first (exact);
    a ValueError for anything else."""
    return np.deg2rad(check.reduce_degrees(check.degrees(angle_deg, "angle_deg")))


def axis_rotation(axis: str, angle_deg) -> np.ndarray:
    """The matrix that turns vectors by ``angle_deg`` about ``axis`` ("x", "y" or "z").

    Positive angles turn counter-clockwise when the axis points at you (right-hand rule):
    ``Rx`` takes +Y towards +Z, ``Ry`` takes +Z towards +X, ``Rz`` takes +X towards +Y.
    """
    if not isinstance(axis, str) or axis.upper() not in _INDEX:
        raise ValueError(f"axis must be one of 'x', 'y', 'z', got {check.describe(axis)}")
    t = _radians(angle_deg)
    c, s = np.cos(t), np.sin(t)
    one, zero = np.ones_like(t), np.zeros_like(t)
    k = _INDEX[axis.upper()]
    if k == 0:
        rows = [[one, zero, zero], [zero, c, -s], [zero, s, c]]
    elif k == 1:
        rows = [[c, zero, s], [zero, one, zero], [-s, zero, c]]
    else:
        rows = [[c, -s, zero], [s, c, zero], [zero, zero, one]]
    return np.stack([np.stack(r, axis=-1) for r in rows], axis=-2)


def euler_to_matrix(yaw, pitch, roll, order: str = "YXZ") -> np.ndarray:
    """``R = R_outer @ R_middle @ R_inner`` with the rings named by ``order``.

    For the default ``"YXZ"``: ``Ry(yaw) @ Rx(pitch) @ Rz(roll)``.
    """
    check_order(order)
    angles = _by_axis(order, *_angles(yaw, pitch, roll))
    R = axis_rotation(order[0], angles[0])
    R = R @ axis_rotation(order[1], angles[1])
    return R @ axis_rotation(order[2], angles[2])


def _matrix_to_ring_angles(R: np.ndarray, order: str):
    """(outer, middle, inner) in radians for a validated stack of rotation matrices."""
    i, j, k = (_INDEX[a] for a in order)
    s = _parity(order)
    # sin(middle) sits alone in one entry; |cos(middle)| is the length of a unit row's rest.
    sin_b = s * R[..., i, k]
    cos_b = np.hypot(R[..., i, i], R[..., i, j])
    middle = np.arctan2(sin_b, cos_b)
    locked = cos_b < LOCK_EPS
    # Away from the lock the outer angle comes from the column of the inner axis ...
    outer_free = np.arctan2(-s * R[..., j, k], R[..., k, k])
    # ... at the lock only outer+-inner is defined: the inner angle is 0, the outer carries it.
    outer_locked = np.arctan2(s * R[..., k, j], R[..., j, j])
    outer = np.where(locked, outer_locked, outer_free)
    # Given the outer angle, the inner one comes from O(1) entries (well conditioned even a
    # hair from the lock): row j of R_outer^T R equals row j of R_inner.
    co, so = np.cos(outer), np.sin(outer)
    m_ji = co * R[..., j, i] + s * so * R[..., k, i]
    m_jj = co * R[..., j, j] + s * so * R[..., k, j]
    inner = np.where(locked, 0.0, np.arctan2(s * m_ji, m_jj))
    return outer, middle, inner


def _finish(order, outer, middle, inner):
    deg = [np.rad2deg(a) + 0.0 for a in (outer, middle, inner)]  # + 0.0 turns -0.0 into 0.0
    # atan2 returns -180 for a tiny negative sine; report angles in (-180, 180].
    deg = [np.where(d <= -180.0, d + 360.0, d) for d in deg]
    yaw, pitch, roll = _to_ypr(order, *deg)
    if np.ndim(yaw) == 0:
        return float(yaw), float(pitch), float(roll)
    return yaw, pitch, roll


def matrix_to_euler(R, order: str = "YXZ"):
    """The (yaw, pitch, roll) in degrees that rebuild ``R`` with :func:`euler_to_matrix`.

    The middle ring's angle is in [-90, 90], the others in (-180, 180]. At the lock (middle
    angle +-90) infinitely many triples give ``R``; this returns the one whose inner angle
    is 0, the outer angle carrying the rest.
    """
    check_order(order)
    R = _as_rotation_matrix(R)
    return _finish(order, *_matrix_to_ring_angles(R, order))


# -- quaternions -----------------------------------------------------------------------------
def _axis_quaternion(axis: str, angle_deg: np.ndarray) -> np.ndarray:
    half = np.deg2rad(angle_deg) / 2
    comps = np.zeros(np.shape(half) + (4,))
    comps[..., 0] = np.cos(half)
    comps[..., 1 + _INDEX[axis]] = np.sin(half)
    return quaternion.as_quat_array(comps)


def euler_to_quaternion(yaw, pitch, roll, order: str = "YXZ"):
    """The unit quaternion ``q_outer * q_middle * q_inner`` of the same rotation as
    :func:`euler_to_matrix`. Its sign follows the angles continuously (no canonical w >= 0).
    """
    check_order(order)
    angles = _by_axis(order, *_angles(yaw, pitch, roll))
    q = _axis_quaternion(order[0], angles[0])
    q = q * _axis_quaternion(order[1], angles[1])
    q = q * _axis_quaternion(order[2], angles[2])
    return q[()] if q.ndim == 0 else q


def as_unit_quaternion(q, name: str = "q", single: bool = False) -> np.ndarray:
    """Components ``(..., 4)`` (w, x, y, z) of a unit quaternion, normalised: the one
    quaternion check of every lesson.

    ``q`` is a ``quaternion.quaternion``, an array of them, or numbers whose last axis has 4
    entries. ``single=True`` accepts exactly one quaternion and returns shape ``(4,)``.
    A ValueError names ``name`` for anything that is not a finite quaternion whose length is
    within :data:`UNIT_TOLERANCE` of 1.
    """
    if type(q) is quaternion.quaternion:    # the common case, at every frame: one at once
        comps = (q.w, q.x, q.y, q.z)
        norm = math.hypot(*comps)            # NaN or infinite for a bad one: checked below
        if abs(norm - 1.0) <= UNIT_TOLERANCE:
            return np.array(comps) / norm
    if isinstance(q, str | bytes) or q is None:
        raise ValueError(f"{name} must be a quaternion or 4 numbers (w, x, y, z) within float "
                         f"range, got {check.describe(q)}")
    try:
        arr = np.asarray(q)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a quaternion or 4 numbers (w, x, y, z), "
                         "not a ragged list") from None
    if arr.dtype == quaternion.quaternion:
        comps = quaternion.as_float_array(arr).astype(float)
    elif arr.dtype.kind in "iuf":
        comps = arr.astype(float)
        if not single and (comps.ndim < 1 or comps.shape[-1] != 4):
            raise ValueError(f"{name} must be a quaternion or 4 numbers (w, x, y, z), "
                             f"got shape {comps.shape}")
    else:
        raise ValueError(f"{name} must be a quaternion or 4 numbers (w, x, y, z) within float "
                         f"range, got {check.describe(q)}")
    if single and comps.shape != (4,):
        raise ValueError(f"{name} must be a single quaternion (w, x, y, z), "
                         f"got an array of shape {comps.shape[:-1] or comps.shape}")
    if not np.all(np.isfinite(comps)):
        raise ValueError(f"{name} contains NaN or infinity: it is not a rotation")
    # the length of (w, x, y, z) scaled by its largest entry first: 1e200 never overflows
    big = np.max(np.abs(comps), axis=-1, keepdims=True) if comps.size else comps[..., :1]
    if np.any(big == 0):
        raise ValueError(f"{name} is the zero quaternion, which is not a rotation: a rotation "
                         "needs |q| = 1")
    norm = (big * np.linalg.norm(comps / big, axis=-1, keepdims=True))[..., 0]
    if np.any(np.abs(norm - 1) > UNIT_TOLERANCE):
        worst = norm.flat[np.argmax(np.abs(norm - 1))]
        raise ValueError(f"{name} has length {worst:.6g}, but a rotation needs length 1: "
                         "normalise it first (q / abs(q))")
    return comps / norm[..., None]


def quaternion_to_matrix(q) -> np.ndarray:
    """The rotation matrix of a unit quaternion (Hamilton convention, active rotation)."""
    c = as_unit_quaternion(q)
    w, x, y, z = c[..., 0], c[..., 1], c[..., 2], c[..., 3]
    rows = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]
    return np.stack([np.stack(r, axis=-1) for r in rows], axis=-2)


def matrix_to_quaternion(R):
    """A unit quaternion with w >= 0 for a rotation matrix (Shepperd's stable method)."""
    R = _as_rotation_matrix(R)
    flat = R.reshape(-1, 3, 3)
    out = np.empty((flat.shape[0], 4))
    for n, m in enumerate(flat):
        trace = np.trace(m)
        # Use the largest of 4w^2, 4x^2, 4y^2, 4z^2 as the divisor: never a tiny number.
        cand = np.array([trace, m[0, 0], m[1, 1], m[2, 2]])
        big = int(np.argmax(cand))
        if big == 0:
            r = np.sqrt(1 + trace) * 2
            q = [r / 4, (m[2, 1] - m[1, 2]) / r, (m[0, 2] - m[2, 0]) / r, (m[1, 0] - m[0, 1]) / r]
        elif big == 1:
            r = np.sqrt(1 + m[0, 0] - m[1, 1] - m[2, 2]) * 2
            q = [(m[2, 1] - m[1, 2]) / r, r / 4, (m[0, 1] + m[1, 0]) / r, (m[0, 2] + m[2, 0]) / r]
        elif big == 2:
            r = np.sqrt(1 + m[1, 1] - m[0, 0] - m[2, 2]) * 2
            q = [(m[0, 2] - m[2, 0]) / r, (m[0, 1] + m[1, 0]) / r, r / 4, (m[1, 2] + m[2, 1]) / r]
        else:
            r = np.sqrt(1 + m[2, 2] - m[0, 0] - m[1, 1]) * 2
            q = [(m[1, 0] - m[0, 1]) / r, (m[0, 2] + m[2, 0]) / r, (m[1, 2] + m[2, 1]) / r, r / 4]
        q = np.array(q)
        if q[0] < 0:
            q = -q
        out[n] = q / np.linalg.norm(q)
    result = quaternion.as_quat_array(out.reshape(R.shape[:-2] + (4,)))
    return result[()] if result.ndim == 0 else result


def quaternion_to_euler(q, order: str = "YXZ"):
    """(yaw, pitch, roll) in degrees of a unit quaternion; ``q`` and ``-q`` give the same.

    Same ranges and the same lock rule as :func:`matrix_to_euler` (it goes through the
    rotation matrix, whose entries are exact to rounding for any unit quaternion).
    """
    check_order(order)
    R = quaternion_to_matrix(q)
    return _finish(order, *_matrix_to_ring_angles(R, order))


def quaternion_to_euler_naive(q, order: str = "YXZ", threshold: float = NAIVE_THRESHOLD):
    """Article 004's ``QuaternionToYawPtichRoll``, for comparison only: **not** exact near
    the lock.

    With ``(w, x, y, z)`` the quaternion's components, the article computes
    ``test = x*w - y*z`` (half the sine of the pitch) and, when ``test > 0.4995`` (pitch
    beyond 87.44 degrees), declares the north pole: ``yaw = 2*atan2(y, x)``, pitch 90,
    roll 0; below ``-0.4995`` the south pole, ``yaw = -2*atan2(y, x)``, pitch -90, roll 0.
    Otherwise it reads the three angles from quaternion products (the entries of the
    rotation matrix) with a bare ``asin`` for the pitch. Exactly at the lock the pole
    formula is right (the outer angle then carries outer +- inner); a little before it, it
    is not, because it keeps only two of the four components.

    For ``"YXZ"`` this is the article's code line for line (``tests`` compare it with a
    transcription of the C++). For another order the same recipe is written for its rings:
    ``test = w*q_middle + s*q_outer*q_inner`` (``s`` = +1 for the cyclic orders XYZ, YZX,
    ZXY, -1 otherwise) and the outer angle at a pole is ``+-2*atan2(q_outer, q_middle)``.
    The article's ``NormalizeAngles`` is not shown there; here the angles come back in
    (-180, 180] like every other read-back (a whole turn changes no orientation).
    """
    check_order(order)
    threshold = check.real(threshold, "threshold", lo=0.0, hi=0.5, lo_open=True)
    c = as_unit_quaternion(q)
    i, j, k = (_INDEX[a] for a in order)
    s = _parity(order)
    w, qi, qj, qk = c[..., 0], c[..., 1 + i], c[..., 1 + j], c[..., 1 + k]
    unit = np.sum(c * c, axis=-1)
    test = w * qj + s * qi * qk
    north, south = test > threshold * unit, test < -threshold * unit
    R = quaternion_to_matrix(c)
    # the unsnapped branch: the article's products are these matrix entries
    middle = np.arcsin(np.clip(2 * test, -1.0, 1.0))
    outer = np.arctan2(-s * R[..., j, k], R[..., k, k])
    inner = np.arctan2(-s * R[..., i, j], R[..., i, i])
    pole = 2 * np.arctan2(qi, qj)
    middle = np.where(north, np.pi / 2, np.where(south, -np.pi / 2, middle))
    outer = np.where(north, pole, np.where(south, -pole, outer))
    inner = np.where(north | south, 0.0, inner)
    # 2*atan2 spans (-360, 360]: bring it back to (-180, 180]
    outer = np.mod(outer + np.pi, 2 * np.pi) - np.pi
    return _finish(order, outer, middle, inner)


# -- gimbals ---------------------------------------------------------------------------------
def gimbal_axes(yaw, pitch, roll, order: str = "YXZ") -> np.ndarray:
    """Rows: the outer, middle and inner ring's rotation axis in world coordinates (unit).

    The outer axis is fixed to the world; the middle one is turned by the outer ring; the
    inner one by the outer and middle rings. At the lock the outer and inner rows are parallel.
    """
    check_order(order)
    outer, middle, _inner = _by_axis(order, *_angles(yaw, pitch, roll))
    basis = np.eye(3)
    R_outer = axis_rotation(order[0], outer)
    R_both = R_outer @ axis_rotation(order[1], middle)
    a0 = np.broadcast_to(basis[_INDEX[order[0]]], R_outer.shape[:-1])
    a1 = R_outer @ basis[_INDEX[order[1]]]
    a2 = R_both @ basis[_INDEX[order[2]]]
    return np.stack([a0, a1, a2], axis=-2)


def euler_rate_matrix(yaw, pitch, roll, order: str = "YXZ") -> np.ndarray:
    """The 3x3 map from ring rates (outer, middle, inner; any angular unit) to the angular
    velocity in world coordinates: its columns are :func:`gimbal_axes`.

    It loses rank exactly at the lock: some angular velocity cannot be produced at all.
    """
    return np.swapaxes(gimbal_axes(yaw, pitch, roll, order), -1, -2)


def lock_measure(yaw, pitch, roll, order: str = "YXZ"):
    """How free the gimbal still is: the smallest singular value of :func:`euler_rate_matrix`.

    1 when the middle ring is at 0, ``sqrt(1 - |sin(middle)|)`` in general, 0 at the lock.
    """
    J = euler_rate_matrix(yaw, pitch, roll, order)
    sv = np.linalg.svd(J, compute_uv=False)[..., -1]
    return float(sv) if np.ndim(sv) == 0 else sv


def lock_angle(yaw, pitch, roll, order: str = "YXZ"):
    """Degrees between the lines of the outer and inner ring axes: 90 when the middle ring is
    at 0, ``90 - |middle|`` in general, 0 when the two axes coincide (the lock)."""
    axes = gimbal_axes(yaw, pitch, roll, order)
    a0, a2 = axes[..., 0, :], axes[..., 2, :]
    # atan2(|a x b|, |a . b|): accurate near 0, unlike acos of the dot product.
    cross = np.linalg.norm(np.cross(a0, a2), axis=-1)
    dot = np.abs(np.sum(a0 * a2, axis=-1))
    ang = np.rad2deg(np.arctan2(cross, dot))
    return float(ang) if np.ndim(ang) == 0 else ang


def _is_quaternion_like(X) -> bool:
    if isinstance(X, quaternion.quaternion):
        return True
    try:
        arr = np.asarray(X)
    except (TypeError, ValueError):
        return False
    return arr.dtype == quaternion.quaternion or (arr.ndim >= 1 and arr.shape[-1] == 4)


def _quaternion_angle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rotation angle (degrees, 0..180) between unit quaternions ``a`` and ``b`` (..., 4).

    Twice the 4D angle between them, measured to the nearer of ``b`` and ``-b`` (the same
    rotation); the half-chord lengths keep it accurate near 0 and near 180 degrees.
    """
    near = np.linalg.norm(a - b, axis=-1)
    far = np.linalg.norm(a + b, axis=-1)
    return np.degrees(4.0 * np.arctan2(np.minimum(near, far), np.maximum(near, far)))


def angle_between(A, B):
    """The angle in degrees (0..180) of the rotation taking orientation ``A`` to ``B``:
    0 when they are the same orientation. ``A`` and ``B`` are rotation matrices or unit
    quaternions (either kind, or stacks that broadcast); ``q`` and ``-q`` give the same."""
    if _is_quaternion_like(A) and _is_quaternion_like(B):
        a = as_unit_quaternion(A, "A" if np.ndim(A) > 1 else "q0")
        b = as_unit_quaternion(B, "B" if np.ndim(B) > 1 else "q1")
        ang = _quaternion_angle(a, b)
        return float(ang) if np.ndim(ang) == 0 else ang

    def as_matrix(X):
        return quaternion_to_matrix(X) if _is_quaternion_like(X) else _as_rotation_matrix(X)

    A, B = as_matrix(A), as_matrix(B)
    D = np.swapaxes(A, -1, -2) @ B
    # angle from the axis part (sin) and the trace part (cos): accurate for tiny angles.
    skew = np.stack([D[..., 2, 1] - D[..., 1, 2], D[..., 0, 2] - D[..., 2, 0],
                     D[..., 1, 0] - D[..., 0, 1]], axis=-1)
    sin2 = np.linalg.norm(skew, axis=-1)
    cos2 = np.trace(D, axis1=-2, axis2=-1) - 1
    ang = np.rad2deg(np.arctan2(sin2, cos2))
    return float(ang) if np.ndim(ang) == 0 else ang


def axis_angle_matrix(axis, angle_deg) -> np.ndarray:
    """The matrix turning by ``angle_deg`` about any ``axis`` vector (Rodrigues' formula).

    ``angle_deg`` may be an array: the result then has shape ``angle.shape + (3, 3)``.
    """
    a = check.array(axis, "axis", (3,), what="3 numbers (a finite 3-vector)")
    big = float(np.abs(a).max())
    if big == 0:
        raise ValueError("the zero vector has no direction: give a non-zero rotation axis")
    a = a / big  # scaled first: an axis of 1e200 or 1e-200 has the same direction
    x, y, z = a / np.linalg.norm(a)
    t = _radians(angle_deg)
    K = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    s, c = np.sin(t)[..., None, None], np.cos(t)[..., None, None]
    return np.eye(3) + s * K + (1 - c) * (K @ K)


def turn_onto(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The smallest rotation (a 3x3 matrix) taking unit vector ``u`` onto unit vector ``v``;
    for opposite vectors, a half turn about an axis square to ``u``. Any length but zero is
    taken as its direction."""
    u, v = (check.array(x, name, (3,), what="3 numbers (a finite 3-vector)")
            for x, name in ((u, "u"), (v, "v")))
    sizes = [float(np.linalg.norm(x)) for x in (u, v)]
    if not min(sizes) > 0:
        raise ValueError("turn_onto: the zero vector has no direction")
    u, v = u / sizes[0], v / sizes[1]
    axis = np.cross(u, v)
    sin, cos = float(np.linalg.norm(axis)), float(np.clip(u @ v, -1.0, 1.0))
    if sin < 1e-12:
        if cos > 0:
            return np.eye(3)
        axis = np.cross(u, [1.0, 0.0, 0.0])              # opposite: any axis across u
        if np.linalg.norm(axis) < 1e-6:
            axis = np.cross(u, [0.0, 1.0, 0.0])
    return axis_angle_matrix(axis, np.degrees(np.arctan2(sin, cos)))
