"""The shared app loop (lessons_lib.apps.core), driven through a small app of its own."""

from __future__ import annotations

import dataclasses
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backend_bases import MouseEvent
from PIL import Image

from lessons_lib.apps.core import (
    ChoiceQuestion,
    DragHandler,
    NumberQuestion,
    Toggle,
    check_function,
    fmt_number,
    parse_number,
    side_by_side,
)

sys.path.insert(0, str(Path(__file__).resolve().parent / "notebooks"))

from motion_check import HeldLoop  # tests/motion_check.py
from wave_app import WaveApp, WaveState  # noqa: E402  (tests/notebooks/wave_app.py, also in a notebook)

from browser import run_async  # tests/browser.py


def message(state: dict) -> dict:
    """A front-end 'update' message, as a browser (or a crafted client) sends it."""
    return {"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
            "buffers": []}


@pytest.fixture
def app():
    return WaveApp()


def test_controls_become_attributes_and_params(app):
    assert app.amplitude.value == 1.0 and app.shape.value == "sin" and app.t.value == 0.0
    p = app.params
    assert (p.amplitude, p.shape, p.squared, p.points) == (1.0, "sin", False, 50)
    assert "t" not in p  # the frame is not a parameter of the model
    with pytest.raises(AttributeError):
        p.amplitude = 2
    assert p.replace(amplitude=2.0).amplitude == 2.0 and hash(p) == hash(app.params)
    assert app.panels["info"].value == "peak 1.00 at t = 0.00"


def test_a_page_is_sent_the_picture_first_and_the_panels_a_display_frame_later(
        app, monkeypatch):
    """Where a page shows the figure (and the kernel's loop runs) the picture goes first and
    the panels follow :data:`PANELS_AFTER` later, filled once for a run of changes with the
    last one's numbers; without a page (or a loop) they are filled at once, as before."""
    from lessons_lib.apps.core import app as core_app

    sent = []
    request = app.painter.request
    fill = app.fill_panels_now
    monkeypatch.setattr(app.painter, "request", lambda: (sent.append("picture"), request()))
    monkeypatch.setattr(app, "fill_panels_now", lambda: (sent.append("panels"), fill()))
    app.amplitude.value = 1.5                                   # no page: at once
    assert sent == ["picture", "panels"] and app.panels["info"].value.startswith("peak 1.50")
    monkeypatch.setattr(type(app.painter), "page_attached", property(lambda self: True))

    loop = HeldLoop().install(monkeypatch)
    sent.clear()
    for t in (0.25, 0.5, 0.75):
        app.t.value = t
    assert sent == ["picture"] * 3 and app.panels["info"].value.endswith("t = 0.00")
    assert [when for when, _ in loop.timers] == [core_app.PANELS_AFTER]    # one for the run
    loop.run()
    assert sent == ["picture"] * 3 + ["panels"]
    assert app.panels["info"].value == "peak 1.50 at t = 0.75"
    app.t.value = 1.0                                           # the next change: again
    assert len(loop.timers) == 1 and app.panels["info"].value.endswith("t = 0.75")
    # a filling asked for sooner replaces one due later; one due sooner stands
    assert app.fill_panels_in(1.0) and [w for w, _ in loop.timers] == [core_app.PANELS_AFTER]
    loop.timers[0][0] = 5.0
    assert app.fill_panels_in(0.5) and [w for w, _ in loop.timers] == [0.5]


def test_a_control_change_recomputes_once_and_a_frame_change_never(app):
    computes, draws = app.compute_count, app.draw_count
    app.amplitude.value = 2.0
    assert (app.compute_count, app.draw_count) == (computes + 1, draws + 1)
    assert app.state.peak == pytest.approx(2.0, abs=0.01)
    for t in (0.25, 0.5, 1.0):
        app.t.value = t
    assert app.compute_count == computes + 1 and app.draw_count == draws + 4
    assert app.dot.get_xdata()[0] == pytest.approx(2 * math.pi)


def test_batch_and_set_update_once(app):
    draws = app.draw_count
    with app.batch():
        app.amplitude.value = 3.0
        app.shape.value = "cos"
        app.squared.value = True
    assert app.draw_count == draws + 1 and app.state.peak == pytest.approx(9.0)
    app.set(amplitude=0.5, points=100, t=0.5)
    assert app.draw_count == draws + 2 and len(app.state.x) == 100


@pytest.mark.parametrize("bad, words", [
    ({"amplitude": float("nan")}, "finite"), ({"amplitude": 7.0}, "goes from 0 to 3"),
    ({"shape": "tan"}, "one of"), ({"squared": 1}, "on or off"), ({"points": 15.5}, "whole"),
    ({"colour": 1}, "no control colour"), ({"t": 2.0}, "goes from 0 to 1")])
def test_set_refuses_what_a_control_cannot_take(app, bad, words):
    before = app.params
    with pytest.raises(ValueError, match=words):
        app.set(**bad)
    assert app.params == before


def test_unknown_constructor_argument_names_the_controls():
    with pytest.raises(ValueError, match="its controls are amplitude"):
        WaveApp(amplitud=1)


