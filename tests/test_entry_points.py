"""The app-side entry points issue 30 found unchecked, each with the call that broke it."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lessons_lib.apps import FunnelApp
from lessons_lib.apps.core import Params
from lessons_lib.apps.funnel.exercises import step_question
from lessons_lib.apps.interpolation.figures import nlerp_pace
from lessons_lib.apps.steering.challenge import TuningChallenge


@pytest.mark.parametrize("kwargs, match", [
    ({"target": math.inf}, "target"),          # counted every tuning as solved
    ({"target": 0.0}, "target"),
    ({"target": 100.0}, "target"),
    ({"speed": math.nan}, "Speed"),
    ({"speed": 1e6}, "Speed"),
    ({"start_offset": 1e9}, "Start offset"),
    ({"start_offset": "2"}, "Start offset"),
    ({"track_name": None}, "track_name"),
])
def test_tuning_challenge_checks_its_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TuningChallenge(**kwargs)


def test_tuning_challenge_keeps_the_notebooks_arguments():
    t = TuningChallenge(track_name="hairpin", speed=12.0, target=0.3, start_offset=2.0)
    try:
        assert (t.speed, t.target, t.start_offset) == (12.0, 0.3, 2.0)
    finally:
        plt.close(t.fig)


@pytest.mark.parametrize("args, match", [((0,), "turn_deg"), ((math.nan,), "turn_deg"),
                                         ((181,), "turn_deg"), ((90, 10**9), "samples"),
                                         ((90, 2), "samples")])
def test_nlerp_pace_checks_its_arguments(args, match):
    """nlerp_pace(0) returned NaN; samples=10**9 ran out of memory."""
    with pytest.raises(ValueError, match=match):
        nlerp_pace(*args)
    ratio, gap = nlerp_pace(1e-3)
    assert math.isfinite(ratio) and math.isfinite(gap)


@pytest.mark.parametrize("portal", [-1, 99, 1.5, None, True])
def test_step_question_names_a_portal_that_is_not_tested(portal):
    """A bad portal raised a bare StopIteration."""
    app = FunnelApp()
    try:
        with pytest.raises(ValueError, match="portal"):
            step_question(app, portal)
        with pytest.raises(ValueError, match="FunnelApp"):
            step_question("app", 2)
        assert step_question(app, 2) is not None
    finally:
        plt.close(app.fig)


def test_fuzz_of_every_app_entry_point_gives_answers_or_clear_errors(tmp_path):
    """The short run of tests/fuzz_apps.py (make bench runs the long one): every app's
    constructor and public methods, the figure and exercise helpers, with sensible and
    nasty arguments, in a memory-capped child with a CPU alarm per call: every outcome is
    an answer without NaN or a one-line ValueError from lessons_lib, and every app still
    redraws on a normal change afterwards."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    out = tmp_path / "fuzz.json"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    run = subprocess.run([sys.executable, str(here / "fuzz_apps.py"), "--examples",
                          os.environ.get("FUZZ_EXAMPLES", "6"), "--memory-mb", "2500",
                          "--json", str(out)], capture_output=True, text=True, timeout=900,
                         env=env, cwd=tmp_path)
    assert out.exists(), run.stdout + run.stderr
    report = json.loads(out.read_text())
    assert report["others"] == [], run.stdout
    counts = report["counts"]
    assert {"GimbalApp", "TuningChallenge", "core.exercise", "steering.figures"} <= set(counts)
    total = {k: sum(c.get(k, 0) for c in counts.values()) for k in ("valid", "refused")}
    assert total["valid"] > 100 and total["refused"] > 100, total


def _funnel_params():
    from lessons_lib.apps.funnel.app import FunnelApp as App

    app = App()
    plt.close(app.fig)
    return app.params


def _grid():
    from lessons_lib.apps.funnel import model

    return model.parse_grid("....\n.#..\n....")


#: Issue 46's code-only calls (and their siblings): each raised TypeError, AttributeError,
#: OverflowError or accepted the value; each is now a ValueError saying what is wrong.
CODE_ONLY = {
    "compute_funnel(curve_samples=0)": (
        lambda m: m.compute_funnel(_funnel_params(), curve_samples=0), "curve_samples"),
    "compute_funnel(curve_samples=-1)": (
        lambda m: m.compute_funnel(_funnel_params(), curve_samples=-1), "curve_samples"),
    "compute_funnel(curve_samples='a')": (
        lambda m: m.compute_funnel(_funnel_params(), curve_samples="a"), "curve_samples"),
    "compute_funnel(curve_samples=2.5)": (
        lambda m: m.compute_funnel(_funnel_params(), curve_samples=2.5), "curve_samples"),
    "compute_funnel(None)": (lambda m: m.compute_funnel(None), "params must have a start_x"),
    "compute_funnel(radius=1e9)": (
        lambda m: m.compute_funnel(_funnel_params().replace(radius=1e9)), "radius must be <="),
    "compute_grid(params=None)": (lambda m: m.compute_grid(_grid(), None), "params must have"),
    "compute_grid(grid='x')": (lambda m: m.compute_grid("x", None), "grid"),
    "parse_grid(5)": (lambda m: m.parse_grid(5), "grid text must be text"),
    "beats_of(5)": (lambda m: m.beats_of(5), "steps must be a list"),
    "nearest_floor_point(5, 0, 0)": (lambda m: m.nearest_floor_point(5, 0, 0), "shapely area"),
}


