"""lessons_lib.interpolation: slerp against scipy, nlerp against a plain lerp, the properties
a learner is told about (steady speed, exact ends, short vs long way) and bad input."""

from __future__ import annotations

import numpy as np
import pytest
import quaternion
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation, Slerp

from lessons_lib.interpolation import (
    angle_between,
    angular_speed,
    as_unit_quaternion,
    euler_lerp,
    lerp_angles,
    nlerp,
    slerp,
    total_angle,
)

SETTINGS = settings(max_examples=60, deadline=None)

finite = st.floats(-1.0, 1.0, allow_nan=False)


@st.composite
def unit_quaternions(draw):
    v = np.array([draw(finite) for _ in range(4)])
    assume(np.linalg.norm(v) > 0.1)
    return quaternion.as_quat_array(v / np.linalg.norm(v))


def farr(q) -> np.ndarray:
    return quaternion.as_float_array(q)


def to_scipy(q) -> Rotation:
    w, x, y, z = farr(q)
    return Rotation.from_quat([x, y, z, w])


def same_rotation(q, p, atol=1e-9) -> bool:
    """Equal as rotations: equal quaternions up to sign."""
    a, b = farr(q), farr(p)
    return bool(np.allclose(a, b, atol=atol) or np.allclose(a, -b, atol=atol))


def about(axis, angle_deg) -> quaternion.quaternion:
    axis = np.asarray(axis, float)
    return quaternion.from_rotation_vector(np.radians(angle_deg) * axis / np.linalg.norm(axis))


T = np.linspace(0.0, 1.0, 41)


# -- slerp ---------------------------------------------------------------------------------
@SETTINGS
@given(unit_quaternions(), unit_quaternions())
def test_slerp_matches_scipy(q0, q1):
    assume(abs(np.dot(farr(q0), farr(q1))) > 1e-6)  # a half turn has two equally short ways
    ours = slerp(q0, q1, T)
    reference = Slerp([0.0, 1.0], Rotation.concatenate([to_scipy(q0), to_scipy(q1)]))(T)
    ours_m = np.array([quaternion.as_rotation_matrix(q) for q in ours])
    np.testing.assert_allclose(ours_m, reference.as_matrix(), atol=1e-8)


@SETTINGS
@given(unit_quaternions(), unit_quaternions(), st.floats(0.0, 1.0))
def test_slerp_matches_numpy_quaternion_on_the_short_way(q0, q1, t):
    assume(abs(np.dot(farr(q0), farr(q1))) > 1e-6)
    ours = slerp(q0, q1, t)
    assert same_rotation(ours, quaternion.slerp(q0, q1, 0.0, 1.0, t), atol=1e-8)


@SETTINGS
@given(unit_quaternions(), unit_quaternions())
def test_slerp_has_constant_angular_speed_and_exact_ends(q0, q1):
    angle = angle_between(q0, q1)
    assume(angle > 1.0)
    path = slerp(q0, q1, T)
    np.testing.assert_allclose(angular_speed(path, T), angle, rtol=1e-6, atol=1e-6)
    assert total_angle(path) == pytest.approx(angle, rel=1e-6)
    np.testing.assert_allclose(farr(path[0]), farr(q0), atol=1e-12)
    assert same_rotation(path[-1], q1, atol=1e-12)
    long_path = slerp(q0, q1, T, shortest=False)
    np.testing.assert_allclose(farr(long_path[-1]), farr(q1), atol=1e-12)


@SETTINGS
@given(unit_quaternions(), unit_quaternions(), st.booleans())
def test_slerp_stays_on_the_great_circle_through_both_ends(q0, q1, shortest):
    assume(np.linalg.norm(farr(q0) + farr(q1)) > 1e-3)
    assume(np.linalg.norm(farr(q0) - farr(q1)) > 1e-3)
    path = farr(slerp(q0, q1, T, shortest=shortest))
    np.testing.assert_allclose(np.linalg.norm(path, axis=1), 1.0, atol=1e-12)
    # every sample is a combination of q0 and q1: the 4D points span a plane (rank 2)
    singular = np.linalg.svd(path, compute_uv=False)
    assert singular[2] < 1e-8 * singular[0]


def test_slerp_at_known_fractions_of_a_yaw():
    q0, q1 = about([0, 1, 0], 0), about([0, 1, 0], 120)
    for t in (0.25, 0.5, 0.75):
        assert same_rotation(slerp(q0, q1, t), about([0, 1, 0], 120 * t))


