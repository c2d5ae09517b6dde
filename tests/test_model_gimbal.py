"""Lesson 1's model without widgets: article 004's read-back, the lock gauge and badge, the
motion arrows' weakest direction, "Lock it"'s path and the "reach this orientation" target."""

from __future__ import annotations

import math

import numpy as np
import pytest
import quaternion

from lessons_lib import rotations as rot
from lessons_lib.apps.gimbal import model

rng = np.random.default_rng(16)


def article_cpp(w: float, x: float, y: float, z: float) -> tuple[float, float, float]:
    """Article 004's ``Util::QuaternionToYawPtichRoll``, transcribed statement by statement
    (returns yaw = v.y, pitch = v.x, roll = v.z in radians, before NormalizeAngles)."""
    sqw, sqx, sqy, sqz = w * w, x * x, y * y, z * z
    unit = sqx + sqy + sqz + sqw
    test = x * w - y * z
    if test > 0.4995 * unit:
        return 2.0 * math.atan2(y, x), math.pi / 2.0, 0.0
    if test < -0.4995 * unit:
        return -2.0 * math.atan2(y, x), -math.pi / 2.0, 0.0
    # Quaternion q = Quaternion(q1.w, q1.z, q1.x, q1.y): the constructor takes (x, y, z, w)
    qx, qy, qz, qw = w, z, x, y
    yaw = math.atan2(2.0 * qx * qw + 2.0 * qy * qz, 1.0 - 2.0 * (qz * qz + qw * qw))
    pitch = math.asin(2.0 * (qx * qz - qw * qy))
    roll = math.atan2(2.0 * qx * qy + 2.0 * qz * qw, 1.0 - 2.0 * (qy * qy + qz * qz))
    return yaw, pitch, roll


def wrap(deg):
    return (np.asarray(deg) + 180.0) % 360.0 - 180.0


def article_error(yaw, pitch, roll, order="YXZ"):
    q = rot.euler_to_quaternion(yaw, pitch, roll, order)
    read = rot.quaternion_to_euler_naive(q, order)
    return read, rot.angle_between(rot.euler_to_matrix(*read, order),
                                   rot.euler_to_matrix(yaw, pitch, roll, order))


# -- article 004's code ------------------------------------------------------------------------
def test_the_recipe_is_the_articles_code_line_for_line():
    # random orientations, and many just either side of the 0.4995 band and at the poles
    ypr = rng.uniform(-180, 180, (3, 1500))
    ypr[1, :1000] = rng.choice([-1, 1], 1000) * rng.uniform(86.0, 90.0, 1000)
    ypr[1, 1000:1100] = 90.0
    ypr[1, 1100:1200] = -90.0
    qs = rot.euler_to_quaternion(*ypr)
    for q in qs:
        ours = rot.quaternion_to_euler_naive(q)
        theirs = np.degrees(article_cpp(q.w, q.x, q.y, q.z))
        np.testing.assert_allclose(wrap(np.subtract(ours, theirs) + 1e-12), 0, atol=1e-9)
        assert all(-180 < a <= 180 for a in ours)
        # q and -q: the same answer
        assert rot.quaternion_to_euler_naive(-q) == pytest.approx(ours, abs=1e-9)


def test_the_pole_formula_is_exact_at_the_lock_in_every_order():
    for order in rot.ORDERS:
        middle = rot.middle_angle_name(order)
        for sign in (1, -1):
            a = dict(zip(("yaw", "pitch", "roll"), rng.uniform(-180, 180, (3, 50)), strict=True))
            a[middle] = np.full(50, 90.0 * sign)
            _read, err = article_error(a["yaw"], a["pitch"], a["roll"], order)
            assert np.max(err) < 1e-9


def test_the_lessons_numbers_follow_from_the_articles_code():
    (yaw, pitch, roll), err = article_error(30, 88, 20)
    assert (round(yaw, 1), pitch, roll) == (11.0, 90.0, 0.0)
    assert round(err, 2) == 2.24
    _, err = article_error(30, 87.5, 20)
    assert round(err, 2) == 2.81
    # below the threshold it is exact
    _, err = article_error(30, 87.4, 20)
    assert err < 1e-9