def test_presets_apply_describe_and_fall_back_to_custom(app):
    assert app.preset.value == "(custom)"
    app.preset.value = "tall sine"
    assert (app.amplitude.value, app.shape.value) == (2.5, "sin")
    assert "peaks at 2.5" in app.preset_note.value     # computed from the state drawn
    app.amplitude.value = 2.0
    assert app.preset.value == "(custom)" and app.preset_note.value == ""
    app.set(amplitude=0.5, shape="cos", squared=True)
    assert app.preset.value == "flat cosine"           # matching values re-select it
    with pytest.raises(ValueError, match="unknown preset"):
        app.apply_preset("nope")
    assert WaveApp(preset="tall sine").amplitude.value == 2.5


def test_play_pause_and_back_to_start(app):
    assert app.play.min == 0 and app.play.max == 20
    app.play.value = 10                                # the page's Play ticks
    assert app.t.value == pytest.approx(0.5)
    app.t.value = 0.75                                 # scrubbing moves Play's value
    assert app.play.value == 15
    app.play_button.value = True
    assert app.play.playing and app.play_button.description == "Pause"
    assert app.t.value == pytest.approx(0.75)          # Play goes on from where it is
    app.play_button.value = False
    assert not app.play.playing and app.t.value == pytest.approx(0.75)   # Pause keeps it
    app.t.value = 1.0
    app.play_button.value = True                       # at the end: from the start
    assert app.t.value == 0.0 and app.play.playing
    app.play.playing = False                           # the page's Play reached its end
    assert not app.play_button.value and app.play_button.description == "Play"
    app.t.value = 0.5
    app.rewind_button.click()
    assert app.t.value == 0.0 and not app.play.playing


def test_every_crafted_message_is_refused_and_the_app_keeps_working(app):
    crafted = [
        (app.play, {"max": 10**9}), (app.play, {"interval": 0}), (app.t, {"max": 1e9}),
        (app.amplitude, {"value": float("nan")}), (app.amplitude, {"value": float("inf")}),
        (app.amplitude, {"value": None}), (app.amplitude, {"value": 1e308}),
        (app.amplitude, {"value": "2"}), (app.shape, {"index": None}),
        (app.shape, {"index": 7}), (app.shape, {"index": True}), (app.squared, {"value": 1}),
        (app.points, {"value": 15.5}), (app.play, {"playing": "yes"}),
        (app.panels["info"], {"value": "<script>x</script>"}), (app.widget, {"children": []}),
    ]
    before = app.params
    for w, state in crafted:
        w.comm.handle_msg(message(state))
        assert app.last_error is not None and "keeps its value" in app.last_error, state
        assert app.params == before
    assert app.play.max == 20 and app.t.max == 1.0 and app.play.interval == 40
    assert "script" not in app.panels["info"].value
    app.amplitude.comm.handle_msg(message({"value": 2.0}))  # a real move still works
    assert app.amplitude.value == 2.0 and app.state.peak == pytest.approx(2.0, abs=0.01)
    app.shape.comm.handle_msg(message({"index": 1}))
    assert app.shape.value == "cos"
    app.play.comm.handle_msg(message({"value": 4, "playing": True}))
    assert app.t.value == pytest.approx(0.2) and app.play_button.value


def _noisy(value: float) -> float:
    """``value`` as a page's float slider sends it back: one rounding step off."""
    return math.nextafter(value, math.inf)


def test_a_float_slider_echo_of_the_kernels_value_changes_nothing(app):
    """noUiSlider reports -88.99999999999999 for -89 and the page sends it back: the echo of
    each value set in the kernel is dropped, the older ones too when they come late."""
    computes, draws = app.compute_count, app.draw_count
    for amplitude in (1.5, 1.7, 1.9):                 # the kernel sets three values
        app.amplitude.value = amplitude
    assert (app.compute_count, app.draw_count) == (computes + 3, draws + 3)
    for amplitude in (1.5, 1.9):      # late echoes (1.7's came back exact: never sent)
        app.amplitude.comm.handle_msg(message({"value": _noisy(amplitude)}))
    assert app.amplitude.value == 1.9 and app.last_error is None
    assert (app.compute_count, app.draw_count) == (computes + 3, draws + 3)
    assert app.amplitude._lesson_echoes.dropped == 2
    app.t.value = 0.35                                 # the frame slider too (Play)
    app.t.comm.handle_msg(message({"value": _noisy(0.35)}))
    assert app.t.value == 0.35 and app.draw_count == draws + 4


def test_a_person_moving_a_float_slider_is_never_taken_for_an_echo(app):
    app.amplitude.value = 1.5
    app.amplitude.value = 1.6
    app.amplitude.comm.handle_msg(message({"value": 1.5}))   # back one step, exactly
    assert app.amplitude.value == 1.5 and app.state.peak == pytest.approx(1.5, abs=0.01)
    app.amplitude.comm.handle_msg(message({"value": 1.6000001}))   # not a rounding apart
    assert app.amplitude.value == 1.6000001
    app.amplitude.comm.handle_msg(message({"value": _noisy(1.6000001)}))
    assert app.amplitude.value == 1.6000001            # within rounding of itself: no change
    computes = app.compute_count
    app.amplitude.comm.handle_msg(message({"value": 2.0}))
    assert app.amplitude.value == 2.0 and app.compute_count == computes + 1
    # an echo of a value whose turn has passed is a person's move (pending values go in order)
    app.amplitude.value = 1.0
    app.amplitude.value = 1.2
    app.amplitude.comm.handle_msg(message({"value": _noisy(1.2)}))  # 1.0's echo never came
    app.amplitude.comm.handle_msg(message({"value": _noisy(1.0)}))
    assert app.amplitude.value == _noisy(1.0)


