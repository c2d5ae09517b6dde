"""lessons_lib.rotations against scipy.spatial.transform, article 001's printed matrix, and
the lock: round trips away from it, at it and within a hair of it."""

from __future__ import annotations

import numpy as np
import pytest
import quaternion
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from lessons_lib import rotations as rot
from lessons_lib.rotations import (
    ORDERS,
    angle_between,
    axis_rotation,
    euler_rate_matrix,
    euler_to_matrix,
    euler_to_quaternion,
    gimbal_axes,
    lock_angle,
    lock_measure,
    matrix_to_euler,
    matrix_to_quaternion,
    quaternion_to_euler,
    quaternion_to_euler_naive,
    quaternion_to_matrix,
)

N = 4000  # random cases per order for the vectorised comparisons
rng = np.random.default_rng(20261130)


def ring(order, yaw, pitch, roll):
    """Angles in ring order (outer, middle, inner): scipy's argument order for ``order``."""
    named = {"Y": yaw, "X": pitch, "Z": roll}
    return np.stack([np.asarray(named[a], dtype=float) for a in order], axis=-1)


def random_angles(n, middle_limit=90.0, order="YXZ"):
    """yaw, pitch, roll with the middle ring's angle in [-middle_limit, middle_limit]."""
    a = rng.uniform(-180, 180, (n, 3))
    name = rot.middle_angle_name(order)
    col = {"yaw": 0, "pitch": 1, "roll": 2}[name]
    a[:, col] = rng.uniform(-middle_limit, middle_limit, n)
    return a[:, 0], a[:, 1], a[:, 2]


def wrap(deg):
    return (np.asarray(deg) + 180.0) % 360.0 - 180.0


def scipy_matrix(order, yaw, pitch, roll):
    return Rotation.from_euler(order, ring(order, yaw, pitch, roll), degrees=True).as_matrix()


# -- single-axis matrices ---------------------------------------------------------------------
def test_axis_rotation_follows_the_right_hand_rule():
    x, y, z = np.eye(3)
    np.testing.assert_allclose(axis_rotation("x", 90) @ y, z, atol=1e-15)
    np.testing.assert_allclose(axis_rotation("y", 90) @ z, x, atol=1e-15)
    np.testing.assert_allclose(axis_rotation("z", 90) @ x, y, atol=1e-15)
    np.testing.assert_allclose(axis_rotation("X", -90) @ z, y, atol=1e-15)


@pytest.mark.parametrize("axis", "xyz")
def test_axis_rotation_matches_scipy_and_is_a_rotation(axis):
    t = rng.uniform(-720, 720, 500)
    R = axis_rotation(axis, t)
    assert R.shape == (500, 3, 3)
    theirs = Rotation.from_euler(axis.upper(), t[:, None], degrees=True).as_matrix()
    np.testing.assert_allclose(R, theirs, atol=1e-14)
    np.testing.assert_allclose(np.swapaxes(R, 1, 2) @ R, np.broadcast_to(np.eye(3), R.shape),
                               atol=1e-14)
    np.testing.assert_allclose(np.linalg.det(R), 1.0, atol=1e-14)


def test_axis_rotation_written_out_like_article_001():
    t = 37.0
    c, s = np.cos(np.radians(t)), np.sin(np.radians(t))
    np.testing.assert_allclose(axis_rotation("x", t), [[1, 0, 0], [0, c, -s], [0, s, c]])
    np.testing.assert_allclose(axis_rotation("y", t), [[c, 0, s], [0, 1, 0], [-s, 0, c]])
    np.testing.assert_allclose(axis_rotation("z", t), [[c, -s, 0], [s, c, 0], [0, 0, 1]])


# -- Euler angles -> matrix -------------------------------------------------------------------
@pytest.mark.parametrize("order", ORDERS)
def test_euler_to_matrix_matches_scipy_intrinsic(order):
    yaw, pitch, roll = random_angles(N, 180.0)
    np.testing.assert_allclose(euler_to_matrix(yaw, pitch, roll, order),
                               scipy_matrix(order, yaw, pitch, roll), atol=1e-14)


