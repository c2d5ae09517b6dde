"""Lesson 3: the model without widgets, then SteeringApp headless (ipympl): set a control,
check what was drawn; and every claim the page states, computed from the model."""

from __future__ import annotations

import html
import math
import re
from pathlib import Path
from types import SimpleNamespace

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image
from rooms import ROOMS

from lessons_lib.apps.core import PALETTE, Params
from lessons_lib.apps.steering import SteeringApp
from lessons_lib.apps.steering import model as m
from lessons_lib.steering import SteeringParams
from lessons_lib.sweep import ALL_OFF, NO_BEST, speed_sweep
from lessons_lib.tracks import ROAD_HALF_WIDTH, track
from lessons_lib.vehicle import Vehicle, simulate

SCENARIOS = {sc.name: sc for sc in m.SCENARIOS}


def params(**changes) -> Params:
    return Params({**m.DEFAULTS, **changes})


@pytest.fixture(scope="module")
def app():
    shared = SteeringApp()
    yield shared
    plt.close(shared.fig)


@pytest.fixture(autouse=True)
def close_new_figures():
    before = set(plt.get_fignums())
    yield
    for num in set(plt.get_fignums()) - before:
        plt.close(num)


# -- the model, no widgets ------------------------------------------------------------------
def test_compute_is_the_simulation_of_the_controls():
    state = m.compute(params(start_offset=2.0, start_heading=10.0, use_crosstrack=False))
    ref = simulate(track("oval"), SteeringParams(use_crosstrack=False), 10.0, m.DURATION,
                   start_offset=2.0, start_heading_error=-10.0)  # + right in the app
    np.testing.assert_allclose(state.trajectory.x, ref.x)
    assert state.metrics == pytest.approx(ref.metrics(), nan_ok=True)
    # one sign convention: + offset is right of the line, + heading points right of the road
    assert state.trajectory.crosstrack_error[0] == pytest.approx(2.0)
    assert state.trajectory.heading_delta[0] < 0  # the road is then to the car's left
    # the phase portrait starts where the start controls say: (+2 m, +10°), both right
    assert state.run.heading_error[0] == pytest.approx(10.0, abs=0.01)


def test_the_drawn_terms_add_up_to_the_steering():
    state = m.compute(params(start_offset=2.0))
    c, tr = state.run.contributions, state.trajectory
    np.testing.assert_allclose(c["position"] + c["heading"] + c["crosstrack"],
                               tr.steering_unclamped, atol=1e-12)
    np.testing.assert_allclose(c["steering"], tr.steering)


def test_runs_are_cached_so_switching_back_costs_nothing():
    a = m.compute(params(speed=11.0))
    b = m.compute(params(speed=11.0, view="Terms"))
    assert a.run is b.run
    phase = m.compute(params(speed=11.0, view="Phase portrait"))
    assert phase.run is a.run and set(phase.others) == {"Pure pursuit", "Stanley"}


@pytest.mark.parametrize("controller", m.CONTROLLERS)
def test_each_controller_runs_on_the_same_start(controller):
    state = m.compute(params(controller=controller, track="s_bend", start_offset=2.0))
    tr = state.trajectory
    assert tr.crosstrack_error[0] == pytest.approx(2.0, abs=1e-6)
    assert state.metrics["rms_crosstrack"] < 0.6
    assert len(state.run.heading_error) == len(tr)
    target = state.run.target
    if controller == "Stanley":
        assert np.isnan(target).all()
    else:
        assert np.isfinite(target).all()


def test_controls_without_effect_are_named_with_a_reason():
    assert "fixed_look_ahead" in m.disabled_controls(params())
    fixed = m.disabled_controls(params(mode="Fixed"))
    assert {"look_ahead_base", "look_ahead_speed_factor"} <= set(fixed)
    assert "fixed_look_ahead" not in fixed
    assert "heading_weight" in m.disabled_controls(params(use_heading=False))
    assert "crosstrack_gain" in m.disabled_controls(params(use_crosstrack=False))
    pp = m.disabled_controls(params(controller="Pure pursuit"))
    assert "use_position" in pp and "Pure pursuit" in pp["use_position"]


def test_placing_by_a_click_says_where_the_car_went_and_why():
    sp = m.road("oval")
    s = 80.0
    t = sp.direction_at(s)
    p = sp.location_at(s) + 1.5 * np.array([t[1], -t[0]])
    placed = m.place(sp, *p)
    assert placed.start_distance == pytest.approx(s, abs=0.5)
    assert placed.start_offset == pytest.approx(1.5, abs=0.05) and placed.note == ""
    far = m.place(sp, 0.0, 0.0)
    assert abs(far.start_offset) == m.MAX_OFFSET and "farthest" in far.note
    road = m.road("s_bend")  # starts at (0, 0) heading +x
    behind = m.place(road, -10.0, 1.0)
    assert behind.start_distance == 0.0
    assert "10.0 m before the road starts" in behind.note
    end = road.location_at(road.length)
    past = m.place(road, end[0] + 8.0, end[1])
    assert past.start_distance == m.max_start_distance(road) and "past the road's end" in past.note
    with pytest.raises(ValueError, match="place the car"):
        m.place(sp, math.nan, 0.0)


def test_the_ramp_compares_world_up_and_projected_up():
    state = m.compute(params(track=m.SLOPE_TRACK, start_offset=1.5))
    tr, run = state.trajectory, state.run
    slope = math.atan(m.SLOPE_GRADE)
    assert tr.crosstrack_error[0] == pytest.approx(1.5)
    assert run.world_up_crosstrack[0] == pytest.approx(1.5 * math.cos(slope), rel=1e-6)
    assert tr.ended  # the ramp is open: the run stops at its end


