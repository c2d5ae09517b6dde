"""Lesson 4's Play drawn by the page (issue 43): every step of the walk through the corridor,
recorded and replayed over the map, is the step the kernel draws, for each preset; Play in
the page moves the step slider and the step sentence with it."""

from __future__ import annotations

import pytest
from motion_check import (
    Page,
    as_in_a_kernel,
    assert_background_is_steady,
    assert_replay_is_the_kernels,
)

from lessons_lib.apps import fastdraw
from lessons_lib.apps.funnel import FunnelApp

pytestmark = pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")

PRESETS = [p.name for p in FunnelApp.presets]


@pytest.fixture(scope="module")
def app():
    return FunnelApp()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_step_replayed_is_the_kernels(app, preset):
    """One frame a step, each step's replay the kernel's full draw of that step (and told
    apart from the step before), over a map that no step changes."""
    app.apply_preset(preset)
    values = app.motion_values()
    assert values == list(range(app.play.max + 1))
    assert_background_is_steady(app, values)
    assert_replay_is_the_kernels(app, values)


def test_a_step_is_drawn_from_the_frame_asked_for_not_the_slider(app):
    """Recording draws frames the slider does not show: draw and panel take the frame."""
    app.apply_preset(PRESETS[0])
    app.show_frame(app.play.max)
    first, last = app.panel(app.state, 0), app.panel(app.state, app.play.max)
    assert first["step"] != last["step"]
    assert app.panel_widget("step").value == last["step"]


def test_play_in_the_page_moves_the_step_sentence(monkeypatch):
    as_in_a_kernel(monkeypatch)
    app = FunnelApp(PRESETS[0])
    page = Page(app)
    page.says({"type": "ready"})
    app.rewind()
    app.play_button.value = True
    play = page.last("play")
    assert page.last("begin")["frames"] == app.play.max + 1
    assert play["substeps"] == 1 and play["interval_ms"] == app.frame.interval_ms
    draws = app.draw_count
    page.says({"type": "shown", "token": play["token"], "frame": 3})
    assert app.step.value == 3 and app.draw_count == draws
    assert app.panel_widget("step").value == app.panel(app.state, 3)["step"]
    page.says({"type": "ended", "token": play["token"], "frame": app.play.max})
    assert app.step.value == app.play.max and page.kinds()[-1] == "hide"
    assert app.panel_widget("step").value == app.panel(app.state, app.play.max)["step"]