def test_default_order_is_roll_then_pitch_then_yaw():
    yaw, pitch, roll = 30.0, -50.0, 70.0
    expected = axis_rotation("y", yaw) @ axis_rotation("x", pitch) @ axis_rotation("z", roll)
    np.testing.assert_allclose(euler_to_matrix(yaw, pitch, roll), expected, atol=1e-15)
    # roll acts on the object first: the nose (+Z) is unaffected by roll
    nose = euler_to_matrix(yaw, pitch, roll) @ [0, 0, 1]
    np.testing.assert_allclose(nose, euler_to_matrix(yaw, pitch, 0) @ [0, 0, 1], atol=1e-15)


def test_closed_form_matrix_printed_in_article_001():
    """Article 001's product for Roll -> Pitch -> Yaw, entry by entry (alpha yaw, beta pitch,
    gamma roll)."""
    yaw, pitch, roll = random_angles(N, 180.0)
    ca, sa = np.cos(np.radians(yaw)), np.sin(np.radians(yaw))
    cb, sb = np.cos(np.radians(pitch)), np.sin(np.radians(pitch))
    cg, sg = np.cos(np.radians(roll)), np.sin(np.radians(roll))
    printed = np.stack([
        np.stack([ca * cg + sa * sb * sg, -ca * sg + sa * sb * cg, sa * cb], -1),
        np.stack([cb * sg, cb * cg, -sb], -1),
        np.stack([-sa * cg + ca * sb * sg, sa * sg + ca * sb * cg, ca * cb], -1),
    ], -2)
    np.testing.assert_allclose(euler_to_matrix(yaw, pitch, roll, "YXZ"), printed, atol=1e-14)


def test_order_matters():
    a = euler_to_matrix(40, 30, 20, "YXZ")
    b = euler_to_matrix(40, 30, 20, "ZXY")
    assert angle_between(a, b) > 5


def test_angles_add_on_one_axis_but_not_on_two():
    """Article 001: (0, 15, 0) then (0, 30, 0) is (0, 45, 0), but with yaw and roll both
    turning the composition is not (45, 0, 45) (angles written yaw, pitch, roll here)."""
    one = euler_to_matrix(30, 0, 0) @ euler_to_matrix(15, 0, 0)
    np.testing.assert_allclose(one, euler_to_matrix(45, 0, 0), atol=1e-15)
    two = euler_to_matrix(30, 0, 30) @ euler_to_matrix(15, 0, 15)
    gap = angle_between(two, euler_to_matrix(45, 0, 45))
    assert 5 < gap < 15


# -- matrix -> Euler angles -------------------------------------------------------------------
@pytest.mark.parametrize("order", ORDERS)
def test_matrix_to_euler_matches_scipy_away_from_lock(order):
    yaw, pitch, roll = random_angles(N, 89.0, order)
    R = euler_to_matrix(yaw, pitch, roll, order)
    got = ring(order, *matrix_to_euler(R, order))
    want = Rotation.from_matrix(R).as_euler(order, degrees=True)
    np.testing.assert_allclose(wrap(got - want), 0.0, atol=1e-9)
    # and the angles we put in come back (middle in [-89, 89], others in (-180, 180])
    np.testing.assert_allclose(wrap(got - ring(order, yaw, pitch, roll)), 0.0, atol=1e-9)


