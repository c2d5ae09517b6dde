"""Rules every app keeps, checked on every app in the catalogue (headless, through ipympl)."""

from __future__ import annotations

import ipywidgets as widgets
import matplotlib.pyplot as plt
import pytest
from matplotlib.text import Text

from lessons_lib import apps
from lessons_lib.apps.core import MIN_FONT_SIZE, LessonApp, iter_widgets
from lessons_lib.catalogue import app_registry

NAMES = sorted(app_registry())


@pytest.fixture(params=NAMES)
def app(request):
    return getattr(apps, request.param)()


def _texts(fig):
    fig.canvas.draw()
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def test_every_app_runs_on_the_shared_loop(app):
    assert isinstance(app, LessonApp), f"{type(app).__name__} is not a core.LessonApp"


def test_no_figure_text_under_the_projector_minimum(app):
    small = sorted({(round(t.get_fontsize(), 1), t.get_text()[:30]) for t in _texts(app.fig)
                    if t.get_fontsize() < MIN_FONT_SIZE})
    assert not small, f"text under {MIN_FONT_SIZE} pt (12.5 px): {small[:10]}"


def test_no_toolbar_no_resize_handle_and_no_new_figures_on_change(app):
    canvas = app.fig.canvas
    assert canvas.toolbar_visible is False and canvas.resizable is False
    before, draws = plt.get_fignums(), app.draw_count
    slider = next(w for w in iter_widgets(app.widget)
                  if isinstance(w, widgets.FloatSlider | widgets.IntSlider) and not w.disabled)
    slider.value = slider.value + slider.step if slider.value < slider.max else slider.min
    assert app.draw_count == draws + 1 and plt.get_fignums() == before


def test_a_smooth_play_asks_for_at_least_20_frames_a_second(app):
    """Issue 14's target for an animation: Play paints >= 20 frames a second, so it must
    ask for that many (the kernel's Play draws one per ``interval_ms``). A Play through
    whole steps (lesson 4's funnel, one step to read every 0.9 s) is not a motion."""
    if app.frame is None or app.frame.integer:
        pytest.skip(f"{type(app).__name__} has no smooth Play")
    assert 1000.0 / app.frame.interval_ms >= 20, app.frame.interval_ms