def test_a_failing_callback_shows_one_line_and_leaves_the_app_working():
    class Fragile(WaveApp):
        def compute(self, p):
            if p.amplitude > 2.5:
                raise ValueError("too tall to draw")
            return super().compute(p)

    app = Fragile()
    app.amplitude.value = 3.0
    assert app.last_error == "too tall to draw" and app.state.peak == pytest.approx(1.0, abs=0.01)
    app.amplitude.value = 2.0
    assert app.last_error is None and app.state.peak == pytest.approx(2.0, abs=0.01)


def test_figure_has_no_toolbar_resize_handle_or_key_shortcuts(app):
    canvas = app.fig.canvas
    assert canvas.toolbar_visible is False and canvas.resizable is False
    assert canvas.manager.key_press_handler_id is None
    from matplotlib.backend_bases import KeyEvent
    for key in "opkl":   # matplotlib's pan, zoom and log-scale shortcuts do nothing here
        canvas.callbacks.process("key_press_event", KeyEvent("key_press_event", canvas, key))
    assert str(canvas.toolbar.mode) == "" and app.ax.get_xscale() == "linear"


def test_gif_frames_are_readable_keep_real_time_and_the_link_goes_stale(app, tmp_path):
    path = app.save_gif(tmp_path / "wave.gif", step=4)
    with Image.open(path) as gif:
        assert gif.n_frames == 6 and gif.width >= 1280
        # seconds_per_unit=2 and step 4 x 0.05: each frame stands for 0.4 s of real time
        assert gif.info["duration"] == pytest.approx(400, abs=10)
    assert app.t.value == 0.0                          # put back where it was
    app.gif_button.click()
    assert "lesson-gif-link" in app.gif_link.value and "21 frames" in app.gif_link.value
    app.t.value = 0.5
    assert app.gif_link.value                          # same scenario: still true
    app.amplitude.value = 2.0
    assert app.gif_link.value == ""                    # the scenario changed
    for bad in ({"fps": 0}, {"fps": float("nan")}, {"step": 0}, {"dpi": 10**6}):
        with pytest.raises(ValueError):
            app.save_gif(tmp_path / "x.gif", **bad)


def _mouse(fig, name, x, y, buttons=None):
    button = 1 if name == "button_press_event" or buttons else None
    event = MouseEvent(name, fig.canvas, x, y, button=button)
    if buttons is not None:
        event.buttons = buttons
    return event


def test_a_drag_always_ends(app):
    fig = app.fig
    moved, ended = [], []
    drag = DragHandler(fig, on_press=lambda e: "dot", on_move=lambda item, e: moved.append(item),
                       on_release=lambda item, e: ended.append(item))
    x, y = fig.bbox.width / 2, fig.bbox.height / 2
    fig.canvas.callbacks.process("button_press_event", _mouse(fig, "button_press_event", x, y))
    fig.canvas.callbacks.process("motion_notify_event",
                                 _mouse(fig, "motion_notify_event", x + 5, y, buttons={1}))
    assert drag.active and moved == ["dot"]
    # the button was let go outside the canvas: the next move has no button held
    fig.canvas.callbacks.process("motion_notify_event",
                                 _mouse(fig, "motion_notify_event", x + 9, y, buttons=set()))
    assert not drag.active and ended == ["dot"] and moved == ["dot"]
    fig.canvas.callbacks.process("button_press_event", _mouse(fig, "button_press_event", x, y))
    from matplotlib.backend_bases import LocationEvent
    fig.canvas.callbacks.process("figure_leave_event",
                                 LocationEvent("figure_leave_event", fig.canvas, x, y))
    assert not drag.active and ended == ["dot", "dot"]


def test_play_in_the_kernel_follows_the_clock_and_pauses(app):
    """In a kernel Play is a task of the kernel's event loop (not the page's ticks)."""
    import asyncio

    app._kernel_play = True

    async def play_to_the_end():
        app.play_button.value = True
        assert app._play_task is not None and app.play_button.description == "Pause"
        await asyncio.wait_for(app._play_task, timeout=60)

    draws = app.draw_count
    run_async(play_to_the_end())
    assert app.t.value == 1.0 and app.play.value == 20 and not app.play.playing
    assert not app.play_button.value and app.play_button.description == "Play"
    assert 1 <= app.draw_count - draws <= 20           # at most one draw per frame

    async def play_and_pause():
        app.play_button.value = True                   # at the end: from the start
        assert app.t.value == 0.0
        await asyncio.sleep(0)                         # the task's first step: at once
        assert app.play.value in (1, 2)
        await asyncio.sleep(0.15)
        app.play_button.value = False
        paused = app.t.value
        await asyncio.sleep(0.3)
        return paused

    paused = run_async(play_and_pause())
    assert paused < 1.0 and app.t.value == paused     # Pause keeps it there
    assert app._play_task is None and app.play_button.description == "Play"