def test_the_slope_view_draws_the_car_on_the_roads_plane():
    """Every corner of the car's outline in the slope view lies on the road's plane at the
    progress point (through it, normal to projected up): it was drawn 2.4° flatter on the
    26.6° ramp (sin for tan), its nose in the road. Start, middle and end of the run."""
    app = SteeringApp()
    try:
        app.preset.value = "Slope: world up vs projected up"
        tr = app.trajectory
        for k in (0, len(tr) // 2, len(tr) - 1):
            app.frame_slider.value = tr.t[k]
            app.redraw()
            f = app.state.spline.frame_at(float(tr.progress[app.state.step(tr.t[k])]))
            t, up = np.array(f.tangent), np.array([0.0, 0.0, 1.0])
            normal = up - t * (up @ t)
            corners = np.array(app.scene.slope_car.get_data_3d()).T
            assert len(corners) >= 4
            heights = (corners - np.array(f.point)) @ (normal / np.linalg.norm(normal))
            assert np.max(np.abs(heights)) < 1e-9, (k, heights)
    finally:
        plt.close(app.fig)


# -- the speed sweep ---------------------------------------------------------------------------
def test_the_sweep_equals_one_run_at_a_time():
    sp = track("hairpin")
    base = SteeringParams(use_heading=False, use_crosstrack=False)
    sweep = speed_sweep(sp, base, speeds=[8.0, 16.0], start_distance=30.0)
    for j, p in enumerate((base.replace(adaptive_look_ahead=False, fixed_look_ahead=25.0),
                           base.replace(adaptive_look_ahead=False, fixed_look_ahead=1.5),
                           base)):
        for i, v in enumerate((8.0, 16.0)):
            ref = simulate(sp, p, v, 30.0, start_distance=30.0).metrics()
            assert sweep.rms[j, i] == pytest.approx(ref["rms_crosstrack"], rel=1e-6)
            assert sweep.max[j, i] == pytest.approx(ref["max_crosstrack"], rel=1e-6)
            assert sweep.movement[j, i] == pytest.approx(ref["steering_movement"], rel=1e-6)


def test_the_sweep_on_an_open_road_stops_each_run_at_the_end():
    sp = track("open_road")
    sweep = speed_sweep(sp, SteeringParams(), speeds=[12.0])
    ref = simulate(sp, SteeringParams(), 12.0, 30.0).metrics()
    assert sweep.rms[2, 0] == pytest.approx(ref["rms_crosstrack"], rel=1e-6)


@pytest.mark.parametrize("name", ["oval", "s_bend", "hairpin", "open_road"])
def test_the_articles_look_ahead_claim_over_all_speeds(name):
    """The lesson's sweep text (Position Delta only, as in the article's look-ahead
    section): fixed long is never best; fixed short wins at low speed and falls apart by
    15 m/s; adaptive wins from there on and its worst RMS stays under 0.6 m."""
    state = m.compute(params(track=name, view="Speed sweep", **m._POSITION_ONLY))
    sw = state.sweep
    best = sw.best("rms")
    assert not np.any(best == 0)  # fixed long
    first_adaptive = float(sw.speeds[np.argmax(best == 2)])
    assert 10.0 <= first_adaptive <= 15.0
    assert np.all(best[sw.speeds >= 15.0] == 2)
    assert sw.rms[2].max() < 0.6
    assert sw.rms[1][sw.speeds >= 16.0].min() > 2.0  # fixed short weaves off the road
    assert sw.rms[0].min() > 1.8                      # fixed long always cuts the bends


def test_with_all_three_terms_the_sweep_says_where_the_claim_stops():
    """Section 3, all three terms on: adaptive best up to 17 m/s on every track; from 18 m/s
    fixed short is better on the oval and the S-bend; at 24 m/s and more on the hairpins
    every setting leaves the road."""
    full = SteeringParams()
    for name in ("oval", "s_bend", "hairpin", "open_road"):
        sw = m.sweep(name, full, (0.0, 0.0, 0.0))
        assert np.all(sw.best("rms")[sw.speeds <= 17.0] == 2), name
        if name in ("oval", "s_bend"):
            assert np.all(sw.best("rms")[(sw.speeds >= 18.0) & (sw.speeds <= 24.0)] == 1)
    hairpin = m.sweep("hairpin", full, (0.0, 0.0, 0.0))
    assert hairpin.rms[:, hairpin.speeds >= 24.0].min() > 5.0
    assert hairpin.regions()[-1] == (ALL_OFF, 24.0, 25.0)    # the sweep says so too
    # the page says so for a car starting on the line: from the app's opening start, 2.5 m
    # off it, the oval's regions above 17 m/s are others ("the regions shift")
    on_line = m.sweep("oval", full, (0.0, 0.0, 0.0)).best("rms")
    opening = m.sweep("oval", full, (0.0, 2.5, 0.0)).best("rms")
    assert SCENARIOS["All three: back to the centre line"].values["start_offset"] == 2.5
    assert list(on_line) != list(opening)


OPENING = "All three: back to the centre line"


def test_the_sweep_names_no_winner_where_every_look_ahead_leaves_the_road(app):
    """Issue 41: the opening case (all three terms, 2.5 m off the oval's line) leaves the road
    from 18 m/s with every look-ahead. No mode is best there, in the numbers, the caption and
    the shading (grey); below, the best is the lowest RMS among the cars still on the road."""
    from lessons_lib.apps.steering import panel
    from lessons_lib.apps.steering.view import MODE_COLOURS, OFF_ROAD_COLOUR

    values = {**SCENARIOS[OPENING].values, "speed": 20.0, "view": "Speed sweep"}
    sw = m.compute(Params(values)).sweep
    all_off = sw.off_road.all(axis=0)
    assert list(sw.speeds[all_off]) == [float(v) for v in range(18, 26)]
    assert np.array_equal(sw.off_road, sw.max > ROAD_HALF_WIDTH)
    for metric in ("rms", "max"):
        best = sw.best(metric)
        assert np.all(best[all_off] == NO_BEST)
        for i in np.flatnonzero(~all_off):
            on = np.flatnonzero(~sw.off_road[:, i])
            assert best[i] == on[np.argmin(getattr(sw, metric)[on, i])]
    assert sw.regions() == [("Adaptive", 4.0, 17.0), (ALL_OFF, 18.0, 25.0)]
    app.set(**values)
    caption = panel.sweep_caption(app.state)
    assert "every look-ahead leaves the road, so none is best" in caption
    assert "best on the road" not in caption and "all off the road 18-25 m/s" in caption
    for key in ("rms", "max"):
        for span, b, off in zip(app.scene.sweep_spans[key], sw.best(key), all_off, strict=True):
            want = OFF_ROAD_COLOUR if off else MODE_COLOURS[m.SWEEP_MODES[b]]
            assert mcolors.same_color(span.get_facecolor()[:3], mcolors.to_rgb(want))
    app.set(**m.DEFAULTS)


@pytest.mark.parametrize("speed", [10.0, 16.0, 17.0, 18.0, 20.0, 25.0])
def test_the_opening_case_says_when_and_why_it_leaves_the_road(app, speed):
    """Issue 41: where the opening case leaves the road, the notes say so and name the cause,
    a crosstrack gain that does not fade with speed: the same car with the gain faded as
    Stanley's term fades stays on the road."""
    values = {**SCENARIOS[OPENING].values, "speed": speed}
    state = m.compute(Params(values))
    off = state.metrics["max_crosstrack"] > ROAD_HALF_WIDTH
    assert off == (speed >= 18.0)
    assert bool(state.off_road) == off
    if not off:
        return
    faded_gain = state.params.crosstrack_gain * m.FADE_FROM / speed
    faded = m.run(state.track, "Article", state.params.replace(crosstrack_gain=faded_gain),
                  speed, state.start)
    assert faded.metrics["max_crosstrack"] <= ROAD_HALF_WIDTH
    assert "The cause is the crosstrack gain" in state.off_road
    assert f"{faded_gain:.3f} per m" in state.off_road
    assert f"(RMS {faded.metrics['rms_crosstrack']:.2f} m)" in state.off_road
    cte = state.trajectory.crosstrack_error
    first = state.trajectory.t[np.argmax(np.abs(cte) > ROAD_HALF_WIDTH)]
    assert f"leaves the road after {first:.1f} s" in state.off_road
    app.set(**values)
    assert html.escape(state.off_road) in app.panels["notes"].value
    app.set(**m.DEFAULTS)


def notebook_text() -> str:
    """Lesson 3's prose, its whitespace folded to single spaces."""
    import nbformat

    nb = nbformat.read(Path(__file__).parent.parent / "notebooks" / "03_spline_steering.ipynb",
                       as_version=4)
    return " ".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown")


def test_the_notebook_says_from_which_speed_the_opening_case_leaves_the_road():
    """Sections 1 and 8: 'from 18 m/s this car swings wider at each crossing of the line and
    leaves the road, with every look-ahead'; the same car with a faded gain stays on."""

    from lessons_lib.sweep import SWEEP_SPEEDS

    values = SCENARIOS[OPENING].values
    states = {v: m.compute(Params({**values, "speed": v})) for v in SWEEP_SPEEDS}
    off = [v for v, st in states.items() if st.off_road]
    first = off[0]
    assert off == [v for v in SWEEP_SPEEDS if v >= first]
    for v in off:
        assert "Its swings across the line grow" in states[v].off_road, v
        assert "The cause is the crosstrack gain" in states[v].off_road, v
    sw = m.sweep("oval", states[first].params, states[first].start)
    assert list(sw.speeds[sw.off_road.all(axis=0)]) == off
    text = notebook_text()
    assert (f"from {first:.0f} m/s this car swings wider at each crossing of the line and "
            "leaves the road, with every look-ahead") in text
    assert f"throws the opening case off the road from {first:.0f} m/s" in text
    assert f"starts {values['start_offset']:g} m right of the line at {values['speed']:g} m/s" \
        in text


# -- the scenarios ----------------------------------------------------------------------------
def _scenario_state(name):
    return m.compute(Params(SCENARIOS[name].values))


def test_every_scenario_sets_every_control():
    for sc in m.SCENARIOS:
        assert set(sc.values) == set(m.DEFAULTS)
        assert 0.0 <= sc.moment <= m.DURATION


def test_fixed_long_cuts_inside_the_hairpins():
    state = _scenario_state("Fixed long look-ahead cuts the corner")
    assert state.trajectory.crosstrack_error.min() < -7.0
    assert f"{-state.trajectory.crosstrack_error.min():.1f} m inside" in \
        SCENARIOS["Fixed long look-ahead cuts the corner"].claim(state)


def test_fixed_short_weaves_at_16_but_not_at_10():
    state = _scenario_state("Fixed short look-ahead weaves at 16 m/s")
    here = state.sweep.at(16.0)
    assert here["Fixed short"][0] > 5 * here["Adaptive"][0]
    assert state.metrics["steering_movement"] > 5 * m.compute(
        Params({**SCENARIOS["Fixed short look-ahead weaves at 16 m/s"].values,
                "mode": "Adaptive"})).metrics["steering_movement"]
    slow = state.sweep.at(10.0)
    assert slow["Fixed short"][0] < slow["Adaptive"][0]
    assert "Below 15 m/s it is the best of the three" in \
        SCENARIOS["Fixed short look-ahead weaves at 16 m/s"].claim(state)


def test_position_only_slides_more_than_with_heading():
    state = _scenario_state("Position only slides across the line")
    with_heading = m.compute(Params({**SCENARIOS["Position only slides across the line"].values,
                                     "use_heading": True}))
    assert m.centre_line_crossings(state.trajectory.crosstrack_error) > \
        m.centre_line_crossings(with_heading.trajectory.crosstrack_error)
    gap = np.abs(state.trajectory.position_delta).max()
    gap_h = np.abs(with_heading.trajectory.position_delta).max()
    assert gap > 1.5 * gap_h
    assert f"up to {gap:.0f}° from its nose ({gap_h:.0f}° with Heading on)" in \
        SCENARIOS["Position only slides across the line"].claim(state)


def test_the_parallel_preset_says_it_crossed_the_line_and_which_heading_it_quotes():
    """Issue 41: the note said "never back on it" of a car that crossed the line at 7 s, and
    "heading error 0.2°" beside a Heading Delta readout of −6.8°. It names the crossing and
    tells the heading beside the car from the readout's, with the readout's own number."""
    from lessons_lib.apps.steering.panel import readout

    state = _scenario_state("Position + Heading: parallel but offset")
    tr = state.trajectory
    k = int(np.searchsorted(tr.t, 10.0))
    first = int(np.flatnonzero(np.sign(tr.crosstrack_error[1:]) !=
                               np.sign(tr.crosstrack_error[:-1]))[0]) + 1
    assert tr.t[first] < 10.0
    note = SCENARIOS["Position + Heading: parallel but offset"].describe(state)
    assert f"crosses the line at {tr.t[first]:.1f} s" in note
    shown = html.unescape(readout(state, tr.t[k]))
    quoted = re.search(r"Heading Delta readout, ([+\u2212][\d.]+)°", note).group(1)
    assert f"Heading Delta <b>{quoted}°</b>" in shown


def test_position_and_heading_run_parallel_but_offset_and_crosstrack_brings_it_back():
    parallel = _scenario_state("Position + Heading: parallel but offset")
    back = _scenario_state("All three: back to the centre line")
    k = int(np.searchsorted(parallel.trajectory.t, 10.0))
    assert abs(parallel.trajectory.crosstrack_error[k]) > 0.3
    assert abs(parallel.run.heading_error[k]) < 1.0
    assert math.isnan(parallel.metrics["settle_time"])
    assert back.metrics["settle_time"] < 4.0
    assert back.metrics["rms_crosstrack"] < 0.5 * parallel.metrics["rms_crosstrack"]


def test_slope_scenario_text_matches_the_numbers():
    state = _scenario_state("Slope: world up vs projected up")
    text = SCENARIOS["Slope: world up vs projected up"].claim(state)
    assert "26.6°" in text and "0.89 long" in text and "1.34 m" in text and "1.50 m" in text


# -- the app ----------------------------------------------------------------------------------
def test_all_parameters_open_below_a_toggle(app):
    assert app.more_box.layout.display == "none"
    app.more_button.value = True
    assert app.more_box.layout.display == "flex" and app.last_error is None
    assert app.crosstrack_gain in app.more_box.children
    app.more_button.value = False


def test_builds_one_figure_that_fits_beside_its_controls(app):
    assert app.widget is not None and app.last_error is None
    w, h = app.fig.get_size_inches() * app.fig.dpi
    assert w <= 800 and h <= 500
    assert app.trajectory.t[-1] == pytest.approx(m.DURATION)
    assert app.preset.value == app.custom_label


def test_speed_change_recomputes_and_time_only_redraws(app):
    before = app.path_line.get_xydata().copy()
    computed = app.compute_count
    app.speed.value = 14.0
    assert app.compute_count == computed + 1
    assert not np.array_equal(before, app.path_line.get_xydata())
    np.testing.assert_allclose(app.path_line.get_xydata()[:, 0], app.trajectory.x)
    drawn = app.draw_count
    app.time.value = 6.5
    assert app.compute_count == computed + 1 and app.draw_count == drawn + 1
    k = int(round(6.5 * 60))
    tr = app.trajectory
    np.testing.assert_allclose(app.car_patch.get_xy(), Vehicle().outline(tr.x[k], tr.y[k],
                                                                         tr.yaw[k]))
    np.testing.assert_allclose(app.progress_dot.get_xydata()[0], app.state.run.progress_point[k])
    np.testing.assert_allclose(app.target_dot.get_xydata()[0], tr.target[k])
    assert app.cursor.get_xdata()[0] == pytest.approx(tr.t[k])
    assert "t = 6.50 s" in app.panels["readout"].value
    app.set(speed=10.0, time=0.0)


def test_fixed_look_ahead_is_greyed_out_in_adaptive_mode_with_a_reason():
    app = SteeringApp()
    assert app.fixed_look_ahead.disabled and "Adaptive mode" in app.fixed_look_ahead.tooltip
    assert "greyed out" in app.panels["notes"].value
    app.mode.value = "Fixed"
    assert not app.fixed_look_ahead.disabled and app.look_ahead_base.disabled
    app.fixed_look_ahead.value = 0.5  # any fixed distance: nothing else claims "long"
    np.testing.assert_array_equal(app.trajectory.look_ahead, 0.5)
    app.controller.value = "Stanley"
    assert app.use_heading.disabled and app.mode.disabled


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_presets_set_every_control_and_show_their_point(name):
    app = SteeringApp(preset=name)
    sc = SCENARIOS[name]
    assert app.preset.value == name
    for key, value in sc.values.items():
        assert getattr(app, key).value == value, key
    assert app.metrics == pytest.approx(m.compute(Params(sc.values)).metrics, nan_ok=True)
    assert sc.claim(app.state) in app.preset_note.value.replace("&#x27;", "'")
    assert app.last_error is None
    # a slider in the page sends back its own rounding of a value: still the preset
    app.heading_weight.value = sc.values["heading_weight"] + 1e-15
    assert app.preset.value == name
    app.start_offset.value = 0.3
    assert app.preset.value == app.custom_label


def test_switching_controllers_and_the_phase_portrait():
    app = SteeringApp(start_offset=2.0)
    app.view.value = "Phase portrait"
    lines = app.scene.phase_lines
    assert all(len(line.get_xdata()) for line in lines.values())
    assert lines["Article"].get_linewidth() > lines["Stanley"].get_linewidth()
    app.controller.value = "Stanley"
    assert lines["Stanley"].get_linewidth() > lines["Article"].get_linewidth()
    np.testing.assert_allclose(lines["Stanley"].get_xdata(), app.trajectory.crosstrack_error)
    for label in ("Article (3 terms, our defaults)", "Pure pursuit", "Stanley"):
        assert label in app.panels["numbers"].value
    assert len(app.target_dot.get_xdata()) == 0  # Stanley has no look-ahead point


def test_the_phase_portrait_names_what_the_article_column_ran():
    """With Position only and a fixed 25 m look-ahead the column said "Article (3 terms)";
    it names what ran, and with another controller chosen the article's run is its own
    defaults (the greyed-out settings do not leak into it)."""
    from lessons_lib.apps.steering import panel

    app = SteeringApp(view="Phase portrait", mode="Fixed", fixed_look_ahead=25.0,
                      use_heading=False, use_crosstrack=False, start_offset=2.0)
    label = "Article (Position only, fixed 25 m)"
    assert app.state.run.label == label
    assert label in app.panels["numbers"].value and label in app.panels["key"].value
    assert "3 terms" not in app.panels["numbers"].value
    app.controller.value = "Stanley"
    article = app.state.others["Article"]
    assert article.label == "Article (3 terms, our defaults)"
    ref = m.run("oval", "Article", SteeringParams(), 10.0, (0.0, 2.0, 0.0))
    assert article is ref
    assert m.article_label(SteeringParams(heading_weight=0.95)) == "Article (3 terms, weight 0.95)"
    assert "Article (3 terms, our defaults)" in panel.colour_key(
        "Phase portrait", {c: r.label for c, r in app.state.runs().items()})


def test_sweep_view_marks_the_speed_and_shades_the_winners():
    app = SteeringApp(preset="Adaptive look-ahead at every speed")
    s = app.scene
    assert s.ax_rms.get_visible() and not s.ax_terms.get_visible()
    assert s.sweep_now["rms"].get_xdata()[0] == 16.0
    sw = app.state.sweep
    np.testing.assert_allclose(s.sweep_lines["rms"]["Adaptive"].get_ydata(), sw.rms[2])
    green = np.array(plt.matplotlib.colors.to_rgba(s.sweep_lines["rms"]["Adaptive"]
                                                   .get_color())[:3])
    i = list(range(4, 26)).index(20)
    assert np.allclose(s.sweep_spans["rms"][i].get_facecolor()[:3], green)
    assert "best on the road: <b>adaptive</b>" in app.panels["notes"].value
    app.speed.value = 12.0  # the sweep is not run again for a new speed
    assert app.state.sweep is sw and s.sweep_now["rms"].get_xdata()[0] == 12.0


def test_the_phase_portrait_starts_where_the_start_controls_say():
    """Both start controls read + as right, and so do both axes of the phase portrait: a car
    0.5 m left of the line pointing 20° right of the road starts at (-0.5, +20), not at
    (-0.5, -20) as before, and the key says which way + is; the dot follows the run."""
    from lessons_lib.apps.steering import panel

    app = SteeringApp(view="Phase portrait", start_offset=-0.5, start_heading=20.0)
    dot = app.scene.phase_dot
    assert dot.get_xdata()[0] == pytest.approx(-0.5, abs=0.01)
    assert dot.get_ydata()[0] == pytest.approx(20.0, abs=0.05)
    key = panel.colour_key("Phase portrait")
    assert "+ is right on both axes" in key and "pointing right of the road" in key
    app.controller.value = "Stanley"   # Stanley's heading error has the same sign
    assert app.scene.phase_dot.get_ydata()[0] == pytest.approx(20.0, abs=0.05)
    assert "heading error +20.0°" in html.unescape(app.panel_widget("readout").value)


def test_the_key_puts_the_maps_colours_on_one_line_and_the_lower_plots_on_the_next():
    from lessons_lib.apps.steering import panel
    for view, lower in (("Terms", "steering (+ right)"), ("Speed sweep", "fixed short"),
                        ("Phase portrait", "Stanley")):
        lines = panel.colour_key(view).split("<br>")
        assert len(lines) == 2, view
        assert "car's path" in lines[0] and lower not in lines[0]
        assert lower in lines[1] and "look-ahead target" not in lines[1]
        assert "|" not in panel.colour_key(view)  # no stray separator glyph at a line's end


def test_clicking_the_map_places_the_car_and_explains_clamps():
    app = SteeringApp()
    sp = app.spline
    s = 80.0
    t = sp.direction_at(s)
    p = sp.location_at(s) + 1.5 * np.array([t[1], -t[0]])
    app.time.value = 5.0
    app.drag._press(SimpleNamespace(inaxes=app.ax_map, xdata=p[0], ydata=p[1]))
    assert app.start_distance.value == pytest.approx(s, abs=0.5)
    assert app.start_offset.value == pytest.approx(1.5, abs=0.05)
    assert app.time.value == 0.0
    q = sp.location_at(120.0)
    app.drag._move(SimpleNamespace(inaxes=app.ax_map, xdata=q[0], ydata=q[1], buttons={1}))
    assert app.start_distance.value == pytest.approx(120.0, abs=0.5)
    u = sp.direction_at(100.2)        # off the sliders' steps: put on them (the page would
    r = sp.location_at(100.2) + 1.47 * np.array([u[1], -u[0]])  # send its own values back)
    app.drag._move(SimpleNamespace(inaxes=app.ax_map, xdata=r[0], ydata=r[1], buttons={1}))
    assert (app.start_distance.value, app.start_offset.value) == (100.0, 1.5)
    app.drag._end(None)
    app.drag._move(SimpleNamespace(inaxes=app.ax_map, xdata=p[0], ydata=p[1], buttons={1}))
    assert app.start_distance.value == 100.0             # no drag after the release
    app.place_car(0.0, 0.0)
    assert abs(app.start_offset.value) == m.MAX_OFFSET
    assert "farthest" in app.panels["notes"].value and app.last_error is None
    app.track.value = "s_bend"
    assert "farthest" not in app.panels["notes"].value  # another change clears the note
    app.place_car(-10.0, 0.0)
    assert app.start_distance.value == 0.0 and "before the road starts" in \
        app.panels["notes"].value


def test_track_change_bounds_the_start_distance():
    app = SteeringApp()
    app.start_distance.value = 250.0
    app.track.value = "s_bend"
    assert app.start_distance.max == m.max_start_distance(track("s_bend"))
    assert app.start_distance.value <= app.start_distance.max
    assert app.compute_count == 3  # start, 250 m, the new track (clamped once)


def test_open_road_stops_at_its_end_and_the_readout_says_so():
    app = SteeringApp(track="open_road", speed=15.0)
    tr = app.trajectory
    assert tr.ended
    app.time.value = m.DURATION
    assert "the road ended" in app.panels["readout"].value
    assert "nose reached it" in app.panels["numbers"].value
    assert np.max(np.abs(np.diff(tr.steering[-30:]))) < 0.01


def test_ramp_shows_the_3d_view_with_both_right_vectors():
    app = SteeringApp(preset="Slope: world up vs projected up")
    s = app.scene
    assert s.ax_slope.get_visible() and not s.ax_close.get_visible()
    world = np.array(s.slope_vectors["right_world"].get_data_3d())
    unit = np.array(s.slope_vectors["right"].get_data_3d())
    ratio = np.linalg.norm(world[:, 1] - world[:, 0]) / np.linalg.norm(unit[:, 1] - unit[:, 0])
    assert ratio == pytest.approx(math.cos(math.atan(m.SLOPE_GRADE)), rel=1e-6)
    assert "+1.34 m" in s.slope_text.get_text() and "+1.50 m" in s.slope_text.get_text()
    app.track.value = "oval"
    assert s.ax_close.get_visible() and not s.ax_slope.get_visible()


def _screen_segment(line) -> np.ndarray:
    """A 3D line's two ends in the figure's pixels, as drawn."""
    from mpl_toolkits.mplot3d import proj3d

    ax = line.axes
    x, y, _z = proj3d.proj_transform(*line.get_data_3d(), ax.get_proj())
    return ax.transData.transform(np.c_[x, y])


def _segment_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Least distance between two 2D segments (they do not cross here: checked apart)."""
    def to_segment(p, s):
        d = s[1] - s[0]
        t = np.clip((p - s[0]) @ d / max(d @ d, 1e-12), 0.0, 1.0)
        return float(np.hypot(*(s[0] + t * d - p)))
    return min(*(to_segment(p, b) for p in a), *(to_segment(p, a) for p in b))


def test_the_slope_views_red_right_vector_lies_on_the_yellow_and_reads_red():
    """Issue 32: the red and yellow bars, equally wide, overlapped almost completely, and
    the red read orange. Issue 41: drawn apart (1.5 m up the normal) the red looked like
    another vector. Now both start at the progress point along one line, the red narrow
    and drawn over the wide yellow, whose end shows past it; in a red far from orange."""
    app = SteeringApp(preset="Slope: world up vs projected up")
    s = app.scene
    red, yellow = s.slope_vectors["right_world"], s.slope_vectors["right"]
    assert not s.ax_slope.computed_zorder and red.get_zorder() > yellow.get_zorder()
    assert red.get_linewidth() <= 0.4 * yellow.get_linewidth()
    for t in np.linspace(0.0, app.time.max, 6):
        app.time.value = float(t)
        app.fig.canvas.draw()
        r, y = np.array(red.get_data_3d()).T, np.array(yellow.get_data_3d()).T
        np.testing.assert_allclose(r[0], y[0], atol=1e-12)          # one base
        d_r, d_y = r[1] - r[0], y[1] - y[0]
        assert np.linalg.norm(np.cross(d_r, d_y)) < 1e-9             # one direction
        a, b = _screen_segment(red), _screen_segment(yellow)
        assert np.hypot(*(b[1] - a[1])) >= 3.0, t                   # the yellow's end shows
    colour = np.array(mcolors.to_rgb(red.get_color()))
    for other in (PALETTE["orange"], PALETTE["vermillion"], PALETTE["yellow"]):
        assert np.abs(colour - mcolors.to_rgb(other)).sum() > 0.35, other
    assert colour[0] > 0.6 and colour[1] < 0.2   # red, not orange: hardly any green in it


def test_an_open_roads_end_bar_is_named():
    """A short black bar at the end of the ramp went unexplained: it says 'end'."""
    app = SteeringApp(preset="Slope: world up vs projected up")
    label = app.scene.overview.end_label
    end = app.spline.location_at(app.spline.length)[:2]
    assert label.get_visible() and label.get_text() == "end"
    assert np.allclose(label.xy, end)
    app.track.value = "oval"
    assert not app.scene.overview.end_label.get_visible()


@pytest.mark.parametrize("view", ["Terms", "Phase portrait"])
def test_on_the_ramp_the_controller_buttons_are_greyed_with_a_reason_not_an_error(view):
    """Pure pursuit and Stanley are 2D laws (lessons_lib.controllers refuses a 3D spline). On
    the Ramp, Stanley once left the article's run on the page and a red 'spline must be a 2D
    Spline' under it; the phase portrait did the same."""
    app = SteeringApp(preset="Slope: world up vs projected up")
    app.view.value = view
    app.controller.value = "Stanley"
    assert app.status.value == "" and app.last_error is None
    assert app.state.controller == "Article" and app.controller.disabled
    assert "on this 3D track the article's steering drives" in html.unescape(
        app.panels["notes"].value)
    app.track.value = "oval"                  # on a flat road Stanley drives again
    assert app.state.controller == "Stanley" and not app.controller.disabled
    assert app.status.value == ""


def test_on_the_ramp_the_speed_sweep_says_it_is_for_flat_tracks_not_an_error():
    """lessons_lib.sweep drives its cars together on a flat road; on the Ramp 'Speed sweep'
    once put 'point must have 3 coordinates, got 2' in red under the app."""
    app = SteeringApp(preset="Slope: world up vs projected up")
    app.view.value = "Speed sweep"
    assert app.status.value == "" and app.last_error is None
    assert app.state.view == "Terms" and app.state.sweep is None
    assert "The speed sweep runs on the flat tracks" in app.panels["notes"].value
    app.track.value = "oval"
    assert app.state.view == "Speed sweep" and app.state.sweep is not None
    assert "flat tracks" not in app.panels["notes"].value


def test_a_failing_compute_shows_a_message_not_a_traceback(monkeypatch):
    app = SteeringApp()

    def broken(_params):
        raise ValueError("the spline exploded")

    monkeypatch.setattr(app, "compute", broken)
    app.speed.value = 12.0
    assert "the spline exploded" in app.status.value
    assert app.last_error == "the spline exploded"


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="Track"):
        SteeringApp(track="nurburgring")
    with pytest.raises(ValueError, match="preset"):
        SteeringApp(preset="drift")


