"""Issue 13's API reproducers, one test each: bad input gets a clear ValueError from
lessons_lib, degenerate-but-meaningful input gets the right answer, and cost stays bounded.

The shared checks live in :mod:`lessons_lib.validate`; the fuzz run over every public
function is ``tests/test_fuzz.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import quaternion

from lessons_lib import interpolation, rotations
from lessons_lib import validate as check


def refused(fn, *args, match: str | None = None, **kwargs) -> str:
    """Call fn, expect a ValueError raised by lessons_lib itself; return its message."""
    with pytest.raises(ValueError, match=match) as info:
        fn(*args, **kwargs)
    tb = info.tb
    while tb.tb_next is not None:
        tb = tb.tb_next
    assert "lessons_lib" in tb.tb_frame.f_code.co_filename, (
        f"the ValueError came from {tb.tb_frame.f_code.co_filename}, not from lessons_lib")
    return str(info.value)


# -- the shared checks ---------------------------------------------------------------------
@pytest.mark.parametrize("bad", [None, "5", True, np.bool_(False), 1 + 2j, [1.0],
                                 math.nan, math.inf, -math.inf])
def test_real_refuses_what_is_not_a_finite_number(bad):
    message = refused(check.real, bad, "speed", unit="m/s")
    assert message.startswith("speed must be")


def test_real_takes_numpy_and_python_numbers_and_checks_the_range():
    assert check.real(np.float32(2.5), "x") == 2.5
    assert check.real(np.int64(3), "x") == 3.0
    assert check.real(np.array(4.0), "x") == 4.0
    refused(check.real, 0.0, "radius", lo=0.0, lo_open=True, match="radius must be > 0")
    refused(check.real, 2.0, "weight", hi=1.0, match="weight must be <= 1")
    assert check.probability(1.0, "w") == 1.0
    refused(check.probability, 1.5, "w", match="<= 1")
    refused(check.length, 1e9, "step", cap=1e6, match="cap")


def test_flag_is_strict():
    assert check.flag(np.bool_(True), "closed") is True
    for bad in ("False", 0, 1, None, "yes"):
        refused(check.flag, bad, "closed", match="closed must be True or False")


def test_integer_and_arrays():
    assert check.integer(np.int32(3), "n", lo=0) == 3
    assert check.integer(3.0, "n", whole_floats=True) == 3
    refused(check.integer, 1.5, "x", whole_floats=True, match="whole number")
    refused(check.integer, True, "x", match="whole number")
    refused(check.integer, -1, "n", lo=0, match=">= 0")
    # the default upper bound: a billion, unless the caller says otherwise
    assert check.integer(check.MAX_INTEGER, "n") == 10**9
    refused(check.integer, 10**9 + 1, "n", match="<= 1000000000")
    refused(check.integer, 10**400, "n", lo=0, match="401-digit")
    assert check.integer(10**400, "n", hi=None) == 10**400
    assert check.point((1, 2), "p").tolist() == [1.0, 2.0]
    refused(check.point, (1, 2, 3), "p", match=r"shape \(2,\)")
    refused(check.point, ("a", "b"), "p", match="p must be an array")
    refused(check.array, [[0, 0], [1]], "points", (None, 2), match="ragged")
    refused(check.array, [[0, 0]], "points", (None, 2), min_rows=2, match="at least 2")
    refused(check.array, [[0, math.nan]], "points", (None, 2), match="NaN")


def test_geometry_tolerance_follows_its_own_size_not_the_origin():
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    assert check.extent(square) == pytest.approx(math.sqrt(2))
    assert check.extent(square + 5e4) == pytest.approx(math.sqrt(2))
    assert check.extent(square * 1e200) == pytest.approx(math.sqrt(2) * 1e200)
    assert check.tolerance(square) == pytest.approx(1e-9 * math.sqrt(2))
    # far from the origin the floats themselves are coarser: never finer than that
    assert check.tolerance(square + 1e12) >= np.spacing(1e12)


# -- rotations (item 10) -------------------------------------------------------------------
def test_huge_angles_are_reduced_mod_360_in_degrees_before_radians():
    # 1e300 is an exact integer: reduce it with Python's integers, independently
    exact = int(1e300) % 360
    np.testing.assert_allclose(rotations.euler_to_matrix(1e300, 0, 0),
                               rotations.axis_rotation("y", exact), atol=1e-15)
    np.testing.assert_allclose(rotations.axis_rotation("x", -1e300),
                               rotations.axis_rotation("x", -(int(1e300) % 360)), atol=1e-15)
    np.testing.assert_allclose(rotations.axis_angle_matrix((0, 0, 1), 1e300),
                               rotations.axis_rotation("z", exact), atol=1e-15)
    q = rotations.euler_to_quaternion(0, 7.2e17, 0)  # 7.2e17 = 2e15 full turns: identity
    assert rotations.angle_between(q, quaternion.one) < 1e-12


def test_axis_of_any_magnitude_keeps_its_direction():
    want = rotations.axis_angle_matrix((1, 1, 1), 90)
    np.testing.assert_allclose(rotations.axis_angle_matrix((1e200,) * 3, 90), want, atol=1e-15)
    np.testing.assert_allclose(rotations.axis_angle_matrix((1e-200,) * 3, 90), want, atol=1e-15)
    refused(rotations.axis_angle_matrix, ("a", 0, 1), 10, match="axis")
    refused(rotations.axis_angle_matrix, None, 10, match="axis")


@pytest.mark.parametrize("bad", [True, "10", None, [1, "a"], object()])
def test_angles_refuse_bools_text_and_objects(bad):
    refused(rotations.euler_to_matrix, bad, 0, 0, match="yaw")
    refused(rotations.axis_rotation, "x", bad, match="angle_deg")


def test_one_quaternion_check_and_one_angle_between():
    assert interpolation.as_unit_quaternion is rotations.as_unit_quaternion
    assert interpolation.angle_between is rotations.angle_between
    assert interpolation.UNIT_TOLERANCE == rotations.UNIT_TOLERANCE
    q = rotations.euler_to_quaternion(30, 20, 10)
    R = rotations.euler_to_matrix(30, 20, 10)
    # quaternions, matrices, or one of each: the same angle
    for a, b in ((q, quaternion.one), (R, np.eye(3)), (q, np.eye(3)), (R, quaternion.one)):
        assert rotations.angle_between(a, b) == pytest.approx(
            rotations.angle_between(q, quaternion.one), abs=1e-9)
    # a huge but finite quaternion is "not unit", not an overflow
    refused(rotations.as_unit_quaternion, (1e200, 0, 0, 0), match="length 1e\\+200")
    refused(rotations.as_unit_quaternion, "north", match="quaternion or 4 numbers")
    refused(rotations.as_unit_quaternion, [[1, 0, 0, 0]] * 2, single=True,
            match="single quaternion")


def test_naive_threshold_is_checked():
    refused(rotations.quaternion_to_euler_naive, quaternion.one, threshold="0.4",
            match="threshold")
    refused(rotations.quaternion_to_euler_naive, quaternion.one, threshold=0.0,
            match="threshold")


# -- interpolation (item 10) ---------------------------------------------------------------
def test_lerp_of_huge_opposite_angles_does_not_overflow():
    out = interpolation.lerp_angles((1e308, 0, 0), (-1e308, 0, 0), 0.5)
    np.testing.assert_allclose(out, [0, 0, 0])
    wrapped = interpolation.lerp_angles((1e308, 0, 0), (-1e308, 0, 0), 0.5, wrap=True)
    assert np.isfinite(wrapped).all()
    # 1e308 mod 360 and -1e308 mod 360 are exact; the short way between them is under 180
    # degrees, far below what a float near 1e308 can show, so the blend stays at e0
    assert wrapped[0] == 1e308


def test_wrapped_difference_just_under_180_keeps_its_sign():
    # (d + 180) % 360 - 180 rounds d = 179.99999999999997 to -180: the long way round
    out = interpolation.lerp_angles((0, 0, -179.99999999999997), (0, 0, 0), 0.5, wrap=True)
    assert out[2] == pytest.approx(-90)
    assert interpolation.lerp_angles((0, 0, 0), (0, 0, 180), 0.5, wrap=True)[2] == -90


def test_blend_flags_and_t_are_checked():
    q0, q1 = quaternion.one, rotations.euler_to_quaternion(90, 0, 0)
    refused(interpolation.slerp, q0, q1, 0.5, shortest="False", match="shortest")
    refused(interpolation.nlerp, q0, q1, "0.5", match="t ")
    refused(interpolation.slerp, q0, q1, True, match="t ")
    refused(interpolation.lerp_angles, (0, 0, 0), (1, 2, 3), 0.5, wrap=None, match="wrap")
    refused(interpolation.angular_speed, [q0, q1], ["a", "b"], match="t ")


# -- spline (items 6, 8, 11) -------------------------------------------------------------------
def test_a_spline_longer_than_the_cap_is_refused_before_any_work():
    from lessons_lib.spline import MAX_LENGTH, Spline

    for far in (1e6, 1e7, 1e200):
        refused(Spline, [[0, 0], [far, 0]], match="more than the 50000 m")
    refused(Spline, [[-1e308, 0], [1e308, 0]], match="too far apart")
    refused(Spline, [[0, 0], [1e200, 1e200]], match="more than")
    # just under the cap is built
    assert Spline([[0, 0], [MAX_LENGTH * 0.99, 0]]).length == pytest.approx(MAX_LENGTH * 0.99)


@pytest.mark.parametrize("points, closed", [
    ([[0, 0], [1, 0], [0, 0]], False),           # walks back the way it came
    ([[0, 0], [1, 0], [2, 0]], True),            # a collinear closed loop
    ([[0, 0, 0], [1, 1, 1], [0, 0, 0], [3, 0, 0]], False),
])
def test_points_that_retrace_are_refused_by_lessons_lib_not_scipy(points, closed):
    from lessons_lib.spline import Spline

    refused(Spline, points, closed=closed, match="turn straight back")


def test_spline_types_are_checked():
    from lessons_lib.spline import Spline

    refused(Spline, [[0, 0], [1, 1], [2, 0]], closed="False", match="closed must be True")
    refused(Spline, [[0, 0], [1, 1]], closed=None, match="closed")
    refused(Spline, None, match="numbers")
    refused(Spline, [[0, 0], [1e-300, 0]], match="scale them up")
    sp = Spline([[0, 0], [10, 0], [20, 5]])
    for bad in (None, "3", [1.0, None], True):
        refused(sp.location_at, bad, match="distance along the spline")
    refused(sp.direction_at, None, match="distance")
    refused(sp.sample, 0, match="n must be >= 1")
    refused(sp.sample, 10**9, match="n must be <=")
    refused(sp.sample, 2.5, match="whole number")


def test_closest_distance_window_must_be_a_positive_length():
    from lessons_lib.spline import Spline

    sp = Spline([[0, 0], [10, 0], [20, 5]])
    refused(sp.closest_distance, (5, 1), hint=5, window=-5, match="window must be > 0")
    refused(sp.closest_distance, (5, 1), hint=5, window=math.nan, match="window")
    refused(sp.closest_distance, (5, 1), hint="5", match="hint")
    refused(sp.closest_distance, None, match="point")
    # a window longer than the spline searches all of it, in bounded work
    assert sp.closest_distance((5, 1), hint=5, window=1e300) == pytest.approx(
        sp.closest_distance((5, 1)), abs=1e-6)


# -- tracks (items 4, 6, 11) -------------------------------------------------------------------
def test_a_right_turn_mirrors_a_left_one():
    from lessons_lib.tracks import sloped_road

    for turn in (40.0, 90.0, 5.0):
        left, right = sloped_road(0.3, turn), sloped_road(0.3, -turn)
        np.testing.assert_allclose(right.points, left.points * [1, -1, 1], atol=1e-12)
        assert right.length == pytest.approx(left.length, rel=1e-12)
        assert right.length == pytest.approx(60 * math.sqrt(1 + 0.3**2), rel=1e-3)


def test_no_turn_is_a_straight_sloped_road():
    from lessons_lib.tracks import sloped_road

    road = sloped_road(0.5, 0.0)
    assert road.length == pytest.approx(60 * math.sqrt(1.25), rel=1e-9)
    np.testing.assert_allclose(road.points[:, 1], 0, atol=1e-12)
    np.testing.assert_allclose(road.curvature_at(np.linspace(0, road.length, 50)), 0, atol=1e-9)
    # a tiny turn is as good as none (and never an enormous road)
    assert sloped_road(0.5, 1e-9).length == pytest.approx(road.length, rel=1e-9)


def test_sloped_road_refuses_what_it_cannot_build():
    from lessons_lib.tracks import sloped_road

    refused(sloped_road, 0.3, 400, match="bank_turn must be <= 360")
    refused(sloped_road, 0.3, math.nan, match="bank_turn")
    refused(sloped_road, "0.3", 40, match="grade must be a number")
    refused(sloped_road, 5, 40, match="grade must be <= 3")


def test_turtle_work_is_counted_and_capped_before_it_is_done():
    from lessons_lib.tracks import MAX_TURTLE_POINTS, turtle_points

    refused(turtle_points, [("line", 1e9)], match=f"more than {MAX_TURTLE_POINTS} points")
    refused(turtle_points, [("line", 10)], step=1e-9, match="more than")
    refused(turtle_points, [("arc", 1e300, 90)], match="more than")
    assert len(turtle_points([("line", 10)], step=1.0)) == 11


@pytest.mark.parametrize("pieces, message", [
    ([("arc", 10)], "an arc is"),
    ([("line",)], "a line is"),
    ([("line", -3)], "length of piece 0 must be > 0"),
    ([("arc", 10, 0)], "turns by 0 degrees"),
    ([("arc", 0, 90)], "radius of piece 0"),
    ([("spiral", 10)], "unknown piece"),
    (["line"], "unknown piece"),
    (None, "pieces must be a list"),
    ([("line", "10")], "must be a number"),
])
def test_turtle_pieces_are_checked(pieces, message):
    from lessons_lib.tracks import turtle_points

    refused(turtle_points, pieces, match=message)


def test_track_names_are_checked():
    from lessons_lib.tracks import track, turtle_points

    refused(track, None, match="unknown track")
    refused(turtle_points, [("line", 1)], start=None, match="start")
    refused(turtle_points, [("line", 1)], heading_deg=math.inf, match="heading_deg")


# -- steering (items 7, 10, 11) ----------------------------------------------------------------
@pytest.fixture(scope="module")
def oval():
    from lessons_lib.tracks import track

    return track("oval")


def test_steering_params_are_checked_on_every_assignment(oval):
    from lessons_lib.steering import SteeringParams, steer

    p = SteeringParams()
    for name, bad, message in (("max_yaw_delta", 0, "max_yaw_delta must be > 0"),
                               ("max_yaw_delta", math.nan, "finite"),
                               ("heading_weight", 7, "heading_weight must be <= 1"),
                               ("crosstrack_gain", -1, "crosstrack_gain must be >= 0"),
                               ("use_heading", "False", "use_heading must be True or False"),
                               ("adaptive_look_ahead", 1, "True or False"),
                               ("look_ahead_base", "3", "must be a number")):
        refused(setattr, p, name, bad, match=message)
    assert p == SteeringParams()  # nothing was changed by the refused assignments
    refused(SteeringParams, heading_weight=7, match="heading_weight")
    # steer runs on the valid params as before
    assert abs(steer((0.0, -35.0), 0.0, 10.0, oval, 0.0, p).steering) <= 1


def test_steer_checks_its_arguments(oval):
    from lessons_lib.steering import SteeringParams, look_ahead_distance, steer

    refused(steer, (0.0, -35.0), 0.0, "5", oval, 0.0, match="speed must be a number")
    refused(steer, (0.0, -35.0), None, 5.0, oval, 0.0, match="yaw_deg")
    refused(steer, (0.0, -35.0), 0.0, 5.0, oval, None, match="progress")
    refused(steer, None, 0.0, 5.0, oval, 0.0, match="position")
    refused(steer, (0.0, -35.0), 0.0, 5.0, oval, 0.0, params="fast", match="params")
    refused(look_ahead_distance, 10, 0.01, None, match="params must be a SteeringParams")
    refused(look_ahead_distance, "10", 0.01, SteeringParams(), match="speed and curvature")
    # a huge heading is reduced mod 360 before any arithmetic: same answer as the small one
    a = steer((1.0, -34.0), 30.0 + 360.0 * 2**40, 10.0, oval, 0.0)
    b = steer((1.0, -34.0), 30.0, 10.0, oval, 0.0)
    assert a.steering == pytest.approx(b.steering, abs=1e-12)


def test_public_terms_refuse_nan_and_text():
    from lessons_lib import steering as st

    p = st.SteeringParams()
    refused(st.curvature_scale, math.nan, match="curvature")
    refused(st.curvature_scale, -1.0, match="curvature must be >= 0")
    refused(st.dynamic_heading_weight, 2.0, 0.1, match="heading_weight must be <= 1")
    refused(st.yaw_command, 10.0, "x", 0.5, p, match="heading_delta")
    refused(st.yaw_command, 10.0, 5.0, math.nan, p, match="weight")
    refused(st.steering_command, math.inf, 0.0, p, match="yaw_cmd")
    refused(st.blend_weight, None, 0.1, match="params")
    refused(st.crosstrack, (0, 0, 0), (1, 1, 0), (0, 0, 0), match="unit vector")
    refused(st.crosstrack, None, (1, 1, 0), (1, 0, 0), match="position")
    refused(st.crosstrack, (1e308, 0, 0), (-1e308, 0, 0), (0, 1, 0), match="too far apart")


def test_delta_angle_of_huge_opposite_angles_is_exact_not_nan():
    from lessons_lib.steering import delta_angle

    # with exact integers: 1e308 and -1e308 mod 360
    want = (int(-1e308) - int(1e308)) % 360
    want = want - 360 if want > 180 else want
    assert delta_angle(1e308, -1e308) == pytest.approx(want)
    refused(delta_angle, math.nan, 0.0, match="from_deg")
    refused(delta_angle, 0.0, "90", match="to_deg")


def test_road_right_refuses_a_zero_tangent():
    from lessons_lib.steering import road_right

    refused(road_right, (0, 0), match="zero vector")
    refused(road_right, (0, 0, 1), match="vertical")
    refused(road_right, (1, 0), up=(0, 0, 0), match="up is the zero vector")
    refused(road_right, "north", match="tangent")
    np.testing.assert_allclose(road_right((1e200, 0)), [0, -1], atol=1e-15)
    np.testing.assert_allclose(road_right((1e-200, 0)), [0, -1], atol=1e-15)


# -- vehicle and controllers (items 7, 10, 11) ------------------------------------------------
def test_simulation_speed_and_start_are_capped(oval):
    from lessons_lib.vehicle import MAX_START_OFFSET, MAX_STEPS, simulate

    refused(simulate, oval, None, 1e308, 2, match="faster than")
    refused(simulate, oval, None, 10, 2, start_offset=1e308, match="start_offset must be <=")
    refused(simulate, oval, None, 10, 2, start_offset=-2 * MAX_START_OFFSET, match=">=")
    refused(simulate, oval, None, 10, MAX_STEPS, dt=0.01, match="too many")
    refused(simulate, oval, None, "10", 2, match="speed must be a number")
    refused(simulate, oval, None, 10, 2, start_heading_error=None, match="start_heading")
    # a full-turn heading error is the same start
    a = simulate(oval, None, 10, 1, start_heading_error=10 + 360 * 2**30)
    b = simulate(oval, None, 10, 1, start_heading_error=10)
    np.testing.assert_allclose(a.x, b.x, atol=1e-9)


def test_run_metrics_tolerance_is_a_positive_length(oval):
    from lessons_lib.vehicle import run_metrics, simulate

    traj = simulate(oval, None, 10, 2, start_offset=2)
    refused(run_metrics, traj, math.nan, match="tolerance")
    refused(run_metrics, traj, -1, match="tolerance must be > 0")
    refused(run_metrics, {"crosstrack_error": [1]}, match="Trajectory")
    assert run_metrics(traj)["settle_time"] > 0


def test_vehicle_fields_must_be_numbers():
    from lessons_lib.vehicle import Vehicle

    refused(Vehicle, rear_overhang="abc", match="rear_overhang")
    refused(Vehicle, rear_overhang=-1, match="rear_overhang must be >= 0")
    refused(Vehicle, wheelbase="2.7", match="wheelbase")
    refused(Vehicle, steer_lag=None, match="steer_lag")
    refused(Vehicle().outline, 0, 0, "north", match="yaw_deg")


def test_controllers_check_their_arguments(oval):
    from lessons_lib.controllers import PurePursuit, Stanley, compare
    from lessons_lib.vehicle import Vehicle, simulate_controller

    refused(PurePursuit, look_ahead_base="3", match="look_ahead_base")
    refused(Stanley, gain=math.nan, match="gain")
    car = Vehicle()
    for ctrl in (PurePursuit(), Stanley()):
        assert -1.5 < ctrl(0.0, -35.0, 0.0, 10.0, 0.0, oval, car) < 1.5
        refused(ctrl, 0.0, -35.0, 0.0, "10", 0.0, oval, car, match="speed")
        refused(ctrl, 0.0, -35.0, 0.0, 10.0, 0.0, None, car, match="spline")
        refused(ctrl, 0.0, -35.0, 0.0, 10.0, 0.0, oval, None, match="vehicle")
    refused(simulate_controller, oval, "pp", 10, 1, match="controller must be a function")
    refused(simulate_controller, oval, lambda *a: "0.5", 10, 1, match="controller returned")
    refused(compare, "oval", match="track_names must be a list")
    refused(compare, ["oval"], stanley=PurePursuit(), match="stanley must be a Stanley")


# -- funnel (items 5, 11) ----------------------------------------------------------------------
SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
NOTCH = np.array([[0, 0], [2, 0], [1, 0.5], [2, 1], [0, 1]], dtype=float)  # not convex


@pytest.mark.parametrize("shift", [0.0, 5e4, 1e9, -3e7])
def test_a_square_far_from_the_origin_is_still_a_square(shift):
    from lessons_lib.funnel import check_polygon

    np.testing.assert_array_equal(check_polygon(SQUARE + shift), SQUARE + shift)


@pytest.mark.parametrize("scale", [1.0, 1e200, 1e-200, 1e-12])
def test_polygon_checks_do_not_depend_on_the_polygon_size(scale):
    from lessons_lib.funnel import check_polygon

    check_polygon(SQUARE * scale)
    refused(check_polygon, NOTCH * scale, match="not convex")
    refused(check_polygon, SQUARE[::-1] * scale, match="clockwise")


def test_the_library_corridor_passes_its_own_checks_however_far_it_goes():
    """strip_corridor(100000) was refused from polygon 36022 on (x = 36022 made the area
    tolerance 1e-9 x 36022^2 bigger than the piece): the same pieces at x = 1e5, shorter."""
    from lessons_lib.funnel import portals_from_corridor, strip_corridor

    far = [poly + (99_000.0, 0.0) for poly in strip_corridor(1000)]
    assert len(portals_from_corridor(far)) == 1000


def test_a_start_far_beyond_the_first_portal_is_refused():
    from lessons_lib.funnel import funnel

    portal = [((1, 1), (1, -1))]
    refused(funnel, (1e10, 0), (2, 0), portal, match="start is beyond the first portal")
    refused(funnel, (0, 0), (-1e10, 0), portal, match="goal is before the last portal")
    # the same corridor moved far from the origin still works
    far = [((1e10 + 1, 1), (1e10 + 1, -1))]
    path = funnel((1e10 + 0.5, 0), (1e10 + 2, 0), far)
    np.testing.assert_allclose(path, [[1e10 + 0.5, 0], [1e10 + 2, 0]])


@pytest.mark.parametrize("portals", [None, "abc", 5, [((0, 0), (1, "a"))], [((0, 0),)]])
def test_portals_that_are_not_pairs_of_points_are_refused(portals):
    from lessons_lib.funnel import funnel, validate_portals

    refused(validate_portals, portals, match="portals must be")
    refused(funnel, (0, 0), (1, 0), portals, match="portals must be")


def test_funnel_helpers_check_their_arguments():
    from lessons_lib import funnel as fn

    refused(fn.cross, None, (0, 0), (1, 1), match="a must be")
    refused(fn.cross, (0, 0), (1, math.nan), (1, 1), match="NaN")
    refused(fn.shrink_portals, [((0, 1), (0, -1))], math.nan, match="radius")
    refused(fn.shrink_portals, [((0, 1), (0, -1))], "0.1", match="radius")
    refused(fn.point_in_polygon, None, SQUARE, match="point")
    refused(fn.path_clearance, "path", [((0, 0), (1, 0))], match="path")
    refused(fn.portal_midpoint_path, None, (1, 0), [], match="start")
    refused(fn.path_from_steps, None, match="steps must be")
    refused(fn.strip_corridor, 10**9, match="n_portals must be <=")
    refused(fn.strip_corridor, 2.5, match="whole number")
    refused(fn.corridor_path, (0.5, 0.5), (0.5, 0.6), [SQUARE], radius=-1, match="radius")


# -- navmesh (items 9, 11) ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def mesh():
    from lessons_lib.navmesh import lesson_navmesh

    return lesson_navmesh()


@pytest.mark.parametrize("radius, message", [
    (math.nan, "radius must be a finite"), (-1, "radius must be >= 0"),
    ("0.3", "radius must be a number"), (None, "radius"), (100, "fits nowhere"),
])
def test_route_radius_is_checked(mesh, radius, message):
    refused(mesh.route, (1.2, 1.0), (14.8, 9.0), radius=radius, match=message)
    # also when start and goal share one polygon (no portal to shrink)
    refused(mesh.route, (1.2, 1.0), (1.3, 1.05), radius=radius, match=message)


def test_route_radius_zero_and_normal_still_work(mesh):
    assert mesh.route((1.2, 1.0), (1.3, 1.05), radius=0).radius == 0
    assert mesh.route((1.2, 1.0), (14.8, 9.0), radius=0.4).shrunk is not None


def test_navmesh_types_are_checked():
    from lessons_lib.navmesh import NavMesh, grid_navmesh

    v = [(0, 0), (1, 0), (1, 1), (0, 1)]
    polys = np.array([[0, 1, 2], [0, 2, 3]])
    assert len(NavMesh(v, polys)) == 2  # an array of index lists works
    refused(NavMesh, v, np.zeros((0, 3), dtype=int), match="at least one polygon")
    refused(NavMesh, v, [[0, 1, 2.5]], match="vertex index")
    refused(NavMesh, v, "012", match="polygons must be")
    refused(NavMesh, [("a", "b")], [[0]], match="vertices")
    refused(NavMesh.from_polygons, [SQUARE], decimals=-1, match="decimals")
    refused(grid_navmesh, [0, 1], [0, 1], [["yes"]], match="booleans")
    refused(grid_navmesh, [0, 1], [0, 1], [[True]], triangulate=lambda i, j: 3,
            match="triangulate")
    mesh = NavMesh(v, polys)
    refused(mesh.locate, None, match="finite")
    refused(mesh.find_corridor, (0.2, 0.1), (0.1, 0.8), blocked=[0.5], match="blocked")
    refused(mesh.route, "start", (0.1, 0.8), match="start")


# -- pathsmooth (item 11) ----------------------------------------------------------------------
def test_pathsmooth_types_and_bounds():
    from lessons_lib import pathsmooth as ps

    grid = np.zeros((5, 5), dtype=bool)
    refused(ps.grid_astar, grid, (0, 0), (4, 4), corner_cutting="no", match="corner_cutting")
    refused(ps.grid_astar, grid, (None, 0), (4, 4), match="whole cell")
    refused(ps.grid_astar, grid, ("1", "2"), (4, 4), match="whole cell")
    refused(ps.grid_astar, [[0, 0], [0]], (0, 0), (1, 0), match="ragged")
    refused(ps.line_of_sight, grid, (0, 0), (1.5, 2), match="whole cell")
    # segment_cells works inside its grid only: the work is at most the grid's size
    refused(ps.segment_cells, (5, 5), (0, 0), (10**6, 10**6), match="outside")
    refused(ps.segment_cells, "5x5", (0, 0), (1, 1), match="shape")
    refused(ps.path_length, [("a", "b")], match="points")
    refused(ps.path_length, [(-1e308, 0), (1e308, 0)], match="too long")
    refused(ps.serpentine_grid, 10**7, match="more than")
    refused(ps.string_pull, None, lambda a, b: True, match="path must be")


# -- issue 46: work bounded up front, beyond float range, the limit in the message -----------
@pytest.mark.parametrize("bad", [10**400, -(10**400)])
def test_real_says_an_integer_beyond_float_range_is_out_of_it(bad):
    message = refused(check.real, bad, "speed", unit="m/s", match="within float range")
    assert "401-digit integer" in message and len(message) < 200
    assert not check.is_finite(bad) and check.is_finite(10**300)


def test_grid_astar_refuses_a_grid_larger_than_it_searches():
    from lessons_lib import pathsmooth as ps

    walled = np.zeros((1000, 1000), bool)
    walled[:, 500] = True
    walled[999, 500] = False
    refused(ps.grid_astar, walled, (0, 0), (999, 0), match="at most 250,000 cells.*1000 x 1000")
    g, s, t = ps.serpentine_grid(200)        # the lesson's largest snake still works
    assert ps.grid_astar(g, s, t)[-1] == t


@pytest.mark.parametrize("name", ["funnel", "funnel_steps"])
def test_the_funnel_refuses_more_portals_than_its_limit(name):
    from lessons_lib import funnel as fn

    n = fn.MAX_PORTALS + 1
    portals = [((i + 1.0, 1.0), (i + 1.0, -1.0)) for i in range(n)]
    refused(getattr(fn, name), (0.5, 0.0), (n + 0.5, 0.0), portals,
            match="at most 100,000 portals, got 100,001")


@pytest.mark.parametrize("samples, match", [(10**8, "samples must be <= 10000"),
                                            (0, ">= 1"), (2.5, "whole number"),
                                            ("a", "whole number")])
def test_catmull_rom_samples_are_bounded(samples, match):
    from lessons_lib import pathsmooth as ps

    refused(ps.catmull_rom, [[0, 0], [1, 1], [2, 0]], samples, match=match)
    refused(ps.catmull_rom, np.zeros((200_000, 2)), 24, match="at most 1,000,000 points")


def test_the_gimbal_searches_and_lock_path_are_bounded():
    from lessons_lib.apps.gimbal import model

    target = model.reach_target()
    refused(model.lock_path, 80.0, frames=10**9, match="frames must be <= 1000")
    refused(model.lock_path, "80", match="middle_start must be a number")
    refused(model.best_single_ring, target, step_deg=0.0001, match=">= 0.01 degrees")
    refused(model.best_two_rings, target, step_deg=0.05, match=">= 0.5 degrees")
    refused(model.best_two_rings, "YXZ", match="target must be a Target")
    assert len(model.lock_path(80.0)) == model.LOCK_FRAMES + 1


@pytest.mark.parametrize("interval", [-1, 0, math.nan, 10**400, 1e9, "0.04"])
def test_run_on_clock_refuses_an_interval_out_of_its_range(interval):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from lessons_lib.apps.core.app import run_on_clock

    shown = []
    clock = run_on_clock(shown.append, start=0, last=lambda: 10**9, interval=interval,
                         running=lambda: True)
    # a loop of its own, in a thread: a browser test's Playwright may be running one here
    with pytest.raises(ValueError, match="interval must be"), ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, asyncio.wait_for(clock, 5)).result()
    assert shown == []


def _oval():
    from lessons_lib.tracks import track

    return track("oval")


@pytest.mark.parametrize("call, match", [
    (lambda: rotations.euler_to_matrix(10**400, 0, 0), "within float range"),
    (lambda: _oval().frame_at(10**400), "within float range"),
    (lambda: _oval().location_at(-(10**400)), "within float range"),
    (lambda: __import__("lessons_lib.steering").steering.delta_angle(10**400, 0), "range"),
    (lambda: __import__("lessons_lib.vehicle").vehicle.Vehicle(wheelbase=10**400),
     "401-digit integer"),
    (lambda: rotations.quaternion_to_matrix([1, 0, 0, 10**400]), "float range"),
])
def test_integers_beyond_float_range_are_refused_by_the_maths(call, match):
    """Issue 46: each raised OverflowError (int too large to convert to float) or a message
    hundreds of characters long."""
    message = refused(call, match=match)
    assert len(message) < 300


@pytest.mark.parametrize("args, kwargs, match", [
    (("ab", [1, 2]), {}, "knots x must be an array"),
    (([0, 1], "ab"), {}, "values y must be a number or an array"),
    (([0, 1e-300], [0, 1e300]), {}, "coefficients overflow"),
    (([0, 1], [[[1]], [[2]]]), {}, "one value per knot"),
    (([0, 1, 2], [0, 1, 0]), {"periodic": "yes"}, "periodic must be True or False"),
])
def test_cubic_refuses_what_is_not_finite_knots_and_values(args, kwargs, match):
    from lessons_lib.cubic import Cubic

    refused(Cubic, *args, match=match, **kwargs)


def test_cubic_calls_and_the_catalogue_check_their_arguments():
    from lessons_lib import catalogue
    from lessons_lib.cubic import Cubic

    c = Cubic([0.0, 1.0, 2.0], [0.0, 1.0, 0.0])
    refused(c, [0.5, math.nan], match="at contains NaN")
    refused(c, 0.5, nu=1.5, match="whole number")
    refused(c, 1e300, nu=0, match="overflows")
    refused(catalogue.reading_order, 5, match="list of Lesson")
    refused(catalogue.lesson, np.array([1, 2]), match="slug, number or notebook name")
    assert catalogue.lesson(1).number == 1
