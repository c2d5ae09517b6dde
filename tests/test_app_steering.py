"""SteeringApp, headless with the ipympl backend: set a control, check what was drawn."""

from __future__ import annotations

from dataclasses import fields
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image

from lessons_lib.apps.steering import CUSTOM, DURATION, FIXED_LONG, PRESETS, SteeringApp
from lessons_lib.steering import SteeringParams
from lessons_lib.tracks import TRACKS, track
from lessons_lib.vehicle import Vehicle, simulate


@pytest.fixture(scope="module")
def app():
    shared = SteeringApp()
    yield shared
    plt.close(shared.fig)


@pytest.fixture(autouse=True)
def close_new_figures():
    """Close the figures a test made (pyplot keeps them alive otherwise)."""
    before = set(plt.get_fignums())
    yield
    for num in set(plt.get_fignums()) - before:
        plt.close(num)


def test_builds_one_figure_with_three_axes_and_a_run(app):
    assert app.widget is not None
    assert len(app.fig.axes) == 3
    assert app.trajectory is not None
    assert app.time.max == app.play.max == len(app.trajectory) - 1
    assert app.trajectory.t[-1] == pytest.approx(DURATION)
    w, h = app.fig.get_size_inches() * app.fig.dpi
    assert w <= 1000 and h <= 560  # leaves room for the side panel at 1280x720
    assert app.last_error is None


def test_every_steering_parameter_has_a_control(app):
    covered = set(app.params_sliders) | {"adaptive_look_ahead", "use_position", "use_heading",
                                         "use_crosstrack"}
    assert covered == {f.name for f in fields(SteeringParams)}
    assert app.params() == SteeringParams()


def test_speed_change_resimulates_and_redraws(app):
    before = app.path_line.get_xydata().copy()
    app.speed.value = 14.0
    after = app.path_line.get_xydata()
    assert app.trajectory.look_ahead[0] == pytest.approx(3.0 + 14.0 * 0.3, rel=0.05)
    assert not np.array_equal(before, after)
    np.testing.assert_allclose(after[:, 0], app.trajectory.x)
    app.speed.value = 10.0


def test_terms_off_draw_zero_lines_and_match_the_simulation():
    app = SteeringApp()
    app.start_offset.value = 2.0
    app.use_crosstrack.value = False
    np.testing.assert_array_equal(app.term_lines["crosstrack"].get_ydata(), 0.0)
    ref = simulate(track("oval"), SteeringParams(use_crosstrack=False), 10.0, DURATION,
                   start_offset=2.0)
    np.testing.assert_allclose(app.trajectory.crosstrack_error, ref.crosstrack_error)
    # the drawn terms add up to the steering before the clamp
    total = sum(app.term_lines[k].get_ydata() for k in ("position", "heading", "crosstrack"))
    np.testing.assert_allclose(total, app.trajectory.steering_unclamped, atol=1e-12)
    np.testing.assert_allclose(app.term_lines["steering"].get_ydata(), app.trajectory.steering)


def test_look_ahead_mode_buttons():
    app = SteeringApp()
    app.mode.value = "Fixed long"
    assert app.params_sliders["fixed_look_ahead"].value == FIXED_LONG
    np.testing.assert_array_equal(app.trajectory.look_ahead, FIXED_LONG)
    app.mode.value = "Fixed short"
    assert app.trajectory.look_ahead.max() < 2.0
    app.mode.value = "Adaptive"
    assert app.params().adaptive_look_ahead


