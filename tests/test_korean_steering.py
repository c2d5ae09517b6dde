"""Lesson 3 in Korean: every figure the steering lesson draws has its Hangul glyphs and no
English, and every sentence its apps, tables and questions show is Korean.

The states drawn are the ones that show the most text: each preset of the main app (its
note, the readout, the numbers, the key and the greyed-out controls' reasons), the phase
portrait with the three controllers and a car placed off an open road's end, the three
term figures, the tuning exercise after a Check and with each hint, the notebook's static
figures, its tables and its two questions."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

from lessons_lib import i18n

sys.path.insert(0, str(Path(__file__).resolve().parent))
from latin import figure_problems, figure_texts, html_text, latin_runs  # noqa: E402


def _english(texts) -> list[str]:
    return [run for t in texts for run in latin_runs(html_text(t))]


def _drawn(figures, caught, records) -> list[str]:
    for fig in figures:
        fig.canvas.draw()
    return figure_problems(figures, caught, records)


def test_the_main_app_in_every_preset_is_korean(korean, caplog):
    from lessons_lib.apps import SteeringApp

    caplog.set_level("WARNING", logger="matplotlib.font_manager")
    app = SteeringApp()
    shown, problems = [], []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name in [p.name for p in app.presets]:
            app.preset.value = name
            app.fig.canvas.draw()
            shown += [app.preset_note.value, *(w.value for w in app.panels.values()),
                      app.preset.label]
            problems += figure_problems([app.fig], caught, caplog.records)
        # the phase portrait (three controllers' labels), a classic controller's readout
        # and greyed-out reasons, the sweep's caption for another controller
        app.set(view="Phase portrait", track="oval")
        app.set(controller="Stanley")
        shown += [w.value for w in app.panels.values()]
        app.set(view="Speed sweep")
        shown += [w.value for w in app.panels.values()]
        # a car placed past an open road's end and far off its side: the placement note
        app.set(controller="Article", view="Terms", track="open_road")
        app.place_car(250.0, 30.0)
        app.fig.canvas.draw()
        shown += [w.value for w in app.panels.values()]
        problems += figure_problems([app.fig], caught, caplog.records)
    assert not problems, problems[:5]
    assert not _english(shown), _english(shown)[:5]
    assert "위치 편차" in " ".join(html_text(t) for t in shown)
    labels = [app.speed.description, app.use_position.description, app.start_offset.tooltip]
    labels += [label for menu in (app.controller, app.track, app.view, app.mode, app.preset)
               for label, _value in menu.options]
    assert not _english(labels), _english(labels)
    texts = " ".join(figure_texts(app.fig))
    assert "트랙 전체" in texts or "차 놓기" in texts, texts[:200]


def test_the_term_figures_are_korean(korean, caplog):
    from lessons_lib.apps.steering import TermApp

    caplog.set_level("WARNING", logger="matplotlib.font_manager")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        apps = [TermApp(term=term) for term in ("position", "heading", "crosstrack")]
        for app in apps:
            app.set(car_y=-3.0)              # the road's right shows on the crosstrack figure
        problems = _drawn([a.fig for a in apps], caught, caplog.records)
    assert not problems, problems[:5]
    shown = [w.value for a in apps for w in a.panels.values()]
    shown += [c.description for a in apps for c in a.control_widgets()]
    assert not _english(shown), _english(shown)[:5]
    assert "크로스트랙 오차" in " ".join(html_text(t) for t in shown)


def test_the_tuning_exercise_is_korean(korean, caplog):
    from lessons_lib.apps.steering import TuningChallenge
    from lessons_lib.apps.steering.challenge import HINTS

    caplog.set_level("WARNING", logger="matplotlib.font_manager")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        app = TuningChallenge(track_name="hairpin", speed=12.0, target=0.25, start_offset=2.0)
        shown = [app.task(), app.check_button.description, app.hint_button.description]
        app.check()                          # the badly tuned start: a verdict that fails
        shown.append(app.feedback.value)
        for _n in HINTS:
            app.show_hint()
            shown.append(app.feedback.value)
        problems = _drawn([app.fig], caught, caplog.records)
    assert not problems, problems[:5]
    assert not _english(shown), _english(shown)[:5]
    assert "힌트" in " ".join(html_text(t) for t in shown)


def test_the_notebooks_figures_tables_and_questions_are_korean(korean, caplog):
    import numpy as np

    from lessons_lib.apps.steering import (
        exercises,
        run_figure,
        slope_figure,
        sweep_figure,
        table,
        worked_example,
    )
    from lessons_lib.controllers import compare
    from lessons_lib.steering import SteeringParams, look_ahead_distance
    from lessons_lib.tracks import track
    from lessons_lib.vehicle import simulate

    caplog.set_level("WARNING", logger="matplotlib.font_manager")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figures = [slope_figure(grade=0.5), sweep_figure(), exercises.mystery_figure(),
                   run_figure(exercises.mystery_run(), track("hairpin"), title="")]
        problems = _drawn(figures, caught, caplog.records)
    assert not problems, problems[:5]
    # the notebook's tables, made as its code cells make them
    hairpin = track("hairpin")
    only = SteeringParams(use_heading=False, use_crosstrack=False)
    rows = [{"look-ahead": "fixed short (1.5 m)",
             **simulate(hairpin, only, 10.0, 5.0).metrics()}]
    tables = [table(rows, ["look-ahead", "rms_crosstrack", "max_crosstrack",
                           "steering_movement"],
                    caption="Position Delta only, hairpins, 10 m/s (errors in metres)").data,
              table([{"speed (m/s)": 5, "bend radius (m)": "straight",
                      "look-ahead (m)": look_ahead_distance(5, 0.0, SteeringParams())}],
                    ["speed (m/s)", "bend radius (m)", "look-ahead (m)"],
                    caption="The adaptive look-ahead with the default base 3 m and factor "
                            "0.3 s").data,
              table(compare(["s_bend"], speed=10.0, start_offset=2.0, duration=3.0),
                    ["track", "controller", "rms_crosstrack", "settle_time"]).data,
              table([{"grade": "10%", "|T × up|": float(np.cos(0.1))}], ["grade", "|T × up|"],
                    caption="Crosstrack error of a car 1 m right of a straight ramp").data,
              worked_example("A straight road along +x (its right side is -y); each case uses "
                             "one term only.",
                             [("1 m right of the line: crosstrack, steering",
                               i18n.words("{cte:+.2f} m, {steering:+.2f} (left)", cte=1.0,
                                          steering=-0.3))]).data]
    assert not _english(tables), _english(tables)[:5]
    questions = [exercises.look_ahead_question(), exercises.mystery_question()]
    number, choice = questions
    shown = [q.prompt.value for q in questions] + [q.hint for q in questions]
    shown += [number.explain, *number.wrong.values(), choice.explain,
              *choice.reasons, *(why for why in choice.reasons.values() if why)]
    for q in questions:                      # a wrong answer, then the right one
        q.control.value = "7" if q is number else next(o for o in choice.reasons
                                                     if o != choice.answer)
        q.submit()
        shown.append(q.feedback.value)
        q.show_hint()
        shown.append(q.feedback.value)
    choice.control.value = choice.answer
    choice.submit()
    shown.append(choice.feedback.value)
    assert not _english(shown), _english(shown)[:5]


def test_english_is_unchanged_by_the_catalogue():
    """The code's own language needs no catalogue: the same calls give the English text."""
    from lessons_lib.apps.steering import model

    i18n.set_language("en")
    try:
        assert model.article_label(model.SteeringParams()) == "Article (3 terms, our defaults)"
        assert model.place(model.road("open_road"), 250.0, 30.0).note.startswith(
            "That point is")
    finally:
        i18n.set_language(None)


