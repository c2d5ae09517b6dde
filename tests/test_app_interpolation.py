"""Lesson 2: the model against scipy, without widgets; then InterpolationApp headless through
ipympl: set a control, check what was computed, drawn and said."""

from __future__ import annotations

import html
import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
import quaternion
from matplotlib.backend_bases import MouseEvent
from matplotlib.text import Text
from rooms import ROOMS as ALL_ROOMS
from scipy.spatial.transform import Rotation, Slerp

from lessons_lib.apps import InterpolationApp as Exported
from lessons_lib.apps.core import iter_widgets
from lessons_lib.apps.core.figure import text_collisions
from lessons_lib.apps.core.text import fmt_number
from lessons_lib.apps.interpolation import METHODS, NOSE, InterpolationApp
from lessons_lib.apps.interpolation.model import (
    ARTICLE_TRIPLE,
    GHOSTS,
    LABELS,
    article_numbers,
    compute,
    describe,
    moment,
    preset_description,
)
from lessons_lib.apps.interpolation.model import PRESETS as MODEL_PRESETS
from lessons_lib.apps.interpolation.panel import STAGE_CHARS, stage
from lessons_lib.apps.interpolation.view import (
    FACE_POINTS,
    FIG_SIZE,
    NARROW_IN,
    STYLES,
    plane_display,
)
from lessons_lib.flight import aim_nose
from lessons_lib.i18n import set_language
from lessons_lib.interpolation import angle_between, angular_speed, euler_lerp, nlerp, slerp
from lessons_lib.rotations import euler_to_matrix, euler_to_quaternion

WIDE = "Wide three-axis turn"
WRAP = "Wrap-around: yaw −175° → 175°"
ONE_AXIS = "One axis only: yaw 0° → 120°"
ARTICLE = "Article 001: yaw and roll 0° → 45°"
LOCK = "End at gimbal lock (pitch 90°)"


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
    """Degrees per unit t: central differences inside; at each end, the first two steps'
    speeds (each the speed halfway along its step) extended in a line to the end."""
    speed = np.empty(len(ts))
    speed[1:-1] = np.degrees((rot[2:] * rot[:-2].inv()).magnitude()) / (ts[2:] - ts[:-2])
    steps = np.degrees((rot[1:] * rot[:-1].inv()).magnitude()) / np.diff(ts)
    half = np.diff(ts) / 2
    for end, (a, b), (ha, hb) in ((0, steps[:2], half[:2]), (-1, steps[::-1][:2], half[::-1][:2])):
        speed[end] = max(0.0, a + (a - b) * ha / (ha + hb))
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
    wide = compute(*[getattr(MODEL_PRESETS[WIDE], k) for k in ("start", "end")])
    # its Euler speed only falls (209 -> 99): no "speeds up"
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


# -- the app ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def app():
    a = InterpolationApp()
    yield a
    plt.close(a.fig)


def same_rotation(q, p, atol=1e-9) -> bool:
    a, b = quaternion.as_float_array(q), quaternion.as_float_array(p)
    return bool(np.allclose(a, b, atol=atol) or np.allclose(a, -b, atol=atol))


def fresh(app, preset=WIDE, t=0.5):
    app.set(long_way=False, wrap_euler=False, show_up=False)
    app.apply_preset(preset)
    app.t.value = t
    app.clear_message()


def test_exported_name_and_one_figure_that_fits_jupyterlab(app):
    assert Exported is InterpolationApp
    assert app.widget is not None and app.last_error is None
    width, height = app.fig.get_size_inches() * app.fig.dpi
    assert (width, height) == pytest.approx((FIG_SIZE[0] * 100, FIG_SIZE[1] * 100))
    assert width <= 840 and height <= 480          # JupyterLab's column with the file browser
    # no text in the figure under 9 pt (12.5 px at 100 dpi)
    sizes = [t.get_fontsize() for t in app.fig.findobj(Text) if t.get_text()]
    assert sizes and min(sizes) >= 9


def test_starts_at_the_end_so_play_runs_the_whole_blend(app):
    fresh(app, t=1.0)
    assert app.t.value == 1.0
    app.play_button.value = True                   # Play at the end starts from the start
    try:
        assert app.t.value == 0.0 and app.play.playing
    finally:
        app.play_button.value = False
    assert not app.play.playing


def test_scrubbing_t_redraws_but_never_recomputes(app):
    fresh(app, t=0.2)
    computed, drawn = app.compute_count, app.draw_count
    paths = app.state.paths["slerp"]
    for t in (0.3, 0.55, 0.9):
        app.t.value = t
    assert app.compute_count == computed and app.draw_count == drawn + 3
    assert app.state.paths["slerp"] is paths
    app.yaw1.value = 140
    assert app.compute_count == computed + 1


def test_a_new_speed_scale_repaints_the_speed_plots_tick_labels(app):
    """The speed plot's ticks are pasted by the static layer by scale: a change of scale
    between two partial redraws left the old numbers beside the new curves (0.13 % of the
    pixels, under the painter tests' tolerance; seen as 0/100/200 beside a 350°/t line)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fresh(app, t=1.0)
    painter = app.painter
    painter.render()
    tops = set()
    for change in ({"long_way": True}, {"long_way": False}, *MODEL_PRESETS, WIDE):
        if isinstance(change, dict):
            app.set(**change)
        else:
            app.apply_preset(change)
        tops.add(app.view.ax_speed.get_ylim()[1])
        painter.render()
        fast = np.asarray(app.fig.canvas.get_renderer().buffer_rgba()).copy()
        FigureCanvasAgg.draw(app.fig.canvas)
        whole = np.asarray(app.fig.canvas.get_renderer().buffer_rgba())
        assert np.any(fast != whole, axis=2).sum() <= 20, (change, tops)
        painter.render()
    assert len(tops) >= 3


def test_the_ghosts_drawn_are_the_current_blends_after_a_new_orientation(app):
    """The ghosts are set only when t passes one; a new start or end at the same t must
    still replace them (the same count of ghosts, other poses)."""
    fresh(app, t=0.6)
    app.yaw0.value = app.yaw0.value + 25
    passed = GHOSTS <= 0.6 + 1e-9
    for m in METHODS:
        want = [seg for g in app.state.ghosts[m][passed] for seg in app.view.outline(g)]
        got = app.view.ghosts[m].get_segments()
        assert len(got) == len(want) > 0
        assert all(np.allclose(a, b) for a, b in zip(got, want, strict=True)), m


def test_scrubbing_t_redraws_only_what_moves_even_with_a_nose_behind_the_sphere(app):
    """A nose marker behind the sphere lies under the paths: once it went into the cached
    background, and every frame re-rendered the sphere's axes (34 ms a frame); one that
    came out of it from the front was missing (160 pixels)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fresh(app, t=0.0)
    painter = app.painter
    painter.render()
    full, partial, fast = painter.full_draws, painter.partial_draws, painter.fast_draws
    behind, ghosts = [], []
    sweep = np.round(np.linspace(0.05, 1.0, 20), 2)
    for t in (*sweep, *sweep[::-1][1:], 0.0):      # there and back
        app.t.value = float(t)
        behind.append(min(d.get_zorder() for d in app.view.nose_now.values()) < 5)
        ghosts.append(int(np.sum(GHOSTS <= t + 1e-9)))
        painter.render()
        fast_pixels = np.asarray(app.fig.canvas.get_renderer().buffer_rgba()).copy()
        FigureCanvasAgg.draw(app.fig.canvas)
        whole = np.asarray(app.fig.canvas.get_renderer().buffer_rgba())
        assert np.any(fast_pixels != whole, axis=2).sum() <= 20, t   # antialiased edges
        painter.render()                          # back on the painter's cache
    assert any(behind) and not all(behind)        # the markers go behind on the way
    switches = sum(a != b for a, b in zip([False, *behind], behind, strict=False))
    # the ghosts are in the background too: the three panels are re-rendered as t passes one
    switches += sum(a != b for a, b in zip([1, *ghosts], ghosts, strict=False))
    assert painter.full_draws == full
    assert painter.partial_draws - partial <= switches
    assert painter.fast_draws - fast >= 2 * len(behind) - switches


