"""Fly it (lessons_lib.flight): body-frame turns and the rings that follow, against scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from lessons_lib import rotations as rot
from lessons_lib.flight import BODY_AXES, body_turn, ring_rates


def rings(order, angles):
    named = dict(zip(("yaw", "pitch", "roll"), angles, strict=True))
    return np.array([named[n] for n in rot.ring_angle_names(order)])


def scipy_turned(order, angles, axis, angle):
    """The turned orientation, by scipy alone: intrinsic rings, then the body turn."""
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    return (Rotation.from_euler(order, rings(order, angles), degrees=True)
            * Rotation.from_rotvec(a * math.radians(angle)))


def scipy_nearest(order, angles, R):
    """scipy's two ring branches of R, each angle moved by whole turns towards the old
    angles; the one that moves least."""
    o, m, i = R.as_euler(order, degrees=True)
    old = rings(order, angles)
    best = None
    for cand in (np.array([o, m, i]), np.array([o + 180, 180 - m, i + 180])):
        moved = old + (cand - old + 180) % 360 - 180
        cost = float(np.sum((moved - old) ** 2))
        if best is None or cost < best[0]:
            best = (cost, moved)
    return best


def random_case(seed):
    rng = np.random.default_rng([31, seed])
    order = str(rng.choice(rot.ORDERS))
    angles = tuple(float(v) for v in rng.uniform(-180, 180, 3))
    axis = (str(rng.choice(list(BODY_AXES))) if rng.random() < 0.5
            else rng.normal(size=3))
    return order, angles, axis, float(rng.uniform(-8, 8))


def _vec(axis):
    return BODY_AXES[axis] if isinstance(axis, str) else axis


@pytest.mark.parametrize("case", range(400))
def test_turned_orientation_and_nearest_branch_agree_with_scipy(case):
    order, angles, axis, angle = random_case(case)
    turn = body_turn(*angles, axis, angle, order=order)
    want = scipy_turned(order, angles, _vec(axis), angle)
    got = rot.euler_to_matrix(*turn.angles, order=order)
    np.testing.assert_allclose(got, want.as_matrix(), atol=1e-9)
    if not turn.locked:
        cost, nearest = scipy_nearest(order, angles, want)
        np.testing.assert_allclose(rings(order, turn.angles), nearest, atol=1e-6)


@pytest.mark.parametrize("case", range(200))
def test_ring_rates_are_scipys_central_differences(case):
    order, angles, axis, _ = random_case(case)
    middle = rings(order, angles)[1]
    if abs(math.cos(math.radians(middle))) < 0.05:          # too near the lock to difference
        return
    h = 1e-4
    plus = scipy_nearest(order, angles, scipy_turned(order, angles, _vec(axis), h))[1]
    minus = scipy_nearest(order, angles, scipy_turned(order, angles, _vec(axis), -h))[1]
    rates = ring_rates(*angles, axis, order=order)
    np.testing.assert_allclose(rates, (plus - minus) / (2 * h), rtol=1e-4, atol=1e-5)


def test_near_the_lock_the_outer_and_inner_rates_blow_up_as_one_over_cos_middle():
    # about the fin at yaw 30, roll 20 (order YXZ) the yaw rate is cos(roll) / cos(pitch):
    # 0.94 / cos(pitch) degrees of ring per degree of turn, 538 at pitch 89.9
    for p in (0.0, 60.0, 80.0, 89.0, 89.9, 89.99):
        r = ring_rates(30, p, 20, "top")
        c = math.cos(math.radians(p))
        assert abs(r[0]) == pytest.approx(math.cos(math.radians(20)) / c, rel=1e-6)
        assert abs(r[2]) >= abs(r[0]) * math.sin(math.radians(p)) - 1e-9
        assert abs(r[1]) <= 1
    # a 2° turn about the fin one degree from the lock: yaw and roll swing by tens of degrees
    turn = body_turn(30, 89, 20, "top", 2.0)
    assert turn.angles[0] - 30 > 40 and turn.angles[2] - 20 > 40 and not turn.locked


def test_at_the_lock_the_lost_direction_has_no_rate_and_the_split_is_even():
    r = ring_rates(0, 90, 0, "top")                     # the fin: the lost direction
    assert math.isinf(r[0]) and math.isinf(r[2]) and math.isfinite(r[1])
    assert ring_rates(0, 90, 0, "wing") == pytest.approx((0, 1, 0))   # the middle ring
    for order in rot.ORDERS:
        start = {"yaw": 10.0, "pitch": 20.0, "roll": 30.0}
        start[rot.ring_angle_names(order)[1]] = -90.0 if order[0] == "X" else 90.0
        start = (start["yaw"], start["pitch"], start["roll"])
        axes = rot.gimbal_axes(*start, order=order)
        shared = axes[0]                                   # the outer (= inner) axis line
        body = rot.euler_to_matrix(*start, order=order).T @ shared
        turn = body_turn(*start, body, 3.0, order=order)
        assert turn.locked
        np.testing.assert_allclose(rot.euler_to_matrix(*turn.angles, order=order),
                                   scipy_turned(order, start, body, 3.0).as_matrix(),
                                   atol=1e-9)
        d = rings(order, turn.angles) - rings(order, start)
        sense = np.sign(axes[0] @ axes[2])
        assert d[1] == pytest.approx(0, abs=1e-9)
        assert d[0] == pytest.approx(sense * d[2], abs=1e-9)            # shared equally
        assert abs(d[0]) + abs(d[2]) == pytest.approx(3.0, abs=1e-9)   # and no more
        rates = ring_rates(*start, body, order=order)
        np.testing.assert_allclose(rates, d / 3.0, atol=1e-9)        # the smallest solution


def test_a_slider_beyond_180_stays_near_where_it_was():
    turn = body_turn(200.0, 10.0, -250.0, "nose", 1.0)
    assert abs(turn.angles[0] - 200.0) < 2 and abs(turn.angles[2] + 249.0) < 1e-6


@pytest.mark.parametrize("bad, match", [
    (dict(axis="tail"), "unknown body axis"), (dict(axis=(0, 0, 0)), "zero vector"),
    (dict(axis=(1, float("nan"), 0)), "axis"), (dict(angle=float("nan")), "angle"),
    (dict(angle=720.0), "at most 360"), (dict(yaw=float("inf")), "yaw"),
    (dict(pitch=np.zeros(3)), "one number"), (dict(order="XXY"), "XYZ")])
def test_bad_input_is_refused_with_a_clear_message(bad, match):
    args = dict(yaw=10.0, pitch=20.0, roll=30.0, axis="nose", angle=1.0, order="YXZ") | bad
    with pytest.raises(ValueError, match=match):
        body_turn(args["yaw"], args["pitch"], args["roll"], args["axis"], args["angle"],
                  order=args["order"])
