"""GimbalApp headless, through ipympl: set a control, check what was drawn."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lessons_lib import rotations as rot
from lessons_lib.apps import GimbalApp
from lessons_lib.apps import gimbal as gimbal_module


def world(line):
    """A Line3D's points back in world coordinates (the app draws world (x, y, z) at
    matplotlib's (z, x, y), so that Y is up)."""
    px, py, pz = (np.asarray(a, dtype=float) for a in line.get_data_3d())
    return np.stack([py, pz, px], axis=-1)


def direction(line):
    pts = world(line)
    d = pts[-1] - pts[0]
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
    assert len(app.ring_lines) == len(app.axis_lines) == len(app.trace_lines) == 3
    assert [s.description for s in app.slider_box.children] == ["yaw (Y)", "pitch (X)",
                                                               "roll (Z)"]
    assert app.angles() == (35.0, -20.0, 15.0)
    assert "LOCKED" not in app.lock_badge.value
    assert app.last_error is None


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


def test_drawn_rings_and_axes_follow_the_angles(app):
    app.set_angles(yaw=40, pitch=25, roll=-60)
    R = rot.euler_to_matrix(40, 25, -60)
    np.testing.assert_allclose(app.state["matrix"], R, atol=1e-15)
    axes = rot.gimbal_axes(40, 25, -60)
    for n in range(3):
        assert parallel(direction(app.axis_lines[n]), axes[n])
        # each ring is a circle of its radius around the origin, turning about a diameter
        # (its own axis), and carrying the next ring's pivots (its plane holds that axis)
        pts = world(app.ring_lines[n])
        r = gimbal_module.RING_RADII[n]
        np.testing.assert_allclose(np.linalg.norm(pts, axis=1), r)
        np.testing.assert_allclose(pts[0], r * axes[n], atol=1e-12)
        normal = np.cross(pts[0], pts[len(pts) // 4])
        assert abs(normal @ axes[n]) < 1e-12
        if n < 2:
            assert abs(normal @ axes[n + 1]) < 1e-12
    # the aircraft turns with the inner ring: its fin tip is where R puts it
    tip = world(app.fin_marker)[0]
    np.testing.assert_allclose(tip, R @ gimbal_module.FIN_TIP, atol=1e-15)
    assert app.ring_labels[1].get_text() == "pitch 25°"


def test_pitch_90_locks_yxz(app):
    app.pitch.value = 90
    assert "LOCKED" in app.lock_badge.value
    assert app.state["locked"] and "GIMBAL LOCK" in app.title.value
    assert "yaw and roll now turn about the same axis" in app.title.value
    # the outer and inner axes as drawn are the same line
    assert parallel(direction(app.axis_lines[0]), direction(app.axis_lines[2]))
    assert not parallel(direction(app.axis_lines[0]), direction(app.axis_lines[1]), 1e-3)
    # and turning either ring moves the fin tip along the same circle (the traces run the
    # same line, here in opposite senses): same height on the shared axis, same radius
    axis = direction(app.axis_lines[0])
    outer, inner = world(app.trace_lines[0]), world(app.trace_lines[2])
    heights = np.concatenate([outer @ axis, inner @ axis])
    np.testing.assert_allclose(heights, heights[0], atol=1e-12)
    radii = np.linalg.norm(np.concatenate([outer, inner]) - heights[:, None] * axis, axis=1)
    np.testing.assert_allclose(radii, radii[0], atol=1e-12)
    v_outer, v_inner = app.state["fin_velocities"][[0, 2]]
    assert parallel(v_outer / np.linalg.norm(v_outer), v_inner / np.linalg.norm(v_inner))
    assert app.state["trace_gap"] < 1e-6
    assert "the same motion" in app.info.value
    # the matrix forgets which of yaw and roll did it: read back, roll is 0
    yaw, pitch, roll = app.state["readback"]
    assert (pitch, roll) == (90.0, 0.0)
    assert yaw == pytest.approx(35.0 - 15.0)
    assert "a different triple, the same orientation" in app.info.value


def test_away_from_the_lock_the_traces_and_axes_differ(app):
    app.pitch.value = 30
    assert "LOCKED" not in app.lock_badge.value
    assert "GIMBAL LOCK" not in app.title.value
    a0, a2 = direction(app.axis_lines[0]), direction(app.axis_lines[2])
    assert np.degrees(np.arccos(abs(a0 @ a2))) == pytest.approx(60.0)
    assert "60.0° apart" in app.lock_badge.value
    assert app.state["trace_gap"] > 10
    outer, inner = world(app.trace_lines[0]), world(app.trace_lines[2])
    assert np.ptp(np.concatenate([outer @ a0, inner @ a0])) > 0.05  # not one circle
    app.pitch.value = 80
    assert "nearly locked" in app.lock_badge.value
    app.pitch.value = -89
    assert "LOCKED" in app.lock_badge.value


@pytest.mark.parametrize("order", rot.ORDERS)
def test_order_renests_the_rings(app, order):
    app.order.value = order
    names = rot.ring_angle_names(order)
    assert [s.description.split()[0] for s in app.slider_box.children] == list(names)
    for n, slider in enumerate(app.slider_box.children):
        assert slider.style.handle_color == gimbal_module.RING_COLOURS[n]
        assert app.ring_labels[n].get_text().startswith(names[n])
    # the outer ring's axis is the world axis named first; the others follow the product
    assert parallel(direction(app.axis_lines[0]), np.eye(3)["XYZ".index(order[0])])
    axes = rot.gimbal_axes(*app.angles(), order)
    for n in range(3):
        assert parallel(direction(app.axis_lines[n]), axes[n])
    np.testing.assert_allclose(app.state["matrix"], rot.euler_to_matrix(*app.angles(), order))
    assert f"{names[1]} = ±90°" in app.lock_badge.value


def test_changing_the_order_moves_the_lock_but_does_not_remove_it(app):
    app.pitch.value = 90
    assert app.state["locked"]
    app.order.value = "XYZ"  # middle ring is now yaw: pitch 90 is harmless ...
    assert not app.state["locked"]
    app.yaw.value = 90  # ... but yaw 90 locks it
    assert app.state["locked"]
    assert parallel(direction(app.axis_lines[0]), direction(app.axis_lines[2]))


@pytest.mark.parametrize("order", rot.ORDERS)
def test_lock_it_turns_the_middle_ring_to_90(app, order):
    app.order.value = order
    app.lock_button.click()
    middle = rot.middle_angle_name(order)
    assert app.sliders[middle].value == 90
    assert app.state["locked"]
    assert "LOCKED" in app.lock_badge.value


def test_reset_restores_angles_order_and_view(app):
    app.order.value = "ZYX"
    app.lock_button.click()
    app.set_view("top")
    app.reset_button.click()
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


def test_panel_shows_matrix_quaternion_and_the_naive_error(app):
    app.set_angles(yaw=30, pitch=88, roll=20)
    q = app.state["quaternion"]
    assert f"{q.w:+.3f}" in app.info.value and f"{q.z:+.3f}" in app.info.value
    for row in app.state["matrix"]:
        for x in row:
            assert (f"{x:+.3f}" if abs(x) >= 5e-4 else "+0.000") in app.info.value
    # the naive recipe has snapped to 90 and is about 2 degrees off; the exact one is not
    assert app.state["naive"][1] == 90.0
    assert 1.5 < app.state["naive_error"] < 2.6
    assert f"off by {app.state['naive_error']:.2f}°" in app.info.value
    assert app.state["readback"] == pytest.approx((30, 88, 20), abs=1e-9)
    assert "the same numbers as the sliders" in app.info.value


def test_readback_differs_when_the_middle_slider_is_beyond_90(app):
    app.set_angles(yaw=0, pitch=120, roll=0)
    yaw, pitch, roll = app.state["readback"]
    assert pitch == pytest.approx(60) and abs(yaw) == pytest.approx(180)
    assert "a different triple" in app.info.value


def test_a_failing_callback_shows_a_message_not_a_traceback(app, monkeypatch):
    def broken(*_a, **_k):
        raise ValueError("lock meter broke")

    monkeypatch.setattr(gimbal_module.rot, "lock_angle", broken)
    app.yaw.value = 12  # must not raise
    assert "lock meter broke" in app.status.value
    assert app.last_error == "lock meter broke"


def test_a_bare_app_at_the_end_of_a_cell_displays_its_widget(app, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    app._ipython_display_()
    assert shown == [app.widget]


def test_bad_order_at_construction_raises():
    with pytest.raises(ValueError, match="permutation"):
        GimbalApp(order="XXZ")