def test_setting_t_gives_the_three_poses(app):
    fresh(app, t=0.3)
    e0, e1 = MODEL_PRESETS[WIDE].start, MODEL_PRESETS[WIDE].end
    q0, q1 = euler_to_quaternion(*e0), euler_to_quaternion(*e1)
    assert same_rotation(app.current["euler"], euler_lerp(e0, e1, 0.3))
    assert same_rotation(app.current["nlerp"], nlerp(q0, q1, 0.3))
    assert same_rotation(app.current["slerp"], slerp(q0, q1, 0.3))
    assert not same_rotation(app.current["euler"], app.current["slerp"], atol=1e-2)
    assert not same_rotation(app.current["nlerp"], app.current["slerp"], atol=1e-3)
    assert app.view.cursor.get_xdata()[0] == pytest.approx(0.3)


def test_the_drawn_aeroplane_is_the_pose(app):
    fresh(app, t=0.7)
    view = app.view
    for m in METHODS:
        frame = quaternion.as_rotation_matrix(app.current[m])
        want = view.camera.project(FACE_POINTS @ frame.T)[..., :2]
        got = np.array([p.vertices[:3] for p in view.bodies[m].get_paths()])
        key = lambda a: sorted(map(tuple, np.round(a.reshape(len(a), -1), 9)))  # noqa: E731
        assert key(got) == key(want)
        nose = view.camera.project(frame @ NOSE)[:2]
        np.testing.assert_allclose(np.ravel(view.nose_now[m].get_data()), nose, atol=1e-12)
        moved = np.degrees((Rotation.from_matrix(frame) * Rotation.from_matrix(
            app.state.frames[m][0]).inv()).magnitude())
        assert view.readouts[m].get_text().startswith(f"{moved:.0f}° from start")


def test_the_aeroplane_reads_as_one_and_fills_its_panel(app):
    """Issue 41: the aeroplanes were two triangles and a fin 1 px wide, 96 px across in a
    155 px panel at 1280x720. Now a fuselage, wings, a tailplane and a fin, 111 px across."""
    from lessons_lib.apps.interpolation.view import FACES

    parts = {name for name, _points, _colour in FACES}
    assert parts == {"fuselage", "left wing", "right wing", "fin"}
    tail = [p for name, p, _c in FACES if name == "left wing" and p[:, 2].max() < -0.5]
    assert tail, "no tailplane"
    try:
        app.fit(*ROOMS["1280x720"])
        fresh(app, WIDE, t=0.0)
        app.fig.canvas.draw()
        for m in METHODS:
            ax = app.view.planes.ax[m]
            pts = ax.transData.transform(
                np.concatenate([p.vertices for p in app.view.bodies[m].get_paths()]))
            frame = ax.get_window_extent()
            assert np.ptp(pts[:, 0]) >= 0.68 * frame.width, (m, np.ptp(pts[:, 0]))
            frame_now = app.state.frames[m][0]
            fin = ax.transData.transform(
                app.view.camera.project(FACE_POINTS[-1] @ frame_now.T)[:, :2])
            (x0, y0), (x1, y1), (x2, y2) = fin
            area = abs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)) / 2
            assert area >= 40, (m, area)                  # px², the fin seen from the side
    finally:
        app.fit(*ROOMS["1280x720"])


def test_slerp_nose_path_is_a_circle_about_one_axis_and_euler_is_not(app):
    fresh(app)
    axis_2d = np.array(app.view.axis_line.get_data()).T
    e0, e1 = MODEL_PRESETS[WIDE].start, MODEL_PRESETS[WIDE].end
    q0, q1 = euler_to_quaternion(*e0), euler_to_quaternion(*e1)
    rel = quaternion.as_float_array(q1 * q0.conjugate())[1:]
    axis = rel / np.linalg.norm(rel)
    np.testing.assert_allclose(app.camera.project(1.1 * axis)[:2], axis_2d[1], atol=1e-12)
    assert np.ptp(app.state.noses["slerp"] @ axis) < 1e-9
    centred = app.state.noses["euler"] - app.state.noses["euler"].mean(axis=0)
    assert np.linalg.svd(centred, compute_uv=False)[2] > 1e-2


def test_pure_yaw_gives_a_great_circle(app):
    fresh(app, ONE_AXIS)
    for m in METHODS:
        np.testing.assert_allclose(app.state.noses[m][:, 1], 0.0, atol=1e-12)
        assert app.state.totals[m] == pytest.approx(120, rel=1e-6)
    assert "great circle" in app.panels["info"].value


def test_wrap_toggle_and_what_it_says(app):
    fresh(app, WRAP)
    assert app.state.totals["euler"] == pytest.approx(350, rel=1e-6)
    assert app.state.totals["slerp"] == pytest.approx(10, rel=1e-6)
    assert "would turn yaw&#x27;s +350° into −10°" in app.panels["info"].value
    app.wrap_euler.value = True
    assert app.state.totals["euler"] == pytest.approx(10, rel=1e-6)
    assert app.preset.value == WRAP                 # a toggle keeps the preset
    fresh(app, WIDE)
    app.wrap_euler.value = True
    assert "changes nothing here" in app.panels["info"].value