# -- nlerp ---------------------------------------------------------------------------------
@SETTINGS
@given(unit_quaternions(), unit_quaternions(), st.floats(0.0, 1.0))
def test_nlerp_is_normalised_lerp_after_the_sign_choice(q0, q1, t):
    a, b = farr(q0), farr(q1)
    assume(np.linalg.norm(a + b) > 1e-3 and np.linalg.norm(a - b) > 1e-3)
    b_short = -b if np.dot(a, b) < 0 else b
    for shortest, target in ((True, b_short), (False, b)):
        plain = (1 - t) * a + t * target
        want = plain / np.linalg.norm(plain)
        np.testing.assert_allclose(farr(nlerp(q0, q1, t, shortest=shortest)), want, atol=1e-12)


@SETTINGS
@given(unit_quaternions(), unit_quaternions())
def test_nlerp_and_slerp_agree_exactly_halfway(q0, q1):
    assume(np.linalg.norm(farr(q0) + farr(q1)) > 1e-3)
    np.testing.assert_allclose(farr(nlerp(q0, q1, 0.5)), farr(slerp(q0, q1, 0.5)), atol=1e-12)


def test_nlerp_speed_is_uneven_for_wide_turns_and_nearly_even_for_small_ones():
    # nlerp walks the 4D chord at a steady pace. Seen from the centre, a point on a chord
    # of half-angle W turns sin(W) fast at the ends and 2 tan(W / 2) fast in the middle,
    # so for a rotation by A (W = A / 2) the speed ratio is 1 / cos^2(A / 4).
    t = np.linspace(0, 1, 401)
    for angle in (10, 45, 90, 170, 179):
        speed = angular_speed(nlerp(about([1, 2, 3], 0), about([1, 2, 3], angle), t), t)
        ratio = speed.max() / speed.min()
        assert ratio == pytest.approx(1 / np.cos(np.radians(angle / 4)) ** 2, rel=5e-3)
        assert np.argmax(speed) == 200                   # fastest in the middle
        assert speed[0] == pytest.approx(speed.min())    # slowest at the ends
        assert np.mean(speed) == pytest.approx(angle, rel=1e-3)
    assert 1 / np.cos(np.radians(10 / 4)) ** 2 < 1.002   # 10 degrees: nlerp is good enough
    assert 1 / np.cos(np.radians(170 / 4)) ** 2 > 1.8    # nearly a half turn: not at all


def test_nlerp_ends_exactly_on_its_inputs():
    q0, q1 = about([1, 0, 0], 20), about([0, 0, 1], 130)
    path = nlerp(q0, q1, T)
    np.testing.assert_allclose(farr(path[0]), farr(q0), atol=1e-15)
    np.testing.assert_allclose(farr(path[-1]), farr(q1), atol=1e-15)


# -- the sign of q: short way and long way ---------------------------------------------------
@pytest.mark.parametrize("blend", [slerp, nlerp])
def test_a_300_degree_turn_goes_60_the_short_way_and_300_the_long_way(blend):
    q0 = about([0, 1, 0], 0)
    q1 = about([0, 1, 0], 300)            # the same orientation as a -60 degree yaw
    assert np.dot(farr(q0), farr(q1)) < 0  # its quaternion lies on the far side
    assert angle_between(q0, q1) == pytest.approx(60)
    t = np.linspace(0, 1, 301)
    assert total_angle(blend(q0, q1, t)) == pytest.approx(60, rel=1e-6)
    assert total_angle(blend(q0, q1, t, shortest=False)) == pytest.approx(300, rel=1e-6)
    # the short way turns to negative yaw, the long way through +150 at the middle
    assert same_rotation(slerp(q0, q1, 0.5), about([0, 1, 0], -30))
    assert same_rotation(slerp(q0, q1, 0.5, shortest=False), about([0, 1, 0], 150))


def test_q_and_minus_q_are_the_same_rotation_but_not_the_same_path():
    q0, q1 = about([1, 1, 0], 10), about([0, 1, 1], 100)
    assert same_rotation(slerp(q0, q1, 1.0), slerp(q0, -q1, 1.0))
    assert total_angle(slerp(q0, -q1, T)) == pytest.approx(total_angle(slerp(q0, q1, T)))
    assert total_angle(slerp(q0, -q1, T, shortest=False)) == pytest.approx(
        360 - angle_between(q0, q1), rel=1e-6)


