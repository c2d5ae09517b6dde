"""Rules every app keeps, checked on every app in the catalogue (headless, through ipympl)."""

from __future__ import annotations

import re

import ipywidgets as widgets
import matplotlib.pyplot as plt
import pytest
from matplotlib.text import Text
from rooms import ROOMS

from lessons_lib import apps
from lessons_lib.apps.core import MIN_FONT_SIZE, LessonApp, iter_widgets
from lessons_lib.apps.core.figure import MIN_TEXT_PX, PRESENT_TEXT_PX, smallest_text_px
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
    assert not small, f"text under {MIN_FONT_SIZE} pt (14.5 px): {small[:10]}"
    assert smallest_text_px(app.fig) >= MIN_TEXT_PX


@pytest.mark.parametrize("room", ["1280x720", "853x480", "1920x1080"])
def test_the_figure_keeps_its_text_size_at_every_fit_and_grows_in_presenter_mode(app, room):
    app.fit(*ROOMS[room])
    app.fig.canvas.draw()
    assert smallest_text_px(app.fig) >= MIN_TEXT_PX
    app.present(True)
    app.fig.canvas.draw()
    try:
        assert "lesson-present" in app.app_root._dom_classes
        assert smallest_text_px(app.fig) >= PRESENT_TEXT_PX
    finally:
        app.present(False)
    assert "lesson-present" not in app.app_root._dom_classes


def test_no_toolbar_no_resize_handle_and_no_new_figures_on_change(app):
    canvas = app.fig.canvas
    assert canvas.toolbar_visible is False and canvas.resizable is False
    before, draws = plt.get_fignums(), app.draw_count
    slider = next((w for w in iter_widgets(app.widget)
                   if isinstance(w, widgets.FloatSlider | widgets.IntSlider) and not w.disabled),
                  None)
    if slider is None:
        pytest.skip(f"{type(app).__name__} has no slider to move")
    slider.value = slider.value + slider.step if slider.value < slider.max else slider.min
    assert app.draw_count == draws + 1 and plt.get_fignums() == before


def test_a_smooth_play_asks_for_at_least_20_frames_a_second(app):
    """Issue 14's target for an animation: Play paints >= 20 frames a second, so it must
    ask for that many (the kernel's Play draws one per ``interval_ms``). A Play through
    whole steps (lesson 4's funnel, one step to read every 0.9 s) is not a motion."""
    if app.frame is None or app.frame.integer:
        pytest.skip(f"{type(app).__name__} has no smooth Play")
    assert 1000.0 / app.frame.interval_ms >= 20, app.frame.interval_ms


def _off_their_steps(app) -> list:
    """Float sliders whose value is not on one of their steps (nor their top end)."""
    off = []
    for s in iter_widgets(app.widget):
        if isinstance(s, widgets.FloatSlider) and s.value != s.max:
            k = (s.value - s.min) / s.step
            if abs(k - round(k)) > 1e-6:
                off.append((s.description, s.value, s.step))
    return off


def test_every_value_an_app_sets_itself_is_on_its_sliders_steps(app):
    """The page snaps a float slider's value to the slider's steps and sends the snapped
    value back as if the learner had moved it: a second compute and picture, and until it
    comes the slider and the picture disagree. So the start, every preset and every button
    (but the GIF, slow and touching no slider) must leave each float slider on a step."""
    assert not _off_their_steps(app), "at the start"
    for preset in app.presets:
        app.apply_preset(preset.name)
        assert not _off_their_steps(app), preset.name
    buttons = [b for b in iter_widgets(app.widget) if isinstance(b, widgets.Button)
               and "gif" not in b.description.lower()]
    assert buttons
    for button in buttons:
        button.click()
        assert not _off_their_steps(app), button.description