@pytest.mark.parametrize("preset", list(MODEL_PRESETS))
def test_long_way_changes_the_picture_for_every_preset(app, preset):
    """It used to change no pixel when q0·q1 > 0; now it draws the 360° − θ turn."""
    fresh(app, preset, t=0.5)
    before = np.array(app.view.nose_front["slerp"].get_data())
    arc_before = np.array(app.view.arc.get_data())
    true = app.state.true_angle
    app.long_way.value = True
    after = np.array(app.view.nose_front["slerp"].get_data())
    assert not np.allclose(np.nan_to_num(before), np.nan_to_num(after))
    assert not np.allclose(arc_before, np.array(app.view.arc.get_data()))
    assert app.state.totals["slerp"] == pytest.approx(360 - true, abs=1e-6)
    info = app.panels["info"].value
    assert f"slerp {360 - true:.0f}°" in app.panels["turned"].value
    assert f"turn {360 - true:.0f}° instead" in info
    assert "Euler lerp blends angles, not quaternions" in info


def test_long_way_speed_plot_says_what_is_off_the_chart(app):
    fresh(app, WRAP)
    app.long_way.value = True
    speeds = app.state.speeds
    assert max(speeds["nlerp"]) > 3 * max(speeds["slerp"])
    assert "nlerp peaks at" in app.view.off_chart.get_text()
    assert app.view.ax_speed.get_ylim()[1] < max(speeds["nlerp"])
    # the note is in the picture, clear of the legend and of the title (it once touched the
    # legend's "slerp" at 1280x720)
    fig = app.view.fig
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    note = app.view.off_chart.get_window_extent(renderer)
    title = app.view.ax_speed.title.get_window_extent(renderer)
    assert note.x1 <= fig.bbox.x1 and note.y1 <= fig.bbox.y1
    for label in app.view.legend.get_texts():
        box = label.get_window_extent(renderer)
        assert not note.overlaps(box), (label.get_text(), note, box)
    assert not note.overlaps(title), (note, title)


def test_speed_plot_shows_the_speeds_in_distinct_styles(app):
    fresh(app, ONE_AXIS)
    lines = app.view.speed_lines
    for m in METHODS:
        np.testing.assert_allclose(lines[m].get_ydata(), angular_speed(app.state.paths[m],
                                                                       app.state.ts))
    # Euler lerp and slerp coincide here: different dash patterns and widths keep both seen
    np.testing.assert_allclose(lines["euler"].get_ydata(), lines["slerp"].get_ydata(),
                               rtol=1e-6)
    # (matplotlib names every custom dash "--"; the dash pattern itself tells them apart)
    assert len({str(lines[m]._unscaled_dash_pattern) for m in METHODS}) == 3
    assert lines["euler"].get_linewidth() > lines["slerp"].get_linewidth()
    assert lines["slerp"].get_zorder() > lines["euler"].get_zorder()
    assert {m: STYLES[m]["lw"] for m in METHODS} == {m: lines[m].get_linewidth()
                                                      for m in METHODS}
    labels = [t.get_text() for t in app.view.legend.get_texts()]
    assert labels == ["Euler lerp", "nlerp", "slerp"]


def test_jupyterlabs_narrow_figure_keeps_the_speed_plots_legend(app):
    """Issue 41: in JupyterLab's column the figure takes the narrow arrangement, and the
    speed plot lost its legend (the line styles went unnamed). Two rows now, clear of the
    title and the off-chart note, inside the figure."""
    try:
        app.fit(*ALL_ROOMS["lab"])
        assert app.view.arrangement == "narrow"
        legend = app.view.legend_narrow
        assert legend.get_visible() and not app.view.legend.get_visible()
        assert [t.get_text() for t in legend.get_texts()] == ["Euler lerp", "nlerp", "slerp"]
        handles = legend.legend_handles
        for m, handle in zip(METHODS, handles, strict=True):
            line = app.view.speed_lines[m]
            assert handle.get_color() == line.get_color()
            assert handle.get_linewidth() == line.get_linewidth()
        fresh(app, WIDE)
        fig = app.view.fig
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        title = app.view.ax_speed.title.get_window_extent(renderer)
        for label in legend.get_texts():
            box = label.get_window_extent(renderer)
            assert fig.bbox.contains(box.x0, box.y0) and fig.bbox.contains(box.x1, box.y1)
            assert not box.overlaps(title), label.get_text()
    finally:
        app.fit(*ROOMS["1280x720"])


def test_the_wrap_arounds_close_4d_labels_are_spread_apart_with_leaders(app):
    """Issue 41: on the wrap-around, q₀ and −q₁ are 5° apart on the 4D circle and their
    labels sat stacked against each other beside the two points. Each now moves along the
    circle away from the other, a line leading back to its point."""
    try:
        for present in (False, True):
            app.present(present)
            for room in ROOMS:
                app.fit(*ALL_ROOMS[room])
                fresh(app, WRAP, t=0.0)
                app.fig.canvas.draw()
                renderer = app.fig.canvas.get_renderer()
                view = app.view
                q0 = view.label_q0.get_window_extent(renderer)
                target = view.label_target.get_window_extent(renderer)
                px = view.label_q0.get_fontsize() * app.fig.dpi / 72
                assert target.y0 - q0.y1 >= 2 * px, (room, present, q0, target)
                assert len(view.leaders.get_segments()) == 2
        fresh(app, WIDE)
        assert len(app.view.leaders.get_segments()) == 0
    finally:
        app.present(False)
        app.fit(*ROOMS["1280x720"])


def test_4d_picture_draws_the_chord_and_the_arc(app):
    fresh(app, WIDE, t=0.3)
    plane, view = app.state.plane, app.view
    m = plane_display(plane.omega)
    np.testing.assert_allclose(np.array(view.arc.get_data()).T, plane.slerp @ m, atol=1e-12)
    np.testing.assert_allclose(np.array(view.chord.get_data()).T, plane.chord @ m, atol=1e-12)
    # the chord really cuts inside the circle; the arc stays on it
    assert np.linalg.norm(np.array(view.chord.get_data()).T, axis=1).min() < 0.9
    np.testing.assert_allclose(np.linalg.norm(np.array(view.arc.get_data()).T, axis=1), 1)
    # at t the nlerp marker is the chord point pushed out along its ray
    chord_pt = np.ravel(view.chord_now.get_data())
    nl = np.ravel(view.nlerp_now.get_data())
    np.testing.assert_allclose(nl, chord_pt / np.linalg.norm(chord_pt), atol=1e-9)
    sl = np.ravel(view.slerp_now.get_data())
    angle = np.degrees(np.arccos(np.clip(sl @ (np.array([1.0, 0.0]) @ m), -1, 1)))
    assert angle == pytest.approx(0.3 * plane.omega, abs=1e-6)
    assert view.label_target.get_text() == "+q₁" and view.label_other.get_text() == "−q₁"
    # both copies and the origin are inside the picture
    x0, x1 = view.ax_4d.get_xlim()
    y0, y1 = view.ax_4d.get_ylim()
    for p in (plane.target @ m, plane.other @ m, np.zeros(2), np.array([1.0, 0.0]) @ m):
        assert x0 < p[0] < x1 and y0 < p[1] < y1
    app.long_way.value = True
    assert view.label_target.get_text() == "−q₁"