@pytest.mark.parametrize("name", sorted(CODE_ONLY))
def test_the_funnel_models_code_only_calls_are_refused(name):
    from lessons_lib.apps.funnel import model

    call, match = CODE_ONLY[name]
    with pytest.raises(ValueError, match=match):
        call(model)


@pytest.mark.parametrize("dynamic", [5, "artists", [1, 2], object()])
def test_attach_refuses_what_is_not_artists(dynamic):
    from lessons_lib.apps.fastdraw import attach

    fig = plt.figure()
    try:
        with pytest.raises(ValueError, match="dynamic must be None, a list"):
            attach(fig, dynamic=dynamic)
        with pytest.raises(ValueError, match="matplotlib Figure"):
            attach("fig")
        assert attach(fig, dynamic=fig.axes) is attach(fig)
    finally:
        plt.close(fig)


@pytest.mark.parametrize("call, match", [
    (lambda: __import__("lessons_lib.apps.core.text").apps.core.text.fmt_number(10**400),
     "cannot print"),
    (lambda: __import__("lessons_lib.apps.core.exercise").apps.core.exercise.NumberQuestion(
        "?", 10**400, "hint"), "answer must be a number within float range"),
    (lambda: __import__("lessons_lib.apps.core.exercise").apps.core.exercise.NumberQuestion(
        "?", 1.0, "hint", wrong={10**400: "no"}), "wrong maps"),
    (lambda: __import__("lessons_lib.apps.gimbal.model").apps.gimbal.model.badge_state("a"),
     "lock_angle must be a number"),
    (lambda: __import__("lessons_lib.apps.fastdraw").apps.fastdraw.choose_throttle_ms(
        10**400), "cost must be a number within float range"),
    (lambda: __import__("lessons_lib.apps.core.guard").apps.core.guard.check_pointer(5),
     "pointer event has a type"),
    (lambda: __import__("lessons_lib.apps.core.guard").apps.core.guard.check_update(
        __import__("ipywidgets").FloatSlider(), 5), "malformed update"),
])
def test_helpers_refuse_what_they_cannot_use(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_a_gif_step_and_the_planes_keyframes_are_checked():
    from lessons_lib.apps import InterpolationApp
    app = InterpolationApp()
    try:
        with pytest.raises(ValueError, match="step must be <= 100000"):
            app.gif_fps(10**400)
    finally:
        plt.close(app.fig)
    with pytest.raises(ValueError, match="copy\\(\\) has no control 'start'"):
        app.copy(start=5)


@pytest.mark.parametrize("call, match", [
    (lambda m: m.compute(0.0), "params must have a track"),
    (lambda m: m.compute(Params({**m.DEFAULTS, "track": "monaco"})), "track must be one of"),
    (lambda m: m.steering_params(None), "params must have a track"),
    (lambda m: m.road(["oval"]), "the track must be one of"),
    (lambda m: m.run("oval", "Article", None, 10**400, (0, 0, 0)), "speed must be a number"),
    (lambda m: m.run("oval", "Article", 5, 10, (0, 0, 0)), "params must be SteeringParams"),
    (lambda m: m.sweep("oval", None, (0, 0, 0)), "params must be SteeringParams"),
    (lambda m: m.max_start_distance([]), "spline must be a lessons_lib Spline"),
    (lambda m: m.article_label(None), "params must be SteeringParams"),
    (lambda m: m.place([], 0.0, 0.0), "spline must be"),
    (lambda m: m.centre_line_crossings(10**400), "cte must be an array"),
])
def test_the_steering_models_code_only_calls_are_refused(call, match):
    """Issue 46: each raised AttributeError, TypeError (unhashable) or OverflowError."""
    from lessons_lib.apps.steering import model

    with pytest.raises(ValueError, match=match):
        call(model)


@pytest.mark.parametrize("call, match", [
    (lambda g, i: g.weakest_direction(0.0), "axes must have shape"),
    (lambda g, i: g.compute_state(np.ones(4), 0, 0), "yaw must be a number"),
    (lambda g, i: g.compute_state(0, 0, 10**400), "roll must be a number within float range"),
    (lambda g, i: g.slider_angle(10**400), "angle must be a number within float range"),
    (lambda g, i: g.slider_angle(30.0, step=0), "step must be > 0"),
    (lambda g, i: g.fly(5, "nose", 10.0), "before must have shape"),
    (lambda g, i: g.fly((0, 0, 0), "nose", 10.0, since=5), "since must be a Flight"),
    (lambda g, i: i.compute(0.0, (0, 0, 0)), "e0 must have shape"),
    (lambda g, i: i.compute((0, 0, 0), (0, 0, 0), long_way="yes"), "long_way must be True"),
    (lambda g, i: i.describe(0.0), "state must be a BlendState"),
    (lambda g, i: i.preset_description(["wrap"]), "unknown preset"),
])
def test_the_gimbal_and_blend_models_refuse_what_they_cannot_use(call, match):
    """Issue 46: each raised numpy's own ValueError, TypeError, OverflowError or
    AttributeError (or took "yes" as True)."""
    from lessons_lib.apps.gimbal import model as gimbal
    from lessons_lib.apps.interpolation import model as blend

    with pytest.raises(ValueError, match=match):
        call(gimbal, blend)


def test_app_methods_say_what_is_wrong_in_a_short_line():
    """Issue 46 (seed 2026 of the apps fuzz): show_case(view=array) raised TypeError, and
    toggle_cell and an exercise's judge repeated a huge argument in a message of 900 to
    1,700 characters."""
    from lessons_lib.apps import GimbalApp, GridApp
    from lessons_lib.apps.core.exercise import NumberQuestion, parse_number

    gimbal, grid = GimbalApp(), GridApp()
    try:
        with pytest.raises(ValueError, match="unknown view"):
            gimbal.show_case(view=np.array(["3/4"]))
        with pytest.raises(ValueError, match=r"the cell's x \(the grid is .*\) must be >= 0"):
            grid.toggle_cell(-(10**80), 0)
        question = NumberQuestion("How many?", 2.0, "Count them.")
        for typed in ([10**400] * 4, "1" * 1000):
            with pytest.raises(ValueError) as info:
                question.judge(typed)
            assert len(str(info.value)) < 120
        with pytest.raises(ValueError, match="at most 200 characters"):
            parse_number("2" + " " * 300)
        assert parse_number("4/3") == pytest.approx(4 / 3)
    finally:
        plt.close(gimbal.fig)
        plt.close(grid.fig)


@pytest.mark.parametrize("call, match", [
    (lambda c, f, a: c.Slider("s", "S", -(10**400), 1), "min must be a number within float"),
    (lambda c, f, a: c.Slider("s", "S", 0, 1, value=5), "goes from 0 to 1"),
    (lambda c, f, a: c.Slider("s", "S", 0, 1, redraw="no"), "redraw must be True or False"),
    (lambda c, f, a: c.Frame("t", "t", 0, 1, interval_ms=0), "interval_ms must be >= 1"),
    (lambda c, f, a: c.Choice("c", "C", ["a", "b"], value="z"), "is one of 'a', 'b'; not 'z'"),
    (lambda c, f, a: c.Choice("c", "C", ["a"], style="menu"), "style must be one of"),
    (lambda c, f, a: c.Toggle("t", "T", value=[1]), "value must be True or False"),
    (lambda c, f, a: c.Preset("p", {1: 2}), "values must map control names"),
    (lambda c, f, a: c.Params(0.0), "Params must map control names"),
    (lambda c, f, a: f.smallest_text_px([]), "fig must be a matplotlib Figure"),
    (lambda c, f, a: f.text_collisions([]), "fig must be a matplotlib Figure"),
    (lambda c, f, a: f.fit_axes(0.0, 0.0), "ax must be a matplotlib Axes"),
    (lambda c, f, a: f.DragHandler([], print, print), "fig must be a matplotlib Figure"),
    (lambda c, f, a: f.DragHandler(plt.figure(), 0, print), "on_press must be a function"),
    (lambda c, f, a: a.frame_pause((1,), 0, 0), "drawn must be a number"),
    (lambda c, f, a: a.side_by_side(0.0, 0.0), "takes two widgets"),
    (lambda c, f, a: a.LessonApp(), "base of the lesson apps"),
])
def test_the_shared_controls_figures_and_helpers_check_their_arguments(call, match):
    """Issue 46's code-only constructors: each raised OverflowError, TypeError,
    AttributeError or NotImplementedError, or accepted the value (a slider's value outside
    its range, a toggle's list)."""
    from lessons_lib.apps.core import app, controls, figure

    try:
        with pytest.raises(ValueError, match=match):
            call(controls, figure, app)
    finally:
        plt.close("all")