#: Lesson 3's figures that tests/test_figure_text.py fits in English only: its Korean cases
#: are the catalogue's apps (SteeringApp); the term figures, the tuning exercise and the
#: notebook's fixed-size figures carry Hangul too, wider and taller than Latin text.
_STEERING_EXTRAS = ("TermApp-position", "TermApp-heading", "TermApp-crosstrack",
                    "TuningChallenge", "TuningChallenge-checked")
_STEERING_FIXED = ("slope_figure", "run_figure", "sweep_figure")


@pytest.mark.parametrize("name", _STEERING_EXTRAS)
def test_korean_term_and_tuning_figures_keep_their_text_whole_and_apart(korean, name):
    import test_figure_text as fit

    app = fit.MAKERS[name]()
    assert any("\uac00" <= ch <= "\ud7a3"
                                  for t in figure_texts(app.fig) for ch in t), name
    assert fit._collisions_at_every_size(app, f"ko {name}") == []


@pytest.mark.parametrize("name", _STEERING_FIXED)
def test_korean_fixed_figures_keep_their_text_whole_and_apart(korean, name):
    import test_figure_text as fit

    fig = fit.FIXED[name]()
    assert any("\uac00" <= ch <= "\ud7a3" for t in figure_texts(fig) for ch in t), name
    assert fit.text_collisions(fig) == []
