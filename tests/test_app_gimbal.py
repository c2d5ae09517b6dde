"""GimbalApp headless, through ipympl: set a control, check what was drawn and said."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.transforms import Bbox
from rooms import ROOMS as SCREEN_ROOMS

from lessons_lib import flight
from lessons_lib import rotations as rot
from lessons_lib.apps import GimbalApp
from lessons_lib.apps import gimbal as gimbal_module
from lessons_lib.apps.core import fmt_number
from lessons_lib.apps.core.app import iter_widgets
from lessons_lib.apps.gimbal import ReachExercise, model
from lessons_lib.apps.gimbal import panel as gimbal_panel
from lessons_lib.apps.gimbal.view import FIN_TIP, to_plot

from browser import run_async  # tests/browser.py


def world(line):
    """The world points a line shows (it draws them projected for the camera)."""
    return line.world


def direction(line):
    pts = world(line)
    pts = pts[~np.isnan(pts).any(axis=1)]
    d = pts[1] - pts[0]
    return d / np.linalg.norm(d)


def parallel(u, v, tol=1e-9):
    return abs(abs(u @ v) - 1) < tol


@pytest.fixture
def app():
    a = GimbalApp()
    yield a
    plt.close(a.fig)


def test_builds_one_figure_with_the_expected_parts(app):
    assert app.fig.canvas in app.widget.children[0].children
    v = app.view
    assert len(v.ring_lines) == len(v.axis_lines) == len(v.arrow_lines) == 3
    assert [s.description for s in app.slider_box.children] == ["yaw (Y)", "pitch (X)",
                                                               "roll (Z)"]
    assert app.angles() == (35.0, -20.0, 15.0)
    assert "gimbal-badge-free" in app.panels["gauge"].value
    assert app.last_error is None
    # the order menu names the rings outer to inner and says they are applied last to first
    assert app.order.options[2] == ("YXZ: yaw → pitch → roll", "YXZ")
    assert "inner</b> (applied last → first)" in app.order_note.value
    assert "roll acts on the aircraft first, yaw last" in app.panels["title"].value


def test_moving_sliders_never_creates_figures_and_draws_once(app, monkeypatch):
    before = plt.get_fignums()
    calls = []
    monkeypatch.setattr(app.fig.canvas, "draw_idle", lambda: calls.append(1))
    app.yaw.value = 50
    app.pitch.value = 10
    app.order.value = "ZXY"
    assert len(calls) == 3
    app.set_angles(yaw=1, pitch=2, roll=3)
    assert len(calls) == 4
    assert plt.get_fignums() == before


def test_drawn_rings_axes_and_arrows_follow_the_angles(app):
    app.set_angles(yaw=40, pitch=25, roll=-60)
    R = rot.euler_to_matrix(40, 25, -60)
    np.testing.assert_allclose(app.state.matrix, R, atol=1e-15)
    axes = rot.gimbal_axes(40, 25, -60)
    nose = R @ model.NOSE
    for n in range(3):
        assert parallel(direction(app.view.axis_lines[n]), axes[n])
        # the motion arrow starts at the nose and points along the ring's axis
        arrow = world(app.view.arrow_lines[n])
        np.testing.assert_allclose(arrow[0], nose, atol=1e-12)
        np.testing.assert_allclose(arrow[1] - arrow[0], gimbal_module.ARROW * axes[n],
                                   atol=1e-12)
        # each ring is a circle of its radius around the origin, turning about a diameter
        # (its own axis), and carrying the next ring's pivots (its plane holds that axis)
        pts = world(app.view.ring_lines[n])
        r = gimbal_module.RING_RADII[n]
        np.testing.assert_allclose(np.linalg.norm(pts, axis=1), r)
        normal = np.cross(pts[0], pts[len(pts) // 4])
        assert abs(normal @ axes[n]) < 1e-12
        if n < 2:
            assert abs(normal @ axes[n + 1]) < 1e-12
    # the aircraft turns with the inner ring: its fin tip is where R puts it
    np.testing.assert_allclose(world(app.view.nose_marker)[0], nose, atol=1e-15)
    assert app.view.ring_labels[1].get_text() == "pitch 25°"
    assert app.view.ring_labels[2].get_text() == "roll \u221260°"
    assert FIN_TIP[1] > 0  # the fin is on top


def _mplot3d_twins(app):
    """mplot3d's own Line3D and Poly3DCollection at the world points each line and face
    set of the view shows, hidden behind nothing (they are removed afterwards)."""
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    v = app.view
    twins = []
    for line in [v.stand, *v.ring_lines, *v.axis_lines, *v.arrow_lines, v.missing_line,
                 v.nose_marker]:
        p = to_plot(world(line))
        (twin,) = v.ax.plot(p[:, 0], p[:, 1], p[:, 2])
        twins.append((line, twin))
    faces = np.split(to_plot(world(v.aircraft)), np.cumsum([len(f) for f in
                                                            gimbal_module.view._FACES])[:-1])
    twin = Poly3DCollection(faces)
    v.ax.add_collection3d(twin)
    twins.append((v.aircraft, twin))
    return twins


@pytest.mark.parametrize("camera", [None, (-40.0, 120.0), (75.0, 10.0)])
def test_the_view_projects_and_sorts_as_mplot3d_does(app, camera):
    """The view projects every point itself (one call a frame) and sorts the aircraft's
    faces far to near; mplot3d's own artists at the same points land on the same spots,
    faces in the same order, for any camera, the lock included."""
    app.set_angles(yaw=40, pitch=90, roll=-60)
    if camera is not None:
        app.ax.view_init(*camera)          # what a drag on the canvas does
        app._on_mouse(None)
    twins = _mplot3d_twins(app)
    app.fig.canvas.draw()                   # mplot3d projects its artists as it draws
    for mine, twin in twins:
        if hasattr(twin, "get_xydata"):
            np.testing.assert_allclose(mine.get_xydata(), twin.get_xydata(), atol=1e-12)
        else:
            # closed paths (the last vertex is the first); mplot3d pads short faces with NaN
            got = [p.vertices[:-1] for p in mine.get_paths()]
            want = [p.vertices[:-1][~np.isnan(p.vertices[:-1, 0])] for p in twin.get_paths()]
            assert len(got) == len(want) == len(gimbal_module.view._FACES)
            for a, b in zip(got, want, strict=True):
                np.testing.assert_allclose(a, b, atol=1e-12)
        twin.remove()


def test_pitch_90_locks_yxz_and_shows_the_lost_direction(app):
    app.pitch.value = 90
    st = app.state
    assert st.badge == "locked"
    gauge = app.panels["gauge"].value
    assert "LOCKED" in gauge
    assert "the same axis, in opposite senses" in gauge
    assert "<b>yaw +10°</b> does what <b>roll −10°</b> does" in gauge
    np.testing.assert_allclose(rot.euler_to_matrix(45, 90, 15), rot.euler_to_matrix(35, 90, 5),
                               atol=1e-12)
    # the outer and inner axes and their arrows are one line; the middle one is not
    v = app.view
    assert parallel(direction(v.axis_lines[0]), direction(v.axis_lines[2]))
    assert parallel(direction(v.arrow_lines[0]), direction(v.arrow_lines[2]))
    assert direction(v.arrow_lines[0]) @ direction(v.arrow_lines[2]) == pytest.approx(-1)
    assert not parallel(direction(v.arrow_lines[0]), direction(v.arrow_lines[1]), 1e-3)
    # the black dashes: through the nose, at right angles to every ring's axis
    missing = world(v.missing_line)
    assert len(missing) == 2
    np.testing.assert_allclose(missing.mean(axis=0), st.nose, atol=1e-12)
    d = direction(v.missing_line)
    assert np.all(np.abs(st.axes @ d) < 1e-9)
    assert "no ring can make" in app.panels["motion"].value
    assert "black dashes" in app.panels["motion"].value
    # the matrix forgets which of yaw and roll did it: read back, roll is 0
    yaw, pitch, roll = st.readback
    assert (pitch, roll) == (90.0, 0.0)
    assert yaw == pytest.approx(35.0 - 15.0)
    assert "a different triple, the same orientation" in app.panels["info"].value


def test_at_minus_90_the_senses_agree(app):
    app.pitch.value = -90
    assert "the same axis, in the same sense" in app.panels["gauge"].value
    assert "<b>yaw +10°</b> does what <b>roll +10°</b> does" in app.panels["gauge"].value
    np.testing.assert_allclose(rot.euler_to_matrix(45, -90, 15),
                               rot.euler_to_matrix(35, -90, 25), atol=1e-12)


@pytest.mark.parametrize(("pitch", "word", "cls"), [(88, "near lock", "near"),
                                                    (89.9, "near lock", "near"),
                                                    (90, "LOCKED", "locked"),
                                                    (80, "free", "free")])
def test_badge_at_88_899_and_90(app, pitch, word, cls):
    app.pitch.value = pitch
    gauge = app.panels["gauge"].value
    assert f"gimbal-badge gimbal-badge-{cls}" in gauge
    assert f">{word}</span>" in gauge
    if cls == "near":
        # near the lock the axes are apart (it is not the lock) and the text says so
        assert f"{app.state.lock_angle:.1f}°</b> apart" in gauge
        assert "LOCKED" not in gauge.split("</span>")[0]
        assert "turn the rings make worst" in app.panels["motion"].value
        assert len(world(app.view.missing_line)) == 2
    if cls == "free":
        assert len(world(app.view.missing_line)) == 0


def test_the_gauge_fills_towards_the_lock(app):
    widths = []
    for pitch in (0, 30, 60, 85, 90):
        app.pitch.value = pitch
        html = app.panels["gauge"].value
        start = html.index("gimbal-gauge-fill")
        widths.append(float(html[start:].split("width:")[1].split("%")[0]))
        cost = ("cannot turn the aircraft at all" if pitch == 90 else
                f"takes <b>{1 / app.state.lock_measure:.1f}°</b> of ring motion")
        assert cost in html
    assert widths == sorted(widths) and widths[0] == 0 and widths[-1] == 100


def test_away_from_the_lock_the_three_arrows_point_three_ways(app):
    app.pitch.value = 30
    arrows = np.array([direction(line) for line in app.view.arrow_lines])
    assert abs(np.linalg.det(arrows)) > 0.8
    assert "60.0°</b> apart" in app.panels["gauge"].value
    assert "Three directions" in app.panels["motion"].value


@pytest.mark.parametrize("order", rot.ORDERS)
def test_order_renests_the_rings(app, order):
    app.order.value = order
    names = rot.ring_angle_names(order)
    assert [s.description.split()[0] for s in app.slider_box.children] == list(names)
    for n, slider in enumerate(app.slider_box.children):
        assert slider.style.handle_color == gimbal_module.RING_COLOURS[n]
        assert app.view.ring_labels[n].get_text().startswith(names[n])
    assert parallel(direction(app.view.axis_lines[0]), np.eye(3)["XYZ".index(order[0])])
    axes = rot.gimbal_axes(*app.angles(), order)
    for n in range(3):
        assert parallel(direction(app.view.axis_lines[n]), axes[n])
    np.testing.assert_allclose(app.state.matrix, rot.euler_to_matrix(*app.angles(), order))
    assert f"{names[1]} = ±90°" in app.panels["gauge"].value


def test_changing_the_order_moves_the_lock_but_does_not_remove_it(app):
    app.pitch.value = 90
    assert app.state.badge == "locked"
    app.order.value = "XYZ"  # middle ring is now yaw: pitch 90 is harmless ...
    assert app.state.badge == "free"
    app.yaw.value = 90  # ... but yaw 90 locks it
    assert app.state.badge == "locked"


def test_lock_it_animates_the_middle_ring_over_a_second(app):
    app.lock_button.click()
    assert app.lock_play.playing and app.pitch.value == -20.0   # nothing jumps
    assert app.lock_play.interval * app.lock_play.max == 1000
    path = model.lock_path(-20.0)
    badges = []
    for k in range(1, model.LOCK_FRAMES + 1):   # what the Play in the page sends
        app.lock_play.value = k
        assert app.pitch.value == path[k]
        badges.append(app.state.badge)
    assert app.pitch.value == -90.0 and not app.lock_play.playing
    assert badges[0] == "free" and badges[-1] == "locked" and "near" in badges
    # the middle frame is on its way: neither where it started nor at the lock
    middle = path[model.LOCK_FRAMES // 2]
    assert -90 < middle < -20


def test_each_lock_frame_sends_the_picture_before_the_sliders_value(app, monkeypatch):
    """Issue 41: mid-animation the slider read -84 beside a ring at -82°: the slider's new
    value reached the page before the picture it goes with."""
    sent = []
    send_state, request = app.pitch.send_state, app.painter.request

    def slider_sends(key=None):
        if key is None or "value" in key:
            sent.append("slider")
        send_state(key)

    monkeypatch.setattr(app.pitch, "send_state", slider_sends)
    monkeypatch.setattr(app.painter, "request", lambda: (sent.append("picture"), request()))
    app.lock_button.click()
    for k in range(1, model.LOCK_FRAMES + 1):
        sent.clear()
        app.lock_play.value = k
        if app.pitch.value != model.lock_path(-20.0)[k - 1]:    # the ring moved this frame
            assert sent and sent[0] == "picture" and "slider" in sent, (k, sent)
    assert app.pitch.value == -90.0


def test_lock_it_ends_locked_when_the_pages_echoes_come_late(app):
    """The page's slider sends back each value the kernel set, rounded (-88.99999999999999
    for -89), and the echo of the last frame but one came after the lock: it put the ring
    back to -89 and "Lock it" never locked (a browser test, now and then, for order XYZ)."""
    import math

    def page_sends(value):
        app.pitch.comm.handle_msg({"content": {"data": {
            "method": "update", "state": {"value": value}, "buffer_paths": []}},
            "buffers": []})

    app.lock_button.click()
    for k in range(1, model.LOCK_FRAMES + 1):
        app.lock_play.value = k
    assert app.state.badge == "locked"
    draws = app.draw_count
    path = model.lock_path(-20.0)
    sent = [v for k, v in enumerate(path) if k and v != path[k - 1]]   # what the page got
    for value in sent:                         # every frame's echo, after the last frame
        page_sends(math.nextafter(value, 0.0))
    assert app.pitch.value == -90.0 and app.state.badge == "locked"
    assert app.draw_count == draws and app.last_error is None
    page_sends(-89.0)                          # the learner's own arrow key still works
    assert app.pitch.value == -89.0 and app.state.badge == "near"


def test_lock_animation_stops_when_the_order_changes(app):
    app.lock_button.click()
    app.lock_play.value = 3
    app.order.value = "ZYX"
    app.lock_play.value = 4
    assert not app.lock_play.playing
    assert app.yaw.value == 35.0  # the new middle ring was not touched


def test_in_a_kernel_lock_it_runs_in_its_event_loop_on_the_clock(app):
    """No Play in the page (a round trip for every frame): the kernel draws the frame the
    clock has reached, LOCK_INTERVAL_MS apart, and stops at the lock."""
    import asyncio
    import time

    app._kernel_play = True
    path = model.lock_path(-20.0)
    seen = []
    app.pitch.observe(lambda change: seen.append(change["new"]), names="value")

    async def lock():
        start = time.perf_counter()
        app.lock_button.click()
        assert app._lock_task is not None and not app.lock_play.playing
        assert app.pitch.value == -20.0                    # nothing jumps
        await asyncio.sleep(0)                             # the task's first step
        assert app.pitch.value in path[1:3]                # the click's answer, at once
        await asyncio.wait_for(app._lock_task, timeout=60)
        return time.perf_counter() - start

    draws = app.draw_count
    took = run_async(lock())
    assert app.pitch.value == -90.0 and app.state.badge == "locked"
    assert app._lock_task is None and not app.lock_play.playing
    assert seen and seen[-1] == -90.0 and set(seen) <= set(path)
    assert seen == sorted(seen, reverse=True)              # on its way, never back
    assert 1 <= app.draw_count - draws <= model.LOCK_FRAMES
    assert took >= (model.LOCK_FRAMES - 1) * model.LOCK_INTERVAL_MS / 1000   # its second


def test_in_a_kernel_the_lock_animation_stops_when_the_order_changes(app):
    import asyncio

    app._kernel_play = True

    async def lock_then_change_order():
        app.lock_button.click()
        task = app._lock_task
        await asyncio.sleep(0.12)
        app.order.value = "ZYX"
        moved = app.pitch.value
        await asyncio.wait_for(task, timeout=10)
        return moved

    moved = run_async(lock_then_change_order())
    assert -90.0 < moved < -20.0 and app.pitch.value == moved     # stopped on its way
    assert app.yaw.value == 35.0                       # the new middle ring was not touched
    assert app._lock_task is None


@pytest.mark.parametrize("order", rot.ORDERS)
def test_lock_it_turns_the_middle_ring_to_90(app, order):
    app.order.value = order
    app.lock_it()
    middle = rot.middle_angle_name(order)
    assert abs(app.sliders[middle].value) == 90
    assert app.state.badge == "locked"


def test_reset_restores_angles_order_and_view(app):
    app.order.value = "ZYX"
    app.lock_it()
    app.set_view("top")
    app.lock_button.click()
    app.reset_button.click()
    assert not app.lock_play.playing
    assert app.order.value == "YXZ"
    assert app.angles() == (35.0, -20.0, 15.0)
    assert (app.ax.elev, app.ax.azim) == gimbal_module.VIEWS["3/4"]
    assert [s.description.split()[0] for s in app.slider_box.children] == ["yaw", "pitch",
                                                                          "roll"]


def test_view_buttons(app):
    app.view_buttons["top"].click()
    assert app.ax.elev == 90
    app.view_buttons["side"].click()
    assert (app.ax.elev, app.ax.azim) == gimbal_module.VIEWS["side"]
    app.guard(app.set_view)("upside")
    assert "unknown view" in app.last_error


def _boxes(app):
    app.fig.canvas.draw()
    return ([Bbox.from_extents(*b) for b in app.view.label_boxes()],
            [Bbox.from_extents(*b) for b in app.view.gizmo_boxes()])


@pytest.mark.parametrize(("order", "view"), list(itertools.product(rot.ORDERS,
                                                                   gimbal_module.VIEWS)))
def test_labels_and_world_axes_are_never_clipped_or_on_top_of_each_other(app, order, view):
    fig_box = app.fig.bbox
    for locked in (False, True):
        app.order.value = order
        if locked:
            app.lock_it()
        app.set_view(view)
        labels, gizmo = _boxes(app)
        for box in labels + gizmo:
            assert box.x0 >= 0 and box.y0 >= 0, (order, view, locked)
            assert box.x1 <= fig_box.width and box.y1 <= fig_box.height, (order, view, locked)
        for a, b in itertools.combinations(labels, 2):
            assert not a.overlaps(b), (order, view, locked)
        for a, b in itertools.product(labels, gizmo):
            assert not a.overlaps(b), (order, view, locked)


def test_an_orbit_with_the_mouse_moves_the_world_axes_and_labels(app):
    before = [line.get_xydata().copy() for line in app.view.gizmo_lines]
    app.ax.view_init(elev=-40, azim=120)   # what a drag on the canvas does
    app._on_mouse(None)
    after = [line.get_xydata() for line in app.view.gizmo_lines]
    assert any(not np.allclose(a, b) for a, b in zip(before, after, strict=True))
    labels, gizmo = _boxes(app)
    for box in labels + gizmo:
        assert box.x0 >= 0 and box.y0 >= 0
        assert box.x1 <= app.fig.bbox.width and box.y1 <= app.fig.bbox.height


def test_figure_text_is_at_least_12_px(app):
    app.pitch.value = 90
    texts = [*app.view.ring_labels, *app.view.gizmo_labels]
    for t in texts:
        assert t.get_fontsize() * app.fig.dpi / 72 >= 12


def test_panel_shows_matrix_quaternion_and_article_004s_reading(app):
    app.set_angles(yaw=30, pitch=88, roll=20)
    info = app.panels["info"].value.replace("\u2212", "-")
    q = app.state.quaternion
    assert f"{q.w:+.3f}" in info and f"{q.z:+.3f}" in info
    for row in app.state.matrix:
        for x in row:
            assert (f"{x:+.3f}" if abs(x) >= 5e-4 else "+0.000") in info
    # article 004's code has snapped to 90 and reads yaw 11.0, 2.24 degrees off
    assert app.state.article[1] == 90.0
    assert "article 004's code" in info
    assert ">11.0°<" in info and "off by 2.24°" in info
    assert "yaw = ±2·atan2(y, x)" in info
    assert app.state.readback == pytest.approx((30, 88, 20), abs=1e-9)
    assert "the same numbers as the sliders" in info


def test_readback_differs_when_the_middle_slider_is_beyond_90(app):
    app.set_angles(yaw=0, pitch=120, roll=0)
    yaw, pitch, roll = app.state.readback
    assert pitch == pytest.approx(60) and abs(yaw) == pytest.approx(180)
    assert "a different triple" in app.panels["info"].value


def test_a_failing_callback_shows_a_message_not_a_traceback(app, monkeypatch):
    def broken(*_a, **_k):
        raise ValueError("lock meter broke")

    monkeypatch.setattr(model.rot, "lock_angle", broken)
    app.yaw.value = 12  # must not raise
    assert "lock meter broke" in app.status.value
    assert app.last_error == "lock meter broke"


def test_bad_construction_raises():
    with pytest.raises(ValueError, match="'order' is one of 'XYZ'"):
        GimbalApp(order="XXZ")
    with pytest.raises(ValueError, match="same order"):
        GimbalApp(order="YXZ", target=model.reach_target("ZXY"))
    with pytest.raises(ValueError, match="GimbalApp has none"):
        GimbalApp("locked")                        # the one positional argument is a preset
    with pytest.raises(ValueError, match="has no control tilt"):
        GimbalApp(tilt=3)


def test_show_case_puts_the_app_in_the_exercise_state(app):
    app.show_case(order="ZXY", locked=True)
    assert app.order.value == "ZXY" and app.pitch.value == -90.0
    assert app.state.badge == "locked"
    # the middle (pitch) ring folds into the outer (roll) ring's plane, while the axes that
    # line up are roll's and yaw's
    outer, middle = app.state.planes[0], app.state.planes[1]
    n0, n1 = np.cross(*outer), np.cross(*middle)
    assert parallel(n0 / np.linalg.norm(n0), n1 / np.linalg.norm(n1))
    assert parallel(app.state.axes[0], app.state.axes[2])


# -- reach this orientation ------------------------------------------------------------------
@pytest.fixture
def reach():
    ex = ReachExercise()
    yield ex
    plt.close(ex.app.fig)


def test_reach_exercise_reads_the_sliders(reach):
    app = reach.app
    from lessons_lib.apps.core import iter_widgets

    assert app.state.badge == "locked" and not app.compact     # its own app, not a copy
    assert not any(w is app.panels["info"] for w in iter_widgets(app.widget))  # no numbers
    ghost = app.view.ghost
    assert ghost.get_visible()
    assert not reach.check() and "40.0° from the ghost" in reach.feedback.value
    assert "40.0°</b> to go" in app.panels["target"].value
    assert "no ring alone gets it closer than 40°" in reach.prompt
    # one slider at a time gets no closer
    for name in ("yaw", "pitch", "roll"):
        app.set(**{name: 30.0})
        assert reach.target.error(*app.angles()) >= 40.0 - 1e-6
        reach.restart()
    yaw, pitch, roll = reach.target.angles
    app.set(yaw=yaw, pitch=pitch, roll=roll)
    assert reach.check() and reach.solved
    assert "On the ghost" in reach.feedback.value and "On the ghost" in app.panels["target"].value
    assert "the other two together get no closer than 40°" in reach.feedback.value
    reach.check_button.click()
    assert reach.solved
    reach.restart_button.click()
    assert app.angles() == reach.target.start and reach.feedback.value == ""
    reach.hint_button.click()
    assert "Hint" in reach.feedback.value


@pytest.mark.parametrize("order", rot.ORDERS)
def test_reach_check_grades_the_orientation_drawn_in_every_order(reach, order):
    """Issue 41: the exercise's answer, then the order menu turned: the check and the panel
    measure the aircraft as drawn, in the order shown, not the exercise's own order."""
    app = reach.app
    yaw, pitch, roll = reach.target.angles
    app.set(yaw=yaw, pitch=pitch, roll=roll, order=order)
    drawn = rot.angle_between(app.state.matrix, reach.target.matrix)
    assert app.state.target_error == pytest.approx(drawn, abs=1e-9)
    assert reach.check() == (drawn <= model.REACH_TOL_DEG) == (order == reach.target.order)
    if order != reach.target.order:
        assert f"{fmt_number(drawn, 1)}° from the ghost" in reach.feedback.value
        assert f"order {order}" in reach.feedback.value
        assert "On the ghost" not in app.panels["target"].value
    # the same orientation read in this order reaches the ghost
    answer = [round(a) + 0.0 for a in rot.matrix_to_euler(reach.target.matrix, order)]
    app.set(**dict(zip(("yaw", "pitch", "roll"), answer, strict=True)))
    assert reach.check() and "On the ghost" in app.panels["target"].value
    assert ("All three rings had to move" in reach.feedback.value) == (order == "YXZ")