def test_save_gif_keeps_real_time(tmp_path):
    app = SteeringApp(track="ramp")
    path = app.save_gif(tmp_path / "run.gif", step=40)
    with Image.open(path) as im:
        assert im.n_frames == len(app.frame_values(40))
        assert im.size[0] >= 1280
        assert im.info["duration"] == pytest.approx(40 * app.frame.step * 1000, abs=10)
    assert app.time.value == 0.0


# -- the notebook's figures and exercises ---------------------------------------------------
def test_the_terms_plot_has_its_key_inside_and_tells_position_from_crosstrack():
    """Issue 41: the lower plot's key sat under the controls, below the fold at 1280x720,
    and the Position (vermillion) and Crosstrack (orange) lines looked alike. The plot
    carries its own key, inside its axes at every room, and Position is dashed."""
    from lessons_lib.apps.steering import panel
    from lessons_lib.apps.steering.view import TERM_NAMES

    app = SteeringApp()
    lines = app.scene.term_lines
    assert lines["position"]._dash_pattern != lines["crosstrack"]._dash_pattern
    assert lines["position"]._dash_pattern[1] is not None          # dashed
    for room, size in ROOMS.items():
        app.fit(*size)
        app.fig.canvas.draw()
        key = app.scene.terms_legend
        assert key is not None and key.get_visible()
        assert [t.get_text() for t in key.get_texts()] == list(TERM_NAMES.values())
        inside = app.scene.ax_terms.get_window_extent()
        box = key.get_window_extent()
        assert inside.x0 <= box.x0 and box.x1 <= inside.x1 + 0.5, room
        assert inside.y0 <= box.y0 and box.y1 <= inside.y1 + 0.5, room
    assert "dashed" in panel.colour_key("Terms")


