"""The article's steering terms: signs, formulas, toggles, clamping, 3D slopes."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lessons_lib.spline import Spline
from lessons_lib.steering import (
    SteeringParams,
    curvature_scale,
    delta_angle,
    dynamic_heading_weight,
    look_ahead_distance,
    road_right,
    steer,
)
from lessons_lib.tracks import TRACKS, sloped_road, track

LINE = Spline([[0.0, 0.0], [200.0, 0.0]])  # along +x: right of it is -y
ONLY_CROSSTRACK = SteeringParams(use_position=False, use_heading=False)
ONLY_HEADING = SteeringParams(use_position=False, use_crosstrack=False)
ONLY_POSITION = SteeringParams(use_heading=False, use_crosstrack=False)


# -- signs -------------------------------------------------------------------------------
def test_car_right_of_a_plus_x_line_has_positive_crosstrack_and_steers_left():
    terms = steer([10.0, -1.5], 0.0, 10.0, LINE, 10.0, ONLY_CROSSTRACK)
    assert terms.crosstrack_error == pytest.approx(1.5)
    assert terms.steering == pytest.approx(-1.5 * ONLY_CROSSTRACK.crosstrack_gain)
    assert terms.steering < 0  # left
    np.testing.assert_allclose(terms.path_right, [0.0, -1.0], atol=1e-12)
    np.testing.assert_allclose(terms.perpendicular_offset, [0.0, -1.5], atol=1e-9)
    left = steer([10.0, 2.0], 0.0, 10.0, LINE, 10.0, ONLY_CROSSTRACK)
    assert left.crosstrack_error == pytest.approx(-2.0) and left.steering > 0


def test_heading_ten_degrees_left_of_the_path_gives_plus_ten_and_steers_right():
    terms = steer([10.0, 0.0], 10.0, 10.0, LINE, 10.0, ONLY_HEADING)
    assert terms.heading_delta == pytest.approx(10.0)
    assert terms.heading_weight == 1.0
    assert terms.steering == pytest.approx(10.0 / ONLY_HEADING.max_yaw_delta)
    assert terms.steering > 0
    assert steer([10.0, 0.0], -10.0, 10.0, LINE, 10.0, ONLY_HEADING).steering < 0


def test_target_to_the_right_gives_positive_position_delta():
    p = SteeringParams(adaptive_look_ahead=False, fixed_look_ahead=8.0, use_heading=False,
                       use_crosstrack=False)
    terms = steer([10.0, 2.0], 0.0, 10.0, LINE, 10.0, p)  # car 2 m left of the line
    assert terms.look_ahead == 8.0
    np.testing.assert_allclose(terms.target, [18.0, 0.0], atol=1e-9)
    assert terms.position_delta == pytest.approx(math.degrees(math.atan2(2.0, 8.0)))
    assert terms.steering > 0


def test_delta_angle_is_the_shortest_way_round():
    assert delta_angle(170.0, -170.0) == pytest.approx(20.0)
    assert delta_angle(-170.0, 170.0) == pytest.approx(-20.0)
    assert delta_angle(0.0, 180.0) == pytest.approx(180.0)
    assert delta_angle(10.0, 370.0) == pytest.approx(0.0)


# -- look-ahead and heading weight -------------------------------------------------------
def test_look_ahead_formula_at_three_curvatures():
    p = SteeringParams(look_ahead_base=4.0, look_ahead_speed_factor=0.5)
    base = 4.0 + 12.0 * 0.5
    assert look_ahead_distance(12.0, 0.0, p) == pytest.approx(base)
    assert look_ahead_distance(12.0, 1 / 6, p) == pytest.approx(base * 0.75)
    assert look_ahead_distance(12.0, 1 / 3, p) == pytest.approx(base * 0.5)
    assert look_ahead_distance(12.0, 2.0, p) == pytest.approx(base * 0.5)
    assert look_ahead_distance(0.0, 0.0, p) == pytest.approx(4.0)
    fixed = p.replace(adaptive_look_ahead=False, fixed_look_ahead=7.5)
    assert look_ahead_distance(12.0, 0.3, fixed) == 7.5
    assert curvature_scale(0.1) == pytest.approx(1.0 - 0.5 * 0.3)


def test_dynamic_heading_weight():
    assert dynamic_heading_weight(0.8, 0.0) == pytest.approx(0.8)
    assert dynamic_heading_weight(0.8, 1 / 6) == pytest.approx(0.55)
    assert dynamic_heading_weight(0.8, 1.0) == pytest.approx(0.3)


def test_steer_uses_the_curvature_at_the_progress_point():
    sp = Spline(np.c_[8 * np.cos(np.linspace(0, 2 * np.pi, 48, endpoint=False)),
                      8 * np.sin(np.linspace(0, 2 * np.pi, 48, endpoint=False))], closed=True)
    p = SteeringParams()
    pos = sp.location_at(5.0)
    terms = steer(pos, 0.0, 10.0, sp, 5.0, p)
    assert terms.curvature == pytest.approx(1 / 8, rel=1e-3)
    assert terms.look_ahead == pytest.approx(look_ahead_distance(10.0, terms.curvature, p))
    assert terms.heading_weight == pytest.approx(dynamic_heading_weight(p.heading_weight,
                                                                        terms.curvature))


# -- wrap and clamp of the look-ahead point ------------------------------------------------
def test_look_ahead_point_clamps_on_an_open_spline():
    p = SteeringParams(adaptive_look_ahead=False, fixed_look_ahead=15.0)
    terms = steer([195.0, 0.0], 0.0, 10.0, LINE, 195.0, p)
    assert terms.target_progress == pytest.approx(LINE.length)
    np.testing.assert_allclose(terms.target, [200.0, 0.0], atol=1e-9)


def test_look_ahead_point_wraps_on_a_closed_spline():
    sp = track("oval")
    p = SteeringParams(adaptive_look_ahead=False, fixed_look_ahead=15.0)
    s = sp.length - 5.0
    terms = steer(sp.location_at(s), 0.0, 10.0, sp, s, p)
    assert terms.target_progress == pytest.approx(10.0)
    np.testing.assert_allclose(terms.target, sp.location_at(10.0), atol=1e-9)


# -- no division by zero -----------------------------------------------------------------
def test_speed_zero_and_zero_errors_are_clean():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            terms = steer([10.0, 0.0], 0.0, 0.0, LINE, 10.0, SteeringParams())
    for name in ("position_delta", "heading_delta", "crosstrack_error", "yaw_command",
                 "steering"):
        assert getattr(terms, name) == pytest.approx(0.0, abs=1e-9), name
    assert terms.look_ahead == pytest.approx(SteeringParams().look_ahead_base)


def test_standing_on_the_target_at_the_end_of_an_open_road():
    with np.errstate(all="raise"):
        terms = steer([200.0, 0.0], 30.0, 0.0, LINE, 200.0, SteeringParams())
    assert terms.position_delta == pytest.approx(terms.heading_delta) == pytest.approx(30.0)
    assert math.isfinite(terms.steering)


# -- toggles ---------------------------------------------------------------------------
def test_turning_terms_off_removes_them_cleanly():
    pos, yaw = [40.0, 1.2], 12.0
    full = steer(pos, yaw, 10.0, LINE, 40.0, SteeringParams())
    only_p = steer(pos, yaw, 10.0, LINE, 40.0, ONLY_POSITION)
    only_h = steer(pos, yaw, 10.0, LINE, 40.0, ONLY_HEADING)
    none = steer(pos, yaw, 10.0, LINE, 40.0, SteeringParams(use_position=False,
                                                            use_heading=False,
                                                            use_crosstrack=False))
    assert only_p.heading_weight == 0.0
    assert only_p.yaw_command == pytest.approx(full.position_delta)
    assert only_h.yaw_command == pytest.approx(full.heading_delta)
    assert none.yaw_command == 0.0 and none.steering == 0.0
    w = full.heading_weight
    assert full.yaw_command == pytest.approx((1 - w) * full.position_delta
                                             + w * full.heading_delta)
    no_ct = steer(pos, yaw, 10.0, LINE, 40.0, SteeringParams(use_crosstrack=False))
    assert no_ct.steering == pytest.approx(full.yaw_command / SteeringParams().max_yaw_delta)
    assert full.steering_unclamped == pytest.approx(
        no_ct.steering - full.crosstrack_error * SteeringParams().crosstrack_gain)


# -- against an independent implementation in the article's own frame ------------------------
def article_unreal(position, yaw_deg, speed, spline, progress, params):
    """The article's pseudo-code, literally, in Unreal's left-handed frame (X fwd, Y right,
    Z up; yaw clockwise from above). Our frame maps to it by y -> -y, yaw -> -yaw."""
    flip = np.array([1.0, -1.0, 1.0])

    def to_ue(v):
        v = np.asarray(v, dtype=float)
        return (np.append(v, 0.0) if v.shape == (2,) else v) * flip

    def find_delta(a, b):
        d = (b - a) % 360.0
        return d - 360.0 if d > 180.0 else d

    vehicle_yaw = -yaw_deg
    loc = to_ue(position)
    curvature = spline.curvature_at(progress)
    if params.adaptive_look_ahead:
        scale = 1.0 + (0.5 - 1.0) * min(max(curvature * 3.0, 0.0), 1.0)
        look = (params.look_ahead_base + speed * params.look_ahead_speed_factor) * scale
    else:
        look = params.fixed_look_ahead
    target = to_ue(spline.location_at(progress + look))
    to_target = target - loc
    target_yaw = math.degrees(math.atan2(to_target[1], to_target[0]))
    position_delta = find_delta(vehicle_yaw, target_yaw)
    path_dir = to_ue(spline.direction_at(progress + look))
    heading_delta = find_delta(vehicle_yaw, math.degrees(math.atan2(path_dir[1], path_dir[0])))
    hw = params.heading_weight + (0.3 - params.heading_weight) * min(max(curvature * 3, 0), 1)
    yaw_command = position_delta * (1 - hw) + heading_delta * hw
    nearest = to_ue(spline.location_at(progress))
    tangent = to_ue(spline.direction_at(progress))
    offset = loc - nearest
    perpendicular = offset - tangent * np.dot(offset, tangent)
    world_up = np.array([0.0, 0.0, 1.0])
    road_normal = world_up - tangent * np.dot(world_up, tangent)
    road_normal /= np.linalg.norm(road_normal)
    path_right = np.cross(road_normal, tangent)  # the article's left-handed form
    crosstrack = float(np.dot(perpendicular, path_right))
    steering = min(max(yaw_command / params.max_yaw_delta
                       - crosstrack * params.crosstrack_gain, -1.0), 1.0)
    return position_delta, heading_delta, crosstrack, yaw_command, steering


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(list(TRACKS)), frac=st.floats(0, 1), off=st.floats(-5, 5),
       yaw_err=st.floats(-150, 150), speed=st.floats(0, 20), hw=st.floats(0, 1),
       adaptive=st.booleans())
def test_matches_the_article_written_in_unreals_left_handed_frame(name, frac, off, yaw_err,
                                                                  speed, hw, adaptive):
    sp = track(name)
    s = frac * sp.length
    t = sp.direction_at(s)
    pos = sp.location_at(s) + off * np.array([t[1], -t[0]])
    yaw = math.degrees(math.atan2(t[1], t[0])) + yaw_err
    params = SteeringParams(heading_weight=hw, adaptive_look_ahead=adaptive)
    got = steer(pos, yaw, speed, sp, s, params)
    # the article's Normalize(target - car) is undefined when the car stands on the target
    # (the end of an open road); ours then aims along the path, tested separately above
    assume(np.linalg.norm(got.target - pos) > 1e-6)
    want = article_unreal(pos, yaw, speed, sp, s, params)
    assert got.crosstrack_error == pytest.approx(want[2], abs=1e-7)
    assert got.steering == pytest.approx(want[4], abs=1e-7)
    for ours, theirs in zip((got.position_delta, got.heading_delta, got.yaw_command),
                            want[:2] + want[3:4], strict=True):
        # angles: equal modulo the +-180 seam
        assert abs(delta_angle(theirs, ours)) < 1e-6


@settings(max_examples=200, deadline=None)
@given(x=st.floats(-80, 80), y=st.floats(-50, 50), yaw=st.floats(-720, 720),
       speed=st.floats(0, 40), frac=st.floats(0, 1), hw=st.floats(0, 1),
       max_yaw=st.floats(0.5, 180), gain=st.floats(0, 5), flags=st.tuples(*[st.booleans()] * 4))
def test_steering_is_always_in_minus_one_to_one(x, y, yaw, speed, frac, hw, max_yaw, gain,
                                                flags):
    sp = track("oval")
    params = SteeringParams(heading_weight=hw, max_yaw_delta=max_yaw, crosstrack_gain=gain,
                            adaptive_look_ahead=flags[0], use_position=flags[1],
                            use_heading=flags[2], use_crosstrack=flags[3])
    terms = steer([x, y], yaw, speed, sp, frac * sp.length, params)
    assert -1.0 <= terms.steering <= 1.0
    assert -180.0 < terms.position_delta <= 180.0
    assert -180.0 < terms.heading_delta <= 180.0


# -- slopes ------------------------------------------------------------------------------
def test_crosstrack_on_a_slope_uses_up_projected_off_the_tangent():
    grade = 0.5
    ramp = Spline([[0.0, 0.0, 0.0], [100.0, 0.0, 100.0 * grade]])
    s = 40.0
    centre = ramp.location_at(s)
    tangent = ramp.direction_at(s)
    right = road_right(tangent)
    np.testing.assert_allclose(right, [0.0, -1.0, 0.0], atol=1e-12)
    # 1 m to the right on the road surface
    terms = steer(centre + [0.0, -1.0, 0.0], 0.0, 10.0, ramp, s, ONLY_CROSSTRACK)
    assert terms.crosstrack_error == pytest.approx(1.0)
    # a point straight above the road (along its normal) is not off to the side at all
    normal = np.cross(right, tangent)
    terms = steer(centre + 0.7 * normal, 0.0, 10.0, ramp, s, ONLY_CROSSTRACK)
    assert terms.crosstrack_error == pytest.approx(0.0, abs=1e-12)


def test_road_right_is_perpendicular_and_level_on_a_climbing_bend():
    sp = sloped_road(grade=0.4, bank_turn=60.0)
    for s in np.linspace(0, sp.length, 9):
        t = sp.direction_at(s)
        r = road_right(t)
        assert np.dot(r, t) == pytest.approx(0.0, abs=1e-12)
        assert np.linalg.norm(r) == pytest.approx(1.0)
        assert r[2] == pytest.approx(0.0, abs=1e-12)  # up is projected, right stays level
    with pytest.raises(ValueError, match="vertical"):
        road_right([0.0, 0.0, 1.0])


# -- bad input ---------------------------------------------------------------------------
@pytest.mark.parametrize("changes, message", [
    ({"heading_weight": 1.5}, "heading_weight"),
    ({"max_yaw_delta": 0.0}, "max_yaw_delta"),
    ({"crosstrack_gain": -1.0}, "crosstrack_gain"),
    ({"look_ahead_base": float("nan")}, "finite"),
    ({"fixed_look_ahead": -2.0}, "fixed_look_ahead"),
    ({"look_ahead_speed_factor": "fast"}, "number"),
    ({"wheelbase": 2.0}, "no field"),
])
def test_bad_params_raise(changes, message):
    with pytest.raises(ValueError, match=message):
        SteeringParams().replace(**changes)


def test_bad_steer_inputs_raise():
    with pytest.raises(ValueError, match="2 coordinates"):
        steer([1.0, 2.0, 3.0], 0.0, 1.0, LINE, 0.0)
    with pytest.raises(ValueError, match="speed"):
        steer([1.0, 2.0], 0.0, -1.0, LINE, 0.0)
    with pytest.raises(ValueError, match="yaw_deg"):
        steer([1.0, 2.0], float("nan"), 1.0, LINE, 0.0)
    with pytest.raises(ValueError, match="Spline"):
        steer([1.0, 2.0], 0.0, 1.0, [[0, 0], [1, 1]], 0.0)
    with pytest.raises(ValueError, match="speed and curvature"):
        look_ahead_distance(-1.0, 0.0, SteeringParams())


@pytest.mark.parametrize("grade", [0.1, 0.3, 0.5, 1.0])
def test_world_up_without_projection_shrinks_the_error_by_cos_slope(grade):
    """The lesson's slope table: cross(T, world up) is only cos(slope) long."""
    ramp = Spline([[0.0, 0.0, 0.0], [100.0, 0.0, 100.0 * grade]])
    tangent = ramp.direction_at(50.0)
    offset = np.array([0.0, -1.0, 0.0])  # 1 m to the right
    naive = float(offset @ np.cross(tangent, [0.0, 0.0, 1.0]))
    projected = steer(ramp.location_at(50.0) + offset, 0.0, 10.0, ramp, 50.0).crosstrack_error
    assert projected == pytest.approx(1.0)
    assert naive == pytest.approx(math.cos(math.atan(grade)))