# -- Fly it: a drag on the aircraft turns it (issue 31) ------------------------------------------

def _mouse(app, name, x, y, held=True):
    from matplotlib.backend_bases import MouseEvent
    event = MouseEvent(name, app.fig.canvas, x, y,
                       button=1 if name != "motion_notify_event" or held else None)
    event.buttons = {1} if held and name != "button_release_event" else set()
    app.fig.canvas.callbacks.process(name, event)


def _drag(app, start, moves):
    """Press at ``start`` (pixels), move by each (dx, dy) in turn, release at the last."""
    x, y = start
    _mouse(app, "button_press_event", x, y)
    for dx, dy in moves:
        x, y = x + dx, y + dy
        _mouse(app, "motion_notify_event", x, y)
    _mouse(app, "button_release_event", x, y, held=False)
    return x, y


def _on_aircraft(app):
    """A pixel on the aircraft's main wing as drawn (the middle of the wing's polygon)."""
    app.fig.canvas.draw()
    wing = app.view.aircraft.get_paths()
    body = max(wing, key=lambda p: len(p.vertices))           # the wing has six corners
    xy = app.ax.transData.transform(body.vertices).mean(axis=0)
    assert app.view.hits_aircraft(*xy)
    return tuple(xy)


def fmt(x):
    return f"{fmt_number(x, 1, sign=True)}°"


