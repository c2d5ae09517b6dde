"""Lesson 3's small term figures (steering.terms.TermApp): the car, its knob and the target
dragged through simulated canvas events; the sign of each term flips where it should; the
numbers are the simulation's; no label sits on the car."""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.backend_bases import MouseEvent

from lessons_lib.apps.core.figure import MIN_TEXT_PX, smallest_text_px
from lessons_lib.apps.core.text import fmt_number
from lessons_lib.apps.steering.terms import KNOB_M, TERMS, TermApp, compute_terms, describe, road
from lessons_lib.steering import SteeringParams
from lessons_lib.vehicle import simulate


def _px(app, x, y):
    return app.ax.transData.transform((x, y))


def _event(app, name, x, y):
    px, py = _px(app, x, y)
    event = MouseEvent(name, app.fig.canvas, px, py, button=1)
    if name == "motion_notify_event":
        event.buttons = {1}
    return event


def drag(app, start, *points):
    """Press at ``start`` (metres), move through ``points``, release at the last one."""
    process = app.fig.canvas.callbacks.process
    process("button_press_event", _event(app, "button_press_event", *start))
    for p in points:
        process("motion_notify_event", _event(app, "motion_notify_event", *p))
    process("button_release_event", _event(app, "button_release_event", *points[-1]))


def _knob(app):
    yaw = math.radians(app.heading.value)
    return (app.car_x.value + KNOB_M * math.cos(yaw), app.car_y.value + KNOB_M * math.sin(yaw))


def _centre(app):
    yaw = math.radians(app.heading.value)
    return (app.car_x.value + 1.3 * math.cos(yaw), app.car_y.value + 1.3 * math.sin(yaw))


@pytest.fixture(params=list(TERMS))
def term(request):
    return request.param


def test_each_figure_opens_with_the_librarys_value_and_its_side_in_words(term):
    app = TermApp(term=term)
    assert app.last_error is None
    value = app.value
    text = app.panels["info"].value
    name, _, unit, digits = TERMS[term][:4]
    assert f"{name} = {fmt_number(value, digits, sign=True)}{unit}" in text
    side = TERMS[term][4] if value > 0 else TERMS[term][5]
    assert side.replace("'", "&#x27;") in text
    app.fig.canvas.draw()
    assert smallest_text_px(app.fig) >= MIN_TEXT_PX


def test_the_position_and_heading_figures_open_on_different_numbers():
    """Section 4 says the two angles do two different jobs; the figures open on one pose,
    and there the two read at least 3° apart (at the old 14 m look-ahead both said -11.7°)."""
    position, heading = TermApp(term="position"), TermApp(term="heading")
    values = position.state.values
    assert heading.state.values == values
    assert abs(values.position_delta - values.heading_delta) >= 3.0
    assert values.position_delta < 0 and values.heading_delta < 0    # both left, as before


def test_dragging_the_target_past_the_cars_centre_line_flips_position_delta():
    """A car 1.5 m left of the line pointing along +x: the near target is below its dotted
    centre line (right, +); dragged along the road round the left bend it crosses that
    line and is to the left (-)."""
    app = TermApp(term="position", car_x=6.0, car_y=1.5, heading=0.0, look_ahead=3.0)
    near = app.value
    drag(app, app.state.values.target[:2], (14.0, 2.5), (20.0, 5.5), (24.0, 8.5))
    far = app.value
    assert near > 0 > far, (near, far)
    assert app.look_ahead.value > 10.0 and app.car_x.value == 6.0   # only the target moved
    assert "Position Delta = \u2212" in app.panels["info"].value and "car&#x27;s left" in \
        app.panels["info"].value
    # and back: the sign flips again where the target crosses the line
    drag(app, app.state.values.target[:2], (12.0, 2.0), (8.0, 0.5))
    assert app.value > 0 and "car&#x27;s right" in app.panels["info"].value