# -- the public pieces that steer() and the simulation share -------------------------------
def test_steering_terms_is_built_from_the_public_formulas():
    from lessons_lib.steering import (
        blend_weight,
        crosstrack,
        steering_command,
        steering_terms,
        yaw_command,
    )

    sp = track("hairpin")
    params = SteeringParams()
    s = 71.0
    d = sp.direction_at(s)
    p = sp.location_at(s) + 0.8 * np.array([d[1], -d[0]])
    out = steering_terms(float(p[0]), float(p[1]), 0.0, 95.0, 11.0, sp, s, params)
    assert out.curvature == pytest.approx(sp.curvature_at(s))
    assert out.look_ahead == pytest.approx(look_ahead_distance(11.0, out.curvature, params))
    assert out.target_progress == pytest.approx(float(sp.wrap(s + out.look_ahead)))
    assert out.heading_weight == pytest.approx(blend_weight(params, out.curvature))
    assert out.yaw_command == pytest.approx(
        yaw_command(out.position_delta, out.heading_delta, out.heading_weight, params))
    ct = crosstrack((p[0], p[1], 0.0), out.progress_point, out.progress_tangent)
    assert out.crosstrack_error == pytest.approx(ct.error) == pytest.approx(0.8, abs=1e-6)
    np.testing.assert_allclose(out.path_right[:2], road_right(out.progress_tangent[:2]))
    assert (out.steering_unclamped, out.steering) == pytest.approx(
        steering_command(out.yaw_command, out.crosstrack_error, params))
    # steer() gives the same numbers, by field name
    terms = steer(p, 95.0, 11.0, sp, s, params)
    for name, value in out._asdict().items():
        np.testing.assert_allclose(getattr(terms, name), np.asarray(value)[:2]
                                   if np.ndim(value) else value, atol=1e-12)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from([*TRACKS, "ramp"]), frac=st.floats(0.0, 1.0),
       off=st.floats(-6.0, 6.0), yaw=st.floats(-720.0, 720.0), speed=st.floats(0.0, 30.0),
       adaptive=st.booleans(), fixed=st.floats(0.0, 40.0), hw=st.floats(0.0, 1.0),
       terms=st.tuples(st.booleans(), st.booleans(), st.booleans()))
def test_the_simulations_inlined_copy_equals_steering_terms(name, frac, off, yaw, speed,
                                                             adaptive, fixed, hw, terms):
    """The simulation's loop uses an inlined copy (for speed, see its docstring): the same
    numbers as the public functions, field by field."""
    from lessons_lib.steering import _steering_terms_inlined, steering_terms

    sp = sloped_road(0.5, 40.0) if name == "ramp" else track(name)
    s = float(sp.wrap(frac * sp.length))
    f = sp.frame_at(s)
    t = f.tangent
    n = math.hypot(t[0], t[1])
    p = (f.x + off * t[1] / n, f.y - off * t[0] / n, f.z)
    params = SteeringParams(adaptive_look_ahead=adaptive, fixed_look_ahead=fixed,
                            heading_weight=hw, use_position=terms[0], use_heading=terms[1],
                            use_crosstrack=terms[2])
    a = steering_terms(*p, yaw, speed, sp, s, params)
    b = _steering_terms_inlined(*p, yaw, speed, sp, s, params)
    for name_, x, y in zip(a._fields, a, b, strict=True):
        np.testing.assert_allclose(np.asarray(x, float), np.asarray(y, float), rtol=1e-12,
                                   atol=1e-12, err_msg=name_)