def test_tuning_challenge_shows_the_run_it_judged_and_where_it_failed():
    from lessons_lib.apps.steering import TuningChallenge
    from lessons_lib.apps.steering.challenge import HINTS, JUDGED_FROM

    challenge = TuningChallenge(track_name="hairpin", speed=12.0, start_offset=2.0)
    assert challenge.check() is False and "Not yet" in challenge.feedback.value
    j = challenge.judged
    judged = j.run.trajectory
    np.testing.assert_allclose(challenge.path_line.get_xdata(), judged.x)
    np.testing.assert_allclose(challenge.ct_line.get_ydata(), judged.crosstrack_error)
    assert f"RMS {j.rms:.2f} m" in challenge.verdict.get_text()
    # judged from JUDGED_FROM s on: the fixed start offset at t = 0 is not the worst moment
    late = judged.t >= JUDGED_FROM
    assert j.rms == pytest.approx(np.sqrt(np.mean(judged.crosstrack_error[late] ** 2)))
    assert judged.t[j.worst] >= JUDGED_FROM and "t = 0.0 s" not in challenge.feedback.value
    # the feedback names the part of the run that failed, as the red dot marks it
    text = html.unescape(challenge.feedback.value)
    assert f"t = {judged.t[j.worst]:.1f} s, {j.where}" in text
    assert j.where.startswith(("in a bend", "on the straight", "on a straight"))
    assert challenge.worst_dot.get_xdata()[0] == judged.t[j.worst]
    assert challenge.worst_car.get_xdata()[0] == judged.x[j.worst]
    challenge.look_ahead_base.value = 4.0  # moving a slider does not re-judge
    assert challenge.judged.run.trajectory is judged
    for i in range(len(HINTS)):
        challenge.hint_button.click()
        assert f"Hint {i + 1} of {len(HINTS)}" in challenge.feedback.value