def test_a_drag_on_the_aircraft_turns_it_and_the_sliders_follow(app):
    app.fig.canvas.draw()
    start, camera = app.angles(), app.view.camera()
    R, frame = app.state.matrix, app.view.camera_frame()
    moves = [(3, 0), (3, 0), (6, 0), (6, 0)]       # the first is too short to choose alone
    centre = tuple(app.view.centre_px())           # on the fuselage; a drag straight out
    assert app.view.hits_aircraft(*centre)         # from it has no twist about the centre
    _drag(app, centre, moves)
    axis, _ = model.drag_turn(R, frame, 6, 0)
    assert axis == "top"                           # left-right: about the aircraft's top
    # 18 px to the right: about the top, by the drag's part about it (the page's pixels are
    # whole, the centre is not: a hair of twist about the centre, well under 0.05°)
    total = model.drag_turn(R, frame, 18.0, 0.0)[1]
    want = model.fly(start, "top", total)
    assert app.flight.after == pytest.approx(want.after, abs=0.05)
    assert app.angles() == tuple(model.slider_angle(v) for v in app.flight.after) != start
    assert app.view.camera() == camera              # no orbit while turning the aircraft
    assert app.flight.angle == pytest.approx(total, abs=0.05) and app.flight.before == start
    assert f"Turned <b>{fmt(app.flight.angle)} about its fin" in app.panels["fly"].value
    # the orbit is back after the release: a drag off the aircraft moves the camera only
    turned = app.angles()
    corner = (app.fig.bbox.width * 0.95, app.fig.bbox.height * 0.9)
    assert not app.view.hits_aircraft(*corner)
    _drag(app, corner, [(-20, 5), (-20, 5)])
    assert app.view.camera() != camera and app.angles() == turned