def test_dragging_the_car_across_the_centre_line_flips_crosstrack():
    app = TermApp(term="crosstrack")
    assert app.value > 0                          # it opens right of the line
    grab = _centre(app)
    before = (app.car_x.value, app.car_y.value)
    drag(app, grab, (grab[0] - 1.0, grab[1] + 2.0), (grab[0] - 2.0, grab[1] + 4.5))
    assert app.value < 0 and "left of the centre line" in app.panels["info"].value
    # the car moved with the pointer (by the pointer's own displacement, on the 0.1 m grid)
    assert app.car_x.value == pytest.approx(before[0] - 2.0, abs=0.051)
    assert app.car_y.value == pytest.approx(before[1] + 4.5, abs=0.051)
    assert app.heading.value == 27.0              # the heading did not change
    off = np.array(app.state.values.perpendicular_offset[:2])
    assert np.hypot(*off) == pytest.approx(abs(app.value))   # the orange arrow is the error
    drawn = np.array(app.offset.get_data())
    assert drawn[:, 0] == pytest.approx(app.state.values.progress_point[:2])


def test_turning_the_knob_across_the_road_direction_flips_heading_delta():
    """The road at the target points at about 45°: the car turned from 10° (road to its
    left, -) to 80° (road to its right, +) by dragging the knob round."""
    app = TermApp(term="heading", heading=10.0)
    assert app.value < 0
    car = np.array([app.car_x.value, app.car_y.value])
    path = math.degrees(math.atan2(*app.state.values.target_direction[1::-1]))
    points = [car + 7.0 * np.array([math.cos(math.radians(a)), math.sin(math.radians(a))])
              for a in (30.0, 60.0, 80.0)]
    drag(app, _knob(app), *points)
    assert app.heading.value == 80.0 and app.value > 0, (path, app.value)
    assert app.value == pytest.approx(80.0 - path, abs=0.01)
    assert (app.car_x.value, app.car_y.value) == tuple(car)    # turned in place


def test_the_arc_arrow_turns_from_the_heading_to_the_target_on_the_terms_side():
    for heading, sign in ((0.0, +1), (-60.0, -1)):
        app = TermApp(term="position", car_x=6.0, car_y=1.5, heading=heading, look_ahead=3.0)
        assert np.sign(app.value) == sign
        head = app.arc_head.get_xy()[0] - (6.0, 1.5)
        turned = math.degrees(math.atan2(head[1], head[0])) - heading
        assert turned == pytest.approx(-app.value, abs=1e-6)    # + is clockwise: right


@pytest.mark.parametrize("term", ["position", "heading"])
def test_the_arc_is_labelled_with_its_value_at_its_middle(term):
    """Issue 41: the arcs were drawn with their values nowhere on the figure. Each angle
    term's arc carries its value, as the readout writes it, just outside its middle; it
    follows a drag."""
    from lessons_lib.apps.steering.terms import ARC_LABEL_M, ARC_M

    app = TermApp(term=term)
    for heading in (27.0, 60.0):
        app.heading.value = heading
        label = app.arc_label
        assert label.get_visible()
        assert label.get_text() == f"{fmt_number(app.value, 1, sign=True)}°"
        middle = math.radians(heading - app.value / 2)
        car = np.array([app.car_x.value, app.car_y.value])
        expected = car + (ARC_M + ARC_LABEL_M) * np.array([math.cos(middle), math.sin(middle)])
        assert np.allclose(label.get_position(), expected)
    assert not TermApp(term="crosstrack").arc_label.get_visible()


def test_a_press_away_from_the_car_the_knob_and_the_target_says_what_to_drag():
    app = TermApp()
    before = dict(app.params)
    drag(app, (0.0, 18.0), (2.0, 18.0))
    assert dict(app.params) == before
    assert "Drag the car" in app.status.value and app.last_error is None


def test_the_terms_are_the_simulations_own():
    """One model: a run of the simulation (which the big app shows) on the small figures'
    road records at each step exactly what the small figure computes for that car."""
    sp = road()
    params = SteeringParams(adaptive_look_ahead=False, fixed_look_ahead=12.0)
    run = simulate(sp, params, 6.0, 3.0, start_distance=26.0, start_offset=2.0,
                   start_heading_error=10.0)
    app = TermApp(term="position")
    for k in (0, 60, 120, 180):
        x, y, yaw = (float(v[k]) for v in (run.x, run.y, run.yaw))
        app.set(car_x=x, car_y=y, heading=yaw, look_ahead=12.0)
        for name in ("position_delta", "heading_delta", "crosstrack_error", "steering"):
            assert getattr(app.state.values, name) == pytest.approx(run.terms[name][k],
                                                                    abs=1e-6), (k, name)
        assert describe("position", app.state.values).startswith(
            f"Position Delta = {fmt_number(run.terms['position_delta'][k], 1, sign=True)}°")