def test_the_release_is_the_last_move_of_a_drag(app):
    """The page drops moves faster than its rate limit: where the button was let go is
    applied as a move before the drag ends (once, not again when the last move was there)."""
    fig = app.fig
    seen = []
    drag = DragHandler(fig, on_press=lambda e: "dot",
                on_move=lambda item, e: seen.append(("move", round(e.x))),
                on_release=lambda item, e: seen.append(("end", round(e.x))))
    x, y = fig.bbox.width / 2, fig.bbox.height / 2
    process = fig.canvas.callbacks.process
    process("button_press_event", _mouse(fig, "button_press_event", x, y))
    process("motion_notify_event", _mouse(fig, "motion_notify_event", x + 5, y, buttons={1}))
    process("button_release_event", _mouse(fig, "button_release_event", x + 40, y))
    assert seen == [("move", round(x + 5)), ("move", round(x + 40)), ("end", round(x + 40))]
    # a move the page sent before the release but that arrives after it changes nothing
    process("motion_notify_event", _mouse(fig, "motion_notify_event", x + 30, y, buttons={1}))
    assert len(seen) == 3
    seen.clear()
    process("button_press_event", _mouse(fig, "button_press_event", x, y))
    process("motion_notify_event", _mouse(fig, "motion_notify_event", x + 7, y, buttons={1}))
    process("button_release_event", _mouse(fig, "button_release_event", x + 7, y))
    assert seen == [("move", round(x + 7)), ("end", round(x + 7))] and not drag.active


def test_pointer_moves_are_paced_by_what_a_frame_costs(app):
    from lessons_lib.apps.core.figure import pace_pointer
    from lessons_lib.apps.fastdraw.painter import THROTTLE_MS_RANGE

    assert app.fig.canvas.pan_zoom_throttle == 33      # outside a kernel: ipympl's default
    before = app.painter.full_draws
    ms = pace_pointer(app.fig, extra_seconds=0.5)      # a compute of 0.5 s: the slowest rate
    assert ms == THROTTLE_MS_RANGE[1] == app.fig.canvas.pan_zoom_throttle
    assert app.painter.full_draws == before + 1        # and the background is cached
    assert THROTTLE_MS_RANGE[0] <= pace_pointer(app.fig) <= THROTTLE_MS_RANGE[1]


@pytest.mark.parametrize("typed, value", [
    ("-0.5", -0.5), ("\u22120.5", -0.5), ("1/2", 0.5), ("4/3", 4 / 3), (" \u22121 / 2 ", -0.5),
    ("5.61 m", 5.61), ("30°", 30.0), ("18.9 %", 18.9), ("1,5", 1.5), ("2e-3", 0.002),
    (".5", 0.5), ("+3", 3.0)])
def test_numbers_typed_the_way_people_type_them(typed, value):
    assert parse_number(typed) == pytest.approx(value)


@pytest.mark.parametrize("typed", ["", "abc", "1/0", "1e999", "1.2.3", "--1", "m 5", "3 4"])
def test_what_is_not_a_number_is_refused_clearly(typed):
    with pytest.raises(ValueError):
        parse_number(typed)


def test_number_question_accepts_minus_sign_and_fractions_and_names_known_mistakes():
    q = NumberQuestion("sin(-30°)?", -0.5, hint="sine is odd", tol=0.01,
                       wrong={0.5: "The sign: sine of a negative angle is negative."})
    assert q.submit("\u22120.5") and q.solved
    assert not q.submit("0.5") and "The sign" in q.feedback.value
    assert not q.submit("1/3") and "too high" in q.feedback.value
    q2 = NumberQuestion("4/3?", 4 / 3, hint="", tol=0.005)
    assert q2.submit("4/3") and not q2.submit("1.3")
    for bad in ({"answer": float("nan")}, {"tol": -1}, {"wrong": {-0.5: "same"}}):
        kw = {"prompt": "?", "answer": -0.5, "hint": "", "tol": 0.01, **bad}
        with pytest.raises(ValueError):
            NumberQuestion(**kw)
    q.control.comm.handle_msg(message({"value": "x" * 10_000}))
    assert q.control.value != "x" * 10_000 and "keeps its value" in q.feedback.value


def test_choice_question_explains_each_wrong_option():
    q = ChoiceQuestion("Which order?", {"YXZ": None, "ZXY": "That is the reverse order.",
                                        "XYZ": ""}, answer="YXZ", hint="outer to inner")
    assert not q.submit("ZXY") and "reverse order" in q.feedback.value
    assert not q.submit("XYZ") and "Think again" in q.feedback.value
    assert q.submit("YXZ")
    shown = []
    q2 = ChoiceQuestion("?", ["a", "b"], "a", "", show=lambda: shown.append(1))
    q2.show_button.click()
    assert shown == [1]


def _my_double(x):
    return 2 * x + 1  # a learner's wrong answer


def test_check_function_in_jupyterlab_gives_a_verdict(monkeypatch):
    monkeypatch.setenv("LESSONS_VOILA", "0")
    out = check_function(_my_double, lambda x: 2 * x, [(1,), (2,)], hint="double it")
    assert not out.ok and "2 of 2 checks failed" in out.value
    # the hint waits behind a disclosure: Run All must not print it before the learner tries
    assert "<details><summary>Hint</summary>" in out.value
    assert out.value.index("<details>") < out.value.index("double it")
    assert check_function(lambda x: 2 * x, lambda x: 2 * x, [(1,)], hint="").ok