def test_a_vertical_drag_turns_about_the_wing_and_the_picked_axis_wins(app):
    app.set(yaw=0, pitch=0, roll=0)
    app.fig.canvas.draw()
    _drag(app, tuple(app.view.centre_px()), [(0, 10)])
    assert app.flight.axis == "wing" and app.pitch.value != 0
    app.set(yaw=0, pitch=0, roll=0, turn_about="nose")
    _drag(app, _on_aircraft(app), [(0, 10)])
    assert app.flight.axis == "nose" and app.roll.value != 0
    assert app.view.camera() == pytest.approx(gimbal_module.VIEWS["3/4"])   # no orbit


def test_rounding_to_the_sliders_never_piles_up_over_a_drag(app):
    start = app.angles()
    for _ in range(40):
        app.turn("wing", 0.7)
    assert app.flight.after == pytest.approx(model.fly(start, "wing", 28.0).after, abs=1e-9)
    assert app.angles() == model.fly(start, "wing", 28.0).shown
    app.yaw.value = 10                   # a slider moves: the next turn starts from it
    assert app.flight is None and app.panels["fly"].value == ""
    moved = app.angles()
    app.turn("wing", 1.0)
    assert app.flight.before == moved


def test_the_reach_exercise_is_flown_by_its_sliders_only():
    exercise = ReachExercise()
    app = exercise.app
    try:
        start = app.angles()
        app.fig.canvas.draw()
        _drag(app, tuple(app.view.centre_px()), [(10, 0), (10, 0)])
        assert app.angles() == start and app.flight is None      # the camera turned instead
        assert app.turn_row not in list(iter_widgets(app.widget))
        with pytest.raises(ValueError, match="sliders only"):
            app.turn("nose", 5)
    finally:
        plt.close(app.fig)