def test_tuning_hints_read_the_sliders_current_values():
    """Issue 41: the first hint said "a gain of 0.02" whatever the slider read (0.25 after
    the student moved it). Each hint quotes the sliders' numbers as they are now, and once a
    knob is at the value the hint leads to, it says so instead of asking to raise it."""
    from lessons_lib.apps.steering import TuningChallenge

    challenge = TuningChallenge(track_name="hairpin", speed=12.0, start_offset=2.0)
    challenge.set(crosstrack_gain=0.4, look_ahead_base=5.0, look_ahead_speed_factor=0.5,
                  heading_weight=0.6, max_yaw_delta=70.0)
    texts = []
    for _ in range(4):
        challenge.hint_button.click()
        texts.append(html.unescape(challenge.feedback.value))
    gain, look, weight, yaw = texts
    assert "gain of 0.4 steering" in gain and "0.02" not in gain and "Lower the crosstrack" in gain
    assert "5 + 12 × 0.5 = 11 m" in look and "17.6" not in look
    assert "bends' radius (about 10 m)" in look       # the hairpins' 10 m, not an overshoot
    assert "heading weight 0.6 " in weight and "Raise the heading weight" in weight
    assert "at 70°" in yaw and "90°" not in yaw and "Lower the max yaw" in yaw
    challenge.set(crosstrack_gain=0.25)
    challenge.hints_shown = 0
    challenge.hint_button.click()
    assert "at 0.25 already" in html.unescape(challenge.feedback.value)