def test_ghosts_appear_as_t_passes_them(app):
    fresh(app, t=0.0)
    one = len(app.view.ghosts["slerp"].get_segments())
    app.t.value = 1.0
    assert len(app.view.ghosts["slerp"].get_segments()) == 7 * one


def test_presets_sliders_and_the_description(app):
    fresh(app, ARTICLE)
    assert [app.yaw1.value, app.pitch1.value, app.roll1.value] == [45, 0, 45]
    assert "7.74°" in app.preset_note.value
    assert describe(app.state, "article") in app.preset_note.value
    app.pitch1.value = 10
    assert app.preset.value == "(your own angles)" and app.preset_note.value == ""
    assert same_rotation(app.state.q1, euler_to_quaternion(45, 10, 45))
    app.preset.value = LOCK
    assert [app.yaw1.value, app.pitch1.value, app.roll1.value] == [150, 90, 120]
    assert "(30°, 90°, 0°)" in app.preset_note.value
    assert [p.name for p in app.preset_list()] == list(MODEL_PRESETS)
    with pytest.raises(ValueError, match="unknown preset"):
        app.apply_preset("no such preset")


def test_up_vector_paths_toggle(app):
    fresh(app)
    assert not app.view.up_front["slerp"].get_visible()
    app.show_up.value = True
    assert app.view.up_front["slerp"].get_visible()
    np.testing.assert_allclose(np.linalg.norm(app.state.ups["euler"], axis=1), 1.0)


def test_identical_start_and_end_draws_without_error(app):
    fresh(app)
    app.set(yaw0=20, pitch0=30, roll0=40, yaw1=20, pitch1=30, roll1=40)
    assert app.last_error is None
    assert all(v == pytest.approx(0, abs=1e-6) for v in app.state.totals.values())
    assert "nothing to turn" in app.panels["info"].value
    assert not app.view.arc.get_visible() and "no plane" in app.view.note4d.get_text()
    app.long_way.value = True                      # the long way: a full turn
    assert app.state.totals["slerp"] == pytest.approx(360, abs=1e-6)
    assert app.view.arc.get_visible()


def test_a_failing_compute_shows_a_message_not_a_traceback(app):
    fresh(app)
    app.order = "XXY"                              # not a permutation of XYZ
    try:
        app.yaw0.value = 5                 # must not raise
        assert app.last_error and "XYZ" in app.last_error
        assert "lesson-status-error" in app.status.value
    finally:
        app.order = "YXZ"
        app.clear_message()
        app.yaw0.value = 30


def test_callbacks_never_create_figures(app):
    fresh(app)
    before = plt.get_fignums()
    app.t.value = 0.2
    app.roll0.value = 33
    app.long_way.value = True
    app.preset.value = WRAP
    app.fig.canvas.draw()
    assert plt.get_fignums() == before


def test_save_gif_keeps_t(app, tmp_path):
    fresh(app, t=0.5)
    path = app.save_gif(tmp_path / "blend.gif", step=50)
    from PIL import Image

    with Image.open(path) as gif:
        assert gif.n_frames == 3 and gif.size[0] >= 1280
    assert app.t.value == pytest.approx(0.5)