def test_turn_buttons_need_a_picked_axis_and_step_five_degrees(app):
    minus, plus = app.turn_buttons[-1], app.turn_buttons[1]
    assert minus.disabled and plus.disabled and "pick" in plus.tooltip
    app.turn_about.value = "wing"
    assert not plus.disabled
    start = app.angles()
    plus.click()
    assert app.angles() == model.fly(start, "wing", model.TURN_STEP_DEG).shown
    with pytest.raises(ValueError, match="nose, wing or top"):
        app.turn("drag", 5)


def test_near_the_lock_the_panel_says_how_fast_the_outer_and_inner_rings_spin(app):
    app.set(yaw=20, pitch=85, roll=0)
    done = app.turn("top", 1.0)
    rates = flight.ring_rates(*done.after, "top")
    assert done.rates == pytest.approx(rates)
    spin = max(abs(rates[0]), abs(rates[2]))
    assert spin > 10                                   # 1 / cos 85° = 11.5
    text = app.panels["fly"].value
    assert f"yaw {fmt(done.ring_changes[0])}" in text
    assert f"{spin:.1f}×" in text
    for rate in rates:
        assert f"<b>{fmt_number(rate, 1, sign=True)}°</b>" in text


def test_at_the_lock_the_panel_says_which_split_was_taken(app):
    app.lock_it()
    before = app.angles()
    done = app.turn("nose", 4.0)
    assert done.locked
    moved = done.ring_changes
    assert moved[0] == pytest.approx(moved[2]) and moved[0] != 0     # shared evenly
    text = app.panels["fly"].value
    assert "not unique" in text and "shared evenly" in text
    assert f"yaw {fmt(moved[0])}, pitch {fmt(0)}, roll {fmt(moved[2])}" in text
    # a small turn with a part along the lost direction: the outer and inner rings jump
    jump = app.turn("top", 2.0)
    assert not jump.locked and min(abs(jump.ring_changes[0]), abs(jump.ring_changes[2])) > 30
    swing = max(abs(jump.ring_changes[0]), abs(jump.ring_changes[2])) / 2.0
    assert f"swung <b>{swing:.1f}×</b>" in app.panels["fly"].value
    # at the lock no rate makes such a turn: the panel says so (rates at a locked pose)
    locked = model.Flight(order="YXZ", axis="top", angle=1.0, before=before, after=before,
                          shown=before, rates=flight.ring_rates(*before, "top"), locked=True)
    assert np.isinf(locked.rates[0])
    text = gimbal_panel.flight(app.state, locked)
    assert "lost direction" in text and "must jump" in text and "inf" not in text