def test_check_function_needs_no_hint(monkeypatch):
    """Issue 41: a learner checking a function of their own (lesson 1's my_ry) got
    "missing 1 required positional argument: 'hint'"; without one, a failure shows no empty
    Hint disclosure."""
    monkeypatch.setenv("LESSONS_VOILA", "0")
    out = check_function(_my_double, lambda x: 2 * x, [(1,), (2,)])
    assert not out.ok and "2 of 2 checks failed" in out.value and "Hint" not in out.value
    assert check_function(lambda x: 2 * x, lambda x: 2 * x, [(1,)]).ok
    with pytest.raises(ValueError, match="hint is text"):
        check_function(_my_double, lambda x: 2 * x, [(1,)], hint=3)


def test_check_function_in_voila_shows_code_and_the_widget_never_a_failure(monkeypatch):
    monkeypatch.setenv("LESSONS_VOILA", "1")
    question = NumberQuestion("What is 2 x 3?", 6, hint="", tol=0)
    out = check_function(_my_double, lambda x: 2 * x, [(1,)], hint="", widget=question)
    assert not out.ok
    text = out.children[0].value
    assert "_my_double" in text and "2</span>" in text.replace(" ", "")  # highlighted code
    assert "failed" not in text and question.widget in out.children


def test_prompts_and_verdicts_set_their_own_line_height():
    """widgets.HTML lays text out at the widgets' 28 px line height: a prompt or verdict that
    wraps (lesson 1's 'Reach this orientation', lesson 4's exercise 4) looked double-spaced."""
    from lessons_lib.apps.core.exercise import LINE_HEIGHT

    q = NumberQuestion("A long question " * 20, 1.0, hint="a hint " * 30)
    assert LINE_HEIGHT in q.widget.children[0].value
    q.show_hint()
    assert LINE_HEIGHT in q.feedback.value
    q.submit("2")
    assert LINE_HEIGHT in q.feedback.value
    q.submit("1")
    assert LINE_HEIGHT in q.feedback.value


def test_check_function_in_voila_shows_the_learners_function_not_the_lambda_around_it(
        monkeypatch):
    """Lesson 2 checks ``lambda q0, q1, t: as_float_array(my_nlerp(...))``: the page must show
    my_nlerp, not the check_function call (which holds the widget question's answer)."""
    monkeypatch.setenv("LESSONS_VOILA", "1")
    question = ChoiceQuestion("Which?", ["right one", "wrong one"], "right one", hint="")
    out = check_function(lambda x: float(_my_double(x)), lambda x: 2 * x, [(1,)], hint="",
                         name="_my_double", widget=question)
    text = out.children[0].value
    assert "def" in text and "_my_double" in text and "return" in text
    assert "check_function" not in text and "right one" not in text and "lambda" not in text


def test_check_function_names_the_failed_case_as_a_learner_writes_it(monkeypatch):
    """Lesson 4's my_cross in JupyterLab said 'my_cross(array([4.43056106, 0.11327553]),
    ...)': numpy's repr, eight decimals. The case reads as a call with rounded tuples."""
    monkeypatch.setenv("LESSONS_VOILA", "0")
    a, b, c = np.array([4.43056106, 0.11327553]), np.array([4.762, -4.19164]), np.array([1, 2])
    out = check_function(lambda a, b, c: -a[0], lambda a, b, c: a[0], [(a, b, c)], hint="")
    assert not out.ok
    assert "(4.431, 0.113), (4.762, -4.192), (1, 2)) gave -4.431, expected 4.431" in out.value
    assert "array(" not in out.value


@pytest.mark.parametrize("x, digits, sign, text", [
    (-0.0, 1, False, "0.0"), (-0.0001, 2, True, "+0.00"), (-1.25, 1, False, "\u22121.2"),
    (0.5, 3, True, "+0.500"), (12.0, 0, False, "12")])
def test_readouts_never_say_minus_zero(x, digits, sign, text):
    assert fmt_number(x, digits, sign) == text


def test_side_by_side_wraps_the_controls_under_the_figure_instead_of_squeezing_them():
    import ipywidgets as widgets

    left, right = widgets.VBox(), widgets.VBox(layout=widgets.Layout(width="420px"))
    row = side_by_side(left, right)
    assert list(row.children) == [left, right] and row.layout.flex_flow == "row wrap"
    assert left.layout.flex == right.layout.flex == "0 0 auto"  # neither shrinks
    assert right.layout.width == "420px"


@pytest.mark.parametrize("name", ["GimbalApp", "InterpolationApp", "SteeringApp", "FunnelApp",
                                  "GridApp"])
def test_every_lesson_app_uses_the_shared_layout(name):
    """The figure in one column, the controls in one that wraps under it on a narrow page
    (in JupyterLab with the file browser open a row that could not wrap squeezed the side
    panel and clipped its controls); secondary controls behind "More controls"."""
    import lessons_lib.apps as apps
    from lessons_lib.apps.core import iter_widgets

    app = getattr(apps, name)()
    root = app.widget if app.widget is app.app_root else app.widget.children[0]
    assert root is app.app_root and "lesson-app" in root._dom_classes
    assert root.layout.flex_flow == "row wrap"
    figure_column, side = root.children[:2]
    assert app.fig.canvas in figure_column.children and figure_column.layout.flex == "0 0 auto"
    assert "lesson-side" in side._dom_classes
    assert app.more_box is not None and app.more_box.layout.display == "none"
    app.more_button.value = True
    assert app.more_box.layout.display == "flex" and app.last_error is None
    hidden = set(map(id, iter_widgets(app.more_box)))
    shown = set(map(id, iter_widgets(app.app_root))) - hidden
    primary = set(app.primary_names())
    assert len(hidden) > 1, "nothing behind the toggle"
    for name in app._specs:     # what the specs declare is where the layout puts it
        assert (id(getattr(app, name)) in shown) == (name in primary), name