def test_the_big_apps_steps_agree_with_the_small_figures_model():
    """The big app's run, step by step, against :func:`compute_terms` at the same car."""
    from lessons_lib.apps.steering import SteeringApp

    big = SteeringApp()
    traj, sp = big.trajectory, big.spline
    for k in (0, 300, 900):
        look = float(traj.terms["look_ahead"][k])
        values = compute_terms(sp, float(traj.x[k]), float(traj.y[k]), float(traj.yaw[k]),
                               look)
        for name in ("position_delta", "heading_delta", "crosstrack_error"):
            assert getattr(values, name) == pytest.approx(traj.terms[name][k], abs=1e-6)


@pytest.mark.parametrize("x", [2.0, 8.0, 14.0, 20.0, 26.0, 32.0])
@pytest.mark.parametrize("y", [-3.0, 0.0, 4.0, 9.0, 14.0])
@pytest.mark.parametrize("heading", [-120.0, 0.0, 27.0, 90.0, 180.0])
def test_the_road_right_label_never_sits_on_the_car(x, y, heading):
    app = TermApp(term="crosstrack", car_x=x, car_y=y, heading=heading)
    fig = app.fig
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    car = app.car.get_window_extent(renderer)
    label = app.right_label.get_window_extent(renderer)
    assert not label.overlaps(car)
    assert label.x0 >= 0 and label.x1 <= fig.bbox.width and label.y0 >= 0 \
        and label.y1 <= fig.bbox.height
    # the orange offset arrow is drawn over the car body
    assert app.offset.get_zorder() > app.car.get_zorder()


def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="term must be"):
        TermApp(term="yaw")
    with pytest.raises(ValueError):
        TermApp(car_x=float("nan"))
    with pytest.raises(ValueError, match="look_ahead"):
        compute_terms(road(), 1.0, 2.0, 0.0, -1.0)


def test_crosstrack_ignores_the_heading_and_the_target_as_the_page_says():
    """Section 5 says turning the car or moving the target changes nothing there."""
    app = TermApp(term="crosstrack")
    before = app.value
    drag(app, _knob(app), (25.0, 12.0))
    drag(app, app.state.values.target[:2], (30.0, 14.0))
    assert app.heading.value != 27.0 and app.look_ahead.value != 14.0
    assert app.value == before


@pytest.mark.parametrize("room", [(1250, 720), (823, 480), (1890, 1080)])
def test_the_figure_keeps_its_text_size_at_every_fit_and_in_presenter_mode(room):
    """The rules every catalogue app keeps (tests/test_apps_common.py), for this one too."""
    from lessons_lib.apps.core.figure import PRESENT_TEXT_PX

    app = TermApp(term="crosstrack", car_x=4.0, car_y=0.0, heading=0.0)
    app.fit(*room)
    app.fig.canvas.draw()
    assert smallest_text_px(app.fig) >= MIN_TEXT_PX
    app.present(True)                 # the label grows: placed again, still off the car
    app.fig.canvas.draw()
    try:
        assert smallest_text_px(app.fig) >= PRESENT_TEXT_PX
        renderer = app.fig.canvas.get_renderer()
        assert not app.right_label.get_window_extent(renderer).overlaps(
            app.car.get_window_extent(renderer))
    finally:
        app.present(False)


def test_the_target_stays_in_the_picture_however_far_along_the_car_is():
    from lessons_lib.apps.steering.terms import VIEW

    app = TermApp(term="position", car_x=13.5, car_y=0.0, look_ahead=24.0)
    assert app.look_ahead.value == 24.0
    drag(app, _centre(app), (27.0, 10.0), (31.0, 15.0))        # the car far along the bend
    x, y = app.state.values.target[:2]
    assert VIEW[0] < x < VIEW[1] and VIEW[2] < y < VIEW[3], (x, y)
    assert app.look_ahead.value == app.look_ahead.max < 24.0
    drag(app, app.state.values.target[:2], (40.0, 30.0))      # dragged out: stops at the edge
    x, y = app.state.values.target[:2]
    assert VIEW[0] < x < VIEW[1] and VIEW[2] < y < VIEW[3], (x, y)
