"""The bicycle model, the closed-loop simulation, run metrics and the classic controllers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lessons_lib.controllers import PurePursuit, Stanley
from lessons_lib.spline import Spline
from lessons_lib.steering import TERM_FIELDS, VECTOR_FIELDS, SteeringParams
from lessons_lib.tracks import TRACKS, sloped_road, track
from lessons_lib.vehicle import (
    Trajectory,
    Vehicle,
    run_metrics,
    simulate,
    simulate_controller,
    start_pose,
)

STRAIGHT = Spline([[0.0, 0.0], [500.0, 0.0]])


def circle_track(radius):
    th = np.linspace(0, 2 * np.pi, 90, endpoint=False)
    return Spline(np.c_[radius * np.cos(th), radius * np.sin(th)], closed=True)


def test_trajectory_has_every_steering_field_per_step():
    sp = track("oval")
    tr = simulate(sp, SteeringParams(), 10.0, 5.0)
    n = len(tr)
    assert n == 301
    np.testing.assert_allclose(tr.t[1] - tr.t[0], 1 / 60)
    for name in ("t", "x", "y", "yaw", "progress", "steering_input", "wheel_angle"):
        assert getattr(tr, name).shape == (n,)
    for name in TERM_FIELDS:
        arr = getattr(tr, name)
        assert arr.shape == ((n, 2) if name in VECTOR_FIELDS else (n,)), name
    assert np.all(np.abs(tr.steering) <= 1.0)
    with pytest.raises(AttributeError):
        _ = tr.no_such_field


def test_start_pose_follows_the_article_signs():
    x, y, yaw = start_pose(STRAIGHT, 10.0, start_offset=2.0, start_heading_error=10.0)
    assert (x, y) == pytest.approx((10.0, -2.0))  # 2 m to the right of a +x road
    assert yaw == pytest.approx(10.0)
    tr = simulate(STRAIGHT, SteeringParams(), 10.0, 0.1, start_distance=10.0, start_offset=2.0,
                  start_heading_error=10.0)
    assert tr.crosstrack_error[0] == pytest.approx(2.0)
    assert tr.heading_delta[0] == pytest.approx(10.0)


def test_kinematic_bicycle_drives_the_textbook_circle():
    """A constant wheel angle delta gives a circle of radius wheelbase / tan(delta)."""
    car = Vehicle(steer_lag=0.0, steer_rate=1e6)
    command = -0.4  # left
    tr = simulate_controller(STRAIGHT, lambda *a: command, 8.0, 10.0, dt=1 / 240,
                             start_distance=50.0, vehicle=car)
    delta = math.radians(0.4 * car.max_wheel_angle)
    radius = car.wheelbase / math.tan(delta)
    centre = np.array([50.0, radius])  # left of a car heading +x at (50, 0)
    r = np.hypot(tr.x - centre[0], tr.y - centre[1])
    np.testing.assert_allclose(r, radius, rtol=1e-4)
    np.testing.assert_allclose(tr.wheel_angle, math.degrees(delta))
    yaw_rate = np.diff(tr.yaw) / np.diff(tr.t)
    np.testing.assert_allclose(yaw_rate, math.degrees(8.0 / radius), rtol=1e-9)


@pytest.mark.parametrize("radius", [25.0, 40.0])
def test_steady_wheel_angle_on_a_circle_approaches_atan_wheelbase_over_radius(radius):
    tr = simulate(circle_track(radius), SteeringParams(), 8.0, 30.0)
    steady = tr.wheel_angle[tr.t > 20.0]
    want = math.degrees(math.atan(Vehicle().wheelbase / radius))
    assert np.ptp(steady) < 0.05 * want  # it is steady
    assert steady.mean() == pytest.approx(want, rel=0.03)  # counter-clockwise: left, positive


def test_crosstrack_term_brings_a_car_back_much_faster():
    with_ct = simulate(STRAIGHT, SteeringParams(), 10.0, 30.0, start_offset=2.0)
    without = simulate(STRAIGHT, SteeringParams(use_crosstrack=False), 10.0, 30.0,
                       start_offset=2.0)
    fast, slow = with_ct.metrics()["settle_time"], without.metrics()["settle_time"]
    assert fast < 5.0
    assert slow > 2.5 * fast
    # at 3 s one is (nearly) back, the other still well off the line
    k = int(3.0 * 60)
    assert abs(with_ct.crosstrack_error[k]) < 0.4
    assert abs(without.crosstrack_error[k]) > 0.8
    assert abs(with_ct.crosstrack_error[-1]) < 0.02


def test_too_short_a_look_ahead_oscillates_because_the_wheel_is_slow():
    hairpin = track("hairpin")
    short = SteeringParams(adaptive_look_ahead=False, fixed_look_ahead=1.5, use_heading=False,
                           use_crosstrack=False)
    adaptive = SteeringParams(use_heading=False, use_crosstrack=False)
    twitchy = simulate(hairpin, short, 12.0, 30.0).metrics()["steering_movement"]
    calm = simulate(hairpin, adaptive, 12.0, 30.0).metrics()["steering_movement"]
    assert twitchy > 3 * calm
    # with an instant steering wheel the same short look-ahead is far calmer
    instant = Vehicle(steer_lag=0.0, steer_rate=1e6)
    settled = simulate(hairpin, short, 12.0, 30.0, vehicle=instant).metrics()
    assert settled["max_crosstrack"] < 1.0


def test_steering_input_respects_the_rate_limit():
    car = Vehicle(steer_rate=1.5)
    tr = simulate(track("hairpin"), SteeringParams(adaptive_look_ahead=False,
                                                   fixed_look_ahead=1.0), 14.0, 10.0,
                  vehicle=car)
    assert np.max(np.abs(np.diff(tr.steering_input))) <= 1.5 / 60 + 1e-12


def test_fixed_long_look_ahead_cuts_the_hairpin_inside():
    long = SteeringParams(adaptive_look_ahead=False, fixed_look_ahead=25.0, use_heading=False,
                          use_crosstrack=False)
    tr = simulate(track("hairpin"), long, 10.0, 20.0)
    # the hairpins turn left, so cutting the corner means going left: negative crosstrack
    assert tr.crosstrack_error.min() < -4.0
    adaptive = simulate(track("hairpin"), SteeringParams(), 10.0, 20.0)
    assert adaptive.metrics()["max_crosstrack"] < 1.0


@pytest.mark.parametrize("name", list(TRACKS))
@pytest.mark.parametrize("speed", [5.0, 10.0, 15.0])
def test_default_car_drives_every_track(name, speed):
    tr = simulate(track(name), SteeringParams(), speed, 40.0, start_offset=1.0)
    m = tr.metrics()
    assert m["rms_crosstrack"] < 0.45
    assert np.max(np.abs(tr.crosstrack_error[tr.t > 10.0]), initial=0.0) < 1.0


def test_open_road_stops_at_its_end():
    sp = track("open_road")
    tr = simulate(sp, SteeringParams(), 12.0, 60.0)
    assert tr.ended
    nose = tr.vehicle.nose
    # it stops when the nose reaches the end: no part of the car beyond the road's end
    assert sp.length - nose - 0.5 < tr.progress[-1] <= sp.length - nose + 0.5
    end, tangent = sp.location_at(sp.length), sp.direction_at(sp.length)
    for x, y, yaw in zip(tr.x, tr.y, tr.yaw, strict=True):
        outline = tr.vehicle.outline(x, y, yaw)
        assert np.max((outline - end) @ tangent) <= 12.0 / 60 + 1e-9
    assert tr.t[-1] < 60.0
    assert tr.t[-1] == pytest.approx((sp.length - nose) / 12.0, rel=0.05)
    # no spike at the end: the last second steers as calmly as the one before
    last = tr.steering[-60:]
    assert np.max(np.abs(np.diff(last))) < 0.01
    assert np.max(np.abs(tr.position_delta[-60:])) < 5.0


def test_speed_zero_stands_still():
    tr = simulate(track("oval"), SteeringParams(), 0.0, 2.0, start_offset=1.0)
    assert np.ptp(tr.x) == 0.0 and np.ptp(tr.y) == 0.0
    assert np.all(np.isfinite(tr.steering))


def test_run_metrics_on_a_hand_made_trajectory():
    t = np.arange(6) * 0.5
    cte = np.array([1.0, -0.5, 0.3, 0.1, -0.1, 0.05])
    u = np.array([0.0, 0.2, -0.2, 0.0, 0.0, 0.1])
    tr = Trajectory(t=t, x=t, y=t, yaw=t, progress=t, steering_input=u, wheel_angle=u,
                    terms={"crosstrack_error": cte})
    m = run_metrics(tr, tolerance=0.2)
    assert m["rms_crosstrack"] == pytest.approx(math.sqrt(np.mean(cte ** 2)))
    assert m["max_crosstrack"] == 1.0
    assert m["steering_movement"] == pytest.approx(0.2 + 0.4 + 0.2 + 0.0 + 0.1)
    assert m["settle_time"] == 1.5  # after the 0.3 at t = 1.0 it stays under 0.2
    cte[-1] = 0.5
    assert math.isnan(run_metrics(tr)["settle_time"])


@pytest.mark.parametrize("controller", [PurePursuit(), Stanley()], ids=["pure_pursuit", "stanley"])
def test_classic_controllers_follow_the_track(controller):
    tr = simulate_controller(track("oval"), controller, 10.0, 30.0, start_offset=2.0)
    m = tr.metrics()
    assert m["settle_time"] < 10.0
    assert np.max(np.abs(tr.crosstrack_error[tr.t > 10])) < 0.3
    # a car right of the line steers left (negative) first
    assert tr.steering[0] < 0


def test_bad_simulation_input_raises():
    sp = track("oval")
    with pytest.raises(ValueError, match="speed"):
        simulate(sp, SteeringParams(), -1.0, 10.0)
    with pytest.raises(ValueError, match="too coarse"):
        simulate(sp, SteeringParams(), 10.0, 10.0, dt=0.5)
    with pytest.raises(ValueError, match="duration"):
        simulate(sp, SteeringParams(), 10.0, 0.0)
    with pytest.raises(ValueError, match="start_offset"):
        simulate(sp, SteeringParams(), 10.0, 1.0, start_offset=float("nan"))
    with pytest.raises(ValueError, match="params"):
        simulate(sp, {"heading_weight": 0.5}, 10.0, 1.0)
    with pytest.raises(ValueError, match="wheelbase"):
        Vehicle(wheelbase=0.0)
    with pytest.raises(ValueError, match="controller returned"):
        simulate_controller(sp, lambda *a: float("nan"), 10.0, 1.0)
    with pytest.raises(ValueError, match="look_ahead_base"):
        PurePursuit(look_ahead_base=0.0)


def test_compare_runs_three_controllers_on_each_track():
    from lessons_lib.controllers import compare

    rows = compare(["oval", "s_bend"], speed=10.0, duration=15.0, start_offset=2.0)
    assert [(r["track"], r["controller"]) for r in rows] == [
        (t, c) for t in ("oval", "s_bend")
        for c in ("article (3 terms)", "pure pursuit", "Stanley")]
    ref = simulate(track("oval"), SteeringParams(), 10.0, 15.0, start_offset=2.0).metrics()
    assert rows[0]["rms_crosstrack"] == pytest.approx(ref["rms_crosstrack"])
    for r in rows:
        assert r["max_crosstrack"] == pytest.approx(2.0, abs=0.05)  # the start offset
        assert r["rms_crosstrack"] < 0.8


def test_the_lessons_claims_about_the_classic_controllers():
    """The notebook's comparison table is read in words; those words must stay true."""
    from lessons_lib.controllers import compare

    names = ["oval", "s_bend", "hairpin", "open_road"]
    rows = compare(names, speed=10.0, start_offset=2.0)
    by = {(r["track"], r["controller"]): r for r in rows}
    for name in names:
        art, pp, st = (by[(name, c)] for c in ("article (3 terms)", "pure pursuit", "Stanley"))
        assert art["rms_crosstrack"] < min(pp["rms_crosstrack"], st["rms_crosstrack"])
        assert pp["rms_crosstrack"] > st["rms_crosstrack"]
        assert pp["steering_movement"] < min(art["steering_movement"], st["steering_movement"])
    for name in ("s_bend", "open_road"):
        settle = {c: by[(name, c)]["settle_time"] for c in
                  ("article (3 terms)", "pure pursuit", "Stanley")}
        assert settle["Stanley"] == min(settle.values())
    for c in ("article (3 terms)", "pure pursuit", "Stanley"):
        s = by[("hairpin", c)]["settle_time"]
        assert math.isnan(s) or s > 25.0


def test_a_car_drives_a_sloped_3d_road_on_its_surface():
    sp = sloped_road(grade=0.5, bank_turn=40.0)
    tr = simulate(sp, SteeringParams(), 10.0, 30.0, start_offset=1.5)
    assert tr.ended and tr.crosstrack_error[0] == pytest.approx(1.5)
    assert tr.metrics()["settle_time"] < 4.0
    # the un-projected right vector cross(T, world up) is cos(slope) long: it reads the same
    # offset short by that factor (the lesson's slope panel)
    t, off = tr.progress_tangent, tr.perpendicular_offset
    naive = off[:, 0] * t[:, 1] - off[:, 1] * t[:, 0]
    k = 120
    slope = math.atan2(sp.direction_at(tr.progress[k])[2], np.hypot(*t[k]))
    assert naive[k] == pytest.approx(math.cos(slope) * tr.crosstrack_error[k], rel=1e-6)