def test_cached_static_layer_matches_a_plain_render(app, tmp_path):
    """The live draw pastes pre-rendered frames, titles and ticks; a saved figure draws
    everything the ordinary way. After changes of t, scale and preset they must agree."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fresh(app, WIDE, t=0.3)
    app.fig.canvas.draw()
    for preset in (WRAP, ONE_AXIS):
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
    assert all(a.get_animated() for a in app.view.static.members)


def test_layout_play_the_angles_and_the_preset_beside_the_figure(app):
    """Issue 29: an end angle and the sphere on one screen: Play, t, both ends' angles, the
    preset and the two toggles the lesson's things to try tick are primary (beside the figure
    or right under it). "wrap Euler angles" sat behind More controls, 1,000 px under the
    figure at 853x480; the preset's note came after the 345-px panel, below the fold at
    1280x720, though the lesson says to read it on picking a preset."""
    figure_column, side = app.app_root.children[:2]
    assert app.fig.canvas in figure_column.children
    shown = set(map(id, iter_widgets(side))) - set(map(id, iter_widgets(app.more_box)))
    for w in (app.play_button, app.t, app.preset, app.yaw0, app.yaw1, app.roll1,
              app.panels["info"], app.long_way, app.wrap_euler, app.preset_note):
        assert id(w) in shown, w
    assert id(app.show_up) not in shown
    order = [id(w) for w in iter_widgets(side)]
    at = {name: order.index(id(getattr(app, name))) for name in
          ("yaw1", "long_way", "wrap_euler", "preset", "preset_note")}
    # the note right under the preset it describes, before the panel; the toggles above the
    # angles and the preset (under them, in presenter mode at 1280x720 and at 853x480,
    # ticking one scrolled half of the figure away)
    assert at["preset_note"] == at["preset"] + 1
    assert at["preset_note"] < order.index(id(app.panels["info"]))
    assert at["long_way"] < at["wrap_euler"] < at["yaw1"] < at["preset"]
    prose = " ".join(notebook_source().split())           # and the lesson says so
    assert "**preset**: the note right under it says what it shows" in prose
    assert "tick *up-vector paths* (under *More controls*)" in prose


def test_bad_construction_arguments_are_refused_before_any_figure_exists():
    before = plt.get_fignums()
    with pytest.raises(ValueError, match="unknown preset"):
        InterpolationApp(preset="upside down")
    with pytest.raises(ValueError, match="XYZ"):
        InterpolationApp(order="XXZ")
    assert plt.get_fignums() == before


# -- what the notebook says, against the model -----------------------------------------------
def notebook_source() -> str:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "notebooks" / "02_euler_vs_slerp.ipynb"
    return "\n".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])


def test_exercise_1_answer_is_what_euler_lerp_turns_and_not_shown_above_it():
    ts = np.linspace(0, 1, 401)
    from lessons_lib.interpolation import total_angle

    plain = total_angle(euler_lerp((-150, 0, 0), (120, 0, 0), ts))
    wrapped = total_angle(euler_lerp((-150, 0, 0), (120, 0, 0), ts, wrap=True))
    assert plain == pytest.approx(270, abs=1e-6) and wrapped == pytest.approx(90, abs=1e-6)
    from lessons_lib.apps.interpolation import exercises

    question = exercises.lerp_turn_question()
    assert question.answer == 270 and 90 in question.wrong
    text = notebook_source()
    assert "exercises.lerp_turn_question()" in text
    above = text[:text.index("### Exercise 1")]
    assert "270" not in above
    # no preset is this pair, so neither the menu nor the panel gives it away
    assert all(p.start != (-150, 0, 0) for p in MODEL_PRESETS.values())


def test_exercise_5_is_a_prediction_not_arithmetic_on_what_the_page_shows():
    """The formula and the measured table come after the question, and the turn it asks
    about (180°) is one no preset shows: the one-axis preset's "100 to 132°/t" is the
    answer for 120°, so asking about 120° was reading a ratio off the panel."""
    from lessons_lib.apps.interpolation import exercises

    question = exercises.nlerp_pace_question()
    text = notebook_source()
    after = text.index("exercises.nlerp_pace_question()")
    assert text.index("### Exercise 5") < after < text.index('say(" turn   fastest/slowest')
    table = text[text.index('say(" turn   fastest/slowest'):]
    assert "for angle in (10, 30, 60, 90, 120, 150):" in table   # its last row is not 2.0
    assert "cos²(θ/4)" not in text[:after] and "1 / cos²(45°)" in question.explain
    assert "180°" in question.prompt.value
    t = np.linspace(0, 1, 401)
    a, b = quaternion.one, quaternion.from_rotation_vector([0, np.radians(180), 0])
    speed = angular_speed(nlerp(a, b, t), t)
    assert speed.max() / speed.min() == pytest.approx(2, abs=0.02)      # the tol it accepts
    for name, p in MODEL_PRESETS.items():          # no preset's panel shows that ratio
        for long_way in (False, True):
            pace = compute(p.start, p.end, long_way=long_way).profiles["nlerp"]
            assert abs(pace.high / pace.low - 2) > 0.2, (name, long_way)


@pytest.mark.parametrize("name", sorted(MODEL_PRESETS))
def test_exercise_3_grades_what_its_copy_shows(name):
    """The halfway question's answer is the set of planes whose two readouts (whole degrees,
    as drawn beside it) are equal at t = 0.5, on whatever pair the copy shows: a new opening
    preset cannot leave the exercise grading the old one. Each wrong option's feedback names
    a plane that contradicts it, and "Euler lerp … has turned more" is what its readout says."""
    from lessons_lib.apps.interpolation.exercises import HALFWAY_OPTIONS, halfway_question

    pair = MODEL_PRESETS[name]
    copy = InterpolationApp(name).copy()
    assert (copy.yaw0.value, copy.yaw1.value) == (pair.start[0], pair.end[0])
    question = halfway_question(copy)
    question.show_button.click()
    shown = {m: [int(line.split("°")[0]) for line in
                 copy.view.planes.readouts[m].get_text().split("\n")] for m in METHODS}
    even = tuple(m for m in METHODS if shown[m][0] == shown[m][1])
    assert HALFWAY_OPTIONS[question.answer] == even, (
        f"{name}: the planes beside exercise 3 read {shown}, but its answer is "
        f"{question.answer!r}: lessons_lib/apps/interpolation/exercises.py even_methods")
    for option, why in question.reasons.items():
        if option == question.answer:
            continue
        assert why, option
        if "has turned more" in why or "has turned less" in why:
            assert why.startswith("at t = 0.5 "), why      # the readouts read before t = 0.5
            m = next(m for m in METHODS if why.startswith(f"at t = 0.5 {LABELS[m]}"))
            assert (shown[m][0] > shown[m][1]) == ("more" in why), (name, option, why)


def test_exercise_3s_copy_is_the_pair_the_app_holds():
    """The notebook says the copy is "made on the pair the app held at that moment": the
    opening pair on a page run from the top, the learner's own after a change."""
    from lessons_lib.apps.interpolation import OPENING_PRESET

    app, pair = InterpolationApp(), MODEL_PRESETS[OPENING_PRESET]
    copy = app.copy()
    angles = lambda a, k: tuple(getattr(a, f"{n}{k}").value for n in ("yaw", "pitch", "roll"))  # noqa: E731
    assert (angles(copy, 0), angles(copy, 1)) == (tuple(pair.start), tuple(pair.end))
    app.set(yaw1=-40)
    assert angles(app.copy(), 1)[0] == -40
    assert "a copy of the app above, made on the pair the app held at that moment" in " ".join(
        notebook_source().split()), (
        "lesson 2's exercise 3 introduction changed: say which pair its copy shows")


def test_article_preset_nose_claim_in_the_slerp_section():
    state = compute((0, 0, 0), (45, 0, 45))
    np.testing.assert_allclose(state.noses["euler"][:, 1], 0, atol=1e-12)   # the equator
    assert state.noses["slerp"][:, 1].min() < -0.05                          # dips below
    assert "The *Article 001* preset is the\nexception worth a look" in notebook_source()


def test_pace_figure_and_the_claims_beside_it():
    from lessons_lib.apps.interpolation.figures import TURNS, nlerp_pace, pace_figure

    fig = pace_figure()
    ratio = fig.axes[0].lines[1].get_ydata()
    np.testing.assert_allclose(ratio, 1 / np.cos(np.radians(TURNS / 4)) ** 2, rtol=5e-3)
    assert min(t.get_fontsize() for t in fig.findobj(Text) if t.get_text()) >= 9
    # "up to about 30° per step, within a few hundredths of a degree of slerp"
    assert nlerp_pace(30)[1] < 0.05
    # "a camera swinging 120°: the speed changes by a third, 2° off at times"
    r, gap = nlerp_pace(120)
    assert r == pytest.approx(4 / 3, abs=0.01) and 2 <= gap < 2.5
    text = notebook_source()
    assert "the speed\nchanges by a third and the aeroplane is 2° off at times" in text


def test_exercise_5s_answer_is_not_on_the_page_before_it_is_answered():
    """Exercise 5 asks for a 180° nlerp's fastest / slowest speed (2). What follows it on the
    page, the table, the pace figure and the prose, stops at 150° and does not name the
    formula 1/cos²(θ/4): only the question's feedback does."""
    from lessons_lib.apps.interpolation.figures import TURNS, pace_figure

    fig = pace_figure()
    assert max(TURNS) == 150
    assert all(max(line.get_xdata()) <= 150 for ax in fig.axes for line in ax.lines)
    texts = [t.get_text() for t in fig.findobj(Text)]
    assert not any("cos" in t or "180" in t for t in texts), texts
    from lessons_lib.apps.interpolation import exercises

    assert "1 / cos²(θ/4)" in exercises.nlerp_pace_question().explain   # the feedback gives it
    assert "cos²(θ/4)" not in notebook_source(), "given away on the page"


def test_the_readouts_are_the_shortest_turn_not_the_way_it_came(app):
    """The prose: under each plane, how far it is from the start and the end (the shortest
    turn), not the way it came, which the line under t ("whole blend turns") adds up."""
    fresh(app, "Wrap-around: yaw −175° → 175°", t=1.0)
    start, end = app.view.readouts["euler"].get_text().split("\n")
    assert (start, end) == ("10° from start", "0° to end")
    assert round(app.state.totals["euler"]) == 350
    assert "Euler lerp 350°" in app.panels["turned"].value