def test_scrubbing_time_moves_every_debug_artist(app):
    k = 400
    app.time.value = k
    tr = app.trajectory
    np.testing.assert_allclose(app.car_patch.get_xy(),
                               Vehicle().outline(tr.x[k], tr.y[k], tr.yaw[k]))
    np.testing.assert_allclose(app.progress_dot.get_xydata()[0], tr.progress_point[k])
    np.testing.assert_allclose(app.target_dot.get_xydata()[0], tr.target[k])
    np.testing.assert_allclose(app.target_line.get_xydata(), [[tr.x[k], tr.y[k]], tr.target[k]])
    np.testing.assert_allclose(app.tangent_arrow.get_offsets()[0], tr.target[k])
    u, v = app.tangent_arrow.U[0], app.tangent_arrow.V[0]
    np.testing.assert_allclose(np.array([u, v]) / np.hypot(u, v), tr.target_direction[k])
    np.testing.assert_allclose(app.offset_arrow.get_offsets()[0], tr.progress_point[k])
    assert app.cursor.get_xdata()[0] == pytest.approx(tr.t[k])
    # the close-up keeps the car and its target in view
    x0, x1 = app.ax_close.get_xlim()
    y0, y1 = app.ax_close.get_ylim()
    for px, py in ((tr.x[k], tr.y[k]), tr.target[k]):
        assert x0 < px < x1 and y0 < py < y1
    assert "t = 6.67 s" in app.time_label.value
    assert "Position Delta" in app.now.value


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_set_every_control_and_reproduce_the_simulation(name):
    app = SteeringApp(preset=name)
    spec = PRESETS[name]
    assert app.preset.value == name
    assert app.track.value == spec["track"]
    assert app.mode.value == spec["mode"]
    assert (app.use_position.value, app.use_heading.value, app.use_crosstrack.value) \
        == spec["terms"]
    ref = simulate(track(spec["track"]), app.params(), spec["speed"], DURATION,
                   start_distance=spec["start"][0], start_offset=spec["start"][1],
                   start_heading_error=spec["start"][2])
    assert app.metrics == pytest.approx(ref.metrics(), nan_ok=True)
    assert app.last_error is None


def test_presets_show_the_articles_scenarios():
    def metrics(name):
        return SteeringApp(preset=name).metrics

    long = SteeringApp(preset="Fixed long look-ahead cuts the corner").trajectory
    assert long.crosstrack_error.min() < -4.0  # cuts inside the left-hand hairpins
    short = metrics("Fixed short look-ahead twitches")
    late = metrics("Adaptive, Position only: turns in late")
    assert short["steering_movement"] > 2.5 * late["steering_movement"]
    offset = metrics("Position + Heading: parallel but offset")
    back = metrics("All three: back to the centre line")
    assert np.isnan(offset["settle_time"]) and back["settle_time"] < 5.0
    assert back["rms_crosstrack"] < 0.5 * offset["rms_crosstrack"]


def test_changing_a_control_after_a_preset_marks_it_custom():
    app = SteeringApp(preset="All three: back to the centre line")
    app.params_sliders["crosstrack_gain"].value = 0.5
    assert app.preset.value == CUSTOM
    assert app.params().crosstrack_gain == 0.5


def test_clicking_the_map_places_the_car_beside_the_spline():
    app = SteeringApp()
    sp = app.spline
    s = 80.0
    t = sp.direction_at(s)
    p = sp.location_at(s) + 1.5 * np.array([t[1], -t[0]])  # 1.5 m right of the road
    event = SimpleNamespace(inaxes=app.ax_map, xdata=p[0], ydata=p[1])
    app._on_press(event)
    assert app.start_distance.value == pytest.approx(s, abs=0.5)
    assert app.start_offset.value == pytest.approx(1.5, abs=0.05)
    assert app.trajectory.crosstrack_error[0] == pytest.approx(1.5, abs=0.1)
    assert app.time.value == 0
    # dragging moves it again; releasing stops
    q = sp.location_at(120.0)
    app._on_motion(SimpleNamespace(inaxes=app.ax_map, xdata=q[0], ydata=q[1]))
    assert app.start_distance.value == pytest.approx(120.0, abs=0.5)
    app._on_release(None)
    app._on_motion(SimpleNamespace(inaxes=app.ax_map, xdata=p[0], ydata=p[1]))
    assert app.start_distance.value == pytest.approx(120.0, abs=0.5)
    # far from the road: clamped, with a friendly note rather than an error
    app.place_car(0.0, 0.0)
    assert abs(app.start_offset.value) == app.start_offset.max
    assert "from the road" in app.status.value and app.last_error is None