@pytest.mark.parametrize("name", ["GimbalApp", "InterpolationApp", "SteeringApp", "FunnelApp",
                                  "GridApp"])
def test_every_button_has_text_so_it_shows_without_the_icon_font(name):
    """Font Awesome comes from a CDN: offline (a classroom without internet) the icons are
    missing, and a button with an icon and no text is a blank box."""
    import ipywidgets as widgets

    import lessons_lib.apps as apps
    from lessons_lib.apps.core import iter_widgets

    app = getattr(apps, name)()
    buttons = [w for w in iter_widgets(app.widget)
               if isinstance(w, widgets.Button | widgets.ToggleButton)]
    assert buttons and all(b.description.strip() for b in buttons), \
        [b.tooltip for b in buttons if not b.description.strip()]


def test_a_kernel_animation_waits_for_the_next_frame_and_rests_after_a_slow_one():
    """frame_pause (Play and Lock it): until the next frame is due; after a frame that cost
    more than the interval, a share of its cost (PLAY_REST) so the page keeps up; never 0."""
    from lessons_lib.apps.core.app import PLAY_REST, frame_pause

    assert frame_pause(drawn=10.0, due=10.040, now=10.010) == pytest.approx(0.030)
    late = frame_pause(drawn=10.0, due=10.040, now=10.100)         # a 100 ms frame
    assert late == pytest.approx(PLAY_REST * 0.100) and 0.0 < PLAY_REST < 0.5
    assert frame_pause(drawn=10.0, due=10.0, now=10.0) == pytest.approx(0.002)


# -- apps reach LessonApp only through its hooks --------------------------------------------
def lessonapp_private_names(core: Path) -> set[str]:
    """Every private name of LessonApp: its methods and class attributes (and its bases'),
    and every ``self._x`` the core's modules assign."""
    import ast

    from lessons_lib.apps.core import LessonApp

    names = {n for cls in LessonApp.__mro__ if cls is not object for n in vars(cls)
             if n.startswith("_") and not n.endswith("_")}   # not IPython's _repr_x_
    for path in core.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "self" and node.attr.startswith("_") \
                    and not node.attr.startswith("__") and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return names