# -- issue 31: aim a keyframe by dragging its nose on the sphere ---------------------------------
@pytest.mark.parametrize("order", ["YXZ", "XYZ", "ZXY", "ZYX", "XZY", "YZX"])
def test_aim_keyframe_points_the_nose_and_keeps_the_roll_where_it_can(order):
    """Checked with scipy: the solved angles point the nose (+Z) along the direction; with
    the roll ring inner or outer the roll is kept."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        angles = rng.uniform([-180, -89, -180], [180, 89, 180])
        d = rng.normal(size=3)
        yaw, pitch, roll = aim_nose(angles, 3.0 * d, order=order)
        by_axis = {"Y": yaw, "X": pitch, "Z": roll}
        r = Rotation.from_euler(order, [by_axis[a] for a in order], degrees=True)
        nose = r.apply([0.0, 0.0, 1.0])
        assert nose @ d / np.linalg.norm(d) == pytest.approx(1.0, abs=1e-9)
        if order[1] != "Z":
            assert roll == angles[2]


def test_aim_keyframe_at_the_pole_keeps_yaw_and_refuses_no_direction():
    # pitch +90 points the nose straight down (-Y), -90 straight up, whatever the yaw
    assert aim_nose((30, 10, 20), (0, -1, 0)) == (30, pytest.approx(90), 20)
    assert aim_nose((-70, 10, 20), (0, 5, 0)) == (-70, pytest.approx(-90), 20)
    for bad in ((0, 0, 0), (np.nan, 0, 1), (0, 1), "up"):
        with pytest.raises(ValueError):
            aim_nose((0, 0, 0), bad)
    with pytest.raises(ValueError):
        aim_nose((0, np.inf, 0), (0, 0, 1))


def _mouse_at(app, name, xdata, ydata, buttons=None):
    """A canvas event at a data point of the sphere's axes, as ipympl would deliver it."""
    fig = app.fig
    x, y = app.view.ax_sphere.transData.transform((xdata, ydata))
    event = MouseEvent(name, fig.canvas, x, y,
                       button=1 if name == "button_press_event" or buttons else None)
    if buttons is not None:
        event.buttons = buttons
    fig.canvas.callbacks.process(name, event)


def _drag_on_sphere(app, start, end, steps=4):
    _mouse_at(app, "button_press_event", *start)
    for k in range(1, steps + 1):
        f = k / steps
        _mouse_at(app, "motion_notify_event", start[0] + f * (end[0] - start[0]),
                  start[1] + f * (end[1] - start[1]), buttons={1})
    _mouse_at(app, "button_release_event", *end)


def _marker(artist) -> np.ndarray:
    xs, ys = artist.get_data()
    return np.array([xs[0], ys[0]], dtype=float)


@pytest.mark.parametrize("room", [(1240, 720), (833, 480)])      # wide and narrow
@pytest.mark.parametrize("which", ["start", "end"])
def test_dragging_a_keyframe_on_the_sphere_sets_its_yaw_and_pitch(app, which, room):
    fresh(app, WIDE, t=0.4)
    app.fit(*room)
    view, i = app.view, 0 if which == "start" else 1
    app.set(**{f"yaw{i}": 40, f"pitch{i}": -10})          # its nose on the near side
    app.fig.canvas.draw()
    marker = view.nose_start if which == "start" else view.nose_end
    roll = getattr(app, f"roll{i}").value
    speeds = app.view.speed_lines["euler"].get_ydata().copy()
    drop = (0.35, 0.25)                                  # on the near side of the sphere
    _drag_on_sphere(app, _marker(marker) + [0.01, -0.01], drop)
    assert app.last_error is None and not app.drag.active
    yaw, pitch = getattr(app, f"yaw{i}").value, getattr(app, f"pitch{i}").value
    assert getattr(app, f"roll{i}").value == roll        # the twist stays on its slider
    # the nose of the new keyframe is where it was dropped (to the sliders' whole degrees)
    nose = euler_to_matrix(yaw, pitch, roll) @ NOSE
    seen = app.camera.project(nose)
    assert seen[2] > 0 and np.allclose(seen[:2], drop, atol=0.02)
    assert np.allclose(_marker(marker), drop, atol=0.02)
    # the model, the paths and the speed plot follow the sliders
    assert (app.state.e0, app.state.e1)[i] == (yaw, pitch, roll)
    assert not np.allclose(app.view.speed_lines["euler"].get_ydata(), speeds)
    assert app.t.value == pytest.approx(0.4)
    # and a slider moves the marker back
    getattr(app, f"yaw{i}").value = yaw - 40
    assert not np.allclose(_marker(marker), drop, atol=0.05)
    app.fit(1240, 720)


def test_a_keyframe_behind_the_sphere_is_dragged_on_the_far_side(app):
    fresh(app, WIDE, t=0.4)
    app.set(yaw0=180, pitch0=0)            # nose -Z: away from the camera
    app.fig.canvas.draw()
    assert app.camera.project(app.state.noses["slerp"][0])[2] < 0
    drop = (-0.2, 0.1)
    _drag_on_sphere(app, _marker(app.view.nose_start), drop)
    nose = euler_to_matrix(app.yaw0.value, app.pitch0.value, app.roll0.value) @ NOSE
    seen = app.camera.project(nose)
    assert seen[2] < 0 and np.allclose(seen[:2], drop, atol=0.02)


def test_a_press_on_nothing_and_a_drag_off_the_sphere(app):
    fresh(app, WIDE, t=0.4)
    app.fig.canvas.draw()
    before = app.params
    # a press on the sphere away from both markers: no drag, nothing changes
    far = -_marker(app.view.nose_end)
    _drag_on_sphere(app, far, (0.0, 0.0))
    assert app.params == before and not app.drag.active
    # a press elsewhere on the figure (the speed plot) neither
    ax = app.view.ax_speed
    x, y = ax.transData.transform((0.5, 50))
    app.fig.canvas.callbacks.process("button_press_event", MouseEvent(
        "button_press_event", app.fig.canvas, x, y, button=1))
    assert app.params == before and not app.drag.active
    # dragged off the disc: the nose goes to the rim (at most 1° off it), no error
    _drag_on_sphere(app, _marker(app.view.nose_end), (1.08, 0.0))
    nose = euler_to_matrix(app.yaw1.value, app.pitch1.value, app.roll1.value) @ NOSE
    assert abs(app.camera.project(nose)[2]) < np.sin(np.radians(1.5))
    assert app.last_error is None


def test_dragging_a_keyframe_to_the_pole_locks_it_without_a_spin(app):
    fresh(app, WIDE, t=0.4)
    app.fig.canvas.draw()
    yaw = app.yaw0.value
    top = app.camera.project(np.array([0.0, 1.0, 0.0]))       # straight up: pitch -90
    # one move, up its meridian to the pole: the nose turns the shortest way, which keeps
    # the yaw; at the pole every yaw points it there, and the slider keeps its value
    _drag_on_sphere(app, _marker(app.view.nose_start), top[:2], steps=1)
    assert app.pitch0.value == -90 and app.yaw0.value == yaw
    assert app.last_error is None
    # the roll is the only way left to turn it, and a further drag leaves the pole cleanly
    _drag_on_sphere(app, _marker(app.view.nose_start), (0.3, 0.3))
    assert -90 < app.pitch0.value < 0 and app.last_error is None


