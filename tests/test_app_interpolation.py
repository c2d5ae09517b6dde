"""InterpolationApp headless, through ipympl: set a control, check what was computed and drawn."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
import quaternion
from scipy.spatial.transform import Rotation, Slerp

from lessons_lib.apps.interpolation import (
    _FACE_POINTS,
    CUSTOM,
    METHODS,
    NOSE,
    PRESETS,
    InterpolationApp,
)
from lessons_lib.apps.interpolation_model import (
    ARTICLE_TRIPLE,
    article_numbers,
    compute,
    describe,
    preset_description,
)
from lessons_lib.apps.interpolation_model import PRESETS as MODEL_PRESETS
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


# -- the model, without widgets, against scipy ------------------------------------------------
def scipy_paths(e0, e1, ts, long_way=False, wrap=False):
    """The three blends built with scipy only: Euler angles through scipy's intrinsic YXZ,
    slerp with scipy's Slerp, nlerp as a normalised lerp of scipy's quaternions."""
    e0, e1 = np.asarray(e0, float), np.asarray(e1, float)
    diff = e1 - e0
    if wrap:
        diff = (diff + 180.0) % 360.0 - 180.0
    euler = Rotation.from_euler("YXZ", e0 + ts[:, None] * diff, degrees=True)
    r0 = Rotation.from_euler("YXZ", e0, degrees=True)
    r1 = Rotation.from_euler("YXZ", e1, degrees=True)
    a, b = r0.as_quat(), r1.as_quat()                    # x, y, z, w
    if (a @ b < 0) != long_way:
        b = -b
    lerp = (1 - ts)[:, None] * a + ts[:, None] * b
    nl = Rotation.from_quat(lerp / np.linalg.norm(lerp, axis=1, keepdims=True))
    # slerp along the great circle from a to b in 4D (scipy's Slerp always goes the short
    # way, so for the long way it is built from the circle through a and b directly)
    omega = np.arccos(np.clip(a @ b, -1, 1))
    sl = Rotation.from_quat(
        (np.sin((1 - ts) * omega)[:, None] * a + np.sin(ts * omega)[:, None] * b)
        / np.sin(omega))
    if not long_way:
        ref = Slerp([0, 1], Rotation.concatenate([r0, r1]))(ts)
        assert np.allclose((ref * sl.inv()).magnitude(), 0, atol=1e-9)
    return {"euler": euler, "nlerp": nl, "slerp": sl}


def scipy_speed(rot: Rotation, ts) -> np.ndarray:
    """Degrees per unit t: central differences inside, one-sided at the ends."""
    speed = np.empty(len(ts))
    speed[1:-1] = np.degrees((rot[2:] * rot[:-2].inv()).magnitude()) / (ts[2:] - ts[:-2])
    speed[0] = np.degrees((rot[1] * rot[0].inv()).magnitude()) / (ts[1] - ts[0])
    speed[-1] = np.degrees((rot[-1] * rot[-2].inv()).magnitude()) / (ts[-1] - ts[-2])
    return speed


def shape_of(speed) -> str:
    """The speed curve's shape, judged independently of SpeedProfile."""
    s = np.asarray(speed)
    spread = np.ptp(s)
    if spread < 0.005 * s.max():
        return "steady"
    step = np.diff(s)
    noise = 0.01 * spread
    peak, low = int(np.argmax(s)), int(np.argmin(s))
    if (step < noise).all():
        return "falls"
    if (step > -noise).all():
        return "rises"
    if (step[:peak] > -noise).all() and (step[peak:] < noise).all():
        return "bulges"
    if (step[:low] < noise).all() and (step[low:] > -noise).all():
        return "dips"
    return "varies"