@pytest.mark.parametrize("order", ORDERS)
def test_matrix_to_euler_rebuilds_every_matrix(order):
    """Any angles at all (middle beyond 90 too): the triple returned rebuilds R exactly."""
    yaw, pitch, roll = random_angles(N, 180.0)
    R = euler_to_matrix(yaw, pitch, roll, order)
    y, p, r = matrix_to_euler(R, order)
    np.testing.assert_allclose(euler_to_matrix(y, p, r, order), R, atol=2e-15 * 8)
    mid = ring(order, y, p, r)[:, 1]
    assert np.all(np.abs(mid) <= 90.0)
    for angle in (y, p, r):
        assert np.all((angle > -180.0) & (angle <= 180.0))


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_at_lock_inner_is_zero_and_outer_carries_the_rest(order, sign):
    n = 500
    a = rng.uniform(-180, 180, (n, 3))
    named = dict(zip(order, a.T, strict=True))
    named[order[1]] = np.full(n, 90.0 * sign)
    yaw, pitch, roll = named["Y"], named["X"], named["Z"]
    R = euler_to_matrix(yaw, pitch, roll, order)
    y, p, r = matrix_to_euler(R, order)
    got = ring(order, y, p, r)
    assert np.all(got[:, 1] == 90.0 * sign)
    assert np.all(got[:, 2] == 0.0)
    np.testing.assert_allclose(euler_to_matrix(y, p, r, order), R, atol=1e-15 * 8)
    # only outer -/+ inner survives: which one depends on the lock's sign and the order
    s = rot._parity(order)
    expected_outer = a[:, 0] + s * sign * a[:, 2]
    np.testing.assert_allclose(wrap(got[:, 0] - expected_outer), 0.0, atol=1e-9)


@pytest.mark.parametrize("order", ORDERS)
def test_within_a_hair_of_the_lock_everything_stays_exact(order):
    """Middle angle 90 - 10^-k degrees, k = 1..13: the middle angle is read to rounding (a bare
    asin would lose half the digits) and the triple still rebuilds the matrix."""
    for k in range(1, 14):
        for sign in (1.0, -1.0):
            middle = sign * (90.0 - 10.0 ** -k)
            a = rng.uniform(-180, 180, (200, 3))
            named = dict(zip(order, a.T, strict=True))
            named[order[1]] = np.full(200, middle)
            R = euler_to_matrix(named["Y"], named["X"], named["Z"], order)
            y, p, r = matrix_to_euler(R, order)
            got = ring(order, y, p, r)
            np.testing.assert_allclose(got[:, 1], middle, atol=2e-12, rtol=0)
            np.testing.assert_allclose(euler_to_matrix(y, p, r, order), R, atol=1e-14)
            q = euler_to_quaternion(named["Y"], named["X"], named["Z"], order)
            got_q = ring(order, *quaternion_to_euler(q, order))
            np.testing.assert_allclose(got_q[:, 1], middle, atol=2e-12, rtol=0)