# -- issue 29: the figure at the width the page gives it ------------------------------------------
#: 1280x720 in Voila (beside the controls), 853x480 (1280x720 at 150% zoom) and JupyterLab's
#: column with the file browser open (under them); ALL_ROOMS adds 1366x768 and 1920x1080.
ROOMS = {k: ALL_ROOMS[k] for k in ("1280x720", "853x480", "lab")}


@pytest.mark.parametrize("present", [False, True], ids=["normal", "present"])
@pytest.mark.parametrize("room", sorted(ALL_ROOMS))
@pytest.mark.parametrize("preset", [WIDE, WRAP, LOCK, ARTICLE, ONE_AXIS])
def test_no_figure_text_collides_or_is_cut_at_each_width(app, room, preset, present):
    """At 853x480 the readouts "49° from start" / "28° from start" once overlapped and the
    sphere's and 4D titles were cut at the right: the narrow arrangement fixes both. In
    presenter mode at 853x480 the figure was held to 519x298 px under the 20 px controls:
    the plane titles and ticks were cut, the readouts sat on "speed, °/t", "q₀" on "+q₁".
    At the start, the middle and the end of the blend."""
    fresh(app, preset, t=0.25)
    app.long_way.value = preset == WRAP            # with the off-the-chart note
    try:
        app.present(present)
        app.fit(*ALL_ROOMS[room])
        if not present and room in ROOMS:
            assert app.view.arrangement == ("wide" if room == "1280x720" else "narrow")
        for t in (0.0, 0.5, 1.0):
            app.t.value = t
            assert text_collisions(app.fig) == [], (t, app.fitted)
    finally:
        app.long_way.value = False
        app.present(False)
        app.fit(*ROOMS["1280x720"])


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_the_whole_4d_circle_is_inside_its_panel(app, room):
    """The 4D circle was cut at the bottom of the figure, with the -q1 marker on the cut."""
    fresh(app, WIDE, t=0.25)
    app.fit(*ROOMS[room])
    try:
        app.fig.canvas.draw()
        ax = app.view.ax_4d
        ring = ax.transData.transform(np.stack(app.view.circle4d.get_data(), axis=1))
        box = ax.bbox.padded(1.0)
        assert all(box.contains(x, y) for x, y in ring)
        assert box.y0 >= 0 and box.x1 <= app.fig.bbox.x1 + 1
        other = ax.transData.transform(np.stack(app.view.other_dot.get_data(), axis=1))[0]
        assert box.contains(*other)
    finally:
        app.fit(*ROOMS["1280x720"])


def test_the_angle_turned_is_right_under_t(app):
    """Primary, right after Play and t: on a narrow page it is on the first screen with the
    figure, not under the long panel below the fold."""
    side = app.app_root.children[1]
    assert side.children[1] is app.panels["turned"]
    assert "whole blend turns" in app.panels["turned"].value
    assert "whole blend turns" not in app.panels["info"].value


@pytest.mark.parametrize(("start", "end"), [((30, -20, 10), (30, -20, 10)),
                                            ((-180, 0, 0), (180, 0, 0))])
def test_the_long_way_to_the_same_orientation_says_nlerp_is_undefined(start, end):
    """Issue 41: with end = start (or its −q) and the long way, nlerp's chord runs through
    the centre at t = 0.5 and nlerp is undefined there, yet the page showed slerp's steady
    360°/t as nlerp's, "over so small a turn", and "nothing to turn" beside a full turn."""
    from lessons_lib.apps.interpolation.model import compute, describe
    from lessons_lib.apps.interpolation.panel import info

    state = compute(start, end, long_way=True)
    assert state.nlerp_undefined and state.totals["slerp"] == pytest.approx(360)
    assert state.plane.shortest_chord < 1e-9                    # through the centre
    words = describe(state) + info(state) + state.axis_note()
    assert "nlerp is undefined here" in words and "undefined there" in words
    assert "so small a turn" not in words and "nothing to turn" not in words
    assert "falls back to slerp's full turn" in words
    short = compute(start, end)
    assert not short.nlerp_undefined
    assert "stay put" in describe(short) and "between 0 and 0" not in describe(short)
    for p in MODEL_PRESETS.values():
        assert not compute(p.start, p.end, long_way=True).nlerp_undefined


def test_the_line_under_t_says_it_is_the_whole_blend_at_every_t(app):
    """Issue 41: "angle turned", right under t, showed the whole blend's total whatever t
    was, and read as the angle turned so far. It is labelled the whole blend's now."""
    fresh(app, WIDE, t=0.0)
    at_start = app.panels["turned"].value
    assert "<b>whole blend turns</b> (t = 0 to 1)" in at_start
    assert f"Euler lerp {app.state.totals['euler']:.0f}°" in at_start
    for t in (0.3, 1.0):
        app.t.value = t
        assert app.panels["turned"].value == at_start, t


def test_the_4d_note_calls_nlerp_bunched_only_where_its_pace_is_uneven(app):
    """The panel said nlerp's beads are "bunched at the ends, spread in the middle" on every
    pair; on the wrap-around (a 10° turn) the preset's note beside it says nlerp "keeps a
    steady 10°/t", and the beads are as even as slerp's."""
    for preset in (WRAP, WIDE, ONE_AXIS):
        fresh(app, preset)
        steady = app.state.profiles["nlerp"].kind == "steady"
        assert steady == (preset == WRAP)
        assert ("bunched at the ends" in app.panels["info"].value) != steady, preset
        assert ("its pace too: it keeps a steady" in app.preset_note.value) == steady
    app.long_way.value = True                # the long way round the wrap-around: 350°
    assert app.state.profiles["nlerp"].kind != "steady"
    assert "bunched at the ends" in app.panels["info"].value


@pytest.mark.parametrize("make", [InterpolationApp, lambda: InterpolationApp().copy()],
                         ids=["app", "copy"])
def test_the_world_axes_letters_sit_inside_the_first_frame(make):
    """The gizmo's "Y" sat on the Euler-lerp frame's top line at every size (0.9 px inside
    at 1280x720): each letter is now a fifth of its size clear of the frame, in every room,
    normal and presenter."""
    app = make()
    for present in (False, True):
        app.present(present)
        for room, size in ALL_ROOMS.items():
            app.fit(*size)
            app.fig.canvas.draw()
            renderer = app.fig.canvas.get_renderer()
            planes = app.view.planes
            frame = planes.ax[METHODS[0]].get_window_extent(renderer)
            for label in planes.gizmo[1::2]:
                if not label.get_visible():           # the narrow arrangement hides it
                    continue
                box = label.get_window_extent(renderer)
                clear = min(box.x0 - frame.x0, frame.x1 - box.x1,
                            box.y0 - frame.y0, frame.y1 - box.y1)
                px = label.get_fontsize() * app.fig.dpi / 72
                assert clear >= 0.2 * px, (room, present, label.get_text(), clear, px)
    plt.close(app.fig)