def private_reaches(apps: Path, private: set[str]) -> list[str]:
    """Where a lesson's app package reads, writes or overrides one of ``private``: an
    attribute ``<name>._x`` (``self._depth``, ``app._specs``) or a method ``def _x``."""
    import ast

    found = []
    for path in sorted(apps.glob("*/*.py")):
        if path.parent.name in ("core", "fastdraw"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in private \
                    and isinstance(node.value, ast.Name):
                found.append(f"{path.parent.name}/{path.name}:{node.lineno} "
                             f"{node.value.id}.{node.attr}")
            elif isinstance(node, ast.ClassDef):
                found += [f"{path.parent.name}/{path.name}:{f.lineno} def {f.name}"
                          for f in node.body if f.__class__.__name__.endswith("FunctionDef")
                          and f.name in private]
    return found


def test_no_lesson_app_touches_lessonapps_private_state():
    """What an app needs of the loop is a hook (frame_end, control_bounds, compute_cache,
    redraw-only controls, animate...), never LessonApp's private state or methods."""
    import lessons_lib.apps as apps

    root = Path(apps.__file__).parent
    private = lessonapp_private_names(root / "core")
    assert {"_depth", "_pending", "_computed_for", "_specs", "_on_frame_slider",
            "_kernel_play"} <= private
    assert private_reaches(root, private) == []


# -- the hooks ------------------------------------------------------------------------------
class HookedWave(WaveApp):
    """WaveApp with every hook of the loop in use: a redraw-only toggle, a cache of two
    states, the points slider bounded by the amplitude, the frame ending with the state."""

    controls = (*WaveApp.controls, Toggle("grid", "grid", redraw=True))
    compute_cache = 2

    def control_bounds(self, params):
        return {"points": (10, 100 if params.amplitude < 2 else 200)}

    def frame_end(self, state):
        return 0.5 if state.peak < 1.5 else None

    def draw(self, state, frame) -> None:
        super().draw(state, frame)
        self.ax.grid(self.params.grid)


def test_a_redraw_only_control_draws_without_computing():
    app = HookedWave()
    computed, drawn = app.compute_count, app.draw_count
    app.grid.value = True
    assert app.compute_count == computed and app.draw_count == drawn + 1
    assert "grid" not in app.compute_params(app.params)
    assert app.ax.xaxis.get_gridlines()[0].get_visible()


def test_the_compute_cache_keeps_the_last_states_by_params():
    app = HookedWave()
    first = app.state
    app.amplitude.value = 1.2
    app.amplitude.value = 1.0                  # back: from the cache
    assert app.state is first and app.compute_count == 2
    app.amplitude.value = 1.3
    app.amplitude.value = 1.4                  # two newer states push the first one out
    app.amplitude.value = 1.0
    assert app.state is not first and app.compute_count == 5
    app.recompute()                            # forgets them all
    assert app.compute_count == 6


def test_control_bounds_follow_the_params_and_clamp_in_the_same_update():
    app = HookedWave(amplitude=2.5, points=200)
    assert app.points.max == 200 and app.points.value == 200
    computed = app.compute_count
    app.amplitude.value = 1.0
    assert app.points.max == 100 and app.points.value == 100
    assert app.compute_count == computed + 1 and app.state.x.size == 100


def test_frame_end_fits_the_frame_and_play_and_keeps_a_frame_at_the_end():
    app = HookedWave()                         # peak 1.0: the frame ends at 0.5
    assert (app.t.max, app.play.max) == (0.5, 10) and app.frame_values()[-1] == 0.5
    app.t.value = 0.5
    app.amplitude.value = 2.0                  # peak 2: the spec's own end, 1.0
    assert (app.t.max, app.play.max) == (1.0, 20) and app.t.value == 1.0
    app.t.value = 0.3
    app.amplitude.value = 1.0
    assert app.t.max == 0.5 and app.t.value == 0.3 and app.play.value == 6


def test_presets_match_sliders_to_half_a_step():
    app = WaveApp()
    app.set(amplitude=2.5, shape="sin")
    assert app.preset.value == "tall sine"
    app.amplitude.value = 2.5000000000000004    # what a page's slider sends back
    assert app.preset.value == "tall sine"
    app.amplitude.value = 2.6                   # the next step: another setting
    assert app.preset.value == app.custom_label


def test_a_preset_and_controls_at_construction():
    app = WaveApp("tall sine", squared=True)
    assert (app.amplitude.value, app.squared.value) == (2.5, True)
    assert app.preset.value == "tall sine"     # squared is not part of that preset
    with pytest.raises(ValueError, match="unknown preset 'tall'; choose one of tall sine"):
        WaveApp("tall")


def test_text_collisions_reads_a_3d_text_where_the_view_draws_it():
    """A text in a 3D axes reports its box at its x and y read as 2D data: lesson 3's slope
    labels (near x = 60 m) seemed far outside the figure, and two labels drawn on one spot
    were not seen to overlap. Both are read where the projection puts them."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from lessons_lib.apps.core.figure import text_collisions

    fig = Figure(figsize=(4, 3), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.1, 0.1, 0.8, 0.8), projection="3d")
    ax.set(xlim=(58, 62), ylim=(58, 62), zlim=(0, 4))
    ax.set_axis_off()
    ax.text(60, 60, 2, "apart", fontsize=9)
    assert text_collisions(fig) == []
    ax.text(60, 60, 2, "together", fontsize=9)
    assert text_collisions(fig) == ["'apart' overlaps 'together'"]


def test_text_collisions_leaves_out_tick_labels_beyond_the_axis_limits():
    """A locator gives ticks past the view limits and matplotlib keeps their labels without
    drawing them: lesson 3's tuning plot held a "0.4" over the figure's top at limits of
    ±0.275. Only the drawn labels count; a drawn one over the edge still does."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from lessons_lib.apps.core.figure import text_collisions

    fig = Figure(figsize=(3, 1.2), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.3, 0.1, 0.6, 0.9))     # up to the figure's top
    ax.set_yticks([-0.4, -0.2, 0.0, 0.2, 0.4])
    ax.set_ylim(-0.275, 0.275)
    ax.set_xticks([])
    assert text_collisions(fig) == []
    ax.set_ylim(-0.41, 0.41)        # now "0.4" is drawn, and its top is over the edge
    assert "'0.4' is cut by the figure's edge" in text_collisions(fig)


# -- the small copy beside a question (issue 45) ----------------------------------------------
class _TargetWave(WaveApp):
    """A WaveApp with an option of its own, which its copies keep (the copy_args hook),
    and one primary control (the others behind "More controls")."""

    controls = (dataclasses.replace(WaveApp.controls[0], primary=True), *WaveApp.controls[1:])
    compact_size = (3.0, 2.0)

    def __init__(self, preset=None, *, marker: str = "o", **controls):
        self.marker = marker
        super().__init__(preset, **controls)

    def copy_args(self, values):
        return {"marker": self.marker}


def test_a_copy_is_compact_starts_at_the_originals_values_and_then_goes_its_own_way(app):
    app.set(amplitude=2.0, shape="cos", t=0.35)
    copy = app.copy()
    assert type(copy) is WaveApp and copy.compact and not app.compact
    assert copy.fig is not app.fig and copy.widget is not app.widget
    assert dict(copy.params) == dict(app.params) and copy.t.value == app.t.value
    assert copy.state.peak == pytest.approx(app.state.peak)
    copy.set(amplitude=0.5, t=0.8)
    assert app.amplitude.value == 2.0 and app.t.value == 0.35    # the original is untouched
    app.set(points=120)
    assert copy.points.value == 50                               # and the other way round
    assert app.copy(amplitude=1.5, t=0.1).params.amplitude == 1.5   # controls override