@pytest.mark.parametrize("name", NAMES)
def test_one_constructor_contract(name):
    """Every app is made as ``App(preset=None, **controls)``: one positional argument, the
    preset; each control by its name, over the preset; its own options keyword-only."""
    import inspect

    cls = getattr(apps, name)
    params = list(inspect.signature(cls).parameters.values())
    assert params[0].name == "preset" and params[0].default is None
    assert params[-1].kind is inspect.Parameter.VAR_KEYWORD
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:-1]), params
    spec = next((s for s in cls.controls if hasattr(s, "min")), None)   # a slider
    if spec is None:        # a legal app whose only slider is its frame (not a control)
        assert isinstance(cls(), LessonApp)
        return
    value = spec.max if spec.default != spec.max else spec.min
    assert getattr(cls(**{spec.name: value}), spec.name).value == value
    presets = cls().preset_list()
    if presets:
        app = cls(presets[0].name, **{spec.name: value})
        assert getattr(app, spec.name).value == value
        wanted = presets[0].values.get(spec.name)
        assert app.preset.value == (presets[0].name if wanted in (None, value)
                                    else app.custom_label)


def test_lesson_2s_static_pace_figure_keeps_the_14_px_floor():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from lessons_lib.apps.interpolation.figures import pace_figure

    fig = pace_figure()
    FigureCanvasAgg(fig).draw()
    assert smallest_text_px(fig) >= MIN_TEXT_PX


def _shown_in_presenter_mode(html_text: str) -> str:
    """What a note's HTML shows in presenter mode: without its ``lesson-when-more`` spans
    (core/layout.py's CSS hides them there) and tags, lower case."""
    text = re.sub(r"<span class='lesson-when-more'>.*?</span>", "", html_text)
    return " ".join(re.sub(r"<[^>]+>", " ", text).split()).lower()


