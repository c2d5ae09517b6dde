"""Lesson 2's figures in Korean: every glyph drawn, no English, every label whole and apart.

The app is drawn in the states that show the most text (each preset; the long way, where
nlerp runs off the speed plot and its peak is named; start equal to end, where the 4D
picture says there is no plane; the up-vector paths), at every room of tests/rooms.py in
normal and presenter mode (Hangul is wider and taller than Latin text); and so are the small
copy beside exercise 3 and the pace figure under exercise 5.
"""

from __future__ import annotations

import warnings

import pytest
from latin import figure_problems, figure_texts
from rooms import ROOMS

from lessons_lib.apps import InterpolationApp
from lessons_lib.apps.core.figure import text_collisions
from lessons_lib.apps.interpolation import exercises
from lessons_lib.apps.interpolation.figures import pace_figure
from lessons_lib.apps.interpolation.model import LABELS, PRESETS
from lessons_lib.i18n import _


def _drawn(fig, caplog) -> list[str]:
    """What is wrong with ``fig`` once drawn in Korean (see latin.figure_problems)."""
    caplog.set_level("WARNING", logger="matplotlib.font_manager")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.canvas.draw()
    return figure_problems([fig], caught, caplog.records)


def _fitted(app, where: str) -> list[str]:
    """Text collisions of ``app`` fitted to every room, normal and presenter."""
    found = []
    for present in (False, True):
        app.present(present)
        for room, size in ROOMS.items():
            app.fit(*size)
            found += [f"{where}, {room}{' presenter' if present else ''}: {c}"
                      for c in text_collisions(app.fig)]
    app.present(False)
    return found


#: The states the walk draws: each preset, then the ones with their own texts.
STATES = {**{name: dict(preset=name) for name in PRESETS},
          "long way (nlerp off the speed plot)": dict(preset="Wrap-around: yaw −175° → 175°",
                                                      long_way=True, t=0.5),
          "start equal to end": dict(yaw0=20, pitch0=10, roll0=0, yaw1=20, pitch1=10, roll1=0),
          "start equal to end, long way": dict(yaw0=20, pitch0=10, roll0=0, yaw1=20,
                                               pitch1=10, roll1=0, long_way=True),
          "up-vector paths, wrapped": dict(preset="Wrap-around: yaw −175° → 175°",
                                           show_up=True, wrap_euler=True)}
#: States whose labels collide in English too (q₀ and +q₁ are one point of the 4D picture
#: when the long way goes from a pose to itself): their glyphs are checked, not their fit.
FIT_IN_ENGLISH_TOO = {"start equal to end, long way"}


@pytest.mark.parametrize("state", sorted(STATES))
def test_the_app_in_korean_has_every_glyph_and_no_english(korean, caplog, state):
    values = dict(STATES[state])
    app = InterpolationApp(values.pop("preset", None), **values)
    assert _drawn(app.fig, caplog) == []
    texts = " ".join(figure_texts(app.fig))
    assert _(LABELS["slerp"]) in texts and _(LABELS["slerp"]) != LABELS["slerp"], texts[:200]
    if state not in FIT_IN_ENGLISH_TOO:
        assert _fitted(app, state) == []
    else:
        app.fit(*ROOMS["lab"])
    assert _drawn(app.fig, caplog) == []          # the narrow arrangement's titles too


def test_the_off_chart_peak_is_named_in_korean(korean, caplog):
    """The long way's nlerp spins past the speed plot's top: the note that names it is
    Korean in both arrangements."""
    app = InterpolationApp("Wrap-around: yaw −175° → 175°", long_way=True)
    for size in (ROOMS["1280x720"], ROOMS["lab"]):
        app.fit(*size)
        note = app.view.off_chart.get_text()
        assert note.startswith("↑ ") and _(LABELS["nlerp"]) in note, note
        assert _drawn(app.fig, caplog) == []


def test_the_copy_beside_exercise_3_in_korean(korean, caplog):
    question = exercises.halfway_question(InterpolationApp().copy())
    question.show_button.click()
    copy = question.beside
    assert copy.t.value == 0.5
    assert _drawn(copy.fig, caplog) == []
    assert "시작에서" in " ".join(figure_texts(copy.fig))
    assert _fitted(copy, "exercise 3's copy") == []


def test_the_pace_figure_in_korean(korean, caplog):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = pace_figure()
    FigureCanvasAgg(fig)
    assert _drawn(fig, caplog) == []
    assert text_collisions(fig) == []
    assert "회전 θ (도)" in figure_texts(fig)


def test_the_check_sees_english_left_in_a_korean_figure(korean, caplog):
    """The check can fail: an English title on the Korean app is found."""
    app = InterpolationApp()
    app.view.ax_sphere.set_title("nose paths")
    assert _drawn(app.fig, caplog)
