"""Lesson 4 in Korean: every figure drawn with its Hangul (no missing glyph, no font warning,
no English), and every sentence the apps put beside the map Korean too.

The apps are built with set_language("ko") in the states that show the most text: each
preset of both apps, the last step and a corner's two beats, the copy beside each question
after its "Show this case", the questions' feedback and hints, and the lesson's two static
pictures."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from latin import figure_problems, figure_texts, html_text, latin_runs  # noqa: E402


def _app_texts(app) -> list[str]:
    """Every sentence the app shows now: its panels, the preset's note, the status line,
    and the labels, tooltips and options of its controls."""
    import ipywidgets as widgets

    panels = app.panel(app.state, app.step.value if hasattr(app, "step") else None)
    texts = list(panels.values()) if isinstance(panels, dict) else [panels]
    texts += [app.preset_note.value, app.status.value]
    seen = [app.widget]
    while seen:
        w = seen.pop()
        shown = ("description", "tooltip", "placeholder") + (
            ("value",) if isinstance(w, widgets.HTML | widgets.Label) else ())
        for name in shown:
            value = getattr(w, name, None)
            if isinstance(value, str):
                texts.append(value)
        for label in getattr(w, "_options_labels", ()) or ():
            texts.append(label)
        seen += [c for c in getattr(w, "children", ()) or () if isinstance(c, widgets.Widget)]
    return [html_text(t) for t in texts if t]


def _english(texts) -> list[str]:
    return [run for t in texts for run in latin_runs(t)]


def test_funnel_app_in_every_preset_speaks_korean(korean):
    from lessons_lib.apps import FunnelApp

    app = FunnelApp()
    found, said = [], []
    for preset in app.presets:
        app.apply_preset(preset.name)
        for frame in sorted({0, 1, 2, int(app.step.max)}):
            app.show_frame(min(frame, int(app.step.max)))
            texts = _app_texts(app)
            said += texts
            found += [f"{preset.name} @ {frame}: {r}" for r in _english(texts)]
    # a corner's two beats and every step sentence ("why?") of the article's corridor
    app.apply_preset(app.presets[0].name)
    for b in range(int(app.step.max) + 1):
        app.show_frame(b)
        found += [f"beat {b}: {r}" for r in _english(_app_texts(app))]
    assert not found, found[:8]
    assert any("깔때기" in t for t in said) and any("포털" in t for t in said)


def test_funnel_app_messages_speak_korean(korean):
    from lessons_lib.apps import FunnelApp

    app = FunnelApp()
    app.click_point("goal", 8.0, 5.0)    # a click into the middle wall: moved, and told why
    app.click_point("start", -3.0, 2.0)  # a click outside the hall
    texts = _app_texts(app)
    assert any("가장 가까운 바닥" in t for t in texts), texts[:3]
    with pytest.raises(ValueError, match="바닥 위에 놓으세요"):
        app.set_points(goal=(-5.0, -5.0))
    app.set(radius=0.9, method="erode")
    assert not _english(_app_texts(app)), _english(_app_texts(app))[:5]


def test_grid_app_in_both_presets_speaks_korean(korean):
    from lessons_lib.apps import GridApp

    app = GridApp()
    found = []
    for preset in app.presets:
        app.apply_preset(preset.name)
        found += [f"{preset.name}: {r}" for r in _english(_app_texts(app))]
    assert "모서리" in app.preset_note.value
    # walled in: the grid's no-path message
    gx, gy = app.goal
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        x, y = gx + dx, gy + dy
        if 0 <= x < app.grid.shape[1] and 0 <= y < app.grid.shape[0] and not app.grid[y, x]:
            app.toggle_cell(x, y)
    found += [f"walled in: {r}" for r in _english(_app_texts(app))]
    assert "경로가 없습니다" in app.panel(app.state, None)
    assert not found, found[:8]


def _questions(app):
    from lessons_lib.apps.funnel import exercises

    return [exercises.step_question(app.copy(), portal=4),
            exercises.step_question(app.copy(), portal=6),
            exercises.first_corner_question(app.copy()),
            exercises.rooms_corners_question(app.copy()),
            exercises.cross_sign_question()]


def test_questions_their_feedback_and_hints_speak_korean(korean):
    from lessons_lib.apps import FunnelApp

    found = []
    for k, q in enumerate(_questions(FunnelApp())):
        texts = [html_text(q.prompt.value)]
        options = getattr(q.control, "options", None)
        if options:
            texts += list(options)
            for option in options:     # every verdict, right and wrong
                q.submit(option)
                texts.append(html_text(q.feedback.value))
        else:
            for answer in ("-1", "2.5", "0", "4", "7", "9", str(q.answer)):
                q.submit(answer)
                texts.append(html_text(q.feedback.value))
        q.show_hint()
        texts.append(html_text(q.feedback.value))
        if q.show_button is not None:
            q.show_button.click()
            texts.append(q.show_button.description)
            texts += _app_texts(q.beside)
        found += [f"question {k}: {r}" for r in _english(texts)]
    assert not found, found[:8]


def test_lesson4_figures_in_korean_have_every_glyph(korean, caplog):
    from lessons_lib.apps import FunnelApp, GridApp
    from lessons_lib.apps.funnel import figures
    from lessons_lib.navmesh import lesson_navmesh

    figs = []
    caplog.set_level("WARNING", logger="matplotlib.font_manager")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        app = FunnelApp()
        for preset in app.presets:
            app.apply_preset(preset.name)
            app.fig.canvas.draw()
        figs.append(app.fig)
        grid = GridApp("The line-of-sight trap")
        figs.append(grid.fig)
        for q in _questions(app):
            if q.show_button is not None:
                q.show_button.click()
                figs.append(q.beside.fig)
        cost = figures.cost_figure([(2, 1, 0.1), (4, 6, 0.2), (8, 28, 0.5)],
                                   [(10, 20, 0.1), (30, 60, 0.2), (100, 200, 0.5)])
        mesh = lesson_navmesh()
        path = np.array([[0.9, 1.8], [7.0, 5.0], [14.1, 9.6]])
        curve = np.array([[0.9, 1.8], [4.0, 4.0], [7.0, 5.0], [10.0, 7.0], [14.1, 9.6]])
        figs += [cost, figures.curve_figure(mesh, path, curve, curve[1:2])]
        for fig in figs:
            fig.canvas.draw()
    problems = figure_problems(figs, caught, caplog.records)
    assert not problems, problems[:5]
    texts = " ".join(t for fig in figs for t in figure_texts(fig))
    assert "입력 크기" in texts and "깔때기 경로" in texts, texts[:300]


def test_the_checks_here_find_english(korean):
    """The finders this file relies on: English in an app's text, and in a figure."""
    from lessons_lib.apps import FunnelApp

    app = FunnelApp()
    app.preset_note.value = "<div>The funnel opens at the start.</div>"
    assert _english(_app_texts(app))
    app.ax.set_title("funnel path")
    with warnings.catch_warnings(record=True) as caught:
        app.fig.canvas.draw()
    assert figure_problems([app.fig], caught, [])