#: The rooms of issue 29, and 1280x720 at 150 % in a browser window whose own bars take 120 px
ROOMS = {**SCREEN_ROOMS, "853x400": (833, 400)}


@pytest.mark.parametrize("present", [False, True], ids=["normal", "present"])
@pytest.mark.parametrize("room", sorted(ROOMS))
def test_no_figure_text_collides_or_is_cut_in_each_room(app, room, present):
    """Presenter mode at 853x480 drew the figure 310 px wide under the 20 px controls, and
    the world axes' 'X' sat on 'Y up' and on 'Z' (at 853x400 they still did in a 345 px
    figure: the corner had shrunk to 69 px; and at the lock 'yaw 35°' sat on 'pitch −90°',
    a clash once costing a ring label less than three marks near it). Every standard view,
    free and locked."""
    from lessons_lib.apps.core.figure import text_collisions
    from lessons_lib.apps.gimbal.view import VIEWS

    app.present(present)
    app.fit(*ROOMS[room])
    for locked in (False, True):
        if locked:
            app.lock_it()
        for name in VIEWS:
            app.set_view(name)
            assert text_collisions(app.fig) == [], (name, locked, app.fitted)


def test_ring_label_sizes_follow_presenter_modes_dpi(app):
    """The ring labels' boxes were measured once per text: after presenter mode (160 dpi,
    not 116) they were placed with boxes 27 % too small."""
    app.fit(1240, 720)
    app.fig.canvas.draw()
    app.present(True)
    try:
        renderer = app.fig.canvas.get_renderer()
        for t, (x0, _, x1, _) in zip(app.view.ring_labels, app.view.label_boxes(),
                                     strict=True):
            assert x1 - x0 == pytest.approx(t.get_window_extent(renderer).width + 8.0)
    finally:
        app.present(False)