def test_following_each_tuning_hint_in_order_reaches_a_pass():
    """From the badly tuned start, each hint's setting (named in its text) lowers the judged
    RMS, and after the last one the exercise is solved; our defaults pass."""
    from lessons_lib.apps.steering import TuningChallenge
    from lessons_lib.apps.steering.challenge import HINTS

    challenge = TuningChallenge()
    challenge.check()
    before = challenge.judged.rms
    for hint in HINTS:
        text = hint.say(challenge.params, challenge.situation())
        for name, value in hint.setting.items():
            assert f"{value:g}" in text, (name, text)  # the text says the value
        challenge.set(**hint.setting)
        challenge.check()
        assert challenge.judged.rms < before, text
        before = challenge.judged.rms
    assert challenge.solved and "Well done" in challenge.feedback.value
    assert challenge.last_error is None
    defaults = SteeringParams()
    challenge.set(**{n: getattr(defaults, n) for n in challenge.params})
    assert challenge.check() is True


def test_each_preset_opens_at_the_moment_its_description_talks_about():
    """A preset's description talks about a moment of the drive ('the red point is already
    round the bend', 'the yellow line opens up to 29°'); the menu opened each at t = 0,
    on the straight before it. It now sets the time slider to that moment, which scrubbing
    or Play then leave without dropping the preset; the lesson still opens on its start."""
    assert SteeringApp(preset="All three: back to the centre line").frame_value == 0.0
    app = SteeringApp()
    for sc in m.SCENARIOS:
        app.preset.value = sc.name
        assert app.preset.value == sc.name and app.frame_value == pytest.approx(sc.moment)
        assert sc.moment <= app.state.trajectory.t[-1]
    for name in ("Fixed long look-ahead cuts the corner", "Position only slides across the line"):
        app.preset.value = name                 # the yellow line at its widest from the nose
        tr, k = app.state.trajectory, app.state.step(app.frame_value)
        assert abs(tr.position_delta[k]) >= 0.9 * np.abs(tr.position_delta).max(), name
    app.frame_slider.value = 1.0
    assert app.preset.value == "Position only slides across the line"


