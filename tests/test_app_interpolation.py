"""InterpolationApp headless, through ipympl: set a control, check what was computed and drawn."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
import quaternion

from lessons_lib.apps.interpolation import (
    _FACE_POINTS,
    CUSTOM,
    METHODS,
    NOSE,
    PRESETS,
    InterpolationApp,
)
from lessons_lib.interpolation import angular_speed, euler_lerp, nlerp, slerp
from lessons_lib.rotations import euler_to_quaternion


@pytest.fixture(scope="module")
def app():
    return InterpolationApp()


def same_rotation(q, p, atol=1e-9) -> bool:
    a, b = quaternion.as_float_array(q), quaternion.as_float_array(p)
    return bool(np.allclose(a, b, atol=atol) or np.allclose(a, -b, atol=atol))


def fresh(app, preset="Wide three-axis turn", t=0.5):
    app.long_way.value = False
    app.wrap_euler.value = False
    app.show_up.value = False
    app.preset.value = preset
    app.apply_preset(preset)
    app.t.value = t
    app.clear_message()


def test_builds_one_figure_that_fits_a_projector(app):
    assert app.widget is not None and app.fig.canvas in app.widget.children
    width, height = app.fig.get_size_inches()
    assert width * app.fig.dpi <= 1000 and height * app.fig.dpi <= 440
    assert app.play is not None and app.last_error is None


def test_setting_t_gives_the_three_poses(app):
    fresh(app, t=0.3)
    e0, e1 = PRESETS["Wide three-axis turn"]
    q0, q1 = euler_to_quaternion(*e0), euler_to_quaternion(*e1)
    assert same_rotation(app.current["euler"], euler_lerp(e0, e1, 0.3))
    assert same_rotation(app.current["nlerp"], nlerp(q0, q1, 0.3))
    assert same_rotation(app.current["slerp"], slerp(q0, q1, 0.3))
    # at t = 0.3 of a wide turn the three really differ
    assert not same_rotation(app.current["euler"], app.current["slerp"], atol=1e-2)
    assert not same_rotation(app.current["nlerp"], app.current["slerp"], atol=1e-3)
    assert app.cursor.get_xdata()[0] == pytest.approx(0.3)


def test_the_drawn_aeroplane_is_the_pose(app):
    fresh(app, t=0.7)
    for m in METHODS:
        frame = quaternion.as_rotation_matrix(app.current[m])
        want = app.camera.project(_FACE_POINTS @ frame.T)[..., :2]
        got = np.array([p.vertices[:3] for p in app.bodies[m].get_paths()])
        # same triangles, drawn far to near: compare as sets of faces
        key = lambda a: sorted(map(tuple, np.round(a.reshape(len(a), -1), 9)))  # noqa: E731
        assert key(got) == key(want)
        nose = app.camera.project(frame @ NOSE)[:2]
        np.testing.assert_allclose(np.ravel(app.nose_now[m].get_data()), nose, atol=1e-12)


def test_slerp_nose_path_is_a_circle_about_one_axis_and_euler_is_not(app):
    fresh(app)
    axis_2d = np.array(app.axis_line.get_data()).T
    assert len(axis_2d) == 2
    e0, e1 = PRESETS["Wide three-axis turn"]
    q0, q1 = euler_to_quaternion(*e0), euler_to_quaternion(*e1)
    rel = quaternion.as_float_array(q1 * q0.conjugate())[1:]
    axis = rel / np.linalg.norm(rel)
    np.testing.assert_allclose(app.camera.project(1.1 * axis)[:2], axis_2d[1], atol=1e-12)
    heights = app.noses["slerp"] @ axis
    assert np.ptp(heights) < 1e-9                        # one circle around that axis
    # the Euler path leaves every plane: its points are not coplanar
    centred = app.noses["euler"] - app.noses["euler"].mean(axis=0)
    assert np.linalg.svd(centred, compute_uv=False)[2] > 1e-2


def test_pure_yaw_gives_a_great_circle(app):
    fresh(app, "One axis only: yaw 0° → 120°")
    for m in METHODS:
        np.testing.assert_allclose(app.noses[m][:, 1], 0.0, atol=1e-12)   # the equator
        assert app.totals[m] == pytest.approx(120, rel=1e-6)
    assert "great circle" in app.info.value


def test_wrap_around_totals_and_the_wrap_toggle(app):
    fresh(app, "Wrap-around: yaw -175° → 175°")
    assert app.totals["euler"] == pytest.approx(350, rel=1e-6)
    assert app.totals["slerp"] == pytest.approx(10, rel=1e-6)
    assert app.totals["nlerp"] == pytest.approx(10, rel=1e-6)
    app.wrap_euler.value = True
    assert app.totals["euler"] == pytest.approx(10, rel=1e-6)
    assert app.preset.value == "Wrap-around: yaw -175° → 175°"


def test_long_way_toggle_blends_towards_minus_q(app):
    fresh(app, "Wrap-around: yaw -175° → 175°", t=0.5)
    # yaw -175 and 175 as quaternions: dot = cos(175°) < 0, so the short way uses -q1
    assert "short way: blends to −q₁, 10°" in app.info.value
    minus_q1 = -euler_to_quaternion(175, 0, 0)
    w, x, y, z = quaternion.as_float_array(minus_q1)
    assert f"target used: ({w:+.2f}, {x:+.2f}, {y:+.2f}, {z:+.2f})" in app.info.value
    short_mid = app.current["slerp"]
    app.long_way.value = True
    assert app.totals["slerp"] == pytest.approx(350, rel=1e-6)
    assert app.totals["nlerp"] == pytest.approx(350, rel=1e-6)
    assert app.totals["euler"] == pytest.approx(350, rel=1e-6)   # unaffected
    assert "long way: blends to +q₁, 350°" in app.info.value
    # nearly antipodal quaternions: the long-way nlerp whips round in the middle, and the
    # speed plot says so instead of squashing the other curves flat
    assert max(app.speeds["nlerp"]) > 3 * max(app.speeds["slerp"])
    assert "nlerp peaks at" in app.off_chart.get_text()
    assert app.ax_speed.get_ylim()[1] < max(app.speeds["nlerp"])
    # halfway the long way faces the opposite direction from halfway the short way
    assert not same_rotation(app.current["slerp"], short_mid, atol=1e-3)
    np.testing.assert_allclose(quaternion.as_rotation_matrix(app.current["slerp"]) @ NOSE,
                               -(quaternion.as_rotation_matrix(short_mid) @ NOSE), atol=1e-9)


def test_speed_plot_shows_the_speeds(app):
    fresh(app)
    for m in METHODS:
        x, y = app.speed_lines[m].get_data()
        np.testing.assert_allclose(y, angular_speed(app.paths[m], app.ts))
    slerp_speed = app.speed_lines["slerp"].get_ydata()
    assert np.ptp(slerp_speed) < 1e-6 * slerp_speed[0]
    assert np.ptp(app.speed_lines["nlerp"].get_ydata()) > 1.0
    assert app.ax_speed.get_ylim()[1] > max(np.max(v) for v in app.speeds.values())


def test_play_drives_t_and_the_drawing(app):
    fresh(app, t=0.0)
    before = np.ravel(app.nose_now["slerp"].get_data()).copy()
    app.play.value = 40
    assert app.t.value == pytest.approx(0.4)
    assert app.cursor.get_xdata()[0] == pytest.approx(0.4)
    assert not np.allclose(np.ravel(app.nose_now["slerp"].get_data()), before)


def test_ghosts_appear_as_t_passes_them(app):
    fresh(app, t=0.0)
    one = len(app.ghosts["slerp"].get_segments())
    app.t.value = 1.0
    assert len(app.ghosts["slerp"].get_segments()) == 7 * one


def test_presets_and_sliders_agree(app):
    fresh(app, "Article: yaw and roll together")
    assert [s.value for s in app.end.values()] == [90, 0, 90]
    app.end["pitch"].value = 10
    assert app.preset.value == CUSTOM
    e1 = euler_to_quaternion(90, 10, 90)
    assert same_rotation(app.q1, e1)
    app.preset.value = "End at gimbal lock (pitch 90°)"
    assert [s.value for s in app.end.values()] == [150, 90, 120]
    with pytest.raises(ValueError, match="unknown preset"):
        app.apply_preset("no such preset")


def test_up_vector_paths_toggle(app):
    fresh(app)
    assert not app.up_front["slerp"].get_visible()
    app.show_up.value = True
    assert app.up_front["slerp"].get_visible()
    np.testing.assert_allclose(np.linalg.norm(app.ups["euler"], axis=1), 1.0)


def test_identical_start_and_end_draws_without_error(app):
    fresh(app)
    app.set_orientations((20, 30, 40), (20, 30, 40))
    assert app.last_error is None
    assert all(v == pytest.approx(0, abs=1e-6) for v in app.totals.values())
    assert "nothing to turn" in app.info.value


def test_a_failing_callback_shows_a_message_not_a_traceback(app):
    fresh(app)
    app.order = "XXY"                       # not a permutation of XYZ
    try:
        app.start["yaw"].value = 5           # must not raise
        assert app.last_error and "XYZ" in app.last_error
        assert "lesson-status-error" in app.status.value
    finally:
        app.order = "YXZ"
        app.clear_message()


def test_callbacks_never_create_figures(app):
    fresh(app)
    before = plt.get_fignums()
    app.t.value = 0.2
    app.start["roll"].value = 33
    app.long_way.value = True
    app.preset.value = "Wrap-around: yaw -175° → 175°"
    app.fig.canvas.draw()
    assert plt.get_fignums() == before


def test_save_gif(app, tmp_path):
    fresh(app, t=0.5)
    path = app.save_gif(tmp_path / "blend.gif", step=50)
    from PIL import Image

    with Image.open(path) as gif:
        assert gif.n_frames == 3
    assert app.t.value == pytest.approx(0.5)


def test_cached_static_layer_matches_a_plain_render(app, tmp_path):
    """The live draw pastes pre-rendered frames, titles and ticks; a saved figure draws
    everything the ordinary way. After changes of t, scale and preset they must agree."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fresh(app, "Wide three-axis turn", t=0.3)
    app.fig.canvas.draw()
    for preset in ("Wrap-around: yaw -175° → 175°", "One axis only: yaw 0° → 120°"):
        app.preset.value = preset
        app.long_way.value = not app.long_way.value
        app.t.value = 0.8
        FigureCanvasAgg.draw(app.fig.canvas)
        live = np.asarray(app.fig.canvas.get_renderer().buffer_rgba()).astype(int)
        app.fig.savefig(tmp_path / "plain.png", dpi=app.fig.dpi)
        plain = np.asarray(Image.open(tmp_path / "plain.png").convert("RGBA")).astype(int)
        assert live.shape == plain.shape
        differs = np.any(np.abs(live - plain) > 60, axis=-1)
        assert differs.mean() < 1e-3, f"{differs.sum()} pixels differ after {preset!r}"
    assert all(a.get_animated() for a in app.static.members)


def test_bad_construction_arguments_are_refused_before_any_figure_exists():
    before = plt.get_fignums()
    with pytest.raises(ValueError, match="unknown preset"):
        InterpolationApp(preset="upside down")
    with pytest.raises(ValueError, match="XYZ"):
        InterpolationApp(order="XXZ")
    assert plt.get_fignums() == before