def test_exercise_1_is_checked_where_the_lesson_says(app):
    """Exercise 1 said "set the start and end yaw sliders and read the panel": from the
    opening pair that left pitch and roll at −20°/70° and 10°/120°, and the panel held no
    angle turned. The Wrap-around preset's pitches and rolls are 0; with the two yaws set,
    "whole blend turns" under t gives the answer."""
    text = " ".join(notebook_source().split())
    assert ("pick *Wrap-around* (its pitches and rolls are 0), set the start and end yaw, and "
            "read *whole blend turns* under `t`") in text
    fresh(app, WRAP)
    assert (app.pitch0.value, app.roll0.value, app.pitch1.value, app.roll1.value) == (0,) * 4
    app.set(yaw0=-150, yaw1=120)
    assert "Euler lerp 270°" in app.panels["turned"].value
    assert "whole blend turns" not in app.panels["info"].value


def test_where_the_lesson_says_the_sphere_is(app):
    """The lesson put the sphere "bottom middle in a narrow column"; presenter mode at
    150 % zoom also draws the figure narrow (711 px over its zoomed controls in a 833 px
    row), with the sphere bottom middle. It now says "when the figure is narrow"."""
    text = " ".join(notebook_source().split())
    assert "The sphere (top right, or bottom middle when the figure is narrow)" in text
    assert "(*whole blend turns*, under `t`, adds up the way from t = 0 to 1)" in text
    seen = {}
    for present in (False, True):
        app.present(present)
        for room, size in ALL_ROOMS.items():
            app.fit(*size)
            seen[room, present] = app.view.arrangement
            narrow = app.fig.get_size_inches()[0] < NARROW_IN
            assert seen[room, present] == ("narrow" if narrow else "wide")
            sphere, planes = app.view.ax_sphere.get_position(), app.view.planes.ax["slerp"]
            if narrow:                                  # under the planes, in the middle
                assert sphere.y1 <= planes.get_position().y0 and 0.3 < sphere.x0 < 0.5
            else:                                       # the right half, at the top
                assert sphere.x0 > 0.5 and sphere.y1 > 0.9
    app.present(False)
    assert seen["853x480", True] == "narrow" and seen["1280x720", True] == "wide"


# -- the line under the figure (issue 42's stage) ------------------------------------------------
def _plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


_STAGE = re.compile(r"t = (\S+): Euler lerp is (\S+)° off slerp, nlerp (\S+)° off; slerp has "
                    r"turned (\S+)° of (\S+)°\.")


@pytest.mark.parametrize("preset", list(MODEL_PRESETS))
def test_the_line_under_the_figure_says_what_the_planes_show_at_t(app, preset):
    """Every number of the stage line is the model's at that t: Euler lerp's and nlerp's
    angle from slerp's pose, and slerp's turn so far (which, on the short way, is the angle
    from the start to slerp's pose) of its whole turn; with each toggle too."""
    for long_way, wrap in ((False, False), (True, False), (False, True)):
        fresh(app, preset)
        app.set(long_way=long_way, wrap_euler=wrap)
        state = app.state
        for t in (0.0, 0.25, 0.5, 0.8, 1.0):
            app.t.value = t
            found = _STAGE.fullmatch(_plain(app.panels["stage"].value))
            assert found, app.panels["stage"].value
            pose = {m: state.pose(m, t) for m in METHODS}
            euler = angle_between(pose["euler"], pose["slerp"])
            nl = angle_between(pose["nlerp"], pose["slerp"])
            assert found.groups() == (f"{t:.2f}", fmt_number(euler, 0), fmt_number(nl, 1),
                                      fmt_number(t * state.slerp_angle, 0),
                                      fmt_number(state.slerp_angle, 0))
            if not long_way:
                assert abs(t * state.slerp_angle - angle_between(state.q0, pose["slerp"])) \
                    < 1e-6
            assert moment(state, t) == pytest.approx(
                {"euler": euler, "nlerp": nl, "turned": t * state.slerp_angle,
                 "whole": state.slerp_angle})


def test_the_line_under_the_figure_changes_with_every_primary_control(app):
    """It sits under the figure in its column, marked as the app's explanation line, and
    moving t, a toggle that changes the blend, an angle or the preset changes what it says."""
    column = app.app_root.children[0]
    line = app.panels["stage"]
    assert line in column.children and column.children.index(line) > \
        column.children.index(app.fig.canvas)
    assert "lesson-explain" in line._dom_classes
    assert app.preset_note not in column.children           # the full note: by its preset
    fresh(app, WRAP, t=0.25)
    seen = [line.value]
    for change in (dict(t=0.3), dict(long_way=True), dict(wrap_euler=True), dict(yaw1=120),
                   dict(pitch0=10)):
        app.set(**change)
        assert line.value not in seen, change
        seen.append(line.value)
    app.preset.value = WIDE
    assert line.value not in seen
    fresh(app)


def test_the_line_under_the_figure_for_one_orientation(app):
    """Start and end one orientation: nothing turns, or (the same orientation under other
    angles) Euler lerp still wanders off it, by the model's angle."""
    fresh(app)
    app.set(yaw0=20, pitch0=10, roll0=0, yaw1=20, pitch1=10, roll1=0)
    assert _plain(app.panels["stage"].value) == \
        "Start and end are one orientation: nothing turns."
    app.set(yaw0=-180, pitch0=0, roll0=0, yaw1=180, pitch1=0, roll1=0, t=0.5)
    state = app.state
    gap = angle_between(state.pose("euler", 0.5), state.pose("slerp", 0.5))
    assert gap > 170
    assert _plain(app.panels["stage"].value) == (
        f"t = 0.50: start and end are one orientation, yet Euler lerp is "
        f"{fmt_number(gap, 0)}° off it.")
    fresh(app)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_line_under_the_figure_is_one_short_line(lang):
    """At most STAGE_CHARS characters in either language, in the states with the longest
    numbers (each preset at t = 0.25, the long way at t = 0.75, start equal to end)."""
    set_language(lang)
    try:
        states = [(compute(p.start, p.end, long_way=lw), t) for p in MODEL_PRESETS.values()
                  for lw, t in ((False, 0.25), (True, 0.75))]
        states += [(compute((20, 10, 0), (20, 10, 0)), 0.5),
                   (compute((-180, 0, 0), (180, 0, 0)), 0.5),
                   (compute((-180, -90, -180), (180, 90, 180), long_way=True), 0.55)]
        for state, t in states:
            text = _plain(stage(state, t))
            assert len(text) <= STAGE_CHARS, text
            if lang == "ko":
                assert not re.search(r"[A-Za-z]{3}", text), text
    finally:
        set_language(None)
