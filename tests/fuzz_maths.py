"""Bad and edge input over every public maths function, each call bounded in time and memory.

Every public callable of the maths modules (their ``__all__``, and the public methods of
``Spline``, ``NavMesh``, ``SteeringParams``, ``Vehicle`` and the controllers) has a spec:
one hypothesis strategy per argument that draws either a sensible value or a nasty one
(NaN, inf, 1e308, 5e-324, bools, text, None, wrong shapes, ragged lists, degenerate
geometry). Each call is classified:

* ``valid``: it returned, and every number in the answer is finite (the few documented
  NaN answers, such as a settle time that never comes, are listed in ``NAN_ALLOWED``);
* ``refused``: it raised a ValueError (or a subclass) from inside ``lessons_lib``, with a
  message of one to 600 characters;
* ``other``: anything else: another exception, a ValueError raised by numpy or scipy, a
  NaN in the answer, a call over ``CALL_SECONDS`` of wall time, or running out of memory.

Run it as a script (the test suite does, in a child process whose address space is limited
with ``resource.setrlimit``)::

    python tests/fuzz_maths.py --examples 20 --json out.json

It prints one line per module (calls, valid, refused, other) and the first few ``other``
outcomes with the call that produced them.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import inspect
import json
import math
import signal
import sys
import time
import traceback
import warnings
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import quaternion
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from lessons_lib import (
    catalogue,
    controllers,
    cubic,
    flight,
    funnel,
    i18n,
    interpolation,
    navmesh,
    pathsmooth,
    rotations,
    spline,
    steering,
    sweep,
    tracks,
    validate,
    vehicle,
)
from lessons_lib.apps import lazy
from lessons_lib.apps.core import fonts

MODULES = {m.__name__.split(".")[-1]: m for m in (
    rotations, flight, interpolation, spline, steering, vehicle, controllers, tracks, funnel,
    navmesh, pathsmooth, validate, sweep, cubic, catalogue, i18n, fonts, lazy)}
#: The module each class's methods are counted under.
OWNER = {"Cubic": "cubic", "Runs": "sweep", "SpeedSweep": "sweep", "Spline": "spline",
         "NavMesh": "navmesh",
         "SteeringParams": "steering", "Vehicle": "vehicle", "Trajectory": "vehicle",
         "PurePursuit": "controllers", "Stanley": "controllers"}
#: CPU time one call may take before it counts as a hang.
CALL_SECONDS = 10.0
#: (spec name, answer path) pairs where NaN (or inf) is the documented answer.
NAN_ALLOWED = {("vehicle.run_metrics", "settle_time"), ("Trajectory.metrics", "settle_time"),
               ("Runs.metrics", "settle_time"), ("sweep.simulate_many", "crosstrack_error"),
               ("sweep.simulate_many", "steering_input"),
               ("funnel.path_clearance", "value"),  # no walls: infinitely far from any
               ("controllers.compare", "settle_time"),
               # at the lock a turn along the lost direction needs infinite ring rates
               ("flight.ring_rates", "0"), ("flight.body_turn", "0")}
#: Functions that hand back (a subsequence of) what they were given, NaN included.
PASS_THROUGH = {"pathsmooth.string_pull", "validate.items"}


# -- values -----------------------------------------------------------------------------------
NASTY_SCALARS = [math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, -0.0, 0, -1, 1e300,
                 1e-300, 2**63, -(2**70), True, False, None, "5", "abc", "", b"1", 1 + 2j,
                 np.float32(np.nan), np.int64(7), np.bool_(True), [], (), {}, object(),
                 np.array([]), np.array(np.nan), 10**400, -(10**400), "\u00b9\u00b2",
                 "\u0661\u0662"]

nasty_scalar = st.one_of(st.sampled_from(NASTY_SCALARS),
                         st.floats(allow_nan=True, allow_infinity=True),
                         st.integers(-(10**30), 10**30), st.integers(10**308, 10**420),
                         st.integers(-(10**420), -(10**308)))


def nasty_array():
    """Arrays and lists that are wrong in shape, type or value."""
    return st.one_of(
        st.lists(nasty_scalar, max_size=4),
        st.lists(st.lists(nasty_scalar, max_size=3), max_size=4),
        st.sampled_from([[[0, 0], [1]], [[0, 0], [1, 1]], np.zeros((0, 2)), np.zeros((2, 2, 2)),
                         np.full((3, 2), np.nan), np.array([["a", "b"]]), [[1e308, -1e308]] * 3,
                         [[0, 0]] * 5, np.ones(4) * 1e200, [(1, 2), None], "xyz",
                         np.array([1 + 1j, 2])]))


nasty = st.one_of(nasty_scalar, nasty_array())


def either(good, weight: int = 6):
    """Mostly a sensible value, sometimes a nasty one."""
    return st.one_of(*([good] * weight), nasty)


finite = st.floats(-1e6, 1e6, allow_nan=False)
huge = st.floats(allow_nan=False, allow_infinity=False)
angle = st.one_of(st.floats(-720, 720), huge)
unit01 = st.floats(0, 1)
small_pos = st.floats(1e-3, 50)
point2 = st.tuples(st.floats(-60, 60), st.floats(-60, 60))
point3 = st.tuples(st.floats(-60, 60), st.floats(-60, 60), st.floats(-10, 10))
flags = st.booleans()
orders = st.one_of(st.sampled_from(rotations.ORDERS), st.sampled_from(["xyz", "XYY", "YX"]))


@st.composite
def unit_quaternions(draw):
    v = np.array([draw(st.floats(-1, 1)) for _ in range(4)])
    n = np.linalg.norm(v)
    if n < 1e-3:
        v, n = np.array([1.0, 0, 0, 0]), 1.0
    kind = draw(st.sampled_from(["quat", "tuple", "scaled"]))
    if kind == "quat":
        return quaternion.quaternion(*(v / n))
    if kind == "scaled":
        return tuple(v * draw(st.sampled_from([2.0, 1e-200, 1e200, 0.0])))
    return tuple(v / n)


@st.composite
def matrices(draw):
    R = rotations.euler_to_matrix(draw(angle), draw(st.floats(-90, 90)), draw(angle))
    kind = draw(st.sampled_from(["rot", "rot", "scaled", "reflect", "stack"]))
    if kind == "scaled":
        return R * draw(st.sampled_from([2.0, 1e200, 0.0]))
    if kind == "reflect":
        return R @ np.diag([1.0, 1.0, -1.0])
    if kind == "stack":
        return np.stack([R, R.T])
    return R


@st.composite
def quat_paths(draw):
    n = draw(st.integers(0, 6))
    qs = [draw(unit_quaternions()) for _ in range(n)]
    return np.array([quaternion.as_float_array(q) if isinstance(q, quaternion.quaternion)
                     else np.asarray(q, float) for q in qs]).reshape(-1, 4)


@st.composite
def point_sets(draw, dim=2, closed_ok=True):
    n = draw(st.integers(1, 7))
    kind = draw(st.sampled_from(["random", "line", "retrace", "far", "tiny", "dup"]))
    pts = np.array([[draw(st.floats(-100, 100)) for _ in range(dim)] for _ in range(n)])
    if kind == "line":
        pts = np.outer(np.arange(n), np.ones(dim)) * draw(st.floats(0.1, 10))
    elif kind == "retrace" and n >= 2:
        pts = np.vstack([pts[:2], pts[:1]])
    elif kind == "far":
        pts = pts * draw(st.sampled_from([1e4, 1e7, 1e150, 1e200]))
    elif kind == "tiny":
        pts = pts * draw(st.sampled_from([1e-7, 1e-12, 1e-300]))
    elif kind == "dup" and n >= 2:
        pts[1] = pts[0]
    return pts


def once(make):
    """A strategy for the one value ``make()`` builds, built on first use and kept."""
    return st.builds(functools.cache(make))


def splines():
    return once(lambda: (tracks.track("oval"), tracks.track("s_bend"), tracks.sloped_road(),
                         spline.Spline([[0, 0], [10, 0], [20, 5]]))).flatmap(st.sampled_from)


@st.composite
def polygons(draw):
    n = draw(st.integers(3, 7))
    r = draw(st.sampled_from([1.0, 1e-6, 1e6, 1e200, 1e-200]))
    c = np.array(draw(st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6))))
    th = np.sort(np.array([draw(st.floats(0, 2 * math.pi)) for _ in range(n)]))
    pts = c + r * np.c_[np.cos(th), np.sin(th)]
    kind = draw(st.sampled_from(["ccw", "ccw", "cw", "notch"]))
    if kind == "cw":
        pts = pts[::-1]
    elif kind == "notch":
        pts = np.vstack([pts, c])
    return pts


@st.composite
def corridors(draw):
    k = draw(st.integers(0, 6))
    shift = draw(st.sampled_from([0.0, 1e5, -3e8]))
    return [p + (shift, 0.0) for p in funnel.strip_corridor(k, seed=draw(st.integers(0, 9)))]


@st.composite
def portal_lists(draw):
    polys = draw(corridors())
    if len(polys) < 2:
        return []
    portals = [tuple(map(tuple, lr)) for lr in funnel.portals_from_corridor(polys)]
    if draw(st.booleans()) and portals:
        i = draw(st.integers(0, len(portals) - 1))
        portals[i] = portals[i][::-1]  # swapped left and right
    return portals


@st.composite
def grids(draw):
    h, w = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    return np.array([[draw(st.booleans()) for _ in range(w)] for _ in range(h)])


cells = st.tuples(st.integers(-2, 9), st.integers(-2, 9))
def meshes():
    return once(navmesh.lesson_navmesh)


params = st.builds(steering.SteeringParams, heading_weight=unit01, max_yaw_delta=small_pos,
                   adaptive_look_ahead=flags, use_position=flags, use_heading=flags,
                   use_crosstrack=flags)
vehicles = st.builds(vehicle.Vehicle, wheelbase=st.floats(0.5, 5), steer_lag=st.floats(0, 1))
ctrls = st.sampled_from([controllers.PurePursuit(), controllers.Stanley()])
duration = st.floats(0.05, 3)
pieces = st.lists(st.one_of(st.tuples(st.just("line"), st.floats(-5, 200)),
                            st.tuples(st.just("arc"), st.floats(-5, 200), st.floats(-720, 720)),
                            st.tuples(st.just("arc"), st.floats(1, 10)), nasty_scalar),
                  max_size=4)
def trajectories():
    return once(lambda: vehicle.simulate(tracks.track("oval"), None, 10.0, 2.0,
                                         start_offset=1.0))


def steps_lists():
    return st.builds(lambda p: funnel.funnel_steps((0.2, 0.1), (5.5, 0.2), p),
                     st.just(funnel.portals_from_corridor(funnel.strip_corridor(4))))


# -- one spec per public callable: (callable or a strategy of callables, args, kwargs) --------
def _method(obj_strategy, name):
    return obj_strategy.map(lambda o: getattr(o, name))


S = {}
R = rotations
S["rotations.check_order"] = (R.check_order, [orders], {})
S["rotations.ring_angle_names"] = (R.ring_angle_names, [orders], {})
S["rotations.middle_angle_name"] = (R.middle_angle_name, [orders], {})
S["rotations.axis_rotation"] = (R.axis_rotation, [st.sampled_from("xyzXw"), angle], {})
for name in ("euler_to_matrix", "euler_to_quaternion", "gimbal_axes", "euler_rate_matrix",
             "lock_measure", "lock_angle"):
    S[f"rotations.{name}"] = (getattr(R, name), [angle, angle, angle], {"order": orders})
S["rotations.matrix_to_euler"] = (R.matrix_to_euler, [matrices()], {"order": orders})
S["rotations.matrix_to_quaternion"] = (R.matrix_to_quaternion, [matrices()], {})
S["rotations.quaternion_to_matrix"] = (R.quaternion_to_matrix, [unit_quaternions()], {})
S["rotations.quaternion_to_euler"] = (R.quaternion_to_euler, [unit_quaternions()],
                                      {"order": orders})
S["rotations.quaternion_to_euler_naive"] = (R.quaternion_to_euler_naive, [unit_quaternions()],
                                            {"order": orders, "threshold": st.floats(0, 0.6)})
S["rotations.angle_between"] = (R.angle_between, [st.one_of(unit_quaternions(), matrices())] * 2,
                                {})
S["rotations.axis_angle_matrix"] = (R.axis_angle_matrix, [point3, angle], {})
body_axis = st.one_of(st.sampled_from(["nose", "wing", "top", "tail"]), point3)
S["flight.body_turn"] = (flight.body_turn, [angle, angle, angle, body_axis, angle],
                         {"order": orders})
S["flight.ring_rates"] = (flight.ring_rates, [angle, angle, angle, body_axis], {"order": orders})
S["flight.aim_nose"] = (flight.aim_nose, [st.tuples(angle, angle, angle), point3],
                       {"order": orders})
S["rotations.turn_onto"] = (R.turn_onto, [point3, point3], {})
S["rotations.as_unit_quaternion"] = (R.as_unit_quaternion, [unit_quaternions()],
                                     {"single": flags})
I = interpolation
angles3 = st.tuples(angle, angle, angle)
S["interpolation.lerp_angles"] = (I.lerp_angles, [angles3, angles3, unit01], {"wrap": flags})
S["interpolation.euler_lerp"] = (I.euler_lerp, [angles3, angles3, unit01],
                                 {"order": orders, "wrap": flags})
for name in ("nlerp", "slerp"):
    S[f"interpolation.{name}"] = (getattr(I, name),
                                  [unit_quaternions(), unit_quaternions(),
                                   st.one_of(unit01, st.lists(unit01, max_size=3))],
                                  {"shortest": flags})
S["interpolation.total_angle"] = (I.total_angle, [quat_paths()], {})
S["interpolation.angular_speed"] = (
    I.angular_speed, [quat_paths(), st.lists(st.floats(-1, 2), max_size=6)], {})
S["spline.Spline"] = (spline.Spline, [st.one_of(point_sets(2), point_sets(3))],
                      {"closed": flags})
for name in ("wrap", "location_at", "direction_at", "curvature_at", "frame_at"):
    S[f"Spline.{name}"] = (_method(splines(), name),
                           [st.one_of(huge, st.lists(finite, max_size=3))], {})
S["Spline.signed_curvature_at"] = (_method(splines(), "signed_curvature_at"), [finite], {})
S["Spline.sample"] = (_method(splines(), "sample"), [st.integers(-2, 2000)], {})
S["Spline.closest_distance"] = (_method(splines(), "closest_distance"),
                                [st.one_of(point2, point3)],
                                {"hint": st.one_of(st.none(), finite),
                                 "window": st.one_of(st.none(), st.floats(-5, 1e9))})
S["Spline.frames_at"] = (_method(splines(), "frames_at"),
                        [st.one_of(huge, st.lists(finite, max_size=3))], {})
S["Spline.closest_near_many"] = (_method(splines(), "closest_near_many"),
                                 [st.lists(point2, min_size=1, max_size=3),
                                  st.lists(finite, min_size=1, max_size=3)],
                                 {"window": st.floats(-5, 1e9)})
S["Spline.closest_near"] = (_method(splines(), "closest_near"),
                            [finite, finite, finite, finite], {"window": st.floats(-5, 1e9)})
St = steering
S["steering.SteeringParams"] = (St.SteeringParams, [], {
    "heading_weight": st.floats(-1, 2), "max_yaw_delta": st.floats(-1, 90),
    "look_ahead_base": st.floats(-1, 20), "use_heading": flags})
S["SteeringParams.replace"] = (_method(params, "replace"), [],
                               {"heading_weight": st.floats(-1, 2),
                                "crosstrack_gain": st.floats(-1, 2)})
S["SteeringParams.validate"] = (_method(params, "validate"), [], {})
S["steering.look_ahead_distance"] = (St.look_ahead_distance, [st.floats(-1, 40),
                                                              st.floats(-1, 1), params], {})
S["steering.delta_angle"] = (St.delta_angle, [angle, angle], {})
S["steering.curvature_scale"] = (St.curvature_scale, [st.floats(-1, 10)], {})
S["steering.dynamic_heading_weight"] = (St.dynamic_heading_weight, [unit01, st.floats(0, 5)],
                                        {})
S["steering.blend_weight"] = (St.blend_weight, [params, st.floats(0, 5)], {})
S["steering.yaw_command"] = (St.yaw_command, [angle, angle, unit01, params], {})
S["steering.crosstrack"] = (St.crosstrack, [point3, point3, st.sampled_from(
    [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.6, 0.8, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 0.0)])],
    {})
S["steering.steering_command"] = (St.steering_command, [angle, finite, params], {})
S["steering.road_right"] = (St.road_right, [st.one_of(point2, point3)], {"up": point3})
S["steering.steer"] = (St.steer, [st.one_of(point2, point3), angle, st.floats(-1, 40),
                                  splines(), huge], {"params": params})
S["steering.steering_terms"] = (St.steering_terms, [finite, finite, finite, angle,
                                                    st.floats(0, 40), splines(), finite,
                                                    params], {})
V = vehicle
S["vehicle.Vehicle"] = (V.Vehicle, [], {"wheelbase": st.floats(-1, 5),
                                        "max_wheel_angle": st.floats(-1, 100),
                                        "steer_lag": st.floats(-1, 1),
                                        "rear_overhang": st.floats(-1, 2)})
S["Vehicle.outline"] = (_method(vehicles, "outline"), [finite, finite, angle], {})
run_kwargs = {"dt": st.floats(1e-3, 0.3), "start_distance": huge,
              "start_offset": st.floats(-2000, 2000), "start_heading_error": angle,
              "vehicle": vehicles}
S["vehicle.simulate"] = (V.simulate, [splines(), st.one_of(st.none(), params),
                                      st.floats(-1, 150), duration], run_kwargs)
S["vehicle.simulate_controller"] = (V.simulate_controller, [splines(), ctrls,
                                                            st.floats(-1, 150), duration],
                                    run_kwargs)
S["vehicle.start_pose"] = (V.start_pose, [splines(), huge, st.floats(-2000, 2000), angle], {})
S["vehicle.run_metrics"] = (V.run_metrics, [trajectories(), st.floats(-1, 5)], {})
S["Trajectory.metrics"] = (_method(trajectories(), "metrics"), [st.floats(-1, 5)], {})
C = controllers
S["controllers.PurePursuit"] = (C.PurePursuit, [st.floats(-1, 10), st.floats(-1, 2)], {})
S["controllers.Stanley"] = (C.Stanley, [st.floats(-1, 5), st.floats(-1, 5)], {})
for name in ("PurePursuit", "Stanley"):
    S[f"{name}.__call__"] = (st.just(getattr(C, name)()), [finite, finite, angle,
                                                          st.floats(-1, 150), finite,
                                                          splines(), vehicles], {})
S["controllers.compare"] = (C.compare, [st.lists(st.sampled_from(["oval", "s_bend", "nope"]),
                                                 max_size=1)],
                            {"speed": st.floats(-1, 30), "duration": st.floats(0.05, 1)})
T = tracks
S["tracks.track"] = (T.track, [st.sampled_from([*T.TRACKS, "monaco"])], {})
S["tracks.turtle_points"] = (T.turtle_points, [pieces], {"start": point2, "heading_deg": angle,
                                                         "step": st.floats(-1, 10)})
S["tracks.sloped_road"] = (T.sloped_road, [st.floats(-4, 4), st.floats(-400, 400)], {})
F = funnel
S["funnel.cross"] = (F.cross, [point2, point2, point2], {})
S["funnel.check_polygon"] = (F.check_polygon, [polygons()], {"index": st.integers(0, 5)})
S["funnel.portals_from_corridor"] = (F.portals_from_corridor, [corridors()], {})
S["funnel.validate_portals"] = (F.validate_portals, [portal_lists()], {})
for name in ("funnel", "funnel_steps", "portal_midpoint_path"):
    S[f"funnel.{name}"] = (getattr(F, name), [point2, point2, portal_lists()], {})
S["funnel.push_corners"] = (F.push_corners, [point_sets(2), st.floats(-1, 2)], {})
S["funnel.path_from_steps"] = (F.path_from_steps, [steps_lists()], {})
# two steps of one trace (consecutive or not), or anything else in either place
_step = steps_lists().flatmap(lambda steps: st.sampled_from(steps))
S["funnel.crossing"] = (F.crossing, [st.one_of(_step, st.none(), point2),
                                     st.one_of(_step, st.integers())], {})
S["funnel.shrink_portals"] = (F.shrink_portals, [portal_lists(), st.floats(-1, 2)], {})
S["funnel.corridor_walls"] = (F.corridor_walls, [corridors()], {})
S["funnel.path_clearance"] = (F.path_clearance, [point_sets(2), st.just([((0, 0), (1, 0))])],
                              {})
S["funnel.point_in_polygon"] = (F.point_in_polygon, [point2, polygons()], {})
S["funnel.corridor_path"] = (F.corridor_path, [point2, point2, corridors()],
                             {"radius": st.floats(-1, 1)})
S["funnel.strip_corridor"] = (F.strip_corridor, [st.integers(-2, 50)],
                              {"seed": st.integers(-1, 5), "wiggle": st.floats(-1, 2)})
N = navmesh
S["navmesh.NavMesh"] = (N.NavMesh, [st.just([(0, 0), (1, 0), (1, 1), (0, 1)]),
                                    st.sampled_from([[[0, 1, 2], [0, 2, 3]], [[0, 1, 2, 3]],
                                                     np.array([[0, 1, 2], [0, 2, 3]]),
                                                     [[0, 2, 1]], [[0, 1, 9]], []])], {})
S["NavMesh.from_polygons"] = (N.NavMesh.from_polygons, [st.lists(polygons(), max_size=2)],
                              {"decimals": st.integers(-1, 20)})
S["NavMesh.locate"] = (_method(meshes(), "locate"), [point2], {})
S["NavMesh.find_corridor"] = (_method(meshes(), "find_corridor"), [point2, point2],
                              {"blocked": st.lists(st.integers(-1, 200), max_size=3)})
S["NavMesh.route"] = (_method(meshes(), "route"), [point2, point2],
                      {"radius": st.floats(-1, 200)})
S["NavMesh.corridor_polygons"] = (_method(meshes(), "corridor_polygons"),
                                  [st.lists(st.integers(-1, 200), max_size=3)], {})
S["navmesh.grid_navmesh"] = (N.grid_navmesh, [st.just([0, 1, 2]), st.just([0, 1]),
                                              st.sampled_from([[[True, True]], [[1, 0]],
                                                               [[True]], [["a", "b"]]])],
                             {"triangulate": st.sampled_from([None, lambda i, j: 1,
                                                              lambda i, j: 5])})
S["navmesh.lesson_navmesh"] = (N.lesson_navmesh, [], {})
P = pathsmooth
S["pathsmooth.check_grid"] = (P.check_grid, [grids()], {})
S["pathsmooth.grid_astar"] = (P.grid_astar, [grids(), cells, cells], {"corner_cutting": flags})
S["pathsmooth.line_of_sight"] = (P.line_of_sight, [grids(), cells, cells],
                                 {"corner_cutting": flags})
S["pathsmooth.make_line_of_sight"] = (P.make_line_of_sight, [grids()],
                                      {"corner_cutting": flags})
S["pathsmooth.segment_cells"] = (P.segment_cells, [st.tuples(st.integers(-1, 9),
                                                             st.integers(-1, 9)), cells, cells],
                                 {"corner_cutting": flags})
S["pathsmooth.string_pull"] = (P.string_pull, [st.lists(cells, max_size=6),
                                               st.just(lambda a, b: True)], {})
S["pathsmooth.path_length"] = (P.path_length, [point_sets(2)], {})
S["pathsmooth.serpentine_grid"] = (P.serpentine_grid, [st.integers(-1, 30)],
                                   {"height": st.integers(0, 20), "spacing": st.integers(0, 5)})
def sweeps():
    return once(lambda: sweep.speed_sweep(tracks.track("oval"), speeds=(5.0, 10.0),
                                          duration=1.0))


speeds_s = st.lists(st.floats(-1, 150), min_size=0, max_size=3)
S["sweep.simulate_many"] = (sweep.simulate_many, [splines(), st.lists(params, max_size=3),
                                                  speeds_s, duration], run_kwargs)
S["sweep.speed_sweep"] = (sweep.speed_sweep, [splines(), st.one_of(st.none(), params), speeds_s,
                                              st.floats(0.05, 1)],
                          {
                           "fixed_long": st.floats(-1, 40), "fixed_short": st.floats(-1, 5)})
S["Runs.metrics"] = (st.just(sweep.simulate_many(tracks.track("oval"), [steering.SteeringParams()],
                                                 [10.0], 1.0).metrics),
                     [st.floats(-1, 5)], {})
S["SpeedSweep.best"] = (_method(sweeps(), "best"), [st.sampled_from(["rms", "max", "x"])], {})
S["SpeedSweep.regions"] = (_method(sweeps(), "regions"), [st.sampled_from(["rms", "max"])], {})
S["SpeedSweep.at"] = (_method(sweeps(), "at"), [st.floats(-10, 100)], {})
S["SpeedSweep.index"] = (_method(sweeps(), "index"),
                         [st.floats(-10, 100) | st.just(float("nan"))], {})
def floors():
    return once(navmesh.lesson_walkable)


S["funnel.step_text"] = (F.step_text, [steps_lists().map(lambda s: s[len(s) // 2])], {})
S["pathsmooth.catmull_rom"] = (P.catmull_rom, [point_sets(2)], {"samples": st.integers(-1, 50)})
S["NavMesh.corridor_along"] = (_method(meshes(), "corridor_along"), [point_sets(2)], {})
S["NavMesh.corridor_holding"] = (_method(meshes(), "corridor_holding"), [point_sets(2)],
                                 {"nudge": st.floats(-1, 1)})
S["navmesh.lesson_walkable"] = (N.lesson_walkable, [], {})
S["navmesh.walkable_area"] = (N.walkable_area, [polygons()],
                              {"obstacles": st.lists(polygons(), max_size=2)})
S["navmesh.hertel_mehlhorn"] = (N.hertel_mehlhorn, [st.just([(0, 0), (1, 0), (1, 1), (0, 1)]),
                                                    st.sampled_from([[(0, 1, 2), (0, 2, 3)],
                                                                     [(0, 1, 9)], []])], {})
S["navmesh.prepare_shortest_paths"] = (N.prepare_shortest_paths, [floors()], {})
S["navmesh.bake_navmesh"] = (N.bake_navmesh, [floors()], {"merge": flags})
for name in ("boundary_edges", "reflex_corners"):
    S[f"navmesh.{name}"] = (getattr(N, name), [floors()], {})
S["navmesh.turns"] = (N.turns, [point_sets(2), floors()], {"radius": st.floats(-1, 2)})
S["navmesh.erode"] = (N.erode, [floors(), st.floats(-1, 20)], {})
S["navmesh.clearance"] = (N.clearance, [point_sets(2), floors()], {})
S["navmesh.shortest_path"] = (N.shortest_path, [floors(), point2.map(lambda p: (
    abs(p[0]) % 16, abs(p[1]) % 10)), point2.map(lambda p: (abs(p[0]) % 16, abs(p[1]) % 10))],
    {})
S["navmesh.segment_in_floor"] = (N.segment_in_floor, [point2, point2,
                                                      floors().map(N.boundary_edges)], {})
Va = validate
for name in ("real", "length", "probability", "flag", "integer", "point", "numbers",
             "degrees"):
    S[f"validate.{name}"] = (getattr(Va, name), [finite, st.just("x")], {})
S["validate.is_number"] = (Va.is_number, [finite], {})
def cubics():
    return once(lambda: (cubic.Cubic([0.0, 1.0, 2.5, 4.0], [[0, 0], [1, 2], [0, 3], [2, 2]]),
                         cubic.Cubic([0.0, 1.0, 2.0], [1.0, -1.0, 1.0], periodic=True))
                ).flatmap(st.sampled_from)


knots = st.one_of(st.lists(finite, min_size=0, max_size=6).map(sorted), nasty_array())
S["cubic.Cubic"] = (cubic.Cubic, [knots, st.one_of(st.lists(huge, max_size=6),
                                                   st.lists(point2, max_size=6))],
                    {"periodic": flags})
S["Cubic.__call__"] = (cubics(), [st.one_of(huge, st.lists(huge, max_size=4))],
                       {"nu": st.integers(-1, 4)})
S["catalogue.lesson"] = (catalogue.lesson, [st.one_of(st.integers(0, 6), st.sampled_from(
    [catalogue.LESSONS[0].slug, "nope", catalogue.LESSONS[-1].notebook]))], {})
S["catalogue.reading_order"] = (catalogue.reading_order, [st.just(catalogue.LESSONS)], {})
S["catalogue.app_registry"] = (catalogue.app_registry, [], {})
# the language: never "ko" here (set_language is global: the fuzz run leaves English)
S["i18n.set_language"] = (i18n.set_language, [st.one_of(st.sampled_from(["en", None, "fr", ""]),
                                                        nasty)], {})
S["i18n.language"] = (i18n.language, [], {})
S["i18n.is_korean"] = (i18n.is_korean, [], {})
S["i18n.compile_catalogue"] = (i18n.compile_catalogue, [st.one_of(st.sampled_from(["ko", "en",
                                                                                 "x/.."]),
                                                                  nasty)], {})
S["i18n.N_"] = (i18n.N_, [st.text(max_size=50)], {})   # a marker: any text back as it is
S["i18n.ngettext"] = (i18n.ngettext, [st.text(max_size=30), st.text(max_size=30),
                                      st.integers(-5, 5)], {})
# lessons_lib.apps is imported here (lazy is in it): its modules are found, valid calls
# (each good value three times over, so that about a third of the calls are valid)
packages = st.one_of(*[st.just("lessons_lib.apps")] * 3,
                     st.sampled_from(["lessons_lib.validate", "nowhere", ""]), nasty)
submodules = st.one_of(*[st.sampled_from([".lazy", ".core"])] * 3,
                       st.sampled_from([".nothing", "lazy", "..core", ""]), nasty)
S["lazy.public_names"] = (lazy.public_names, [packages, submodules], {})
S["lazy.lazy_package"] = (lazy.lazy_package, [packages, submodules], {})
S["fonts.hangul_font_path"] = (fonts.hangul_font_path, [st.one_of(st.booleans(), nasty)], {})
S["fonts.language_rc"] = (fonts.language_rc, [], {})
S["fonts.hangul_family"] = (fonts.hangul_family, [], {})
S["i18n._"] = (i18n._, [st.one_of(nasty, st.text(max_size=50), st.just("Check"))], {})
S["i18n.words"] = (i18n.words, [st.one_of(st.sampled_from(["row {}", "{x:+.3f}", "{", "{0}{1}",
                                                           "{a.b}", "{:d}"]),
                                           st.text(max_size=30), nasty)],
                   {"x": st.one_of(huge, nasty, st.booleans())})
S["i18n.say"] = (i18n.say, [st.sampled_from(["{}", "{x}", "{:+.1f}°"]), st.one_of(huge, nasty)],
                 {})
S["i18n.translations"] = (i18n.translations, [st.sampled_from(["en", "ko", "fr", ""])], {})
S["validate.option"] = (Va.option, [st.sampled_from(["a", "b", "z", ""]), st.just("x"),
                                    st.just(("a", "b"))], {})
S["validate.fields"] = (Va.fields, [st.one_of(params, st.just(None)), st.just("params"),
                                    st.just({"heading_weight": Va.probability,
                                             "use_heading": Va.flag})], {})
S["validate.describe"] = (Va.describe, [st.one_of(nasty, st.text(max_size=200))], {})
S["validate.is_finite"] = (Va.is_finite, [st.one_of(finite, st.integers(10**300, 10**420))], {})
S["validate.huge_integer"] = (Va.huge_integer, [st.integers(-(10**420), 10**420)],
                              {"digits": st.integers(-5, 5000)})
S["validate.items"] = (Va.items, [st.lists(finite, max_size=3), st.just("x")], {})
S["validate.array"] = (Va.array, [point_sets(2), st.just("x"), st.just((None, 2))], {})
S["validate.instance"] = (Va.instance, [st.one_of(params, finite), st.just("params"),
                                        st.sampled_from([steering.SteeringParams, (int, float),
                                                         (), "SteeringParams"])], {})
S["validate.first_is"] = (Va.first_is, [st.sampled_from([float, (int, str), None, ()])], {})
S["validate.reduce_degrees"] = (Va.reduce_degrees, [huge], {})
S["validate.extent"] = (Va.extent, [point_sets(2)], {})
S["validate.tolerance"] = (Va.tolerance, [point_sets(2)], {})

#: Top-level modules of lessons_lib that are not maths (a registry of hooks into other
#: libraries, no function a learner calls).
NOT_MATHS = {"hooks"}
#: Parameter names that are a blend parameter or a fraction: numbers (or lists) in [0, 1].
UNIT_NAMES = {"t", "s", "u", "fraction", "weight", "alpha"}


def default_spec(fn, module) -> tuple:
    """A spec for a maths function that S does not list, from its signature: a blend
    parameter (UNIT_NAMES) from 0 to 1, one number or a few; a text parameter one of the
    module's own tuple-of-texts constants or any short text; a flag True or False; any other
    a finite number or a few. Each mostly sensible, sometimes nasty (:func:`either`)."""
    words = [v for v in vars(module).values() if isinstance(v, tuple) and v
             and all(isinstance(w, str) for w in v)]
    texts = st.one_of(*(st.sampled_from(w) for w in words), st.text(max_size=6))
    numbers = st.one_of(finite, st.lists(finite, min_size=1, max_size=3))
    args, kwargs = [], {}
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        good = (st.one_of(unit01, st.lists(unit01, min_size=1, max_size=3))
                if p.name in UNIT_NAMES else texts if isinstance(p.default, str)
                else flags if isinstance(p.default, bool) else numbers)
        if p.default is p.empty and p.kind is not p.KEYWORD_ONLY:
            args.append(either(good))
        else:
            kwargs[p.name] = either(good)
    return fn, args, kwargs


def _add_new_modules() -> None:
    """Every top-level maths module MODULES does not name (one added since), into MODULES,
    with a :func:`default_spec` for each public function S has no spec for."""
    import importlib
    import pkgutil

    import lessons_lib

    for info in pkgutil.iter_modules(lessons_lib.__path__):
        if info.ispkg or info.name in MODULES or info.name in NOT_MATHS:
            continue
        module = importlib.import_module(f"lessons_lib.{info.name}")
        MODULES[info.name] = module
        for name, fn in vars(module).items():
            if not name.startswith("_") and inspect.isfunction(fn) \
                    and fn.__module__ == module.__name__ and f"{info.name}.{name}" not in S:
                S[f"{info.name}.{name}"] = default_spec(fn, module)


_add_new_modules()

#: Public names that are not functions to call (constants, exception and result types).
NOT_CALLED = {"ORDERS", "ANGLE_OF_AXIS", "LOCK_EPS", "NAIVE_THRESHOLD", "UNIT_TOLERANCE",
              "MAX_LENGTH", "MIN_LENGTH", "MAX_SAMPLES", "SplineFrame", "SteeringTerms",
              "TermValues", "Crosstrack", "WORLD_UP", "Trajectory", "SETTLE_TOLERANCE",
              "MAX_STEPS", "MAX_INTEGER", "MAX_SPEED", "MAX_START_OFFSET", "TRACKS",
              "MAX_TURTLE_POINTS",
              "CorridorTooNarrow", "FunnelStep", "NoRouteError", "Route", "NoPathError",
              "angle_between", "as_unit_quaternion",  # interpolation re-exports rotations'
              "Runs", "SpeedSweep", "SWEEP_MODES",
              "FIXED_LONG", "FIXED_SHORT", "SWEEP_SPEEDS", "MAX_CAR_STEPS",
              "BODY_AXES", "BodyTurn"}


def uncovered() -> list[str]:
    """Public callables with no spec (the test requires none)."""
    missing = []
    for mod_name, mod in MODULES.items():
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name)
            if name in NOT_CALLED or not callable(obj):
                continue
            if f"{mod_name}.{name}" not in S:
                missing.append(f"{mod_name}.{name}")
    for cls in (spline.Spline, navmesh.NavMesh, vehicle.Vehicle, sweep.Runs, sweep.SpeedSweep):
        for name, _ in inspect.getmembers(cls, inspect.isfunction):
            if not name.startswith("_") and f"{cls.__name__}.{name}" not in S:
                missing.append(f"{cls.__name__}.{name}")
    return missing


# -- running and classifying ----------------------------------------------------------------
class CallTimeout(BaseException):
    """Raised by the alarm: a BaseException so that no ``except Exception`` swallows it.
    The alarm counts this process's CPU time (``ITIMER_PROF``), so a machine shared with
    other work does not turn a slow-but-bounded call into a "hang"."""


def _alarm(signum, frame):
    raise CallTimeout()


def _non_finite(value, path="", depth=0):
    """The path of the first non-finite number in an answer, or None."""
    if depth > 6:
        return None
    if isinstance(value, bool | str | bytes) or value is None:
        return None
    if isinstance(value, int):       # exact, however large (validate.integer's answer)
        return None
    if isinstance(value, float | np.number):
        return None if math.isfinite(float(value)) else path or "value"
    if isinstance(value, quaternion.quaternion):
        return None if np.isfinite(quaternion.as_float_array(value)).all() else path or "q"
    if isinstance(value, np.ndarray):
        if value.dtype == quaternion.quaternion:
            value = quaternion.as_float_array(value)
        if value.dtype.kind in "fc" and not np.isfinite(value).all():
            return path or "array"
        if value.dtype.kind == "O":
            for i, v in enumerate(value.flat[:50]):
                bad = _non_finite(v, f"{path}[{i}]", depth + 1)
                if bad:
                    return bad
        return None
    if isinstance(value, dict):
        items = value.items()
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = ((f.name, getattr(value, f.name)) for f in dataclasses.fields(value))
    elif isinstance(value, tuple) and hasattr(value, "_fields"):
        items = zip(value._fields, value, strict=True)
    elif isinstance(value, list | tuple):
        items = enumerate(value[:200])
    else:
        return None
    for k, v in items:
        bad = _non_finite(v, f"{path}.{k}" if path else str(k), depth + 1)
        if bad:
            return bad
    return None


def _from_lessons_lib(exc: BaseException) -> bool:
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return last is not None and "lessons_lib" in last and "fuzz_maths" not in last


def _short(x) -> str:
    try:
        text = repr(x)
    except Exception:  # noqa: BLE001 - a repr that fails is still a value to show
        text = f"<{type(x).__name__}>"
    return text if len(text) <= 120 else text[:117] + "..."


def classify(name, fn, args, kwargs):
    """('valid' | 'refused' | 'other', detail, seconds)."""
    t0 = time.perf_counter()
    signal.setitimer(signal.ITIMER_PROF, CALL_SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(*args, **kwargs)
        signal.setitimer(signal.ITIMER_PROF, 0)
    except CallTimeout:
        return "other", f"no answer within {CALL_SECONDS} s", time.perf_counter() - t0
    except ValueError as exc:
        signal.setitimer(signal.ITIMER_PROF, 0)
        dt = time.perf_counter() - t0
        message = str(exc)
        if not _from_lessons_lib(exc):
            where = traceback.extract_tb(exc.__traceback__)[-1]
            return "other", f"ValueError from {where.filename}:{where.lineno}: {message}", dt
        if not 0 < len(message) <= 600:
            return "other", f"ValueError with a message of {len(message)} characters", dt
        return "refused", message, dt
    except MemoryError:
        signal.setitimer(signal.ITIMER_PROF, 0)
        return "other", "MemoryError (the address-space limit was reached)", \
            time.perf_counter() - t0
    except Exception as exc:  # noqa: BLE001 - every other exception is what we count
        signal.setitimer(signal.ITIMER_PROF, 0)
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return "other", (f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}: "
                         f"{exc}"), time.perf_counter() - t0
    dt = time.perf_counter() - t0
    bad = _non_finite(out) if name not in PASS_THROUGH else None
    if bad and (name, bad.split(".")[-1]) not in NAN_ALLOWED:
        return "other", f"answer has a non-finite number at {bad}", dt
    return "valid", "", dt


def _runner(name, module, examples, rng_seed, counts, others, slowest):
    @seed(rng_seed)
    @settings(max_examples=examples, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    def one(fn, args, kwargs):
        kind, detail, dt = classify(name, fn, args, kwargs)
        counts[module]["calls"] += 1
        counts[module][kind] += 1
        if dt > slowest[0]:
            slowest[:] = [dt, name]
        if kind == "other" and len(others) < 200:
            others.append({"function": name, "args": _short(args), "kwargs": _short(kwargs),
                           "problem": detail})
    return one


def run(examples: int, only: str | None = None, rng_seed: int = 13) -> dict:
    counts: dict[str, Counter] = defaultdict(Counter)
    others: list[dict] = []
    slowest = [0.0, ""]
    signal.signal(signal.SIGPROF, _alarm)
    for name, (fn_s, arg_s, kw_s) in S.items():
        if only and only not in name:
            continue
        module = OWNER.get(name.split(".")[0], name.split(".")[0])
        fn_strategy = fn_s if isinstance(fn_s, st.SearchStrategy) else st.just(fn_s)
        args_strategy = st.tuples(*[either(a) for a in arg_s])
        kw_strategy = st.fixed_dictionaries({}, optional={k: either(v)
                                                          for k, v in kw_s.items()})

        one = _runner(name, module, examples, rng_seed, counts, others, slowest)
        given(fn_strategy, args_strategy, kw_strategy)(one)()
    return {"counts": {m: dict(c) for m, c in counts.items()}, "others": others,
            "slowest_call": {"seconds": round(slowest[0], 3), "function": slowest[1]},
            "uncovered": uncovered()}


def table(report: dict) -> str:
    lines = [f"{'module':<14}{'calls':>7}{'valid':>7}{'refused':>9}{'other':>7}"]
    total = Counter()
    for m, c in sorted(report["counts"].items()):
        total.update(c)
        lines.append(f"{m:<14}{c.get('calls', 0):>7}{c.get('valid', 0):>7}"
                     f"{c.get('refused', 0):>9}{c.get('other', 0):>7}")
    lines.append(f"{'all':<14}{total['calls']:>7}{total['valid']:>7}{total['refused']:>9}"
                 f"{total['other']:>7}")
    return "\n".join(lines)


def command_line(argv, description: str, what: str) -> argparse.Namespace:
    """A fuzzer's options (this one's and tests/fuzz_apps.py's), with the memory cap set."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--examples", type=int, default=20, help=f"calls per {what}")
    ap.add_argument("--only", default=None, help=f"only {what}s whose name contains this")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--memory-mb", type=int, default=0,
                    help="limit this process's address space to this many MB more than now")
    ap.add_argument("--json", default=None, help="write the report here")
    a = ap.parse_args(argv)
    if a.memory_mb:
        import resource

        with open("/proc/self/statm") as f:
            now = int(f.read().split()[0]) * resource.getpagesize()
        limit = now + a.memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return a


def main(argv=None) -> int:
    a = command_line(argv, __doc__.splitlines()[0], "function")
    t0 = time.process_time()
    report = run(a.examples, a.only, a.seed)
    report["cpu_seconds"] = round(time.process_time() - t0, 1)
    print(table(report))
    print(f"CPU {report['cpu_seconds']} s; slowest call {report['slowest_call']}")
    for o in report["others"][:15]:
        print(f"OTHER {o['function']}{o['args']} {o['kwargs']}: {o['problem']}")
    if report["uncovered"]:
        print("UNCOVERED:", ", ".join(report["uncovered"]))
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1))
    return 0 if not report["others"] and not report["uncovered"] else 1


if __name__ == "__main__":
    sys.exit(main())