# -- degenerate pairs ----------------------------------------------------------------------
@pytest.mark.parametrize("blend", [slerp, nlerp])
@pytest.mark.parametrize("shortest", [True, False])
def test_identical_inputs_stay_put_without_nan(blend, shortest):
    q = about([1, 2, 3], 77)
    path = farr(blend(q, q, T, shortest=shortest))
    assert np.all(np.isfinite(path))
    np.testing.assert_allclose(path, np.tile(farr(q), (len(T), 1)), atol=1e-12)


@pytest.mark.parametrize("blend", [slerp, nlerp])
def test_antipodal_inputs_without_nan(blend):
    q = about([1, 2, 3], 77)
    short = farr(blend(q, -q, T))
    assert np.all(np.isfinite(short))
    np.testing.assert_allclose(short, np.tile(farr(q), (len(T), 1)), atol=1e-12)
    long_way = blend(q, -q, T, shortest=False)
    assert np.all(np.isfinite(farr(long_way)))
    np.testing.assert_allclose(farr(long_way[-1]), -farr(q), atol=1e-12)
    assert total_angle(long_way) == pytest.approx(360, rel=1e-9)
    np.testing.assert_allclose(angular_speed(long_way, T), 360, rtol=1e-9)
    # a full turn about the object's own up axis: halfway is q then 180 degrees about local Y
    assert same_rotation(long_way[len(T) // 2], q * about([0, 1, 0], 180))


def test_nearly_antipodal_long_way_is_finite_and_unit():
    q = about([1, 0, 0], 40)
    tiny = about([0, 0, 1], 1e-5)
    path = farr(slerp(q, -(q * tiny), T, shortest=False))
    assert np.all(np.isfinite(path))
    np.testing.assert_allclose(np.linalg.norm(path, axis=1), 1.0, atol=1e-12)


# -- t ---------------------------------------------------------------------------------------
def test_t_keeps_its_shape_and_scalars_give_one_quaternion():
    q0, q1 = about([1, 0, 0], 0), about([1, 0, 0], 90)
    assert isinstance(slerp(q0, q1, 0.3), quaternion.quaternion)
    assert isinstance(nlerp(q0, q1, np.float64(0.3)), quaternion.quaternion)
    grid = np.linspace(0, 1, 6).reshape(2, 3)
    for blend in (slerp, nlerp):
        out = blend(q0, q1, grid)
        assert out.shape == (2, 3) and out.dtype == np.quaternion
        assert same_rotation(out[1, 2], q1)
    assert slerp(q0, q1, []).shape == (0,)


@pytest.mark.parametrize("bad", [-0.1, 1.5, [0.2, 1.01], float("nan"), float("inf")])
@pytest.mark.parametrize("blend", [slerp, nlerp])
def test_t_outside_zero_one_is_refused(blend, bad):
    with pytest.raises(ValueError, match="t "):
        blend(about([1, 0, 0], 0), about([1, 0, 0], 90), bad)


def test_t_rounding_just_outside_the_range_is_clipped():
    q0, q1 = about([1, 0, 0], 0), about([1, 0, 0], 90)
    assert farr(slerp(q0, q1, 1 + 1e-12)) == pytest.approx(farr(q1))
    assert farr(slerp(q0, q1, -1e-12)) == pytest.approx(farr(q0))


# -- bad quaternions ---------------------------------------------------------------------------
@pytest.mark.parametrize("bad, message", [
    (quaternion.quaternion(0, 0, 0, 0), "zero quaternion"),
    (quaternion.quaternion(2, 0, 0, 0), "length 2"),
    (quaternion.quaternion(np.nan, 0, 0, 1), "NaN"),
    ([1, 0, 0], "single quaternion"),
    ("north", "quaternion or 4 numbers"),
])
@pytest.mark.parametrize("blend", [slerp, nlerp])
def test_bad_quaternions_are_refused_with_a_reason(blend, bad, message):
    with pytest.raises(ValueError, match=message):
        blend(bad, about([1, 0, 0], 90), 0.5)
    with pytest.raises(ValueError, match=message):
        blend(about([1, 0, 0], 90), bad, 0.5)


def test_four_numbers_are_accepted_as_a_quaternion():
    np.testing.assert_allclose(as_unit_quaternion([0, 1, 0, 0]), [0, 1, 0, 0])
    assert same_rotation(slerp([1, 0, 0, 0], [0, 0, 1, 0], 1.0), quaternion.y)


# -- measuring paths ---------------------------------------------------------------------------
@SETTINGS
@given(unit_quaternions(), unit_quaternions())
def test_angle_between_matches_scipy(q0, q1):
    want = np.degrees((to_scipy(q0).inv() * to_scipy(q1)).magnitude())
    assert angle_between(q0, q1) == pytest.approx(want, abs=1e-6)
    assert angle_between(q0, -q1) == pytest.approx(want, abs=1e-6)


def test_speed_and_total_angle_of_a_known_uneven_path():
    # yaw by 90 t^2 degrees: speed 180 t, total 90
    t = np.linspace(0, 1, 401)
    path = np.array([about([0, 1, 0], 90 * s * s) for s in t])
    speed = angular_speed(path, t)
    np.testing.assert_allclose(speed, 180 * t, atol=1e-3)      # the two ends as well
    assert total_angle(path) == pytest.approx(90, rel=1e-9)
    # also from plain N x 4 numbers
    assert total_angle(farr(path)) == pytest.approx(90, rel=1e-9)


def test_the_speed_at_the_ends_is_the_speed_there_not_half_a_step_in():
    """nlerp's speed is known in closed form: the chord point at t is at the angle
    atan2(t sin W, 1 - t + t cos W) from q0 in 4D (W: the 4D angle), so the rotation turns
    at 2 sin W / ((1 - t)^2 + 2 t (1 - t) cos W + t^2) radians per unit t. A one-sided
    difference at the ends was off by 0.2-0.5 % at 101 samples (on lesson 2's wide turn it
    read 208 for 209 degrees per unit t); the ends now agree as well as the middle does."""
    for angle in (30, 120, 170):
        w = np.radians(angle) / 2
        for n in (21, 101, 401):
            t = np.linspace(0, 1, n)
            exact = np.degrees(2 * np.sin(w) / ((1 - t) ** 2 + 2 * t * (1 - t) * np.cos(w)
                                                + t ** 2))
            speed = angular_speed(nlerp(about([1, 2, 3], 0), about([1, 2, 3], angle), t), t)
            middle = np.abs(speed[1:-1] / exact[1:-1] - 1).max()
            ends = np.abs(speed[[0, -1]] / exact[[0, -1]] - 1).max()
            assert ends < max(2 * middle, 1e-9), (angle, n, ends, middle)
    # uneven steps in t, and a path that stops dead at its end: never below 0
    t = np.array([0.0, 0.1, 0.5, 0.6, 1.0])
    path = np.array([about([0, 1, 0], 90 * (1 - (1 - s) ** 2)) for s in t])
    speed = angular_speed(path, t)
    assert speed[0] == pytest.approx(180, rel=1e-9) and speed[-1] == pytest.approx(0, abs=1e-9)


def test_path_measurements_refuse_bad_input():
    good = slerp(about([1, 0, 0], 0), about([1, 0, 0], 90), T)
    with pytest.raises(ValueError, match="at least two"):
        total_angle(good[:1])
    with pytest.raises(ValueError, match="one value per sample"):
        angular_speed(good, T[:-1])
    with pytest.raises(ValueError, match="strictly increasing"):
        angular_speed(good, T[::-1])
    with pytest.raises(ValueError, match="length 1"):
        total_angle(2 * farr(good))
    with pytest.raises(ValueError, match="shape"):
        total_angle(np.zeros((3, 3)))


# -- Euler-angle lerp ---------------------------------------------------------------------------
angles_deg = st.tuples(st.floats(-180, 180), st.floats(-90, 90), st.floats(-180, 180))
AXIS_ANGLE = {"X": 1, "Y": 0, "Z": 2}  # index into (yaw, pitch, roll)


@SETTINGS
@given(angles_deg, angles_deg, st.sampled_from(["YXZ", "XYZ", "ZXY", "ZYX", "XZY", "YZX"]),
       st.booleans())
def test_euler_lerp_matches_scipy_from_euler_on_the_blended_angles(e0, e1, order, wrap):
    blended = lerp_angles(e0, e1, T, wrap=wrap)
    ring = blended[:, [AXIS_ANGLE[axis] for axis in order]]
    want = Rotation.from_euler(order, ring, degrees=True).as_matrix()
    ours = euler_lerp(e0, e1, T, order=order, wrap=wrap)
    got = np.array([quaternion.as_rotation_matrix(q) for q in ours])
    np.testing.assert_allclose(got, want, atol=1e-9)
    # and the blended angles themselves, independently
    diff = np.subtract(e1, e0)
    if wrap:
        diff = np.where(diff >= 180, diff - 360, np.where(diff < -180, diff + 360, diff))
    np.testing.assert_allclose(blended, np.add(e0, np.outer(T, diff)), atol=1e-9)


def test_euler_lerp_on_one_axis_is_exactly_slerp():
    # article 001: adding angles works while only one angle changes
    t = np.linspace(0, 1, 11)
    ours = euler_lerp((0, 0, 0), (0, 0, 120), t)   # roll only
    reference = slerp(about([0, 0, 1], 0), about([0, 0, 1], 120), t)
    for a, b in zip(ours, reference, strict=True):
        assert same_rotation(a, b)


def test_adding_two_axis_euler_angles_is_not_composing_rotations():
    # article 001: (0, 15, 15) then (0, 30, 30) as rotations is not (0, 45, 45) in angles
    e15 = euler_lerp((0, 0, 0), (45, 0, 45), 1 / 3)
    e30 = euler_lerp((0, 0, 0), (45, 0, 45), 2 / 3)
    e45 = euler_lerp((0, 0, 0), (45, 0, 45), 1.0)
    assert not same_rotation(e30 * e15, e45, atol=1e-3)
    # while with one angle it is
    y15, y30, y45 = (euler_lerp((0, 0, 0), (45, 0, 0), s) for s in (1 / 3, 2 / 3, 1.0))
    assert same_rotation(y30 * y15, y45)


def test_wrap_around_yaw_turns_350_naively_and_10_when_wrapped():
    t = np.linspace(0, 1, 201)
    naive = euler_lerp((-175, 0, 0), (175, 0, 0), t)
    wrapped = euler_lerp((-175, 0, 0), (175, 0, 0), t, wrap=True)
    assert total_angle(naive) == pytest.approx(350, rel=1e-9)
    assert total_angle(wrapped) == pytest.approx(10, rel=1e-9)
    assert same_rotation(naive[-1], wrapped[-1])
    assert lerp_angles((-175, 0, 0), (175, 0, 0), 0.5, wrap=True)[0] == pytest.approx(-180)


def test_wrapped_euler_lerp_is_still_not_the_straight_turn():
    e0, e1 = (30, -20, 10), (150, 70, 120)
    t = np.linspace(0, 1, 401)
    q0, q1 = euler_lerp(e0, e1, 0.0), euler_lerp(e0, e1, 1.0)
    true_angle = angle_between(q0, q1)
    for wrap in (False, True):
        path = euler_lerp(e0, e1, t, wrap=wrap)
        assert same_rotation(path[0], q0) and same_rotation(path[-1], q1)
        assert total_angle(path) > true_angle + 20             # a detour of 30+ degrees
        speed = angular_speed(path, t)
        assert speed.max() / speed.min() > 1.5                  # and an uneven pace
    assert total_angle(slerp(q0, q1, t)) == pytest.approx(true_angle, rel=1e-9)


def test_euler_lerp_shapes_and_bad_input():
    assert isinstance(euler_lerp((0, 0, 0), (10, 20, 30), 0.5), quaternion.quaternion)
    assert euler_lerp((0, 0, 0), (10, 20, 30), np.zeros((2, 5))).shape == (2, 5)
    assert lerp_angles((0, 0, 0), (10, 20, 30), [0, 1]).shape == (2, 3)
    with pytest.raises(ValueError, match="three angles"):
        euler_lerp((0, 0), (10, 20, 30), 0.5)
    with pytest.raises(ValueError, match="NaN"):
        euler_lerp((0, np.nan, 0), (10, 20, 30), 0.5)
    with pytest.raises(ValueError, match="t must lie"):
        euler_lerp((0, 0, 0), (10, 20, 30), 2.0)
    with pytest.raises(ValueError, match="XYZ"):
        euler_lerp((0, 0, 0), (10, 20, 30), 0.5, order="XXY")