def test_a_tuning_that_circles_off_the_road_is_shown_and_named():
    """Too strong a crosstrack push (0.65 with the article's other settings) sends the car
    round in circles beside the first straight, 11 m off it: the map widens to show the
    whole run and its red dot, and the feedback says the car circles off the road (how far
    it drove, how little of that along the road) instead of naming a part of the road; the
    "not judged" label sits on the band's grey over the curve."""
    from lessons_lib.apps.steering import TuningChallenge

    challenge = TuningChallenge()
    challenge.set(look_ahead_base=3.0, look_ahead_speed_factor=0.3, heading_weight=0.85,
                  max_yaw_delta=60.0, crosstrack_gain=0.65)
    assert challenge.check() is False
    j, tr = challenge.judged, challenge.judged.run.trajectory
    (x0, x1), (y0, y1) = challenge.ax_map.get_xlim(), challenge.ax_map.get_ylim()
    assert x0 <= tr.x.min() and tr.x.max() <= x1 and y0 <= tr.y.min() and tr.y.max() <= y1
    wx, wy = challenge.worst_car.get_xdata()[0], challenge.worst_car.get_ydata()[0]
    assert x0 < wx < x1 and y0 < wy < y1
    text = html.unescape(challenge.feedback.value)
    assert j.lost and j.along < 0.1 * j.driven
    assert (f"circles off the road: from 5 s on it drove {j.driven:.0f} m but got only "
            f"{max(j.along, 0):.0f} m along it") in text
    assert "of the judged error" not in text and j.where not in text
    label = challenge.not_judged
    assert label.get_bbox_patch() is not None and label.zorder > challenge.ct_line.zorder
    # a run on the road keeps the road's own frame and the part of the road it failed in
    challenge.set(crosstrack_gain=0.02)
    challenge.check()
    assert not challenge.judged.lost and "of the judged error" in challenge.feedback.value
    assert challenge.ax_map.get_ylim() == pytest.approx(challenge.road_box[1::2])


def test_slope_run_and_sweep_figures():
    from lessons_lib.apps.steering import run_figure, slope_figure, sweep_figure

    assert "16.7°" in slope_figure(0.3).axes[0].get_title()  # atan(0.3)
    labels = [t for t in slope_figure(0.5).axes[0].texts if t.get_text() in
              ("tangent", "world up", "right", "road normal\n(up projected)")]
    assert len(labels) == 4 and all(t.get_bbox_patch() is not None for t in labels)
    sp = track("s_bend")
    traj = simulate(sp, SteeringParams(), 10.0, 5.0, start_offset=1.0)
    fig = run_figure(traj, sp, title="a run")
    np.testing.assert_allclose(fig.axes[1].get_lines()[-1].get_ydata(), traj.crosstrack_error)
    fig = sweep_figure(tracks=("oval",))
    sw = m.sweep("oval", SteeringParams(use_heading=False, use_crosstrack=False),
                 (0.0, 0.0, 0.0))
    np.testing.assert_allclose(fig.axes[0].get_lines()[2].get_ydata(), sw.rms[2])


@pytest.mark.parametrize("grade", [0.1, 0.3, 0.5])
def test_the_slope_figures_labels_keep_apart(grade):
    """Issue 41: "road normal" and "world up" collided in section 7's figure (and "world up"
    touched "tangent"). The four labels, with their white backings, keep 8 px apart."""
    from lessons_lib.apps.steering import slope_figure

    fig = slope_figure(grade)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = {t.get_text(): t.get_bbox_patch().get_window_extent(renderer)
             for t in fig.axes[0].texts}
    assert len(boxes) == 4
    names = sorted(boxes)
    for k, a in enumerate(names):
        for b in names[k + 1:]:
            p, q = boxes[a], boxes[b]
            gap = max(q.x0 - p.x1, p.x0 - q.x1, q.y0 - p.y1, p.y0 - q.y1)
            assert gap >= 8.0, (a, b, gap)


def test_the_stored_sweeps_are_the_models():
    """The notebook draws stored sweeps (they cost four CPU seconds at every page start):
    they must be what the model computes now."""
    from lessons_lib.apps.steering.figures import NOTEBOOK_SWEEP, stored_sweeps

    stored = stored_sweeps()
    assert set(stored) == {"oval", "s_bend", "hairpin", "open_road"}
    for name, sw in stored.items():
        fresh = m.sweep(name, NOTEBOOK_SWEEP, (0.0, 0.0, 0.0))
        np.testing.assert_array_equal(sw.speeds, fresh.speeds)
        for key in ("rms", "max", "movement"):
            np.testing.assert_allclose(getattr(sw, key), getattr(fresh, key), rtol=1e-8,
                                       err_msg=f"{name} {key}: run figures.py to rewrite them")


def test_the_notebooks_sweep_text():
    """Section 3's numbers, from the sweep it draws (Position Delta only, start at 0)."""
    pos = SteeringParams(use_heading=False, use_crosstrack=False)
    first = {}
    for name in ("oval", "s_bend", "hairpin", "open_road"):
        sw = m.sweep(name, pos, (0.0, 0.0, 0.0))
        regions = sw.regions()
        assert [r[0] for r in regions] == ["Fixed short", "Adaptive"]
        first[name] = regions[1][1]
        assert sw.rms[1][sw.speeds >= 16.0].min() > 3.0
        assert sw.rms[0].min() >= 1.8
        assert sw.rms[2].max() <= 0.535
    assert first == {"oval": 15.0, "s_bend": 12.0, "hairpin": 15.0, "open_road": 10.0}
    worst = max(m.sweep(n, pos, (0.0, 0.0, 0.0)).rms[2].max()
                for n in ("oval", "s_bend", "hairpin", "open_road"))
    assert f"{worst:.2f}" == "0.53"


def test_the_sweep_presets_show_section_3s_sweep_and_its_worst_rms():
    """Issue 41: section 3 says the adaptive look-ahead's worst RMS is 0.53 m, the preset
    "Adaptive look-ahead at every speed" said 0.57 m: it started its cars 30 m along the
    hairpins, unsaid. Both sweep presets now run section 3's hairpin sweep (from the
    track's start), and the note says which track and start its number is for."""
    pos = SteeringParams(use_heading=False, use_crosstrack=False)
    section_3 = m.sweep("hairpin", pos, (0.0, 0.0, 0.0))
    for name in ("Fixed short look-ahead weaves at 16 m/s", "Adaptive look-ahead at every speed"):
        sw = _scenario_state(name).sweep
        np.testing.assert_array_equal(sw.rms, section_3.rms)
    note = SCENARIOS["Adaptive look-ahead at every speed"].claim(
        _scenario_state("Adaptive look-ahead at every speed"))
    worst = max(m.sweep(n, pos, (0.0, 0.0, 0.0)).rms[2].max()
                for n in ("oval", "s_bend", "hairpin", "open_road"))
    assert f"worst RMS on the hairpins over 4-25 m/s, starting 0 m along, {worst:.2f} m" in note
    assert f"is {worst:.2f} m" in notebook_text()


def test_the_short_look_ahead_point_is_said_to_be_under_the_car():
    """Issue 41: "just in front of the bumper" for a 1.5 m look-ahead measured from the rear
    axle, which puts the point under the car (its nose is 3.55 m ahead). The page and the
    preset say where it is, from the car's own measurements."""
    from lessons_lib.vehicle import Vehicle

    assert m.FIXED_SHORT < Vehicle().nose
    where = m.where_short_target()
    assert "under the car" in where and f"nose is {Vehicle().nose:g} m" in where
    name = "Fixed short look-ahead weaves at 16 m/s"
    note = SCENARIOS[name].claim(_scenario_state(name))
    for text in (note, notebook_text()):
        assert where in text and "bumper" not in text