def test_a_copy_leaves_out_more_controls_and_save_gif_and_keeps_the_status_line():
    from lessons_lib.apps.core import iter_widgets

    app = _TargetWave()
    copy = app.copy()
    inside = list(iter_widgets(copy.widget))
    assert app.gif_button is not None and copy.gif_button is None
    assert copy.more_button is None and app.more_button is not None
    assert any(w is copy.status for w in inside) and any(w is copy.play_button for w in inside)
    assert not any(w is copy.squared for w in inside)     # a secondary control: left out


def test_copy_args_gives_the_apps_own_options_and_compact_size_the_figure():
    big = _TargetWave(marker="s", amplitude=2.0)
    copy = big.copy()
    assert copy.marker == "s" and copy.compact and copy.amplitude.value == 2.0
    assert tuple(copy.figure_inches((4.0, 2.5))) == (3.0, 2.0)
    assert big.figure_inches((4.0, 2.5)) == (4.0, 2.5)


def test_a_copy_of_an_unknown_control_is_refused_by_name_before_any_figure(app):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    with pytest.raises(ValueError, match="bogus.*its controls are amplitude"):
        app.copy(bogus=1)
    with pytest.raises(ValueError, match="amplitude"):
        app.copy(amplitude=99.0)                           # out of the slider's range
    assert plt.get_fignums() == before


def test_copy_args_may_not_set_what_the_copy_sets_itself():
    class Clash(_TargetWave):
        def copy_args(self, values):
            return {"compact": False}

    with pytest.raises(ValueError, match="compact"):
        Clash().copy()
    with pytest.raises(ValueError, match="compact"):
        WaveApp(compact="yes")


class _TypedWave(WaveApp):
    state_type = WaveState


def test_draw_and_panel_refuse_a_foreign_state_and_a_frame_off_the_slider():
    """The loop checks what a lesson's draw and panel get (``state_type``, the frame's
    range), so a lesson writes no such checks of its own."""
    app = _TypedWave()
    for method in (app.draw, app.panel):
        with pytest.raises(ValueError, match=r"_TypedWave\.(draw|panel)\(\): state must be a "
                                             r"WaveState"):
            method(object(), 0.5)
        for frame in (1.5, -0.1, float("nan"), "0.5", None):
            with pytest.raises(ValueError, match=r"frame t"):
                method(app.state, frame)
    app.draw(app.state, 1.0)                     # the frame's own end is fine
    assert app.panel(app.state, 0.0) == WaveApp.panel(app, app.state, 0.0)


def test_without_state_type_any_state_reaches_draw_but_the_frame_is_still_checked():
    app = WaveApp()
    with pytest.raises(ValueError, match="frame t"):
        app.draw(app.state, 2.0)
    with pytest.raises(AttributeError):          # the lesson's own code meets the bad state
        app.draw(object(), 0.5)


def test_the_loop_wraps_each_draw_once_even_down_a_chain_of_subclasses():
    class Again(_TypedWave):
        def draw(self, state, frame) -> None:
            super().draw(state, frame)

    assert getattr(Again.draw, "checked_by_loop", False)
    assert Again.__dict__["draw"].__wrapped__.__qualname__.endswith("Again.draw")
    app = Again()
    with pytest.raises(ValueError, match=r"Again\.draw\(\): state must be"):
        app.draw(None, 0.0)


def test_the_page_gets_every_widget_state_built_once_and_the_same_as_ipywidgets():
    """A page's ``request_states`` is answered with ipywidgets' own message, each widget's
    state built once (ipywidgets 8.1 builds them all twice)."""
    import ipywidgets as widgets
    from ipywidgets.widgets import widget as widget_module

    from lessons_lib.apps.core import guard

    before = set(widget_module._instances)
    WaveApp()       # an app installs the answer
    # the page of this app alone (other tests leave closed widgets in boxes behind)
    _instances = {k: w for k, w in widget_module._instances.items() if k not in before}
    assert widgets.Widget._handle_control_comm_msg.__func__ is guard._answer_states
    sent = []
    control = type("Control", (), {"send": lambda self, data, buffers=None: sent.append(data)})
    request = {"content": {"data": {"method": "request_states"}}}
    built = []
    original = widgets.Widget.get_state

    def counted(self, *args, **kwargs):
        built.append(self.model_id)
        return original(self, *args, **kwargs)

    saved = widgets.Widget._control_comm
    widgets.Widget._control_comm = control()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(widget_module, "_instances", _instances)
            mp.setattr(widgets.Widget, "get_state", counted)
            widgets.Widget._handle_control_comm_msg(request)
            assert len(built) == len(set(built)) == len(_instances)
            guard._IPYWIDGETS_ANSWER(widgets.Widget, request)   # ipywidgets' own
            assert len(built) == 3 * len(_instances)
        ours, theirs = sent
        assert ours == theirs and ours["method"] == "update_states"
        # a crafted control message is dropped, not raised (ipywidgets raised: a traceback
        # printed to the page)
        with pytest.raises(RuntimeError, match="Unknown"):
            guard._IPYWIDGETS_ANSWER(widgets.Widget, {"content": {"data": {"method": "x"}}})
        for data in ({"method": "x"}, {"no method": 1}, {"method": None}, ["request_states"]):
            assert widgets.Widget._handle_control_comm_msg({"content": {"data": data}}) is None
        assert len(sent) == 2
    finally:
        widgets.Widget._control_comm = saved