@pytest.mark.parametrize("order", rot.ORDERS)
def test_just_past_the_threshold_the_error_reaches_sqrt2_times_the_gap(order):
    """Between 1x and sqrt(2)x the distance to 90 degrees, whatever the outer and inner
    angles: about 3.6 degrees just past 87.44 (not the 2.56 a snapped pitch alone costs)."""
    threshold = math.degrees(math.asin(2 * rot.NAIVE_THRESHOLD))
    gap = 90 - threshold
    outer, inner = np.meshgrid(np.arange(-180, 180, 2.0), np.arange(-180, 180, 2.0))
    named = dict(zip(order, (outer.ravel(), np.full(outer.size, threshold + 1e-7),
                             inner.ravel()), strict=True))
    _, err = article_error(named["Y"], named["X"], named["Z"], order)
    assert err.min() == pytest.approx(gap, abs=1e-4)
    assert err.max() == pytest.approx(math.sqrt(2) * gap, abs=2e-3)
    assert round(err.max(), 1) == 3.6


# -- badge and gauge ---------------------------------------------------------------------------
@pytest.mark.parametrize(("pitch", "badge"), [(0, "free"), (80, "free"), (81, "near"),
                                              (88, "near"), (89.9, "near"), (90, "locked"),
                                              (-90, "locked"), (-89.9, "near"), (120, "free")])
def test_badge_states(pitch, badge):
    st = model.compute_state(30, pitch, 20)
    assert st.badge == badge
    assert st.lock_angle == pytest.approx(rot.lock_angle(30, pitch, 20))
    assert st.lock_measure == pytest.approx(rot.lock_measure(30, pitch, 20), abs=1e-12)
    assert 0 <= st.gauge <= 1


def test_the_gauge_fills_as_the_lock_approaches():
    pitches = np.arange(0, 91, 5)
    states = [model.compute_state(10, p, 5) for p in pitches]
    gauge = [s.gauge for s in states]
    sigma = [s.lock_measure for s in states]
    assert gauge[0] == pytest.approx(0) and gauge[-1] == pytest.approx(1)
    assert np.all(np.diff(gauge) > 0) and np.all(np.diff(sigma) < 0)
    assert sigma[-1] < 1e-7


def test_near_lock_threshold_and_its_stated_cost():
    assert model.NEAR_LOCK_DEG == 10.0
    st = model.compute_state(0, 80, 0)
    assert st.lock_angle == pytest.approx(10)
    assert 1 / st.lock_measure == pytest.approx(1 / (math.sqrt(2) * math.sin(math.radians(5))))
    assert round(1 / st.lock_measure, 1) == 8.1


def test_badge_rejects_nonsense():
    for bad in (float("nan"), -1.0, float("inf")):
        with pytest.raises(ValueError):
            model.badge_state(bad)


# -- motion: each ring's angular velocity, and the weakest direction ---------------------------
@pytest.mark.parametrize("order", rot.ORDERS)
def test_weakest_direction_is_the_lost_one_at_the_lock(order):
    middle = rot.middle_angle_name(order)
    a = {"yaw": 25.0, "pitch": -40.0, "roll": 70.0, middle: 90.0}
    st = model.compute_state(a["yaw"], a["pitch"], a["roll"], order)
    a0, a1, a2 = st.axes
    assert abs(abs(a0 @ a2) - 1) < 1e-12            # two arrows on one line
    expected = np.cross(a0, a1)
    np.testing.assert_allclose(st.weakest, expected / np.linalg.norm(expected), atol=1e-9)
    assert np.all(np.abs(st.axes @ st.weakest) < 1e-9)   # no ring turns about it
    assert st.lock_measure < 1e-9


def test_weakest_direction_matches_the_svd_and_never_flips_on_the_way_to_the_lock():
    previous = None
    for p in model.lock_path(0.0, 40):
        st = model.compute_state(20, p, -30)
        J = st.axes.T
        # the cheapest ring rates for a unit turn about it cost 1 / sigma
        rates = np.linalg.lstsq(J, st.weakest, rcond=None)[0]
        if st.lock_measure > 1e-6:
            assert np.linalg.norm(rates) == pytest.approx(1 / st.lock_measure, rel=1e-6)
        if previous is not None:
            assert st.weakest @ previous > 0.5
        previous = st.weakest