def test_the_look_ahead_table_is_the_sweeps_10_m_s_hairpin_column():
    """Section 3's table and the sweep under it are the same runs (from the track's start):
    started 30 m along, the table showed adaptive at 0.54 m RMS just above 'its worst RMS on
    any track at any speed is 0.53 m'."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "03_spline_steering.ipynb")
                    .read_text(encoding="utf-8"))
    cell = next("".join(c["source"]) for c in nb["cells"]
                if "Position Delta only, hairpins, 10 m/s" in "".join(c["source"]))
    shown = {}
    namespace = {"track": track, "SteeringParams": SteeringParams, "simulate": simulate,
                 "table": lambda rows, *_a, **_k: shown.update(rows=rows)}
    exec(cell, namespace)  # noqa: S102 - the notebook's own cell
    rows = {r["look-ahead"]: r for r in shown["rows"]}
    from lessons_lib.apps.steering.figures import stored_sweeps

    sw = stored_sweeps()["hairpin"]
    i = list(sw.speeds).index(10.0)
    for j, name in enumerate(("fixed long (25 m)", "fixed short (1.5 m)", "adaptive")):
        assert rows[name]["rms_crosstrack"] == pytest.approx(sw.rms[j][i], rel=1e-6), name
    assert rows["adaptive"]["rms_crosstrack"] <= 0.535


def test_the_notebooks_crosstrack_text():
    """Section 5: 'Without the crosstrack term the car never settles within 0.2 m of the
    line; with it, it is back in under three seconds.'"""
    both = SteeringParams(heading_weight=0.95)
    oval = track("oval")
    off = simulate(oval, both.replace(use_crosstrack=False), 10.0, 30.0, start_offset=2.5)
    on = simulate(oval, both, 10.0, 30.0, start_offset=2.5)
    assert math.isnan(off.metrics()["settle_time"]) and on.metrics()["settle_time"] < 3.0


def test_a_drag_on_the_map_is_paced_by_one_run_from_another_start(monkeypatch):
    """The page sends pointer moves no faster than a move costs here: a re-simulation from
    another start (pointer_cost) and a draw, not the first compute (which built the road)."""
    from lessons_lib.apps.core import app as core_app

    app = SteeringApp()
    misses = m._run.cache_info().misses
    assert app.pointer_cost() > 0 and m._run.cache_info().misses == misses + 1  # not cached
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    monkeypatch.setattr(SteeringApp, "pointer_cost", lambda self: 0.4)
    assert SteeringApp().fig.canvas.pan_zoom_throttle == 250.0    # the slowest pace


def test_presets_say_which_of_the_articles_numbers_they_change():
    """'All three' ran with heading weight 0.95 and the readout showed 'weight 0.93',
    impossible from section 4's formula with the 0.85 it states; the preset says so."""
    app = SteeringApp(preset="All three: back to the centre line")
    note = html.unescape(app.preset_note.value)
    assert "heading weight 0.95 (our default 0.85)" in note
    assert SCENARIOS["All three: back to the centre line"].values["heading_weight"] == 0.95
    app.apply_preset("Slope: world up vs projected up")      # changes none of them
    assert "This preset sets" not in app.preset_note.value


def test_the_long_look_ahead_preset_says_where_it_starts_and_the_tables_number():
    """The preset said RMS 3.15 m, section 3's table 2.79 m: the preset starts 30 m along."""
    app = SteeringApp(preset="Fixed long look-ahead cuts the corner")
    note = html.unescape(app.preset_note.value)
    table = simulate(track("hairpin"), SteeringParams(
        use_heading=False, use_crosstrack=False, adaptive_look_ahead=False,
        fixed_look_ahead=25.0), 10.0, 30.0).metrics()["rms_crosstrack"]  # section 3's row
    assert f"RMS {app.metrics['rms_crosstrack']:.2f} m over 30 s starting 30 m along" in note
    assert f"as in section 3's table, {table:.2f} m" in note


def test_the_mystery_run_shows_the_road_and_its_direction_and_the_hint_names_no_term():
    """Exercise 2's map had no road edges and no direction of travel, and its hint ('which
    term tells the car it is already lined up ... stops turning?') all but named Heading."""
    from matplotlib.text import Annotation

    from lessons_lib.apps.steering import exercises
    from lessons_lib.apps.steering.view import COLOURS, ROAD_HALF_WIDTH

    hairpin = track("hairpin")
    mystery = exercises.mystery_run()
    ax = exercises.mystery_figure().axes[0]
    centre = hairpin.sample(400)[:, :2]
    edges = [ln for ln in ax.lines if len(ln.get_xdata()) == len(centre)
             and ln.get_linestyle() == "-" and ln.get_color() != COLOURS["path"]]
    dist = sorted(float(np.min(np.hypot(*(np.c_[ln.get_xdata(), ln.get_ydata()][:, None]
                                          - centre[None]).transpose(2, 0, 1)), axis=1).max())
                  for ln in edges)
    assert len(edges) >= 2 and dist[:2] == pytest.approx([ROAD_HALF_WIDTH] * 2, abs=0.05)
    arrow = next(a for a in ax.texts if isinstance(a, Annotation))
    tip, tail = np.array(arrow.xy), np.array(arrow.xyann)
    t0 = hairpin.direction_at(float(mystery.progress[0]))[:2]
    assert float((tip - tail) @ t0) > 0          # it points the way the car drives
    hint = exercises.mystery_question().hint.lower()
    for giveaway in ("heading", "lined up", "stops turning", "parallel", "damp"):
        assert giveaway not in hint, giveaway


def test_a_narrow_slope_view_leaves_both_crosstracks_to_the_readout_under_the_figure():
    """When the slope view has no room for its three-line readout, the two crosstracks
    (world up and projected up) are in the readout under the figure instead, with the
    same numbers; with room, they are in the figure and only there."""
    app = SteeringApp()
    try:
        app.preset.value = "Slope: world up vs projected up"
        k = app.state.step(app.frame_slider.value)
        world = app.state.run.world_up_crosstrack[k]
        projected = app.trajectory.crosstrack_error[k]
        for presenting, room, shown in ((False, "1920x1080", True), (False, "853x480", False),
                                        (True, "853x480", False), (True, "1280x720", True)):
            app.present(presenting)
            app.fit(*ROOMS[room])
            app.fig.canvas.draw()
            in_figure = app.scene.slope_text.get_text()
            readout = html.unescape(app.panel_widget("readout").value)
            assert ("world up (red)" in in_figure) is shown
            assert ("world up (red)" in readout) is not shown
            text = in_figure if shown else readout
            for value in (world, projected):
                assert f"{abs(value):.2f}" in text
    finally:
        plt.close(app.fig)


@pytest.mark.parametrize("room", ["1280x720", "853x480"])
def test_the_sweep_titles_cover_no_dot(app, room):
    """Each sweep plot's title sits in a corner free of dots, in every preset and at the
    laptop's and the projector's size: at the top left it hid the fixed long look-ahead's
    dots, at 8 m, under a white box (measured on the drawn figure, not on the model)."""
    app.present(False)
    app.fit(*ROOMS[room])
    for preset in app.preset_list():
        app.preset.value = preset.name
        app.view.value = "Speed sweep"
        app.fig.canvas.draw()
        renderer = app.fig.canvas.get_renderer()
        for key, ax in (("rms", app.scene.ax_rms), ("max", app.scene.ax_max)):
            title = app.scene.sweep_titles[key]
            box = title.get_bbox_patch().get_window_extent(renderer)
            for line in app.scene.sweep_lines[key].values():
                dots = ax.transData.transform(line.get_xydata())
                inside = [(x, y) for x, y in dots if box.x0 - 3 < x < box.x1 + 3
                          and box.y0 - 3 < y < box.y1 + 3]
                assert not inside, (preset.name, key, title.get_text(), line.get_color())