def _label_words(w) -> str:
    """A control's label as a note would name it: lower case, no unit in brackets."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", (w.description or "").strip()).lower()


def test_in_presenter_mode_no_preset_note_names_a_hidden_control(app):
    """Issue 42: presenter mode hides "More controls"; a preset's note must not point the
    room at a control there (lesson 3's said "This preset sets fixed look-ahead 25 m"). A
    tick box's label names what it draws ("exact shortest path (sky blue)"), which a note
    may name while the preset draws it, and a one-word label ("Track", "Look-ahead") is a
    word of the lesson itself: the sliders' and menus' labels of two words or more are
    checked, as whole words."""
    if app.more_box is None or not app.preset_list():
        pytest.skip(f"{type(app).__name__} has no More controls or no presets")
    hidden = {_label_words(w) for w in iter_widgets(app.more_box)
              if isinstance(w, widgets.ValueWidget) and len(_label_words(w).split()) > 1
              and not isinstance(w, widgets.Checkbox | widgets.ToggleButton)}
    if not hidden:
        pytest.skip(f"{type(app).__name__} hides no slider or menu in presenter mode")
    app.present(True)
    try:
        for preset in app.preset_list():
            app.apply_preset(preset.name)
            note = _shown_in_presenter_mode(app.preset_note.value)
            named = sorted(label for label in hidden
                           if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", note))
            assert not named, (f"{type(app).__name__}, preset {preset.name!r}: in presenter "
                               f"mode its note names {named}, behind the hidden More controls; "
                               "say it with core.text.when_more (see the steering presets)")
    finally:
        app.present(False)


# -- the small copy beside a question (issue 45) ----------------------------------------------
def _moved(app) -> dict:
    """A value for the app's first control other than the one it holds: a slider's other
    end (on its steps), a menu's next option, a toggle flipped ({} with none to move)."""
    for spec in app.controls:
        w = getattr(app, spec.name)
        if hasattr(spec, "min"):
            return {spec.name: w.min if w.value != w.min else w.max}
        if hasattr(spec, "values"):
            other = [v for v in spec.values if v != w.value]
            if other:
                return {spec.name: other[0]}
        elif isinstance(w.value, bool):
            return {spec.name: not w.value}
    return {}


def test_a_copy_of_each_lesson_app_is_compact_and_starts_where_the_app_is(app):
    app.set(**_moved(app))
    copy = app.copy()
    assert type(copy) is type(app) and copy.compact and not app.compact
    assert copy.fig is not app.fig and copy.fig.number != app.fig.number
    assert dict(copy.params) == dict(app.params) and copy.frame_value == app.frame_value
    assert copy.more_button is None and copy.gif_button is None
    if type(app).compact_size is not None:
        natural = tuple(v * 100 for v in type(app).compact_size)    # CSS px at 100 %
        assert copy._natural == pytest.approx(natural, rel=0.02), copy._natural


def test_a_copy_and_its_app_are_independent_afterwards(app):
    if not _moved(app):
        pytest.skip(f"{type(app).__name__} has no control but its frame")
    copy = app.copy()
    before = dict(app.params)
    copy.set(**_moved(copy))
    assert dict(app.params) == before and dict(copy.params) != before
    kept = dict(copy.params)
    app.set(**_moved(app))
    assert dict(copy.params) == kept and dict(app.params) != before


def test_a_copy_refuses_a_control_the_app_does_not_have(app):
    with pytest.raises(ValueError, match=rf"{type(app).__name__}\.copy\(\) has no control "
                                         r"'bogus'; its controls are"):
        app.copy(bogus=1)


def test_lesson_1s_copy_keeps_its_target_and_flying_through_copy_args():
    from lessons_lib.apps.gimbal import model

    target = model.reach_target("YXZ", 40.0)
    yaw, pitch, roll = target.start
    reach = apps.GimbalApp(target=target, fly=False, yaw=yaw, pitch=pitch, roll=roll)
    copy = reach.copy()
    assert copy.target is target and not copy.can_fly and copy.compact
    assert copy.state.target_error == pytest.approx(reach.state.target_error)
    assert apps.GimbalApp(fly=False).copy().can_fly is False


def test_no_exercise_or_notebook_makes_a_small_copy_but_through_copy():
    """A question's small copy comes from the lesson's app, ``app.copy()`` (the loop's): an
    app made with ``compact=True`` by hand in a lesson's module or notebook fails here."""
    import ast
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    sources = {str(p.relative_to(root)): p.read_text()
               for p in (root / "lessons_lib" / "apps").rglob("*.py")
               if p.parent.name != "core"}
    for nb in sorted((root / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text())["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        sources[nb.name] = "\n".join(line for cell in code for line in cell.splitlines()
                                     if not line.lstrip().startswith(("%", "!")))
    found = []
    for name, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and any(k.arg == "compact" for k in node.keywords):
                found.append(f"{name}:{node.lineno}")
    assert sources and not found, f"made with compact= by hand (use app.copy()): {found}"


def test_no_control_shows_null_as_its_tooltip(app):
    """ipywidgets 8 puts a missing tooltip into the label's title as the word "null": every
    described widget of an app (and of its copy) has a tooltip, empty if nothing to say."""
    from lessons_lib.apps.core import quiet_tooltips

    for root in (app.widget, app.copy().widget):
        nulls = [w.description for w in iter_widgets(root)
                 if getattr(w, "description", "") and getattr(w, "tooltip", "") is None]
        assert not nulls, nulls
    bare = widgets.VBox([widgets.IntSlider(description="n")])
    assert quiet_tooltips(bare).children[0].tooltip == ""


def test_an_app_names_its_explanation_line_or_says_why_it_has_none(app):
    """Issue 42's stage rule: the page's layout sweep reads ``lesson-explain`` (the line that
    says what a change did) or ``lesson-unexplained`` (the app says why it has none; a
    small copy beside a question is marked so)."""
    for root in (app.widget, app.copy().widget):
        classes = {c for w in iter_widgets(root) for c in w._dom_classes}
        assert classes & {"lesson-explain", "lesson-unexplained"}, type(app).__name__
    with pytest.raises(ValueError, match="unexplained"):
        app.arrange(primary=[], unexplained=3)