def test_the_locked_branch_is_taken_only_at_the_lock():
    # cos(89.9999999 deg) ~ 1.7e-9 is far above a few epsilons: not locked, roll kept
    y, p, r = matrix_to_euler(euler_to_matrix(30, 89.9999999, 20))
    assert r == pytest.approx(20, abs=1e-5) and y == pytest.approx(30, abs=1e-5)
    y, p, r = matrix_to_euler(euler_to_matrix(30, 90, 20))
    assert (p, r) == (90.0, 0.0) and y == pytest.approx(10.0, abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(order=st.sampled_from(ORDERS),
       outer=st.floats(-179.999, 180.0), middle=st.floats(-90.0, 90.0),
       inner=st.floats(-179.999, 180.0))
def test_round_trip_property(order, outer, middle, inner):
    named = dict(zip(order, (outer, middle, inner), strict=True))
    yaw, pitch, roll = named["Y"], named["X"], named["Z"]
    R = euler_to_matrix(yaw, pitch, roll, order)
    back = matrix_to_euler(R, order)
    np.testing.assert_allclose(euler_to_matrix(*back, order), R, atol=1e-14)
    got = ring(order, *back)
    assert abs(got[1] - middle) < 1e-9
    if abs(middle) < 89.99:  # elsewhere the outer/inner split is not defined by R
        np.testing.assert_allclose(wrap(got - [outer, middle, inner]), 0, atol=1e-9)


# -- quaternions ------------------------------------------------------------------------------
@pytest.mark.parametrize("order", ORDERS)
def test_euler_to_quaternion_matches_scipy_and_our_matrix(order):
    yaw, pitch, roll = random_angles(N, 180.0)
    q = euler_to_quaternion(yaw, pitch, roll, order)
    comps = quaternion.as_float_array(q)
    np.testing.assert_allclose(np.linalg.norm(comps, axis=-1), 1.0, atol=1e-15)
    sx, sy, sz, sw = Rotation.from_euler(order, ring(order, yaw, pitch, roll),
                                         degrees=True).as_quat().T
    theirs = np.stack([sw, sx, sy, sz], -1)
    same = np.minimum(np.abs(comps - theirs).max(-1), np.abs(comps + theirs).max(-1))
    assert same.max() < 1e-14
    R = euler_to_matrix(yaw, pitch, roll, order)
    np.testing.assert_allclose(quaternion_to_matrix(q), R, atol=1e-14)
    np.testing.assert_allclose(quaternion.as_rotation_matrix(q), R, atol=1e-14)


def test_euler_to_quaternion_scalar_is_a_quaternion():
    q = euler_to_quaternion(0, 90, 0)
    assert isinstance(q, quaternion.quaternion)
    np.testing.assert_allclose(quaternion.as_float_array(q), [np.sqrt(0.5), np.sqrt(0.5), 0, 0],
                               atol=1e-16)


@pytest.mark.parametrize("order", ORDERS)
def test_q_and_minus_q_give_the_same_angles(order):
    yaw, pitch, roll = random_angles(N, 180.0)
    q = euler_to_quaternion(yaw, pitch, roll, order)
    a = quaternion_to_euler(q, order)
    b = quaternion_to_euler(-q, order)
    for u, v in zip(a, b, strict=True):
        np.testing.assert_allclose(u, v, atol=1e-9)
    # and they agree with the matrix route, at the lock too
    locked = euler_to_quaternion(33.0, 90.0, -12.0, "YXZ")
    assert quaternion_to_euler(locked) == pytest.approx(quaternion_to_euler(-locked), abs=1e-12)


@pytest.mark.parametrize("order", ORDERS)
def test_quaternion_to_euler_matches_scipy(order):
    yaw, pitch, roll = random_angles(N, 89.0, order)
    q = euler_to_quaternion(yaw, pitch, roll, order)
    got = ring(order, *quaternion_to_euler(q, order))
    comps = quaternion.as_float_array(q)
    want = Rotation.from_quat(comps[:, [1, 2, 3, 0]]).as_euler(order, degrees=True)
    np.testing.assert_allclose(wrap(got - want), 0.0, atol=1e-9)


def test_quaternion_to_euler_accepts_plain_components():
    assert quaternion_to_euler([1, 0, 0, 0]) == (0.0, 0.0, 0.0)
    h = np.sqrt(0.5)
    assert quaternion_to_euler((h, 0, h, 0)) == pytest.approx((90.0, 0.0, 0.0))


def test_matrix_to_quaternion_matches_scipy_up_to_sign():
    R = Rotation.random(2000, random_state=7).as_matrix()
    q = quaternion.as_float_array(matrix_to_quaternion(R))
    sx, sy, sz, sw = Rotation.from_matrix(R).as_quat().T
    theirs = np.stack([sw, sx, sy, sz], -1)
    same = np.minimum(np.abs(q - theirs).max(-1), np.abs(q + theirs).max(-1))
    assert same.max() < 1e-13
    assert np.all(q[:, 0] >= 0)
    np.testing.assert_allclose(quaternion_to_matrix(matrix_to_quaternion(R)), R, atol=1e-14)
    # a half turn (w = 0) is still handled
    half = matrix_to_quaternion(axis_rotation("y", 180))
    assert abs(abs(half.y) - 1) < 1e-15


# -- the naive 0.4995 recipe ------------------------------------------------------------------
def test_naive_threshold_is_87_44_degrees():
    assert np.degrees(np.arcsin(2 * rot.NAIVE_THRESHOLD)) == pytest.approx(87.437, abs=1e-3)


def test_naive_agrees_below_the_threshold_and_snaps_above_it():
    q = euler_to_quaternion(30.0, 80.0, 20.0)
    assert quaternion_to_euler_naive(q) == pytest.approx((30.0, 80.0, 20.0), abs=1e-9)
    q = euler_to_quaternion(30.0, 88.0, 20.0)
    y, p, r = quaternion_to_euler_naive(q)
    assert (p, r) == (90.0, 0.0)
    assert quaternion_to_euler(q) == pytest.approx((30.0, 88.0, 20.0), abs=1e-9)


@pytest.mark.parametrize("order", ORDERS)
def test_naive_is_wrong_by_up_to_3_6_degrees_and_exact_is_not(order):
    """Sweep the middle ring from 87 to 90: the snapped answer's orientation is off by up to
    sqrt(2) (90 - 87.44) degrees (article 004's pole formula); the exact answer never is."""
    n = 3000
    a = rng.uniform(-180, 180, (n, 3))
    named = dict(zip(order, a.T, strict=True))
    named[order[1]] = rng.uniform(87.0, 90.0, n) * rng.choice([-1.0, 1.0], n)
    yaw, pitch, roll = named["Y"], named["X"], named["Z"]
    q = euler_to_quaternion(yaw, pitch, roll, order)
    truth = euler_to_matrix(yaw, pitch, roll, order)
    naive = euler_to_matrix(*quaternion_to_euler_naive(q, order), order)
    exact = euler_to_matrix(*quaternion_to_euler(q, order), order)
    err_naive = angle_between(naive, truth)
    err_exact = angle_between(exact, truth)
    assert err_exact.max() < 1e-10
    assert 3.3 < err_naive.max() <= np.sqrt(2) * (90 - 87.437) + 1e-6
    mid = np.abs(ring(order, yaw, pitch, roll)[:, 1])
    assert np.all(err_naive[mid < 87.43] < 1e-6)


# -- gimbal axes and the lock measure --------------------------------------------------------
@pytest.mark.parametrize("order", ORDERS)
def test_gimbal_axes_are_the_angular_velocity_of_each_ring(order):
    """Turning one ring at unit rate spins the object about that ring's axis (numerically:
    dR/dt R^T is the cross-product matrix of the axis)."""
    yaw, pitch, roll = random_angles(50, 180.0)
    axes = gimbal_axes(yaw, pitch, roll, order)
    h = 1e-6
    for n in range(50):
        ang = np.array([yaw[n], pitch[n], roll[n]])
        R = euler_to_matrix(*ang, order)
        for slot, letter in enumerate(order):
            d = np.zeros(3)
            d["YXZ".index(letter)] = np.degrees(h)
            W = (euler_to_matrix(*(ang + d), order) - euler_to_matrix(*(ang - d), order)) / (2 * h)
            W = W @ R.T
            omega = np.array([W[2, 1], W[0, 2], W[1, 0]])
            np.testing.assert_allclose(omega, axes[n, slot], atol=1e-7)


def test_gimbal_axes_outer_is_fixed_and_outer_inner_parallel_at_lock():
    for order in ORDERS:
        axes = gimbal_axes(40, 90, -25, order) if order[1] == "X" else None
        if axes is None:
            continue
        assert np.allclose(axes[0], np.eye(3)["XYZ".index(order[0])])
        assert abs(abs(axes[0] @ axes[2]) - 1) < 1e-15
    axes = gimbal_axes(40, 30, -25)
    np.testing.assert_allclose(np.linalg.norm(axes, axis=1), 1.0)
    assert abs(axes[0] @ axes[2]) == pytest.approx(np.sin(np.radians(30)))


@pytest.mark.parametrize("order", ORDERS)
def test_lock_measures_follow_the_middle_ring(order):
    yaw, pitch, roll = random_angles(300, 90.0, order)
    middle = ring(order, yaw, pitch, roll)[:, 1]
    np.testing.assert_allclose(lock_angle(yaw, pitch, roll, order), 90 - np.abs(middle),
                               atol=1e-9)
    sigma = np.sqrt(1 - np.abs(np.sin(np.radians(middle))))
    np.testing.assert_allclose(lock_measure(yaw, pitch, roll, order), sigma, atol=1e-7)
    J = euler_rate_matrix(yaw, pitch, roll, order)
    np.testing.assert_allclose(np.abs(np.linalg.det(J)), np.cos(np.radians(middle)), atol=1e-12)


def test_changing_the_order_moves_the_lock_but_does_not_remove_it():
    """Article 004: pitch 90 locks YXZ but not XYZ (whose middle ring is yaw)."""
    assert lock_angle(20, 90, 10, "YXZ") == pytest.approx(0, abs=1e-12)
    assert lock_angle(20, 90, 10, "XYZ") == pytest.approx(70)
    assert lock_angle(90, 20, 10, "XYZ") == pytest.approx(0, abs=1e-12)
    for order in ORDERS:
        named = {"Y": 0.0, "X": 0.0, "Z": 0.0, order[1]: 90.0}
        assert lock_measure(named["Y"], named["X"], named["Z"], order) < 1e-7
        assert rot.middle_angle_name(order) == rot.ANGLE_OF_AXIS[order[1]]


def test_angle_between_matches_scipy():
    A = Rotation.random(500, random_state=1)
    B = Rotation.random(500, random_state=2)
    want = np.degrees((A.inv() * B).magnitude())
    np.testing.assert_allclose(angle_between(A.as_matrix(), B.as_matrix()), want, atol=1e-9)
    assert angle_between(np.eye(3), axis_rotation("z", 1e-7)) == pytest.approx(1e-7, rel=1e-6)
    q = euler_to_quaternion(10, 20, 30)
    assert angle_between(q, -q) == pytest.approx(0, abs=1e-6)


# -- bad input --------------------------------------------------------------------------------
@pytest.mark.parametrize("order", ["XXZ", "XY", "XYZW", "ABC", "", "YYY"])
def test_bad_order_raises(order):
    with pytest.raises(ValueError, match="permutation of 'XYZ'"):
        euler_to_matrix(1, 2, 3, order)
    with pytest.raises(ValueError, match="permutation"):
        matrix_to_euler(np.eye(3), order)
    with pytest.raises(ValueError, match="permutation"):
        quaternion_to_euler(quaternion.one, order)


def test_lower_case_or_non_string_order_raises():
    with pytest.raises(ValueError, match="capitals"):
        euler_to_matrix(1, 2, 3, "yxz")
    with pytest.raises(ValueError, match="string"):
        gimbal_axes(1, 2, 3, 123)


@pytest.mark.parametrize("bad", [np.nan, np.inf, "ten"])
def test_bad_angles_raise(bad):
    with pytest.raises(ValueError, match="pitch"):
        euler_to_matrix(0, bad, 0)
    with pytest.raises(ValueError, match="roll"):
        euler_to_quaternion(0, 0, bad)
    with pytest.raises(ValueError, match="yaw"):
        gimbal_axes(bad, 0, 0)
    with pytest.raises(ValueError, match="angle"):
        axis_rotation("x", bad)


def test_bad_axis_raises():
    with pytest.raises(ValueError, match="axis"):
        axis_rotation("w", 10)


@pytest.mark.parametrize("q, message", [
    (quaternion.quaternion(0, 0, 0, 0), "zero quaternion"),
    ((0, 0, 0, 0), "zero quaternion"),
    (quaternion.quaternion(np.nan, 0, 0, 0), "NaN"),
    (quaternion.quaternion(2, 0, 0, 0), "length 2"),
    ((1, 0, 0), "shape"),
])
def test_bad_quaternions_raise(q, message):
    with pytest.raises(ValueError, match=message):
        quaternion_to_euler(q)
    with pytest.raises(ValueError, match=message):
        quaternion_to_euler_naive(q)


@pytest.mark.parametrize("q", [quaternion.quaternion(np.inf, 0, 0, 0),
                               quaternion.quaternion(1 + 2e-6, 0, 0, 0),
                               quaternion.quaternion(1e200, 1e200, 0, 0)])
def test_one_quaternion_is_checked_as_an_array_of_them(q):
    """A single quaternion takes a shorter path: the same refusals as its array form."""
    with pytest.raises(ValueError) as one:
        rot.as_unit_quaternion(q)
    with pytest.raises(ValueError) as many:
        rot.as_unit_quaternion(np.array([q]))
    assert str(one.value) == str(many.value)


def test_one_quaternion_normalised_as_an_array_of_them():
    qs = rng.normal(size=(500, 4))
    qs /= np.linalg.norm(qs, axis=1, keepdims=True)
    qs[::2] *= 1 + 0.9e-6                        # within the tolerance, not quite unit
    got = np.array([rot.as_unit_quaternion(quaternion.quaternion(*c)) for c in qs])
    assert np.allclose(got, rot.as_unit_quaternion(qs), rtol=0, atol=1e-15)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, rtol=0, atol=1e-15)