def test_at_plus_90_yaw_and_roll_share_an_axis_in_opposite_senses():
    up = model.compute_state(30, 90, 20)
    assert up.axes[0] @ up.axes[2] == pytest.approx(-1)
    down = model.compute_state(30, -90, 20)
    assert down.axes[0] @ down.axes[2] == pytest.approx(1)
    # opposite senses: yaw +20 and roll -20 give the same orientation at +90
    np.testing.assert_allclose(rot.euler_to_matrix(50, 90, 20), rot.euler_to_matrix(30, 90, 0),
                               atol=1e-12)


def test_state_is_frozen_and_the_nose_is_where_R_puts_it():
    st = model.compute_state(35, -20, 15)
    np.testing.assert_allclose(st.nose, st.matrix @ model.NOSE)
    with pytest.raises(ValueError):
        st.matrix[0, 0] = 2.0
    with pytest.raises(AttributeError):
        st.badge = "locked"
    assert isinstance(st.quaternion, quaternion.quaternion)


@pytest.mark.parametrize("order", rot.ORDERS)
def test_ring_planes_hold_their_axis_and_the_next(order):
    st = model.compute_state(35, -20, 15, order)
    for n in range(3):
        u, v = st.planes[n]
        normal = np.cross(u, v)
        assert abs(normal @ st.axes[n]) < 1e-12
        if n < 2:
            assert abs(normal @ st.axes[n + 1]) < 1e-12


# -- Lock it -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("start", "end"), [(35.0, 90.0), (-20.0, -90.0), (0.0, 90.0),
                                            (150.0, 90.0), (-179.0, -90.0), (90.0, 90.0)])
def test_lock_path(start, end):
    path = model.lock_path(start)
    assert len(path) == model.LOCK_FRAMES + 1
    assert path[0] == start and path[-1] == end
    assert np.all(path == np.round(path))
    steps = np.diff(path) * np.sign(end - start or 1)
    assert np.all(steps >= 0)
    if abs(end - start) >= 10:
        assert steps[0] >= 1                  # the first frame after the click moves
        assert steps[0] > steps[-1]           # and it slows into the lock
    if abs(end - start) >= 50:
        assert np.all(steps >= 1)             # every frame a new picture
    assert model.LOCK_FRAMES * model.LOCK_INTERVAL_MS == 1000


def test_lock_path_rejects_nonsense():
    with pytest.raises(ValueError):
        model.lock_path(float("nan"))
    with pytest.raises(ValueError):
        model.lock_path(10.0, 0)


# -- reach this orientation --------------------------------------------------------------------
@pytest.mark.parametrize("order", rot.ORDERS)
def test_the_target_is_out_of_reach_of_any_single_ring_from_the_lock(order):
    target = model.reach_target(order)
    assert model.compute_state(*target.start, order).badge == "locked"
    assert target.error(*target.start) == pytest.approx(40.0)
    # each ring alone only makes it worse or no better: the turn it needs is the lost one
    assert min(model.best_single_ring(target)) == pytest.approx(40.0, abs=0.01)
    # ... and so do any two: all three rings have to move
    assert min(model.best_two_rings(target, step_deg=3.0)) == pytest.approx(40.0, abs=0.01)
    # whole-degree angles that the sliders can reach exactly
    assert all(a == round(a) for a in target.angles)
    assert target.error(*target.angles) < 1e-9 and target.reached(*target.angles)
    assert not target.reached(*target.start)
    assert model.compute_state(*target.angles, order, target=target).target_error < 1e-9


# -- what the notebook says --------------------------------------------------------------------
def _notebook_text() -> str:
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "01_gimbal_lock.ipynb")
                    .read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_notebooks_numbers_are_the_models():
    text = _notebook_text()
    (yaw, pitch, roll), err = article_error(30, 88, 20)
    assert f"it reads ({yaw:.1f}°, {pitch:.0f}°, {roll:.0f}°), an orientation\n{err:.2f}° away" \
        in text
    threshold = math.degrees(math.asin(2 * rot.NAIVE_THRESHOLD))
    assert f"Up to {math.sqrt(2) * (90 - threshold):.1f}°, easily visible" in text
    assert f"less than {model.NEAR_LOCK_DEG:.0f}° apart" in text
    # the exercise's answer (87.44) is not printed above it
    before = text[:text.index("From which pitch on does the article's code snap")]
    assert "87.4" not in before.replace("87.4,", "") and "2.56" not in before