@pytest.mark.parametrize("name", list(TRACKS))
def test_every_track_loads_and_runs(name):
    app = SteeringApp()
    app.track.value = name
    assert app.spline.length == pytest.approx(track(name).length)
    assert app.start_distance.max <= app.spline.length
    assert app.last_error is None
    assert app.metrics["rms_crosstrack"] < 0.5
    x0, x1 = app.ax_map.get_xlim()
    assert x0 < app.spline.sample(50)[:, 0].min() and app.spline.sample(50)[:, 0].max() < x1


def test_open_road_end_is_reported():
    app = SteeringApp("open_road")
    app.speed.value = 15.0
    assert app.trajectory.ended
    assert "road ended" in app.numbers.value
    assert app.time.max == len(app.trajectory) - 1


def test_a_failing_callback_shows_a_message_not_a_traceback(monkeypatch):
    app = SteeringApp()

    def broken():
        raise ValueError("the spline exploded")

    monkeypatch.setattr(app, "run", broken)
    app.speed.value = 12.0  # must not raise
    assert "the spline exploded" in app.status.value
    assert app.last_error == "the spline exploded"


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="unknown track"):
        SteeringApp("nurburgring")
    with pytest.raises(ValueError, match="unknown scenario"):
        SteeringApp(preset="drift")
    with pytest.raises(ValueError, match="place the car"):
        SteeringApp().place_car(float("nan"), 0.0)


def test_save_gif(tmp_path):
    app = SteeringApp()
    path = app.save_gif(tmp_path / "run.gif", step=200, dpi=40)
    with Image.open(path) as im:
        frames = list(range(0, app.play.max + 1, 200 * app.play.step))
        assert im.n_frames == len(frames) + (frames[-1] != app.play.max)
    assert app.time.value == 0


# -- the lesson's static figures and the tuning exercise -----------------------------------
@pytest.mark.parametrize("term", ["position", "heading", "crosstrack"])
def test_term_figures_show_the_library_value(term):
    from lessons_lib.apps.steering import _demo_situation, term_figure

    fig = term_figure(term)
    title = fig.axes[0].get_title()
    _, _, _, terms = _demo_situation()
    value = {"position": f"{terms.position_delta:+.1f}°", "heading": f"{terms.heading_delta:+.1f}°",
             "crosstrack": f"{terms.crosstrack_error:+.2f} m"}[term]
    assert value in title
    with pytest.raises(ValueError, match="term must be"):
        term_figure("yaw")


def test_slope_and_run_figures():
    from lessons_lib.apps.steering import run_figure, slope_figure

    fig = slope_figure(0.3)
    assert "16.7°" in fig.axes[0].get_title()  # atan(0.3)
    with pytest.raises(ValueError, match="grade"):
        slope_figure(float("nan"))
    sp = track("s_bend")
    traj = simulate(sp, SteeringParams(), 10.0, 5.0, start_offset=1.0)
    fig = run_figure(traj, sp, title="a run")
    ct_line = fig.axes[1].get_lines()[-1]
    np.testing.assert_allclose(ct_line.get_ydata(), traj.crosstrack_error)


def test_tuning_challenge_starts_unsolved_and_can_be_solved():
    from lessons_lib.apps.steering import TuningChallenge

    challenge = TuningChallenge(track_name="hairpin", speed=12.0, target=0.3, start_offset=2.0)
    assert challenge.check() is False
    assert "Not yet" in challenge.feedback.value
    challenge.check_button.click()  # the button runs the same check, guarded
    assert challenge.solved is False and challenge.last_error is None
    challenge.hint_button.click()
    assert "Hint" in challenge.feedback.value
    # the values the hint points to pass
    for name, value in {"look_ahead_base": 2.0, "look_ahead_speed_factor": 0.2,
                        "heading_weight": 0.85, "max_yaw_delta": 45.0,
                        "crosstrack_gain": 0.25}.items():
        challenge.sliders[name].value = value
    assert challenge.check() is True
    assert challenge.last_metrics["rms_crosstrack"] < 0.3
    assert "Well done" in challenge.feedback.value