@pytest.mark.parametrize("R, message", [
    (np.full((3, 3), np.nan), "NaN"),
    (np.diag([1.0, 1.0, -1.0]), "reflection"),
    (2 * np.eye(3), "orthonormal"),
    (np.eye(4), "3x3"),
    ([[1, 2], [3, 4]], "3x3"),
])
def test_bad_matrices_raise(R, message):
    with pytest.raises(ValueError, match=message):
        matrix_to_euler(R)
    with pytest.raises(ValueError, match=message):
        matrix_to_quaternion(R)


def test_angle_shapes_must_broadcast():
    with pytest.raises(ValueError, match="broadcast"):
        euler_to_matrix(np.zeros(3), np.zeros(4), 0)


def test_axis_angle_matrix_matches_scipy():
    axes = rng.normal(size=(300, 3))
    angles = rng.uniform(-360, 360, 300)
    for a, t in zip(axes, angles, strict=True):
        want = Rotation.from_rotvec(np.radians(t) * a / np.linalg.norm(a)).as_matrix()
        np.testing.assert_allclose(rot.axis_angle_matrix(a, t), want, atol=1e-14)
    stack = rot.axis_angle_matrix([0, 1, 0], np.array([0.0, 90.0]))
    np.testing.assert_allclose(stack[1], axis_rotation("y", 90), atol=1e-15)
    with pytest.raises(ValueError, match="zero vector"):
        rot.axis_angle_matrix([0, 0, 0], 10)
    with pytest.raises(ValueError, match="finite"):
        rot.axis_angle_matrix([np.nan, 0, 1], 10)


def test_what_positive_angles_do_to_an_aircraft_with_its_nose_on_plus_z():
    """The lesson's words: nose +Z, top +Y, so the pilot's right is nose x top = -X; positive
    yaw turns the nose left (towards +X), positive pitch takes it down, positive roll lifts the
    left wing (+X)."""
    nose, top = np.array([0.0, 0, 1]), np.array([0.0, 1, 0])
    right = np.cross(nose, top)
    np.testing.assert_allclose(right, [-1, 0, 0])
    assert euler_to_matrix(10, 0, 0) @ nose @ right < 0  # towards the left
    assert (euler_to_matrix(0, 10, 0) @ nose)[1] < 0  # nose down
    assert (euler_to_matrix(0, 0, 10) @ -right)[1] > 0  # left wing up