def test_the_table_above_exercise_5_does_not_give_its_answer():
    """The code cell before exercise 5 prints the article's read-back at a few pitches. If two
    of them sat either side of the snap closely enough, the one that still reads exactly (or
    the middle of the two) would pass the check without computing asin(0.999)."""
    import json
    import re
    from pathlib import Path

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "01_gimbal_lock.ipynb")
                    .read_text(encoding="utf-8"))
    sources = ["".join(c["source"]) for c in nb["cells"]]
    from lessons_lib.apps.gimbal import exercises

    table = next(s for s in sources if "quaternion_to_euler_naive(q)" in s)
    question = next(s for s in sources if "exercises.snap_pitch_question()" in s)
    assert sources.index(table) < sources.index(question)
    pitches = sorted(float(v) for v in
                     re.search(r"for pitch in \(([^)]*)\)", table).group(1).split(","))
    tol = exercises.snap_pitch_question().tol
    answer = math.degrees(math.asin(2 * rot.NAIVE_THRESHOLD))
    below = max(p for p in pitches if p < answer)
    above = min(p for p in pitches if p > answer)
    for guess in (below, above, (below + above) / 2):
        assert abs(guess - answer) > tol, (below, above)


# -- Fly it (issue 31) ---------------------------------------------------------------------------

FACING = np.eye(3)       # a camera looking down -Z: right +X, up +Y, towards the reader +Z


def test_a_drag_turns_about_the_body_axis_it_turns_most_like_a_trackball():
    R = np.eye(3)        # nose +Z at the reader, top +Y, wing +X
    assert model.drag_turn(R, FACING, 10, 0) == ("top", 5.0)    # right: the near side right
    assert model.drag_turn(R, FACING, 0, 10) == ("wing", -5.0)  # up: the nose comes up
    axis, angle = model.drag_turn(R, FACING, 0, 0, twist=4)   # the nose at the reader
    assert axis == "nose" and angle == pytest.approx(2.0 / model.MIN_ACROSS)
    # an axis leaning 60° off the screen still turns at the full rate for a drag across it
    lean = rot.euler_to_matrix(0, -60, 0)           # nose up 60°: the top leans back
    axis, angle = model.drag_turn(lean, FACING, 10, 0, axis="top")
    assert angle == pytest.approx(5.0)
    axis, angle = model.drag_turn(R, FACING, 0, 10, axis="top")  # a picked axis: its part
    assert (axis, angle) == ("top", 0.0)
    # yawed 90° left: the wing now points at the reader, so a vertical drag still turns
    # about the axis across the screen, now the nose (pointing left): a roll
    R = rot.euler_to_matrix(-90, 0, 0)
    axis, angle = model.drag_turn(R, FACING, 0, 10)
    assert axis == "nose" and angle == pytest.approx(5.0)
    for bad in ({"dx": float("nan"), "dy": 0}, {"dx": 0, "dy": 0, "axis": "tail"}):
        with pytest.raises(ValueError):
            model.drag_turn(np.eye(3), FACING, **bad)


def test_fly_keeps_the_exact_angles_and_shows_them_on_the_sliders_steps():
    done = model.fly((179.6, 10.0, -20.0), "top", 2.0)
    assert done.after[0] > 180                       # continuous, past the slider's end ...
    assert done.shown[0] == model.slider_angle(done.after[0]) < -170   # ... shown wrapped
    assert all(v == round(v) for v in done.shown)
    assert sum(c * c for c in done.ring_changes) < 9   # no jump: the nearest branch
    assert model.slider_angle(180.0) == -180.0 and model.slider_angle(-540.4) == -180.0
    with pytest.raises(ValueError, match="nose, wing, top"):
        model.fly((0, 0, 0), "tail", 1.0)