@pytest.mark.parametrize("name", list(MODEL_PRESETS))
@pytest.mark.parametrize("long_way", [False, True])
def test_model_paths_and_speeds_match_scipy(name, long_way):
    p = MODEL_PRESETS[name]
    state = compute(p.start, p.end, long_way=long_way)
    ref = scipy_paths(p.start, p.end, state.ts, long_way=long_way)
    for m in METHODS:
        ours = Rotation.from_matrix(state.frames[m])
        assert np.degrees((ours * ref[m].inv()).magnitude()).max() < 1e-6, m
        np.testing.assert_allclose(state.speeds[m], scipy_speed(ref[m], state.ts),
                                   rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", list(MODEL_PRESETS))
def test_each_preset_description_matches_the_measured_speeds_and_angles(name):
    """Every number and every speed shape the description states, against scipy."""
    p = MODEL_PRESETS[name]
    state = compute(p.start, p.end)
    text = preset_description(name)
    assert text == describe(state, p.extra)
    ref = scipy_paths(p.start, p.end, state.ts)
    speeds = {m: scipy_speed(ref[m], state.ts) for m in METHODS}
    true = np.degrees((ref["slerp"][-1] * ref["slerp"][0].inv()).magnitude())
    for m in METHODS:
        prof = state.profiles[m]
        assert prof.kind == shape_of(speeds[m]), (m, prof)
        assert prof.start == pytest.approx(speeds[m][0], rel=1e-6)
        assert prof.end == pytest.approx(speeds[m][-1], rel=1e-6)
        assert prof.high == pytest.approx(speeds[m].max(), rel=1e-6)
        assert prof.low == pytest.approx(speeds[m].min(), rel=1e-6)
    euler_total = np.degrees((ref["euler"][1:] * ref["euler"][:-1].inv()).magnitude()).sum()
    digits = 1 if abs(euler_total - true) < 2 else 0
    gap = np.degrees((ref["euler"] * ref["slerp"].inv()).magnitude()).max()
    if gap < 0.05:
        assert f"Euler lerp makes the same {euler_total:.0f}° turn as slerp" in text
    else:
        assert (f"Euler lerp turns {euler_total:.{digits}f}° for a {true:.{digits}f}° change, "
                f"up to {gap:.0f}° off slerp's pose") in text
    assert state.profiles["euler"].sentence() in text
    assert state.profiles["nlerp"].sentence() in text
    # slerp is always steady, nlerp never is over a wide turn
    assert state.profiles["slerp"].kind == "steady"
    if true > 30:
        assert state.profiles["nlerp"].kind == "bulges"
        assert "nlerp keeps slerp's path but not its pace" in text


def test_the_claims_the_issue_found_false_are_gone():
    wide = compute(*[getattr(MODEL_PRESETS["Wide three-axis turn"], k) for k in ("start", "end")])
    # its Euler speed only falls (209 -> 99 in the issue's sampling): no "speeds up"
    assert wide.profiles["euler"].kind == "falls"
    assert wide.profiles["euler"].start > 2 * wide.profiles["euler"].end
    text = preset_description("Wide three-axis turn")
    assert "Euler lerp" in text and "only slows down" in text
    assert "speeds up and slows down" not in text
    one = preset_description("One axis only: yaw 0° → 120°")
    assert "all three agree" not in one
    state = compute((0, 0, 0), (120, 0, 0))
    assert state.profiles["nlerp"].high / state.profiles["nlerp"].low == pytest.approx(
        1 / np.cos(np.radians(30)) ** 2, rel=1e-2)     # 100 -> 133, the 1/cos²(θ/4) law


def test_article_preset_uses_the_article_triples():
    p = MODEL_PRESETS["Article 001: yaw and roll 0° → 45°"]
    state = compute(p.start, p.end)
    # Euler lerp passes the article's R1 and R2 at t = 1/3 and 2/3 (ghosts 2 and 4)
    for ghost, e in ((2, ARTICLE_TRIPLE[0]), (4, ARTICLE_TRIPLE[1]), (6, ARTICLE_TRIPLE[2])):
        want = Rotation.from_euler("YXZ", e, degrees=True).as_matrix()
        np.testing.assert_allclose(state.ghosts["euler"][ghost], want, atol=1e-12)
    r1, r2, r3 = (Rotation.from_euler("YXZ", e, degrees=True) for e in ARTICLE_TRIPLE)
    gap = np.degrees(((r2 * r1) * r3.inv()).magnitude())
    assert gap == pytest.approx(7.74, abs=0.005)       # the angles do not add
    n = article_numbers()
    assert n["composed_gap"] == pytest.approx(gap, abs=1e-9)
    text = preset_description("Article 001: yaw and roll 0° → 45°")
    assert f"R₂·R₁ is {gap:.2f}° away from R₃" in text
    slerp_third = Slerp([0, 1], Rotation.concatenate([Rotation.identity(), r3]))([1 / 3])
    assert f"{np.degrees((slerp_third * r1.inv()).magnitude())[0]:.1f}° from R₁" in text
    # one axis, the article's first triple: here the angles do add
    y1, y2, y3 = (Rotation.from_euler("Y", a, degrees=True) for a in (15, 30, 45))
    assert np.degrees(((y2 * y1) * y3.inv()).magnitude()) < 1e-9


def test_lock_preset_second_name_is_computed():
    p = MODEL_PRESETS["End at gimbal lock (pitch 90°)"]
    text = preset_description("End at gimbal lock (pitch 90°)")
    assert "same orientation as (30°, 90°, 0°)" in text
    other = compute(p.start, (30, 90, 0))
    same = compute(p.start, p.end)
    assert other.true_angle == pytest.approx(same.true_angle, abs=1e-9)
    assert f"Euler lerp turns {other.totals['euler']:.0f}° instead of " \
           f"{same.totals['euler']:.0f}°" in text


@pytest.mark.parametrize("name", list(MODEL_PRESETS))
def test_long_way_always_takes_the_far_copy(name):
    """The toggle used to do nothing when q0·q1 > 0; now it always turns 360° − θ."""
    p = MODEL_PRESETS[name]
    short, long_ = compute(p.start, p.end), compute(p.start, p.end, long_way=True)
    assert short.slerp_angle == pytest.approx(short.true_angle)
    assert long_.slerp_angle == pytest.approx(360 - short.true_angle)
    for m in ("nlerp", "slerp"):
        assert short.totals[m] == pytest.approx(short.true_angle, abs=1e-6)
        assert long_.totals[m] == pytest.approx(360 - short.true_angle, abs=1e-6)
    assert long_.totals["euler"] == short.totals["euler"]          # angles, not quaternions
    a, b = (quaternion.as_float_array(q) for q in (long_.q0, long_.target))
    assert a @ b <= 0
    assert long_.target_sign != short.target_sign
    note = long_.long_way_note()
    assert f"turn {360 - short.true_angle:.0f}° instead" in note
    assert "Euler lerp blends angles, not quaternions" in note
    assert f"heads for {short.other_sign} instead" in short.long_way_note()


def test_long_way_edge_cases():
    same, full = compute((20, 30, 40), (20, 30, 40)), compute((20, 30, 40), (20, 30, 40),
                                                               long_way=True)
    assert same.totals["slerp"] == pytest.approx(0, abs=1e-6) and same.plane is None
    assert full.totals["slerp"] == pytest.approx(360, abs=1e-6)
    assert "full 360° turn" in full.long_way_note() and full.plane is not None
    half = compute((0, 0, 0), (180, 0, 0))
    half_long = compute((0, 0, 0), (180, 0, 0), long_way=True)
    assert half.totals["slerp"] == pytest.approx(180) == half_long.totals["slerp"]
    assert "turns the other way round" in half.long_way_note()
    mid = [quaternion.as_rotation_matrix(s.pose("slerp", 0.5)) @ NOSE for s in (half, half_long)]
    np.testing.assert_allclose(mid[0], -mid[1], atol=1e-12)       # opposite senses


def test_wrap_note_says_when_wrapping_changes_nothing():
    wide = compute((30, -20, 10), (150, 70, 120))
    assert wide.wrap_changes == () and "changes nothing here" in wide.wrap_note()
    assert compute((30, -20, 10), (150, 70, 120), wrap_euler=True).totals["euler"] == \
        pytest.approx(wide.totals["euler"])
    wrap = compute((-175, 0, 0), (175, 0, 0))
    assert wrap.wrap_changes == (("yaw", 350.0, -10.0),)
    assert "yaw's +350° into −10°" in wrap.wrap_note()


@pytest.mark.parametrize("name", list(MODEL_PRESETS))
@pytest.mark.parametrize("long_way", [False, True])
def test_the_4d_plane_holds_the_chord_and_the_arc(name, long_way):
    p = MODEL_PRESETS[name]
    state = compute(p.start, p.end, long_way=long_way)
    plane = state.plane
    a = quaternion.as_float_array(state.q0)
    b = quaternion.as_float_array(state.target)
    np.testing.assert_allclose(plane.basis @ plane.basis.T, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(plane.coords(a), [1, 0], atol=1e-12)
    np.testing.assert_allclose(plane.target, plane.coords(b), atol=1e-12)
    np.testing.assert_allclose(plane.other, -plane.target, atol=1e-12)
    # slerp and nlerp stay in the plane, on its unit circle; the chord is a straight line
    for m in ("slerp", "nlerp"):
        q = quaternion.as_float_array(state.paths[m])
        np.testing.assert_allclose(plane.coords(q) @ plane.basis, q, atol=1e-9)
        np.testing.assert_allclose(np.linalg.norm(getattr(plane, m), axis=1), 1, atol=1e-9)
    chord = plane.chord
    np.testing.assert_allclose(chord, (1 - state.ts)[:, None] * [1, 0]
                               + state.ts[:, None] * plane.target, atol=1e-12)
    # nlerp is the chord pushed out radially; slerp's angle grows steadily
    np.testing.assert_allclose(plane.nlerp, chord / np.linalg.norm(chord, axis=1,
                                                                   keepdims=True), atol=1e-9)
    angles = np.unwrap(np.arctan2(plane.slerp[:, 1], plane.slerp[:, 0]))
    np.testing.assert_allclose(np.degrees(angles), state.ts * plane.omega, atol=1e-7)
    assert plane.omega == pytest.approx(state.slerp_angle / 2, abs=1e-9)
    assert plane.shortest_chord == pytest.approx(np.cos(np.radians(plane.omega / 2)),
                                                 abs=1e-3)


def test_model_refuses_bad_input_and_is_read_only():
    with pytest.raises(ValueError, match="XYZ"):
        compute((0, 0, 0), (1, 2, 3), order="XXY")
    with pytest.raises(ValueError, match="(?i)nan|finite"):
        compute((0, float("nan"), 0), (1, 2, 3))
    with pytest.raises(ValueError, match="unknown preset"):
        preset_description("upside down")
    state = compute((0, 0, 0), (10, 20, 30))
    with pytest.raises(ValueError):
        state.speeds["slerp"][0] = 1.0
    with pytest.raises(AttributeError):
        state.long_way = True
